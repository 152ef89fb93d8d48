"""A Volleyball team's orders for one round, as plain data, plus the checks that need no numbers.

The seed (Rien Kooy's rules, "Obliged layout to be used for the moves") asks every manager for one
form per match: per set six players with a position code, a tactical concept code, a risk
factor and home-advantage / devotion / special points on the offensive or defensive level;
then training, a spying order, and (rules 7-10) bids, a sponsor choice and the ageing split.
These dataclasses hold exactly that. They are the vocabulary shared by the match engine
(match.py), the text order form (orderform.py) and the round engine (rounds.py).

This module imports nothing else of the package, so models.py can keep a team's last
line-up as a list of `SetOrder` (rule 12: NMR replays the last line-up).

Checks that need a team's players and levels (roster, eligibility after tiredness, the
season's special-point pool) live in match.py, `validate_match_orders`; the shape checks
here (formation, concept, risk, point ranges) are what a form can be judged on by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Protocol

from rules.errors import PlayerError
from rules.volleyball.wording import possessive

SETS_PER_MATCH_ORDER = 5
PLAYERS_PER_SET = 6
MAX_SETTERS_PER_SET = 2
MAX_BLOCKERS_PER_SET = 2
CONTRACT_LENGTHS = (2, 3, 4)
TIREDNESS_PER_SET = 5


class VolleyballError(PlayerError):
    """A rule broken by a manager's order or request, in words the manager understands.

    `problems` lists every problem found (validation reports them all at once); the message
    joins them one per line. Raising it never leaves half an order applied.
    """

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


class Position(IntEnum):
    """Rule 3's five positions; the value is the seed's position code on the form."""

    SETTER = 1
    ATTACKER = 2
    ALLROUND = 3
    DEFENDER = 4
    BLOCKER = 5

    @property
    def label(self) -> str:
        return self.name.capitalize()


class Concept(IntEnum):
    """Rule 3's tactical concepts; the value is the seed's concept code on the form."""

    AGGRESSIVE = 1
    OFFENSIVE = 2
    NEUTRAL = 3
    DEFENSIVE = 4
    WALL = 5

    @property
    def abbreviation(self) -> str:
        return {1: "AC", 2: "OC", 3: "NC", 4: "DC", 5: "WC"}[self.value]

    @property
    def label(self) -> str:
        return self.name.capitalize()


# Rule 3: "The possible risk factor depends on the tactical concept" (inclusive ranges).
RISK_RANGES: dict[Concept, tuple[int, int]] = {
    Concept.AGGRESSIVE: (9, 12),
    Concept.OFFENSIVE: (6, 9),
    Concept.NEUTRAL: (3, 9),
    Concept.DEFENSIVE: (3, 6),
    Concept.WALL: (0, 3),
}

OFFENSIVE_POSITIONS = frozenset({Position.SETTER, Position.ATTACKER})
DEFENSIVE_POSITIONS = frozenset({Position.BLOCKER, Position.DEFENDER})

# Rule 3 + docs/rules/volleyball.md ruling 2: how many setters/attackers (or blockers/defenders) a
# concept needs at least. Neutral has "no special rules".
CONCEPT_REQUIREMENTS: dict[Concept, tuple[frozenset[Position], int, str]] = {
    Concept.AGGRESSIVE: (OFFENSIVE_POSITIONS, 5, "setters/attackers"),
    Concept.OFFENSIVE: (OFFENSIVE_POSITIONS, 4, "setters/attackers"),
    Concept.DEFENSIVE: (DEFENSIVE_POSITIONS, 4, "blockers/defenders"),
    Concept.WALL: (DEFENSIVE_POSITIONS, 5, "blockers/defenders"),
}


def lowest_risk(concept: Concept) -> int:
    """Rule 3: "No choice from the manager automatically means the lowest possible risk factor"."""
    return RISK_RANGES[concept][0]


@dataclass
class LevelPoints:
    """Points put on the team's offensive and defensive level in one set (rule 4: "The points
    must specifically be assigned to the offensive or defensive level")."""

    ol: int = 0
    dl: int = 0

    @property
    def total(self) -> int:
        return self.ol + self.dl

    def to_dict(self) -> dict:
        return {"ol": self.ol, "dl": self.dl}

    @classmethod
    def from_dict(cls, data: dict) -> LevelPoints:
        return cls(ol=int(data.get("ol", 0)), dl=int(data.get("dl", 0)))


class HoldsPoints(Protocol):
    """A set's points per level: a set's orders, or a side of a played set."""

    home_advantage: LevelPoints
    devotion: LevelPoints
    special: LevelPoints


# Rule 4's points of a set, in the seed's order: how the bot's texts name each kind, how the
# seed's order form labels its row, and the field that holds it.
POINT_KINDS = (
    ("HA", "HOME ADV. Pts.", "home_advantage"),
    ("DP", "DEVOTION Pts.", "devotion"),
    ("SP", "SPECIAL Pts.", "special"),
)


def form_points(side: HoldsPoints | None) -> list[tuple[str, LevelPoints | None]]:
    """Rule 4's points of one set as the seed's order form lists them: (its row's label, the
    points; None on a blank form)."""
    return [
        (label, None if side is None else getattr(side, name)) for _, label, name in POINT_KINDS
    ]


def points_used(side: HoldsPoints, *, every: bool = False) -> list[str]:
    """Rule 4's points of one set, `OL/DL` each, as every text writes them: `HA 4/0`, `DP 3/3`,
    `SP 0/2`, those not used left out unless `every` is asked for."""
    return [
        f"{short} {points.ol}/{points.dl}"
        for short, _, name in POINT_KINDS
        for points in (getattr(side, name),)
        if every or points.ol or points.dl
    ]


@dataclass
class PlayerSlot:
    """One player in a set's formation (rules 2-3).

    `tired_from_ol` is the manager's split of rule 2's tiredness ("It's up to the manager from
    which level he looses his points"): how many of the five points lost after this set come
    off the offensive level, the rest off the defensive level. None means the documented
    default split (match.py, `tire`).
    """

    player: str
    position: Position = Position.ALLROUND
    tired_from_ol: int | None = None

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "position": int(self.position),
            "tired_from_ol": self.tired_from_ol,
        }

    @classmethod
    def from_dict(cls, data: dict) -> PlayerSlot:
        tired = data.get("tired_from_ol")
        return cls(
            player=str(data["player"]),
            position=Position(int(data.get("position", Position.ALLROUND))),
            tired_from_ol=None if tired is None else int(tired),
        )


@dataclass
class SetOrder:
    """One set of the order form (rules 2-4): six players with positions, the tactical concept
    and risk factor, and the home-advantage, devotion and special points per level.

    `risk` None means the lowest risk of the concept (rule 3). A concept not chosen is
    Neutral (rule 3), which is the default here.
    """

    slots: list[PlayerSlot] = field(default_factory=list)
    concept: Concept = Concept.NEUTRAL
    risk: int | None = None
    home_advantage: LevelPoints = field(default_factory=LevelPoints)
    devotion: LevelPoints = field(default_factory=LevelPoints)
    special: LevelPoints = field(default_factory=LevelPoints)

    @property
    def effective_risk(self) -> int:
        return lowest_risk(self.concept) if self.risk is None else self.risk

    @property
    def player_names(self) -> list[str]:
        return [slot.player for slot in self.slots]

    def without_points(self) -> SetOrder:
        """The same line-up without HA, DP and SP: rule 12's NMR line-up."""
        return SetOrder(
            slots=[PlayerSlot(s.player, s.position, s.tired_from_ol) for s in self.slots],
            concept=self.concept,
            risk=self.risk,
        )

    def to_dict(self) -> dict:
        return {
            "slots": [slot.to_dict() for slot in self.slots],
            "concept": int(self.concept),
            "risk": self.risk,
            "home_advantage": self.home_advantage.to_dict(),
            "devotion": self.devotion.to_dict(),
            "special": self.special.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> SetOrder:
        risk = data.get("risk")
        return cls(
            slots=[PlayerSlot.from_dict(s) for s in data.get("slots", [])],
            concept=Concept(int(data.get("concept", Concept.NEUTRAL))),
            risk=None if risk is None else int(risk),
            home_advantage=LevelPoints.from_dict(data.get("home_advantage", {})),
            devotion=LevelPoints.from_dict(data.get("devotion", {})),
            special=LevelPoints.from_dict(data.get("special", {})),
        )


@dataclass
class MatchOrders:
    """One match's form (the seed's layout: "HOMEPLAY or OUTBOUND, DIVISION NO., MATCH NO.,
    TEAM, AGAINST", then SET 1 to SET 5). All five sets are filled in; sets 4 and 5 are only
    played when needed (rule 2).

    `match_number` is the match's number within the round (1, 2, ...); `opponent` and
    `home` repeat what the schedule says so a form can be checked against it.
    """

    sets: list[SetOrder] = field(default_factory=list)
    match_number: int = 1
    opponent: str = ""
    home: bool = True

    @property
    def devotion_total(self) -> int:
        return sum(s.devotion.total for s in self.sets)

    @property
    def special_total(self) -> int:
        return sum(s.special.total for s in self.sets)

    @property
    def home_advantage_total(self) -> int:
        return sum(s.home_advantage.total for s in self.sets)

    def without_points(self) -> MatchOrders:
        """Rule 12: "the same line-up of players as in the last game, but without HA, DP and SP"."""
        return MatchOrders(
            sets=[s.without_points() for s in self.sets],
            match_number=self.match_number,
            opponent=self.opponent,
            home=self.home,
        )

    def to_dict(self) -> dict:
        return {
            "sets": [s.to_dict() for s in self.sets],
            "match_number": self.match_number,
            "opponent": self.opponent,
            "home": self.home,
        }

    @classmethod
    def from_dict(cls, data: dict) -> MatchOrders:
        return cls(
            sets=[SetOrder.from_dict(s) for s in data.get("sets", [])],
            match_number=int(data.get("match_number", 1)),
            opponent=str(data.get("opponent", "")),
            home=bool(data.get("home", True)),
        )


@dataclass
class TrainingOrder:
    """Rule 6 training for one player: the points gained this round on OL and DL (each 0 or 1,
    "each player can gain only one point per level in a round"). The form's TRAINING block
    writes this as OLD/NEW levels."""

    player: str
    ol_gain: int = 0
    dl_gain: int = 0

    def to_dict(self) -> dict:
        return {"player": self.player, "ol_gain": self.ol_gain, "dl_gain": self.dl_gain}

    @classmethod
    def from_dict(cls, data: dict) -> TrainingOrder:
        return cls(str(data["player"]), int(data.get("ol_gain", 0)), int(data.get("dl_gain", 0)))


@dataclass
class SpyOrder:
    """Rule 9: "The order to spy must apply to a specific team in a specific game in the next
    round". `player_detail` buys the per-player levels too ($300 + $250). The seed's form
    names the game by the target's opponent (SPYING ORDER: TEAM ... AGAINST ...), kept in
    `against` ("" when the order gives the match number instead)."""

    target_team: str
    match_number: int = 1
    player_detail: bool = False
    against: str = ""

    def to_dict(self) -> dict:
        return {
            "target_team": self.target_team,
            "match_number": self.match_number,
            "player_detail": self.player_detail,
            "against": self.against,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SpyOrder:
        return cls(
            str(data["target_team"]),
            int(data.get("match_number", 1)),
            bool(data.get("player_detail", False)),
            str(data.get("against", "")),
        )


@dataclass
class TransferSale:
    """Rule 8: a player offered on the transfer market, "eventually with a minimal acceptable
    amount" (0 = no minimum)."""

    player: str
    minimum_price: int = 0

    def to_dict(self) -> dict:
        return {"player": self.player, "minimum_price": self.minimum_price}

    @classmethod
    def from_dict(cls, data: dict) -> TransferSale:
        return cls(str(data["player"]), int(data.get("minimum_price", 0)))


@dataclass
class TransferBid:
    """Rule 8: a sealed bid on another team's player on the transfer market."""

    seller: str
    player: str
    amount: int

    def to_dict(self) -> dict:
        return {"seller": self.seller, "player": self.player, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: dict) -> TransferBid:
        return cls(str(data["seller"]), str(data["player"]), int(data["amount"]))


@dataclass
class GmOfferBid:
    """Rule 8: a bid on one of the GM's offers (a new player, a lot of TP or of SP).
    For a new player the bidder names him: "Together with the bidding the manager must give
    a name to the player" (`player_name`)."""

    offer_id: str
    amount: int
    player_name: str | None = None

    def to_dict(self) -> dict:
        return {"offer_id": self.offer_id, "amount": self.amount, "player_name": self.player_name}

    @classmethod
    def from_dict(cls, data: dict) -> GmOfferBid:
        name = data.get("player_name")
        return cls(str(data["offer_id"]), int(data["amount"]), None if name is None else str(name))


@dataclass
class ContractBid:
    """Rule 7: an offer to a contract player: pay per round and a contract of 2, 3 or 4
    rounds (10 % / 20 % bonus up front for 3 / 4 rounds)."""

    contract_player: str
    pay_per_round: int
    rounds: int = 2

    def to_dict(self) -> dict:
        return {
            "contract_player": self.contract_player,
            "pay_per_round": self.pay_per_round,
            "rounds": self.rounds,
        }

    @classmethod
    def from_dict(cls, data: dict) -> ContractBid:
        return cls(
            str(data["contract_player"]), int(data["pay_per_round"]), int(data.get("rounds", 2))
        )


@dataclass
class AgeingSplit:
    """Rule 10: at season end "It's up to the manager of which levels the player looses his
    points": how many of the age-step loss come off OL (the rest off DL)."""

    player: str
    ol_loss: int

    def to_dict(self) -> dict:
        return {"player": self.player, "ol_loss": self.ol_loss}

    @classmethod
    def from_dict(cls, data: dict) -> AgeingSplit:
        return cls(str(data["player"]), int(data["ol_loss"]))


@dataclass
class RoundOrders:
    """Everything one team orders for one round (the seed's form plus rules 6-10).

    `scout_talents` names the new talents scouted this round (rule 6, at most three a season,
    results sequence step 2). `sponsor` None keeps the current sponsor (rule 9: "he can
    change from sponsor every round").
    """

    team: str
    matches: list[MatchOrders] = field(default_factory=list)
    training: list[TrainingOrder] = field(default_factory=list)
    scout_talents: list[str] = field(default_factory=list)
    spies: list[SpyOrder] = field(default_factory=list)
    sponsor: str | None = None
    sales: list[TransferSale] = field(default_factory=list)
    transfer_bids: list[TransferBid] = field(default_factory=list)
    gm_offer_bids: list[GmOfferBid] = field(default_factory=list)
    contract_bids: list[ContractBid] = field(default_factory=list)
    ageing: list[AgeingSplit] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "team": self.team,
            "matches": [m.to_dict() for m in self.matches],
            "training": [t.to_dict() for t in self.training],
            "scout_talents": list(self.scout_talents),
            "spies": [s.to_dict() for s in self.spies],
            "sponsor": self.sponsor,
            "sales": [s.to_dict() for s in self.sales],
            "transfer_bids": [b.to_dict() for b in self.transfer_bids],
            "gm_offer_bids": [b.to_dict() for b in self.gm_offer_bids],
            "contract_bids": [b.to_dict() for b in self.contract_bids],
            "ageing": [a.to_dict() for a in self.ageing],
        }

    @classmethod
    def from_dict(cls, data: dict) -> RoundOrders:
        sponsor = data.get("sponsor")
        return cls(
            team=str(data["team"]),
            matches=[MatchOrders.from_dict(m) for m in data.get("matches", [])],
            training=[TrainingOrder.from_dict(t) for t in data.get("training", [])],
            scout_talents=[str(n) for n in data.get("scout_talents", [])],
            spies=[SpyOrder.from_dict(s) for s in data.get("spies", [])],
            sponsor=None if sponsor is None else str(sponsor),
            sales=[TransferSale.from_dict(s) for s in data.get("sales", [])],
            transfer_bids=[TransferBid.from_dict(b) for b in data.get("transfer_bids", [])],
            gm_offer_bids=[GmOfferBid.from_dict(b) for b in data.get("gm_offer_bids", [])],
            contract_bids=[ContractBid.from_dict(b) for b in data.get("contract_bids", [])],
            ageing=[AgeingSplit.from_dict(a) for a in data.get("ageing", [])],
        )


def set_order_problems(set_order: SetOrder, set_number: int) -> list[str]:
    """Every problem with one set's order that can be seen without the team's levels:
    six different players, rule 3's formation limits (at most two setters, at most two
    blockers), the concept's formation requirement (docs/rules/volleyball.md ruling 2), the risk
    factor in the concept's range, and no negative points. Each problem is one sentence."""
    where = f"Set {set_number}"
    problems: list[str] = []
    names = set_order.player_names
    if len(names) != PLAYERS_PER_SET:
        problems.append(f"{where} has {len(names)} players; a formation needs exactly six.")
    seen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in seen:
            problems.append(f"{where} lists {name} twice; each player can take one place only.")
        seen.add(key)
    positions = [slot.position for slot in set_order.slots]
    setters = positions.count(Position.SETTER)
    blockers = positions.count(Position.BLOCKER)
    if setters > MAX_SETTERS_PER_SET:
        problems.append(f"{where} has {setters} setters; at most two setters may play in a set.")
    if blockers > MAX_BLOCKERS_PER_SET:
        problems.append(f"{where} has {blockers} blockers; at most two blockers may play in a set.")
    requirement = CONCEPT_REQUIREMENTS.get(set_order.concept)
    if requirement is not None:
        wanted, minimum, label = requirement
        count = sum(1 for p in positions if p in wanted)
        if count < minimum:
            problems.append(
                f"{where} plays the {set_order.concept.label} concept "
                f"({set_order.concept.abbreviation}), which needs at least {minimum} {label}, "
                f"but the formation has {count}."
            )
    low, high = RISK_RANGES[set_order.concept]
    risk = set_order.effective_risk
    if not low <= risk <= high:
        problems.append(
            f"{where}: risk factor {risk} is outside the {set_order.concept.label} concept's "
            f"range of {low} to {high}."
        )
    for label, points in (
        ("home-advantage", set_order.home_advantage),
        ("devotion", set_order.devotion),
        ("special", set_order.special),
    ):
        if points.ol < 0 or points.dl < 0:
            problems.append(f"{where}: {label} points cannot be negative.")
    for slot in set_order.slots:
        if slot.tired_from_ol is not None and not 0 <= slot.tired_from_ol <= TIREDNESS_PER_SET:
            problems.append(
                f"{where}: {possessive(slot.player)} tiredness split must take 0 to 5 points from OL "
                f"(got {slot.tired_from_ol})."
            )
    return problems
