"""Ball movement (later edition turn step 1 / earlier edition turn step 2; docs/rules/rollerball.md
"Ball movement" and its rulings).

All balls move together, one space at a time in lockstep. Per space every ball steps at once:
to the next square clockwise on its ring, or across the track changer it was diverted by
(crossing uses one space, "The cards"); a rubber counter flips; a pending ball change applies on
the first square after the ball changer, if that card is still in place. Then what the balls
meet on the squares they entered is resolved together, against the board as it stood when
they arrived, so a ball's number never decides (docs/rules/rollerball.md ruling 16): balls
on their "up rubber" side meet nothing; an energised ball smashes the card it enters; balls
reaching a splitter's 'Y' together combine; a track changer entered from its leading ring
diverts or splits a ball, entered from the other side it is a dead end the ball hops over (the
square still counts, and a workman there is hit); a ball changer gives a pending change;
bases score; workmen are sent home. In the later edition two balls ending the move on one
square (not a splitter's Y) push: the one that got there first moves on one ordinary space
(ruling 2: on the same space, the lower number)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from rules.rollerball.cards import (
    BALL_CHANGERS,
    DERUBBERISER,
    ENERGISER,
    OUTWARD,
    RUBBERISER,
    SPLITTERS,
    TRACK_CHANGERS,
    card_name,
    with_article,
)
from rules.rollerball.events import CARDS, TURN, BallFrame
from rules.rollerball.geometry import geometry, next_table, ring_table
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
    #: the topics and rulings of docs/rules/rollerball.md that decided what the texts say
    rules: list[str] = field(default_factory=list)
    frames: list[tuple[BallFrame, ...]] = field(default_factory=list)
    #: per space, the squares balls not on their Up Rubber side entered (where a workman is hit)
    arrivals: list[set[int]] = field(default_factory=list)
    #: False in the computer's look-ahead: no texts are written (they cost more than the rules)
    words: bool = True
    #: square -> the card on it, kept while the balls move (cards only leave, when smashed)
    card_on: dict[int, BoardCard] = field(default_factory=dict)

    def say(self, text: str, *rules: str) -> None:
        self.texts.append(text)
        self.rules += [rule for rule in rules if rule not in self.rules]


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def card_ends(card: BoardCard, size: int) -> tuple[int, int]:
    """(entry, exit) of a track changer: an Up card leads from the inner ring to the outer one, a
    Down card from the outer to the inner (seed "Up Move"/"Down Move")."""
    return _ends(size, card.squares, card.kind in OUTWARD)


@cache
def _ends(size: int, squares: tuple[int, int], outward: bool) -> tuple[int, int]:
    rings = ring_table(size)
    a, b = squares
    outer, inner = (a, b) if rings[a] < rings[b] else (b, a)
    return (inner, outer) if outward else (outer, inner)


def snapshot(state: GameState) -> tuple[BallFrame, ...]:
    return tuple(BallFrame(b.id, b.square, b.state_name()) for b in state.balls)


def move_balls(state: GameState, frames: bool = True, words: bool = True) -> Outcome:
    """Move every ball its spaces for this turn; changes `state` (a working copy) in place.
    `frames=False` leaves out the animation frames and `words=False` the texts (the computer's
    look-ahead needs neither); what happens is the same."""
    outcome = Outcome(frames=[snapshot(state)] if frames else [], words=words)
    outcome.card_on = {square: card for card in state.cards for square in card.squares}
    arrival: dict[int, int] = {ball.id: -1 for ball in state.balls}
    clock = 0
    for _ in range(state.settings.ball_spaces):
        clock += 1
        _step(state, list(state.balls), outcome, arrival, clock)
        if frames:
            outcome.frames.append(snapshot(state))
    if state.settings.later:
        for _ in range(MAX_PUSHES):
            pushed = _next_pushed(state, arrival)
            if pushed is None:
                break
            clock += 1
            if outcome.words:
                outcome.say(
                    f"Two balls meet on {_name(state, pushed.square)}: one is pushed on.",
                    TURN,
                    "R2",
                )
            _step(state, [pushed], outcome, arrival, clock)
            if frames:
                outcome.frames.append(snapshot(state))
    if len(outcome.texts) > 1:
        outcome.texts = _said_once(outcome.texts, state.players)
    return outcome


def _said_once(texts: list[str], players: int) -> list[str]:
    """A base passed or a workman hit more than once in a turn is said once, with the count,
    where it first happened (each pass still earns its card, each hit its discard)."""
    repeated = {}
    for seat in range(players):
        repeated[_base_text(seat)] = f"Balls run over {seat_name(seat)}'s base {{often}}."
        repeated[_hit_text(seat)] = (
            f"Balls hit {seat_name(seat)}'s workman {{often}}: back to base."
        )
    said = []
    for index, text in enumerate(texts):
        times = texts.count(text)
        if text not in repeated or times == 1:
            said.append(text)
        elif texts.index(text) == index:
            said.append(repeated[text].format(often="twice" if times == 2 else f"{times} times"))
    return said


def _name(state: GameState, square: int) -> str:
    return geometry(state.settings.board).name(square)


def _y_squares(state: GameState) -> set[int]:
    return {card.y for card in state.cards if card.y is not None}


def _next_pushed(state: GameState, arrival: dict[int, int]) -> Ball | None:
    """Later edition: a ball ending in another's space (not a splitter's Y) pushes it on a space.
    The ball pushed is the one that got there first (same space: the lower number)."""
    if len({ball.square for ball in state.balls}) == len(state.balls):
        return None
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
    """One space for every ball in `moving` at once, then what they meet, judged together."""
    following = next_table(state.settings.board)
    entered: list[tuple[Ball, bool]] = []
    for ball in moving:
        cross_to = ball.cross_to
        crossed = cross_to is not None
        left = ball.square
        ball.square = cross_to if cross_to is not None else following[ball.square]
        ball.cross_to = None
        arrival[ball.id] = clock
        if ball.rubber:
            ball.rubber = "down" if ball.rubber == "up" else "up"
        if ball.change is not None:
            _settle_change(state, ball, left, outcome)
        entered.append((ball, crossed))
    _resolve_arrivals(state, entered, outcome)


def _settle_change(state: GameState, ball: Ball, left: int, outcome: Outcome) -> None:
    """Seed: "A ball counter is changed from the moment it leaves the Ball Changer card". The
    change belongs to the card the ball met: it applies only if that card is still on the board
    where the ball met it, under the square the ball has just left (a card smashed, blown up,
    replaced or taken meanwhile changes nothing; its id built again elsewhere is another
    card). Ruling 15 on docs/rules/rollerball.md."""
    changer = next((c for c in state.cards if c.card == ball.change_card), None)
    if changer is None or changer.kind != ball.change or left not in changer.squares:
        ball.change, ball.change_card = None, None
        return
    if ball.square not in changer.squares:
        _apply_change(ball, outcome, state)


def lift_card(state: GameState, card: BoardCard) -> None:
    """Take `card` off the board (smashed, blown up, replaced or taken by a scorer) and with it
    everything a ball still expected of it: a ball it had diverted goes straight on, a change
    it would have made is not made. Every way a card leaves the board goes through here."""
    state.cards.remove(card)
    for ball in state.balls:
        if ball.cross_to in card.squares:
            ball.cross_to = None
        if ball.change_card == card.card:
            ball.change, ball.change_card = None, None


def _resolve_arrivals(state: GameState, entered: list[tuple[Ball, bool]], outcome: Outcome) -> None:
    """Everything the balls meet on the squares they have just entered, resolved together so
    that the balls' numbers never decide (docs/rules/rollerball.md ruling 16, "Lockstep,
    settled together"): every ball is judged against the board as it stood when they all arrived.

    A ball on its Up Rubber side meets nothing. Per card: an energised ball arriving on it
    smashes it, and then it is not there for any ball arriving with it; else balls arriving
    together on a splitter's Y (earlier edition: anywhere on the splitter) combine; else each
    ball meets the card alone. Splits that would together pass the four-ball limit all fail.
    Then bases (each ball scores) and workmen (each one standing where a ball arrived is hit,
    once, and goes home; a workman sent home is not hit there by a ball arriving on the same
    space)."""
    live = [(ball, crossed) for ball, crossed in entered if not ball.up]
    # where the balls arrived, before a card moves any of them on (a combined ball is put on
    # the Y): a workman is hit where a ball moved over him (ruling 16)
    squares = {ball.square for ball, _ in live}
    splits: list[tuple[Ball, BoardCard, int]] = []
    if outcome.card_on and live:
        card_on = outcome.card_on
        met: dict[int, tuple[BoardCard, list[tuple[Ball, bool]]]] = {}
        for ball, crossed in live:
            card = card_on.get(ball.square)
            if card is not None:
                met.setdefault(id(card), (card, []))[1].append((ball, crossed))
        for card, arrivals in met.values():
            _arrive_on_card(state, card, arrivals, splits, outcome)
    fits = len(state.balls) + len(splits) <= MAX_BALLS
    for ball, card, exit_square in splits:
        if fits:
            twin = Ball(state.next_ball, ball.square, False, ball.rubber, exit_square)
            state.next_ball += 1
            state.balls.append(twin)
            if outcome.words:
                outcome.say(
                    f"A ball splits in two on the {card_name(card.kind)} at {_name(state, ball.square)}.",
                    CARDS,
                    "R1",
                )
        else:  # 4 balls, or more splits at once than room: a Move card (seed; ruling 16)
            ball.cross_to = exit_square
    on_board = {id(ball) for ball in state.balls}
    arrived = [ball for ball, _ in live if id(ball) in on_board]
    for ball in arrived:
        for seat, base in enumerate(state.bases):
            if base == ball.square:
                outcome.scored.append(seat)
                if outcome.words:  # an Up Rubber ball met nothing: it does not score (R14)
                    outcome.say(_base_text(seat), TURN, "R14")
    outcome.arrivals.append(squares)
    hit = [seat for seat, workman in enumerate(state.workmen) if workman in squares]
    for seat in hit:
        state.workmen[seat] = state.bases[seat]
        outcome.hits.append(seat)
        if outcome.words:
            outcome.say(_hit_text(seat), TURN, "R9")


def _arrive_on_card(
    state: GameState,
    card: BoardCard,
    arrivals: list[tuple[Ball, bool]],
    splits: list[tuple[Ball, BoardCard, int]],
    outcome: Outcome,
) -> None:
    """The balls (not Up) that entered `card`'s squares on this space, with whether each
    crossed it (a ball crossing the card it was diverted by does not meet it again)."""
    meeting = [ball for ball, crossed in arrivals if not crossed]
    smashers = [ball for ball in meeting if ball.energised]
    if smashers:
        _smash(state, card, smashers, outcome)
        return
    if card.kind in SPLITTERS:
        spots = {card.y} if state.settings.later else set(card.squares)
        group = [ball for ball, _ in arrivals if ball.square in spots]
        if len(group) >= 2:
            _combine(state, card, group, outcome)
            meeting = [ball for ball in meeting if ball not in group]
    for ball in meeting:
        split_to = _meet_card(state, ball, card, outcome)
        if split_to is not None:
            splits.append((ball, card, split_to))


def _base_text(seat: int) -> str:
    return f"A ball runs over {seat_name(seat)}'s base."


def _hit_text(seat: int) -> str:
    return f"A ball hits {seat_name(seat)}'s workman: back to base."


def _apply_change(ball: Ball, outcome: Outcome, state: GameState) -> None:
    """Seed: "A ball counter is changed from the moment it leaves the Ball Changer card"."""
    change, ball.change, ball.change_card = ball.change, None, None
    if change is None:
        return  # no ball changer was changing it
    if change == ENERGISER:
        ball.energised = True
    elif change == RUBBERISER:
        ball.rubber = "up"  # seed: "The first square after leaving the Rubberiser, the ball is Up"
    elif change == DERUBBERISER:
        ball.rubber = None
    if outcome.words:
        outcome.say(
            f"A ball leaves {with_article(card_name(change))} on {_name(state, ball.square)}: "
            f"it is now {ball.state_name()}.",
            CARDS,
            "R15",
        )


def _smash(state: GameState, card: BoardCard, smashers: list[Ball], outcome: Outcome) -> None:
    """Seed "Energiser": the card is removed and discarded, "even if it is another energiser",
    and the ball is normal again. Every energised ball arriving on it hits it."""
    lift_card(state, card)
    for square in card.squares:
        outcome.card_on.pop(square, None)
    outcome.smashed.append(card.card)
    for ball in smashers:
        ball.energised = False
    who = "An energised ball smashes" if len(smashers) == 1 else "Energised balls smash"
    if outcome.words:
        # a track changer met from its wrong side is a dead end, and is still smashed (R6)
        dead_end = card.kind in TRACK_CHANGERS and any(
            ball.square != card_ends(card, state.settings.board)[0] for ball in smashers
        )
        outcome.say(
            f"{who} the {card_name(card.kind)} at {_name(state, smashers[0].square)}.",
            CARDS,
            *(("R6",) if dead_end else ()),
        )


def _combine(state: GameState, card: BoardCard, group: list[Ball], outcome: Outcome) -> None:
    """Balls arriving together at a splitter combine into one, which carries on along the ring
    of the Y. Later edition: both must hit the Y square (rubber balls "Down"); earlier edition:
    both must enter the splitter. The combined ball keeps the lowest number; it is rubber
    (Down) if any of them was, so which ball is which never matters (ruling 16). Where none
    of them is on the Y (earlier edition), the ball goes on as a lone ball on that square would,
    without splitting: from the entry square across the card, else along its own ring
    (ruling 19)."""
    survivor = min(group, key=lambda b: b.id)
    survivor.cross_to = None
    on_y = card.y is not None and any(ball.square == card.y for ball in group)
    if on_y and card.y is not None:
        survivor.square = card.y
    else:
        entry, exit_square = card_ends(card, state.settings.board)
        if survivor.square == entry:
            survivor.cross_to = exit_square
    if any(ball.rubber for ball in group):
        survivor.rubber = "down"
    for ball in group:
        if ball is not survivor:
            state.balls.remove(ball)
    if outcome.words:
        outcome.say(
            f"{len(group)} balls combine on the {card_name(card.kind)} at {_name(state, survivor.square)}.",
            CARDS,
            "R1",
            "R16",
            *(() if on_y else ("R19",)),
        )


def _meet_card(state: GameState, ball: Ball, card: BoardCard, outcome: Outcome) -> int | None:
    """A ball (not energised, not Up) entering a card alone. Returns the square its twin would
    cross to when it splits (the caller checks the four-ball limit for all splits at once)."""
    if card.kind in BALL_CHANGERS:
        if ball.change_card != card.card:
            ball.change, ball.change_card = card.kind, card.card
        return None
    if card.kind not in TRACK_CHANGERS:
        return None
    entry, exit_square = card_ends(card, state.settings.board)
    if ball.square != entry:
        if outcome.words:
            outcome.say(
                f"A ball meets the {card_name(card.kind)} at {_name(state, ball.square)} from the "
                "wrong side and hops over it.",
                CARDS,
                "R17",
            )
        return None
    if card.kind in SPLITTERS and card.y == entry:
        return exit_square
    ball.cross_to = exit_square
    return None
