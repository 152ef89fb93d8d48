"""The 34-card deck (both editions, "Pieces"): 5 each of the five track changers, 3 each of the
three ball changers. A card is an int id 0..33; its kind follows from the id."""

from __future__ import annotations

UP_MOVE = "up-move"
DOWN_MOVE = "down-move"
SPLIT_UP = "split-up"
SPLIT_DOWN = "split-down"
REPLACER = "replacer"
ENERGISER = "energiser"
RUBBERISER = "rubberiser"
DERUBBERISER = "derubberiser"

#: (kind, copies) in id order: ids 0-4 are Up Moves, 5-9 Down Moves, ... 31-33 Derubberisers.
DECK_LIST: tuple[tuple[str, int], ...] = (
    (UP_MOVE, 5),
    (DOWN_MOVE, 5),
    (SPLIT_UP, 5),
    (SPLIT_DOWN, 5),
    (REPLACER, 5),
    (ENERGISER, 3),
    (RUBBERISER, 3),
    (DERUBBERISER, 3),
)
KINDS: tuple[str, ...] = tuple(kind for kind, _ in DECK_LIST)
DECK_SIZE = sum(copies for _, copies in DECK_LIST)
#: An id in a view that stands for a card the viewer may not see.
HIDDEN = -1

_KIND_OF_ID: tuple[str, ...] = tuple(kind for kind, copies in DECK_LIST for _ in range(copies))

#: Track changers cover two squares on neighbouring rings; ball changers two squares of one ring.
TRACK_CHANGERS = frozenset({UP_MOVE, DOWN_MOVE, SPLIT_UP, SPLIT_DOWN})
BALL_CHANGERS = frozenset({ENERGISER, RUBBERISER, DERUBBERISER})
SPLITTERS = frozenset({SPLIT_UP, SPLIT_DOWN})
#: Cards that lead a ball outwards ("Up"); the others in TRACK_CHANGERS lead inwards.
OUTWARD = frozenset({UP_MOVE, SPLIT_UP})
#: What a player may put on the board. A Replacer is never placed: it is played to swap a card.
PLACEABLE = TRACK_CHANGERS | BALL_CHANGERS

NAMES = {
    UP_MOVE: "Up Move",
    DOWN_MOVE: "Down Move",
    SPLIT_UP: "Splitter Up",
    SPLIT_DOWN: "Splitter Down",
    REPLACER: "Replacer",
    ENERGISER: "Energiser",
    RUBBERISER: "Rubberiser",
    DERUBBERISER: "Derubberiser",
}


def kind_of(card: int) -> str:
    """The kind of card `card` ("unknown" for a hidden card in a view)."""
    if card == HIDDEN:
        return "unknown"
    return _KIND_OF_ID[card]


def card_name(kind: str) -> str:
    return NAMES.get(kind, kind)


def with_article(name: str, capital: bool = False) -> str:
    """ "an Up Move", "an Energiser", "a Down Move" (capital: "An Up Move" to start a
    sentence): the article a reader expects."""
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {name}"
