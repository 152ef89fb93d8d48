"""The Rollerball II match engine: the ball fires, FACs are read, players duel on the Action Matrix.

Public entry points: new_match, legal_actions, apply, result. Everything random is drawn from the
state's own generator and reported as an Event, so spectators can follow every die and card.

How a card is read (seed "FAST ACTION CARDS" and "ACTION NOTES"): the state's `phase` says which
section the next FAC is read for. Reading it runs the section's effect; a duel (2D10 on the two
players' cards, looked up on the Action Matrix) may follow at once, and its outcome sets the phase
for the next card. A few choices belong to the coaches and pause the match in `pending`.
"""

from __future__ import annotations

import copy
import random  # only random.Random instances (seeded, held in the state), never module functions
from dataclasses import asdict

from rules.rollerball2.cards import (
    CATCHER,
    FLOW_CATCH,
    FLOW_CONTROL,
    FLOW_FIRE,
    FLOW_RETAIN,
    FLOW_TOW,
    FLOW_TURNOVER,
    GOAL,
    OP_BAN,
    OP_GOAL,
    OP_INJURY,
    OP_PENALTY,
    OP_REST,
    OPEN_TRACK,
    PASS,
    SECTION_HEADINGS,
    SKATER,
    Condition,
    Effect,
    Op,
    PlayerCard,
    face_label,
)
from rules.rollerball2.content import (
    BIKER_SLOTS,
    CATCHER_SLOTS,
    EMPTY,
    EXTRA,
    EXTRA_SLOTS,
    SLOTS,
    MatrixLine,
    load_content,
)
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.roster import (
    EXPERIENCE_RANK,
    Lineup,
    Roster,
    default_lineup,
    fits_slot,
    validate_lineup,
)
from rules.rollerball2.scoresheet import (
    CARRY_BAN,
    CARRY_INJURY,
    CARRY_KILLED,
    Absence,
    MatchResult,
    Moment,
    PlayerLine,
    TeamSheet,
)
from rules.rollerball2.state import (
    AWAY,
    HOME,
    OVERTIME_PERIOD,
    PERIOD_FACS,
    PERIODS,
    PHASE_ACTION,
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    PHASE_FIRE,
    PHASE_OVER,
    PHASE_SETUP,
    Action,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    Event,
    MatchState,
    NextCard,
    Out,
    Roll,
    RollDie,
    Settings,
    SubmitLineup,
    Substitute,
    TeamState,
    clone,
    other_side,
    parse_action,
    record_line,
    roster_to_json,
)

SIDE_WORD = {HOME: "Home", AWAY: "Visitors"}

Place = tuple[str, str]  # (side, slot)


# --- setting up ------------------------------------------------------------------------------


def _new_deck(rng: random.Random) -> list[int]:
    """RULINGS.md: shuffle the 60 FACs and split them into two piles of 30 (one per period)."""
    deck = list(range(1, 61))
    rng.shuffle(deck)
    return deck


def _team_state(side: str, roster: Roster, lineup: Lineup) -> TeamState:
    team = TeamState(side=side, roster=roster, lineup=dict(lineup), starters=dict(lineup))
    for card in roster.players:
        team.sheet[card.number] = PlayerLine(
            number=card.number, name=card.name, position=card.position, experience=card.experience
        )
    for number in roster.absent():
        team.out[number] = Out(reason="absent", until="match")
    for number in team.on_track():
        team.sheet[number].on_track = True
    return team


def new_match(
    seed: int | str,
    home: Roster,
    away: Roster,
    settings: Settings | None = None,
    home_lineup: Lineup | None = None,
    away_lineup: Lineup | None = None,
) -> MatchState:
    """A match ready for its first card. Lineups default to default_lineup(roster)."""
    settings = settings or Settings()
    home_lineup = dict(home_lineup) if home_lineup is not None else default_lineup(home)
    away_lineup = dict(away_lineup) if away_lineup is not None else default_lineup(away)
    validate_lineup(home, home_lineup)
    validate_lineup(away, away_lineup)
    rng = random.Random(f"rollerball2-match:{seed}")
    state = MatchState(
        seed=seed,
        settings=settings,
        home=_team_state(HOME, home, home_lineup),
        away=_team_state(AWAY, away, away_lineup),
        rng=rng,
        deck=_new_deck(rng),
    )
    if settings.private_lineups:
        state.phase = PHASE_SETUP
    state.setup = {
        "seed": seed,
        "settings": asdict(settings),
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": home_lineup,
        "away_lineup": away_lineup,
    }
    return state


# --- small helpers ---------------------------------------------------------------------------


def _d10(state: MatchState) -> int:
    return state.rng.randint(1, 10)


def _occupant(state: MatchState, place: Place | None) -> int | None:
    if place is None:
        return None
    return state.team(place[0]).lineup.get(place[1])


def _card_at(state: MatchState, place: Place) -> PlayerCard | None:
    number = _occupant(state, place)
    return None if number is None else state.team(place[0]).card(number)


def describe(state: MatchState, place: Place) -> str:
    """'Houston Skater3 #6 Jonathan E. (STAR)' or 'Houston Skater3 (empty)'."""
    team = state.team(place[0])
    number = _occupant(state, place)
    if number is None:
        return f"{team.roster.team} {place[1]} (empty)"
    card = team.card(number)
    return f"{team.roster.team} {place[1]} #{number} {card.name} ({card.experience.upper()})"


def _name(state: MatchState, side: str, number: int) -> str:
    team = state.team(side)
    return f"{team.roster.team} #{number} {team.card(number).name}"


def _extra_slot(team: TeamState) -> str:
    return "Skater5" if "Skater5" in team.lineup else "Catcher3"


def matched_slot(team: TeamState, slot: str) -> str:
    """The opponent's slot that guards `slot` (seed ACTION NOTES 2: Skater 1 vs Skater 1 ...).
    Ruling: the two extra players (Skater5 / Catcher3) guard each other."""
    if slot in EXTRA_SLOTS:
        return _extra_slot(team)
    return slot


def _clock(state: MatchState) -> str:
    seconds = state.period_fac * 30
    period = "OT" if state.period == OVERTIME_PERIOD else f"P{state.period}"
    return f"{period} {seconds // 60:02d}:{seconds % 60:02d}"


# --- finding people --------------------------------------------------------------------------


def _side_of(state: MatchState, team_word: str) -> str:
    if team_word == "offense":
        return state.control or HOME
    if team_word == "defense":
        return other_side(state.control or HOME)
    return team_word


def _chart_slot(state: MatchState, side: str, column: str, events: list[Event]) -> str:
    """Seed RANDOM PLAYER CHART: roll a D10 and read the Player or Skater/Catcher column."""
    content = load_content()
    chart = content.random_player if column == "random_player" else content.random_skater_catcher
    roll = _d10(state)
    slot = chart[roll - 1]
    if slot == EXTRA:
        slot = _extra_slot(state.team(side))
    heading = "Player" if column == "random_player" else "Skater/Catcher"
    chart_column = "player" if column == "random_player" else "skater_catcher"
    events.append(
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


def resolve_place(
    state: MatchState, place: str, context: dict, events: list[Event]
) -> Place | None:
    """Where a card's place string points to now; random places roll once per section read."""
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
            found = (side, _chart_slot(state, side, kind, events))
        elif kind == "least_experienced":
            slot = _least_experienced(state, side)
            found = None if slot is None else (side, slot)
        else:
            found = (side, kind)
    cache[place] = found
    return found


def _holds(state: MatchState, condition: Condition, context: dict, events: list[Event]) -> bool:
    place = resolve_place(state, condition.who, context, events)
    card = None if place is None else _card_at(state, place)
    if card is None:
        return False
    if condition.experiences and card.experience not in condition.experiences:
        return False
    return not (condition.positions and card.position not in condition.positions)


# --- taking players off and putting them back ------------------------------------------------


def _remove(state: MatchState, place: Place, out: Out) -> int:
    team = state.team(place[0])
    number = team.lineup[place[1]]
    assert number is not None
    team.lineup[place[1]] = None
    out.slot = place[1]
    if out.until == "new_ball":
        out.fac = state.fac_count  # the card that sent him off (see _release_new_ball)
    team.out[number] = out
    return number


def _bring_back(state: MatchState, side: str, number: int, events: list[Event], why: str) -> None:
    """A player's time out is over: straight back into his old slot if it is free, else bench."""
    team = state.team(side)
    out = team.out.pop(number)
    slot = out.slot
    if slot and team.lineup.get(slot, "missing") is None and not _is_locked(state, team, slot):
        team.lineup[slot] = number
        team.sheet[number].on_track = True
        events.append(Event("return", f"{why}: {_name(state, side, number)} returns to {slot}."))
    else:
        events.append(Event("return", f"{why}: {_name(state, side, number)} may play again."))


def _is_locked(state: MatchState, team: TeamState, slot: str) -> bool:
    """A penalised player's slot stays empty through card `locked[slot]`; it opens when that
    card's play is over, which is also when his Penalty Expires marker turns up (see
    _expire_markers), so he is back before any substitute could take it."""
    return team.locked.get(slot, 0) > state.fac_count


def _release(state: MatchState, until: str, events: list[Event], why: str) -> None:
    for side in (HOME, AWAY):
        team = state.team(side)
        for number in [n for n, out in team.out.items() if out.until == until]:
            _bring_back(state, side, number, events, why)


def _release_new_ball(state: MatchState, events: list[Event]) -> None:
    """Seed SUBSTITUTING PLAYERS: some players "may not be eligible to return until the next new
    ball". Issue 11 ruling: the restart his own absence caused (the card right after the one
    that sent him off) is not his next new ball; he misses it and returns at the following
    one. A player sent off while play went on returns at the first new ball."""
    for side in (HOME, AWAY):
        team = state.team(side)
        due = [
            number
            for number, out in team.out.items()
            if out.until == "new_ball" and out.fac < state.fac_count - 1
        ]
        for number in due:
            _bring_back(state, side, number, events, "New ball")


def _expire_markers(state: MatchState, events: list[Event]) -> None:
    """RULINGS.md: a Penalty Expires marker goes N cards down the pile; when it turns up the
    player returns. Markers count cards across periods, so they carry into the next pile.
    The marker N cards down turns up as soon as the N-th card's play is over (before anyone may
    substitute), so this runs at the end of every action that leaves no decision pending."""
    for side in (HOME, AWAY):
        team = state.team(side)
        for slot in [s for s, fac in team.locked.items() if fac <= state.fac_count]:
            del team.locked[slot]
        due = [
            n for n, out in team.out.items() if out.until == "fac" and out.fac <= state.fac_count
        ]
        for number in due:
            _bring_back(state, side, number, events, "Penalty Expires card turns up")


# --- ops -------------------------------------------------------------------------------------


def _minutes_left(state: MatchState, whole_match: bool) -> int:
    cards_left = PERIOD_FACS - state.period_fac
    if whole_match and state.period < PERIODS:
        cards_left += (PERIODS - state.period) * PERIOD_FACS
    return max(1, (cards_left + 1) // 2)


def _penalty(state: MatchState, place: Place, length: str, events: list[Event]) -> None:
    """A penalty (seed PENALTY TIMING; legend in charts.json): into the box, a marker down the
    pile; his slot stays empty (his team plays short) for the legend's shorthanded cards."""
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
    number = _remove(state, place, out)
    team.locked[place[1]] = state.fac_count + legend.shorthanded_facs
    line = team.sheet[number]
    line.penalty_minutes += minutes
    if length == "match":
        line.exit = True
    state.moments.append(
        Moment(
            "penalty",
            _clock(state),
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
    events.append(Event("penalty", f"PENALTY: {who}, {legend.label} ({minutes} min). {marker}."))


def _injury_length_text(length: str, matches: int) -> str:
    return {
        "new_ball": "out until the next new ball",
        "period": "out for the rest of the period",
        "match": "out for the rest of the match",
        "matches": f"out for {matches} match{'es' if matches != 1 else ''}",
        "season": "out for the season",
        "killed": "killed",
    }[length]


def _injury(state: MatchState, place: Place, op: Op, context: dict, events: list[Event]) -> None:
    side = place[0]
    team = state.team(side)
    who = describe(state, place)
    length, matches = op.length, op.matches
    if length == "d10_matches":
        roll = _d10(state)
        # The seed's sample card: "If '0' is rolled, the player is killed" (a 0 reads 10 here).
        if roll == 10:
            length = "killed"
            result_text = "killed"
        else:
            length, matches = "matches", roll
            result_text = f"out {roll} matches"
        events.append(
            Event(
                "roll",
                f"{team.roster.team}'s coach rolls d10 = {face_label(roll)}: {result_text}.",
                rolls=(Roll("coach", roll, result_text, side=side),),
            )
        )
    until = {"new_ball": "new_ball", "period": "period"}.get(length, "match")
    number = _remove(
        state, place, Out(reason="killed" if length == "killed" else "injury", until=until)
    )
    line = team.sheet[number]
    text = _injury_length_text(length, matches)
    line.injury = f"{op.note} ({text})" if op.note else text
    line.injuries += 1
    if until == "match":
        line.exit = True
        if op.by:
            attacker_place = resolve_place(state, op.by, context, events)
            attacker = _occupant(state, attacker_place) if attacker_place else None
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
    events.append(Event("injury", f"INJURY: {who}: {line.injury}."))


def _ban(state: MatchState, place: Place, op: Op, events: list[Event]) -> None:
    team = state.team(place[0])
    who = describe(state, place)
    number = _remove(state, place, Out(reason="ban", until="match"))
    team.sheet[number].exit = True
    text = {
        "matches": f"banned for {op.matches} match{'es' if op.matches != 1 else ''}",
        "season": "banned for the rest of the season",
        "lifetime": "banned for life",
    }[op.length]
    team.sheet[number].injury = text
    team.new_absences.append(
        Absence(
            number=number,
            kind=CARRY_BAN,
            length=op.length,
            matches=op.matches if op.length == "matches" else None,
            reason=text,
        )
    )
    events.append(Event("ban", f"BAN: {who} is {text} and leaves the track."))


def _rest(state: MatchState, place: Place, op: Op, events: list[Event]) -> None:
    who = describe(state, place)
    _remove(state, place, Out(reason="rest", until=op.length))
    until = "the next new ball" if op.length == "new_ball" else "the end of the period"
    events.append(Event("rest", f"REST: {who} must sit out until {until}."))


def _do_op(state: MatchState, op: Op, context: dict, events: list[Event]) -> None:
    place = resolve_place(state, op.who, context, events)
    if place is None or _occupant(state, place) is None:
        where = op.who if place is None else f"{state.team(place[0]).roster.team} {place[1]}"
        events.append(Event("info", f"Nobody is in {where}: the {op.kind} falls on no one."))
        return
    if op.kind == OP_GOAL:
        assist_place = resolve_place(state, op.assist, context, events) if op.assist else None
        assist = _occupant(state, assist_place) if assist_place else None
        if assist_place is not None and assist_place[0] != place[0]:
            assist = None
        _score(state, place, assist, events)
        return
    number = _occupant(state, place)
    if op.kind == OP_PENALTY:
        _penalty(state, place, op.length, events)
    elif op.kind == OP_INJURY:
        _injury(state, place, op, context, events)
    elif op.kind == OP_BAN:
        _ban(state, place, op, events)
    elif op.kind == OP_REST:
        _rest(state, place, op, events)
    # Who left which slot in this section: a later op's attacker who was himself removed is
    # still credited with the casualty (see _injury).
    context.setdefault("removed", {})[place] = number


# --- goals -----------------------------------------------------------------------------------


def _score(state: MatchState, place: Place, assist: int | None, events: list[Event]) -> None:
    """A goal: the scoresheet gets the goal (numbered for the team), an assist if any."""
    side, _ = place
    team = state.team(side)
    scorer = _occupant(state, place)
    assert scorer is not None
    if assist == scorer:
        assist = None
    team.score_by_period[-1] += 1
    line = team.sheet[scorer]
    line.goals += 1
    line.goal_order.append(team.score)
    text = f"GOAL! {describe(state, place)} scores"
    if assist is not None:
        team.sheet[assist].assists += 1
        text += f", assist #{assist} {team.card(assist).name}"
    state.moments.append(
        Moment(
            "goal",
            _clock(state),
            side,
            scorer,
            line.name,
            assist=assist,
            assist_name=team.card(assist).name if assist is not None else "",
            detail=f"{state.away.score}-{state.home.score}",
        )
    )
    events.append(
        Event(
            "goal",
            f"{text}. {state.home.roster.team} {state.home.score}, "
            f"{state.away.roster.team} {state.away.score}.",
        )
    )
    if state.period == OVERTIME_PERIOD:
        state.golden_goal = True
    _to_fire(state)


def _goal_by_handler(state: MatchState, assist: int | None, events: list[Event]) -> None:
    assert state.control and state.handler
    if assist is None and state.previous_handler is not None:
        # Seed scoresheet note e): credit the teammate in control on the previous FAC.
        assist = state.previous_handler
    _score(state, (state.control, state.handler), assist, events)


# --- where the ball goes ---------------------------------------------------------------------


def _to_fire(state: MatchState) -> None:
    state.phase = PHASE_FIRE
    state.control = None
    state.handler = None
    state.previous_handler = None
    state.context = {}


def _first_skater_or_catcher(team: TeamState) -> str | None:
    for slot in SLOTS:
        if slot not in BIKER_SLOTS and team.lineup.get(slot) is not None:
            return slot
    return None


def _give_ball(state: MatchState, side: str, slot: str, events: list[Event], how: str) -> None:
    """`side`'s player in `slot` now has the ball; remembers a teammate for the assist."""
    team = state.team(side)
    assert team.lineup[slot] is not None
    if state.control == side and state.handler and state.handler != slot:
        state.previous_handler = team.lineup.get(state.handler)
    elif state.control != side:
        state.previous_handler = None
    state.control = side
    state.handler = slot
    events.append(Event("control", f"{how}: {describe(state, (side, slot))} has the ball."))


def _turnover(state: MatchState, events: list[Event]) -> None:
    """The defense takes the ball: the man guarding the handler, else the first skater/catcher."""
    assert state.control is not None
    new_side = other_side(state.control)
    team = state.team(new_side)
    slot = matched_slot(team, state.handler) if state.handler else None
    if slot is None or team.lineup.get(slot) is None:
        slot = _first_skater_or_catcher(team)
    if slot is None:
        events.append(Event("fire", "Nobody there to pick it up: the ball rolls into the gutter."))
        _to_fire(state)
        return
    _give_ball(state, new_side, slot, events, f"Turnover, {state.team(new_side).roster.team}")
    state.phase = PHASE_ACTION
    state.context = {}


def _retain(state: MatchState, events: list[Event]) -> None:
    state.phase = PHASE_ACTION
    state.context = {}
    events.append(
        Event(
            "info",
            f"{state.team(state.control).roster.team} keep the ball: next card, ACTION."
            if state.control
            else "Next card, ACTION.",
        )
    )


def _holds_catcher(state: MatchState, place: Place) -> bool:
    card = _card_at(state, place)
    return card is not None and card.position == CATCHER


def _opposing_catcher(place: Place) -> Place:
    """Where a fired ball or a FAC result goes when `place`, a catcher slot, holds no catcher
    (seed GAME SETUP: it "will automatically go to the opposing Catcher"): the same catcher slot
    across the track. Ruling: Catcher3 goes to Catcher1 (the other team may have no Catcher3)."""
    side, slot = place
    return other_side(side), "Catcher1" if slot == "Catcher3" else slot


def _catch(state: MatchState, place: Place, events: list[Event]) -> None:
    """Seed STARTING PLAY and GAME SETUP: a catcher slot that is empty (or holds a skater, who
    does not catch a fired ball) sends the ball to the opposing catcher."""
    side, slot = place
    card = _card_at(state, place)
    if slot in CATCHER_SLOTS and (card is None or card.position != CATCHER):
        why = "is empty" if card is None else "has no catcher"
        other, other_slot = _opposing_catcher(place)
        events.append(
            Event(
                "info",
                f"{state.team(side).roster.team} {slot} {why}: the opposing catcher takes it.",
            )
        )
        if not _holds_catcher(state, (other, other_slot)):
            events.append(Event("fire", "No catcher there either: the ball rolls into the gutter."))
            _to_fire(state)
            return
        side, slot = other, other_slot
    elif card is None:
        events.append(Event("fire", f"{describe(state, place)}: nobody there, into the gutter."))
        _to_fire(state)
        return
    state.control = None
    _give_ball(state, side, slot, events, "Catch")
    number = state.team(side).lineup[slot]
    assert number is not None
    state.team(side).sheet[number].catches += 1
    state.previous_handler = None
    state.pending = {"kind": "catcher_choice", "team": side}
    events.append(
        Event(
            "choice",
            f"{state.team(side).roster.team} coach: roll on the card or draw a new FAC?",
        )
    )


def _do_flow(state: MatchState, effect: Effect, context: dict, events: list[Event]) -> None:
    flow = effect.flow
    handler_number = _occupant(state, (state.control, state.handler)) if state.handler else None
    lost_handler = state.handler is not None and handler_number is None
    if lost_handler and flow.kind != FLOW_FIRE and state.phase != PHASE_FIRE:
        # Seed: "The game restarts after ... penalties, injuries": the handler is gone.
        events.append(Event("fire", "The ball handler is off the track: the ball is dead."))
        _to_fire(state)
        return
    if flow.kind == FLOW_FIRE:
        events.append(Event("fire", "The ball is dead: next card, THE BALL FIRES."))
        _to_fire(state)
    elif flow.kind == FLOW_RETAIN:
        _retain(state, events)
    elif flow.kind == FLOW_TURNOVER:
        _turnover(state, events)
    elif flow.kind == FLOW_CATCH:
        place = resolve_place(state, flow.who, context, events)
        assert place is not None
        _catch(state, place, events)
    elif flow.kind == FLOW_CONTROL:
        place = resolve_place(state, flow.who, context, events)
        if place is None or _occupant(state, place) is None:
            events.append(Event("info", f"Nobody in {flow.who}: the ball handler keeps it."))
            _retain(state, events)
            return
        defender = resolve_place(state, flow.defender, context, events) if flow.defender else None
        card = _card_at(state, place)
        if place[1] in CATCHER_SLOTS and card is not None and card.position != CATCHER:
            # Seed GAME SETUP: with a skater in a catcher slot, "all FAC results that would have
            # went to that position will automatically go to the opposing Catcher".
            other = _opposing_catcher(place)
            if not _holds_catcher(state, other):
                events.append(Event("info", f"{describe(state, place)} is no catcher: no play."))
                _retain(state, events)
                return
            events.append(
                Event("info", f"{describe(state, place)} is no catcher: the result goes across.")
            )
            place, defender = other, None
        _give_ball(state, place[0], place[1], events, "Control")
        duel(state, events, defender=defender)
    elif flow.kind == FLOW_TOW:
        place = resolve_place(state, flow.who, context, events)
        assert place is not None
        _tow(state, place, events)


def run_effect(state: MatchState, effect: Effect, context: dict, events: list[Event]) -> None:
    """Execute a section's effect: pick the branch whose condition holds, do its ops, follow
    its flow."""
    while effect.when is not None:
        if _holds(state, effect.when, context, events):
            break
        # Tell spectators why the card's "otherwise" applies.
        place = resolve_place(state, effect.when.who, context, events)
        who = describe(state, place) if place is not None else "nobody"
        events.append(Event("info", f"Not so: {who}."))
        assert effect.otherwise is not None
        effect = effect.otherwise
    for op in effect.ops:
        _do_op(state, op, context, events)
    if (
        state.phase == PHASE_FIRE
        and state.control is None
        and any(op.kind == OP_GOAL for op in effect.ops)
    ):
        return  # a goal already restarted play
    _do_flow(state, effect, context, events)


# --- duels on the Action Matrix --------------------------------------------------------------


def _matrix(offense: str, defense: str) -> MatrixLine:
    return load_content().matrix_lookup[(offense, defense)]


def _roll_on(state: MatchState, place: Place, column: str) -> tuple[str, Roll]:
    """A D10 on the OFFENSE or DEFENSE column of the card in `place` (someone must be there)."""
    card = _card_at(state, place)
    assert card is not None
    face = _d10(state)
    result = card.offense_on(face) if column == "offense" else card.defense_on(face)
    return result, Roll(column, face, result, side=place[0], slot=place[1], number=card.number)


def _defense_roll(state: MatchState, defender: Place) -> tuple[str, str, tuple[Roll, ...]]:
    """The defender's D10 on his DEFENSE column, how it reads for spectators, and the die (none
    for an empty slot: it rolls nothing, it is the Action Matrix's "[Position Empty]")."""
    card = _card_at(state, defender)
    if card is None:
        if not defender[1]:
            return EMPTY, "nobody between him and the goal: [Position Empty]", ()
        return EMPTY, f"{describe(state, defender)}: [Position Empty]", ()
    defense, roll = _roll_on(state, defender, "defense")
    return defense, f"{describe(state, defender)} rolls {face_label(roll.face)}: {defense}", (roll,)


def duel(state: MatchState, events: list[Event], defender: Place | None = None) -> None:
    """Seed ACTION NOTES 2: the handler rolls on his OFFENSE column, his defender on his DEFENSE
    column (2D10); the pair is looked up on the Action Matrix."""
    assert state.control and state.handler
    offense_place = (state.control, state.handler)
    defense_side = other_side(state.control)
    if defender is None:
        defender = (defense_side, matched_slot(state.team(defense_side), state.handler))
    offense, offense_roll = _roll_on(state, offense_place, "offense")
    defense, defense_text, defense_rolls = _defense_roll(state, defender)
    events.append(
        Event(
            "roll",
            f"{describe(state, offense_place)} rolls {face_label(offense_roll.face)}: {offense} "
            f"vs {defense_text}",
            rolls=(offense_roll, *defense_rolls),
        )
    )
    _play_line(state, offense, defense, offense_place, defender, None, events)


def _play_line(
    state: MatchState,
    offense: str,
    defense: str,
    offense_place: Place,
    defender: Place,
    biker: int | None,
    events: list[Event],
) -> None:
    """Carry out one Action Matrix line. `offense_place` is whoever rolled the offense result
    (the handler, or the towing biker); `biker` is the biker credited if it leads to a goal."""
    line: MatrixLine = _matrix(offense, defense)
    events.append(Event("matrix", f"Action Matrix: {line.description}"))
    outcome = line.outcome
    off_side = offense_place[0]
    if outcome == "goal":
        _goal_by_handler(state, biker, events)
    elif outcome == "retain":
        _retain(state, events)
    elif outcome == "turnover":
        _turnover(state, events)
    elif outcome == "defensive_biker":
        bikers = _bikers_on_track(state, defender[0])
        if not bikers:
            events.append(Event("info", "No defensive biker on the track to answer: GOAL stands."))
            _goal_by_handler(state, biker, events)
            return
        state.pending = {"kind": "defensive_biker", "team": defender[0], "biker": biker}
        events.append(
            Event(
                "choice", f"{state.team(defender[0]).roster.team} coach: choose a defensive biker."
            )
        )
    elif outcome == "biker_duel":
        state.phase = PHASE_BIKER_ID
        state.context = {"mode": "both"}
        events.append(Event("info", "Both sides call in the bikers: next card, BIKER ID."))
    elif outcome == "tow":
        state.phase = PHASE_BIKER_ID
        state.context = {"mode": "single", "defense_result": defense, "defender": defender}
        events.append(Event("info", "The ball handler reaches for a biker: next card, BIKER ID."))
    elif outcome == "goal_biker_assist":
        if _bikers_on_track(state, off_side):
            state.pending = {"kind": "assist_biker", "team": off_side}
            events.append(
                Event("choice", f"{state.team(off_side).roster.team} coach: which biker assisted?")
            )
        else:
            _goal_by_handler(state, None, events)
    elif outcome == "attack":
        state.phase = PHASE_ATTACK
        state.context = {"attacker": defender, "victim": offense_place}
        events.append(Event("info", "Attack! Next card, ATTACK section."))
    elif outcome == "steal":
        _steal(state, defender, events)
    elif outcome == "pass_goal":
        passer = _occupant(state, offense_place)
        candidates = _open_skaters(state, off_side, exclude=passer)
        if not candidates:
            events.append(Event("info", "No skater open for the pass: the team keeps the ball."))
            _retain(state, events)
            return
        state.pending = {"kind": "pass_scorer", "team": off_side, "passer": passer}
        events.append(
            Event("choice", f"{state.team(off_side).roster.team} coach: which skater scores?")
        )
    elif outcome == "event":
        state.phase = PHASE_EVENT
        state.context = {"defender": defender}
        events.append(Event("info", "Something happens: next card, EVENT."))


def _bikers_on_track(state: MatchState, side: str) -> list[str]:
    team = state.team(side)
    return [slot for slot in BIKER_SLOTS if team.lineup.get(slot) is not None]


def _open_skaters(state: MatchState, side: str, exclude: int | None) -> list[str]:
    team = state.team(side)
    slots = []
    for slot in SLOTS:
        number = team.lineup.get(slot)
        if number is not None and number != exclude and team.card(number).position == SKATER:
            slots.append(slot)
    return slots


def _steal(state: MatchState, stealer: Place, events: list[Event]) -> None:
    """LOSE vs LOSE: the defender steals and breaks away; one D10 on his OFFENSE column and the
    defense result "automatically matches". Rulings: a biker who strips the ball knocks it to his
    team's man guarding the handler (bikers never carry it); a breakaway PASS is read as PASS vs
    GOAL (a pass to an open skater)."""
    side, slot = stealer
    team = state.team(side)
    if slot in BIKER_SLOTS:
        guard = matched_slot(team, state.handler) if state.handler else None
        slot = guard if guard and team.lineup.get(guard) is not None else None
        slot = slot or _first_skater_or_catcher(team)
        if slot is None:
            events.append(Event("fire", "The ball squirts free into the gutter."))
            _to_fire(state)
            return
    state.control = other_side(side)  # so _give_ball sees a change of possession
    _give_ball(state, side, slot, events, "Steal and breakaway")
    result, roll = _roll_on(state, (side, slot), "offense")
    defense_side = other_side(side)
    defender = (defense_side, matched_slot(state.team(defense_side), slot))
    defense = GOAL if result == PASS else result
    if _occupant(state, defender) is None:
        defense = EMPTY
    events.append(
        Event(
            "roll",
            f"Breakaway: {describe(state, (side, slot))} rolls {face_label(roll.face)}: {result}; "
            f"the defense result matches ({defense}).",
            rolls=(roll,),
        )
    )
    _play_line(state, result, defense, (side, slot), defender, None, events)


def _tow(state: MatchState, biker_place: Place, events: list[Event]) -> None:
    """Seed ACTION NOTES 3 and 4: the identified biker rolls a D10 on his OFFENSE column. Alone
    (Bkr vs anything) his result replaces the handler's and meets the defender's original
    result; Bkr vs Bkr: 2D10, he meets the opposing biker in the same slot."""
    mode = state.context.get("mode", "single")
    biker_card = _card_at(state, biker_place)
    if biker_card is None:
        events.append(Event("info", f"{describe(state, biker_place)}: no biker to grab on to."))
        _retain(state, events)
        return
    biker_number = _occupant(state, biker_place)
    result, roll = _roll_on(state, biker_place, "offense")
    assert state.control is not None
    if mode == "single":
        defense = state.context["defense_result"]
        defender = state.context["defender"]
        events.append(
            Event(
                "roll",
                f"{describe(state, biker_place)} tows the ball handler, rolls "
                f"{face_label(roll.face)}: {result} vs the defender's {defense}",
                rolls=(roll,),
            )
        )
        offense_place = (state.control, state.handler)
    else:
        defender = (other_side(state.control), biker_place[1])
        defense, text, defense_rolls = _defense_roll(state, defender)
        events.append(
            Event(
                "roll",
                f"Biker duel: {describe(state, biker_place)} rolls {face_label(roll.face)}: "
                f"{result} vs {text}",
                rolls=(roll, *defense_rolls),
            )
        )
        offense_place = biker_place
    state.context = {}
    _play_line(state, result, defense, offense_place, defender, biker_number, events)


# --- reading a card --------------------------------------------------------------------------


def _section_for(state: MatchState) -> str:
    if state.phase == PHASE_ATTACK:
        attacker = state.context.get("attacker")
        return "attack_biker" if attacker and attacker[1] in BIKER_SLOTS else "attack_skater"
    return {
        PHASE_FIRE: "ball_fires",
        PHASE_ACTION: "action",
        PHASE_EVENT: "event",
        PHASE_BIKER_ID: "biker_id",
    }[state.phase]


def _next_card(state: MatchState, events: list[Event]) -> None:
    if state.fac_count == 0:
        events.append(Event("info", "The 60 FACs are shuffled and split into two piles of 30."))
    if state.period_fac == 0:
        label = (
            "Overtime (sudden death)"
            if state.period == OVERTIME_PERIOD
            else f"Period {state.period}"
        )
        events.append(Event("period", f"{label} begins."))
    index = state.deck.pop(0)
    state.fac_count += 1
    state.period_fac += 1
    card = load_content().fac(index)
    key = _section_for(state)
    if key == "ball_fires":
        _release_new_ball(state, events)
    section = getattr(card, key)
    events.append(
        Event(
            "card",
            f"[{_clock(state)}] FAC {index}, {SECTION_HEADINGS[key]}: {section.text}",
            fac=index,
            section=key,
        )
    )
    context = dict(state.context)
    context.pop("places", None)
    context.pop("removed", None)
    run_effect(state, section.effect, context, events)


def _after_card(state: MatchState, events: list[Event]) -> None:
    """End of a card's play: the period ends after its 30th card (or at a golden goal)."""
    if state.pending is not None or state.phase == PHASE_OVER:
        return
    if state.golden_goal:
        _finish(state, events)
        return
    if state.period_fac < PERIOD_FACS:
        return
    events.append(
        Event(
            "period",
            f"End of {'overtime' if state.period == OVERTIME_PERIOD else f'period {state.period}'}: "
            f"{state.home.roster.team} {state.home.score}, {state.away.roster.team} {state.away.score}.",
        )
    )
    _release(state, "period", events, "New period")
    tied = state.home.score == state.away.score
    if state.period == OVERTIME_PERIOD or (
        state.period == PERIODS and not (tied and state.settings.overtime)
    ):
        _finish(state, events)
        return
    state.period += 1
    state.period_fac = 0
    for team in (state.home, state.away):
        team.score_by_period.append(0)
    if state.period in (3, OVERTIME_PERIOD):
        # RULINGS.md: reshuffle for periods 3-4 (and the bot's ruling: again for overtime).
        state.deck = _new_deck(state.rng)
        events.append(Event("info", "The FAC deck is reshuffled and split into new piles."))
    _to_fire(state)


def _leader(state: MatchState) -> str | None:
    """The side ahead on goals, None when level."""
    if state.home.score == state.away.score:
        return None
    return HOME if state.home.score > state.away.score else AWAY


def _finish(state: MatchState, events: list[Event]) -> None:
    state.phase = PHASE_OVER
    state.pending = None
    state.control = None
    state.handler = None
    for side in (HOME, AWAY):
        team = state.team(side)
        for number, out in list(team.out.items()):
            if out.reason == "penalty":
                del team.out[number]  # every penalty expires when the match ends
    home, away = state.home, state.away
    leader = _leader(state)
    verdict = "A draw" if leader is None else f"{state.team(leader).roster.team} win"
    events.append(
        Event(
            "final",
            f"FINAL: {home.roster.team} {home.score}, {away.roster.team} {away.score}. {verdict}.",
        )
    )


def scoreboard(state: MatchState) -> str:
    """One line for a status message: clock, score, who has the ball, what comes next."""
    home, away = state.home, state.away
    score = f"{home.roster.team} {home.score}, {away.roster.team} {away.score}"
    if state.phase == PHASE_OVER:
        return f"Final: {score}"
    if state.phase == PHASE_SETUP:
        return f"{score}; waiting for the line-ups"
    if state.pending is not None:
        waiting = (
            f"waiting for the {SIDE_WORD[state.pending['team']].lower()} coach: "
            + state.pending["kind"].replace("_", " ")
        )
    else:
        waiting = f"next card: {SECTION_HEADINGS[_section_for(state)]}"
    ball = (
        f"{describe(state, (state.control, state.handler))} has the ball"
        if state.control and state.handler
        else "the ball is loose"
    )
    return f"[{_clock(state)}] {score}; {ball}; {waiting}"


# --- coach decisions and the public API ------------------------------------------------------


def _bench(state: MatchState, side: str) -> list[int]:
    team = state.team(side)
    on_track = team.on_track()
    return [
        card.number
        for card in team.roster.players
        if card.number not in on_track and card.number not in team.out
    ]


def _can_substitute(state: MatchState, side: str) -> bool:
    return state.phase != PHASE_OVER and state.pending is None and state.control == side


def substitution_slots(state: MatchState, side: str) -> list[str]:
    """Slots `side` may change now (in possession, not the handler's, not short-handed)."""
    if not _can_substitute(state, side):
        return []
    team = state.team(side)
    return [
        slot for slot in team.lineup if slot != state.handler and not _is_locked(state, team, slot)
    ]


def legal_actions(state: MatchState) -> list[Action]:
    """Everything that may be done now. In PHASE_SETUP any legal line-up may be handed in; the
    list offers each waiting coach his default line-up."""
    if state.phase == PHASE_OVER:
        return []
    if state.phase == PHASE_SETUP:
        return [
            SubmitLineup.of(side, default_lineup(state.team(side).roster))
            for side in (HOME, AWAY)
            if side not in state.submitted
        ]
    pending = state.pending
    if pending is not None:
        side = pending["team"]
        if pending["kind"] == "dice":
            return [RollDie(side)]
        if pending["kind"] == "catcher_choice":
            return [CatcherChoice(side, True), CatcherChoice(side, False)]
        if pending["kind"] in ("defensive_biker", "assist_biker"):
            return [ChooseBiker(side, slot) for slot in _bikers_on_track(state, side)]
        if pending["kind"] == "pass_scorer":
            return [
                ChooseScorer(side, slot)
                for slot in _open_skaters(state, side, exclude=pending["passer"])
            ]
    actions: list[Action] = [NextCard()]
    if state.control is not None:
        side = state.control
        team = state.team(side)
        bench = _bench(state, side)
        for slot in substitution_slots(state, side):
            for number in bench:
                if fits_slot(team.card(number).position, slot):
                    actions.append(Substitute(side, slot, number))
    return actions


def _check_pending(state: MatchState, kind: str, team: str) -> dict:
    pending = state.pending
    if pending is None or pending["kind"] != kind:
        raise RollerballError("That choice is not being asked for right now.")
    if pending["team"] != team:
        raise RollerballError(f"It is the {SIDE_WORD[pending['team']].lower()} coach's choice.")
    return pending


def _validate(state: MatchState, action: Action) -> None:
    """Raise RollerballError (a message for the coach) unless `action` is legal now."""
    if state.phase == PHASE_OVER:
        raise RollerballError("The match is over.")
    if isinstance(action, SubmitLineup):
        if state.phase != PHASE_SETUP:
            raise RollerballError("The line-ups are in and the match has started.")
        if action.team not in (HOME, AWAY):
            raise RollerballError("Team must be home or away.")
        if action.team in state.submitted:
            raise RollerballError("Your line-up is already handed in.")
        validate_lineup(state.team(action.team).roster, action.as_dict())
        return
    if state.phase == PHASE_SETUP:
        waiting = " and ".join(
            SIDE_WORD[side] for side in (HOME, AWAY) if side not in state.submitted
        )
        raise RollerballError(f"Waiting for line-ups: {waiting}.")
    if state.pending is not None and state.pending["kind"] == "dice":
        side = state.pending["team"]
        if not isinstance(action, RollDie):
            raise RollerballError(
                f"The dice first: the {SIDE_WORD[side].lower()} coach rolls the next die."
            )
        if action.team != side:
            raise RollerballError(f"It is the {SIDE_WORD[side].lower()} coach's die to roll.")
        return
    if isinstance(action, RollDie):
        raise RollerballError("No die is waiting to be rolled.")
    if isinstance(action, NextCard):
        if state.pending is not None:
            raise RollerballError(
                "A coach must decide first: " + state.pending["kind"].replace("_", " ") + "."
            )
        return
    if isinstance(action, Substitute):
        if action.team not in (HOME, AWAY):
            raise RollerballError("Team must be home or away.")
        if state.pending is not None:
            raise RollerballError("Finish the decision in hand before substituting.")
        if state.control != action.team:
            raise RollerballError("You may only substitute while your team has the ball.")
        team = state.team(action.team)
        if action.slot not in team.lineup:
            raise RollerballError(f"There is no {action.slot} slot in your lineup.")
        if action.slot == state.handler:
            raise RollerballError("You can't substitute the current ball handler.")
        if _is_locked(state, team, action.slot):
            raise RollerballError(
                f"{action.slot} is short-handed for a penalty until its marker turns up."
            )
        card = team.card(action.number)
        if action.number in team.out:
            raise RollerballError(f"#{card.number} {card.name} may not play now.")
        if action.number in team.on_track():
            raise RollerballError(f"#{card.number} {card.name} is already on the track.")
        if not fits_slot(card.position, action.slot):
            raise RollerballError(f"A {card.position} cannot play {action.slot}.")
        return
    if isinstance(action, CatcherChoice):
        _check_pending(state, "catcher_choice", action.team)
        return
    if isinstance(action, ChooseBiker):
        pending = state.pending
        kind = pending["kind"] if pending else ""
        if kind not in ("defensive_biker", "assist_biker"):
            raise RollerballError("No biker is being asked for right now.")
        _check_pending(state, kind, action.team)
        if action.slot not in _bikers_on_track(state, action.team):
            raise RollerballError(f"{action.slot} has no biker on the track.")
        return
    if isinstance(action, ChooseScorer):
        pending = _check_pending(state, "pass_scorer", action.team)
        if action.slot not in _open_skaters(state, action.team, exclude=pending["passer"]):
            raise RollerballError(f"{action.slot} is not an open skater for this pass.")
        return
    raise RollerballError("Unknown action.")


def apply_in_place(state: MatchState, action: Action) -> list[Event]:
    """apply() without the copy: validates first, so an illegal action changes nothing."""
    _validate(state, action)
    if isinstance(action, SubmitLineup):
        events: list[Event] = []
        _submit_lineup(state, action, events)  # recorded only once both are in (private)
        return events
    if isinstance(action, RollDie):
        state.record.append(record_line(action))
        return _roll_die(state, action)
    state.record.append(record_line(action))
    if state.settings.coach_dice and not isinstance(action, Substitute):
        return _ask_for_dice(state, action)
    return _resolve(state, action)


def _dice_of(state: MatchState, action: Action, resume: dict | None) -> tuple[list, list]:
    """Play `action` on a copy: its events and, in order, every die it rolls (event index,
    Roll). The generator is seeded, so the real play later rolls exactly these."""
    trial = clone(state)
    trial.pending = resume
    events = _resolve(trial, action)
    rolls = [(index, roll) for index, event in enumerate(events) for roll in event.rolls]
    return events, rolls


def _ask_for_dice(state: MatchState, action: Action) -> list[Event]:
    """Seed ACTION NOTES 2: "in a two 'coach' game, opposing coaches roll their own D10". With
    Settings.coach_dice the play of `action` waits until each die's coach has rolled it
    (RollDie), in the order the rules roll them; the faces still come from the match's seeded
    generator, so nothing about the outcome changes, only who clicks. What happens before the
    first die (the card turned) is shown at once."""
    events, rolls = _dice_of(state, action, state.pending)
    if not rolls:
        return _resolve(state, action)
    first_event, first_roll = rolls[0]
    state.pending = {
        "kind": "dice",
        "team": first_roll.side,
        "action": record_line(action),
        "rolled": 0,
        "shown": first_event,
        "resume": state.pending,
    }
    return [*events[:first_event], _dice_request(state, first_roll)]


def _dice_request(state: MatchState, roll: Roll) -> Event:
    what = {"offense": "OFFENSE", "defense": "DEFENSE"}.get(roll.column)
    if what is not None:
        whose = f"{describe(state, (roll.side, roll.slot))}'s {what} column"
    elif roll.column == "coach":
        whose = "the coach's D10"
    else:
        whose = "the Random Player chart"
    team = state.team(roll.side).roster.team
    return Event("choice", f"{team} coach: roll the die for {whose}.")


def _roll_die(state: MatchState, action: RollDie) -> list[Event]:
    pending = state.pending
    assert pending is not None
    held = parse_action(pending["action"])
    _, rolls = _dice_of(state, held, pending["resume"])
    index = pending["rolled"]
    roll = rolls[index][1]
    team = state.team(action.team).roster.team
    rolled = Event("roll", f"{team} coach rolls d10 = {face_label(roll.face)}.", rolls=(roll,))
    if index + 1 < len(rolls):
        next_roll = rolls[index + 1][1]
        pending["rolled"] = index + 1
        pending["team"] = next_roll.side
        return [rolled, _dice_request(state, next_roll)]
    state.pending = pending["resume"]
    return [rolled, *_resolve(state, held)[pending["shown"] :]]


def _resolve(state: MatchState, action: Action) -> list[Event]:
    """Carry out a validated, recorded action."""
    events: list[Event] = []
    if isinstance(action, NextCard):
        _next_card(state, events)
    elif isinstance(action, Substitute):
        team = state.team(action.team)
        leaving = team.lineup.get(action.slot)
        team.lineup[action.slot] = action.number
        team.sheet[action.number].on_track = True
        text = f"Substitution, {team.roster.team}: #{action.number} {team.card(action.number).name} into {action.slot}"
        if leaving is not None:
            text += f" for #{leaving} {team.card(leaving).name}"
        events.append(Event("sub", text + "."))
    elif isinstance(action, CatcherChoice):
        state.pending = None
        who = describe(state, (action.team, state.handler or ""))
        if action.roll:
            events.append(Event("choice", f"{who} rolls on his card."))
            duel(state, events)
        else:
            events.append(
                Event(
                    "choice",
                    f"{state.team(action.team).roster.team} coach: {who} hands over to the deck "
                    "(next card, ACTION).",
                )
            )
            state.phase = PHASE_ACTION
            state.context = {}
    elif isinstance(action, ChooseBiker):
        pending = state.pending
        assert pending is not None
        state.pending = None
        if pending["kind"] == "assist_biker":
            assist = state.team(action.team).lineup[action.slot]
            events.append(
                Event("choice", f"Assist to {describe(state, (action.team, action.slot))}.")
            )
            _goal_by_handler(state, assist, events)
        else:
            _defensive_biker(state, (action.team, action.slot), pending.get("biker"), events)
    elif isinstance(action, ChooseScorer):
        pending = state.pending
        assert pending is not None
        state.pending = None
        scorer = (action.team, action.slot)
        events.append(Event("choice", f"The pass finds {describe(state, scorer)}."))
        _score(state, scorer, pending["passer"], events)
    if state.pending is None and state.phase != PHASE_OVER:
        _expire_markers(state, events)
    _after_card(state, events)
    return events


def _submit_lineup(state: MatchState, action: SubmitLineup, events: list[Event]) -> None:
    """Keep a coach's line-up hidden until the other is in; then both take the track and both
    go into the record, home first, so a record never shows one line-up early."""
    state.submitted[action.team] = action.as_dict()
    waiting = [side for side in (HOME, AWAY) if side not in state.submitted]
    if waiting:
        events.append(
            Event(
                "lineup",
                f"{state.team(action.team).roster.team} have handed in their line-up; waiting for "
                f"{state.team(waiting[0]).roster.team}.",
            )
        )
        return
    for side in (HOME, AWAY):
        team = state.team(side)
        lineup = state.submitted[side]
        team.lineup = dict(lineup)
        team.starters = dict(lineup)
        for line in team.sheet.values():
            line.on_track = False
        for number in team.on_track():
            team.sheet[number].on_track = True
        state.record.append(record_line(SubmitLineup.of(side, lineup)))
    state.submitted = {}
    state.phase = PHASE_FIRE
    events.append(Event("lineup", "Both line-ups are in: the match begins."))


def _defensive_biker(
    state: MatchState, biker_place: Place, towing_biker: int | None, events: list[Event]
) -> None:
    """Seed ACTION NOTES 5 and the matrix's GOAL vs BKR: the chosen defensive biker rolls a D10;
    his result is both the offensive and defensive action. Ruling: read his DEFENSE column."""
    assert state.control and state.handler
    result, roll = _roll_on(state, biker_place, "defense")
    events.append(
        Event(
            "roll",
            f"{describe(state, biker_place)} answers the shot, rolls {face_label(roll.face)}: "
            f"{result} (both sides read {result}).",
            rolls=(roll,),
        )
    )
    _play_line(
        state, result, result, (state.control, state.handler), biker_place, towing_biker, events
    )


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply a coach action to a copy of `state`; returns the new state and the play-by-play.
    Raises RollerballError for an illegal action (the given state is never changed)."""
    _validate(state, action)
    new_state = clone(state)
    events = apply_in_place(new_state, action)
    return new_state, events


def result(state: MatchState) -> MatchResult:
    """The scoresheet and what carries over (meaningful once the match is over)."""
    sheets = {}
    for side in (HOME, AWAY):
        team = state.team(side)
        sheets[side] = TeamSheet(
            team=team.roster.team,
            side=side,
            players=[copy.copy(team.sheet[card.number]) for card in team.roster.players],
            score_by_period=list(team.score_by_period),
        )
    return MatchResult(
        home=sheets[HOME],
        away=sheets[AWAY],
        winner=_leader(state) if state.phase == PHASE_OVER else None,
        overtime=state.period == OVERTIME_PERIOD,
        facs_played=state.fac_count,
        carry_over={side: list(state.team(side).new_absences) for side in (HOME, AWAY)},
        moments=list(state.moments),
    )
