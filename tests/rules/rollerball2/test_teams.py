"""Teams, seasons and statistics without a database (docs/rules/rollerball2.md, "Teams, seasons
and statistics")."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from rules.rollerball2.cards import PASS
from rules.rollerball2.coach import auto_play
from rules.rollerball2.engine import new_match, result
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.roster import generate_roster, roster_after_match, validate_roster
from rules.rollerball2.scoresheet import Absence
from rules.rollerball2.season import GameScore, double_round_robin, standings
from rules.rollerball2.stats import (
    career_stats,
    leaders,
    lines_for,
    match_stats,
    team_stats,
    three_stars,
)
from rules.rollerball2.teams import (
    RosterImportError,
    import_roster,
    open_places,
    parse_roster_csv,
    rename_player,
    rename_team,
    roster_to_csv,
    sign_generated,
    sign_players,
)

HEADER = "name,number,position,experience\n"


def _simple_csv(rows: int = 12) -> str:
    positions = ["biker"] * 3 + ["skater"] * 5 + ["catcher"] * (rows - 8)
    return HEADER + "".join(
        f"Player {i},{i + 1},{position},veteran\n" for i, position in enumerate(positions)
    )


# --- CSV -------------------------------------------------------------------------------------


def test_export_then_import_gives_the_same_cards():
    team = generate_roster(1, "Houston")
    text = roster_to_csv(team)
    back = import_roster(text, "Houston", seed=99)
    assert back.players == team.players


# Cells a spreadsheet would run as a formula (OWASP's CSV injection): a link, a command
# through DDE, a function, arithmetic.
FORMULAS = ['=HYPERLINK("http://e.vil","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-1+1"]


def test_an_exported_name_is_never_a_formula_and_imports_back_as_it_was():
    team = generate_roster(1, "Houston")
    players = [
        replace(card, name=name)
        for card, name in zip(team.players, [*FORMULAS, "'=x", "'Tis"], strict=False)
    ]
    team = replace(team, players=players + team.players[len(players) :])
    text = roster_to_csv(team)
    for row in csv.reader(io.StringIO(text)):
        assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row), row
    back = import_roster(text, "Houston", seed=99)
    assert back.players == team.players
    assert {card.name for card in back.players} >= {*FORMULAS, "'=x", "'Tis"}


def test_the_csv_prints_columns_in_the_cards_row_order_face_0_first():
    team = generate_roster(1, "Houston")
    first = team.players[0]
    line = roster_to_csv(team).splitlines()[1]
    offense_cell = line.split(",")[4]
    assert offense_cell.split()[0] == first.offense[9]  # face 0 is the engine's 10
    assert offense_cell.split()[1] == first.offense[0]


def test_rows_without_columns_get_cards_from_the_tables_reproducibly():
    players = parse_roster_csv(_simple_csv(), "Leeds", seed=5)
    assert len(players) == 12 and all(card.team == "Leeds" for card in players)
    assert parse_roster_csv(_simple_csv(), "Leeds", seed=5) == players
    validate_roster(import_roster(_simple_csv(), "Leeds", seed=5))


def test_every_problem_is_listed_at_once_with_its_line():
    text = (
        HEADER
        + "Ann,7,skater,star\n"
        + "Bob,7,skater,veteran\n"  # line 3: duplicate number
        + "Cid,8,goalie,star\n"  # line 4: unknown position
        + "Dan,x,biker,rookie\n"  # line 5: bad number
        + "Eve,9,biker,legend\n"  # line 6: unknown experience
        + ",10,biker,star\n"  # line 7: no name
    )
    with pytest.raises(RosterImportError) as caught:
        parse_roster_csv(text, "Leeds", 1)
    problems = caught.value.problems
    assert any(p.startswith("Line 3:") and "#7" in p for p in problems)
    assert any(p.startswith("Line 4:") and "goalie" in p for p in problems)
    assert any(p.startswith("Line 5:") and "0-99" in p for p in problems)
    assert any(p.startswith("Line 6:") and "legend" in p for p in problems)
    assert any(p.startswith("Line 7:") and "name" in p for p in problems)


def test_wrong_columns_are_refused_before_any_row():
    with pytest.raises(RosterImportError) as caught:
        parse_roster_csv("name,number,pos,xp\nAnn,1,skater,star\n", "Leeds", 1)
    text = "\n".join(caught.value.problems)
    assert "unknown column" in text and "missing column(s) position, experience" in text
    with pytest.raises(RosterImportError, match="both offense and defense"):
        parse_roster_csv("name,number,position,experience,offense\n", "Leeds", 1)


def test_more_than_40_rows_is_refused():
    with pytest.raises(RosterImportError, match="at most 40"):
        parse_roster_csv(_simple_csv(41), "Leeds", 1)


def test_a_column_with_two_evts_or_pass_on_defense_is_refused_with_its_line():
    card = generate_roster(1, "Houston").players[0]
    text = roster_to_csv(generate_roster(1, "Houston"))
    lines = text.splitlines()
    name, number, position, experience, offense, defense = lines[1].split(",")
    two_evts = " ".join(["EVT", "EVT", *offense.split()[2:]])
    defense_pass = " ".join([PASS, *[r for r in defense.split() if r != "EVT"][:8], "EVT"])
    lines[1] = ",".join((name, number, position, experience, two_evts, defense_pass))
    with pytest.raises(RosterImportError) as caught:
        parse_roster_csv("\n".join(lines), "Houston", 1)
    problems = "\n".join(caught.value.problems)
    assert "Line 2: OFFENSE has exactly one EVT, not 2" in problems
    assert "Line 2: DEFENSE may only hold" in problems and "PASS" in problems
    assert card.number == int(number)


def test_too_few_bikers_is_an_impossible_roster():
    text = HEADER + "".join(f"P{i},{i},skater,star\n" for i in range(10))
    with pytest.raises(RosterImportError, match="biker"):
        parse_roster_csv(text, "Leeds", 1)


# --- signings and renames --------------------------------------------------------------------


def test_dead_and_life_banned_players_open_places_up_to_25():
    team = generate_roster(2, "Houston")
    assert open_places(team) == 0
    with pytest.raises(RollerballError, match="0 more"):
        sign_generated(team, 1, "skater")
    dead, banned = team.players[0].number, team.players[1].number
    team = roster_after_match(
        team,
        [
            Absence(dead, "killed", "killed", None, "killed"),
            Absence(banned, "ban", "lifetime", None, "banned for life"),
        ],
    )
    assert open_places(team) == 2
    signed = sign_generated(team, 1, "biker")
    assert len(signed.players) == 26 and open_places(signed) == 1
    new = next(c for c in signed.players if c not in team.players)
    assert new.position == "biker" and new.team == "Houston"
    validate_roster(signed)
    imported = parse_roster_csv(HEADER + "Zed,0,catcher,rookie\n", "Other", 3, whole_team=False)
    assert len(imported) == 1
    both = sign_players(signed, imported)
    assert both.card(0).team == "Houston" and open_places(both) == 0
    with pytest.raises(RollerballError, match="already worn"):
        sign_players(signed, [signed.card(new.number)])


def test_renames_check_the_name_and_keep_the_card():
    team = generate_roster(2, "Houston")
    card = team.players[3]
    renamed = rename_player(team, card.number, "  Jonathan   E. ")
    assert renamed.card(card.number).name == "Jonathan E."
    assert renamed.card(card.number).offense == card.offense
    with pytest.raises(RollerballError, match="at most 32"):
        rename_player(team, card.number, "x" * 33)
    with pytest.raises(RollerballError, match="already has"):
        rename_player(team, card.number, team.players[4].name)
    moved = rename_team(team, "Madrid")
    assert moved.team == "Madrid" and all(c.team == "Madrid" for c in moved.players)


# --- seasons ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 7, 8])
def test_double_round_robin_meets_everyone_home_and_away_once_a_matchday(count):
    teams = [f"T{i}" for i in range(count)]
    days = double_round_robin(teams)
    fixtures = [fixture for day in days for fixture in day]
    assert sorted(fixtures) == sorted((a, b) for a in teams for b in teams if a != b)
    for day in days:
        playing = [team for fixture in day for team in fixture]
        assert len(playing) == len(set(playing))
    assert len(days) == 2 * (count - 1 + count % 2)
    homes = {team: sum(f[0] == team for f in fixtures[: len(fixtures) // 2]) for team in teams}
    assert max(homes.values()) - min(homes.values()) <= 2  # the first half roughly balanced


def test_standings_rank_by_points_then_goal_difference():
    table = standings(
        ["A", "B", "C", "D"],
        [GameScore("A", "B", 5, 3), GameScore("C", "A", 4, 4), GameScore("B", "C", 9, 1)],
    )
    assert [row.team for row in table] == ["A", "B", "C", "D"]
    a, b = table[0], table[1]
    assert (a.won, a.drawn, a.lost, a.points, a.goal_difference) == (1, 1, 0, 3, 2)
    assert (b.won, b.lost, b.points, b.goal_difference) == (1, 1, 2, 6)
    assert table[3].played == 0 and table[3].points == 0
    level = standings(["A", "B"], [GameScore("A", "B", 2, 5), GameScore("B", "A", 1, 6)])
    assert [row.team for row in level] == ["A", "B"]  # 2 points each; A +2, B -2
    with pytest.raises(RollerballError):
        standings(["A"], [GameScore("A", "Z", 1, 0)])


# --- statistics ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_matches():
    home, away = generate_roster(31, "Houston"), generate_roster(32, "Tokyo")
    first, _ = auto_play(new_match(1, home, away))
    second, _ = auto_play(new_match(2, away, home))
    return result(first), result(second)


def test_career_lines_add_up_the_match_rows(two_matches):
    first = two_matches[0]
    scorer = max(first.home.players, key=lambda line: line.goals)
    rows = lines_for(two_matches, "Houston", scorer.number)
    assert len(rows) == 2
    career = career_stats(rows)
    assert career.goals == sum(row.goals for row in rows) >= 1
    assert career.matches == sum(row.on_track for row in rows)
    assert career == match_stats(rows[0]) + match_stats(rows[1])


def test_team_totals_match_the_scores(two_matches):
    first, second = two_matches
    houston = team_stats(two_matches, "Houston")
    assert houston.played == 2
    assert houston.goals_for == first.home.score + second.away.score
    assert houston.goals_against == first.away.score + second.home.score
    assert houston.won + houston.lost + houston.drawn == 2
    assert houston.record == f"{houston.won}-{houston.lost}-{houston.drawn}"
    tokyo = team_stats(two_matches, "Tokyo")
    assert tokyo.casualties == houston.casualties_suffered


def test_leaders_and_three_stars(two_matches):
    top = leaders(two_matches, "goals", 5)
    assert [leader.value for leader in top] == sorted((x.value for x in top), reverse=True)
    best = top[0]
    assert career_stats(lines_for(two_matches, best.team, best.number)).goals == best.value
    stars = three_stars(two_matches[0])
    assert len(stars) == 3
    assert all(line.on_track for _, line in stars)
    most_goals = max(
        line.goals for sheet in (two_matches[0].home, two_matches[0].away) for line in sheet.players
    )
    assert stars[0][1].goals >= most_goals - 1


def test_player_status_says_why_he_may_not_play():
    from rules.rollerball2.teams import player_status

    team = generate_roster(2, "Houston")
    a, b, c, d = (card.number for card in team.players[:4])
    team = roster_after_match(
        team,
        [
            Absence(a, "injury", "matches", 2, "broken wrist"),
            Absence(b, "ban", "season", None, "drug test"),
            Absence(c, "killed", "killed", None, "killed"),
            Absence(d, "ban", "lifetime", None, "match fixing"),
        ],
    )
    assert player_status(team, a) == "injured (2 matches)"
    assert player_status(team, b) == "banned (season)"
    assert player_status(team, c) == "dead"
    assert player_status(team, d) == "banned for life"
    assert player_status(team, team.players[4].number) == "fit"


def test_lineup_choices_offer_fit_players_of_the_slot_first():
    from rules.rollerball2.teams import lineup_choices

    team = generate_roster(2, "Houston")
    injured = next(card for card in team.players if card.position == "catcher")
    team = roster_after_match(team, [Absence(injured.number, "injury", "matches", 1, "x")])
    catchers = lineup_choices(team, "Catcher1")
    assert injured.number not in catchers and len(catchers) <= 25
    positions = [team.card(n).position for n in catchers]
    assert positions[: positions.count("catcher")] == ["catcher"] * positions.count("catcher")
    assert set(positions) == {"catcher", "skater"}
    assert all(team.card(n).position == "biker" for n in lineup_choices(team, "Biker2"))
    with pytest.raises(RollerballError, match="no Goalie1"):
        lineup_choices(team, "Goalie1")
