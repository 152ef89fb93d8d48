"""Computer players. They read only a view (engine.view_for of their seat) and choose among
legal_actions. "random" picks any legal action; "sensible" looks a round ahead by running the
ball movement on a copy of the public board: it steers balls over its base, away from the
others' bases, and keeps its workman off the balls' path."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.rollerball.actions import (
    Bank,
    Bid,
    BlowUp,
    Build,
    Discard,
    Move,
    Pass,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    PlaceWorkman,
    Replace,
    Take,
)
from rules.rollerball.cards import kind_of
from rules.rollerball.engine import card_placements, legal_actions
from rules.rollerball.geometry import geometry, orthogonal_neighbours
from rules.rollerball.movement import move_balls
from rules.rollerball.placement import BUILD
from rules.rollerball.state import Ball, BoardCard, GameState

LEVELS = ("sensible", "random")
#: Least useful first: what the sensible player bids and discards.
THROWAWAY = (
    "replacer",
    "derubberiser",
    "rubberiser",
    "energiser",
    "split-down",
    "split-up",
    "down-move",
    "up-move",
)
OWN_PASS = 1.0
OTHER_PASS = 0.5
OWN_HIT = 1.0
DISCOUNT = 0.9
MAX_SETUP_CANDIDATES = 48
MAX_BUILD_CANDIDATES = 40
RING_POTENTIAL = 1.0
BID_COUNT = 3
HORIZON_ROUNDS = 2


def choose_action(view: GameState, rng: random.Random, level: str = "sensible"):
    """The computer's action for the seat `view` was made for."""
    seat = view.viewer
    if seat is None:
        raise ValueError("the computer plays from a seat's view, not a spectator's")
    actions = legal_actions(view, seat)
    if not actions:
        raise ValueError("this seat has nothing to do now")
    if level == "random" or len(actions) == 1:
        return rng.choice(actions)
    first = actions[0] if not isinstance(actions[0], Pass) else actions[-1]
    match first:
        case Bid():
            return _bid(view, seat, actions)
        case PlaceBase():
            return _base(view, actions, rng)
        case PlaceWorkman():
            return _workman(view, seat, actions)
        case PlaceBall():
            return _best(view, seat, actions, rng)
        case PlaceCard() | Build() | BlowUp() | Replace():
            return _best(view, seat, actions, rng, sample=MAX_SETUP_CANDIDATES)
        case Move():
            return _move(view, seat, actions, rng)
        case Bank():
            return Bank()
        case Take():
            # the card taken is banked: always take one, the one whose loss hurts me least
            takes = [a for a in actions if isinstance(a, Take)]
            if len(takes) > MAX_SETUP_CANDIDATES:
                takes = rng.sample(takes, MAX_SETUP_CANDIDATES)
            forecast = Forecast(view, seat)
            return max(takes, key=lambda a: forecast.value_after(view, a))
        case Discard():
            return min(actions, key=lambda a: THROWAWAY.index(a.kind))
    return rng.choice(actions)


def _bid(view: GameState, seat: int, actions: list):
    """Bid up to three of the least useful cards in the secret bid; never raise in a re-bid."""
    if view.phase == "rebid":
        return Pass()
    kinds = sorted((kind_of(c) for c in view.hands[seat]), key=_throwaway_rank)
    chosen = tuple(sorted(k for k in kinds[:BID_COUNT] if k in THROWAWAY[:4]))
    return Bid(chosen) if Bid(chosen) in actions else actions[0]


def _throwaway_rank(kind: str) -> int:
    return THROWAWAY.index(kind)


def _base(view: GameState, actions: list, rng: random.Random):
    """On the innermost ring allowed: a shorter ring brings a ball round to the base sooner."""
    board = geometry(view.settings.board)
    best_ring = max(board.ring(a.square) for a in actions)
    return rng.choice([a for a in actions if board.ring(a.square) == best_ring])


def _workman(view: GameState, seat: int, actions: list):
    """Next to his base, off the outer ring, on the centre side."""
    board = geometry(view.settings.board)
    bx, by = board.xy(view.base_square(seat))
    centre = board.size // 2

    def distance(action) -> tuple[int, int]:
        x, y = board.xy(action.square)
        return (
            abs(x - bx) + abs(y - by) + (3 if board.ring(action.square) == 1 else 0),
            abs(x - centre) + abs(y - centre),
        )

    return min(actions, key=distance)


# --- looking ahead -------------------------------------------------------------------------


def _sim_state(view: GameState) -> GameState:
    """Only what the ball movement reads: board, balls, bases, workmen."""
    return GameState(
        settings=view.settings,
        seed=None,
        bases=list(view.bases),
        workmen=list(view.workmen),
        cards=[BoardCard(c.card, c.kind, c.squares, c.y) for c in view.cards],
        balls=[
            Ball(b.id, b.square, b.energised, b.rubber, b.cross_to, b.change, b.change_card)
            for b in view.balls
        ],
        next_ball=view.next_ball,
    )


def horizon(view: GameState) -> int:
    """Two rounds and one more turn (four rounds in the earlier edition, where the balls move one
    square a turn): every seat's turn moves the balls."""
    rounds = HORIZON_ROUNDS if view.settings.later else 2 * HORIZON_ROUNDS
    return rounds * view.players + 1


def value(view: GameState, seat: int, turns: int | None = None) -> float:
    """Balls over my base, minus over the others', minus hits on my workman before he can move
    again, over the coming turns; then the balls left on my base's ring."""
    sim = _sim_state(view)
    total = 0.0
    weight = 1.0
    # my workman stands where he is only until my next turn's move
    exposed = view.players
    for turn in range(turns or horizon(view)):
        outcome = move_balls(sim, frames=False, words=False)
        for scored in outcome.scored:
            total += weight * (OWN_PASS if scored == seat else -OTHER_PASS)
        for hit in outcome.hits:
            if hit == seat and turn < exposed:
                total -= weight * OWN_HIT
        weight *= DISCOUNT
    return total + weight * _ring_potential(sim, seat)


def _ring_potential(sim: GameState, seat: int) -> float:
    """After the look-ahead: a ball on my base's ring will come round to it, one on another
    base's ring to theirs."""
    board = geometry(sim.settings.board)
    base_rings = [None if b is None else board.ring(b) for b in sim.bases]
    total = 0.0
    for ball in sim.balls:
        ring = board.ring(ball.square)
        for other, base_ring in enumerate(base_rings):
            if base_ring == ring:
                total += RING_POTENTIAL if other == seat else -RING_POTENTIAL * OTHER_PASS
    return total


@dataclass
class _Turn:
    """One turn of a forecast: the balls and cards at its start, the bases passed, per space
    the squares where a workman would be hit, and every square a ball stood on or entered."""

    balls: list[Ball]
    cards: list[BoardCard]
    next_ball: int
    scored: list[int]
    arrivals: list[set[int]]
    touched: set[int]


def _copy_balls(balls: list[Ball]) -> list[Ball]:
    return [
        Ball(b.id, b.square, b.energised, b.rubber, b.cross_to, b.change, b.change_card)
        for b in balls
    ]


class Forecast:
    """The balls' coming turns on the public board, played once per decision, from which every
    candidate's value() is worked out exactly without playing the same turns again.

    The balls' movement never depends on the workmen, so the forecast runs without them and a
    workman's hits are counted from the squares entered on each space. A candidate that puts a
    card on (or takes one off) squares S changes nothing until the first turn in which a ball
    stands on or enters a square of S: its turns before that are the forecast's, and only the
    rest is played again from the forecast's position at that turn, with the change made. The
    sums are added in the same order as value(), so the result is the same number
    (tests/rules/rollerball/test_ai.py checks it)."""

    def __init__(self, view: GameState, seat: int) -> None:
        self.seat = seat
        self.exposed = view.players  # my workman stands where he is until my next move
        self.bases = list(view.bases)
        self.settings = view.settings
        self.players = view.players
        sim = _sim_state(view)
        sim.workmen = [None] * len(sim.workmen)
        self.turns: list[_Turn] = []
        self.first_visits: dict[int, int] = {}
        path = {b.square for b in sim.balls}
        for number in range(horizon(view)):
            balls, cards, next_ball = _copy_balls(sim.balls), list(sim.cards), sim.next_ball
            outcome = move_balls(sim, words=False)
            touched = {b.square for b in balls}
            for frame in outcome.frames:
                touched.update(f.square for f in frame)
            for frame in outcome.frames[1:]:
                for ball in frame:
                    if not ball.state.startswith("up"):
                        self.first_visits.setdefault(ball.square, number)
            path |= touched
            self.turns.append(
                _Turn(balls, cards, next_ball, outcome.scored, outcome.arrivals, touched)
            )
        self.final = sim
        #: change key -> (first turn played again, its turns' (scored, arrivals), final board)
        self.played: dict = {}
        following = geometry(view.settings.board).next_on_ring
        self.path = path | {following(square) for square in path}

    def _tally(self, turn: int, scored: list[int], arrivals: list[set[int]], state: list) -> None:
        """Add one turn to `state` = [total, weight, workman square] as value() does."""
        total, weight, workman = state
        seat = self.seat
        for scorer in scored:
            total += weight * (OWN_PASS if scorer == seat else -OTHER_PASS)
        if workman is not None:
            for squares in arrivals:
                if workman in squares:
                    workman = self.bases[seat]
                    if turn < self.exposed:
                        total -= weight * OWN_HIT
        state[:] = [total, weight * DISCOUNT, workman]

    def value(self, workman: int | None, squares=frozenset(), change=None, key=None) -> float:
        """value() of the board after `change` (a function changing a board's cards; it may
        touch only `squares`) with my workman starting on `workman` (None: off the board).
        `key` names the change: the turns played again for it are kept for the same change
        with my workman elsewhere (a card built from either of its squares)."""
        played = self.played.get(key) if key is not None else None
        if played is None:
            played = self._play(squares, change)
            if key is not None:
                self.played[key] = played
        diverge, rest, sim = played
        state = [0.0, 1.0, workman]
        for number in range(diverge):
            turn = self.turns[number]
            self._tally(number, turn.scored, turn.arrivals, state)
        for number, (scored, arrivals) in enumerate(rest, diverge):
            self._tally(number, scored, arrivals, state)
        return state[0] + state[1] * _ring_potential(sim, self.seat)

    def _play(self, squares, change) -> tuple[int, list, GameState]:
        """The turns from the first one in which a ball meets `squares`, played again after
        `change`: (that turn, each turn's (scored, arrivals), the board at the end)."""
        diverge = len(self.turns)
        if squares:
            diverge = next(
                (k for k, turn in enumerate(self.turns) if turn.touched & squares), diverge
            )
        if diverge == len(self.turns):
            return diverge, [], self.final
        start = self.turns[diverge]
        sim = GameState(
            settings=self.settings,
            seed=None,
            bases=list(self.bases),
            workmen=[None] * self.players,
            cards=list(start.cards),
            balls=_copy_balls(start.balls),
            next_ball=start.next_ball,
        )
        if change is not None:
            change(sim)
        rest = []
        for _ in range(diverge, len(self.turns)):
            outcome = move_balls(sim, frames=False, words=False)
            rest.append((outcome.scored, outcome.arrivals))
        return diverge, rest, sim

    def value_after(self, view: GameState, action) -> float:
        """value(_after(view, seat, action), seat), worked out from the forecast."""
        seat = self.seat
        workman = view.workmen[seat]
        match action:
            case (
                PlaceCard(kind, first, second)
                | Build(kind, first, second)
                | Replace(kind, first, second)
            ):
                card = _new_card(kind, first, second)
                squares = {first, second}
                lifted = (
                    view.card_at(workman)
                    if isinstance(action, Replace) and workman is not None
                    else None
                )
                if lifted is not None:
                    squares |= set(lifted.squares)

                def change(sim: GameState) -> None:
                    if lifted is not None:
                        sim.cards = [c for c in sim.cards if workman not in c.squares]
                    sim.cards.append(card)

                key = ("card", kind, first, second, lifted.squares if lifted else None)
                return self.value(workman, frozenset(squares), change, key)
            case BlowUp():
                lifted = view.card_at(workman) if workman is not None else None
                squares = frozenset(lifted.squares) if lifted is not None else frozenset()

                def blow_up(sim: GameState) -> None:
                    sim.cards = [c for c in sim.cards if workman not in c.squares]

                return self.value(view.bases[seat], squares, blow_up, ("lift", squares))
            case Take(square):
                taken = view.card_at(square)
                squares = frozenset(taken.squares) if taken is not None else frozenset()

                def take(sim: GameState) -> None:
                    sim.cards = [c for c in sim.cards if square not in c.squares]

                return self.value(workman, squares, take, ("lift", squares))
        return value(_after(view, seat, action), seat)


def _new_card(kind: str, first: int, second: int) -> BoardCard:
    y = first if kind.startswith("split") else None
    return BoardCard(-1, kind, (min(first, second), max(first, second)), y)


def _after(view: GameState, seat: int, action) -> GameState:
    """The public board after the action (cards placed or lifted), for value()."""
    sim = _sim_state(view)
    match action:
        case PlaceBall(square):
            sim.balls.append(Ball(sim.next_ball, square))
        case (
            PlaceCard(kind, first, second)
            | Build(kind, first, second)
            | Replace(kind, first, second)
        ):
            if isinstance(action, Replace):
                sim.cards = [c for c in sim.cards if sim.workmen[seat] not in c.squares]
            y = first if kind.startswith("split") else None
            sim.cards.append(BoardCard(-1, kind, (min(first, second), max(first, second)), y))
        case BlowUp():
            sim.cards = [c for c in sim.cards if sim.workmen[seat] not in c.squares]
            sim.workmen[seat] = sim.bases[seat]
        case Take(square):
            sim.cards = [c for c in sim.cards if square not in c.squares]
    return sim


def _touches(action, path: set[int]) -> bool:
    squares = {
        getattr(action, name) for name in ("first", "second", "square") if hasattr(action, name)
    }
    return not squares or bool(squares & path) or isinstance(action, (BlowUp, Replace))


def _best(view: GameState, seat: int, actions: list, rng: random.Random, sample: int | None = None):
    """The action with the best look-ahead value; Pass unless something is clearly better."""
    forecast = Forecast(view, seat)
    path = forecast.path if view.balls else set()
    candidates = [a for a in actions if not isinstance(a, Pass) and (not path or _touches(a, path))]
    if sample and len(candidates) > sample:
        candidates = rng.sample(candidates, sample)
    base_value = forecast.value(view.workmen[seat])
    best, best_value = (Pass() if Pass() in actions else None), base_value + 0.05
    for action in candidates:
        score = forecast.value_after(view, action)
        if isinstance(action, (BlowUp, Replace)):
            score -= 0.3  # they cost a card more than building
        if score > best_value:
            best, best_value = action, score
    return best if best is not None else rng.choice(actions)


def _move(view: GameState, seat: int, actions: list, rng: random.Random):
    """Where the workman is safe and can do the most good: each square in reach is worth the
    look-ahead value of standing there, or of the best card he could put down from there (a card
    covers his square, so only squares on or next to the balls' path are worth a card)."""
    reach = {move.end for move in actions}
    forecast = Forecast(view, seat)
    danger = forecast.first_visits
    base_value = forecast.value(None)
    best_square, best_score = None, float("-inf")
    for square in sorted(reach):
        hit_turn = danger.get(square, horizon(view))
        # he is hit only if a ball comes before his next move
        score = base_value - (OWN_HIT * DISCOUNT**hit_turn if hit_turn < view.players else 0.0)
        score -= 0.01 * _distance(view, square, view.base_square(seat))
        if score > best_score:
            best_square, best_score = square, score
    builds = _build_options(view, seat, reach, set(danger))
    if len(builds) > MAX_BUILD_CANDIDATES:
        builds = rng.sample(builds, MAX_BUILD_CANDIDATES)
    for square, build in builds:
        card = _new_card(build.kind, build.first, build.second)
        squares = frozenset((build.first, build.second))
        key = ("card", build.kind, build.first, build.second, None)
        score = forecast.value(square, squares, lambda sim, c=card: sim.cards.append(c), key)
        score -= 0.05
        if score > best_score:
            best_square, best_score = square, score
    if best_square is None:
        raise ValueError("the workman has no square in reach")
    return Move(view.workman_square(seat), best_square)


def _build_options(view: GameState, seat: int, reach: set[int], path: set[int]) -> list:
    """(square, Build) for every card from hand the workman could build after moving to
    `square`, when the card touches the balls' path."""
    options = []
    moved = view.clone()
    moved.turn_step = "action"
    for square in sorted(reach):
        if square not in path and not any(
            n in path for n in orthogonal_neighbours(view.settings.board, square)
        ):
            continue
        moved.workmen[seat] = square
        for action in card_placements(moved, seat, Build, BUILD):
            if action.first in path or action.second in path:
                options.append((square, action))
    return options


def _distance(view: GameState, a: int, b: int) -> int:
    board = geometry(view.settings.board)
    (ax, ay), (bx, by) = board.xy(a), board.xy(b)
    return abs(ax - bx) + abs(ay - by)
