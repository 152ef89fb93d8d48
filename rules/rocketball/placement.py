"""Where chips may go and which chips may turn or drift: every placement restriction, once.

Each check returns None when allowed or a player-readable reason when not, so the engine's
error messages and `legal_actions` come from the same code.
"""

from __future__ import annotations

from itertools import filterfalse

from rules.rocketball.state import (
    CENTRE,
    DIRECTIONAL_KINDS,
    FIELD_SQUARES,
    LAST_ROW,
    MOGUL,
    NORTH_GOAL,
    PHASE_PLACE,
    ROTATABLE_KINDS,
    SOUTH_GOAL,
    SPECIAL_KINDS,
    WIDTH,
    GameState,
    edges_of,
    neighbour,
    other,
    square_coords,
    square_name,
)


def _near_goal(square: str) -> bool:
    """Seed, Variants: special chips may not be placed "within two spaces of a Goal (two
    spaces away diagonally is OK)". Ruling: within two king moves of any goal square, except a
    square exactly two squares away on a diagonal (two across and two along)."""
    col, row = square_coords(square)
    for goal_square in NORTH_GOAL + SOUTH_GOAL:
        goal_col, goal_row = square_coords(goal_square)
        across, along = abs(col - goal_col), abs(row - goal_row)
        if max(across, along) <= 2 and not (across == 2 and along == 2):
            return True
    return False


NEAR_GOAL = frozenset(sq for sq in FIELD_SQUARES if _near_goal(sq))
WALL_SQUARES = frozenset(sq for sq in FIELD_SQUARES if edges_of(sq))


def _around(square: str) -> tuple[str, ...]:
    col, row = square_coords(square)
    found = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            c, r = col + dc, row + dr
            if (dc or dr) and 0 <= c < WIDTH and 1 <= r <= LAST_ROW:
                found.append(square_name(c, r))
    return tuple(found)


# The 8 squares directly or diagonally adjacent to each field square.
AROUND = {sq: _around(sq) for sq in FIELD_SQUARES}
# The up to 4 squares North, East, South and West of each field square.
ORTHOGONAL = {
    sq: tuple(n for n in (neighbour(sq, d) for d in ("N", "E", "S", "W")) if n is not None)
    for sq in FIELD_SQUARES
}


def square_problem(state: GameState, square: str) -> str | None:
    """Seed: chips go "in any square on the field except the center square ... or any square
    that is currently occupied" (by a chip or a ball)."""
    if square not in AROUND:
        return f"{square} is not a square of the field (columns a-g, rows 1-11)."
    if square == CENTRE:
        return f"{CENTRE} is the centre square: it never holds a chip."
    if square in state.chips:
        return f"{square} already holds a {state.chips[square].kind} chip."
    if square in state.ball_squares():
        return f"The ball is on {square}: chips can't go under the ball."
    return None


def special_problem(
    state: GameState, kind: str, square: str, ignore: str | None = None
) -> str | None:
    """Seed, Variants: special chips never go adjacent to a wall, within two spaces of a goal,
    or (all but moguls) directly or diagonally adjacent to a special chip. `ignore` is the
    square a drifting chip leaves, which does not count as its own neighbour."""
    if kind not in SPECIAL_KINDS:
        return None
    if square in WALL_SQUARES:
        return f"A {kind} can't go on {square}: special chips may not touch a wall."
    if square in NEAR_GOAL:
        return (
            f"A {kind} can't go on {square}: special chips may not be within two squares of a goal."
        )
    if kind != MOGUL:
        for near in AROUND[square]:
            chip = state.chips.get(near)
            if near != ignore and chip is not None and chip.kind in SPECIAL_KINDS:
                return (
                    f"A {kind} can't go on {square}: it would be next to the {chip.kind} on "
                    f"{near} (special chips may not touch each other, even diagonally)."
                )
    return None


def placeable_kinds(state: GameState) -> list[str]:
    """The chip kinds the player may place now: the drawn chip, or with a djinn any kind still
    in the windbag (Seed, Djinns: "pick one chip to place this turn")."""
    if state.phase != PHASE_PLACE or state.drawn is None:
        return []
    if state.drawn == "djinn":
        return [kind for kind, count in state.bag.items() if count > 0 and kind != "djinn"]
    return [state.drawn]


def facings_for(kind: str) -> tuple[str | None, ...]:
    """Seed: vortex chips face North, South, East or West; bumpers, twisters, barricades and
    moguls have no facing (ruling: they act the same from every side)."""
    return ("N", "E", "S", "W") if kind in DIRECTIONAL_KINDS else (None,)


def placement_problem(state: GameState, kind: str, square: str) -> str | None:
    return square_problem(state, square) or special_problem(state, kind, square)


# Squares a chip may ever go on (not the centre), and those a special chip may ever go on (not
# touching a wall, not near a goal), in FIELD_SQUARES order: legal_actions keeps that order.
_OPEN_SQUARES = tuple(sq for sq in FIELD_SQUARES if sq != CENTRE)
_SPECIAL_SQUARES = tuple(
    sq for sq in _OPEN_SQUARES if sq not in WALL_SQUARES and sq not in NEAR_GOAL
)


def placement_squares(state: GameState, kind: str) -> list[str]:
    """The squares `placement_problem` allows for `kind`, found in one pass (the hot path of
    legal_actions: it checks only what can fail on each square)."""
    chips = state.chips
    balls = [ball.square for ball in state.balls]
    if kind not in SPECIAL_KINDS:
        squares = list(filterfalse(chips.__contains__, _OPEN_SQUARES))
        for ball in balls:
            if ball in squares:
                squares.remove(ball)
        return squares
    special_chips = {sq for sq, chip in chips.items() if chip.kind in SPECIAL_KINDS}
    squares = []
    for square in _SPECIAL_SQUARES:
        if square in chips or square in balls:
            continue
        if kind != MOGUL and not special_chips.isdisjoint(AROUND[square]):
            continue
        squares.append(square)
    return squares


def _not_rotatable_now(state: GameState) -> set[str]:
    """Squares whose chip may not be rotated now, whatever its kind: under a ball, rotated by
    the opponent on their last turn, or (Assault) placed this round."""
    blocked = {ball.square for ball in state.balls}
    blocked.update(state.placed_this_round)
    rotated = state.last_rotated.get(other(state.to_move))
    if rotated:
        blocked.add(rotated)
    return blocked


def rotate_problem(state: GameState, square: str) -> str | None:
    """docs/rules/rocketball.md "A turn": a quarter turn either way; not the chip under the ball,
    not the chip the opponent rotated on their last turn, never a bumper, twister, barricade or
    mogul. Assault (seed): not a chip placed this round."""
    chip = state.chips.get(square)
    if chip is None:
        return f"There is no chip on {square} to rotate."
    if chip.kind not in ROTATABLE_KINDS:
        return f"The {chip.kind} on {square} can never be rotated."
    if square not in _not_rotatable_now(state):
        return None
    if square in state.ball_squares():
        return f"The ball is on {square}: the chip under the ball can't be rotated."
    if square in state.placed_this_round:
        return f"The chip on {square} was placed this round: it can't be rotated yet."
    return f"{square} was rotated by your opponent on their last turn: pick another chip."


def rotatable_squares(state: GameState) -> list[str]:
    """The squares `rotate_problem` allows, found in one pass."""
    blocked = _not_rotatable_now(state)
    rotatable = ROTATABLE_KINDS
    return [
        square
        for square, chip in state.chips.items()
        if chip.kind in rotatable and square not in blocked
    ]


def drift_problem(state: GameState, from_square: str, to_square: str) -> str | None:
    """Seed, Drifting Winds: move a chip one space N/S/E/W into a vacant square, ending in a
    legal position. Ruling: not the chip under a ball (nothing touches the rocketball)."""
    chip = state.chips.get(from_square)
    if chip is None:
        return f"There is no chip on {from_square} to drift."
    if from_square in state.ball_squares():
        return f"The ball is on {from_square}: the chip under the ball can't drift."
    if to_square not in AROUND.get(from_square, ()):
        return f"{to_square} is not next to {from_square}."
    from_col, from_row = square_coords(from_square)
    to_col, to_row = square_coords(to_square)
    if from_col != to_col and from_row != to_row:
        return "A chip drifts one square North, East, South or West, not diagonally."
    return square_problem(state, to_square) or special_problem(
        state, chip.kind, to_square, ignore=from_square
    )


def drift_moves(state: GameState) -> list[tuple[str, str]]:
    """Every (from, to) drift `drift_problem` allows, checking only what can fail: the
    neighbours are orthogonal field squares by construction, so a target fails
    `square_problem` only when it is the centre or holds a chip or a ball (one set)."""
    chips = state.chips
    balls = state.ball_squares()
    taken = set(chips)
    taken.update(balls)
    taken.add(CENTRE)
    return [
        (square, target)
        for square, chip in chips.items()
        if square not in balls
        for target in ORTHOGONAL[square]
        if target not in taken
        and (
            chip.kind not in SPECIAL_KINDS
            or special_problem(state, chip.kind, target, ignore=square) is None
        )
    ]
