"""The round's results split per audience (a public summary that fits a few Discord messages
once the presenter packs it, a private sheet per team) and the start-of-season publication."""

from __future__ import annotations

import pytest

from rules.volleyball.managers import all_computer_orders, new_computer_league
from rules.volleyball.orders import SpyOrder
from rules.volleyball.reports import (
    cup_bracket,
    market_lines,
    public_round_summary,
    season_publication,
    team_sheet,
)
from rules.volleyball.rounds import play_round
from ui.text import MAX_CONTENT, Markup
from ui.text import packed as packed_shown


def packed(lines: list[str], limit: int = MAX_CONTENT) -> list[str]:
    """The engine's report lines packed as the bot's own text (its markdown kept: the teams
    here are the computer's, named by the engine), to check they fit Discord's messages."""
    return packed_shown([Markup(line) for line in lines], limit)


@pytest.fixture(scope="module")
def round_one():
    state = new_computer_league(8, seed=4)
    orders = all_computer_orders(state)
    spy, target = state.league.teams[0].name, state.league.teams[1].name
    number = orders[target].matches[-1].match_number
    orders[spy].spies = [SpyOrder(target, number, player_detail=True)]
    after, report = play_round(state, orders)
    return state, after, report


def test_the_public_summary_fits_discord_and_has_scores_standings_and_next(round_one) -> None:
    _before, after, report = round_one
    messages = packed(public_round_summary(after, report))
    assert all(len(m) <= MAX_CONTENT for m in messages)
    assert len(messages) <= 4  # an 8-team round (was one 33 KB text)
    text = "\n".join(messages)
    for match in report.matches:
        assert match.score_line in text
    assert "**Standings**" in text and "**Next**" in text
    assert after.league.teams[0].name in text.split("**Standings**")[1]
    next_fixture = after.fixtures(after.league.round_number, "league")[0]
    assert f"{next_fixture.home} v {next_fixture.away}" in text
    assert (
        "Spy report" not in text
        and "scoring chance" not in text
        and "$" not in text.split("**News**")[0]
    )


def test_embed_sized_messages_are_up_to_4096(round_one) -> None:
    _before, after, report = round_one
    messages = packed(public_round_summary(after, report), limit=4096)
    assert all(len(m) <= 4096 for m in messages)
    assert len(messages) <= len(packed(public_round_summary(after, report)))


def test_each_team_sheet_is_its_own(round_one) -> None:
    before, after, report = round_one
    spy, target = before.league.teams[0].name, before.league.teams[1].name
    sheet = "\n".join(team_sheet(after, spy, report))
    team = after.league.team(spy)
    assert f"TP {team.training_points}" in sheet and f"SP {team.special_points} left" in sheet
    for player in team.players:
        assert f"{player.name}: " in sheet
    # The first lines say the round's results and the money; no line is wider than a phone's
    # screen needs (no code block to scroll sideways).
    lines = sheet.splitlines()
    assert lines[1].startswith("Round 1: ") and (" won " in lines[1] or " lost " in lines[1])
    assert lines[2].startswith("Money ") and "this round" in lines[2]
    assert "```" not in sheet
    assert f"Spy report on {target}" in sheet
    assert "scoring chance" in sheet  # its own totals
    other = "\n".join(team_sheet(after, target, report))
    assert "Spy report" not in other
    assert all(len(m) <= MAX_CONTENT for m in packed(team_sheet(after, spy, report)))


def test_the_season_publication_lists_what_the_seed_says(round_one) -> None:
    before, _after, _report = round_one
    publication = season_publication(before)
    config = before.league.config
    text = "\n".join(publication.lines())
    for sponsor in config.sponsors:
        assert sponsor.name in text
    for player in config.contract_players:
        assert f"{player.name}: OL {player.ol}, DL {player.dl}" in text
    assert f"{config.special_points_per_season} per team" in text
    assert f"{config.home_advantage_points(1)} points in round 1" in text
    assert f"Round {before.total_rounds}:" in text
    assert publication.to_dict()["special_points"] == config.special_points_per_season
    assert all(len(m) <= MAX_CONTENT for m in packed(publication.lines()))


def test_the_cup_bracket_halves_to_a_final(round_one) -> None:
    before, _after, _report = round_one
    rounds = cup_bracket(before)
    sizes = [len(r) for r in rounds]
    assert sizes == [8, 4, 2, 1]  # 8 teams + 8 amateurs
    assert {m.home for m in rounds[0]} | {m.away for m in rounds[0]} == set(before.cup.entrants)


def test_the_market_lists_what_is_open_for_bids() -> None:
    state = new_computer_league(6, seed=21)
    text = "\n".join(market_lines(state))
    for offer in state.gm_offers:
        assert offer.describe() in text
    for player in state.league.config.contract_players:
        assert f"{player.name}: OL {player.ol}, DL {player.dl}" in text
    assert "Transfer list: empty." in text
