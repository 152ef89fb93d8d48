"""The playout path: random games and trusted actions, in place (docs/rules/rocketball.md,
"Engine speed": 10,000 random full games a minute, bench/rocketball_engine.py).

`apply` is for players: it validates, copies the state, writes event texts and a history line.
Simulations (benchmarks, the computer's look-ahead, statistics) need none of that:

- `apply_trusted(state, action)` applies a legal action IN PLACE: no copy, no events, no
  history line. The state it leaves is exactly what `apply` returns (history aside): same
  field, same dice, same everything.
- `playout(state, rng, max_actions=None)` plays the actions `random_action(state, rng)` would
  pick, in place, until the match ends (or `max_actions`); it returns how many it played.
  The same `rng` seed gives the same game as the `apply`/`random_action` loop
  (tests/rules/rocketball/test_playout.py checks it over thousands of seeded games).

The base game (vortex chips only, one ball, no Drifting Winds) runs table-driven: neighbours,
edge arrows and goals are looked up, the empty squares and the chips' order are kept in small
lists instead of being listed again every turn, and the game's dice run on the C generator
(`Dice` and `random.Random` draw the same sequence; the state's dice are handed back as
`Dice` at the end). Every other setting goes through the engine's own rule functions, in
place (their texts are still written there, then dropped).
"""

from __future__ import annotations

import random
from bisect import bisect_left

from rules.rocketball import engine, placement
from rules.rocketball.actions import Action, Aim, Resign, Roll
from rules.rocketball.dice import Dice
from rules.rocketball.engine import START_TABLE, legal_actions, random_action
from rules.rocketball.state import (
    DIRECTIONS,
    FIELD_SQUARES,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_ROLL,
    VORTEX,
    Chip,
    GameState,
    edge_arrow,
    neighbour,
    off_field_step,
    opposite,
    other,
    turn_clockwise,
    turn_counterclockwise,
)

# --- tables --------------------------------------------------------------------------------

_MOVE, _BOUNCE, _GOAL = 0, 1, 2


def _step(square: str, direction: str) -> tuple[int, str]:
    """One unit of movement from `square` facing `direction` (movement.BallMover.advance)."""
    target = neighbour(square, direction)
    if target is not None:
        return _MOVE, target
    goal_square = off_field_step(square, direction)
    if goal_square is not None:
        return _GOAL, goal_square
    return _BOUNCE, edge_arrow(square, direction) or opposite(direction)


STEPS = {sq: {d: _step(sq, d) for d in DIRECTIONS} for sq in FIELD_SQUARES}
_GOAL_OF = {"c0": "N", "d0": "N", "e0": "N", "c12": "S", "d12": "S", "e12": "S"}
_OPEN = placement._OPEN_SQUARES  # the squares a vortex may ever go on, in legal_actions' order
_OPEN_INDEX = {square: index for index, square in enumerate(_OPEN)}
_VORTEX_CHIPS = {d: Chip(VORTEX, d) for d in DIRECTIONS}
# A vortex's facing turned either way, looked up by a chip's `facing` (str | None: the fast
# path's chips are all vortices, which have one).
_TURN: dict[bool, dict[str | None, str]] = {True: {d: turn_clockwise(d) for d in DIRECTIONS}}
_TURN[False] = {d: turn_counterclockwise(d) for d in DIRECTIONS}


def fast_path(state: GameState) -> bool:
    """True when the table-driven base game applies: vortex chips only, one ball, no drifting
    (Tug-of-War only changes who scores and is handled)."""
    s = state.settings
    return not (
        s.bumpers
        or s.twisters
        or s.gusts
        or s.barricades
        or s.moguls
        or s.djinns
        or s.assault
        or s.drifting_winds
    )


# --- trusted actions, in place -------------------------------------------------------------


def apply_trusted(state: GameState, action: Action) -> None:
    """Apply a legal action to `state` in place: no copy, no events, no history line.

    The action must be legal (one of `legal_actions(state)`, or a Resign): nothing is checked.
    """
    sink: list = []
    if isinstance(action, Resign):
        engine._finish(state, other(action.player), "resign", sink, "")
    elif isinstance(action, Roll):
        engine._roll(state, sink)
    elif isinstance(action, Aim):
        engine._aim(state, action, sink)
    else:
        engine._place_step(state, action, sink)


# --- random playouts -----------------------------------------------------------------------


class _Base:
    """The base game's bookkeeping kept beside the state during a playout: the open squares
    without a chip (sorted, as indices into _OPEN), the chips' squares in the order of
    `state.chips` (the order legal_actions lists rotations in) and each one's place in it."""

    __slots__ = ("empty", "order", "position")

    def __init__(self, state: GameState) -> None:
        self.order = list(state.chips)
        self.position = {square: index for index, square in enumerate(self.order)}
        self.empty = [i for i, square in enumerate(_OPEN) if square not in state.chips]


def playout(state: GameState, rng: random.Random, *, max_actions: int | None = None) -> int:
    """Play random actions on `state` in place until the match ends or `max_actions` were
    played; returns the number played. Each action is the one `random_action(state, rng)`
    would return, drawn the same way from `rng`."""
    limit = -1 if max_actions is None else max_actions
    if state.phase == PHASE_OVER or limit == 0:
        return 0
    if not fast_path(state):
        played = 0
        while state.phase != PHASE_OVER and played != limit:
            apply_trusted(state, random_action(state, rng))
            played += 1
        return played
    dice = state.rng
    fast = random.Random()
    fast.setstate(dice.getstate())  # the same Mersenne Twister sequence, drawn in C
    state.rng = fast
    try:
        return _base_playout(state, rng, limit)
    finally:
        state.rng = Dice.from_random(fast)


def _base_playout(state: GameState, rng: random.Random, limit: int) -> int:
    """The base game's loop (see playout). Rules as in engine.py, which names the clauses.

    The phase, the windbag and the drawn chip live in local variables and are written back
    to the state before a goal is scored (the engine's _score reads them) and at the end."""
    dice = state.rng.random
    # rng.choice(seq) draws seq[rng._randbelow(len(seq))]: getrandbits(k) for the bit length
    # k of the size, again while the draw is too large. Done here inline, bit for bit.
    bits = rng.getrandbits
    tug = state.settings.tug_of_war
    swap_every = state.settings.tug_swap_rounds
    chips, bag, last_rotated = state.chips, state.bag, state.last_rotated
    book = _Base(state)
    empty, order, place_of = book.empty, book.order, book.position
    ball = state.balls[0]
    phase, holder, drawn = state.phase, state.windbag, state.drawn
    played = 0
    while played != limit:
        if phase == PHASE_ROLL:
            while bits(1):  # random_action: rng.choice([Roll()]) draws even from one
                pass
            played += 1
            square, facing = ball.square, ball.facing
            goal = None
            for _ in range(1 + int(dice() * 4)):
                what, value = STEPS[square][facing]
                if what == _MOVE:
                    square = value
                    chip = chips.get(square)
                    if chip is not None and chip.facing is not None:  # a vortex (fast_path)
                        facing = chip.facing
                elif what == _BOUNCE:
                    facing = value
                else:
                    square, goal = value, _GOAL_OF[value]
                    break
            ball.square, ball.facing = square, facing
            if goal is None:
                # engine._start_place_step and _draw: the holder draws (a vortex, here).
                phase = PHASE_PLACE
                total = bag[VORTEX]  # the only kind in the base game's windbag
                if total:
                    dice()  # the draw among `total` chips, all vortexes
                    bag[VORTEX] = total - 1
                    drawn = VORTEX
                else:
                    drawn = None
                continue
            _store(state, PHASE_ROLL, holder, None)
            engine._score(state, [(0, goal)], [])
            if state.phase == PHASE_OVER:
                return played
            chips, bag, last_rotated = state.chips, state.bag, state.last_rotated
            book = _Base(state)
            empty, order, place_of = book.empty, book.order, book.position
            ball = state.balls[0]
            phase, holder = state.phase, state.windbag
            continue
        if phase != PHASE_PLACE:
            break
        # The place step: placements (square by square, 4 facings each) then rotations.
        ball_square = ball.square
        places = len(empty) if drawn is not None else 0
        skip = -1
        ball_at = _OPEN_INDEX.get(ball_square, -1)
        if ball_at >= 0 and places:
            skip = bisect_left(empty, ball_at)
            if skip < places and empty[skip] == ball_at:
                places -= 1
            else:
                skip = -1
        blocked = []
        if ball_square in chips:
            blocked.append(place_of[ball_square])
        rotated = last_rotated["S" if holder == "N" else "N"]
        if rotated is not None and rotated != ball_square:
            blocked.append(place_of[rotated])
        rotations = len(order) - len(blocked)
        total = places * 4 + rotations * 2
        last_rotated[holder] = None
        played += 1
        if total == 0:
            while bits(1):  # random_action: rng.choice([Pass()])
                pass
        else:
            size = total.bit_length()
            index = bits(size)
            while index >= total:
                index = bits(size)
            if index < places * 4:
                k = index >> 2
                if 0 <= skip <= k:
                    k += 1
                square = _OPEN[empty.pop(k)]
                chips[square] = _VORTEX_CHIPS[DIRECTIONS[index & 3]]
                place_of[square] = len(order)
                order.append(square)
                drawn = None  # placed: it does not go back in the windbag
            else:
                j = (index - places * 4) >> 1
                if len(blocked) == 2 and blocked[0] > blocked[1]:
                    blocked.reverse()
                for position in blocked:
                    if j >= position:
                        j += 1
                square = order[j]
                chips[square] = _VORTEX_CHIPS[_TURN[index & 1 == 0][chips[square].facing]]
                last_rotated[holder] = square
        # engine._return_drawn, then the end of the round (engine._end_round).
        if drawn is not None:
            bag[drawn] += 1
            drawn = None
        state.rounds += 1
        if tug and swap_every > 0 and state.rounds % swap_every == 0:
            state.goals_reversed = not state.goals_reversed
        holder = "S" if holder == "N" else "N"
        phase = PHASE_ROLL
    _store(state, phase, holder, drawn)
    return played


def _store(state: GameState, phase: str, holder: str, drawn: str | None) -> None:
    """Write the loop's local variables back (what apply leaves in the base game)."""
    state.phase = phase
    state.windbag = state.to_move = holder
    state.drawn = drawn
    state.placers = [holder] if phase == PHASE_PLACE else []
    state.placed_this_round = []


__all__ = ["START_TABLE", "apply_trusted", "fast_path", "legal_actions", "playout"]
