"""The public results show what a spectator at the match would see (scores
by set, the players who played); totals, concepts, risk, points and levels go to the team's
own report and to paid spy reports only (rule 9 sells them)."""

from __future__ import annotations

import re

import pytest

from rules.volleyball.managers import all_computer_orders, new_computer_league
from rules.volleyball.orders import GmOfferBid, SpyOrder, TrainingOrder
from rules.volleyball.rounds import RoundReport, play_round
from rules.volleyball.season import LeagueState

SECRET = re.compile(r"\bOL \d|\bDL \d|risk \d|scoring chance|trains to|\b(AC|OC|NC|DC|WC)\b")


@pytest.fixture(scope="module")
def played() -> tuple[LeagueState, LeagueState, RoundReport]:
    state = new_computer_league(4, seed=5)
    orders = all_computer_orders(state)
    first = state.league.teams[0]
    first.training_points = 4
    player = next(p for p in first.players if p.ol + p.dl < 30 and p.ol < 3 * p.dl)
    orders[first.name].training = [TrainingOrder(player.name, 1, 0)]
    target = state.league.teams[1].name
    match = next(m for m in orders[target].matches)
    orders[first.name].spies = [SpyOrder(target, match.match_number, player_detail=True)]
    after, report = play_round(state, orders)
    return state, after, report


def test_public_results_hold_no_totals_concepts_risk_or_levels(played) -> None:
    _state, _after, report = played
    public = report.text()
    leaks = [line for line in public.splitlines() if SECRET.search(line)]
    assert leaks == []


def test_public_results_show_the_scores_and_who_played(played) -> None:
    _state, _after, report = played
    public = report.text()
    match = report.matches[0]
    assert match.score_line in public
    for name in match.sets_played["home"]:
        assert name in public


def test_a_team_reads_its_own_totals_and_training_but_not_the_opponents(played) -> None:
    state, _after, report = played
    first = state.league.teams[0].name
    own = report.text(first)
    assert "trains to" in own
    assert "scoring chance" in own
    other = state.league.teams[2].name
    assert f"{other}: player" not in own  # no other team's training lines
    not_spied = [
        line
        for line in report.text(other).splitlines()
        if "trains to" in line and not line.startswith(other)
    ]
    assert not_spied == []


def test_the_spy_report_goes_only_to_the_spying_team(played) -> None:
    state, _after, report = played
    first, target = state.league.teams[0].name, state.league.teams[1].name
    assert f"Spy report on {target}" in report.text(first)
    for team in state.league.teams[1:]:
        assert "Spy report" not in report.text(team.name)


def test_a_bid_refused_by_the_bank_and_the_bank_warning_are_private() -> None:
    state = new_computer_league(6, seed=21)
    orders = all_computer_orders(state)
    poor = state.league.teams[0]
    poor.money = -1400  # refused bids, and after the round still below -$1,000
    offer = next(o for o in state.gm_offers if o.kind == "player")
    orders[poor.name].gm_offer_bids = [GmOfferBid(offer.offer_id, 1, "Jan Arm")]
    orders[poor.name].contract_bids = []
    orders[poor.name].transfer_bids = []
    orders[poor.name].spies = []
    _after, report = play_round(state, orders)
    public = report.text()
    assert poor.name not in " ".join(e for e in report.events if "bank account" in e)
    assert not any("is not valid" in e and poor.name in e for e in report.events)
    own = report.private[poor.name]
    assert any("bank account is" in line for line in own)
    assert "bank account is" not in public
