"""The results sequence of a round (seed, "Sequence of the several stages for the results"),
order validation, NMR (rule 12), spying (rule 9) and money conservation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.volleyball import economy
from rules.volleyball.lineups import starting_lineup
from rules.volleyball.managers import (
    all_computer_orders,
    computer_match_orders,
    computer_orders,
    new_computer_league,
)
from rules.volleyball.match import default_match_orders
from rules.volleyball.models import AGE_TALENT, Player
from rules.volleyball.orders import (
    ContractBid,
    LevelPoints,
    RoundOrders,
    SpyOrder,
    TrainingOrder,
    TransferBid,
    TransferSale,
    VolleyballError,
)
from rules.volleyball.rounds import (
    after_match_preview,
    play_round,
    preview_team,
    round_fixtures,
    round_order_problems,
    team_fixtures,
)
from rules.volleyball.season import LeagueState
from rules.volleyball.wording import possessive


def basic_orders(
    state: LeagueState, team_name: str, scout_talents: list[str] | None = None
) -> RoundOrders:
    """Orders with the default line-ups for the team's matches this round (planned on the
    team as it will be at each match), and the talents to scout."""
    orders = RoundOrders(team=team_name, scout_talents=list(scout_talents or []))
    planned = state.league.team(team_name)
    assert planned is not None, team_name
    team, _problems = preview_team(planned, orders, state)
    fixtures = round_fixtures(state, state.league.round_number)
    for fixture in team_fixtures(fixtures, team_name):
        home = fixture.home == team_name
        match_orders = default_match_orders(
            team,
            opponent=fixture.away if home else fixture.home,
            home=home,
            match_number=fixture.match_number,
        )
        orders.matches.append(match_orders)
        team = after_match_preview(team, match_orders)
    return orders


def starting_orders(state: LeagueState, team_name: str) -> RoundOrders:
    """Orders with the starting line-ups the orders form opens with (every set filled, the
    home-advantage points spread), planned on the team as it will be at each match."""
    orders = RoundOrders(team=team_name)
    team = state.league.team(team_name)
    assert team is not None
    allowance = state.league.config.home_advantage_points(state.league.round_number)
    for fixture in team_fixtures(round_fixtures(state, state.league.round_number), team_name):
        home = fixture.home == team_name
        match_orders = starting_lineup(
            team,
            opponent=fixture.away if home else fixture.home,
            home=home,
            match_number=fixture.match_number,
            home_advantage=allowance,
        )
        orders.matches.append(match_orders)
        team = after_match_preview(team, match_orders)
    return orders


def all_basic_orders(state: LeagueState) -> dict[str, RoundOrders]:
    return {t.name: basic_orders(state, t.name) for t in state.league.teams}


@pytest.fixture
def league() -> LeagueState:
    return new_computer_league(4, seed=21)


# --- validation ----------------------------------------------------------------------------


def test_every_problem_is_listed_and_nothing_is_applied(league: LeagueState) -> None:
    name = league.league.teams[0].name
    before = league.to_dict()
    orders = basic_orders(league, name)
    orders.training = [TrainingOrder("Nobody Known", 1, 0)]
    orders.sponsor = "Moon Money"
    orders.spies = [SpyOrder(name)]
    orders.matches[0].sets[0].devotion = LevelPoints(ol=31)
    with pytest.raises(VolleyballError) as caught:
        play_round(league, {name: orders})
    problems = caught.value.problems
    assert f"{name}: {name} has no player called Nobody Known to train." in problems
    assert any("no sponsor called Moon Money" in p for p in problems)
    assert f"{name}: A team cannot spy on itself." in problems
    number = orders.matches[0].match_number  # the cup match (number 3) comes first
    assert (
        f"{name}: Match {number}: The orders use 31 devotion points; at most 30 may be used in a match."
        in problems
    )
    assert league.to_dict() == before


def test_orders_for_a_match_the_team_does_not_play(league: LeagueState) -> None:
    name = league.league.teams[0].name
    orders = basic_orders(league, name)
    orders.matches[0].match_number = 7
    assert f"{name} plays no match number 7 this round." in round_order_problems(league, orders)


# --- the sequence --------------------------------------------------------------------------


def tp_earned(state: LeagueState, report, team_name: str) -> int:
    """Rule 6 with the season's numbers: the training points a team earns by its results in
    the round `report` tells of."""
    config = state.league.config
    matches = [m for m in report.matches if team_name in (m.home, m.away)]
    won = sum(1 for m in matches if m.winner == team_name)
    sets_won = sum(m.home_sets if m.home == team_name else m.away_sets for m in matches)
    return (
        config.training_points_per_round
        + config.training_points_per_match_played * len(matches)
        + config.training_points_per_match_won * won
        + config.training_points_per_set_won * sets_won
    )


def test_wages_are_fixed_by_the_levels_after_training(league: LeagueState) -> None:
    team = league.league.teams[0]
    player = team.players[0]
    player.ol, player.dl = 5, 5  # 10 points: $25 a round
    team.training_points = 1
    orders = basic_orders(league, team.name)
    orders.training = [TrainingOrder(player.name, 1, 0)]  # 11 points: $50 a round
    wages_before_training = economy.wages_due(team)
    after, report = play_round(league, {team.name: orders})
    wages = [e.amount for e in report.ledger if e.team == team.name and e.reason == "wages"]
    assert wages == [-(wages_before_training + 25)]
    trained = after.league.team(team.name).player(player.name)
    assert (trained.ol, trained.dl, trained.trained_ol) == (6, 5, 1)
    # The one point trained with is spent; what the team has now it earned this round.
    earned = tp_earned(league, report, team.name)
    assert after.league.team(team.name).training_points == earned


def test_round_income_and_training_points_earned(league: LeagueState) -> None:
    after, report = play_round(league, all_basic_orders(league))
    for team in league.league.teams:
        entries = [e for e in report.ledger if e.team == team.name]
        assert economy.MoneyEntry(team.name, 500, "round money") in entries
        earned = after.league.team(team.name).training_points - team.training_points
        assert earned == tp_earned(league, report, team.name)


def test_cup_matches_are_played_before_league_matches() -> None:
    state = new_computer_league(4, seed=5)  # 3 rounds, cup rounds in rounds 1, 2 and 3
    assert state.cup.league_rounds == [1, 2, 3]
    _after, report = play_round(state, all_basic_orders(state))
    competitions = [
        "cup" if m.home in state.cup.entrants and m.away in state.cup.entrants else "?"
        for m in report.matches[:4]
    ]
    assert competitions == ["cup"] * 4
    cup_lines = [i for i, e in enumerate(report.events) if e.startswith("Galaxy Cup:")]
    league_lines = [i for i, e in enumerate(report.events) if e.startswith("Match ")]
    assert max(cup_lines) < min(league_lines)


# --- no move received ----------------------------------------------------------------------


def test_nmr_says_so_when_the_last_line_up_cannot_be_repeated(league: LeagueState) -> None:
    # With the default training points, NMR training lifts enough players to fill the set the
    # last line-up left empty, so that line-up is no longer valid as it stands.
    name = league.league.teams[1].name
    second_state, _ = play_round(league, all_basic_orders(league))
    assert any(not s.player_names for s in second_state.league.team(name).last_lineup)
    orders = all_basic_orders(second_state)
    del orders[name]
    _, report = play_round(second_state, orders)
    fallbacks = [
        e
        for e in report.private[name]
        if e.startswith(f"{possessive(name)} last line-up can't be played")
    ]
    assert fallbacks and fallbacks[0].endswith("the default line-up plays instead.")


def test_nmr_repeats_the_last_line_up_without_points_and_trains(league: LeagueState) -> None:
    # Few training points, so NMR training does not lift enough players to fill the set the
    # last line-up left empty (which would make the repeat invalid and bring in the default).
    league.league.config.training_points_per_match_played = 0
    name = league.league.teams[1].name
    first = all_basic_orders(league)
    first[name].matches[0].sets[0].devotion = LevelPoints(ol=3)
    second_state, _ = play_round(league, first)
    team = second_state.league.team(name)
    last = [s.player_names for s in team.last_lineup]
    tp_before = team.training_points
    assert tp_before > 0
    orders = all_basic_orders(second_state)
    del orders[name]
    third_state, report = play_round(second_state, orders)
    assert report.nmr_teams == [name]
    assert any(
        e.startswith(f"{name} gave no line-up for match") and "NMR line-up plays (rule 12)" in e
        for e in report.private[name]
    )
    played = [m for m in report.matches if name in (m.home, m.away)]
    first_match = played[0]  # the first match it plays this round (a cup match comes first)
    side_orders = first_match.home_orders if first_match.home == name else first_match.away_orders
    assert [s.player_names for s in side_orders.sets] == last
    for set_order in side_orders.sets:
        assert set_order.home_advantage.total == 0
        assert set_order.devotion.total == 0
        assert set_order.special.total == 0
    earned = next(
        int(e.split(" earn ")[1].split()[0])
        for e in report.private[name]
        if e.startswith("You earn ")
    )
    # NMR training spent some of the points in hand (step 1) before this round's were earned.
    assert third_state.league.team(name).training_points < tp_before + earned
    assert any(e.startswith(f"{name}: ") and "trains to" in e for e in report.private[name])


# --- spying --------------------------------------------------------------------------------


def test_spy_report_goes_only_to_the_spying_team(league: LeagueState) -> None:
    spy, target = league.league.teams[0].name, league.league.teams[2].name
    target_fixture = next(
        f
        for f in round_fixtures(league, 1)
        if target in (f.home, f.away) and f.competition == "league"
    )
    orders = all_basic_orders(league)
    orders[spy].spies = [SpyOrder(target, target_fixture.match_number, player_detail=True)]
    after, report = play_round(league, orders)
    assert economy.MoneyEntry(spy, -550, "spying") in report.ledger
    assert after.league.team(spy).spies_used == 1
    spied = [t for t, lines in report.private.items() if any("Spy report" in x for x in lines)]
    assert spied == [spy]
    lines = report.private[spy]
    start = next(i for i, x in enumerate(lines) if x.startswith("Spy report"))
    lines = lines[start:]
    assert lines[0].startswith(f"Spy report on {target}")
    assert any(line.strip().startswith("Set 1:") and " OL " in line for line in lines)
    assert any(": Setter " in line or ": Allround " in line for line in lines)  # detail


def test_spying_is_limited_to_four_a_season_and_by_the_bank(league: LeagueState) -> None:
    spy, target = league.league.teams[0].name, league.league.teams[2].name
    league.league.team(spy).spies_used = 4
    orders = basic_orders(league, spy)
    orders.spies = [SpyOrder(target, 1)]
    assert any("four spying orders" in p for p in round_order_problems(league, orders))

    league.league.team(spy).spies_used = 0
    league.league.team(spy).money = -800  # $300 would make it -$1,100
    all_orders = all_basic_orders(league)
    all_orders[spy].spies = [SpyOrder(target, 1)]
    after, report = play_round(league, all_orders)
    assert after.league.team(spy).spies_used == 0
    assert not any("Spy report" in x for lines in report.private.values() for x in lines)
    assert (
        f"{possessive(spy)} spying order on {target} is not valid: $300 would take the bank account "
        "below -$1,000." in report.private[spy]
    )


# --- properties ----------------------------------------------------------------------------


def check_ledger(before: LeagueState, after: LeagueState, report) -> None:
    allowed = economy.MONEY_SOURCES | economy.MONEY_SINKS | {economy.TRANSFER_FEE}
    assert {e.reason for e in report.ledger} <= allowed
    assert sum(e.amount for e in report.ledger if e.reason == economy.TRANSFER_FEE) == 0
    for reason in economy.MONEY_SOURCES:
        assert all(e.amount >= 0 for e in report.ledger if e.reason == reason)
    for reason in economy.MONEY_SINKS:
        assert all(e.amount <= 0 for e in report.ledger if e.reason == reason)
    for team in before.league.teams:
        booked = sum(e.amount for e in report.ledger if e.team == team.name)
        assert after.league.team(team.name).money - team.money == booked


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_money_is_conserved_and_levels_never_negative(seed: int) -> None:
    state = new_computer_league(6, seed=seed)
    while not state.season_over:
        after, report = play_round(state, all_computer_orders(state))
        check_ledger(state, after, report)
        for team in after.league.teams:
            for player in team.players:
                assert player.ol >= 0 and player.dl >= 0
        state = after


def test_play_round_leaves_the_state_untouched(league: LeagueState) -> None:
    before = league.to_dict()
    after, _report = play_round(league, all_basic_orders(league))
    assert league.to_dict() == before
    assert after.league.round_number == 2
    assert after.league.results and not league.league.results


def test_later_matches_are_checked_against_the_team_as_it_will_be_then(
    league: LeagueState,
) -> None:
    # A talent one match short of his 2/2 is put in sets 1 and 2 of all three matches of the
    # round: after the cup match (played first) he has 2/2, which tire to 0/0 in set 1 of
    # match 1, so he cannot play its set 2. The manager is told when giving the orders.
    team = league.league.teams[0]
    team.players.append(Player("Tim Talent", AGE_TALENT, 0, 0, talent_matches=3))
    orders = basic_orders(league, team.name)
    orders.matches = [
        computer_match_orders(
            team,
            opponent=m.opponent,
            home=m.home,
            match_number=m.match_number,
            home_advantage=0,
            special_budget=0,
            devotion=0,
        )
        for m in orders.matches
    ]
    for match_orders in orders.matches:
        assert [s.player_names[-1] for s in match_orders.sets[:2]] == ["Tim Talent"] * 2
    problems = round_order_problems(league, orders)
    assert [p.split(":")[0] for p in problems] == ["Match 1", "Match 2"]
    assert problems[0] == (
        "Match 1: Set 2: Tim Talent cannot play: his levels would be OL 0 / DL 0 after the "
        "sets before, and a player needs both levels at least 1."
    )
    # The computer manager plans for it: the talent sits out the later matches.
    planned = computer_orders(league, team.name)
    assert round_order_problems(league, planned) == []
    with_talent = {m.match_number: "Tim Talent" in m.sets[0].player_names for m in planned.matches}
    assert with_talent == {3: True, 1: False, 2: False}


def test_report_text_shows_spy_reports_only_to_their_team(league: LeagueState) -> None:
    spy, target = league.league.teams[0].name, league.league.teams[2].name
    orders = all_basic_orders(league)
    del orders[league.league.teams[3].name]
    fixture = next(
        f for f in round_fixtures(league, 1) if target in (f.home, f.away) and f.match_number == 1
    )
    orders[spy].spies = [SpyOrder(target, fixture.match_number)]
    _after, report = play_round(league, orders)
    public = report.text()
    assert public.startswith("Season 1, round 1: results")
    assert f"No orders received from: {league.league.teams[3].name} (NMR)." in public
    assert all(m.score_line in public for m in report.matches)
    assert "Spy report" not in public
    assert "Spy report" not in report.text(target)
    assert f"Spy report on {target}" in report.text(spy)


# --- the markets across rounds ---------------------------------------------------------------


def test_a_player_offered_in_one_round_is_sold_in_the_next() -> None:
    state = new_computer_league(6, seed=2)  # 5 rounds: transfers in rounds 1-2
    seller, buyer = state.league.teams[0], state.league.teams[1]
    player = seller.players[0]
    orders = all_basic_orders(state)
    orders[seller.name].sales = [TransferSale(player.name, minimum_price=200)]
    state, report = play_round(state, orders)
    assert [(t.seller, t.player, t.minimum_price) for t in state.transfer_list] == [
        (seller.name, player.name, 200)
    ]
    assert any(e.startswith(f"Transfer list: {player.name} ({seller.name}") for e in report.events)
    # he still plays for his team in round 2, then goes to the highest bidder
    orders = all_basic_orders(state)
    orders[buyer.name].transfer_bids = [TransferBid(seller.name, player.name, 250)]
    state, report = play_round(state, orders)
    assert state.league.team(buyer.name).player(player.name) is not None
    assert state.league.team(seller.name).player(player.name) is None
    assert f"{buyer.name} buys {player.name} from {seller.name} for $250." in report.events
    assert economy.MoneyEntry(seller.name, 250, economy.TRANSFER_FEE) in report.ledger
    assert state.transfer_list == []
    # round 3 of 5 is one of the last three: no more offers for sale
    late = basic_orders(state, seller.name)
    late.sales = [TransferSale(state.league.team(seller.name).players[0].name)]
    assert any("No players can be offered" in p for p in round_order_problems(state, late))


def test_contract_player_signs_at_step_10_and_is_paid_each_round() -> None:
    state = new_computer_league(4, seed=2)  # 3 rounds
    team = state.league.teams[2]
    orders = all_basic_orders(state)
    orders[team.name].contract_bids = [ContractBid("Tomas Spike", 90, 2)]
    state, report = play_round(state, orders)
    assert (
        f"Tomas Spike signs with {team.name} for 2 rounds at $90 a round (bonus $0), rounds 2-3."
        in report.events
    )
    spike = state.league.team(team.name).player("Tomas Spike")
    assert spike.is_contract and spike.contract_last_round == 3
    assert not any(e.reason == "contract pay" for e in report.ledger)  # starts next round
    state, report = play_round(state, all_basic_orders(state))
    assert economy.MoneyEntry(team.name, -90, "contract pay") in report.ledger
    assert any("contract with" in e and "ends after next round" in e for e in report.events)
    state, report = play_round(state, all_basic_orders(state))
    assert economy.MoneyEntry(team.name, -90, "contract pay") in report.ledger
    assert state.league.team(team.name).player("Tomas Spike") is None


def test_scouting_adds_talents_up_to_three_a_season(league: LeagueState) -> None:
    name = league.league.teams[0].name
    orders = all_basic_orders(league)
    orders[name] = basic_orders(league, name, ["Nina Nieuw", "Otto Oost"])
    after, report = play_round(league, orders)
    team = after.league.team(name)
    nina = team.player("Nina Nieuw")
    assert nina.is_talent and team.talents_scouted == 2
    assert "You scout a new talent, Nina Nieuw." in report.private[name]
    more = basic_orders(after, name, ["Piet Put", "Rosa Rood"])
    assert any("already scouted 3 talents" in p for p in round_order_problems(after, more))
