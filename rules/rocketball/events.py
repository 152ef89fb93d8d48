"""Rocketball events: what players see happen, in order. `apply` returns a list of these.

Every event has `kind` and `text` (one sentence for the channel). MoveEvent carries the die
value and every step of the ball so the renderer can animate the move: `steps[i].square` and
`steps[i].facing` are the ball after step i, `steps[i].what` says what happened:
  "moved"             moved one square (for a gust push: "gust")
  "vortex"            entered a vortex and turned to its facing (no step used)
  "bounce"            tried to leave the field, stayed and turned to the edge arrow (step used)
  "bumper"/"twister"  entered the chip and turned by a die roll (`roll`)
  "barricade_turn"    entered a barricade, rolled 1-2 and turned round
  "barricade_blasted" entered a barricade, rolled 3-4 and blasted it off the field
  "mogul_jump"        entered a mogul with 2+ steps left and jumped to `square`
  "mogul_out"         the mogul jump left the field outside a goal: back on the centre
  "goal"              entered a goal square (c0/d0/e0 North, c12/d12/e12 South)
  "own_goal"          Assault: a ball entered its owner's goal and restarts on its home square
  "collision"         Assault: both balls on one square
A turn or roll that happens on entering a square is reported as its own step with the same
square, so the animation can show the ball arrive and then turn.

Every event and step names the rules that decided it (`rules`), for the card's Why?: "R7" is the
seventh row of docs/rules/rocketball.md's Rulings table, any other name a topic of that page as
`/rocketball rules` lists it ("A turn", "Variant: Gusts"). The engine names them; the presenter
words them (host/why.py). tests/rules/test_why.py holds the two to each other: every ruling
is named by some event of a seeded corpus, and every name is on the page.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

TURN = "A turn"  # the page's topic of the base turn: roll, place or rotate, the windbag passes
SETUP = "Setup"

# What decided each kind of step of the ball (Step.what): the page's topic or ruling.
STEP_RULES: dict[str, tuple[str, ...]] = {
    "moved": (TURN,),
    "gust": ("Variant: Gusts", "R9"),
    "vortex": (TURN,),
    "bounce": (TURN, "R1"),
    "bumper": ("Variant: Bumpers", "R8"),
    "twister": ("Variant: Twisters", "R8"),
    "barricade_turn": ("Variant: Barricades", "R8"),
    "barricade_blasted": ("Variant: Barricades", "R8"),
    "mogul_jump": ("Variant: Moguls", "R10"),
    "mogul_out": ("Variant: Moguls", "R10"),
    "goal": (TURN,),
    "own_goal": ("Variant: Assault!", "R15"),
    "collision": ("Variant: Assault!", "R14"),
}


@dataclass
class Step:
    square: str
    facing: str
    what: str
    text: str
    roll: int | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        return STEP_RULES.get(self.what, (TURN,))


@dataclass
class Event:
    kind: str
    text: str
    # The topics and rulings that decided it (the module's docstring); keyword-only, so the
    # subclasses' own fields keep their places.
    rules: tuple[str, ...] = field(default=(), kw_only=True)

    @property
    def all_rules(self) -> tuple[str, ...]:
        """Its own rules, then its steps' (a move's), each once, in order."""
        named = list(self.rules)
        for step in getattr(self, "steps", ()):
            named += [rule for rule in step.rules if rule not in named]
        return tuple(dict.fromkeys(named))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class StartEvent(Event):
    """The d4 start table: the ball's facing and who begins with the windbag."""

    roll: int = 0
    facing: str = "N"
    windbag: str = "N"


@dataclass
class MoveEvent(Event):
    player: str = "N"  # who rolled
    ball: int = 0  # index into state.balls
    roll: int = 0
    start_square: str = "d6"
    start_facing: str = "N"
    steps: list[Step] = field(default_factory=list)


@dataclass
class GoalEvent(Event):
    scorer: str = "N"
    goal: str = "S"  # the goal the ball entered
    score: dict[str, int] = field(default_factory=dict)


@dataclass
class ResetEvent(Event):
    """After a goal: every chip back in the windbag, the ball(s) back to the start."""


@dataclass
class DrawEvent(Event):
    player: str = "N"
    chip: str = "vortex"


@dataclass
class PlaceEvent(Event):
    player: str = "N"
    chip: str = "vortex"
    square: str = ""
    facing: str | None = None


@dataclass
class RotateEvent(Event):
    player: str = "N"
    square: str = ""
    facing: str = "N"
    clockwise: bool = True


@dataclass
class DriftEvent(Event):
    player: str = "N"
    chip: str = "vortex"
    from_square: str = ""
    to_square: str = ""


@dataclass
class AimEvent(Event):
    player: str = "N"
    ball: int = 0
    facing: str = "N"


@dataclass
class PassEvent(Event):
    player: str = "N"


@dataclass
class WindbagEvent(Event):
    holder: str = "N"


@dataclass
class SwapEvent(Event):
    """Tug-of-War: the goals the players aim at have swapped."""

    reversed: bool = False


@dataclass
class GameOverEvent(Event):
    winner: str | None = None
    reason: str = "score"  # "score", "resign" or "collision"
