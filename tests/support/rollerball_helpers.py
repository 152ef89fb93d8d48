"""Build hand-made positions for the Rollerball board-game tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.rollerball.cards import DECK_SIZE, SPLITTERS, kind_of
from rules.rollerball.geometry import geometry
from rules.rollerball.state import Ball, BoardCard, GameState, Settings


def sq(name: str, size: int = 9) -> int:
    square = geometry(size).parse(name)
    assert square is not None, f"{name} is not a square of the {size}x{size} board"
    return square


def names(squares, size: int = 9) -> list[str]:
    return [geometry(size).name(s) for s in squares]


def scenario(
    edition: str = "later",
    players: int = 2,
    balls: Sequence[str | tuple[str, dict[str, Any]]] = (),
    cards: Sequence[tuple[str, str, str]] = (),
    bases: Sequence[str] | None = None,
    workmen: Sequence[str] | None = None,
    hands: Sequence[Sequence[str]] = (),
) -> GameState:
    """A game in turn play: Player 1 (seat 0) is about to use his workman. `balls` are square
    names or (name, dict of Ball fields); `cards` are (kind, first, second), a splitter's first
    square being its Y; `hands` are lists of kinds per seat. Every other card is in the deck."""
    state = GameState(settings=Settings(edition=edition, players=players), seed=7)
    free = list(range(DECK_SIZE))

    def take(kind: str) -> int:
        card = next(c for c in free if kind_of(c) == kind)
        free.remove(card)
        return card

    for kind, first, second in cards:
        a, b = sq(first), sq(second)
        y = a if kind in SPLITTERS else None
        low, high = sorted((a, b))
        state.cards.append(BoardCard(take(kind), kind, (low, high), y))
    for number, ball in enumerate(balls, 1):
        name, extra = (ball, {}) if isinstance(ball, str) else ball
        state.balls.append(Ball(number, sq(name), **extra))
    state.next_ball = len(balls) + 1
    state.hands = [[take(k) for k in (hands[s] if s < len(hands) else ())] for s in range(players)]
    state.deck = free
    state.victory = [[] for _ in range(players)]
    state.bids = [[] for _ in range(players)]
    state.bid_totals = [0] * players
    state.passed = [True] * players
    default_bases = ("a9", "i9", "a1", "i1", "c3", "g7")
    state.bases = [sq(b) for b in (bases or default_bases[:players])]
    state.workmen = [sq(w) for w in (workmen or ("e5", "e5", "e5", "e5", "e5", "e5")[:players])]
    state.phase = "turn"
    state.turn_step = "action"
    state.turn_number = 1
    state.bid_winner = 0
    state.current = 0
    return state


def conserved(state: GameState) -> list[int]:
    """Every card id somewhere: hands, deck, discards, board, victory piles, pending decisions."""
    ids = list(state.deck) + list(state.discard)
    for hand in state.hands:
        ids += hand
    for pile in state.victory:
        ids += pile
    for bid in state.bids:
        if bid is not None and state.phase == "bid":
            ids += bid
    ids += [card.card for card in state.cards]
    ids += [d.card for d in state.pending if d.card is not None]
    return sorted(ids)
