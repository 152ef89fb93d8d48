"""Whole matches: rosters and lineups, coach actions, periods and overtime, JSON, records, CLI."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import asdict

import pytest

from rules.rollerball2.__main__ import main
from rules.rollerball2.cards import BIKER, CATCHER, SKATER
from rules.rollerball2.coach import auto_play, choose_action, step
from rules.rollerball2.content import load_content
from rules.rollerball2.engine import apply, legal_actions, new_match, result, scoreboard
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.record import parse_action, replay, to_record
from rules.rollerball2.roster import (
    Roster,
    default_lineup,
    generate_roster,
    roster_after_match,
    roster_new_season,
    validate_lineup,
)
from rules.rollerball2.scoresheet import Absence
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PHASE_OVER,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    NextCard,
    Out,
    Settings,
    Substitute,
    from_json,
    record_line,
    to_json,
)
from tests.support.rollerball2_helpers import match


@pytest.fixture(scope="module")
def teams() -> tuple[Roster, Roster]:
    return generate_roster(5, "Houston"), generate_roster(6, "Tokyo")


@pytest.fixture(scope="module")
def finished(teams):
    state, events = auto_play(new_match(11, *teams))
    return state, events


def test_roster_has_25_players_11_skaters_7_bikers_7_catchers_with_unique_numbers(
    teams: tuple[Roster, Roster],
):
    roster = teams[0]
    positions = Counter(card.position for card in roster.players)
    assert positions == {SKATER: 11, BIKER: 7, CATCHER: 7}
    assert len({card.number for card in roster.players}) == 25
    assert len({card.name for card in roster.players}) == 25
    assert generate_roster(5, "Houston") == roster  # same seed, same team


def test_default_lineup_is_three_bikers_four_skaters_two_catchers_and_an_extra(
    teams: tuple[Roster, Roster],
):
    roster = teams[0]
    lineup = default_lineup(roster)
    validate_lineup(roster, lineup)
    assert None not in lineup.values(), "the default line-up fills every slot"
    positions = Counter(roster.card(n).position for n in lineup.values() if n is not None)
    assert positions[BIKER] == 3 and positions[SKATER] + positions[CATCHER] == 7
    assert positions[CATCHER] >= 2


def test_without_catchers_a_skater_fills_the_catcher_slot(teams: tuple[Roster, Roster]):
    roster = teams[0]
    catchers = [card.number for card in roster.players if card.position == CATCHER]
    hurt = [Absence(n, "injury", "matches", 1, "test") for n in catchers]
    short = roster_after_match(roster, hurt)
    lineup = default_lineup(short)
    catcher = lineup["Catcher1"]
    assert catcher is not None and short.card(catcher).position == SKATER
    assert not set(lineup.values()) & set(catchers)


def test_lineup_refuses_a_biker_in_a_skater_slot(teams: tuple[Roster, Roster]):
    roster = teams[0]
    lineup = default_lineup(roster)
    lineup["Skater1"], lineup["Biker1"] = lineup["Biker1"], lineup["Skater1"]
    with pytest.raises(RollerballError, match="bikers ride in the biker slots"):
        validate_lineup(roster, lineup)


def test_absences_tick_down_and_permanent_ones_stay(teams: tuple[Roster, Roster]):
    roster = roster_after_match(
        teams[0],
        [Absence(1, "injury", "matches", 2, "knee"), Absence(2, "killed", "killed", None, "x")],
    )
    after_one = roster_after_match(roster, [])
    assert {(a.number, a.matches) for a in after_one.absences} == {(1, 1), (2, None)}
    after_two = roster_after_match(after_one, [])
    assert {a.number for a in after_two.absences} == {2}


def test_a_match_runs_four_periods_of_thirty_cards(finished):
    state, events = finished
    assert state.phase == PHASE_OVER
    periods = [e.text for e in events if e.kind == "period" and e.text.startswith("End")]
    if state.period == 5:
        assert len(periods) == 5 and 120 < state.fac_count <= 150
    else:
        assert len(periods) == 4 and state.fac_count == 120
    assert events[-1].kind == "final"


def test_deck_is_split_in_two_piles_and_reshuffled_for_periods_three_and_four(
    teams: tuple[Roster, Roster],
):
    """Shuffle, split into two piles of 30 for periods 1-2; reshuffle for 3-4
    (docs/rules/rollerball2.md, "The flow of a match")."""
    state = new_match(3, *teams)
    first_shuffle = list(state.deck)
    assert sorted(first_shuffle) == list(range(1, 61))
    while state.period < 2:
        state, _ = step(state)
    assert state.period_fac == 0 and state.deck == first_shuffle[30:]
    while state.period < 3:
        state, _ = step(state)
    assert state.period_fac == 0 and sorted(state.deck) == list(range(1, 61))
    assert state.deck != first_shuffle


def test_scoresheet_adds_up_to_the_score(finished):
    state, _ = finished
    final = result(state)
    for sheet in (final.home, final.away):
        assert sum(line.goals for line in sheet.players) == sheet.score
        assert sum(line.assists for line in sheet.players) <= sheet.score
        assert all(line.on_track for line in sheet.players if line.goals or line.catches)
    assert final.facs_played == state.fac_count


def test_same_seed_same_match(teams: tuple[Roster, Roster]):
    one = auto_play(new_match(21, *teams))
    two = auto_play(new_match(21, *teams))
    assert [e.text for e in one[1]] == [e.text for e in two[1]]
    other = auto_play(new_match(22, *teams))
    assert [e.text for e in other[1]] != [e.text for e in one[1]]


def test_json_round_trip_mid_match_plays_on_identically(teams: tuple[Roster, Roster]):
    state = new_match(8, *teams)
    for _ in range(90):
        state, _ = step(state)
    data = json.loads(json.dumps(to_json(state)))
    restored = from_json(data)
    assert to_json(restored) == to_json(state)
    assert to_json(auto_play(restored)[0]) == to_json(auto_play(state)[0])


def test_a_played_matchs_scoresheet_and_summary_are_stored_as_their_fields(finished):
    """The stored lines, outs, absences and moments are each record's fields, lists copied:
    what `dataclasses.asdict` gave before they were written without its deep copy."""
    state, _ = finished
    data = to_json(state)
    for side in (HOME, AWAY):
        team = getattr(state, side)
        assert data[side]["sheet"] == [asdict(line) for line in team.sheet.values()]
        assert data[side]["new_absences"] == [asdict(a) for a in team.new_absences]
        assert data[side]["out"] == {str(n): asdict(out) for n, out in team.out.items()}
    assert data["moments"] == [asdict(moment) for moment in state.moments]
    assert any(line["goal_order"] for side in (HOME, AWAY) for line in data[side]["sheet"])
    line = next(iter(state.home.sheet.values()))
    assert to_json(state)["home"]["sheet"][0]["goal_order"] is not line.goal_order


def test_a_finished_match_is_stored_without_its_dice_and_with_each_roster_once(finished):
    """A finished match draws no more cards or dice: its record (set-up and actions) and
    commitment prove it, so the stored state keeps no generator state; a roster, which a match
    never changes, is stored once, in the set-up the record is written from."""
    state, _ = finished
    data = json.loads(json.dumps(to_json(state)))
    assert data["rng"] is None
    assert data["home"]["roster"] is None and data["away"]["roster"] is None
    restored = from_json(data)
    for side in (HOME, AWAY):
        team, back = getattr(state, side), getattr(restored, side)
        assert back.roster == team.roster
        assert back.sheet == team.sheet and back.score_by_period == team.score_by_period
    assert restored.over and restored.record == state.record and restored.moments == state.moments
    assert to_json(restored) == to_json(state)
    assert to_json(replay(to_record(restored, reveal=True))) == to_json(state)


def test_a_match_stored_with_its_dice_and_rosters_still_reads(finished):
    """States stored before finished matches dropped their dice and repeated rosters read as
    they did."""
    state, _ = finished
    data = json.loads(json.dumps(to_json(state)))
    version, internal, gauss = random.Random(1).getstate()
    data["rng"] = [version, list(internal), gauss]
    for side in (HOME, AWAY):
        data[side]["roster"] = data["setup"][side]
    restored = from_json(data)
    assert restored.home.roster == state.home.roster and restored.away.roster == state.away.roster
    assert to_json(restored) == to_json(state)


def test_record_replays_to_the_same_final_state(finished, tmp_path, capsys):
    state, _ = finished
    text = to_record(state, reveal=True)
    assert text.splitlines()[1] == '[Game "rollerball2"]'
    assert to_json(replay(text)) == to_json(state)
    path = tmp_path / "match.rb2"
    path.write_text(text)
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["home"]["score_by_period"] == state.home.score_by_period


def test_replay_names_a_bad_line(finished):
    text = to_record(finished[0], reveal=True).replace("\nnext\n", "\nsub home Biker1 1000\n", 1)
    with pytest.raises(RollerballError, match="Action 1"):
        replay(text)
    with pytest.raises(RollerballError, match="not a Rollerball II action"):
        parse_action("dance home")


@pytest.mark.parametrize(
    "action",
    [
        NextCard(),
        Substitute(HOME, "Skater2", 31),
        CatcherChoice(AWAY, True),
        CatcherChoice(HOME, False),
        ChooseBiker(HOME, "Biker3"),
        ChooseScorer(AWAY, "Skater1"),
    ],
)
def test_every_action_reads_back_from_its_record_line(action):
    assert parse_action(record_line(action)) == action


def test_sim_command_prints_the_summary(capsys):
    assert main(["sim", "--matches", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "3 auto-played matches" in out and "Total goals per match" in out


def test_substitution_only_in_possession_and_never_the_handler():
    state = match()  # home has the ball, Skater1 handles it
    with pytest.raises(RollerballError, match="while your team has the ball"):
        apply(state, Substitute(AWAY, "Skater2", 16))
    with pytest.raises(RollerballError, match="can't substitute the current ball handler"):
        apply(state, Substitute(HOME, "Skater1", 16))
    with pytest.raises(RollerballError, match="cannot play Biker1"):
        apply(state, Substitute(HOME, "Biker1", 16))
    new_state, events = apply(state, Substitute(HOME, "Skater2", 16))
    assert new_state.home.lineup["Skater2"] == 16 and new_state.home.sheet[16].on_track
    assert "Substitution" in events[0].text
    assert state.home.lineup["Skater2"] == 12  # the old state is untouched


def test_illegal_action_leaves_the_state_untouched():
    state = match()
    state.home.out[16] = Out(reason="injury", until="match")
    before = to_json(state)
    with pytest.raises(RollerballError, match="may not play now"):
        apply(state, Substitute(HOME, "Skater2", 16))
    assert to_json(state) == before


def test_penalized_slot_cannot_be_refilled_until_the_marker():
    state = match()
    state.home.locked["Skater3"] = state.fac_count + 6
    state.home.lineup["Skater3"] = None
    with pytest.raises(RollerballError, match="short-handed"):
        apply(state, Substitute(HOME, "Skater3", 16))
    assert not any(isinstance(a, Substitute) and a.slot == "Skater3" for a in legal_actions(state))


def test_next_card_refused_while_a_coach_must_decide():
    state = match(control=HOME, handler="Catcher1")  # he has just caught the fired ball
    state.pending = {"kind": "catcher_choice", "team": HOME}
    with pytest.raises(RollerballError, match="must decide"):
        apply(state, NextCard())
    assert choose_action(state).__class__.__name__ == "CatcherChoice"


def test_overtime_is_sudden_death_and_can_be_switched_off(teams: tuple[Roster, Roster]):
    """Ruling (docs): a tie after four periods plays one sudden-death period of up to 30 cards;
    with overtime off (or still tied after it) the match is a draw."""
    tied = None
    for seed in range(200):
        state, _ = auto_play(new_match(seed, *teams))
        if state.period == 5:
            tied = seed
            goals_in_ot = state.home.score_by_period[4] + state.away.score_by_period[4]
            assert goals_in_ot <= 1
            if goals_in_ot == 1:
                assert state.home.score != state.away.score
            break
    assert tied is not None, "no tie in 200 matches"
    state, _ = auto_play(new_match(tied, *teams, Settings(overtime=False)))
    assert state.fac_count == 120 and state.home.score == state.away.score
    assert result(state).winner is None


def test_carry_over_lists_absences_beyond_this_match(finished):
    state, _ = finished
    final = result(state)
    assert any(final.carry_over.values()), "this match should carry absences over"
    for side in (HOME, AWAY):
        sheet = final.home if side == HOME else final.away
        for absence in final.carry_over[side]:
            assert sheet.line(absence.number).exit
            # Only what outlasts this match carries over (not a period or a new ball).
            assert absence.length in ("matches", "season", "lifetime", "killed")


def test_play_by_play_shows_the_shuffle_the_card_and_its_section_text(teams: tuple[Roster, Roster]):
    state = new_match(12, *teams)
    top = state.deck[0]
    state, events = apply(state, NextCard())
    texts = [e.text for e in events]
    assert texts[0] == "The 60 FACs are shuffled and split into two piles of 30."
    assert texts[1] == "Period 1 begins."
    [card] = [e for e in events if e.kind == "card"]
    fires_text = load_content().fac(top).ball_fires.text
    assert card.fac == top
    assert card.text == f"[P1 00:30] FAC {top}, The BALL FIRES...: {fires_text}"


def test_every_duel_shows_both_dice(finished):
    _, events = finished
    rolls = [e.text for e in events if e.kind == "roll" and " vs " in e.text]
    assert rolls and all(" rolls " in text for text in rolls)


def test_new_season_ends_season_long_absences_only(teams: tuple[Roster, Roster]):
    roster = roster_after_match(
        teams[0],
        [
            Absence(1, "ban", "season", None, "drugs"),
            Absence(2, "ban", "lifetime", None, "fixing"),
            Absence(3, "injury", "matches", 3, "knee"),
        ],
    )
    assert {a.number for a in roster_new_season(roster).absences} == {2, 3}


def test_scoreboard_says_the_clock_the_score_and_what_comes_next(teams: tuple[Roster, Roster]):
    state = new_match(12, *teams)
    assert scoreboard(state) == (
        "[P1 00:00] Tokyo 0 at Houston 0; the ball is loose; next card: The BALL FIRES..."
    )
    while state.pending is None:
        state, _ = step(state)
    assert "waiting for the" in scoreboard(state)
    final, _ = auto_play(state)
    assert scoreboard(final) == (f"Final: Tokyo {final.away.score} at Houston {final.home.score}")


def test_every_score_the_match_prints_puts_the_visitors_first_and_at_the_home_team(
    teams: tuple[Roster, Roster],
):
    """One score order everywhere (docs/rules/rollerball2.md, "Teams, seasons and statistics"):
    the goal line, the end of a period and the final whistle read "Tokyo 1 at Houston 2"."""
    final, events = auto_play(new_match(12, *teams))
    home = away = 0
    lines = {"goal": [], "period": [], "final": []}
    for event in events:
        if event.kind == "goal":
            home, away = (home + 1, away) if "GOAL! Houston" in event.text else (home, away + 1)
            assert event.text.endswith(f" Tokyo {away} at Houston {home}."), event.text
        if event.kind in lines and not event.text.endswith("begins."):
            lines[event.kind].append(event.text)
    assert lines["goal"] and len(lines["period"]) >= 4 and len(lines["final"]) == 1
    ends = re.compile(r"End of (period \d|overtime): Tokyo \d+ at Houston \d+\.")
    assert all(ends.fullmatch(line) for line in lines["period"]), lines["period"]
    assert lines["final"][0].startswith(f"FINAL: Tokyo {away} at Houston {home}. ")
    assert (home, away) == (final.home.score, final.away.score)


def test_record_header_problems_are_named(finished):
    text = to_record(finished[0], reveal=True)
    no_seed = "\n".join(line for line in text.splitlines() if not line.startswith("[Seed"))
    with pytest.raises(RollerballError, match="no seed: the match is still being played"):
        replay(no_seed)
    no_home = "\n".join(line for line in text.splitlines() if not line.startswith("[Home "))
    with pytest.raises(RollerballError, match="missing: Home"):
        replay(no_home)
    with pytest.raises(RollerballError, match="not a Rollerball II match"):
        replay(text.replace('[Game "rollerball2"]', '[Game "rocketball"]'))
