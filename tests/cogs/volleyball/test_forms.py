"""The text the cog lays out and reads: a roster typed in the team form, the orders modal's
boxes (the seed's form, compact) read back by the engine, problems told by box and line, and
the season settings."""

from __future__ import annotations

from cogs.volleyball.forms import (
    join_boxes,
    order_boxes,
    order_summary_lines,
    parse_roster,
)
from cogs.volleyball.settings import parse_season_settings, season_config
from rules.volleyball import new_league, submit_orders


def test_a_roster_is_read_line_by_line_and_every_bad_line_is_named():
    roster = parse_roster(
        "TEAM: Red Rockets\n# a note\nAnna Visser A 8 8\nBob de Wit, B, 9/7\n\nsix feet\nCees C 10 x"
    )
    assert roster.name == "Red Rockets"
    assert [(p.name, p.age, p.ol, p.dl) for p in roster.players] == [
        ("Anna Visser", "A", 8, 8),
        ("Bob de Wit", "B", 9, 7),
    ]
    assert [p.split(":")[0] for p in roster.problems] == ["Line 6", "Line 7"]


def test_the_orders_form_comes_filled_with_a_line_up_the_engine_accepts():
    state = new_league([], total_teams=4, seed=7)
    team = state.league.teams[0]
    boxes = order_boxes(state, team, None)
    assert len(boxes) <= 5 and boxes[-1].custom_id == "lines"
    assert all(len(b.value) <= 4000 and len(b.label) <= 45 for b in boxes)
    matches = [b for b in boxes if b.custom_id.startswith("match:")]
    joined = join_boxes([(b.label, b.value, True) for b in matches])
    check = submit_orders(state, team.name, text=joined.text)
    assert check.accepted, check.problems
    assert sorted(m.match_number for m in check.orders.matches) == sorted(
        int(b.custom_id.split(":")[1]) for b in matches
    )
    # what is on file comes back in the boxes unchanged
    again = order_boxes(state, team, check.orders)
    assert [b.value for b in again] == [b.value for b in boxes]


def test_problems_name_the_box_and_its_line():
    state = new_league([], total_teams=4, seed=7)
    team = state.league.teams[0]
    first, second = [b for b in order_boxes(state, team, None) if b.custom_id != "lines"][:2]
    player = team.players[0].name
    broken = second.value.replace(f"\n{player} 3", f"\n{player}x 3", 1)
    # the manager deleted the VOLLEYBALL line: the form is still read as a form of its own
    broken = broken.removeprefix("VOLLEYBALL\n")
    joined = join_boxes([("Box A", first.value, True), ("Box B", broken, True)])
    check = submit_orders(state, team.name, text=joined.text)
    problems = [joined.where(p) for p in check.problems]
    line = broken.splitlines().index(f"{player}x 3") + 1
    assert problems == [
        f"Box B, line {line}: {team.name} has no player called '{player}x'. Did you mean {player}?"
    ]


def test_the_answer_lists_the_orders_with_totals_and_chances():
    state = new_league([], total_teams=4, seed=7)
    team = state.league.teams[0]
    text = "\n".join(b.value for b in order_boxes(state, team, None)[:-1])
    check = submit_orders(state, team.name, text=text + "\nSPONSOR: Champion Cola")
    lines = order_summary_lines(state, team, check.orders)
    assert lines[:2] == ["Other orders:", "SPONSOR: Champion Cola"]
    assert any(
        line.startswith("Set 1: NC risk 3") and "% against a neutral side" in line for line in lines
    )


def test_season_settings_are_checked_and_applied():
    values, problems = parse_season_settings("special_points=200 pp_c=30, scouts=2")
    assert problems == []
    config = season_config(values)
    assert config.special_points_per_season == 200
    assert config.player_points_by_age["C"] == 30 and config.talent_scouts_per_season == 2
    _, problems = parse_season_settings("specal_points=200 matches_per_round=9 what")
    assert len(problems) == 3
    assert "no season setting called 'specal_points'" in problems[1]
    assert "matches_per_round must be 1 to 3" in problems[2]
