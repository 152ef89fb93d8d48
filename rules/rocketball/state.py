"""Rocketball game state: the field geometry, chips, ball(s), windbag, settings and the seeded RNG.

This module is what the renderer (render/rocketball/) and the cog read. Everything here is plain
data plus small geometry helpers; the rules that change the state live in engine.py.

Field (docs/rules/rocketball.md, Setup)
- 7 columns a-g from West to East, 11 rows 1-11 from North to South: 77 squares named like
  chess squares, column letter then row number: "a1" is the North-West corner, "g11" the
  South-East corner, "d6" the centre (it never holds a chip).
- `square_coords("c4") == (2, 4)`: column index 0-6 (a-g), row number 1-11. `square_name(2, 4)`
  is the inverse. Rows 0 and 12 exist only for the goals.
- Goals: three squares just beyond each end, over columns c, d, e. The North goal is "c0",
  "d0", "e0" (a ball there means South scored, unless Tug-of-War has reversed the goals); the
  South goal is "c12", "d12", "e12". A ball is only ever in a goal at the end of the game
  (otherwise the field is reset at once after a goal).
- Edge arrows: `edge_arrow(square, edge)` gives the direction of the arrow drawn on `square`
  for field edge `edge` ("N", "E", "S" or "W"), or None when the square is not on that edge or
  is a goal mouth on its goal end. `EDGE_ARROWS` lists every arrow as (square, edge, direction)
  for drawing: West side a1 N, a2 S, a3 N, ... alternating; East side g1 S, g2 N, ...; the
  end squares outside the goal mouth (a, b, f, g on rows 1 and 11) point along the end
  towards the goal mouth. The pattern is symmetric under a half turn of the field.

Directions are the strings "N", "E", "S", "W". Players are "N" (North, sits at the North goal)
and "S" (South).

Chips (`Chip(kind, facing)`): kind is one of CHIP_KINDS. "vortex" and "gust" have a facing;
"bumper", "twister", "barricade" and "mogul" have facing None. "djinn" chips live only in the
windbag (they are never placed on the field).

GameState fields the renderer needs
- `chips`: dict square -> Chip for every chip on the field.
- `balls`: list of Ball(square, facing, owner, home). One ball normally; with Assault two balls,
  balls[0] owned by "N" (starts on c1) and balls[1] owned by "S" (starts on e11).
- `score`: {"N": points, "S": points}; `windbag`: the player holding the windbag;
  `to_move`: the player who acts now; `phase`: "roll", "place", "aim" or "over".
- `bag`: dict kind -> count of chips in the windbag; `removed`: chips out of play until the
  next goal (blasted barricades, spent djinns); `drawn`: the chip kind drawn for this place step.
- `goals_reversed`: True while Tug-of-War has players aiming at their own goal.
- `winner` ("N", "S" or None), `draw` (True after an Assault collision with level scores),
  `end_reason` ("score", "resign", "collision").
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from typing import Any, overload

from rules.rocketball.dice import Dice

# --- geometry -------------------------------------------------------------------------------

COLUMNS = "abcdefg"
FIRST_ROW = 1
LAST_ROW = 11
WIDTH = len(COLUMNS)
HEIGHT = LAST_ROW
CENTRE = "d6"
GOAL_COLUMNS = "cde"
NORTH_GOAL = ("c0", "d0", "e0")
SOUTH_GOAL = ("c12", "d12", "e12")

DIRECTIONS = ("N", "E", "S", "W")
DIRECTION_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
PLAYERS = ("N", "S")
PLAYER_NAMES = {"N": "North", "S": "South"}


def square_name(col: int, row: int) -> str:
    """(column index 0-6, row 0-12) -> "c4". Rows 0 and 12 name goal squares."""
    return f"{COLUMNS[col]}{row}"


FIELD_SQUARES: tuple[str, ...] = tuple(
    square_name(col, row) for row in range(FIRST_ROW, LAST_ROW + 1) for col in range(WIDTH)
)
# Looked up constantly by the engine and the computer player, so computed once.
_COORDS = {
    square_name(col, row): (col, row)
    for row in range(FIRST_ROW - 1, LAST_ROW + 2)
    for col in range(WIDTH)
    if FIRST_ROW <= row <= LAST_ROW or COLUMNS[col] in GOAL_COLUMNS
}


def square_coords(square: str) -> tuple[int, int]:
    """ "c4" -> (2, 4). Raises ValueError for anything that is not a field or goal square."""
    coords = _COORDS.get(square)
    if coords is None:
        raise ValueError(f"not a square: {square!r}")
    return coords


_FIELD_SET = frozenset(FIELD_SQUARES)


def is_field_square(square: str) -> bool:
    return square in _FIELD_SET


def is_goal_square(square: str) -> bool:
    return square in NORTH_GOAL or square in SOUTH_GOAL


def goal_of(square: str) -> str | None:
    """ "N" for a North goal square, "S" for a South goal square, else None."""
    if square in NORTH_GOAL:
        return "N"
    if square in SOUTH_GOAL:
        return "S"
    return None


def turn_clockwise(direction: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(direction) + 1) % 4]


def turn_counterclockwise(direction: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(direction) + 3) % 4]


def opposite(direction: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(direction) + 2) % 4]


def edges_of(square: str) -> tuple[str, ...]:
    """The field edges ("N", "E", "S", "W") a field square lies on (two at a corner)."""
    col, row = square_coords(square)
    edges = []
    if row == FIRST_ROW:
        edges.append("N")
    if col == WIDTH - 1:
        edges.append("E")
    if row == LAST_ROW:
        edges.append("S")
    if col == 0:
        edges.append("W")
    return tuple(edges)


def edge_arrow(square: str, edge: str) -> str | None:
    """The arrow on `square` for field edge `edge` (docs/rules/rocketball.md, Setup: edge arrows),
    or None.

    West side: N on odd rows, S on even rows; East side: the half-turn image (S on odd rows,
    N on even rows). North and South ends outside the goal mouth point along the end towards
    the goal mouth (East on columns a-b, West on columns f-g). Goal-mouth squares (c-e) have
    no arrow on their goal end: a ball crossing there enters the goal.
    """
    if not is_field_square(square) or edge not in edges_of(square):
        return None
    col, row = square_coords(square)
    if edge == "W":
        return "N" if row % 2 == 1 else "S"
    if edge == "E":
        return "S" if row % 2 == 1 else "N"
    # North or South end.
    if COLUMNS[col] in GOAL_COLUMNS:
        return None
    return "E" if col < WIDTH // 2 else "W"


def edge_arrows(square: str) -> dict[str, str]:
    """Every arrow on a square: edge -> direction."""
    arrows = {}
    for edge in DIRECTIONS:
        arrow = edge_arrow(square, edge)
        if arrow is not None:
            arrows[edge] = arrow
    return arrows


EDGE_ARROWS: tuple[tuple[str, str, str], ...] = tuple(
    (square, edge, arrow) for square in FIELD_SQUARES for edge, arrow in edge_arrows(square).items()
)


def neighbour(square: str, direction: str) -> str | None:
    """The field square one step from `square` in `direction`, or None off the field."""
    return _NEIGHBOURS[square][direction]


def off_field_step(square: str, direction: str) -> str | None:
    """For a step off the field: the goal square entered, or None if it hits a wall."""
    col, row = square_coords(square)
    dc, dr = DELTA[direction]
    target_row = row + dr
    if dc == 0 and COLUMNS[col] in GOAL_COLUMNS and target_row in (0, LAST_ROW + 1):
        return square_name(col, target_row)
    return None


def _build_neighbours() -> dict[str, dict[str, str | None]]:
    table: dict[str, dict[str, str | None]] = {}
    for square in FIELD_SQUARES:
        col, row = square_coords(square)
        table[square] = {}
        for direction, (dc, dr) in DELTA.items():
            c, r = col + dc, row + dr
            inside = 0 <= c < WIDTH and FIRST_ROW <= r <= LAST_ROW
            table[square][direction] = square_name(c, r) if inside else None
    return table


_NEIGHBOURS = _build_neighbours()

# --- chips ----------------------------------------------------------------------------------

VORTEX = "vortex"
BUMPER = "bumper"
TWISTER = "twister"
GUST = "gust"
BARRICADE = "barricade"
MOGUL = "mogul"
DJINN = "djinn"
CHIP_KINDS = (VORTEX, BUMPER, TWISTER, GUST, BARRICADE, MOGUL, DJINN)
DIRECTIONAL_KINDS = frozenset({VORTEX, GUST})
# docs/rules/rocketball.md "A turn": never a bumper, twister, barricade or mogul; Gusts: a
# gust may be rotated like a vortex.
ROTATABLE_KINDS = frozenset({VORTEX, GUST})
# Seed, Variants: "The special chips described below ..." (djinns are never placed).
SPECIAL_KINDS = frozenset({BUMPER, TWISTER, GUST, BARRICADE, MOGUL})
VORTEX_CHIPS = 76


@dataclass(frozen=True)
class Chip:
    """A chip on the field. `facing` is a direction for vortex and gust chips, else None."""

    kind: str
    facing: str | None = None


@dataclass
class Ball:
    """A rocketball: where it is, where it points, and (Assault only) whose it is and where it
    restarts after entering its own goal."""

    square: str
    facing: str
    owner: str | None = None
    home: str | None = None

    def copy(self) -> Ball:
        ball = Ball.__new__(Ball)
        ball.__dict__ = self.__dict__.copy()
        return ball


# --- settings -------------------------------------------------------------------------------

SPECIAL_CHIP_RANGE = (6, 8)  # seed: "put 6 to 8 bumper chips in the windbag"
DEFAULT_SPECIAL_CHIPS = 7
MOGUL_CHIPS = 4
DJINN_CHIPS = 2


@dataclass(frozen=True)
class Settings:
    """Match options chosen at creation. Counts of 0 switch a chip variant off."""

    target_score: int = 2
    bumpers: int = 0
    twisters: int = 0
    gusts: int = 0
    barricades: int = 0
    moguls: bool = False
    djinns: bool = False
    tug_of_war: bool = False
    tug_swap_rounds: int = 10  # 0 = the goals never swap back
    assault: bool = False
    drifting_winds: bool = False

    def problems(self) -> list[str]:
        """Player-readable reasons these settings cannot be played (empty when fine)."""
        found = []
        if not 1 <= self.target_score <= 9:
            found.append("The target score must be between 1 and 9 points.")
        low, high = SPECIAL_CHIP_RANGE
        for name in ("bumpers", "twisters", "gusts", "barricades"):
            count = getattr(self, name)
            if count != 0 and not low <= count <= high:
                found.append(f"{name.capitalize()}: put {low} to {high} chips in, or 0 for none.")
        if self.tug_swap_rounds < 0:
            found.append("Tug-of-War swap interval must be 0 (never) or a number of rounds.")
        if self.tug_of_war and self.assault:
            found.append(
                "Tug-of-War and Assault! don't mix: in Assault a ball entering its own goal "
                "restarts, so nobody could aim for their own goal."
            )
        return found

    def initial_bag(self) -> dict[str, int]:
        """The windbag at the start and after every goal: 76 vortexes plus variant chips."""
        return {
            VORTEX: VORTEX_CHIPS,
            BUMPER: self.bumpers,
            TWISTER: self.twisters,
            GUST: self.gusts,
            BARRICADE: self.barricades,
            MOGUL: MOGUL_CHIPS if self.moguls else 0,
            DJINN: DJINN_CHIPS if self.djinns else 0,
        }

    def variant_names(self) -> list[str]:
        names = []
        for name in ("bumpers", "twisters", "gusts", "barricades", "moguls", "djinns"):
            if getattr(self, name):
                names.append(name)
        if self.tug_of_war:
            names.append("tug_of_war")
        if self.assault:
            names.append("assault")
        if self.drifting_winds:
            names.append("drifting_winds")
        return names

    @classmethod
    def with_variants(cls, names: list[str] | tuple[str, ...], **options: Any) -> Settings:
        """Settings from variant names ("bumpers", "moguls", "tug_of_war", "drifting_winds",
        ...); chip variants get DEFAULT_SPECIAL_CHIPS chips. Extra keyword options override."""
        values: dict[str, Any] = {}
        for name in names:
            key = name.strip().lower().replace("-", "_").replace(" ", "_")
            if key in ("bumpers", "twisters", "gusts", "barricades"):
                values[key] = DEFAULT_SPECIAL_CHIPS
            elif key in ("moguls", "djinns", "tug_of_war", "assault", "drifting_winds"):
                values[key] = True
            else:
                raise ValueError(f"unknown Rocketball variant: {name!r}")
        values.update(options)
        return cls(**values)


# --- the record lines -----------------------------------------------------------------------


class History:
    """The record lines of a match so far (record.py): an immutable sequence of strings.

    `appended(line)` returns a new History that shares every earlier line with this one, so
    each action costs O(1) instead of copying the whole list (which made a game O(n^2)). It
    reads like a tuple or list: len, indexing, iteration, and == with a list or tuple of the
    same lines.
    """

    __slots__ = ("_before", "_last", "_length", "_lines")

    def __init__(self, lines: Iterable[str] = ()) -> None:
        self._lines: tuple[str, ...] | None = tuple(lines)
        self._before: History | None = None
        self._last: str | None = None
        self._length = len(self._lines)

    def appended(self, line: str) -> History:
        new = History.__new__(History)
        new._before = self
        new._last = line
        new._length = self._length + 1
        new._lines = None
        return new

    def lines(self) -> tuple[str, ...]:
        """Every line as a tuple (built once, then kept: the History never changes)."""
        if self._lines is None:
            tail: list[str] = []
            node: History = self
            while node._lines is None:
                assert node._before is not None and node._last is not None
                tail.append(node._last)
                node = node._before
            tail.reverse()
            self._lines = node._lines + tuple(tail)
        return self._lines

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if index == -1 and self._lines is None and self._last is not None:
            return self._last  # the latest line, without building the rest
        return self.lines()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.lines())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._length == other._length and self.lines() == other.lines()
        if isinstance(other, list | tuple):
            return self._length == len(other) and list(self.lines()) == list(other)
        return NotImplemented

    # unhashable (it equals lists, which are): typeshed's idiom, which type checkers see as
    # overriding a method
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({list(self.lines())!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Flat for pickle and deepcopy (a long chain of nodes would recurse too deep).
        return (History, (self.lines(),))


# --- the state ------------------------------------------------------------------------------

PHASE_ROLL = "roll"  # the windbag holder must roll the die and move the ball(s)
PHASE_AIM = "aim"  # Moguls: the windbag holder aims the ball restarted in the centre
PHASE_PLACE = "place"  # place, rotate (or drift) a chip, or pass if nothing is possible
PHASE_OVER = "over"


def other(player: str) -> str:
    return "S" if player == "N" else "N"


@dataclass
class GameState:
    """Everything about a Rocketball match. See the module docstring for the field meanings."""

    seed: int
    settings: Settings
    # The seeded generator (dice.py). A random.Random is accepted too (tests load the dice
    # with one): it is turned into Dice at construction and on copy.
    rng: Dice | random.Random
    score: dict[str, int]
    balls: list[Ball]
    chips: dict[str, Chip]
    bag: dict[str, int]
    removed: dict[str, int]
    windbag: str
    to_move: str
    phase: str
    drawn: str | None = None
    # The chip each player rotated in their latest place step (docs/rules/rocketball.md "A
    # turn": not the chip the opponent rotated on their last turn).
    last_rotated: dict[str, str | None] = field(default_factory=lambda: {"N": None, "S": None})
    # Assault: squares of chips placed this round (they may not be rotated this round), and
    # the players still to place this round, in order.
    placed_this_round: list[str] = field(default_factory=list)
    placers: list[str] = field(default_factory=list)
    pending_aim: list[int] = field(default_factory=list)
    rounds: int = 0  # full rounds completed (Tug-of-War counts these)
    goals_reversed: bool = False
    winner: str | None = None
    draw: bool = False
    end_reason: str | None = None
    # Record lines, see record.py. A list given to the constructor becomes a History.
    history: History = field(default_factory=History)

    def __post_init__(self) -> None:
        if not isinstance(self.rng, Dice):
            self.rng = Dice.from_random(self.rng)
        if not isinstance(self.history, History):
            self.history = History(self.history)

    # -- convenience for readers ------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def ball(self) -> Ball:
        """The (first) ball; with Assault use `balls`."""
        return self.balls[0]

    def chips_in_play(self) -> int:
        """Chips on the field + in the bag + drawn + out of play: constant through a match."""
        drawn = 1 if self.drawn else 0
        return len(self.chips) + sum(self.bag.values()) + sum(self.removed.values()) + drawn

    def ball_squares(self) -> set[str]:
        return {ball.square for ball in self.balls}

    def target_goal(self, player: str) -> str:
        """The goal ("N" or "S") `player` tries to put the ball into now."""
        own = player
        return own if self.goals_reversed else other(own)

    # -- copying and JSON --------------------------------------------------------------------

    def copy(self) -> GameState:
        """An independent copy (cheaper than deepcopy: chips are immutable, the history and
        the dice copy in O(1)). It is on the engine's hot path: once per action."""
        values = self.__dict__.copy()  # immutable fields are shared as they are
        rng = self.rng
        values["rng"] = rng.copy() if isinstance(rng, Dice) else Dice.from_random(rng)
        values["score"] = self.score.copy()
        values["balls"] = [ball.copy() for ball in self.balls]
        values["chips"] = self.chips.copy()
        values["bag"] = self.bag.copy()
        values["removed"] = self.removed.copy()
        values["last_rotated"] = self.last_rotated.copy()
        values["placed_this_round"] = self.placed_this_round.copy()
        values["placers"] = self.placers.copy()
        values["pending_aim"] = self.pending_aim.copy()
        if not isinstance(self.history, History):
            values["history"] = History(self.history)
        new = GameState.__new__(GameState)
        new.__dict__ = values
        return new

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        data: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "rng":
                continue
            value = getattr(self, f.name)
            if f.name == "settings":
                value = asdict(value)
            elif f.name == "balls":
                value = [asdict(ball) for ball in value]
            elif f.name == "chips":
                value = {sq: [chip.kind, chip.facing] for sq, chip in value.items()}
            elif f.name == "history":
                value = list(value)
            data[f.name] = value
        data["rng"] = [version, list(internal), gauss]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        version, internal, gauss = data["rng"]
        values = dict(data)
        values["rng"] = Dice.from_state((version, tuple(internal), gauss))
        values["history"] = History(data["history"])
        values["settings"] = Settings(**data["settings"])
        values["balls"] = [Ball(**ball) for ball in data["balls"]]
        values["chips"] = {sq: Chip(kind, facing) for sq, (kind, facing) in data["chips"].items()}
        return cls(**values)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))
