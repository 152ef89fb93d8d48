"""Set-up (both editions, "Setup" and "Placing initial pieces"): deal, secret bid, open re-bid,
bases, workmen, the ball, the card-placing round."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from rules.rollerball.cards import DECK_SIZE, kind_of
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.events import SET_UP, Event
from rules.rollerball.geometry import geometry, track_squares
from rules.rollerball.movement import seat_name
from rules.rollerball.rng import randbelow, shuffle
from rules.rollerball.state import Ball, GameState, Rebid, Settings

HAND_AT_START = 5


def deal(seed: int, settings: Settings) -> tuple[GameState, list[Event]]:
    n = settings.players
    state = GameState(settings=settings, seed=seed)
    state.hands = [[] for _ in range(n)]
    state.victory = [[] for _ in range(n)]
    state.bids = [None] * n
    state.bid_totals = [0] * n
    state.bases = [None] * n
    state.workmen = [None] * n
    state.passed = [False] * n
    state.dealer = randbelow(state, n)
    state.deck = list(range(DECK_SIZE))
    shuffle(state, state.deck)
    for _ in range(HAND_AT_START):
        for seat in clockwise_from(state.dealer, n):
            state.hands[seat].append(state.deck.pop())
    state.phase = "bid"
    text = (
        f"{seat_name(state.dealer)} deals 5 cards to each player. Everyone now bids in secret: "
        "the cards bid are discarded, the highest bid places first."
    )
    return state, [Event(text, rules=(SET_UP,))]


def clockwise_from(seat: int, n: int) -> list[int]:
    """The seats clockwise starting with the one after `seat`, ending with `seat` itself: "the
    player closest clockwise to the dealer" is the one on the dealer's left (ruling)."""
    return [(seat + k) % n for k in range(1, n + 1)]


def hand_kinds(state: GameState, seat: int) -> list[str]:
    return sorted(kind_of(card) for card in state.hands[seat])


def bid_choices(state: GameState, seat: int, minimum: int) -> list[tuple[str, ...]]:
    """Every distinct selection of cards (by kind) of at least `minimum` cards from the hand."""
    kinds = hand_kinds(state, seat)
    choices = set()
    for size in range(minimum, len(kinds) + 1):
        choices.update(combinations(kinds, size))
    return sorted(choices, key=lambda c: (len(c), c))


def take_cards(state: GameState, seat: int, kinds: tuple[str, ...]) -> list[int]:
    """Remove cards of the given kinds from the seat's hand (the lowest ids first)."""
    wanted = Counter(kinds)
    held = Counter(kind_of(card) for card in state.hands[seat])
    if any(held[kind] < count for kind, count in wanted.items()):
        have = ", ".join(hand_kinds(state, seat)) or "no cards"
        raise RollerballBoardError(f"You do not hold those cards; you hold: {have}.")
    taken = []
    for kind, count in wanted.items():
        for card in sorted(c for c in state.hands[seat] if kind_of(c) == kind)[:count]:
            state.hands[seat].remove(card)
            taken.append(card)
    return taken


def secret_bid(state: GameState, seat: int, kinds: tuple[str, ...], events: list[Event]) -> None:
    if state.bids[seat] is not None:
        raise RollerballBoardError("You have already bid; wait for the others.")
    state.bids[seat] = take_cards(state, seat, kinds)
    events.append(Event(f"{seat_name(seat)} has bid.", rules=(SET_UP,)))
    if all(bid is not None for bid in state.bids):
        _reveal_bids(state, events)


def _reveal_bids(state: GameState, events: list[Event]) -> None:
    """All bids are in: they are discarded and shown; the single top bidder wins. A tie goes to
    the open re-bid, unless the drawing players bid all their cards: then the least bidder wins
    (seed "Setup"; docs/rules/rollerball.md ruling 4)."""
    n = state.players
    for seat in range(n):
        bid = state.bids[seat]
        if bid is None:
            raise ValueError(f"seat {seat} has not bid yet")
        state.discard.extend(bid)
        state.bid_totals[seat] = len(bid)
    shown = ", ".join(f"{seat_name(s)} {state.bid_totals[s]}" for s in range(n))
    events.append(Event(f"Bids: {shown}.", rules=(SET_UP,)))
    top = max(state.bid_totals)
    tied = [s for s in clockwise_from(state.dealer, n) if state.bid_totals[s] == top]
    if len(tied) == 1:
        start_placement(state, tied[0], events)
        return
    names = ", ".join(seat_name(s) for s in tied)
    if not any(state.hands[s] for s in tied):
        winner = least_bidder(state)
        events.append(
            Event(
                f"A draw at {top}, and {names} bid all their cards: the least bidder, "
                f"{seat_name(winner)}, wins the bid.",
                rules=(SET_UP, "R4", "R3"),
            )
        )
        start_placement(state, winner, events)
        return
    state.phase = "rebid"
    state.rebid = Rebid(order=tied)
    state.current = tied[0]
    events.append(
        Event(
            f"A draw at {top}: {names} re-bid openly, raising or dropping out.",
            rules=(SET_UP, "R4"),
        )
    )


def least_bidder(state: GameState) -> int:
    """The player who bid the least; several: the one closest clockwise to the dealer."""
    least = min(state.bid_totals)
    return next(
        s for s in clockwise_from(state.dealer, state.players) if state.bid_totals[s] == least
    )


def rebid_action(state: GameState, seat: int, kinds: tuple[str, ...], events: list[Event]) -> None:
    """Open re-bid (seed "the players that bid the most may now openly out bid each other by
    taking turns"): raise above the highest total, or pass and drop out. The last tied bidder
    still in wins, raised or not (ruling 4: the least-bidder clause is for drawing players who
    bid all their cards, settled when the bids are shown)."""
    rebid = state.rebid
    if rebid is None:
        raise ValueError("there is no re-bid open")
    high = max(state.bid_totals)
    if kinds:
        if state.bid_totals[seat] + len(kinds) <= high:
            need = high - state.bid_totals[seat] + 1
            raise RollerballBoardError(f"To raise you must add at least {need} cards, or pass.")
        state.discard.extend(take_cards(state, seat, kinds))
        state.bid_totals[seat] += len(kinds)
        rebid.leader = seat
        events.append(
            Event(f"{seat_name(seat)} raises to {state.bid_totals[seat]}.", rules=(SET_UP, "R4"))
        )
    else:
        rebid.out.append(seat)
        events.append(Event(f"{seat_name(seat)} drops out of the re-bid.", rules=(SET_UP, "R4")))
    active = [s for s in rebid.order if s not in rebid.out]
    if len(active) == 1:
        start_placement(state, active[0], events)
        return
    index = rebid.order.index(seat)
    for step in range(1, len(rebid.order) + 1):
        candidate = rebid.order[(index + step) % len(rebid.order)]
        if candidate not in rebid.out:
            state.current = candidate
            return


def start_placement(state: GameState, winner: int, events: list[Event]) -> None:
    state.bid_winner = winner
    state.rebid = None
    state.phase = "base"
    state.current = winner
    events.append(
        Event(f"{seat_name(winner)} wins the bid and places the first base.", rules=(SET_UP, "R10"))
    )


def base_squares(state: GameState) -> list[int]:
    """Later edition: corners only, not the inner ring. Earlier edition: not the inner two rings.
    Never on another base."""
    board = geometry(state.settings.board)
    rings = board.rings
    squares = []
    for square in track_squares(state.settings.board):
        if square in state.bases:
            continue
        ring = board.ring(square)
        if (state.settings.later and board.is_corner(square) and ring < rings) or (
            not state.settings.later and ring <= rings - 2
        ):
            squares.append(square)
    return squares


def base_problem(state: GameState, square: int) -> str | None:
    if square in base_squares(state):
        return None
    if state.settings.later:
        return "A base goes on a free corner square of any ring but the innermost."
    return "A base goes on a free track square, not in the inner two rings."


def ball_squares(state: GameState) -> list[int]:
    taken = set(state.bases) | set(state.workmen) | {b.square for b in state.balls}
    return [s for s in track_squares(state.settings.board) if s not in taken]


def next_placer(state: GameState) -> int | None:
    """The next seat clockwise (after `current`) still placing, or None when the set-up round of
    cards is over (everyone passed or has no cards)."""
    n = state.players
    for seat in clockwise_from(state.current, n):
        if not state.passed[seat] and state.hands[seat]:
            return seat
    return None


def place_pieces(state: GameState, seat: int, square: int, what: str, events: list[Event]) -> None:
    """A base, workman or the ball, then the next seat or the next set-up step."""
    board = geometry(state.settings.board)
    name = board.name(square)
    if what == "base":
        state.bases[seat] = square
        # the places go round clockwise from the bid's winner (R3)
        events.append(
            Event(f"{seat_name(seat)} places their base on {name}.", rules=(SET_UP, "R3"))
        )
    elif what == "workman":
        state.workmen[seat] = square
        events.append(
            Event(f"{seat_name(seat)} places their workman on {name}.", rules=(SET_UP, "R9"))
        )
    else:
        state.balls.append(Ball(state.next_ball, square))
        state.next_ball += 1
        events.append(Event(f"{seat_name(seat)} places the ball on {name}.", rules=(SET_UP,)))
    following = (seat + 1) % state.players
    winner = state.bid_winner_seat()
    if what == "base":
        if following == winner:
            state.phase = "workman"
        state.current = following
    elif what == "workman":
        if following == winner:
            state.phase = "ball"
        state.current = following
    else:
        state.phase = "cards"
        state.passed = [not hand for hand in state.hands]
        state.current = (winner - 1) % state.players
        events.append(
            Event(
                "Now each player in turn places a card or passes, until all have passed.",
                rules=(SET_UP,),
            )
        )
