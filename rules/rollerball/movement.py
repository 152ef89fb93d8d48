"""Ball movement (seed 001 turn step 1 / seed 002 turn step 2, with the RULINGS).

All balls move together, one space at a time in lockstep. Per space, for every ball in id order:
it steps to the next square clockwise on its ring, or across the track changer it was diverted
by (crossing uses one space, RULINGS); a rubber counter flips; a pending ball change applies on
the first square after the ball changer. Then balls that reached a splitter's 'Y' together
combine; then each ball not on its "up rubber" side meets what is on its square: a card (an
energised ball smashes it; a track changer entered from its leading ring diverts or splits the
ball, entered from the other side it is a dead end the ball hops over; a ball changer gives a
pending change), a base (its owner scores), workmen (sent home). In the later edition two balls
ending the move on one square (not a splitter's Y) push: the one that got there first moves on
one ordinary space."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.rollerball.cards import (
    BALL_CHANGERS,
    DERUBBERISER,
    ENERGISER,
    OUTWARD,
    RUBBERISER,
    SPLITTERS,
    TRACK_CHANGERS,
    card_name,
)
from rules.rollerball.events import BallFrame
from rules.rollerball.geometry import geometry
from rules.rollerball.state import Ball, BoardCard, GameState

MAX_BALLS = 4
MAX_PUSHES = 16


@dataclass
class Outcome:
    """What the movement did that the engine must settle: bases passed (seat per pass, in order),
    workmen hit (seat per hit, already moved home), cards smashed (card ids, already off the
    board), the texts and the animation frames."""

    scored: list[int] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)
    smashed: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    frames: list[tuple[BallFrame, ...]] = field(default_factory=list)


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def card_ends(card: BoardCard, size: int) -> tuple[int, int]:
    """(entry, exit) of a track changer: an Up card leads from the inner ring to the outer one, a
    Down card from the outer to the inner (seed "Up Move"/"Down Move")."""
    board = geometry(size)
    a, b = card.squares
    outer, inner = (a, b) if board.ring(a) < board.ring(b) else (b, a)
    return (inner, outer) if card.kind in OUTWARD else (outer, inner)


def snapshot(state: GameState) -> tuple[BallFrame, ...]:
    return tuple(BallFrame(b.id, b.square, b.state_name()) for b in state.balls)


def move_balls(state: GameState) -> Outcome:
    """Move every ball its spaces for this turn; changes `state` (a working copy) in place."""
    outcome = Outcome(frames=[snapshot(state)])
    arrival: dict[int, int] = {ball.id: -1 for ball in state.balls}
    clock = 0
    for _ in range(state.settings.ball_spaces):
        clock += 1
        _step(state, list(state.balls), outcome, arrival, clock)
        outcome.frames.append(snapshot(state))
    if state.settings.later:
        for _ in range(MAX_PUSHES):
            pushed = _next_pushed(state, arrival)
            if pushed is None:
                break
            clock += 1
            outcome.texts.append(
                f"Two balls meet on {_name(state, pushed.square)}: one is pushed on."
            )
            _step(state, [pushed], outcome, arrival, clock)
            outcome.frames.append(snapshot(state))
    return outcome


def _name(state: GameState, square: int) -> str:
    return geometry(state.settings.board).name(square)


def _y_squares(state: GameState) -> set[int]:
    return {card.y for card in state.cards if card.y is not None}


def _next_pushed(state: GameState, arrival: dict[int, int]) -> Ball | None:
    """Seed 001: a ball ending in another's space (not a splitter's Y) pushes it on a space. The
    ball pushed is the one that got there first (same space: the lower number)."""
    exempt = _y_squares(state)
    by_square: dict[int, list[Ball]] = {}
    for ball in state.balls:
        by_square.setdefault(ball.square, []).append(ball)
    for square in sorted(by_square):
        group = by_square[square]
        if len(group) > 1 and square not in exempt:
            return min(group, key=lambda ball: (arrival.get(ball.id, -1), ball.id))
    return None


def _step(state: GameState, moving: list[Ball], outcome: Outcome, arrival, clock: int) -> None:
    board = geometry(state.settings.board)
    entered: list[tuple[Ball, bool]] = []
    for ball in sorted(moving, key=lambda b: b.id):
        crossed = ball.cross_to is not None
        ball.square = ball.cross_to if crossed else board.next_on_ring(ball.square)
        ball.cross_to = None
        arrival[ball.id] = clock
        if ball.rubber:
            ball.rubber = "down" if ball.rubber == "up" else "up"
        if ball.change is not None:
            changer = next((c for c in state.cards if c.card == ball.change_card), None)
            if changer is None or ball.square not in changer.squares:
                _apply_change(ball, outcome, state)
        entered.append((ball, crossed))
    combined = _combine(state, entered, outcome)
    for ball, crossed in entered:
        if ball not in state.balls or ball.up:
            continue
        card = state.card_at(ball.square)
        if card is not None and not crossed and ball.id not in combined:
            _meet_card(state, ball, card, outcome)
        for seat, base in enumerate(state.bases):
            if base == ball.square:
                outcome.scored.append(seat)
                outcome.texts.append(f"A ball runs over {seat_name(seat)}'s base.")
        for seat, workman in enumerate(state.workmen):
            if workman == ball.square:
                state.workmen[seat] = state.bases[seat]
                outcome.hits.append(seat)
                outcome.texts.append(f"A ball hits {seat_name(seat)}'s workman: back to base.")


def _apply_change(ball: Ball, outcome: Outcome, state: GameState) -> None:
    """Seed: "A ball counter is changed from the moment it leaves the Ball Changer card"."""
    change, ball.change, ball.change_card = ball.change, None, None
    if change == ENERGISER:
        ball.energised = True
    elif change == RUBBERISER:
        ball.rubber = "up"  # seed: "The first square after leaving the Rubberiser, the ball is Up"
    elif change == DERUBBERISER:
        ball.rubber = None
    outcome.texts.append(
        f"A ball leaves a {card_name(change)} on {_name(state, ball.square)}: it is now {ball.state_name()}."
    )


def _combine(state: GameState, entered: list[tuple[Ball, bool]], outcome: Outcome) -> set[int]:
    """Balls arriving together at a splitter combine into the lowest-numbered one, which carries
    on along the ring it is on. Later edition: both must hit the Y square (rubber balls "Down");
    earlier edition: both must enter the splitter. Energised balls smash the card instead."""
    survivors: set[int] = set()
    for card in [c for c in state.cards if c.kind in SPLITTERS]:
        spots = {card.y} if state.settings.later else set(card.squares)
        group = [b for b, _ in entered if b.square in spots and not b.up and b in state.balls]
        if len(group) < 2 or any(b.energised for b in group):
            continue
        survivor = min(group, key=lambda b: b.id)
        if survivor.square != card.y and any(b.square == card.y for b in group):
            survivor.square = card.y
        survivor.cross_to = None
        for ball in group:
            if ball is not survivor:
                state.balls.remove(ball)
        survivors.add(survivor.id)
        outcome.texts.append(
            f"{len(group)} balls combine on the {card_name(card.kind)} at {_name(state, survivor.square)}."
        )
    return survivors


def _meet_card(state: GameState, ball: Ball, card: BoardCard, outcome: Outcome) -> None:
    where = _name(state, ball.square)
    if ball.energised:
        state.cards.remove(card)
        outcome.smashed.append(card.card)
        ball.energised = False
        for other in state.balls:  # a ball it had diverted goes straight on
            if other.cross_to in card.squares:
                other.cross_to = None
        outcome.texts.append(f"An energised ball smashes the {card_name(card.kind)} at {where}.")
        return
    if card.kind in BALL_CHANGERS:
        if ball.change_card != card.card:
            ball.change, ball.change_card = card.kind, card.card
        return
    if card.kind not in TRACK_CHANGERS:
        return
    entry, exit_square = card_ends(card, state.settings.board)
    if ball.square != entry:
        outcome.texts.append(
            f"A ball meets the {card_name(card.kind)} at {where} from the wrong side and hops over it."
        )
        return
    if card.kind in SPLITTERS and card.y == entry and len(state.balls) < MAX_BALLS:
        twin = Ball(state.next_ball, ball.square, False, ball.rubber, exit_square)
        state.next_ball += 1
        state.balls.append(twin)
        outcome.texts.append(f"A ball splits in two on the {card_name(card.kind)} at {where}.")
        return
    ball.cross_to = exit_square
