"""Rocketball computer opponent: `choose_action(state, level, rng)` picks one of legal_actions.

Levels
- "easy": half the time a uniformly random legal action; otherwise the action that gives the
  best average result of the very next roll (one ply over the four d4 outcomes). When the
  ball is caught in a small loop (_trap), easy always frees it, with the best such action.
- "medium": always that best one-ply action.
- "strong": looks two moves ahead. For each useful action (a chip on, or a rotation of, a
  square the ball may cross on the next roll, plus the best "quiet" placement elsewhere) it
  follows the ball for each d4 outcome; where the ball ends near a goal it also tries the
  opponent's best blocking chip and the four outcomes of the roll after that.
- "master": one ply more. Strong's three best actions are valued again: where the ball can
  reach a goal after the opponent's roll, the opponent's three most promising chips are tried,
  and after each, and my roll, my own best chip (instead of a static estimate); the opponent
  is assumed to pick the chip worst for me.

The ball is followed by lookup tables (follow.py), without texts or copies of the field; on a
field without chance chips one walk gives all four rolls, and a reply on a square first
reached in step k only re-walks the rolls from k on. The choices are exactly those of the
earlier implementation that followed the ball with the engine's BallMover.

Strong and master free a caught ball when that is within FREEING_MARGIN of their best action
(see "a ball caught in a loop" below; docs/rules/rocketball.md "Computer opponent").

LEVEL_RATINGS: an Elo-style rating for each level, so a player can see how strong they are.

The computer never peeks at the game's own RNG: chance chips (bumpers, twisters,
barricades) met in its look-ahead are rolled with the `rng` handed in, so its choices are
reproducible from that seed and tell it nothing about the real dice.
"""

from __future__ import annotations

import random

from rules.rocketball import placement
from rules.rocketball.actions import Action, Aim, Drift, Place, Roll, Rotate
from rules.rocketball.engine import legal_actions
from rules.rocketball.follow import deterministic, follow, follow_rolls, walk, walk_value
from rules.rocketball.state import (
    CENTRE,
    DIRECTIONS,
    FIELD_SQUARES,
    GUST,
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

LEVELS = ("easy", "medium", "strong", "master")
# Elo-style ratings, easy anchored at 1000, from bench/rocketball_engine.py (its "ratings"
# line; November 2026): fitted to 200 seeded games per pairing, seats alternating: medium beat
# easy 200-0, strong beat easy 200-0 and medium 137-63, master beat strong 150-50 (each
# pairing counts one extra draw, so a sweep gives a finite gap). A gap of D points means the
# stronger side wins about 1 / (1 + 10 ** (-D / 400)) of its games.
LEVEL_RATINGS = {"easy": 1000, "medium": 1987, "strong": 2120, "master": 2310}
GOAL_VALUE = 1.0
# The ball can only reach a goal on a roll of at most 4 from rows 1-4 or 8-11: elsewhere the
# opponent's reply cannot matter for the next roll and a static estimate is used instead.
DANGER_ROWS = frozenset({1, 2, 3, 4, 8, 9, 10, 11})


# The newcomer's suggestion (`suggest_action`) plays to win, not only not to lose: where the
# ball ends counts ATTACK_POSITION times as much as for the levels (closer to the goal it
# attacks, facing it), a goal it might concede counts CONCEDED of a goal, and it frees a caught
# ball whenever that costs at most ATTACK_FREEING. Measured with bench/rocketball_newcomer.py
# (a newcomer pressing only the suggestion, first to 2, 100 seeded games a level): against
# medium a median of 44 decisions and 98 wins, where medium's own choice took 180 and won 58
# (docs/rules/rocketball.md "The suggested move").
ATTACK_POSITION = 5.0
CONCEDED = 0.5
ATTACK_FREEING = 0.1


def suggest_action(state: GameState, rng: random.Random) -> Action:
    """The card's suggested move for the player to move: the attacking one-ply choice (see
    ATTACK_POSITION), the same look-ahead as medium's with other weights."""
    return suggested_actions(state, rng, 1)[0]


def suggested_actions(state: GameState, rng: random.Random, count: int) -> list[Action]:
    """The `count` best moves by the suggestion's measure (suggest_action's first), so a card
    can offer a few as buttons before its menus of every square."""
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions
    me = state.to_move
    if state.phase == PHASE_AIM:
        return [_best_aim(state, me, rng)]
    if state.phase != PHASE_PLACE:
        return [Roll()]
    trap = _root_trap(state)
    ranked = _ranked_placements(
        state, actions, me, rng, deep=False, trap=trap, widen=True, attack=True
    )
    best = _pick(ranked, ATTACK_FREEING)
    return [best, *(action for _, action, _ in ranked if action != best)][:count]


def choose_action(state: GameState, level: str, rng: random.Random) -> Action:
    """The computer's action for `state.to_move` at `level` (one of LEVELS)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose from {', '.join(LEVELS)}")
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    me = state.to_move
    frees = level == "easy" or FREEING_MARGIN.get(level, 0.0) > 0
    trap = _root_trap(state) if frees and state.phase == PHASE_PLACE else None
    if level == "easy":
        if trap is not None:
            breaks = [
                (value, action)
                for value, action, kept in _ranked_placements(
                    state, actions, me, rng, deep=False, trap=trap, widen=True
                )
                if not kept
            ]
            if breaks:  # easy always frees a caught ball: it never lets a game stall
                return breaks[0][1]
        if rng.random() < 0.5:
            return rng.choice(actions)
    if state.phase == PHASE_AIM:
        return _best_aim(state, me, rng)
    if state.phase != PHASE_PLACE:
        return Roll()
    if level == "master":
        return _master_placement(state, actions, me, rng, trap)
    ranked = _ranked_placements(state, actions, me, rng, level == "strong", trap)
    return _pick(ranked, FREEING_MARGIN.get(level, 0.0))


# --- a ball caught in a loop ----------------------------------------------------------------

# A ball is caught when, with the chips as they are, every roll keeps it among at most this
# many (square, facing) states and none reaches a goal: like d9 facing South and d10 facing
# North, which send it back and forth for ever. Most positions between computers are like
# that, and a computer that kept the loop whenever that was worth as much as anything else
# let games run to hundreds of rolls at 0-0 (easy against easy: a median of 297 actions).
TRAP_STATES = 6
STEADY_KINDS = frozenset({VORTEX, GUST})
# Freeing a caught ball is preferred when it is worth at most this much less than the best
# action that leaves it caught. Measured against the levels as they were (200 seeded games,
# bench/rocketball_lengths.py --against): strong at 0.01 won 97, and its own games got
# shorter; medium won 79 at 0.01 and 93 at 0.003 without shorter games (one-ply values are
# closer together), so medium keeps its choices.
FREEING_MARGIN = {"medium": 0.0, "strong": 0.01, "master": 0.01}


def _pick(ranked: list[tuple[float, Action, bool]], margin: float) -> Action:
    """The best action, or one freeing a caught ball if it is within `margin` of it."""
    best_value, best, kept = ranked[0]
    if kept and margin > 0:
        for value, action, still in ranked:
            if value < best_value - margin:
                break
            if not still:
                return action
    return best


def _trap(chips: dict[str, Chip], square: str, facing: str) -> frozenset[str] | None:
    """The squares a caught ball stands on or enters (changing a chip elsewhere cannot free
    it), or None when it is free: some run of rolls reaches a goal, its loop is longer than
    TRAP_STATES states, or it meets a chip that rolls a die or jumps (only vortexes and gusts
    steer it the same way every time, as follow_rolls assumes)."""
    seen = {(square, facing)}
    todo = [(square, facing)]
    squares = {square}
    while todo:
        here, heading = todo.pop()
        ends, crossed = follow_rolls(chips, here, heading)
        for step in crossed:
            chip = chips.get(step)
            if chip is not None and chip.kind not in STEADY_KINDS:
                return None
        squares.update(crossed)
        for goal, end, end_facing in ends:
            if goal is not None:
                return None
            if (end, end_facing) not in seen:
                if len(seen) == TRAP_STATES:
                    return None
                seen.add((end, end_facing))
                todo.append((end, end_facing))
    return frozenset(squares)


def _root_trap(state: GameState) -> frozenset[str] | None:
    """_trap for the ball as it stands, where it applies: one ball (Assault has two)."""
    if len(state.balls) != 1:
        return None
    ball = state.balls[0]
    return _trap(state.chips, ball.square, ball.facing)


# --- following the ball -------------------------------------------------------------------

Outcome = tuple[str | None, str, str]  # (goal entered or None, square after, facing after)


def _static_table(target: str) -> dict[tuple[str, str], float]:
    """_static for every (square, facing): closer to and facing `target` is better."""
    table = {}
    for square in FIELD_SQUARES:
        row = square_coords(square)[1]
        progress = (LAST_ROW + 1 - row if target == "N" else row) / (LAST_ROW + 1) - 0.5
        for facing in DIRECTIONS:
            bonus = 0.05 if facing == target else -0.05 if facing == other(target) else 0.0
            table[(square, facing)] = 0.2 * progress + bonus
    return table


STATIC = {target: _static_table(target) for target in ("N", "S")}


def _leaf_table(target: str, centre_zero: bool, own: bool) -> dict[tuple[str, str], float]:
    table = {key: value if own else -value for key, value in STATIC[target].items()}
    if centre_zero:  # a lone ball on the centre is worth nothing to either side
        table.update({(CENTRE, facing): 0.0 for facing in DIRECTIONS})
    return table


# (target goal, a lone ball (no owner), the ball counts for the player) -> leaf values.
LEAF = {
    (target, lone, own): _leaf_table(target, lone, own)
    for target in ("N", "S")
    for lone in (True, False)
    for own in (True, False)
}
ATTACK_LEAF = {
    key: {where: ATTACK_POSITION * value for where, value in table.items()}
    for key, table in LEAF.items()
}


class _Look:
    """One decision's look-ahead: who is who, the tables, and how the ball is followed."""

    def __init__(self, state: GameState, me: str, rng: random.Random) -> None:
        self.state = state
        self.me = me
        self.rng = rng
        self.reversed = state.goals_reversed
        self.exact = not deterministic(state.settings)

    def outcomes(self, chips: dict[str, Chip], ball: Ball) -> tuple[list[Outcome], list[str]]:
        """The four d4 outcomes of `ball`'s next move on `chips`, and the squares crossed."""
        if not self.exact:
            return follow_rolls(chips, ball.square, ball.facing)
        ends, crossed = [], []
        for roll in (1, 2, 3, 4):
            goal, square, facing, path = follow(chips, ball.square, ball.facing, roll, self.rng)
            ends.append((goal, square, facing))
            crossed += path
        return ends, crossed

    def goal_value(self, goal: str, owner: str | None, me: str) -> float:
        """+1 when the ball in `goal` scores for `me`, -1 when it scores against."""
        if owner is not None:  # Assault: only a ball in its owner's target goal scores
            if goal == owner:
                return -0.3 if owner == me else 0.3  # own goal: the ball restarts at home
            return GOAL_VALUE if owner == me else -GOAL_VALUE
        scorer = goal if self.reversed else other(goal)
        return GOAL_VALUE if scorer == me else -GOAL_VALUE

    def leaves(
        self, owner: str | None, me: str, *, attack: bool = False
    ) -> tuple[dict[str, float], dict]:
        """Tables for valuing where a ball ends for `me`: goal -> value, and (square,
        facing) -> the static estimate (the same numbers as goal_value and static); `attack`:
        the suggestion's weights (ATTACK_POSITION, CONCEDED)."""
        goals = {goal: self.goal_value(goal, owner, me) for goal in ("N", "S")}
        target = me if self.reversed else other(me)
        key = (target, owner is None, owner in (None, me))
        if not attack:
            return goals, LEAF[key]
        goals = {goal: value * CONCEDED if value < 0 else value for goal, value in goals.items()}
        return goals, ATTACK_LEAF[key]

    def static(self, square: str, facing: str, owner: str | None, me: str) -> float:
        """A small positional estimate: closer to and facing `me`'s target goal is better."""
        if owner is None and square == CENTRE:
            return 0.0
        target = me if self.reversed else other(me)
        value = STATIC[target][(square, facing)]
        return value if owner in (None, me) else -value  # Assault: the other ball counts against


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


def _quiet_table(target: str) -> dict[tuple[str, str], float]:
    """_quiet_value of a placement facing `facing` on `square` for a player attacking
    `target`, for every (square, facing)."""
    table = {}
    for square in FIELD_SQUARES:
        row = square_coords(square)[1]
        rows_from_target = row - 1 if target == "N" else LAST_ROW - row
        rows_from_own = LAST_ROW - row if target == "N" else row - 1
        for facing in DIRECTIONS:
            value = 0.0
            if rows_from_target <= 3:
                value += 0.02 * (4 - rows_from_target) * (1 if facing == target else 0)
            if rows_from_own <= 3:
                value += 0.02 * (4 - rows_from_own) * (1 if facing != other(target) else -1)
            table[(square, facing)] = value
    return table


QUIET = {target: _quiet_table(target) for target in ("N", "S")}


def _best_quiet(state: GameState, quiet: list[Action], me: str, rng: random.Random) -> Action:
    """The quiet action with the best _quiet_value, ties broken by one draw from `rng` per
    action (as max(quiet, key=(value, rng.random())) would, without its calls)."""
    table = QUIET[state.target_goal(me)]
    draw = rng.random
    best, best_key = quiet[0], (float("-inf"), 0.0)
    for action in quiet:
        facing = getattr(action, "facing", None)
        value = table[(action.square, facing)] if facing and type(action) is Place else 0.0
        key = (value, draw())
        if key > best_key:
            best, best_key = action, key
    return best


def _touched(action: Action) -> tuple[str, ...]:
    if isinstance(action, Place | Rotate):
        return (action.square,)
    if isinstance(action, Drift):
        return (action.from_square, action.to_square)
    return ()


def _ranked_placements(
    state: GameState,
    actions: list[Action],
    me: str,
    rng: random.Random,
    deep: bool,
    trap: frozenset[str] | None = None,
    widen: bool = False,
    attack: bool = False,
) -> list[tuple[float, Action, bool]]:
    """The candidate actions with their values, best first (see the module docstring), and
    whether each leaves a caught ball caught (`trap`: the squares of its loop, _root_trap;
    False for all when the ball is free). `attack`: the suggestion's weights (one ply only)."""
    look = _Look(state, me, rng)
    # Easy looks at every chip of the loop (it frees a caught ball whatever that costs); the
    # other levels only at those the ball meets on the next roll, as before.
    path: set[str] = set(trap or ()) if widen else set()
    for ball in state.balls:
        path.update(look.outcomes(state.chips, ball)[1])
    on_path: list[Action] = []
    quiet: list[Action] = []
    for action in actions:
        if isinstance(action, Place | Rotate):
            (on_path if action.square in path else quiet).append(action)
        else:
            (on_path if any(square in path for square in _touched(action)) else quiet).append(
                action
            )
    candidates = list(on_path)
    if quiet:
        candidates.append(_best_quiet(state, quiet, me, rng))
    opponent = other(me)
    # In Assault the opponent places before the roll; the deep reply search models the usual
    # order (roll, then the opponent's chip, then my roll), so it is used for one ball only.
    deep = deep and len(state.balls) == 1

    leaves = [look.leaves(ball.owner, me, attack=attack) for ball in state.balls]
    ranked: list[tuple[float, Action, bool]] = []
    for action in candidates:
        chips = _chips_after(state, action)
        kept = trap is not None and _keeps_trap(state, action, chips, trap)
        rotated = action.square if isinstance(action, Rotate) else None
        total = 0.0
        for ball, (goals, table) in zip(state.balls, leaves, strict=True):
            ends, _ = look.outcomes(chips, ball)
            for goal, square, facing in ends:
                if goal is not None:
                    total += goals[goal]
                elif not deep or ROW_OF[square] not in DANGER_ROWS:
                    total += table[(square, facing)]
                else:
                    after = Ball(square, facing, ball.owner, ball.home)
                    total -= _best_reply_value(look, chips, after, opponent, rotated)
        value = total / 4 + _quiet_value(state, action, me) + rng.random() * 1e-6
        ranked.append((value, action, kept))
    # Best first; among equal values the earlier candidate (what a running maximum kept).
    order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][0], i))
    return [ranked[i] for i in order]


def _keeps_trap(
    state: GameState, action: Action, chips: dict[str, Chip], trap: frozenset[str]
) -> bool:
    """Whether the ball is still caught on the field after `action` (chips)."""
    if not any(square in trap for square in _touched(action)):
        return True
    ball = state.balls[0]
    return _trap(chips, ball.square, ball.facing) is not None


ROW_OF = {square: square_coords(square)[1] for square in FIELD_SQUARES}


def _reply_options(chip: Chip | None, square: str, locked: str | None) -> list[Chip]:
    """The chips a reply may leave on `square`: a vortex placed (any facing) on an empty
    square, or a quarter turn either way of a rotatable chip (not the one just rotated)."""
    if chip is None:
        return [VORTEX_CHIPS[facing] for facing in DIRECTIONS]
    if chip.kind in ROTATABLE_KINDS and square != locked and chip.facing:
        return [
            Chip(chip.kind, turn_clockwise(chip.facing)),
            Chip(chip.kind, turn_counterclockwise(chip.facing)),
        ]
    return []


def _best_reply_value(
    look: _Look,
    chips: dict[str, Chip],
    ball: Ball,
    replier: str,
    locked: str | None,
) -> float:
    """The replier's best average over the next roll, allowing them one vortex placed or one
    chip rotated on the ball's path (the chip `locked` was just rotated and may not turn).
    Each reply is tried on `chips` itself and taken back (no copy of the field per reply)."""
    owner = ball.owner

    def leaf(goal: str | None, square: str, facing: str) -> float:
        if goal is not None:
            return look.goal_value(goal, owner, replier)
        return look.static(square, facing, owner, replier)

    if not look.exact:
        return _best_reply_walking(chips, ball, locked, *look.leaves(owner, replier))
    ends, crossed = look.outcomes(chips, ball)
    best = sum(leaf(*end) for end in ends) / 4
    for square in dict.fromkeys(crossed):
        if square == ball.square or square == CENTRE or square not in placement.AROUND:
            continue
        chip = chips.get(square)
        for option in _reply_options(chip, square, locked):
            chips[square] = option  # try the reply on the field itself, then take it back
            try:
                best = max(best, sum(leaf(*end) for end in look.outcomes(chips, ball)[0]) / 4)
            finally:
                if chip is None:
                    del chips[square]
                else:
                    chips[square] = chip
    return best


def _best_reply_walking(
    chips: dict[str, Chip],
    ball: Ball,
    locked: str | None,
    goals: dict[str, float],
    table: dict[tuple[str, str], float],
) -> float:
    """_best_reply_value on a field without chance chips: one walk for the ball's four rolls,
    and for a reply on the square first entered in unit k only the rolls from k on again.
    `goals` and `table` value where the ball ends (_Look.leaves)."""
    ends, before, entered = walk(chips, ball.square, ball.facing, 4)
    prefix = [0.0]
    total = 0.0
    for goal, square, facing in ends:
        total += goals[goal] if goal is not None else table[(square, facing)]
        prefix.append(total)
    best = total / 4
    seen = {ball.square, CENTRE}
    for unit, square in enumerate(entered):
        if square is None or square in seen or square not in placement.AROUND:
            continue
        seen.add(square)
        chip = chips.get(square)
        start_square, start_facing = before[unit]
        for option in _reply_options(chip, square, locked):
            chips[square] = option  # try the reply on the field itself, then take it back
            try:
                rest = walk_value(chips, start_square, start_facing, 4 - unit, goals, table)
            finally:
                if chip is None:
                    del chips[square]
                else:
                    chips[square] = chip
            total = prefix[unit] + rest
            if total / 4 > best:
                best = total / 4
    return best


VORTEX_CHIPS = {facing: Chip(VORTEX, facing) for facing in DIRECTIONS}


def _best_aim(state: GameState, me: str, rng: random.Random) -> Action:
    """Moguls: face the ball on the centre the way whose four rolls do best for `me`."""
    look = _Look(state, me, rng)
    index = state.pending_aim[0]
    best, best_value = Aim("N"), float("-inf")
    for facing in DIRECTIONS:
        ball = state.balls[index]
        aimed = Ball(ball.square, facing, ball.owner, ball.home)
        total = 0.0
        for goal, square, end_facing in look.outcomes(state.chips, aimed)[0]:
            if goal is not None:
                total += look.goal_value(goal, ball.owner, me)
            else:
                total += look.static(square, end_facing, ball.owner, me)
        if total > best_value:
            best, best_value = Aim(facing), total
    return best


# --- master: one more ply -------------------------------------------------------------------

MASTER_CANDIDATES = 3  # strong's best actions that master looks at one ply deeper
MASTER_REPLIES = 3  # the opponent's best replies (by strong's measure) it refines


def _master_placement(
    state: GameState,
    actions: list[Action],
    me: str,
    rng: random.Random,
    trap: frozenset[str] | None = None,
) -> Action:
    """Master: strong's two-ply values pick the MASTER_CANDIDATES best actions; each is then
    valued one ply deeper. After the opponent's roll, where the ball can reach a goal, the
    opponent's MASTER_REPLIES most promising chips are tried, and after each of them and my
    roll, my own best chip (the reply search, from my side) instead of a static estimate.
    The opponent is assumed to pick the reply that is worst for me."""
    ranked = _ranked_placements(state, actions, me, rng, deep=True, trap=trap)
    margin = FREEING_MARGIN["master"]
    if len(state.balls) != 1 or len(ranked) == 1:
        return _pick(ranked, margin)
    look = _Look(state, me, rng)
    opponent = other(me)
    ball = state.balls[0]
    goals, table = look.leaves(ball.owner, me)
    candidates = ranked[:MASTER_CANDIDATES]
    if trap is not None and all(kept for _, _, kept in candidates):
        # the best action freeing a caught ball, if close enough to count (_pick)
        freeing = next((item for item in ranked if not item[2]), None)
        if freeing is not None and freeing[0] >= ranked[0][0] - margin:
            candidates.append(freeing)
    deeper: list[tuple[float, Action, bool]] = []
    for _, action, kept in candidates:
        chips = _chips_after(state, action)
        rotated = action.square if isinstance(action, Rotate) else None
        total = 0.0
        for goal, square, facing in look.outcomes(chips, ball)[0]:
            if goal is not None:
                total += goals[goal]
            elif ROW_OF[square] not in DANGER_ROWS:
                total += table[(square, facing)]
            else:
                after = Ball(square, facing, ball.owner, ball.home)
                total += _after_best_reply(look, chips, after, opponent, me, rotated)
        value = total / 4 + _quiet_value(state, action, me) + rng.random() * 1e-6
        deeper.append((value, action, kept))
    order = sorted(range(len(deeper)), key=lambda i: (-deeper[i][0], i))
    return _pick([deeper[i] for i in order], margin)


def _replies(
    look: _Look, chips: dict[str, Chip], ball: Ball, locked: str | None
) -> list[tuple[str, Chip | None]]:
    """Every reply _best_reply_value tries: (square, chip left there); (ball square, None)
    stands for leaving the field as it is."""
    replies: list[tuple[str, Chip | None]] = [(ball.square, None)]
    for square in dict.fromkeys(look.outcomes(chips, ball)[1]):
        if square == ball.square or square == CENTRE or square not in placement.AROUND:
            continue
        replies.extend(
            (square, option) for option in _reply_options(chips.get(square), square, locked)
        )
    return replies


def _after_best_reply(
    look: _Look,
    chips: dict[str, Chip],
    ball: Ball,
    replier: str,
    me: str,
    locked: str | None,
) -> float:
    """My value with the ball at `ball` once `replier` has placed the chip worst for me among
    their most promising ones, with my own best chip after my roll (one ply more than
    _best_reply_value)."""
    their_goals, their_table = look.leaves(ball.owner, replier)
    my_goals, my_table = look.leaves(ball.owner, me)
    scored = []
    for square, option in _replies(look, chips, ball, locked):
        with _tried(chips, square, option):
            value = 0.0
            for goal, end, facing in look.outcomes(chips, ball)[0]:
                value += their_goals[goal] if goal is not None else their_table[(end, facing)]
        scored.append((value, square, option))
    scored.sort(key=lambda item: -item[0])
    worst_for_me = float("inf")
    for _, square, option in scored[:MASTER_REPLIES]:
        turned = square if option is not None and square in chips else None
        with _tried(chips, square, option):
            total = 0.0
            for goal, end, facing in look.outcomes(chips, ball)[0]:
                if goal is not None:
                    total += my_goals[goal]
                elif ROW_OF[end] not in DANGER_ROWS:
                    total += my_table[(end, facing)]
                else:
                    after = Ball(end, facing, ball.owner, ball.home)
                    total += _best_reply_value(look, chips, after, me, turned)
        worst_for_me = min(worst_for_me, total / 4)
    return worst_for_me


class _tried:
    """`with _tried(chips, square, chip):` the field with `chip` on `square` (None: as it
    is), put back afterwards."""

    def __init__(self, chips: dict[str, Chip], square: str, chip: Chip | None) -> None:
        self.chips, self.square, self.chip = chips, square, chip
        self.before = chips.get(square)

    def __enter__(self) -> None:
        if self.chip is not None:
            self.chips[self.square] = self.chip

    def __exit__(self, *exc: object) -> None:
        if self.chip is None:
            return
        if self.before is None:
            del self.chips[self.square]
        else:
            self.chips[self.square] = self.before
