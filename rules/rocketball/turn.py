"""What happens next, computed once as data (`next_step`) and phrased once (`describe_next`).

The next step used to be written four times (the board, the embed, the buttons, the prompt)
and they disagreed under Drifting Winds. Every reader now asks `next_step(state)`:
who may act (`actors`, a set so that a host can also run simultaneous decisions; in Rocketball
one seat at a time, e.g. the second placer in Assault), what kind of decision it is, for a
place step which moves are possible and which chip was drawn, and how the match ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.rocketball import placement
from rules.rocketball.state import (
    CENTRE,
    DJINN,
    PHASE_AIM,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_ROLL,
    PLAYER_NAMES,
    VORTEX,
    GameState,
    other,
)

ROLL = "roll"
PLACE = "place"
AIM = "aim"
OVER = "over"
# The moves a place step may offer, in the order they are phrased.
PLACE_OPTIONS = ("place", "rotate", "drift", "pass")


@dataclass(frozen=True)
class NextStep:
    """What happens next in a match.

    - `actors`: the seats ("N"/"S") that may act now (empty once the match is over; Resign is
      always open to both seats and is not counted here).
    - `kind`: "roll", "place", "aim" or "over".
    - `options` (place only): the possible moves among "place", "rotate", "drift", "pass", in
      that order; "pass" appears alone, when nothing else is possible (docs/rules/rocketball.md, "A
      turn").
    - `drawn` (place only): the chip kind drawn from the windbag, None when it was empty.
    - `winner`, `reason` ("score", "resign", "collision") and `score` (North's, South's) when
      the match is over; `winner` is None for a draw.
    """

    actors: frozenset[str]
    kind: str
    options: tuple[str, ...] = ()
    drawn: str | None = None
    winner: str | None = None
    reason: str | None = None
    score: tuple[int, int] = (0, 0)


def _place_options(state: GameState) -> tuple[str, ...]:
    """Which moves the place step allows: the same checks legal_actions lists from."""
    options = []
    if any(placement.placement_squares(state, kind) for kind in placement.placeable_kinds(state)):
        options.append("place")
    if placement.rotatable_squares(state):
        options.append("rotate")
    if state.settings.drifting_winds and placement.drift_moves(state):
        options.append("drift")
    return tuple(options) or ("pass",)


def next_step(state: GameState) -> NextStep:
    """What happens next in `state` (see NextStep)."""
    score = (state.score["N"], state.score["S"])
    if state.phase == PHASE_OVER:
        return NextStep(
            frozenset(), OVER, winner=state.winner, reason=state.end_reason, score=score
        )
    actors = frozenset((state.to_move,))
    if state.phase == PHASE_ROLL:
        return NextStep(actors, ROLL, score=score)
    if state.phase == PHASE_AIM:
        return NextStep(actors, AIM, score=score)
    if state.phase != PHASE_PLACE:
        raise ValueError(f"unknown phase {state.phase!r}")
    return NextStep(actors, PLACE, _place_options(state), state.drawn, score=score)


def actors(state: GameState) -> frozenset[str]:
    """The seats that may act now (what a match host checks a click against)."""
    if state.phase == PHASE_OVER:
        return frozenset()
    return frozenset((state.to_move,))


def _who(seat: str, names: dict[str, str]) -> str:
    """ "North (Alice)", or just "North" when no other name is known."""
    seat_name = PLAYER_NAMES[seat]
    name = " ".join(str(names.get(seat) or "").split())
    return seat_name if not name or name == seat_name else f"{seat_name} ({name})"


def _place_phrase(step: NextStep) -> str:
    """ "places the drawn bumper, rotates or drifts a chip": only what is possible, and the
    drawn chip named only when it is not a plain vortex."""
    if step.options == ("pass",):
        return "can neither place nor rotate a chip and passes."
    verbs = []
    for option in step.options:
        if option == "place":
            if step.drawn == DJINN:
                verbs.append("places any chip from the windbag (djinn)")
            elif step.drawn not in (None, VORTEX):
                verbs.append(f"places the drawn {step.drawn}")
            else:
                verbs.append("places")
        elif option == "rotate":
            verbs.append("rotates")
        elif option == "drift":
            verbs.append("drifts")
    sentence = verbs[0] if len(verbs) == 1 else f"{', '.join(verbs[:-1])} or {verbs[-1]}"
    if len(verbs) > 1 or verbs[0] in ("places", "rotates", "drifts"):
        sentence += " a chip"  # not after "places the drawn bumper" alone
    if step.drawn is None and "place" not in step.options:
        sentence += " (the windbag is empty)"
    return sentence + "."


def describe_next(step: NextStep, names: dict[str, str] | None = None) -> str:
    """The next step as players read it, e.g. "North (Alice) rolls the d4.", "South (Bob)
    places the drawn bumper or rotates a chip.", "South (Bob) resigned: North (Alice) wins.".
    `names` maps "N"/"S" to display names; without one a seat is just "North"/"South"."""
    names = names or {}
    north, south = step.score
    if step.kind == OVER:
        if step.reason == "collision":
            if step.winner is None:
                return f"The balls collided: a draw at {north}-{south}."
            return f"The balls collided: {_who(step.winner, names)} wins {north}-{south}."
        if step.winner is None:
            return f"The match is drawn at {north}-{south}."
        winner = _who(step.winner, names)
        if step.reason == "resign":
            return f"{_who(other(step.winner), names)} resigned: {winner} wins."
        high, low = max(north, south), min(north, south)
        return f"{winner} wins {high}-{low}."
    who = _who(min(step.actors), names)
    if step.kind == ROLL:
        return f"{who} rolls the d4."
    if step.kind == AIM:
        return f"{who} aims the ball on {CENTRE} (N, E, S or W)."
    return f"{who} {_place_phrase(step)}"
