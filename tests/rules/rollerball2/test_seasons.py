"""A coach's week in a Rollerball II season, without a database: the line-up a match plays
when the saved one holds someone who may not play, the quality shown for a team with dead
players, a roster CSV written by a spreadsheet that separates with semicolons, one way a score
reads, and the statistics rows a finished match adds (docs/rules/rollerball2.md, "Teams,
seasons and statistics")."""

from __future__ import annotations

import pytest

from rules.rollerball2 import ENGINE, roster_to_json
from rules.rollerball2.coach import auto_play
from rules.rollerball2.engine import new_match, result
from rules.rollerball2.roster import (
    Roster,
    default_lineup,
    generate_roster,
    match_lineup,
    roster_after_match,
    validate_lineup,
)
from rules.rollerball2.scoresheet import Absence
from rules.rollerball2.state import Event
from rules.rollerball2.stats import (
    LEADER_STATS,
    career_stats,
    leaders,
    match_stats,
    player_rows,
    score_line,
    team_line,
    team_stats,
)
from rules.rollerball2.teams import import_roster, parse_roster_csv, roster_to_csv


def _hurt(roster: Roster, *absences: Absence) -> Roster:
    return roster_after_match(roster, list(absences))


# --- the line-up a match plays --------------------------------------------------------------


def test_a_saved_lineup_holding_an_injured_player_plays_the_default_replacement():
    roster = generate_roster(7, "Lagos")
    saved = default_lineup(roster)
    out = saved["Skater2"]
    assert out is not None
    roster = _hurt(roster, Absence(out, "injury", "matches", 2, "broken jaw"))

    lineup, changes = match_lineup(roster, saved)

    validate_lineup(roster, lineup)  # it can play
    assert [(c.slot, c.out) for c in changes] == [("Skater2", out)]
    replacement = changes[0].replacement
    assert lineup["Skater2"] == replacement and replacement not in saved.values()
    # Every other slot is the coach's own choice, untouched.
    assert {s: n for s, n in lineup.items() if s != "Skater2"} == {
        s: n for s, n in saved.items() if s != "Skater2"
    }
    # The replacement is the best fit bench skater (the default coach's order: the slot's own
    # position, then STAR, VETERAN, ROOKIE, then the lower number).
    bench = [
        c
        for c in roster.players
        if c.number not in saved.values() and c.position == "skater" and c.number != out
    ]
    rank = {"star": 0, "veteran": 1, "rookie": 2}
    best = min(bench, key=lambda c: (rank[c.experience], c.number))
    assert replacement == best.number


def test_a_match_started_from_a_saved_lineup_says_who_replaces_whom_whenever_it_opens():
    """The engine face starts a match from the coaches' saved line-ups (ruling D1a): the
    default replacement plays, and the match's opening says so, both when it is created and
    when it opens later (a coaches match opens when the challenge is accepted)."""
    home, away = generate_roster(7, "Lagos"), generate_roster(8, "Oslo")
    saved = default_lineup(home)
    out = saved["Skater2"]
    assert out is not None
    home = _hurt(home, Absence(out, "injury", "matches", 2, "broken jaw"))
    options = {
        "mode": "coaches",
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": saved,
        "away_lineup": None,
        "home_team_id": 1,
        "away_team_id": 2,
    }
    game, events = ENGINE.new_state(5, options)
    replacement = game.engine.home.starters["Skater2"]
    assert replacement not in (None, out)
    note = (
        f"Lagos' saved line-up: #{out} {home.card(out).name} (injured (2 matches)) cannot "
        f"play; #{replacement} {home.card(replacement).name} plays Skater2 instead."
    )
    assert [e.text for e in events if isinstance(e, Event) and e.kind == "lineup"] == [note]
    reopened = ENGINE.load(ENGINE.dump(game))
    opening = ENGINE.opening_events(reopened)
    assert [e.text for e in opening if isinstance(e, Event) and e.kind == "lineup"] == [note]
    assert game.engine.away.starters == default_lineup(away)


def test_a_legal_saved_lineup_plays_as_saved_and_none_plays_the_default():
    roster = generate_roster(8, "Oslo")
    saved = default_lineup(roster)
    saved["Skater1"], saved["Skater2"] = saved["Skater2"], saved["Skater1"]
    assert match_lineup(roster, saved) == (saved, [])
    assert match_lineup(roster, None) == (default_lineup(roster), [])


def test_a_dead_biker_with_nobody_left_to_ride_leaves_his_slot_empty():
    roster = generate_roster(9, "Quito")
    saved = default_lineup(roster)
    bench = [
        c.number for c in roster.players if c.position == "biker" and c.number not in saved.values()
    ]
    roster = _hurt(roster, *(Absence(n, "killed", "killed", None, "killed") for n in bench))
    banned = saved["Biker1"]
    assert banned is not None
    roster = _hurt(roster, Absence(banned, "ban", "lifetime", None, "fixing"))
    lineup, changes = match_lineup(roster, saved)
    validate_lineup(roster, lineup)
    assert lineup["Biker1"] is None
    assert [(c.slot, c.out, c.replacement) for c in changes] == [("Biker1", saved["Biker1"], None)]


# --- team quality -----------------------------------------------------------------------------


def test_team_quality_counts_only_players_who_can_still_play():
    roster = next(
        r
        for r in (generate_roster(seed, "Dynasty") for seed in range(100))
        if r.quality == "contender"
    )
    mix = roster.experience_mix()
    stars = [c.number for c in roster.players if c.experience == "star"]
    margin = mix["star"] - mix["rookie"]
    # Dead and banned for life: no longer counted. A season-long injury: he comes back.
    gone = [Absence(n, "killed", "killed", None, "killed") for n in stars[: margin - 3]]
    gone.append(Absence(stars[margin - 3], "ban", "lifetime", None, "match fixing"))
    gone.append(Absence(stars[margin - 2], "injury", "season", None, "broken leg"))
    after = _hurt(roster, *gone)
    assert after.experience_mix()["star"] == mix["star"] - (margin - 2)
    assert after.quality == "average"


# --- a roster CSV from a spreadsheet -------------------------------------------------------------


def test_a_roster_separated_by_semicolons_is_read_like_one_separated_by_commas():
    houston = generate_roster(4, "Houston")
    commas = roster_to_csv(houston)
    semicolons = commas.replace(",", ";")
    imported = import_roster(semicolons, "Houston", 1)
    assert [(c.number, c.name, c.offense, c.defense) for c in imported.players] == [
        (c.number, c.name, c.offense, c.defense) for c in houston.players
    ]
    # A spreadsheet's quotes around a cell, and a name holding a comma, under semicolons.
    text = 'name;number;position;experience\n"Moonpie, Jr.";7;skater;star\nBlue;8;biker;rookie\n'
    cards = parse_roster_csv(text, "Houston", 1, whole_team=False)
    assert [(c.name, c.number, c.position) for c in cards] == [
        ("Moonpie, Jr.", 7, "skater"),
        ("Blue", 8, "biker"),
    ]
    # Commas stay the rule when the header has them; a semicolon is then part of a name.
    cards = parse_roster_csv(
        "name,number,position,experience\nA;B,9,skater,star\n", "Houston", 1, whole_team=False
    )
    assert cards[0].name == "A;B"


# --- one way a score reads ---------------------------------------------------------------------


def test_a_score_reads_visitors_first_and_says_who_is_at_home():
    assert score_line("Madrid", 5, "Houston", 6) == "Madrid 5 at Houston 6"
    assert score_line("Madrid", None, "Houston", None) == "Madrid at Houston"


# --- statistics rows ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played():
    home, away = generate_roster(31, "Houston"), generate_roster(32, "Tokyo")
    return result(auto_play(new_match(1, home, away))[0])


def test_player_rows_are_the_players_who_appeared_and_add_up_to_the_sheet(played):
    for side in ("home", "away"):
        sheet = played.home if side == "home" else played.away
        rows = player_rows(played, side)
        shown = {line.number for line, _ in rows}
        for line in sheet.players:
            appeared = line.on_track or line.penalty_minutes or line.injury
            assert (line.number in shown) == bool(appeared)
        total = career_stats([line for line, _ in rows])
        assert total.goals == sheet.score
        assert sum(stats.points for _, stats in rows) == total.goals + total.assists
        assert all(stats == match_stats(line) for line, stats in rows)


def test_a_teams_line_for_one_match_is_its_share_of_the_totals(played):
    home, away = team_line(played, "home"), team_line(played, "away")
    assert (home.played, away.played) == (1, 1)
    assert (home.goals_for, home.goals_against) == (played.home_score, played.away_score)
    assert home.casualties == away.casualties_suffered
    assert home.assists == sum(line.assists for line in played.home.players)
    assert away.catches == sum(line.catches for line in played.away.players)
    assert home + away == team_stats([played], "Houston") + team_stats([played], "Tokyo")


def test_leaders_rank_points_and_catches_too(played):
    assert {"points", "catches", "goals", "assists"} <= set(LEADER_STATS)
    top = leaders([played], "points", 3)
    assert top and top[0].value == max(
        line.goals + line.assists for sheet in (played.home, played.away) for line in sheet.players
    )
