"""The engine: new_game, actors, legal_actions, apply, next_step, view_for.

A turn (later edition, "Turns"): move the balls, draw up to 4, move the workman, use him.
Earlier edition: draw up to 5, move the balls, move the workman, play one card or none. The ball
movement runs by itself when a turn starts; the game waits only for a player's decision."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from rules.prose import plural
from rules.rollerball import setup
from rules.rollerball.actions import (
    Bank,
    Bid,
    BlowUp,
    Build,
    Discard,
    Keep,
    Move,
    Pass,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    PlaceWorkman,
    Replace,
    Take,
    card_action,
    format_action,
)
from rules.rollerball.cards import (
    HIDDEN,
    PLACEABLE,
    REPLACER,
    SPLITTERS,
    TRACK_CHANGERS,
    card_name,
    kind_of,
    with_article,
)
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.events import CARDS, SET_UP, TURN, BallsMoved, Event
from rules.rollerball.geometry import (
    card_pairs,
    card_pairs_at,
    geometry,
    king_neighbours,
    orthogonal_neighbours,
)
from rules.rollerball.movement import lift_card, move_balls, seat_name
from rules.rollerball.placement import BUILD, SETUP, placement_problem
from rules.rollerball.rng import shuffle
from rules.rollerball.state import BoardCard, Decision, GameState, Settings

WORKMAN_STEPS = 3


# --- starting and asking -----------------------------------------------------------------


def new_game(seed: int, settings: Settings | None = None) -> tuple[GameState, list[Event]]:
    return setup.deal(seed, settings or Settings())


def actors(state: GameState) -> frozenset[int]:
    """Seats that may act now: all who have not bid during the secret bid, else one, none at the end."""
    if state.over:
        return frozenset()
    if state.phase == "bid":
        return frozenset(s for s, bid in enumerate(state.bids) if bid is None)
    if state.phase == "decide":
        return frozenset({state.pending[0].seat})
    return frozenset({state.current})


@dataclass(frozen=True)
class NextStep:
    """What the game waits for: `kind` is one of bid, rebid, base, workman, ball, card, move,
    action, score, take, discard, over; `seats` who may act."""

    kind: str
    seats: frozenset[int]


def next_step(state: GameState) -> NextStep:
    if state.over:
        return NextStep("over", frozenset())
    if state.phase == "decide":
        kind = state.pending[0].kind
    elif state.phase == "turn":
        kind = state.turn_step
    elif state.phase == "cards":
        kind = "card"
    else:
        kind = state.phase
    return NextStep(kind, actors(state))


PROMPTS = {
    "bid": "{who}: bid in secret (any number of your cards, 0 too).",
    "rebid": "{who}: raise the bid openly or pass.",
    "base": "{who}: place your base.",
    "workman": "{who}: place your workman.",
    "ball": "{who}: place the ball.",
    "card": "{who}: place a card on the board or pass.",
    "move": "{who}: move your workman up to three spaces (or stay).",
    "action": "{who}: use your workman (build, {extra}replace) or pass.",
    "score": "{who}: a ball ran over your base: bank the new card as a victory point or keep it.",
    "take": "{who}: the deck is empty: take a card from the board as your earned card, or pass.",
    "discard": "{who}: your workman was hit: discard a card.",
}


def describe_next_step(state: GameState, names: dict[int, str] | None = None) -> str:
    """The next step in words for the players, e.g. "Player 2: move your workman ..."."""
    step = next_step(state)
    if step.kind == "over":
        won = ", ".join((names or {}).get(s, seat_name(s)) for s in state.winners)
        return f"The game is over. Winner: {won or 'nobody'}."
    who = " and ".join((names or {}).get(s, seat_name(s)) for s in sorted(step.seats))
    extra = "blow up, " if state.settings.later else ""
    return PROMPTS[step.kind].format(who=who, extra=extra)


# --- legal actions -----------------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> list:
    """Everything `seat` may do now (empty when it is not theirs to act). Works on a view too."""
    if seat not in actors(state):
        return []
    phase = state.phase
    if phase == "bid":
        return [Bid(kinds) for kinds in setup.bid_choices(state, seat, 0)]
    if phase == "rebid":
        need = max(state.bid_totals) - state.bid_totals[seat] + 1
        return [Pass()] + [Bid(kinds) for kinds in setup.bid_choices(state, seat, need)]
    if phase == "base":
        return [PlaceBase(square) for square in setup.base_squares(state)]
    if phase == "workman":
        return [PlaceWorkman(square) for square in range(state.settings.board**2)]
    if phase == "ball":
        return [PlaceBall(square) for square in setup.ball_squares(state)]
    if phase == "cards":
        return [Pass(), *card_placements(state, seat, PlaceCard, SETUP)]
    if phase == "decide":
        return _decision_actions(state, state.pending[0])
    if state.turn_step == "move":
        start = state.workman_square(seat)
        return [Move(start, end) for end in sorted(workman_reach(state, seat))]
    return [Pass(), *_workman_actions(state, seat)]


def _hand_kinds(state: GameState, seat: int) -> set[str]:
    return {kind_of(card) for card in state.hands[seat]}


def card_placements(state: GameState, seat: int, cls, mode: str) -> list:
    """Every legal placement of every placeable kind in the seat's hand."""
    size = state.settings.board
    workman = state.workmen[seat]
    result = []
    for kind in sorted(_hand_kinds(state, seat) & PLACEABLE):
        track_changer = kind in TRACK_CHANGERS
        if mode == BUILD:
            pairs = () if workman is None else card_pairs_at(size, track_changer, workman)
        else:
            pairs = card_pairs(size, track_changer)
        for a, b in pairs:
            orders = ((a, b), (b, a)) if kind in SPLITTERS else ((a, b),)
            if placement_problem(state, seat, kind, a, b, mode) is None:
                result.extend(card_action(cls, kind, first, second) for first, second in orders)
    return result


def _workman_actions(state: GameState, seat: int) -> list:
    actions = card_placements(state, seat, Build, BUILD)
    under = state.card_at(state.workman_square(seat))
    if under is None or _card_problem(state, seat, under) is not None:
        return actions
    if state.settings.later:
        actions += [BlowUp(kind) for kind in sorted(_hand_kinds(state, seat))]
    if REPLACER in _hand_kinds(state, seat):
        trial = state.clone()
        _lift(trial, seat, under)
        actions += card_placements(trial, seat, Replace, BUILD)
    return actions


def _decision_actions(state: GameState, decision: Decision) -> list:
    if decision.kind == "score":
        return [Bank(), Keep()]
    if decision.kind == "take":
        return [Pass()] + [Take(card.squares[0]) for card in state.cards]
    return [Discard(kind) for kind in sorted(_hand_kinds(state, decision.seat))]


def workman_reach(state: GameState, seat: int) -> set[int]:
    """Squares the workman can reach in up to three steps: orthogonal steps in the later edition
    (its turn step 3), any of the eight neighbours in the earlier one (which says only "three
    spaces"; docs/rules/rollerball.md ruling 8). He may not enter a square with a ball unless every
    ball there shows Up Rubber."""
    size = state.settings.board
    neighbours = orthogonal_neighbours if state.settings.later else king_neighbours
    blocked = {b.square for b in state.balls if not b.up}
    start = state.workman_square(seat)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if seen[square] == WORKMAN_STEPS:
            continue
        for nxt in neighbours(size, square):
            if nxt not in seen and nxt not in blocked:
                seen[nxt] = seen[square] + 1
                queue.append(nxt)
    return set(seen)


def _card_problem(state: GameState, seat: int, card: BoardCard) -> str | None:
    """Blow up / replace: no other player's workman on the card, no ball on it (later edition:
    unless the ball shows Up Rubber; the earlier edition has no such exception)."""
    for other, workman in enumerate(state.workmen):
        if other != seat and workman in card.squares:
            return "Another player's workman stands on that card."
    for ball in state.balls:
        if ball.square in card.squares and not (state.settings.later and ball.up):
            return "A ball is on that card."
    return None


# --- applying ----------------------------------------------------------------------------


def apply(state: GameState, action, seat: int) -> tuple[GameState, list[Event]]:
    """Apply `seat`'s action to a copy; raises RollerballBoardError saying what is allowed."""
    if state.is_view:
        raise RollerballBoardError("This is a player's view of the game, not the game itself.")
    if state.over:
        raise RollerballBoardError("The game is over.")
    if seat not in actors(state):
        raise RollerballBoardError(f"It is not your turn: {describe_next_step(state)}")
    new = state.clone()
    events: list[Event] = []
    _dispatch(new, action, seat, events)
    new.log.append((seat, format_action(action, state.settings.board)))
    _advance(new, events)
    return new, events


def _wrong(state: GameState, action) -> RollerballBoardError:
    return RollerballBoardError(f"That is not what the game waits for. {describe_next_step(state)}")


def _dispatch(state: GameState, action, seat: int, events: list[Event]) -> None:
    phase = state.phase
    board = geometry(state.settings.board)
    if phase == "bid" and isinstance(action, Bid):
        setup.secret_bid(state, seat, action.kinds, events)
    elif phase == "rebid" and isinstance(action, (Bid, Pass)):
        setup.rebid_action(state, seat, action.kinds if isinstance(action, Bid) else (), events)
    elif phase == "base" and isinstance(action, PlaceBase):
        if (problem := setup.base_problem(state, action.square)) is not None:
            raise RollerballBoardError(problem)
        setup.place_pieces(state, seat, action.square, "base", events)
    elif phase == "workman" and isinstance(action, PlaceWorkman):
        if not 0 <= action.square < state.settings.board**2:
            raise RollerballBoardError("Place your workman on a square of the board.")
        setup.place_pieces(state, seat, action.square, "workman", events)
    elif phase == "ball" and isinstance(action, PlaceBall):
        if action.square not in setup.ball_squares(state):
            raise RollerballBoardError("The ball goes on a track square with no base or workman.")
        setup.place_pieces(state, seat, action.square, "ball", events)
    elif phase == "cards" and isinstance(action, (PlaceCard, Pass)):
        if isinstance(action, Pass):
            state.passed[seat] = True
            events.append(
                Event(f"{seat_name(seat)} passes and places no more cards.", rules=(SET_UP,))
            )
        else:
            _place(state, seat, action, SETUP, events)
    elif phase == "decide":
        _decide(state, action, seat, events)
    elif phase == "turn" and state.turn_step == "move" and isinstance(action, Move):
        if action.start != state.workmen[seat]:
            raise RollerballBoardError(
                f"Your workman is on {board.name(state.workman_square(seat))}."
            )
        if action.end not in workman_reach(state, seat):
            how = "orthogonally " if state.settings.later else ""
            raise RollerballBoardError(
                f"Your workman moves up to 3 squares {how}and never onto or through a ball "
                "(unless it shows Up Rubber)."
            )
        state.workmen[seat] = action.end
        if action.end != action.start:
            # the earlier edition's workman moves any way, three steps (R8)
            rules = (TURN,) if state.settings.later else (TURN, "R8")
            events.append(
                Event(
                    f"{seat_name(seat)}'s workman moves to {board.name(action.end)}.", rules=rules
                )
            )
        state.turn_step = "action"
    elif phase == "turn" and state.turn_step == "action":
        _workman_action(state, action, seat, events)
        state.turn_step = "end"
    else:
        raise _wrong(state, action)


def _place(state: GameState, seat: int, action, mode: str, events: list[Event]) -> None:
    board = geometry(state.settings.board)
    kind = action.kind
    if kind not in _hand_kinds(state, seat):
        raise RollerballBoardError(f"You hold no {card_name(kind)}.")
    problem = placement_problem(state, seat, kind, action.first, action.second, mode)
    if problem is not None:
        raise RollerballBoardError(problem)
    (card,) = setup.take_cards(state, seat, (kind,))
    y = action.first if kind in SPLITTERS else None
    squares = tuple(sorted((action.first, action.second)))
    state.cards.append(BoardCard(card, kind, squares, y))
    where = f"{board.name(action.first)}-{board.name(action.second)}"
    note = f" (Y on {board.name(y)})" if y is not None else ""
    events.append(
        Event(
            f"{seat_name(seat)} places {with_article(card_name(kind))} on {where}{note}.",
            rules=(SET_UP if mode == SETUP else TURN, CARDS),
        )
    )


def _lift(state: GameState, seat: int, card: BoardCard) -> None:
    """Take a card off the board to the discards (movement.lift_card: nothing a ball expected
    of it happens)."""
    lift_card(state, card)
    state.discard.append(card.card)


def _workman_action(state: GameState, action, seat: int, events: list[Event]) -> None:
    board = geometry(state.settings.board)
    under = state.card_at(state.workman_square(seat))
    if isinstance(action, Pass):
        return
    if isinstance(action, Build):
        _place(state, seat, action, BUILD, events)
        return
    if not isinstance(action, (BlowUp, Replace)):
        raise _wrong(state, action)
    if isinstance(action, BlowUp) and not state.settings.later:
        raise RollerballBoardError("The earlier edition has no blow-up: build, replace or pass.")
    if under is None:
        raise RollerballBoardError("Your workman is not standing on a card.")
    if (problem := _card_problem(state, seat, under)) is not None:
        raise RollerballBoardError(problem)
    if isinstance(action, BlowUp):
        state.discard.extend(setup.take_cards(state, seat, (action.discard,)))
        _lift(state, seat, under)
        state.workmen[seat] = state.bases[seat]
        events.append(
            Event(
                f"{seat_name(seat)} blows up the {card_name(under.kind)} on {board.name(under.squares[0])}; the workman goes home.",
                rules=(TURN,),
            )
        )
        return
    state.discard.extend(setup.take_cards(state, seat, (REPLACER,)))
    _lift(state, seat, under)
    events.append(
        Event(
            f"{seat_name(seat)} plays a Replacer on the {card_name(under.kind)}.",
            rules=(CARDS, "R5"),
        )
    )
    _place(state, seat, action, BUILD, events)


def _decide(state: GameState, action, seat: int, events: list[Event]) -> None:
    decision = state.pending[0]
    board = geometry(state.settings.board)
    if decision.kind == "score" and isinstance(action, (Bank, Keep)):
        earned = decision.card
        if earned is None:
            raise ValueError("a score decision holds the card just earned")
        state.pending.pop(0)
        if isinstance(action, Bank):
            state.victory[seat].append(earned)
            count = len(state.victory[seat])
            events.append(
                Event(
                    f"{seat_name(seat)} banks the card: {plural(count):victory point}.",
                    rules=(TURN, "R18"),
                )
            )
            if count >= state.settings.target_vp:
                state.phase = "over"
                state.winners = [seat]
                # cards drawn for later decisions go back on top of the deck, unseen
                state.deck.extend(d.card for d in reversed(state.pending) if d.card is not None)
                state.pending.clear()
                events.append(
                    Event(
                        f"{seat_name(seat)} wins with {count} victory points!",
                        rules=(TURN, "R18", "R12"),
                    )
                )
        else:
            state.hands[seat].append(earned)
            events.append(Event(f"{seat_name(seat)} keeps the card in hand.", rules=(TURN,)))
    elif decision.kind == "take" and isinstance(action, (Take, Pass)):
        state.pending.pop(0)
        if isinstance(action, Pass):
            events.append(Event(f"{seat_name(seat)} takes no card.", rules=(TURN, "R7")))
            return
        card = state.card_at(action.square)
        if card is None:
            raise RollerballBoardError(f"There is no card on {board.name(action.square)}.")
        _lift(state, seat, card)
        state.discard.remove(card.card)
        state.pending.insert(0, Decision(seat, "score", card.card))
        events.append(
            Event(
                f"{seat_name(seat)} takes the {card_name(card.kind)} off {board.name(action.square)}.",
                rules=(TURN, "R7"),
            )
        )
    elif decision.kind == "discard" and isinstance(action, Discard):
        state.discard.extend(setup.take_cards(state, seat, (action.kind,)))
        state.pending.pop(0)
        events.append(
            Event(
                f"{seat_name(seat)} discards {with_article(card_name(action.kind))}.",
                rules=(TURN, "R13"),
            )
        )
    else:
        raise _wrong(state, action)


# --- the flow of a turn ------------------------------------------------------------------


def _advance(state: GameState, events: list[Event]) -> None:
    """Run what needs no decision: the end of set-up, ball movement, draws, the next turn."""
    while not state.over:
        if state.phase == "cards":
            placer = setup.next_placer(state)
            if placer is not None:
                state.current = placer
                return
            state.phase = "turn"
            state.current = state.bid_winner_seat()
            state.turn_number = 1
            state.turn_step = "start"
            events.append(
                Event(
                    f"Set-up done. {seat_name(state.current)} takes the first turn.",
                    rules=(SET_UP, "R10"),
                )
            )
            continue
        if state.phase not in ("turn", "decide"):
            return
        while (
            state.pending
            and state.pending[0].kind == "discard"
            and not state.hands[state.pending[0].seat]
        ):
            state.pending.pop(0)  # hit again with nothing left to discard
        if state.pending:
            state.phase = "decide"
            return
        state.phase = "turn"
        step = state.turn_step
        if step == "start":
            if not state.settings.later:
                _draw(state, state.current, events)
            state.turn_step = "balls"
        elif step == "balls":
            _move_balls(state, events)
            state.turn_step = "draw" if state.settings.later else "move"
        elif step == "draw":
            _draw(state, state.current, events)
            state.turn_step = "move"
        elif step == "end":
            state.current = (state.current + 1) % state.players
            state.turn_number += 1
            state.turn_step = "start"
            if state.turn_number > state.settings.turn_limit:
                _end_by_limit(state, events)
        else:
            return


def _end_by_limit(state: GameState, events: list[Event]) -> None:
    """Ruling "turn limit": the game ends; the most victory points win (a tie: all of them)."""
    best = max(len(pile) for pile in state.victory)
    state.winners = [s for s in range(state.players) if len(state.victory[s]) == best]
    state.phase = "over"
    names = ", ".join(seat_name(s) for s in state.winners)
    events.append(
        Event(f"The turn limit is reached. Most victory points ({best}): {names}.", rules=("R11",))
    )


def _draw(state: GameState, seat: int, events: list[Event]) -> None:
    """Draw up to the hand limit; an empty deck is made from the shuffled discards."""
    if len(state.hands[seat]) >= state.settings.hand_limit:
        return
    if not state.deck and state.discard:
        state.deck, state.discard = state.discard, []
        shuffle(state, state.deck)
        events.append(Event("The discards are shuffled into a new deck.", rules=(TURN, "R7")))
    if state.deck:
        state.hands[seat].append(state.deck.pop())
        events.append(Event(f"{seat_name(seat)} draws a card.", rules=(TURN,)))


def _move_balls(state: GameState, events: list[Event]) -> None:
    outcome = move_balls(state)
    state.discard.extend(outcome.smashed)
    summary = " ".join(outcome.texts) or "The balls roll on."
    # several balls move in lockstep and what they meet is settled together (R16)
    together = ("R16",) if len(state.balls) > 1 or len(outcome.frames[0]) > 1 else ()
    rules = tuple(dict.fromkeys((TURN, *outcome.rules, *together)))
    events.append(BallsMoved(summary, tuple(outcome.frames), rules=rules))
    for seat in outcome.scored:
        if state.deck:
            state.pending.append(Decision(seat, "score", state.deck.pop()))
        elif state.cards:
            state.pending.append(Decision(seat, "take"))
        else:
            events.append(
                Event(
                    f"No card is left for {seat_name(seat)}: deck and board are empty.",
                    rules=(TURN, "R7"),
                )
            )
    if state.settings.later:
        for seat in outcome.hits:
            kinds = _hand_kinds(state, seat)
            if len(kinds) == 1:
                state.discard.extend(setup.take_cards(state, seat, (kinds.pop(),)))
                events.append(Event(f"{seat_name(seat)} discards a card.", rules=(TURN, "R13")))
            elif kinds:
                state.pending.append(Decision(seat, "discard"))


# --- what a seat may see -----------------------------------------------------------------


def view_for(state: GameState, seat: int | None) -> GameState:
    """A copy showing only what `seat` (None: a spectator) may see: its own hand and banked
    cards; of the others only what is public: how many cards they hold (during the secret bid
    the five they were dealt, since the count kept would tell the count bid), how many they
    banked, whether they have bid (not what or how many until all have); no deck order, no
    card another seat earned and no seed. Everything shown to a seat, in text and in images,
    is derived from this view (docs/rules/rollerball.md "Hidden information")."""
    view = state.clone()
    view.seed = None
    view.rng_counter = 0
    view.viewer = seat
    view.is_view = True
    view.deck = [HIDDEN] * len(state.deck)
    secret_bid = state.phase == "bid"
    for other in range(state.players):
        if other == seat:
            continue
        held = len(state.hands[other])
        if secret_bid:
            held += len(state.bids[other] or ())
        view.hands[other] = [HIDDEN] * held
        view.victory[other] = [HIDDEN] * len(state.victory[other])
    if secret_bid:
        view.bids = [
            bid if (other == seat or bid is None) else [] for other, bid in enumerate(state.bids)
        ]
        view.log = [(s, text) for s, text in state.log if s == seat or not text.startswith("bid")]
    for decision in view.pending:
        if decision.seat != seat and decision.card is not None:
            decision.card = HIDDEN
    return view
