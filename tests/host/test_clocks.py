"""Match clocks, vacations and a new match's terms (host/clocks.py, docs/async-play.md): the
arithmetic, without Discord or a database."""

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from db.clocks import Balance
from db.settings import GameDefaults
from host import clocks
from host.clocks import terms_from
from rules import clocks as clock_rules
from rules.clocks import MatchClock, new_clock, on_move, remaining, run_out_at
from rules.periods import counted_deadline, extend, overlap, time_left

H = 3600.0
DAY = 24 * H


# ---- vacations not counted ----------------------------------------------------------------------


def test_a_timer_waits_the_vacation_out_and_then_the_time_it_had_left():
    # Set at 0 for 24 h; a vacation from 10 h to 40 h: 10 h before it, 14 h after it.
    assert extend(0, 24 * H, [(10 * H, 40 * H)]) == 54 * H
    # A vacation after the timer falls due changes nothing; one before it was set neither.
    assert extend(0, 24 * H, [(30 * H, 40 * H)]) == 24 * H
    assert extend(100 * H, 24 * H, [(10 * H, 40 * H)]) == 124 * H
    # A vacation running when the timer is set: it starts counting when the vacation ends.
    assert extend(5 * H, 1 * H, [(0, 10 * H)]) == 11 * H


def test_overlap_counts_only_the_part_inside():
    periods = [(10.0, 20.0), (30.0, 40.0)]
    assert overlap(periods, 0, 100) == 20
    assert overlap(periods, 15, 35) == 10
    assert overlap(periods, 20, 30) == 0
    # periods of several people may overlap: a moment inside two counts once
    assert overlap([(10.0, 20.0), (15.0, 25.0), (12.0, 14.0)], 0, 100) == 15


@settings(deadline=None)  # pure arithmetic; a busy machine must not fail it on time
@given(
    start=st.floats(0, 1000),
    length=st.floats(0, 1000),
    cuts=st.lists(st.tuples(st.floats(0, 3000), st.floats(0, 300)), max_size=5),
)
def test_extend_leaves_exactly_the_length_outside_the_vacations(start, length, cuts):
    # non-overlapping periods, as vacations are (one at a time)
    periods, moment = [], 0.0
    for gap, size in sorted(cuts):
        begin = moment + gap
        periods.append((begin, begin + size))
        moment = begin + size
    end = extend(start, length, periods)
    assert end >= start + length - 1e-6
    assert (end - start) - overlap(periods, start, end) == pytest.approx(length, abs=1e-6)


# ---- a league's deadline (Volleyball's rulings 52-53, Rollerball II's D10-D11) ------------------


def test_vacations_inside_a_leagues_time_put_its_deadline_off_by_the_time_away():
    since, deadline = 1000 * H, 1024 * H
    assert counted_deadline(since, deadline, []) == deadline
    # two days away starting an hour before the deadline: the hour left comes after them
    away = (deadline - H, deadline - H + 2 * DAY)
    assert counted_deadline(since, deadline, [away]) == deadline + 2 * DAY
    # two players away at overlapping times count once; a vacation over before the time
    # began counts nothing
    first = (since + H, since + 5 * H)
    second = (since + 3 * H, since + 7 * H)
    before = (since - DAY, since - H)
    assert counted_deadline(since, deadline, [before, first, second]) == deadline + 6 * H
    # back early: the vacation ended an hour after it began
    assert counted_deadline(since, deadline, [(since + H, since + 2 * H)]) == deadline + H


def test_a_paused_deadline_keeps_what_it_had_left_without_the_vacations():
    since, deadline = 1000 * H, 1024 * H
    paused = since + 6 * H
    assert time_left(since, deadline, paused) == 18 * H
    # two of the six hours were a vacation: they are not counted
    assert time_left(since, deadline, paused, [(since + H, since + 3 * H)]) == 20 * H
    assert time_left(since, deadline, since + 2 * DAY) == 0
    # two players away at overlapping times: those hours are not counted, once
    both = [(since + H, since + 3 * H), (since + 2 * H, since + 4 * H)]
    assert time_left(since, deadline, paused, both) == 21 * H


# ---- the clock ---------------------------------------------------------------------------------


def test_a_turn_is_charged_and_then_gets_the_increment_up_to_the_cap():
    clock = new_clock(
        bank_minutes=60 * 24, increment_minutes=60 * 12, cap_minutes=60 * 30, seats=[0, 1]
    )
    on_move(clock, {0}, now=0)  # seat 0's turn begins
    assert clock.since == {0: 0}
    on_move(clock, {1}, now=5 * H)  # seat 0 moved after 5 h: 24 - 5 + 12 = 31, capped at 30
    assert clock.left[0] == 30 * H and clock.since == {1: 5 * H}
    assert remaining(clock, 1, 7 * H) == 22 * H
    on_move(clock, {0}, now=20 * H)  # seat 1 took 15 h: 24 - 15 + 12 = 21
    assert clock.left[1] == 21 * H


def test_a_turn_that_spans_a_vacation_is_charged_only_the_time_outside_it():
    clock = new_clock(24 * 60, 0, None, [0, 1])
    on_move(clock, {0}, now=0)
    on_move(clock, {1}, now=50 * H, away={0: [(2 * H, 48 * H)]})  # away 46 of the 50 hours
    assert clock.left[0] == 20 * H
    assert clock_rules.run_out_at(clock, 1) == 74 * H
    assert clock_rules.run_out_at(clock, 1, [(60 * H, 70 * H)]) == 84 * H


def test_a_seat_that_keeps_the_turn_keeps_running_and_a_simultaneous_decision_runs_both():
    clock = new_clock(600, 0, None, [0, 1, 2])
    on_move(clock, {0, 1}, now=0)  # a secret bid: both decide
    on_move(clock, {1}, now=10 * 60)  # seat 0 has bid
    assert clock.since == {1: 0} and clock.left[0] == 590 * 60
    on_move(clock, {1}, now=20 * 60)  # seat 1 acts again (several actions in one turn)
    assert clock.since == {1: 0}


def test_a_seat_whose_time_ran_out_starts_its_next_turn_with_no_time_left():
    """docs/async-play.md, "Clocks": time is never given back, only earned by the increment."""
    clock = MatchClock(bank=100.0, increment=0.0, cap=None, left={0: 100.0, 1: 100.0})
    on_move(clock, {0}, now=0)
    on_move(clock, {1}, now=150)  # seat 0 overran (the match waited for it)
    assert clock.left[0] == 0
    on_move(clock, {0}, now=200)
    assert clock.left[0] == 0 and clock.since[0] == 200
    assert run_out_at(clock, 0) == 200  # its time is up as its turn starts


def test_a_clock_survives_its_json():
    clock = new_clock(90, 5, 120, [0, 1])
    on_move(clock, {1}, now=12.5)
    assert MatchClock.from_dict(clock.to_dict()) == clock
    fresh = clock_rules.fresh(clock.to_dict())
    assert fresh is not None
    again = MatchClock.from_dict(fresh)
    assert again.left == {0: 90 * 60, 1: 90 * 60} and again.since == {} and again.cap == 120 * 60
    trimmed = clock_rules.seated(new_clock(90, 5, None, range(6)).to_dict(), 3)
    assert trimmed is not None
    assert sorted(MatchClock.from_dict(trimmed).left) == [0, 1, 2]


# ---- vacation bank -----------------------------------------------------------------------------


def test_the_vacation_bank_starts_with_a_week_gains_a_day_a_week_and_holds_30_days():
    assert clocks.accrued(None, 0) == 7 * DAY
    assert clocks.accrued(Balance(2 * DAY, 0), 14 * DAY) == pytest.approx(4 * DAY)
    assert clocks.accrued(Balance(29 * DAY, 0), 70 * DAY) == 30 * DAY


# ---- a new match's terms ------------------------------------------------------------------------


def test_without_server_defaults_the_game_keeps_its_own_terms():
    terms = terms_from(
        GameDefaults(), set(), seats=[0, 1], remind_minutes=1440, forfeit_minutes=4320
    )
    assert (terms.remind_minutes, terms.forfeit_minutes, terms.takeover_minutes) == (
        1440,
        4320,
        None,
    )
    assert terms.on_timeout is None and terms.clock is None


def test_server_defaults_replace_what_the_player_did_not_type():
    server = GameDefaults(remind_minutes=120, timeout_minutes=600, on_timeout="computer")
    terms = terms_from(server, set(), seats=[0, 1], remind_minutes=1440, forfeit_minutes=4320)
    assert terms.remind_minutes == 120 and terms.takeover_minutes == 600
    assert terms.on_timeout == "computer" and terms.forfeit_minutes > 600
    typed = terms_from(
        server, {"remind_hours"}, seats=[0, 1], remind_minutes=1440, forfeit_minutes=4320
    )
    assert typed.remind_minutes == 1440 and typed.takeover_minutes == 600


@pytest.mark.parametrize("policy", ["forfeit", "wait"])
def test_forfeit_and_wait_use_the_forfeit_timer_and_no_stand_in(policy):
    server = GameDefaults(timeout_minutes=300, on_timeout=policy)
    # a game with a stand-in of its own (Rollerball's timeout_hours)
    terms = terms_from(server, set(), seats=range(4), remind_minutes=60, takeover_minutes=1440)
    assert terms.takeover_minutes is None and terms.forfeit_minutes == 300
    assert terms.on_timeout == policy


def test_a_typed_timeout_wins_over_the_server_length_but_not_its_policy():
    server = GameDefaults(timeout_minutes=300, on_timeout="forfeit")
    terms = terms_from(
        server, {"forfeit_hours"}, seats=[0, 1], remind_minutes=60, forfeit_minutes=2880
    )
    assert terms.forfeit_minutes == 2880 and terms.on_timeout == "forfeit"


def test_a_server_clock_gives_every_seat_its_bank():
    server = GameDefaults(clock_minutes=3 * 1440, increment_minutes=720, cap_minutes=5 * 1440)
    terms = terms_from(server, set(), seats=[0, 1, 2], remind_minutes=60)
    assert terms.clock is not None
    clock = MatchClock.from_dict(terms.clock)
    assert clock.left == {0: 3 * DAY, 1: 3 * DAY, 2: 3 * DAY}
    assert clock.increment == 12 * H and clock.cap == 5 * DAY


def test_the_options_a_player_typed_are_found_inside_subcommands():
    interaction: Any = SimpleNamespace(  # the part of a discord.Interaction it reads
        data={
            "options": [
                {
                    "type": 1,
                    "name": "challenge",
                    "options": [
                        {"type": 6, "name": "opponent", "value": "1"},
                        {"type": 4, "name": "remind_hours", "value": 3},
                    ],
                }
            ]
        }
    )
    assert clocks.given_options(interaction) == {"opponent", "remind_hours"}
    assert clocks.given_options(None) == set()


def test_a_match_without_a_policy_keeps_the_games_own_behaviour():
    def match(on_timeout: str | None, takeover_minutes: int | None) -> Any:
        """The parts of a host.Match that policy_of reads."""
        return SimpleNamespace(on_timeout=on_timeout, takeover_minutes=takeover_minutes)

    assert clocks.policy_of(match(None, None)) == "claim"
    assert clocks.policy_of(match(None, 60)) == "computer"
    assert clocks.policy_of(match("wait", 60)) == "wait"
