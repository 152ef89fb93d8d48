"""Following a ball without texts, table-driven: what the computer player looks ahead with.

`follow(chips, square, facing, roll, rng)` moves a ball `roll` units exactly as
movement.BallMover does (every chip kind, edge arrows, goals, mogul jumps), but from lookup
tables, without Step objects or texts, and without copying `chips` unless a barricade is
blasted (then it works on its own copy). Chance chips (bumpers, twisters, barricades) roll
with `rng`, drawing from it exactly as BallMover draws from the game's dice, so the results are
the same (tests/rules/rocketball/test_ai.py compares the two on random positions).
"""

from __future__ import annotations

import random

from rules.rocketball.state import (
    BARRICADE,
    BUMPER,
    CENTRE,
    COLUMNS,
    DELTA,
    DIRECTIONS,
    FIELD_SQUARES,
    GOAL_COLUMNS,
    GUST,
    LAST_ROW,
    MOGUL,
    TWISTER,
    VORTEX,
    WIDTH,
    Chip,
    Settings,
    edge_arrow,
    neighbour,
    off_field_step,
    opposite,
    square_coords,
    square_name,
    turn_clockwise,
    turn_counterclockwise,
)

MOVE, BOUNCE, GOAL = 0, 1, 2


def _step(square: str, direction: str) -> tuple[int, str]:
    """One unit of movement from `square` toward `direction` (BallMover.advance)."""
    target = neighbour(square, direction)
    if target is not None:
        return MOVE, target
    goal_square = off_field_step(square, direction)
    if goal_square is not None:
        return GOAL, goal_square
    # docs/rules/rocketball.md "A turn": the ball stays and turns to the edge arrow (at a
    # corner, the edge it meets).
    return BOUNCE, edge_arrow(square, direction) or opposite(direction)


def _jump(square: str, direction: str, distance: int) -> tuple[int, str]:
    """Seed, Moguls (see BallMover._mogul_jump): where a jump of `distance` lands: a field
    square (MOVE), a goal square (GOAL) or off the field, back to the centre (BOUNCE)."""
    col, row = square_coords(square)
    dc, dr = DELTA[direction]
    to_col, to_row = col + dc * distance, row + dr * distance
    if 0 <= to_col < WIDTH and 1 <= to_row <= LAST_ROW:
        return MOVE, square_name(to_col, to_row)
    if dc == 0 and COLUMNS[to_col] in GOAL_COLUMNS:
        return GOAL, square_name(to_col, 0 if to_row < 1 else LAST_ROW + 1)
    return BOUNCE, CENTRE


STEPS = {sq: {d: _step(sq, d) for d in DIRECTIONS} for sq in FIELD_SQUARES}
JUMPS = {(sq, d, n): _jump(sq, d, n) for sq in FIELD_SQUARES for d in DIRECTIONS for n in (2, 3)}
GOAL_OF = {"c0": "N", "d0": "N", "e0": "N", "c12": "S", "d12": "S", "e12": "S"}
CLOCKWISE = {d: turn_clockwise(d) for d in DIRECTIONS}
COUNTERCLOCKWISE = {d: turn_counterclockwise(d) for d in DIRECTIONS}
OPPOSITE = {d: opposite(d) for d in DIRECTIONS}


def follow(
    chips: dict[str, Chip], square: str, facing: str, roll: int, rng: random.Random
) -> tuple[str | None, str, str, list[str]]:
    """Move a ball from `square` facing `facing` by `roll`: (goal "N"/"S" or None, square
    after, facing after, squares it stood on step by step). `chips` is never changed."""
    crossed: list[str] = []
    remaining = roll
    owned = False  # True once `chips` is our own copy (a barricade was blasted)
    while remaining > 0:
        here = chips.get(square)
        gust = here.facing if here is not None and here.kind == GUST else None
        remaining -= 1
        what, value = STEPS[square][gust or facing]
        if what == GOAL:
            crossed.append(value)
            return GOAL_OF[value], value, facing, crossed
        if what == BOUNCE:
            facing = value
            crossed.append(square)
            continue
        square = value
        crossed.append(square)
        chip = chips.get(square)
        while chip is not None:  # entering a chip; a mogul jump may land on another one
            kind = chip.kind
            if kind == VORTEX:
                facing = chip.facing or facing
            elif kind == BUMPER:
                facing = (CLOCKWISE if 1 + int(rng.random() * 4) <= 2 else COUNTERCLOCKWISE)[facing]
            elif kind == TWISTER:
                facing = "NESW"[int(rng.random() * 4)]
            elif kind == BARRICADE:
                if 1 + int(rng.random() * 4) <= 2:
                    facing = OPPOSITE[facing]
                else:
                    if not owned:
                        chips, owned = dict(chips), True
                    del chips[square]
            elif kind == MOGUL and remaining >= 2:
                what, value = JUMPS[(square, facing, remaining)]
                remaining = 0
                if what == GOAL:
                    crossed.append(value)
                    return GOAL_OF[value], value, facing, crossed
                square = value
                crossed.append(square)
                if what == MOVE:
                    chip = chips.get(square)
                    continue  # resolve the landing square's chip (no second jump: 0 left)
            break
    return None, square, facing, crossed


def follow_rolls(
    chips: dict[str, Chip], square: str, facing: str
) -> tuple[list[tuple[str | None, str, str]], list[str]]:
    """All four d4 outcomes in one walk, for a field without chance chips or moguls (then a
    roll of r moves exactly as the first r units of a roll of 4): ([(goal, square, facing)
    for rolls 1-4], squares stood on). Same results as `follow` for each roll there."""
    ends: list[tuple[str | None, str, str]] = []
    crossed: list[str] = []
    for unit in range(4):
        here = chips.get(square)
        gust = here.facing if here is not None and here.kind == GUST else None
        what, value = STEPS[square][gust or facing]
        if what == GOAL:
            crossed.append(value)
            ends.extend([(GOAL_OF[value], value, facing)] * (4 - unit))
            return ends, crossed
        if what == BOUNCE:
            facing = value
            crossed.append(square)
        else:
            square = value
            crossed.append(square)
            chip = chips.get(square)
            if chip is not None and chip.kind == VORTEX:
                facing = chip.facing or facing
        ends.append((None, square, facing))
    return ends, crossed


def deterministic(settings: Settings) -> bool:
    """True when no chip on the field can roll a die or jump (no bumpers, twisters,
    barricades or moguls in the match, so a djinn cannot pick one either): then
    `follow_rolls`, `walk` and `walk_value` apply."""
    return not (settings.bumpers or settings.twisters or settings.barricades or settings.moguls)


def walk(
    chips: dict[str, Chip], square: str, facing: str, units: int
) -> tuple[list[tuple[str | None, str, str]], list[tuple[str, str]], list[str | None]]:
    """`follow_rolls` unit by unit, for a field without chance chips or moguls: (the outcome
    after each of `units` units, the (square, facing) before each unit, the square the ball
    moved onto in each unit or None). A reply that changes the chip on a square first entered
    in unit k leaves the outcomes before k as they are: the look-ahead walks on from there."""
    ends: list[tuple[str | None, str, str]] = []
    before: list[tuple[str, str]] = []
    entered: list[str | None] = []
    for unit in range(units):
        before.append((square, facing))
        here = chips.get(square)
        gust = here.facing if here is not None and here.kind == GUST else None
        what, value = STEPS[square][gust or facing]
        if what == GOAL:
            entered.append(None)
            ends.extend([(GOAL_OF[value], value, facing)] * (units - unit))
            return ends, before, entered
        if what == BOUNCE:
            facing = value
            entered.append(None)
        else:
            square = value
            entered.append(square)
            chip = chips.get(square)
            if chip is not None and chip.kind == VORTEX:
                facing = chip.facing or facing
        ends.append((None, square, facing))
    return ends, before, entered


def walk_value(
    chips: dict[str, Chip],
    square: str,
    facing: str,
    units: int,
    goals: dict[str, float],
    table: dict[tuple[str, str], float],
) -> float:
    """The sum over the next `units` units of the value where the ball stands after each
    (`goals[goal]` in a goal, else `table[(square, facing)]`): `walk` without its lists, for
    the computer's reply search (a field without chance chips or moguls)."""
    total = 0.0
    for unit in range(units):
        here = chips.get(square)
        gust = here.facing if here is not None and here.kind == GUST else None
        what, value = STEPS[square][gust or facing]
        if what == GOAL:
            return total + goals[GOAL_OF[value]] * (units - unit)
        if what == BOUNCE:
            facing = value
        else:
            square = value
            chip = chips.get(square)
            if chip is not None and chip.kind == VORTEX:
                facing = chip.facing or facing
        total += table[(square, facing)]
    return total
