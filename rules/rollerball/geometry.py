"""The board (docs/rules/rollerball.md, "The board"): N by N squares (9, or 11 for 5-6 players),
concentric rings around a centre square that is not track. Ring 1 is the outermost; 'up' and 'out'
mean towards the edge. Squares are ints `row * N + column`, named like c3: column letter a.. from
the left, row number 1.. from the top. Balls run clockwise as seen on the image: along the top
edge to the right, down the right side, left along the bottom, up the left side."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

LETTERS = "abcdefghijk"


@dataclass(frozen=True)
class Geometry:
    size: int

    @property
    def rings(self) -> int:
        return self.size // 2

    @property
    def centre(self) -> int:
        half = self.size // 2
        return half * self.size + half

    def xy(self, square: int) -> tuple[int, int]:
        return square % self.size, square // self.size

    def at(self, x: int, y: int) -> int:
        return y * self.size + x

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def ring(self, square: int) -> int:
        """1 for the outermost ring ... rings for the innermost; 0 for the centre (not track)."""
        x, y = self.xy(square)
        depth = min(x, y, self.size - 1 - x, self.size - 1 - y)
        return 0 if depth == self.rings else depth + 1

    def is_track(self, square: int) -> bool:
        return 0 <= square < self.size * self.size and self.ring(square) != 0

    def is_corner(self, square: int) -> bool:
        """A corner of its ring (later edition: bases only on corners, no card part on a
        corner)."""
        x, y = self.xy(square)
        low = self.ring(square) - 1
        high = self.size - 1 - low
        return self.ring(square) != 0 and x in (low, high) and y in (low, high)

    def name(self, square: int) -> str:
        x, y = self.xy(square)
        return f"{LETTERS[x]}{y + 1}"

    def parse(self, text: str) -> int | None:
        text = text.strip().lower()
        if len(text) < 2 or text[0] not in LETTERS[: self.size] or not text[1:].isdigit():
            return None
        x, y = LETTERS.index(text[0]), int(text[1:]) - 1
        return self.at(x, y) if self.on_board(x, y) else None

    def next_on_ring(self, square: int) -> int:
        """The next square clockwise on the square's own ring."""
        x, y = self.xy(square)
        low = self.ring(square) - 1
        high = self.size - 1 - low
        if y == low and x < high:
            return self.at(x + 1, y)
        if x == high and y < high:
            return self.at(x, y + 1)
        if y == high and x > low:
            return self.at(x - 1, y)
        return self.at(x, y - 1)


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)


@cache
def ring_table(size: int) -> tuple[int, ...]:
    """Geometry.ring for every square, looked up: ball movement asks it constantly."""
    board = geometry(size)
    return tuple(board.ring(square) for square in range(size * size))


@cache
def corner_table(size: int) -> tuple[bool, ...]:
    """Geometry.is_corner for every square, looked up."""
    board = geometry(size)
    return tuple(board.is_corner(square) for square in range(size * size))


@cache
def next_table(size: int) -> tuple[int, ...]:
    """Geometry.next_on_ring for every square (-1 for the centre), looked up."""
    board = geometry(size)
    return tuple(
        board.next_on_ring(square) if board.is_track(square) else -1
        for square in range(size * size)
    )


@cache
def track_squares(size: int) -> tuple[int, ...]:
    board = geometry(size)
    return tuple(s for s in range(size * size) if board.is_track(s))


@cache
def orthogonal_neighbours(size: int, square: int) -> tuple[int, ...]:
    board = geometry(size)
    x, y = board.xy(square)
    steps = ((0, -1), (1, 0), (0, 1), (-1, 0))
    return tuple(board.at(x + dx, y + dy) for dx, dy in steps if board.on_board(x + dx, y + dy))


@cache
def king_neighbours(size: int, square: int) -> tuple[int, ...]:
    board = geometry(size)
    x, y = board.xy(square)
    return tuple(
        board.at(x + dx, y + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx or dy) and board.on_board(x + dx, y + dy)
    )


@cache
def card_pairs(size: int, track_changer: bool) -> tuple[tuple[int, int], ...]:
    """Every pair (a, b), a < b, of orthogonally adjacent track squares a card could cover: on
    neighbouring rings for a track changer, on one ring for a ball changer (corners included;
    the edition's corner rule is applied in placement)."""
    board = geometry(size)
    pairs = []
    for a in track_squares(size):
        for b in orthogonal_neighbours(size, a):
            if b <= a or not board.is_track(b):
                continue
            gap = abs(board.ring(a) - board.ring(b))
            if (gap == 1) == track_changer and gap <= 1:
                pairs.append((a, b))
    return tuple(pairs)


@cache
def card_pairs_at(size: int, track_changer: bool, square: int) -> tuple[tuple[int, int], ...]:
    """The card_pairs that cover `square`, in card_pairs' order (building: one square is the
    workman's)."""
    return tuple(pair for pair in card_pairs(size, track_changer) if square in pair)
