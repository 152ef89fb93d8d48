"""Duels on the Action Matrix (seed ACTION NOTES 2-5): the ball handler's OFFENSE die against
his defender's DEFENSE die, the line of the matrix the pair reads, and what follows from it (a
goal, a turnover, a steal and breakaway, a tow by a biker, a defensive biker's answer, a pass).
Each function plays on a Resolution (resolution.py)."""

from __future__ import annotations

from rules.rollerball2.ball import give_ball, goal_by_handler, retain, to_fire, turnover
from rules.rollerball2.cards import GOAL, PASS, face_label
from rules.rollerball2.content import BIKER_SLOTS, EMPTY, MatrixLine, load_content
from rules.rollerball2.resolution import (
    Place,
    Resolution,
    bikers_on_track,
    card_at,
    describe,
    first_skater_or_catcher,
    matched_slot,
    occupant,
    open_skaters,
)
from rules.rollerball2.state import (
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    Event,
    Roll,
    other_side,
)


def matrix(offense: str, defense: str) -> MatrixLine:
    return load_content().matrix_lookup[(offense, defense)]


def roll_on(res: Resolution, place: Place, column: str) -> tuple[str, Roll]:
    """A D10 on the OFFENSE or DEFENSE column of the card in `place` (someone must be there)."""
    card = card_at(res.state, place)
    assert card is not None
    face = res.d10()
    result = card.offense_on(face) if column == "offense" else card.defense_on(face)
    return result, Roll(column, face, result, side=place[0], slot=place[1], number=card.number)


def defense_roll(res: Resolution, defender: Place) -> tuple[str, str, tuple[Roll, ...]]:
    """The defender's D10 on his DEFENSE column, how it reads for spectators, and the die (none
    for an empty slot: it rolls nothing, it is the Action Matrix's "[Position Empty]")."""
    state = res.state
    card = card_at(state, defender)
    if card is None:
        if not defender[1]:
            return EMPTY, "nobody between him and the goal: [Position Empty]", ()
        return EMPTY, f"{describe(state, defender)}: [Position Empty]", ()
    defense, roll = roll_on(res, defender, "defense")
    return defense, f"{describe(state, defender)} rolls {face_label(roll.face)}: {defense}", (roll,)


def duel(res: Resolution, defender: Place | None = None) -> None:
    """Seed ACTION NOTES 2: the handler rolls on his OFFENSE column, his defender on his DEFENSE
    column (2D10); the pair is looked up on the Action Matrix."""
    state = res.state
    assert state.control and state.handler
    offense_place = (state.control, state.handler)
    defense_side = other_side(state.control)
    if defender is None:
        defender = (defense_side, matched_slot(state.team(defense_side), state.handler))
    offense, offense_roll = roll_on(res, offense_place, "offense")
    defense, defense_text, defense_rolls = defense_roll(res, defender)
    res.emit(
        Event(
            "roll",
            f"{describe(state, offense_place)} rolls {face_label(offense_roll.face)}: {offense} "
            f"vs {defense_text}",
            rolls=(offense_roll, *defense_rolls),
        )
    )
    play_line(res, offense, defense, offense_place, defender, None)


def play_line(
    res: Resolution,
    offense: str,
    defense: str,
    offense_place: Place,
    defender: Place,
    biker: int | None,
) -> None:
    """Carry out one Action Matrix line. `offense_place` is whoever rolled the offense result
    (the handler, or the towing biker); `biker` is the biker credited if it leads to a goal."""
    state = res.state
    line: MatrixLine = matrix(offense, defense)
    res.emit(Event("matrix", f"Action Matrix: {line.description}"))
    outcome = line.outcome
    off_side = offense_place[0]
    if outcome == "goal":
        goal_by_handler(res, biker)
    elif outcome == "retain":
        retain(res)
    elif outcome == "turnover":
        turnover(res)
    elif outcome == "defensive_biker":
        bikers = bikers_on_track(state, defender[0])
        if not bikers:
            res.emit(Event("info", "No defensive biker on the track to answer: GOAL stands."))
            goal_by_handler(res, biker)
            return
        state.pending = {"kind": "defensive_biker", "team": defender[0], "biker": biker}
        res.emit(
            Event(
                "choice", f"{state.team(defender[0]).roster.team} coach: choose a defensive biker."
            )
        )
    elif outcome == "biker_duel":
        state.phase = PHASE_BIKER_ID
        state.context = {"mode": "both"}
        res.emit(Event("info", "Both sides call in the bikers: next card, BIKER ID."))
    elif outcome == "tow":
        state.phase = PHASE_BIKER_ID
        state.context = {"mode": "single", "defense_result": defense, "defender": defender}
        res.emit(Event("info", "The ball handler reaches for a biker: next card, BIKER ID."))
    elif outcome == "goal_biker_assist":
        if bikers_on_track(state, off_side):
            state.pending = {"kind": "assist_biker", "team": off_side}
            res.emit(
                Event("choice", f"{state.team(off_side).roster.team} coach: which biker assisted?")
            )
        else:
            goal_by_handler(res, None)
    elif outcome == "attack":
        state.phase = PHASE_ATTACK
        state.context = {"attacker": defender, "victim": offense_place}
        res.emit(Event("info", "Attack! Next card, ATTACK section."))
    elif outcome == "steal":
        steal(res, defender)
    elif outcome == "pass_goal":
        passer = occupant(state, offense_place)
        candidates = open_skaters(state, off_side, exclude=passer)
        if not candidates:
            res.emit(Event("info", "No skater open for the pass: the team keeps the ball."))
            retain(res)
            return
        state.pending = {"kind": "pass_scorer", "team": off_side, "passer": passer}
        res.emit(Event("choice", f"{state.team(off_side).roster.team} coach: which skater scores?"))
    elif outcome == "event":
        state.phase = PHASE_EVENT
        state.context = {"defender": defender}
        res.emit(Event("info", "Something happens: next card, EVENT."))


def steal(res: Resolution, stealer: Place) -> None:
    """LOSE vs LOSE: the defender steals and breaks away; one D10 on his OFFENSE column and the
    defense result "automatically matches". Rulings: a biker who strips the ball knocks it to his
    team's man guarding the handler (bikers never carry it); a breakaway PASS is read as PASS vs
    GOAL (a pass to an open skater)."""
    state = res.state
    side, slot = stealer
    team = state.team(side)
    if slot in BIKER_SLOTS:
        guard = matched_slot(team, state.handler) if state.handler else None
        slot = guard if guard and team.lineup.get(guard) is not None else None
        slot = slot or first_skater_or_catcher(team)
        if slot is None:
            res.emit(Event("fire", "The ball squirts free into the gutter."))
            to_fire(state)
            return
    state.control = other_side(side)  # so give_ball sees a change of possession
    give_ball(res, side, slot, "Steal and breakaway")
    result, roll = roll_on(res, (side, slot), "offense")
    defense_side = other_side(side)
    defender = (defense_side, matched_slot(state.team(defense_side), slot))
    defense = GOAL if result == PASS else result
    if occupant(state, defender) is None:
        defense = EMPTY
    res.emit(
        Event(
            "roll",
            f"Breakaway: {describe(state, (side, slot))} rolls {face_label(roll.face)}: {result}; "
            f"the defense result matches ({defense}).",
            rolls=(roll,),
        )
    )
    play_line(res, result, defense, (side, slot), defender, None)


def tow(res: Resolution, biker_place: Place) -> None:
    """Seed ACTION NOTES 3 and 4: the identified biker rolls a D10 on his OFFENSE column. Alone
    (Bkr vs anything) his result replaces the handler's and meets the defender's original
    result; Bkr vs Bkr: 2D10, he meets the opposing biker in the same slot."""
    state = res.state
    mode = state.context.get("mode", "single")
    biker_card = card_at(state, biker_place)
    if biker_card is None:
        res.emit(Event("info", f"{describe(state, biker_place)}: no biker to grab on to."))
        retain(res)
        return
    biker_number = occupant(state, biker_place)
    result, roll = roll_on(res, biker_place, "offense")
    assert state.control is not None
    if mode == "single":
        defense = state.context["defense_result"]
        defender = state.context["defender"]
        res.emit(
            Event(
                "roll",
                f"{describe(state, biker_place)} tows the ball handler, rolls "
                f"{face_label(roll.face)}: {result} vs the defender's {defense}",
                rolls=(roll,),
            )
        )
        assert state.handler is not None  # the biker tows the handler whose roll he replaces
        offense_place = (state.control, state.handler)
    else:
        defender = (other_side(state.control), biker_place[1])
        defense, text, defense_rolls = defense_roll(res, defender)
        res.emit(
            Event(
                "roll",
                f"Biker duel: {describe(state, biker_place)} rolls {face_label(roll.face)}: "
                f"{result} vs {text}",
                rolls=(roll, *defense_rolls),
            )
        )
        offense_place = biker_place
    state.context = {}
    play_line(res, result, defense, offense_place, defender, biker_number)


def defensive_biker(res: Resolution, biker_place: Place, towing_biker: int | None) -> None:
    """Seed ACTION NOTES 5 and the matrix's GOAL vs BKR: the chosen defensive biker rolls a D10;
    his result is both the offensive and defensive action. Ruling: read his DEFENSE column."""
    state = res.state
    assert state.control and state.handler
    result, roll = roll_on(res, biker_place, "defense")
    res.emit(
        Event(
            "roll",
            f"{describe(state, biker_place)} answers the shot, rolls {face_label(roll.face)}: "
            f"{result} (both sides read {result}).",
            rolls=(roll,),
        )
    )
    play_line(res, result, result, (state.control, state.handler), biker_place, towing_biker)
