"""Moving a rocketball one step at a time: vortexes, edges, goals and the variant chips.

`BallMover` advances one ball by one unit of movement per `advance()` call, so the engine can
move one ball to the end of its roll, or (Assault) two balls in lockstep. It mutates the
state it is given; the engine hands it a copy.
"""

from __future__ import annotations

from rules.rocketball.events import Step
from rules.rocketball.state import (
    BARRICADE,
    BUMPER,
    CENTRE,
    COLUMNS,
    DELTA,
    DIRECTION_NAMES,
    GOAL_COLUMNS,
    GUST,
    LAST_ROW,
    MOGUL,
    TWISTER,
    VORTEX,
    WIDTH,
    Ball,
    GameState,
    edge_arrow,
    neighbour,
    off_field_step,
    opposite,
    square_coords,
    square_name,
    turn_clockwise,
    turn_counterclockwise,
)

EDGE_NAMES = {"N": "North end", "E": "East side", "S": "South end", "W": "West side"}


def roll_d4(state: GameState) -> int:
    """One roll of the four-sided die from the state's seeded RNG."""
    return 1 + int(state.rng.random() * 4)


class BallMover:
    """One ball's movement for one roll. `finished` turns True when the steps are used up or
    the ball reaches a goal; `goal` is then "N" or "S" if it entered one; `out` is True when a
    mogul jump flew off the field outside a goal (the ball waits on the centre to be aimed)."""

    def __init__(self, state: GameState, ball: Ball, steps: int) -> None:
        self.state = state
        self.ball = ball
        self.remaining = steps
        self.steps: list[Step] = []
        self.finished = steps <= 0
        self.goal: str | None = None
        self.out = False

    def _record(self, what: str, text: str, roll: int | None = None) -> None:
        self.steps.append(Step(self.ball.square, self.ball.facing, what, text, roll))

    def advance(self) -> None:
        """One unit of movement (Seed, Moving the Rocketball)."""
        ball, chips = self.ball, self.state.chips
        here = chips.get(ball.square)
        # Seed, Gusts: "When a rocketball leaves a square with a gust, move it one square in the
        # direction indicated by the gust without changing its facing."
        gust = here.facing if here is not None and here.kind == GUST else None
        pushed = gust is not None
        direction = gust or ball.facing
        self.remaining -= 1
        target = neighbour(ball.square, direction)
        if target is None:
            goal_square = off_field_step(ball.square, direction)
            if goal_square is not None:
                self._enter_goal(goal_square)
                return
            # docs/rules/rocketball.md "A turn": the ball stays, turns to the arrow of the edge
            # it tried to cross (at a corner, the edge in its direction of travel), and the
            # step is used up.
            ball.facing = edge_arrow(ball.square, direction) or opposite(direction)
            self._record(
                "bounce",
                f"bounces off the {EDGE_NAMES[direction]} at {ball.square} and now faces "
                f"{DIRECTION_NAMES[ball.facing]}",
            )
        else:
            ball.square = target
            if pushed:
                self._record(
                    "gust", f"is pushed {DIRECTION_NAMES[direction]} by a gust to {target}"
                )
            else:
                self._record("moved", f"moves to {target}")
            self._enter_chip()
        if self.remaining <= 0 and not self.finished:
            self.finished = True

    def _enter_goal(self, goal_square: str) -> None:
        self.ball.square = goal_square
        self.goal = "N" if square_coords(goal_square)[1] == 0 else "S"
        name = "North" if self.goal == "N" else "South"
        self._record("goal", f"flies into the {name} goal")
        self.finished = True

    def _enter_chip(self) -> None:
        """Seed: entering a vortex turns the ball at no cost; the variant chips per the seed."""
        ball, state = self.ball, self.state
        chip = state.chips.get(ball.square)
        if chip is None:
            return
        if chip.kind == VORTEX:
            ball.facing = chip.facing or ball.facing
            self._record(
                "vortex",
                f"enters a vortex at {ball.square} and turns {DIRECTION_NAMES[ball.facing]}",
            )
        elif chip.kind == BUMPER:
            roll = roll_d4(state)
            clockwise = roll <= 2  # Seed, Bumpers: 1-2 clockwise, 3-4 counterclockwise
            turn = turn_clockwise if clockwise else turn_counterclockwise
            ball.facing = turn(ball.facing)
            way = "clockwise" if clockwise else "counterclockwise"
            self._record(
                "bumper",
                f"hits a bumper at {ball.square}: d4 = {roll}, it turns {way} to face "
                f"{DIRECTION_NAMES[ball.facing]}",
                roll,
            )
        elif chip.kind == TWISTER:
            roll = roll_d4(state)
            ball.facing = "NESW"[roll - 1]  # Seed, Twisters: 1 N, 2 E, 3 S, 4 W
            self._record(
                "twister",
                f"enters a twister at {ball.square}: d4 = {roll}, it now faces "
                f"{DIRECTION_NAMES[ball.facing]}",
                roll,
            )
        elif chip.kind == BARRICADE:
            roll = roll_d4(state)
            if roll <= 2:  # Seed, Barricades: 1-2 the ball turns 180 degrees
                ball.facing = opposite(ball.facing)
                self._record(
                    "barricade_turn",
                    f"hits a barricade at {ball.square}: d4 = {roll}, it turns round to face "
                    f"{DIRECTION_NAMES[ball.facing]}",
                    roll,
                )
            else:  # 3-4: the barricade is blasted to bits and leaves play until the next goal
                del state.chips[ball.square]
                state.removed[BARRICADE] = state.removed.get(BARRICADE, 0) + 1
                self._record(
                    "barricade_blasted",
                    f"hits a barricade at {ball.square}: d4 = {roll}, it blasts the barricade to bits",
                    roll,
                )
        elif chip.kind == MOGUL and self.remaining >= 2:
            self._mogul_jump()

    def _mogul_jump(self) -> None:
        """Seed, Moguls: with two or more moves left, ignore chips in the path and go straight
        to the square the ball would end on; resolve that square's chip; a goal scores; off the
        field elsewhere, the ball goes back to the centre and is aimed, rolled and moved again.
        Ruling: the jump is straight along the ball's facing, and crossing a goal end between
        columns c and e is a goal."""
        ball = self.ball
        col, row = square_coords(ball.square)
        dc, dr = DELTA[ball.facing]
        distance = self.remaining
        self.remaining = 0
        self.finished = True
        target_col, target_row = col + dc * distance, row + dr * distance
        mogul_square = ball.square
        if 0 <= target_col < WIDTH and 1 <= target_row <= LAST_ROW:
            ball.square = square_name(target_col, target_row)
            self._record(
                "mogul_jump",
                f"hits the mogul at {mogul_square} and jumps {distance} squares to {ball.square}",
            )
            self._enter_chip()
            return
        if dc == 0 and COLUMNS[target_col] in GOAL_COLUMNS:
            self._enter_goal(square_name(target_col, 0 if target_row < 1 else LAST_ROW + 1))
            return
        ball.square = CENTRE
        self.out = True
        self._record(
            "mogul_out",
            f"hits the mogul at {mogul_square} and jumps clean off the field; it goes back to "
            f"the centre {CENTRE}",
        )
