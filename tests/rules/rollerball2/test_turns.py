"""What the Discord match host needs from the engine: who may act, play until
something happens, structured events, two-step substitutions and private line-ups."""

from __future__ import annotations

import pytest

from rules.rollerball2.cards import BIKER, SECTION_HEADINGS, PlayerCard, face_label
from rules.rollerball2.coach import choose_action
from rules.rollerball2.engine import apply, legal_actions, new_match, substitution_slots
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.record import replay, to_record
from rules.rollerball2.roster import Roster, default_lineup, generate_roster
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PHASE_FIRE,
    NextCard,
    Settings,
    SubmitLineup,
    event_from_json,
    event_to_json,
    parse_action,
    record_line,
)
from rules.rollerball2.turns import actors, play_until_event, substitutes_for


@pytest.fixture(scope="module")
def teams() -> tuple[Roster, Roster]:
    return generate_roster(21, "Houston"), generate_roster(22, "Tokyo")


def test_the_team_in_possession_alone_turns_the_card_and_substitutes(teams: tuple[Roster, Roster]):
    state = new_match(3, *teams)
    assert actors(state) == {HOME}  # a new ball: the home coach turns the card
    seen = set()
    while not state.over and len(seen) < 3:
        who = actors(state)
        if state.pending is not None:
            assert who == {state.pending["team"]}
            seen.add("pending")
        elif state.control is not None:
            assert who == {state.control}
            assert substitution_slots(state, next(iter({HOME, AWAY} - who))) == []
            seen.add(state.control)
        state, _ = apply(state, choose_action(state))
    assert seen == {"pending", HOME, AWAY}


def test_nobody_acts_once_the_match_is_over(teams: tuple[Roster, Roster]):
    state = new_match(3, *teams)
    while not state.over:
        state, _ = apply(state, choose_action(state))
    assert actors(state) == frozenset()


def test_play_until_event_stops_at_goals_penalties_decisions_and_period_ends(
    teams: tuple[Roster, Roster],
):
    state = new_match(4, *teams)
    calls = 0
    while not state.over:
        if state.pending is not None:
            state, _ = apply(state, choose_action(state))
            continue
        before_period = state.period
        state, events = play_until_event(state)
        calls += 1
        stopped_for = (
            state.over
            or state.pending is not None
            or state.period != before_period
            or any(e.kind in ("goal", "penalty") for e in events)
        )
        assert stopped_for
        # It only ever turned cards: nothing was decided or substituted for a coach.
        assert not any(e.kind in ("sub", "choice") and "coach:" not in e.text for e in events)
    assert all(line == "next" or not line.startswith("sub") for line in state.record)
    assert calls < 70  # far fewer than one click per card (120+)


def test_play_until_event_refuses_while_a_decision_is_pending(teams: tuple[Roster, Roster]):
    state = new_match(4, *teams)
    while state.pending is None:
        state, _ = apply(state, NextCard())
    with pytest.raises(RollerballError, match="decide"):
        play_until_event(state)


def test_events_carry_the_section_read_and_every_die_with_its_card_row(
    teams: tuple[Roster, Roster],
):
    state = new_match(5, *teams)
    rolls_seen = 0
    while not state.over:
        state, events = apply(state, choose_action(state))
        for event in events:
            assert event_from_json(event_to_json(event)) == event
            if event.kind == "card":
                assert event.section in SECTION_HEADINGS and event.fac is not None
            for roll in event.rolls:
                assert 1 <= roll.face <= 10
                assert f" {face_label(roll.face)}" in event.text
                if roll.column in ("offense", "defense"):
                    side = state.team(roll.side)
                    assert roll.number is not None
                    card: PlayerCard = side.card(roll.number)
                    column = card.offense if roll.column == "offense" else card.defense
                    assert column[roll.face - 1] == roll.result
                    rolls_seen += 1
    assert rolls_seen > 50


def test_a_duel_reports_the_offense_die_then_the_defense_die(teams: tuple[Roster, Roster]):
    state = new_match(5, *teams)
    while True:
        state, events = apply(state, choose_action(state))
        duels = [e for e in events if e.kind == "roll" and len(e.rolls) == 2]
        if duels:
            offense, defense = duels[0].rolls
            assert (offense.column, defense.column) == ("offense", "defense")
            assert offense.side != defense.side
            return


def _big_roster() -> Roster:
    """40 players: 7 bikers and 33 skaters/catchers (an imported roster may be that large)."""
    base = generate_roster(7, "Big")
    extra = generate_roster(8, "Big")
    used = {card.number for card in base.players}
    players = list(base.players)
    free = iter(n for n in range(100) if n not in used)
    for card in [c for c in extra.players if c.position != BIKER][:15]:
        players.append(
            PlayerCard(
                next(free),
                card.name + " II",
                card.position,
                card.experience,
                "Big",
                card.offense,
                card.defense,
            )
        )
    return Roster(team="Big", players=players)


def test_substitutions_come_in_two_short_steps(teams: tuple[Roster, Roster]):
    big = _big_roster()
    state = new_match(6, big, teams[1])
    while state.control != HOME or state.pending is not None:
        state, _ = apply(state, choose_action(state))
    slots = substitution_slots(state, HOME)
    assert state.handler not in slots and 0 < len(slots) <= 25
    assert state.handler is not None
    with pytest.raises(RollerballError):
        substitutes_for(state, HOME, state.handler)
    with pytest.raises(RollerballError):
        substitutes_for(state, AWAY, slots[0])  # not in possession
    for slot in slots:
        numbers = substitutes_for(state, HOME, slot)
        assert len(numbers) <= 25
        for number in numbers:
            card = state.home.card(number)
            assert (card.position == BIKER) == slot.startswith("Biker")
            assert number not in state.home.on_track() and number not in state.home.out
            apply(state, parse_action(f"sub home {slot} {number}"))  # every offer is legal
    skater_offers = substitutes_for(
        state, HOME, "Skater1" if state.handler != "Skater1" else "Skater2"
    )
    assert len(skater_offers) == 25  # 26 fit skaters and catchers on the bench: the best 25


def test_line_ups_are_handed_in_privately_by_both_coaches(teams: tuple[Roster, Roster]):
    home, away = teams
    state = new_match(8, home, away, Settings(private_lineups=True))
    assert actors(state) == {HOME, AWAY}
    with pytest.raises(RollerballError, match="line-ups"):
        apply(state, NextCard())
    mine = default_lineup(away)
    mine["Skater1"], mine["Skater2"] = mine["Skater2"], mine["Skater1"]
    state, events = apply(state, SubmitLineup.of(AWAY, mine))
    assert actors(state) == {HOME}
    assert "\nlineup " not in to_record(state, reveal=True)  # nothing of Away's choice is shown yet
    assert all(str(mine["Skater1"]) not in e.text for e in events)
    with pytest.raises(RollerballError, match="already"):
        apply(state, SubmitLineup.of(AWAY, mine))
    illegal = default_lineup(home)
    illegal["Biker1"] = illegal["Skater1"]
    with pytest.raises(RollerballError):
        apply(state, SubmitLineup.of(HOME, illegal))
    state, _ = apply(state, SubmitLineup.of(HOME, default_lineup(home)))
    assert state.phase == PHASE_FIRE and actors(state) == {HOME}
    assert state.away.lineup == mine and state.away.starters == mine
    assert state.record == [
        record_line(SubmitLineup.of(HOME, default_lineup(home))),
        record_line(SubmitLineup.of(AWAY, mine)),
    ]
    for _ in range(5):
        state, _ = apply(state, choose_action(state))
    again = replay(to_record(state, reveal=True))
    assert again.away.lineup == state.away.lineup and again.record == state.record
    first = legal_actions(new_match(8, home, away, Settings(private_lineups=True)))[0]
    assert isinstance(first, SubmitLineup) and first.team == HOME


# --- each coach rolls his own die -------------------------------------------------------------


def test_with_coach_dice_each_coach_rolls_his_own_die_and_the_match_is_the_same(
    teams: tuple[Roster, Roster],
):
    """Seed ACTION NOTES 2: "in a two 'coach' game, opposing coaches roll their own D10". The
    wrong coach's roll is refused; the faces come from the seed, so the match plays out exactly
    as it does when the bot rolls both dice."""
    from rules.rollerball2.state import RollDie

    plain = new_match(12, *teams)
    dice = new_match(12, *teams, Settings(coach_dice=True))
    rolled_by = set()
    refused = 0
    while not dice.over:
        if dice.pending is not None and dice.pending["kind"] == "dice":
            assert actors(dice) == {dice.pending["team"]}
            other = AWAY if dice.pending["team"] == HOME else HOME
            with pytest.raises(RollerballError, match="die to roll"):
                apply(dice, RollDie(other))
            with pytest.raises(RollerballError, match="dice first"):
                apply(dice, NextCard())
            refused += 1
            rolled_by.add(dice.pending["team"])
        dice, _ = apply(dice, choose_action(dice))
    while not plain.over:
        plain, _ = apply(plain, choose_action(plain))
    assert rolled_by == {HOME, AWAY} and refused > 100
    assert (dice.home.score, dice.away.score) == (plain.home.score, plain.away.score)
    assert [line for line in dice.record if not line.startswith("roll ")] == plain.record
    again = replay(to_record(dice, reveal=True))
    assert (again.home.score, again.away.score) == (dice.home.score, dice.away.score)


def test_a_duel_asks_the_offense_then_the_defense_and_shows_each_face(teams: tuple[Roster, Roster]):
    from rules.rollerball2.state import RollDie

    state = new_match(12, *teams, Settings(coach_dice=True))
    while state.pending is None or state.pending["kind"] != "dice" or state.control is None:
        state, _ = apply(state, choose_action(state))
    first = state.pending["team"]
    assert first == state.control  # the ball handler's coach rolls the offense die first
    state, events = apply(state, RollDie(first))
    assert events[0].kind == "roll" and len(events[0].rolls) == 1
    assert events[0].rolls[0].side == first and events[0].rolls[0].column == "offense"
    assert f"= {face_label(events[0].rolls[0].face)}" in events[0].text
    assert state.pending["kind"] == "dice" and state.pending["team"] != first  # the defense
