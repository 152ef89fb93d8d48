"""Where a card may go (later edition "Placing initial pieces" 4, "Build on the board", "Track
Changers", "Ball Changers"; earlier edition "Play on the board", "Track Changers", "Ball
Changers").
One function answers "what is wrong with this placement?" for set-up, building and replacing."""

from __future__ import annotations

from rules.rollerball.cards import (
    BALL_CHANGERS,
    PLACEABLE,
    SPLITTERS,
    TRACK_CHANGERS,
    card_name,
    with_article,
)
from rules.rollerball.geometry import corner_table, geometry, orthogonal_neighbours, ring_table
from rules.rollerball.state import GameState

SETUP = "setup"
BUILD = "build"


def placement_problem(
    state: GameState, seat: int, kind: str, first: int, second: int, mode: str
) -> str | None:
    """None if `kind` may cover `first`-`second` now, else the sentence saying why not. In BUILD
    mode one square must hold the seat's own workman (later edition: "underneath the
    player's workman"; earlier edition: "One space must contain the player's workman")."""
    size = state.settings.board
    board = geometry(size)
    rings = ring_table(size)
    if kind not in PLACEABLE:
        return "A Replacer is never put on the board: play it with `replace` to swap a card."
    if not (
        0 <= first < size * size and 0 <= second < size * size and rings[first] and rings[second]
    ):
        return "Cards go on the track, not on the centre square."
    if second not in orthogonal_neighbours(size, first):
        return "A card covers two squares side by side, like e2-e3."
    gap = abs(rings[first] - rings[second])
    if kind in TRACK_CHANGERS and gap != 1:
        return (
            f"{with_article(card_name(kind), True)} lies across two neighbouring rings, like e1-e2."
        )
    if kind in BALL_CHANGERS and gap != 0:
        return f"{with_article(card_name(kind), True)} lies along one ring, like d1-e1."
    corner = corner_table(size)
    corners = [s for s in (first, second) if corner[s]]
    if corners and (state.settings.later or kind in BALL_CHANGERS):
        what = "No card" if state.settings.later else "No ball changer"
        return f"{what} may cover a corner square ({board.name(corners[0])})."
    for square in (first, second):
        if state.card_at(square) is not None:
            return f"{board.name(square)} already has a card: no card goes on top of another."
        if square in state.bases:
            return f"{board.name(square)} has a base: no card goes on a base."
        if any(ball.square == square for ball in state.balls):
            return f"{board.name(square)} has a ball: no card goes on a ball."
        for other, workman in enumerate(state.workmen):
            if workman == square and (mode == SETUP or other != seat):
                return f"{board.name(square)} has another player's workman on it."
    if mode == BUILD and state.workmen[seat] not in (first, second):
        return "The card must go under your workman: one of its squares is his."
    return None


def y_note(kind: str) -> str:
    return " (the first square is the Y)" if kind in SPLITTERS else ""
