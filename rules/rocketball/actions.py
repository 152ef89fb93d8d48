"""Rocketball actions: plain frozen dataclasses handed to `engine.apply`, and their text form.

Who acts is `state.to_move` (the windbag holder, or in Assault the second placer), except
Resign, which either player may do at any time while the match is on.

The one text form of an action lives here too, next to the actions: `format_action` writes
it, `parse_command` reads it (what players type and what a record line holds after the
player), and `record_line` / `parse_record_line` add the acting player. The engine writes
history lines with `record_line` and record.py reads them with `parse_record_line`, so the
writer and the reader can never disagree and neither module imports the other's caller.

Commands (case does not matter):
  roll                      roll the die and move the ball
  c4 N   | place c4 N       place the drawn chip on c4 facing North (N/E/S/W or north/...)
  e5     | place e5         place a chip that has no facing (bumper, twister, barricade, mogul)
  c4 N vortex | e5 bumper   after drawing a djinn: the chip picked from the windbag
  rotate c4 cw | c4 ccw     turn the chip on c4 a quarter turn clockwise / counterclockwise
  drift c4 c5 | drift c4 S  Drifting Winds: move the chip on c4 one square
  aim E                     Moguls: aim the ball put back on the centre
  pass | resign
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.rocketball.errors import RocketballError
from rules.rocketball.state import CHIP_KINDS, PLAYER_NAMES, is_field_square, neighbour


@dataclass(frozen=True)
class Roll:
    """Roll the d4 and move the ball (both balls in Assault, one roll each)."""


@dataclass(frozen=True)
class Place:
    """Place the drawn chip on `square`. `facing` ("N"/"E"/"S"/"W") for vortex and gust chips,
    None for the others. `kind` only when a djinn was drawn: the chip picked from the windbag."""

    square: str
    facing: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class Rotate:
    """Turn the vortex (or gust) chip on `square` a quarter turn."""

    square: str
    clockwise: bool = True


@dataclass(frozen=True)
class Drift:
    """Drifting Winds: move the chip on `from_square` one square to the vacant `to_square`."""

    from_square: str
    to_square: str


@dataclass(frozen=True)
class Aim:
    """Moguls: face the ball that was put back on the centre, then it is rolled and moved."""

    facing: str


@dataclass(frozen=True)
class Pass:
    """Only when the player can neither place, rotate nor drift a chip."""


@dataclass(frozen=True)
class Resign:
    player: str


Action = Roll | Place | Rotate | Drift | Aim | Pass | Resign


# --- the text form ------------------------------------------------------------------------

_DIRECTION_WORDS = {
    "n": "N",
    "north": "N",
    "e": "E",
    "east": "E",
    "s": "S",
    "south": "S",
    "w": "W",
    "west": "W",
}
_CLOCKWISE_WORDS = {"cw": True, "clockwise": True, "ccw": False, "anticlockwise": False}
_CLOCKWISE_WORDS["counterclockwise"] = False
_KIND_WORDS = {kind: kind for kind in CHIP_KINDS} | {kind + "s": kind for kind in CHIP_KINDS}
_SQUARE_HELP = "squares are a column a-g and a row 1-11, like c4"


def format_action(action: Action) -> str:
    """The command text for an action (what a record line holds after the player)."""
    if isinstance(action, Roll):
        return "roll"
    if isinstance(action, Place):
        parts = ["place", action.square]
        if action.facing:
            parts.append(action.facing)
        if action.kind:
            parts.append(action.kind)
        return " ".join(parts)
    if isinstance(action, Rotate):
        return f"rotate {action.square} {'cw' if action.clockwise else 'ccw'}"
    if isinstance(action, Drift):
        return f"drift {action.from_square} {action.to_square}"
    if isinstance(action, Aim):
        return f"aim {action.facing}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Resign):
        return "resign"
    raise TypeError(f"not a Rocketball action: {action!r}")


def _square(word: str) -> str:
    square = word.lower()
    if not is_field_square(square):
        raise RocketballError(f"`{word}` is not a square of the field: {_SQUARE_HELP}.")
    return square


def _direction(word: str) -> str:
    direction = _DIRECTION_WORDS.get(word.lower())
    if direction is None:
        raise RocketballError(f"`{word}` is not a direction: use N, E, S or W.")
    return direction


def parse_command(text: str, player: str | None = None) -> Action:
    """Turn typed text such as "c4 N" or "rotate c4 cw" into an action.

    `player` is needed only for "resign". Raises RocketballError with a short explanation of
    what was expected.
    """
    words = re.sub(r"\s*>\s*", " > ", text.strip()).split()
    if not words:
        raise RocketballError("Type a move, e.g. `c4 N` to place, `rotate c4 cw` or `roll`.")
    verb = words[0].lower()
    rest = words[1:]
    if verb in ("roll", "move") and not rest:
        return Roll()
    if verb == "pass" and not rest:
        return Pass()
    if verb == "resign" and not rest:
        if player not in ("N", "S"):
            raise RocketballError("Only a player in the match can resign.")
        return Resign(player)
    if verb == "aim":
        if len(rest) != 1:
            raise RocketballError("Aim with one direction, e.g. `aim E`.")
        return Aim(_direction(rest[0]))
    if verb in ("rotate", "rot", "turn"):
        if len(rest) != 2 or rest[1].lower() not in _CLOCKWISE_WORDS:
            raise RocketballError("Rotate like this: `rotate c4 cw` or `rotate c4 ccw`.")
        return Rotate(_square(rest[0]), _CLOCKWISE_WORDS[rest[1].lower()])
    if verb == "drift":
        return _drift(rest)
    if verb == "place":
        if not rest:
            raise RocketballError("Place like this: `place c4 N` (square, then facing).")
        verb, rest = rest[0].lower(), rest[1:]
    # What is left starts with a square: a placement, a rotation or a drift.
    square = _square(verb)
    if len(rest) == 1 and rest[0].lower() in _CLOCKWISE_WORDS:
        return Rotate(square, _CLOCKWISE_WORDS[rest[0].lower()])
    if rest and rest[0] == ">":
        return _drift([square, *rest[1:]])
    facing: str | None = None
    kind: str | None = None
    for word in rest:
        lowered = word.lower()
        if lowered in _DIRECTION_WORDS and facing is None:
            facing = _DIRECTION_WORDS[lowered]
        elif lowered in _KIND_WORDS and kind is None:
            kind = _KIND_WORDS[lowered]
        else:
            raise RocketballError(
                f"I don't understand `{word}` in `{text.strip()}`: place with `c4 N`, rotate "
                "with `rotate c4 cw`."
            )
    return Place(square, facing, kind)


def _drift(words: list[str]) -> Drift:
    if len(words) == 3 and words[1] == ">":
        words = [words[0], words[2]]
    if len(words) != 2:
        raise RocketballError("Drift like this: `drift c4 c5` or `drift c4 S`.")
    source = _square(words[0])
    if words[1].lower() in _DIRECTION_WORDS:
        target = neighbour(source, _direction(words[1]))
        if target is None:
            raise RocketballError(f"The chip on {source} can't drift off the field.")
        return Drift(source, target)
    return Drift(source, _square(words[1]))


def record_line(player: str, action: Action) -> str:
    """One record line: the acting player ("N" or "S") and the command, e.g. `S place c4 N`."""
    return f"{player} {format_action(action)}"


def parse_record_line(line: str) -> tuple[str, Action]:
    """(player, action) from a record line written by `record_line`; RocketballError if not."""
    player, _, command = line.strip().partition(" ")
    if player not in PLAYER_NAMES:
        raise RocketballError(f"expected `N` or `S` and a move, got `{line.strip()}`.")
    return player, parse_command(command, player)
