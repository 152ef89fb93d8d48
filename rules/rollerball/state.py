"""The game state: everything the engine needs, plain data that round-trips through JSON.

The engine never changes a state it was given: `apply` works on `clone()`. Hidden information
(hands, deck order, secret bids, the seed) lives here; `engine.view_for` makes the redacted copy a
seat or a spectator may see."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from rules.rollerball.errors import RollerballBoardError

LATER = "later"
EARLIER = "earlier"
EDITIONS = (LATER, EARLIER)


@dataclass(frozen=True)
class Settings:
    """A match's options. `edition` is "later" or "earlier" (docs/rules/rollerball.md: both
    editions are playable). The 11 by 11 board is offered only for 5-6 players ("The board").
    `turn_limit` ends a game nobody can win (docs/rules/rollerball.md, ruling 11 "Turn limit"); 0
    means the edition's default."""

    edition: str = LATER
    players: int = 4
    board: int = 9
    target_vp: int = 5
    turn_limit: int = 0

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise RollerballBoardError('The edition is "later" or "earlier".')
        if not 2 <= self.players <= 6:
            raise RollerballBoardError("Rollerball is for 2 to 6 players.")
        if self.board not in (9, 11) or (self.board == 11 and self.players < 5):
            raise RollerballBoardError("The board is 9 by 9; 11 by 11 only for 5 or 6 players.")
        if not 1 <= self.target_vp <= 20:
            raise RollerballBoardError("The target is 1 to 20 victory points.")
        if self.turn_limit <= 0:
            # 400 turns; 800 in the earlier edition, whose balls move half as far a turn
            object.__setattr__(self, "turn_limit", 400 if self.later else 800)

    @property
    def later(self) -> bool:
        return self.edition == LATER

    @property
    def hand_limit(self) -> int:
        """Draw up to 4 (later edition, turn step 2) or 5 (earlier edition, turn step 1)."""
        return 4 if self.later else 5

    @property
    def ball_spaces(self) -> int:
        """Balls move two spaces a turn (later edition) or one square (earlier edition)."""
        return 2 if self.later else 1


@dataclass
class Ball:
    """A ball and its counter. `rubber` is None, "up" or "down" (the side showing on the square
    it is on). `cross_to` is set while the ball sits on a track changer's entry square it was
    diverted by: its next space is that square. `change`/`change_card` remember the ball changer
    it is crossing; the change applies on the first square after that card (seed: "changed from
    the moment it leaves the Ball Changer card")."""

    id: int
    square: int
    energised: bool = False
    rubber: str | None = None
    cross_to: int | None = None
    change: str | None = None
    change_card: int | None = None

    @property
    def up(self) -> bool:
        """An Up Rubber ball: unaffected by cards, bases and workmen (seed: Rubberiser)."""
        return self.rubber == "up"

    def state_name(self) -> str:
        parts = []
        if self.rubber:
            parts.append(f"{self.rubber} rubber")
        if self.energised:
            parts.append("energised")
        return " and ".join(parts) or "normal"


@dataclass
class BoardCard:
    """A card on the board. `squares` are the two squares it covers (sorted); `y` is the square
    of a splitter's 'Y' (None for other cards)."""

    card: int
    kind: str
    squares: tuple[int, int]
    y: int | None = None


@dataclass
class Decision:
    """A choice the rules give a player in the middle of someone's turn: "score" (bank the card
    just earned as a victory point or keep it), "take" (deck empty: take a card from the board or
    not), "discard" (workman hit, later edition: discard a card)."""

    seat: int
    kind: str
    card: int | None = None


@dataclass
class Rebid:
    """The open re-bid among the tied top bidders (seed "Setup"). `order` is clockwise from the
    dealer; `out` those who dropped out; `leader` who raised last."""

    order: list[int]
    turn: int = 0
    out: list[int] = field(default_factory=list)
    leader: int | None = None


@dataclass
class GameState:
    settings: Settings
    seed: int | None
    rng_counter: int = 0
    dealer: int = 0
    phase: str = "bid"
    current: int = 0
    turn_step: str = ""
    turn_number: int = 0
    bid_winner: int | None = None
    hands: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    victory: list[list[int]] = field(default_factory=list)
    bids: list[list[int] | None] = field(default_factory=list)
    bid_totals: list[int] = field(default_factory=list)
    rebid: Rebid | None = None
    bases: list[int | None] = field(default_factory=list)
    workmen: list[int | None] = field(default_factory=list)
    cards: list[BoardCard] = field(default_factory=list)
    balls: list[Ball] = field(default_factory=list)
    next_ball: int = 1
    passed: list[bool] = field(default_factory=list)
    pending: list[Decision] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)
    #: set in a view: the seat it was made for (None for a spectator); never in a real state.
    viewer: int | None = None
    is_view: bool = False

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def players(self) -> int:
        return self.settings.players

    def clone(self) -> GameState:
        return GameState(
            settings=self.settings,
            seed=self.seed,
            rng_counter=self.rng_counter,
            dealer=self.dealer,
            phase=self.phase,
            current=self.current,
            turn_step=self.turn_step,
            turn_number=self.turn_number,
            bid_winner=self.bid_winner,
            hands=[list(hand) for hand in self.hands],
            deck=list(self.deck),
            discard=list(self.discard),
            victory=[list(pile) for pile in self.victory],
            bids=[None if bid is None else list(bid) for bid in self.bids],
            bid_totals=list(self.bid_totals),
            rebid=None
            if self.rebid is None
            else Rebid(
                list(self.rebid.order), self.rebid.turn, list(self.rebid.out), self.rebid.leader
            ),
            bases=list(self.bases),
            workmen=list(self.workmen),
            cards=[BoardCard(c.card, c.kind, c.squares, c.y) for c in self.cards],
            balls=[Ball(**asdict(ball)) for ball in self.balls],
            next_ball=self.next_ball,
            passed=list(self.passed),
            pending=[Decision(d.seat, d.kind, d.card) for d in self.pending],
            winners=list(self.winners),
            log=list(self.log),
            viewer=self.viewer,
            is_view=self.is_view,
        )

    def bid_winner_seat(self) -> int:
        """Who won the bid: decided before any piece is placed (seed "Setup")."""
        if self.bid_winner is None:
            raise ValueError("the bid is not decided yet")
        return self.bid_winner

    def workman_square(self, seat: int) -> int:
        """Where the seat's workman stands: on the board from set-up on."""
        square = self.workmen[seat]
        if square is None:
            raise ValueError(f"seat {seat}'s workman is not on the board yet")
        return square

    def base_square(self, seat: int) -> int:
        """Where the seat's base is: on the board from set-up on."""
        square = self.bases[seat]
        if square is None:
            raise ValueError(f"seat {seat}'s base is not on the board yet")
        return square

    def card_at(self, square: int) -> BoardCard | None:
        for card in self.cards:
            if square in card.squares:
                return card
        return None

    def balls_at(self, square: int) -> list[Ball]:
        return [ball for ball in self.balls if ball.square == square]

    def to_dict(self) -> dict:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        data = dict(data)
        data["settings"] = Settings(**data["settings"])
        data["rebid"] = None if data["rebid"] is None else Rebid(**data["rebid"])
        data["cards"] = [
            BoardCard(c["card"], c["kind"], tuple(c["squares"]), c["y"]) for c in data["cards"]
        ]
        data["balls"] = [Ball(**ball) for ball in data["balls"]]
        data["pending"] = [Decision(**d) for d in data["pending"]]
        data["log"] = [tuple(entry) for entry in data["log"]]
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))


def to_json(state: GameState) -> str:
    return state.to_json()


def from_json(text: str) -> GameState:
    return GameState.from_json(text)
