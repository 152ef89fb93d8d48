"""Actions (frozen dataclasses) and their short text commands, written and read in one place.

Squares are ints (see geometry). For a card, `first`-`second` are the two squares it covers;
for a splitter `first` is the square with the 'Y' (docs/rules/rollerball.md, "the Y"); for every
other card the pair is kept in ascending order so one placement has one spelling."""

from __future__ import annotations

from dataclasses import dataclass

from rules.rollerball.cards import KINDS, SPLITTERS
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.geometry import geometry


@dataclass(frozen=True)
class Bid:
    """Secret bid, or a raise in the open re-bid: the cards (by kind) put on the discard pile."""

    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pass:
    """Drop out of the re-bid, stop placing cards, take no workman action, or take no card."""


@dataclass(frozen=True)
class PlaceBase:
    square: int


@dataclass(frozen=True)
class PlaceWorkman:
    square: int


@dataclass(frozen=True)
class PlaceBall:
    square: int


@dataclass(frozen=True)
class PlaceCard:
    """A card placed in the set-up round (seed "Placing initial pieces" step 4)."""

    kind: str
    first: int
    second: int


@dataclass(frozen=True)
class Move:
    """The workman's move from `start` to `end` (the same square: he stays)."""

    start: int
    end: int


@dataclass(frozen=True)
class Build:
    kind: str
    first: int
    second: int


@dataclass(frozen=True)
class BlowUp:
    """Later edition only: discard a card of kind `discard` to blow up the card under the
    workman."""

    discard: str


@dataclass(frozen=True)
class Replace:
    """Play a Replacer: the card under the workman goes, `kind` is built in its place."""

    kind: str
    first: int
    second: int


@dataclass(frozen=True)
class Bank:
    """Put the card just earned face down as a victory point."""


@dataclass(frozen=True)
class Keep:
    """Keep the card just earned in hand."""


@dataclass(frozen=True)
class Take:
    """Deck empty: take the card covering `square` off the board as the earned card."""

    square: int


@dataclass(frozen=True)
class Discard:
    kind: str


Action = (
    Bid | Pass | PlaceBase | PlaceWorkman | PlaceBall | PlaceCard | Move | Build | BlowUp | Replace
)
Action = Action | Bank | Keep | Take | Discard
CARD_ACTIONS = (PlaceCard, Build, Replace)


def card_action(cls, kind: str, first: int, second: int):
    """A PlaceCard/Build/Replace in its one spelling (non-splitters: ascending squares)."""
    if kind not in SPLITTERS and first > second:
        first, second = second, first
    return cls(kind, first, second)


def format_action(action, size: int = 9) -> str:
    """The command a player types for `action`, as written in the record."""
    name = geometry(size).name
    match action:
        case Bid(kinds):
            return " ".join(["bid", str(len(kinds)), *kinds])
        case Pass():
            return "pass"
        case PlaceBase(square):
            return f"base {name(square)}"
        case PlaceWorkman(square):
            return f"workman {name(square)}"
        case PlaceBall(square):
            return f"ball {name(square)}"
        case PlaceCard(kind, first, second):
            return f"place {kind} {name(first)}-{name(second)}"
        case Move(start, end):
            return f"move {name(start)} {name(end)}"
        case Build(kind, first, second):
            return f"build {kind} {name(first)}-{name(second)}"
        case BlowUp(discard):
            return f"blow-up {discard}"
        case Replace(kind, first, second):
            return f"replace {kind} {name(first)}-{name(second)}"
        case Bank():
            return "bank"
        case Keep():
            return "keep"
        case Take(square):
            return f"take {name(square)}"
        case Discard(kind):
            return f"discard {kind}"
    raise TypeError(f"not a Rollerball action: {action!r}")


KIND_ALIASES = {
    "up": "up-move",
    "down": "down-move",
    "splitter-up": "split-up",
    "splitter-down": "split-down",
    "energizer": "energiser",
    "rubberizer": "rubberiser",
    "derubberizer": "derubberiser",
}

HELP = (
    "Commands: `bid 2 up-move energiser` (or `bid 0`), `pass`, `base c1`, `workman c2`, "
    "`ball d1`, `place up-move e2-e3`, `move c3 d3` (or `move d3`, `stay`), "
    "`build up-move e2-e3` (a splitter's Y square first), `blow-up replacer`, "
    "`replace down-move e2-e3`, `bank`, `keep`, `take e2`, `discard energiser`."
)


def _kind(word: str) -> str:
    word = KIND_ALIASES.get(word, word)
    if word not in KINDS:
        raise RollerballBoardError(
            f"“{word[:20]}” is not a card; the cards are: {', '.join(KINDS)}."
        )
    return word


def _square(word: str, size: int) -> int:
    square = geometry(size).parse(word)
    if square is None:
        last = "k11" if size == 11 else "i9"
        raise RollerballBoardError(f"“{word[:10]}” is not a square; squares run from a1 to {last}.")
    return square


def _pair(word: str, size: int) -> tuple[int, int]:
    parts = word.split("-")
    if len(parts) != 2:
        raise RollerballBoardError("A card covers two squares, written like e2-e3.")
    return _square(parts[0], size), _square(parts[1], size)


def parse_command(text: str, size: int = 9, workman: int | None = None):
    """Read what a player typed (or a record line) into an action. `workman` is the player's
    workman square, for the short `move d3` and `stay`. Raises RollerballBoardError."""
    words = text.strip().lower().split()
    if not words:
        raise RollerballBoardError("Type a command. " + HELP)
    verb, rest = words[0], words[1:]
    if verb == "bid":
        if not rest or not rest[0].isdigit():
            raise RollerballBoardError("Write a bid as `bid 2 up-move energiser` or `bid 0`.")
        kinds = tuple(_kind(word) for word in rest[1:])
        if int(rest[0]) != len(kinds):
            raise RollerballBoardError(
                f"You bid {int(rest[0])} but named {len(kinds)} cards; name each card you bid."
            )
        return Bid(tuple(sorted(kinds)))
    if verb == "pass" and not rest:
        return Pass()
    if verb in ("bank", "keep") and not rest:
        return Bank() if verb == "bank" else Keep()
    if verb == "stay" and not rest and workman is not None:
        return Move(workman, workman)
    if verb in ("base", "workman", "ball", "take") and len(rest) == 1:
        cls = {"base": PlaceBase, "workman": PlaceWorkman, "ball": PlaceBall, "take": Take}
        return cls[verb](_square(rest[0], size))
    if verb == "move" and len(rest) == 2:
        return Move(_square(rest[0], size), _square(rest[1], size))
    if verb == "move" and len(rest) == 1 and workman is not None:
        return Move(workman, _square(rest[0], size))
    if verb in ("place", "build", "replace") and len(rest) == 2:
        cls = {"place": PlaceCard, "build": Build, "replace": Replace}[verb]
        return card_action(cls, _kind(rest[0]), *_pair(rest[1], size))
    if verb in ("blow-up", "blowup") and len(rest) == 1:
        return BlowUp(_kind(rest[0]))
    if verb == "discard" and len(rest) == 1:
        return Discard(_kind(rest[0]))
    raise RollerballBoardError(f"“{text.strip()[:40]}” is not a command I know. " + HELP)
