"""What a FAC section does (seed FAST ACTION CARDS): find the players its text names (a slot, the
ball handler, a roll on the Random Player chart), check its condition, carry out its operations
(a goal, a penalty, an injury, a ban, a rest) and follow its flow (the ball dies, is kept, turned
over, caught, controlled or towed). Also the players it sends off and brings back (seed PENALTY
TIMING, SUBSTITUTING PLAYERS; docs/rules/rollerball2.md, "Attacks, penalties and injuries"). Each
function plays on a Resolution (resolution.py)."""

from __future__ import annotations

from rules.prose import plural, possessive
from rules.rollerball2.ball import (
    catch,
    give_ball,
    holds_catcher,
    opposing_catcher,
    retain,
    score,
    to_fire,
    turnover,
)
from rules.rollerball2.cards import (
    CATCHER,
    FLOW_CATCH,
    FLOW_CONTROL,
    FLOW_FIRE,
    FLOW_RETAIN,
    FLOW_TOW,
    FLOW_TURNOVER,
    OP_BAN,
    OP_GOAL,
    OP_INJURY,
    OP_PENALTY,
    OP_REST,
    OPEN_TRACK,
    Condition,
    Effect,
    Op,
    face_label,
)
from rules.rollerball2.content import CATCHER_SLOTS, EXTRA, SLOTS, load_content
from rules.rollerball2.duels import duel, tow
from rules.rollerball2.resolution import (
    Place,
    Resolution,
    card_at,
    clock,
    describe,
    extra_slot,
    is_locked,
    matched_slot,
    occupant,
    player_name,
)
from rules.rollerball2.roster import EXPERIENCE_RANK
from rules.rollerball2.scoresheet import (
    CARRY_BAN,
    CARRY_INJURY,
    CARRY_KILLED,
    Absence,
    Moment,
)
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PERIOD_FACS,
    PERIODS,
    PHASE_FIRE,
    Event,
    MatchState,
    Out,
    Roll,
    other_side,
)

# --- finding people --------------------------------------------------------------------------


def _side_of(state: MatchState, team_word: str) -> str:
    if team_word == "offense":
        return state.control or HOME
    if team_word == "defense":
        return other_side(state.control or HOME)
    return team_word


def _chart_slot(res: Resolution, side: str, column: str) -> str:
    """Seed RANDOM PLAYER CHART: roll a D10 and read the Player or Skater/Catcher column."""
    state = res.state
    content = load_content()
    chart = content.random_player if column == "random_player" else content.random_skater_catcher
    roll = res.d10()
    slot = chart[roll - 1]
    if slot == EXTRA:
        slot = extra_slot(state.team(side))
    heading = "Player" if column == "random_player" else "Skater/Catcher"
    chart_column = "player" if column == "random_player" else "skater_catcher"
    res.emit(
        Event(
            "chart",
            f"Random Player chart ({heading} column) for {state.team(side).roster.team}: "
            f"d10 = {face_label(roll)} -> {slot}",
            rolls=(Roll(chart_column, roll, slot, side=side),),
        )
    )
    return slot


def _least_experienced(state: MatchState, side: str) -> str | None:
    team = state.team(side)
    best = None
    for slot in SLOTS:
        number = team.lineup.get(slot)
        if number is None:
            continue
        rank = EXPERIENCE_RANK[team.card(number).experience]
        if best is None or rank > best[0]:
            best = (rank, slot)
    return None if best is None else best[1]


def resolve_place(res: Resolution, place: str, context: dict) -> Place | None:
    """Where a card's place string points to now; random places roll once per section read
    (`context` is the section's: it remembers them)."""
    state = res.state
    cache = context.setdefault("places", {})
    if place in cache:
        return cache[place]
    found: Place | None
    if place == "handler":
        found = (state.control, state.handler) if state.control and state.handler else None
    elif place == OPEN_TRACK:
        # Nobody: the defense is beaten ([Position Empty] on the Action Matrix).
        found = (other_side(state.control), "") if state.control else None
    elif place in ("attacker", "victim", "defender"):
        found = context.get(place)
        if found is None and place == "defender" and state.control and state.handler:
            defense = other_side(state.control)
            found = (defense, matched_slot(state.team(defense), state.handler))
    else:
        team_word, _, kind = place.partition(".")
        side = _side_of(state, team_word)
        if kind in ("random_player", "random_skater_catcher"):
            found = (side, _chart_slot(res, side, kind))
        elif kind == "least_experienced":
            slot = _least_experienced(state, side)
            found = None if slot is None else (side, slot)
        else:
            found = (side, kind)
    cache[place] = found
    return found


def _holds(res: Resolution, condition: Condition, context: dict) -> bool:
    place = resolve_place(res, condition.who, context)
    card = None if place is None else card_at(res.state, place)
    if card is None:
        return False
    if condition.experiences and card.experience not in condition.experiences:
        return False
    return not (condition.positions and card.position not in condition.positions)


# --- taking players off and putting them back ------------------------------------------------


def remove(state: MatchState, place: Place, out: Out) -> int:
    """Take the player in `place` off the track (his slot stays empty); his number."""
    team = state.team(place[0])
    number = team.lineup[place[1]]
    assert number is not None
    team.lineup[place[1]] = None
    out.slot = place[1]
    if out.until == "new_ball":
        out.fac = state.fac_count  # the card that sent him off (see release_new_ball)
    team.out[number] = out
    return number


def _bring_back(res: Resolution, side: str, number: int, why: str) -> None:
    """A player's time out is over: straight back into his old slot if it is free, else bench."""
    state = res.state
    team = state.team(side)
    out = team.out.pop(number)
    slot = out.slot
    if slot and team.lineup.get(slot, "missing") is None and not is_locked(state, team, slot):
        team.lineup[slot] = number
        team.sheet[number].on_track = True
        res.emit(Event("return", f"{why}: {player_name(state, side, number)} returns to {slot}."))
    else:
        res.emit(Event("return", f"{why}: {player_name(state, side, number)} may play again."))


def release(res: Resolution, until: str, why: str) -> None:
    """Everyone out `until` ("period", ...) may play again."""
    for side in (HOME, AWAY):
        team = res.state.team(side)
        for number in [n for n, out in team.out.items() if out.until == until]:
            _bring_back(res, side, number, why)


def release_new_ball(res: Resolution) -> None:
    """Seed SUBSTITUTING PLAYERS: some players "may not be eligible to return until the next new
    ball". Ruling (docs/rules/rollerball2.md): the restart his own absence caused (the card
    right after the one that sent him off) is not his next new ball; he misses it and returns at
    the following one. A player sent off while play went on returns at the first new ball."""
    state = res.state
    for side in (HOME, AWAY):
        team = state.team(side)
        due = [
            number
            for number, out in team.out.items()
            if out.until == "new_ball" and out.fac < state.fac_count - 1
        ]
        for number in due:
            _bring_back(res, side, number, "New ball")


def expire_markers(res: Resolution) -> None:
    """docs/rules/rollerball2.md, "Attacks, penalties and injuries": a Penalty Expires marker
    goes N cards down the pile; when it turns up the player returns. Markers count cards across
    periods, so they carry into the next pile.
    The marker N cards down turns up as soon as the N-th card's play is over (before anyone may
    substitute), so this runs at the end of every action that leaves no decision pending."""
    state = res.state
    for side in (HOME, AWAY):
        team = state.team(side)
        for slot in [s for s, fac in team.locked.items() if fac <= state.fac_count]:
            del team.locked[slot]
        due = [
            n for n, out in team.out.items() if out.until == "fac" and out.fac <= state.fac_count
        ]
        for number in due:
            _bring_back(res, side, number, "Penalty Expires card turns up")


# --- operations ------------------------------------------------------------------------------


def _minutes_left(state: MatchState, whole_match: bool) -> int:
    cards_left = PERIOD_FACS - state.period_fac
    if whole_match and state.period < PERIODS:
        cards_left += (PERIODS - state.period) * PERIOD_FACS
    return max(1, (cards_left + 1) // 2)


def penalty(res: Resolution, place: Place, length: str) -> None:
    """A penalty (seed PENALTY TIMING; legend in charts.json): into the box, a marker down the
    pile; his slot stays empty (his team plays short) for the legend's shorthanded cards."""
    state = res.state
    legend = load_content().penalties[length]
    who = describe(state, place)
    side = place[0]
    team = state.team(side)
    if length == "period":
        minutes = _minutes_left(state, whole_match=False)
        out = Out(reason="penalty", until="period")
    elif length == "match":
        minutes = _minutes_left(state, whole_match=True)
        out = Out(reason="penalty", until="match")
    else:
        minutes = legend.minutes
        out = Out(reason="penalty", until="fac", fac=state.fac_count + legend.facs)
    number = remove(state, place, out)
    team.locked[place[1]] = state.fac_count + legend.shorthanded_facs
    line = team.sheet[number]
    line.penalty_minutes += minutes
    if length == "match":
        line.exit = True
    state.moments.append(
        Moment(
            "penalty",
            clock(state),
            side,
            number,
            line.name,
            detail=legend.label if "minute" in legend.label else f"{legend.label} ({minutes} min)",
        )
    )
    marker = (
        f"Penalty Expires marker {legend.facs} cards down"
        if out.until == "fac"
        else f"{team.roster.team} play a man short for {legend.shorthanded_facs} cards"
    )
    res.emit(Event("penalty", f"PENALTY: {who}, {legend.label} ({minutes} min). {marker}."))


def _injury_length_text(length: str, matches: int) -> str:
    return {
        "new_ball": "out until the next new ball",
        "period": "out for the rest of the period",
        "match": "out for the rest of the match",
        "matches": f"out for {plural(matches):match|matches}",
        "season": "out for the season",
        "killed": "killed",
    }[length]


def _injury(res: Resolution, place: Place, op: Op, context: dict) -> None:
    state = res.state
    side = place[0]
    team = state.team(side)
    who = describe(state, place)
    length, matches = op.length, op.matches
    if length == "d10_matches":
        roll = res.d10()
        # The seed's sample card: "If '0' is rolled, the player is killed" (a 0 reads 10 here).
        if roll == 10:
            length = "killed"
            result_text = "killed"
        else:
            length, matches = "matches", roll
            result_text = f"out {roll} matches"
        res.emit(
            Event(
                "roll",
                f"{possessive(team.roster.team)} coach rolls d10 = {face_label(roll)}: {result_text}.",
                rolls=(Roll("coach", roll, result_text, side=side),),
            )
        )
    until = {"new_ball": "new_ball", "period": "period"}.get(length, "match")
    number = remove(
        state, place, Out(reason="killed" if length == "killed" else "injury", until=until)
    )
    line = team.sheet[number]
    text = _injury_length_text(length, matches)
    line.injury = f"{op.note} ({text})" if op.note else text
    line.injuries += 1
    if until == "match":
        line.exit = True
        if op.by:
            attacker_place = resolve_place(res, op.by, context)
            attacker = occupant(state, attacker_place) if attacker_place else None
            # An attacker who was himself removed in the same section still gets the credit.
            if attacker is None and attacker_place is not None:
                attacker = context.get("removed", {}).get(attacker_place)
            if attacker is not None and attacker_place is not None:
                state.team(attacker_place[0]).sheet[attacker].casualties.append(number)
    if length in ("matches", "season", "killed"):
        kind = CARRY_KILLED if length == "killed" else CARRY_INJURY
        team.new_absences.append(
            Absence(
                number=number,
                kind=kind,
                length=length,
                matches=matches if length == "matches" else None,
                reason=op.note or "injury",
            )
        )
    state.moments.append(
        Moment("injury", clock(state), side, number, line.name, detail=line.injury)
    )
    res.emit(Event("injury", f"INJURY: {who}: {line.injury}."))


def _ban(res: Resolution, place: Place, op: Op) -> None:
    state = res.state
    team = state.team(place[0])
    who = describe(state, place)
    number = remove(state, place, Out(reason="ban", until="match"))
    team.sheet[number].exit = True
    text = {
        "matches": f"banned for {plural(op.matches):match|matches}",
        "season": "banned for the rest of the season",
        "lifetime": "banned for life",
    }[op.length]
    team.sheet[number].injury = text
    state.moments.append(
        Moment("ban", clock(state), place[0], number, team.sheet[number].name, detail=text)
    )
    team.new_absences.append(
        Absence(
            number=number,
            kind=CARRY_BAN,
            length=op.length,
            matches=op.matches if op.length == "matches" else None,
            reason=text,
        )
    )
    res.emit(Event("ban", f"BAN: {who} is {text} and leaves the track."))


def _rest(res: Resolution, place: Place, op: Op) -> None:
    who = describe(res.state, place)
    remove(res.state, place, Out(reason="rest", until=op.length))
    until = "the next new ball" if op.length == "new_ball" else "the end of the period"
    res.emit(Event("rest", f"REST: {who} must sit out until {until}."))


def _do_op(res: Resolution, op: Op, context: dict) -> None:
    state = res.state
    place = resolve_place(res, op.who, context)
    if place is None or occupant(state, place) is None:
        where = op.who if place is None else f"{state.team(place[0]).roster.team} {place[1]}"
        res.emit(Event("info", f"Nobody is in {where}: the {op.kind} falls on no one."))
        return
    if op.kind == OP_GOAL:
        assist_place = resolve_place(res, op.assist, context) if op.assist else None
        assist = occupant(state, assist_place) if assist_place else None
        if assist_place is not None and assist_place[0] != place[0]:
            assist = None
        score(res, place, assist)
        return
    number = occupant(state, place)
    if op.kind == OP_PENALTY:
        penalty(res, place, op.length)
    elif op.kind == OP_INJURY:
        _injury(res, place, op, context)
    elif op.kind == OP_BAN:
        _ban(res, place, op)
    elif op.kind == OP_REST:
        _rest(res, place, op)
    # Who left which slot in this section: a later op's attacker who was himself removed is
    # still credited with the casualty (see _injury).
    context.setdefault("removed", {})[place] = number


# --- the flow: where the ball goes -----------------------------------------------------------


def _do_flow(res: Resolution, effect: Effect, context: dict) -> None:
    state = res.state
    flow = effect.flow
    handler_number = (
        occupant(state, (state.control, state.handler))
        if state.control is not None and state.handler
        else None
    )
    lost_handler = state.handler is not None and handler_number is None
    if lost_handler and flow.kind != FLOW_FIRE and state.phase != PHASE_FIRE:
        # Seed: "The game restarts after ... penalties, injuries": the handler is gone.
        res.emit(Event("fire", "The ball handler is off the track: the ball is dead."))
        to_fire(state)
        return
    if flow.kind == FLOW_FIRE:
        res.emit(Event("fire", "The ball is dead: next card, THE BALL FIRES."))
        to_fire(state)
    elif flow.kind == FLOW_RETAIN:
        retain(res)
    elif flow.kind == FLOW_TURNOVER:
        turnover(res)
    elif flow.kind == FLOW_CATCH:
        place = resolve_place(res, flow.who, context)
        assert place is not None
        catch(res, place)
    elif flow.kind == FLOW_CONTROL:
        place = resolve_place(res, flow.who, context)
        if place is None or occupant(state, place) is None:
            res.emit(Event("info", f"Nobody in {flow.who}: the ball handler keeps it."))
            retain(res)
            return
        defender = resolve_place(res, flow.defender, context) if flow.defender else None
        card = card_at(state, place)
        if place[1] in CATCHER_SLOTS and card is not None and card.position != CATCHER:
            # Seed GAME SETUP: with a skater in a catcher slot, "all FAC results that would have
            # went to that position will automatically go to the opposing Catcher".
            other = opposing_catcher(place)
            if not holds_catcher(state, other):
                res.emit(Event("info", f"{describe(state, place)} is no catcher: no play."))
                retain(res)
                return
            res.emit(
                Event("info", f"{describe(state, place)} is no catcher: the result goes across.")
            )
            place, defender = other, None
        give_ball(res, place[0], place[1], "Control")
        duel(res, defender=defender)
    elif flow.kind == FLOW_TOW:
        place = resolve_place(res, flow.who, context)
        assert place is not None
        tow(res, place)


def run_effect(res: Resolution, effect: Effect, context: dict) -> None:
    """Execute a section's effect: pick the branch whose condition holds, do its ops, follow
    its flow. `context` is the section's (who is attacker and victim, the places it rolled)."""
    state = res.state
    while effect.when is not None:
        if _holds(res, effect.when, context):
            break
        # Tell spectators why the card's "otherwise" applies.
        place = resolve_place(res, effect.when.who, context)
        who = describe(state, place) if place is not None else "nobody"
        res.emit(Event("info", f"Not so: {who}."))
        assert effect.otherwise is not None
        effect = effect.otherwise
    for op in effect.ops:
        _do_op(res, op, context)
    if (
        state.phase == PHASE_FIRE
        and state.control is None
        and any(op.kind == OP_GOAL for op in effect.ops)
    ):
        return  # a goal already restarted play
    _do_flow(res, effect, context)
