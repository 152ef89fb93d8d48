"""Rocketball computer opponent: `choose_action(state, level, rng)` picks one of legal_actions.

Levels
- "easy": half the time a uniformly random legal action; otherwise the action that gives the
  best average result of the very next roll (one ply over the four d4 outcomes).
- "medium": always that best one-ply action.
- "strong": looks two moves ahead. For each useful action (a chip on, or a rotation of, a
  square the ball may cross on the next roll, plus the best "quiet" placement elsewhere) it
  follows the ball for each d4 outcome; where the ball ends near a goal it also tries the
  opponent's best blocking chip and the four outcomes of the roll after that.

The computer never peeks at the game's own RNG: chance chips (bumpers, twisters,
barricades) met in its look-ahead are rolled with the `rng` handed in, so its choices are
reproducible from that seed and tell it nothing about the real dice.
"""

from __future__ import annotations

import random

from rules.rocketball import placement
from rules.rocketball.actions import Action, Aim, Drift, Place, Roll, Rotate
from rules.rocketball.engine import legal_actions
from rules.rocketball.movement import BallMover
from rules.rocketball.state import (
    CENTRE,
    DIRECTIONS,
    LAST_ROW,
    PHASE_AIM,
    PHASE_PLACE,
    ROTATABLE_KINDS,
    VORTEX,
    Ball,
    Chip,
    GameState,
    other,
    square_coords,
    turn_clockwise,
    turn_counterclockwise,
)

LEVELS = ("easy", "medium", "strong")
GOAL_VALUE = 1.0
# The ball can only reach a goal on a roll of at most 4 from rows 1-4 or 8-11: elsewhere the
# opponent's reply cannot matter for the next roll and a static estimate is used instead.
DANGER_ROWS = frozenset({1, 2, 3, 4, 8, 9, 10, 11})


class _Sim:
    """The part of a state a BallMover touches, with the computer's own dice."""

    __slots__ = ("chips", "removed", "rng")

    def __init__(self, chips: dict[str, Chip], rng: random.Random) -> None:
        self.chips = dict(chips)
        self.removed: dict[str, int] = {}
        self.rng = rng


def choose_action(state: GameState, level: str, rng: random.Random) -> Action:
    """The computer's action for `state.to_move` at `level` ("easy", "medium" or "strong")."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose from {', '.join(LEVELS)}")
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    if level == "easy" and rng.random() < 0.5:
        return rng.choice(actions)
    me = state.to_move
    if state.phase == PHASE_AIM:
        return _best_aim(state, me, rng)
    if state.phase != PHASE_PLACE:
        return Roll()
    return _best_placement(state, actions, me, rng, deep=level == "strong")


# --- following the ball ---------------------------------------------------------------------


def _follow(
    state: GameState, chips: dict[str, Chip], ball: Ball, roll: int, rng: random.Random
) -> tuple[str | None, Ball, list[str]]:
    """Move a copy of `ball` by `roll` on `chips`: (goal entered or None, ball after, squares
    crossed)."""
    sim = _Sim(chips, rng)
    moving = Ball(ball.square, ball.facing, ball.owner, ball.home)
    mover = BallMover(sim, moving, roll)  # type: ignore[arg-type]
    while not mover.finished:
        mover.advance()
    return mover.goal, moving, [step.square for step in mover.steps]


def _goal_value(state: GameState, goal: str, ball: Ball, me: str) -> float:
    """+1 when the ball in `goal` scores for `me`, -1 when it scores against."""
    if ball.owner is not None:  # Assault: only a ball in its owner's target goal scores
        if goal == ball.owner:
            return -0.3 if ball.owner == me else 0.3  # own goal: the ball restarts at home
        return GOAL_VALUE if ball.owner == me else -GOAL_VALUE
    scorer = goal if state.goals_reversed else other(goal)
    return GOAL_VALUE if scorer == me else -GOAL_VALUE


def _static(state: GameState, ball: Ball, me: str) -> float:
    """A small positional estimate: closer to and facing `me`'s target goal is better."""
    if ball.square == CENTRE and ball.owner is None:
        return 0.0
    target = state.target_goal(me)
    row = square_coords(ball.square)[1]
    progress = (LAST_ROW + 1 - row if target == "N" else row) / (LAST_ROW + 1) - 0.5
    toward = "N" if target == "N" else "S"
    facing = 0.05 if ball.facing == toward else -0.05 if ball.facing == other(toward) else 0.0
    sign = 1.0 if ball.owner in (None, me) else -1.0  # Assault: the opponent's ball counts against
    return sign * (0.2 * progress + facing)


def _roll_value(
    state: GameState,
    chips: dict[str, Chip],
    me: str,
    rng: random.Random,
    leaf: object,
) -> tuple[float, list[Ball]]:
    """Average over the four d4 outcomes of every ball's next move. `leaf(ball)` values a
    ball that stayed on the field. Returns (value, the balls after each outcome)."""
    total = 0.0
    ends = []
    for ball in state.balls:
        for roll in (1, 2, 3, 4):
            goal, after, _ = _follow(state, chips, ball, roll, rng)
            if goal is not None:
                total += _goal_value(state, goal, after, me)
            else:
                total += leaf(after)  # type: ignore[operator]
                ends.append(after)
    return total / 4, ends


def _path_squares(state: GameState, chips: dict[str, Chip], rng: random.Random) -> set[str]:
    """Squares any ball may cross on the next roll: only chips there change that roll."""
    squares: set[str] = set()
    for ball in state.balls:
        for roll in (1, 2, 3, 4):
            squares.update(_follow(state, chips, ball, roll, rng)[2])
    return squares


# --- choosing -------------------------------------------------------------------------------


def _chips_after(state: GameState, action: Action) -> dict[str, Chip]:
    """The field after the computer's own place step (validity comes from legal_actions)."""
    chips = dict(state.chips)
    if isinstance(action, Place):
        kind = action.kind or state.drawn or VORTEX
        chips[action.square] = Chip(kind, action.facing)
    elif isinstance(action, Rotate):
        chip = chips[action.square]
        turn = turn_clockwise if action.clockwise else turn_counterclockwise
        chips[action.square] = Chip(chip.kind, turn(chip.facing or "N"))
    elif isinstance(action, Drift):
        chips[action.to_square] = chips.pop(action.from_square)
    return chips


def _quiet_value(state: GameState, action: Action, me: str) -> float:
    """How much a chip off the ball's path helps later: vortexes near the target goal that
    point into it, and near the own goal that point away from it."""
    if not isinstance(action, Place) or action.facing is None:
        return 0.0
    target = state.target_goal(me)
    row = square_coords(action.square)[1]
    rows_from_target = row - 1 if target == "N" else LAST_ROW - row
    rows_from_own = LAST_ROW - row if target == "N" else row - 1
    value = 0.0
    if rows_from_target <= 3:
        value += 0.02 * (4 - rows_from_target) * (1 if action.facing == target else 0)
    if rows_from_own <= 3:
        value += 0.02 * (4 - rows_from_own) * (1 if action.facing != other(target) else -1)
    return value


def _best_placement(
    state: GameState, actions: list[Action], me: str, rng: random.Random, deep: bool
) -> Action:
    path = _path_squares(state, state.chips, rng)
    on_path: list[Action] = []
    quiet: list[Action] = []
    for action in actions:
        if isinstance(action, Place | Rotate):
            touched = {action.square}
        elif isinstance(action, Drift):
            touched = {action.from_square, action.to_square}
        else:
            touched = set()
        (on_path if touched & path else quiet).append(action)
    candidates = list(on_path)
    if quiet:
        best_quiet = max(quiet, key=lambda a: (_quiet_value(state, a, me), rng.random()))
        candidates.append(best_quiet)
    opponent = other(me)
    # In Assault the opponent places before the roll; the deep reply search models the usual
    # order (roll, then the opponent's chip, then my roll), so it is used for one ball only.
    deep = deep and len(state.balls) == 1

    def leaf_for_me(ball: Ball) -> float:
        return _static(state, ball, me)

    def after_reply(ball: Ball, chips: dict[str, Chip], rotated: str | None) -> float:
        """My value with the ball at `ball` once the opponent has placed their best chip."""
        if not deep or square_coords(ball.square)[1] not in DANGER_ROWS:
            return leaf_for_me(ball)
        return -_best_reply_value(state, chips, ball, opponent, me, rotated, rng)

    best_action, best_value = candidates[0], float("-inf")
    for action in candidates:
        chips = _chips_after(state, action)
        rotated = action.square if isinstance(action, Rotate) else None
        total = 0.0
        for ball in state.balls:
            for roll in (1, 2, 3, 4):
                goal, after, _ = _follow(state, chips, ball, roll, rng)
                if goal is not None:
                    total += _goal_value(state, goal, after, me)
                else:
                    total += after_reply(after, chips, rotated)
        value = total / 4 + _quiet_value(state, action, me) + rng.random() * 1e-6
        if value > best_value:
            best_action, best_value = action, value
    return best_action


def _best_reply_value(
    state: GameState,
    chips: dict[str, Chip],
    ball: Ball,
    replier: str,
    me: str,
    locked: str | None,
    rng: random.Random,
) -> float:
    """The replier's best average over the next roll, allowing them one vortex placed or one
    chip rotated on the ball's path (the chip `locked` was just rotated and may not turn)."""
    single = _SingleBall(state, ball)
    path: set[str] = set()
    for roll in (1, 2, 3, 4):
        path.update(_follow(state, chips, ball, roll, rng)[2])
    replies: list[dict[str, Chip]] = [chips]
    for square in path:
        if square == ball.square or square == CENTRE or not placement.AROUND.get(square):
            continue
        chip = chips.get(square)
        if chip is None:
            for facing in DIRECTIONS:
                changed = dict(chips)
                changed[square] = Chip(VORTEX, facing)
                replies.append(changed)
        elif chip.kind in ROTATABLE_KINDS and square != locked and chip.facing:
            for turn in (turn_clockwise, turn_counterclockwise):
                changed = dict(chips)
                changed[square] = Chip(chip.kind, turn(chip.facing))
                replies.append(changed)

    def leaf(after: Ball) -> float:
        return _static(state, after, replier)

    best = float("-inf")
    for reply in replies:
        value, _ = _roll_value(single, reply, replier, rng, leaf)  # type: ignore[arg-type]
        best = max(best, value)
    return best


class _SingleBall:
    """A view of `state` with one ball moved elsewhere (what _roll_value reads)."""

    def __init__(self, state: GameState, ball: Ball) -> None:
        self.balls = [ball]
        self.goals_reversed = state.goals_reversed
        self.target_goal = state.target_goal


def _best_aim(state: GameState, me: str, rng: random.Random) -> Action:
    """Moguls: face the ball on the centre the way whose four rolls do best for `me`."""
    index = state.pending_aim[0]
    best, best_value = Aim("N"), float("-inf")
    for facing in DIRECTIONS:
        ball = state.balls[index]
        aimed = Ball(ball.square, facing, ball.owner, ball.home)
        total = 0.0
        for roll in (1, 2, 3, 4):
            goal, after, _ = _follow(state, state.chips, aimed, roll, rng)
            total += (
                _goal_value(state, goal, after, me)
                if goal is not None
                else _static(state, after, me)
            )
        if total > best_value:
            best, best_value = Aim(facing), total
    return best
