"""The schedule, the league table and whole seasons: a seeded 8-team season from creation to
season end, the second season's ageing, determinism, JSON round trips and the record."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.volleyball.__main__ import main, replay
from rules.volleyball.managers import (
    computer_ageing_splits,
    new_computer_league,
    play_computer_season,
)
from rules.volleyball.models import AGE_TALENT, Fixture, FixtureResult
from rules.volleyball.orders import VolleyballError
from rules.volleyball.rounds import RoundReport
from rules.volleyball.season import (
    LeagueState,
    LeagueTable,
    close_season,
    double_round_robin,
    end_season,
    record_header,
    record_season_end,
    season_opening_events,
    table_from_results,
)

TEAMS = [f"T{i}" for i in range(1, 9)]


# --- the schedule --------------------------------------------------------------------------


def test_double_round_robin_for_eight_teams() -> None:
    fixtures = double_round_robin(TEAMS, 2)
    assert len(fixtures) == 8 * 7  # every ordered pair once
    pairs = Counter((f.home, f.away) for f in fixtures)
    assert set(pairs.values()) == {1}
    assert all((b, a) in pairs for a, b in pairs)  # home and away against everyone
    assert max(f.round_number for f in fixtures) == 7
    for round_number in range(1, 8):
        in_round = [f for f in fixtures if f.round_number == round_number]
        plays = Counter(t for f in in_round for t in (f.home, f.away))
        assert set(plays.values()) == {2}  # two matches a round for every team
        assert {f.match_number for f in in_round} == {1, 2}


def test_odd_number_of_teams_gets_byes() -> None:
    fixtures = double_round_robin(["A", "B", "C", "D", "E"], 2)
    assert len(fixtures) == 5 * 4
    plays = Counter(t for f in fixtures for t in (f.home, f.away))
    assert set(plays.values()) == {8}


def test_home_matches_are_balanced() -> None:
    homes = Counter(f.home for f in double_round_robin(TEAMS, 2))
    assert set(homes.values()) == {7}


# --- the table -----------------------------------------------------------------------------


def test_table_ranks_points_then_set_difference_then_rallies() -> None:
    table = LeagueTable.for_teams(["A", "B", "C"])
    table.record("A", "B", 3, 0, 45, 20)
    table.record("B", "C", 3, 2, 70, 66)
    table.record("C", "A", 3, 1, 60, 50)
    # everyone 1 win: A sets 4-3 (+1), B 3-5 (-2), C 5-4 (+1); A and C by rallies: A +15, C -6
    assert [row.team for row in table.standings()] == ["A", "C", "B"]
    assert table.rows["A"].points == 2


def test_cup_results_do_not_count_in_the_table() -> None:
    league_fixture = double_round_robin(["A", "B"], 1)[0]
    cup_fixture = Fixture(1, 2, "A", "B", "cup")
    table = table_from_results(
        ["A", "B"],
        [
            FixtureResult(league_fixture, 3, 0, [(15, 1), (15, 2), (15, 3)]),
            FixtureResult(cup_fixture, 0, 3, [(1, 15), (2, 15), (3, 15)]),
        ],
    )
    assert table.rows[league_fixture.home].won == 1
    assert table.rows[league_fixture.home].played == 1


# --- whole seasons -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def first_season() -> tuple[LeagueState, LeagueState, list[RoundReport], list[str]]:
    start = new_computer_league(8, seed=11)
    record = record_header(start)
    end, reports = play_computer_season(start, record)
    return start, end, reports, record


def test_a_full_eight_team_season(first_season) -> None:
    start, end, reports, _record = first_season
    assert len(reports) == start.total_rounds == 7
    assert end.season_over
    table = end.table()
    assert sum(row.played for row in table.rows.values()) == 8 * 14
    assert all(row.played == 14 for row in table.rows.values())
    assert sum(row.won for row in table.rows.values()) == 8 * 7
    assert end.cup.winner is not None and end.cup.rounds_played == 4
    cup_matches = [r for r in end.league.results if r.fixture.competition == "cup"]
    assert len(cup_matches) == 8 + 4 + 2 + 1
    # levels never negative and own levels within the rules
    for team in end.league.teams:
        for player in team.players:
            assert player.ol >= 0 and player.dl >= 0
            assert player.ol + player.dl <= 35


def test_the_same_seed_gives_the_same_season(first_season) -> None:
    _start, end, _reports, _record = first_season
    again, _ = play_computer_season(new_computer_league(8, seed=11))
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(end.to_dict(), sort_keys=True)
    other, _ = play_computer_season(new_computer_league(8, seed=12))
    assert other.table().to_json() != end.table().to_json()


def test_league_state_round_trips_through_json(first_season) -> None:
    _start, end, reports, _record = first_season
    text = json.dumps(end.to_dict())
    assert LeagueState.from_dict(json.loads(text)).to_dict() == end.to_dict()
    for report in reports[:2]:
        assert RoundReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report


def test_record_replays_to_the_same_state(first_season, tmp_path) -> None:
    _start, end, _reports, record = first_season
    path = tmp_path / "league.txt"
    path.write_text("\n".join(record))
    replayed = replay(str(path))
    assert replayed.to_dict() == end.to_dict()


def test_season_end_before_the_last_round_is_refused(first_season) -> None:
    start, _end, _reports, _record = first_season
    with pytest.raises(VolleyballError, match="is not over"):
        end_season(start)


def test_second_season_ageing(first_season) -> None:
    _start, end, _reports, record = first_season
    before = {
        (team.name, p.name): (p.age, p.ol, p.dl) for team in end.league.teams for p in team.players
    }
    splits = computer_ageing_splits(end)
    record = [*record, *record_season_end(end, splits)]
    second, events = end_season(end, splits)
    assert second.league.season == 2 and second.league.round_number == 1
    assert second.past_seasons[0]["champion"] == end.table().standings()[0].team
    assert second.past_seasons[0]["cup_winner"] == end.cup.winner
    losses = {"A": 6, "B": 10, "C": 14, "D": 14}
    for team in second.league.teams:
        assert team.sponsor is None
        assert team.special_points == second.league.config.special_points_per_season
        assert not any(p.is_contract for p in team.players)
        for player in team.players:
            old_age, ol, dl = before[(team.name, player.name)]
            assert old_age != "E"
            if old_age == AGE_TALENT:
                assert (player.ol, player.dl) == (ol, dl)
                assert player.age == ("A" if ol else AGE_TALENT)
            else:
                assert player.age == chr(ord(old_age) + 1)
                lost = (ol - player.ol) + (dl - player.dl)
                assert lost >= losses[old_age]  # more only when the 3:1 ratio cut
                assert player.ol >= 1 and player.dl >= 1
    assert any("leaves" in e for e in events)
    # the second season plays through too, and its record still replays
    final, _reports = play_computer_season(second, record)
    assert final.season_over and final.league.season == 2


def test_the_season_end_keeps_each_teams_ageing_to_its_manager(first_season) -> None:
    """docs/rules/volleyball.md, "What the public sees": levels, ages and scouting are the team's
    own; the public season-end lines name champions, promotion and the new season, never a player's
    levels or age."""
    _start, end, _reports, _record = first_season
    closed = close_season(end, computer_ageing_splits(end))
    public = "\n".join(closed.public)
    own_players = {p.name for t in end.league.teams for p in t.players if not p.is_contract}
    assert not any(name in public for name in own_players)
    assert " ages to " not in public and "talent" not in public.lower()
    assert "champions" in public
    for team in end.league.teams:
        lines = "\n".join(closed.private[team.name])
        others = {p.name for t in end.league.teams if t is not team for p in t.players}
        assert " ages to " in lines
        assert not any(f"{name} ages" in lines for name in others - {p.name for p in team.players})


def test_command_line_season_prints_the_table_and_cup_winner(capsys) -> None:
    assert main(["season", "--teams", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Season 1, final table:" in out
    assert "Galaxy Cup winner:" in out
    assert out.count("\n  ") >= 4  # four table rows


def test_the_season_opening_shows_the_cup_draw_and_gm_offers() -> None:
    state = new_computer_league(4, seed=6)
    events = season_opening_events(state)
    assert events[0] == "Season 1 begins: 3 rounds, 2 matches a round."
    entrants = state.cup.entrants
    assert events[1] == (
        "Galaxy Cup draw (played in rounds 1, 2, 3): "
        f"{entrants[0]} v {entrants[1]}, {entrants[2]} v {entrants[3]}, "
        f"{entrants[4]} v {entrants[5]}, {entrants[6]} v {entrants[7]}."
    )
    # 3 rounds: no GM offers (none in the last four rounds)
    assert len(events) == 2


def test_command_line_replay_prints_the_final_state(first_season, tmp_path, capsys) -> None:
    _start, end, _reports, record = first_season
    path = tmp_path / "league.txt"
    path.write_text("\n".join(record))
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(end.to_dict()))
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join([*record[:3], "orders {not json"]))
    assert main(["replay", str(broken)]) == 1
    assert "Line 4: cannot read this orders line" in capsys.readouterr().err
