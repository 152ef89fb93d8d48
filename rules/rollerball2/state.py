"""The state of a Rollerball II match, its actions and events, their JSON form, and the
one-line text form of an action (record_line / parse_action, used by game records).

Everything the engine needs to continue a match is here, including the random generator's state,
so a match saved to JSON and loaded back plays on exactly as it would have.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cache, lru_cache
from typing import Any

from rules.rollerball2.cards import PlayerCard, card_problems
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.roster import Lineup, Roster, validate_roster
from rules.rollerball2.scoresheet import Absence, Moment, PlayerLine

HOME = "home"
AWAY = "away"

# What the next card will be read for (which FAC section).
PHASE_FIRE = "fire"  # The BALL FIRES...
PHASE_ACTION = "action"  # ACTION
PHASE_ATTACK = "attack"  # ATTACK (SKATER/CATCHER) or ATTACK (BIKER), by the attacker
PHASE_EVENT = "event"  # EVENT
PHASE_BIKER_ID = "biker_id"  # BIKER ID
PHASE_OVER = "over"  # the match has ended
PHASE_SETUP = "setup"  # both coaches hand in their line-ups, privately, before the first card

PERIOD_FACS = 30  # docs/rules/rollerball2.md, "The flow of a match": 30 FACs, 4 periods
PERIODS = 4
OVERTIME_PERIOD = 5


def other_side(side: str) -> str:
    return AWAY if side == HOME else HOME


# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextCard:
    """Turn the next Fast Action Card and play it out."""


@dataclass(frozen=True)
class Substitute:
    """Send `number` into `slot` (the player there goes to the bench). Seed: "You may change any
    number players when you are in possession of the ball ... you can't substitute the current
    ball handler"."""

    team: str  # "home" or "away"
    slot: str
    number: int


@dataclass(frozen=True)
class CatcherChoice:
    """Seed ACTION NOTES 1: after a catch, roll on the catcher's card (`roll`=True) or draw a new
    FAC for its ACTION section (`roll`=False)."""

    team: str
    roll: bool


@dataclass(frozen=True)
class ChooseBiker:
    """Pick a biker: the defensive biker who answers a GOAL vs Bkr (seed ACTION NOTES 5), or the
    biker credited with the assist on Bkr vs [Position Empty]."""

    team: str
    slot: str


@dataclass(frozen=True)
class ChooseScorer:
    """PASS vs GOAL / [Position Empty]: "GOAL for any skater" -- the passing team picks him."""

    team: str
    slot: str


@dataclass(frozen=True)
class SubmitLineup:
    """A coach hands in his starting ten before the match (seed GAME SETUP: "Place starting
    players for each team in their respective Line up grid"). Private: neither line-up is shown
    or recorded until both are in. `lineup` is (slot, number or None) pairs; build it with
    SubmitLineup.of(team, {slot: number})."""

    team: str
    lineup: tuple[tuple[str, int | None], ...]

    @classmethod
    def of(cls, team: str, lineup: dict[str, int | None]) -> SubmitLineup:
        return cls(team, tuple(sorted(lineup.items())))

    def as_dict(self) -> dict[str, int | None]:
        return dict(self.lineup)


@dataclass(frozen=True)
class RollDie:
    """Settings.coach_dice: the coach whose die is next rolls it (state.pending kind "dice")."""

    team: str


Action = NextCard | Substitute | CatcherChoice | ChooseBiker | ChooseScorer | SubmitLineup | RollDie


@dataclass(frozen=True)
class Roll:
    """One D10 and what it was read on, so a front end can draw the card with the row lit.

    `column` is "offense" or "defense" (a player card's column; `side`, `slot` and `number` say
    whose card), "player" or "skater_catcher" (the Random Player chart; `side` is the team the
    chart is rolled for), or "coach" (a coach's plain D10, e.g. matches missed). `face` is the
    engine's 1..10; cards print it as 0-9 (cards.face_label: a 10 is the die's 0)."""

    column: str
    face: int
    result: str
    side: str = ""
    slot: str = ""
    number: int | None = None


# The topic of docs/rules/rollerball2.md (as `/rollerball2 rules` lists it) that decides each
# kind of event, for the card's Why?: a card, a die, a chart or a goal is the flow of a match; an
# attack's consequences are its own section; a coach's decision and a substitution theirs.
FLOW = "The flow of a match"
ATTACKS = "Attacks, penalties and injuries"
BOT_RULES = "On Discord"
KIND_TOPICS: dict[str, tuple[str, ...]] = {
    "card": ("The cards", FLOW),
    "roll": ("The cards", FLOW),
    "chart": (ATTACKS,),
    "matrix": (FLOW,),
    "goal": (FLOW,),
    "penalty": (ATTACKS,),
    "injury": (ATTACKS,),
    "ban": (ATTACKS,),
    "rest": (ATTACKS,),
    "return": (ATTACKS, "The scoresheet and what carries over"),
    "control": (FLOW,),
    "fire": (FLOW,),
    "sub": ("Substitutes",),
    "choice": ("Coach decisions",),
    "period": (FLOW, "Overtime"),
    "final": (FLOW, "The scoresheet and what carries over"),
    "info": (FLOW,),
    "lineup": (BOT_RULES,),
}


@dataclass(frozen=True)
class Event:
    """One line of play-by-play: every card, die roll, chart look-up and its consequence.

    Structured parts for front ends: `fac` and `section` (the FAC section key read, e.g.
    "action") on "card" events; `rolls` on "roll" and "chart" events (the offense die first).
    `rulings`: the rulings of docs/rules/rollerball2.md ("D4") that decided it, beside the topics
    its kind is decided by (`rules`, for the card's Why?)."""

    kind: str  # card, roll, chart, matrix, goal, penalty, injury, ban, rest, control, fire,
    # return, sub, choice, period, final, info, lineup
    text: str
    fac: int | None = None  # for "card" events: the FAC's index, so a front end can show it
    section: str | None = None  # for "card" events: which section of the FAC was read
    rolls: tuple[Roll, ...] = ()
    rulings: tuple[str, ...] = field(default=(), kw_only=True)

    @property
    def rules(self) -> tuple[str, ...]:
        """The topics and rulings of docs/rules/rollerball2.md that decided this event."""
        return KIND_TOPICS.get(self.kind, (FLOW,)) + self.rulings


def event_to_json(event: Event) -> dict:
    """An event as plain JSON data (for storing a match's play-by-play)."""
    return asdict(event)


def event_from_json(data: dict) -> Event:
    rolls = tuple(Roll(**roll) for roll in data.get("rolls", ()))
    return Event(
        kind=data["kind"],
        text=data["text"],
        fac=data.get("fac"),
        section=data.get("section"),
        rolls=rolls,
        rulings=tuple(data.get("rulings", ())),
    )


# --- actions as text (game records and commands) ---------------------------------------------


def record_line(action: Action) -> str:
    """The action as one line of a game record."""
    if isinstance(action, NextCard):
        return "next"
    if isinstance(action, Substitute):
        return f"sub {action.team} {action.slot} {action.number}"
    if isinstance(action, CatcherChoice):
        return f"catcher {action.team} {'roll' if action.roll else 'draw'}"
    if isinstance(action, ChooseBiker):
        return f"biker {action.team} {action.slot}"
    if isinstance(action, ChooseScorer):
        return f"scorer {action.team} {action.slot}"
    if isinstance(action, RollDie):
        return f"roll {action.team}"
    if isinstance(action, SubmitLineup):
        lineup = json.dumps(action.as_dict(), separators=(",", ":"), sort_keys=True)
        return f"lineup {action.team} {lineup}"
    raise RollerballError("Unknown action.")


def parse_action(line: str) -> Action:
    """One record line (also the text form a bot command could use) as an Action."""
    words = line.split()
    if not words:
        raise RollerballError("Empty action.")
    verb = words[0]
    if verb == "next" and len(words) == 1:
        return NextCard()
    if len(words) >= 2 and words[1] not in (HOME, AWAY):
        raise RollerballError(f"'{line}': the team must be home or away.")
    if verb == "sub" and len(words) == 4 and words[3].isdigit():
        return Substitute(words[1], words[2], int(words[3]))
    if verb == "catcher" and len(words) == 3 and words[2] in ("roll", "draw"):
        return CatcherChoice(words[1], words[2] == "roll")
    if verb == "biker" and len(words) == 3:
        return ChooseBiker(words[1], words[2])
    if verb == "scorer" and len(words) == 3:
        return ChooseScorer(words[1], words[2])
    if verb == "roll" and len(words) == 2:
        return RollDie(words[1])
    if verb == "lineup" and len(words) >= 3:
        try:
            lineup = json.loads(" ".join(words[2:]))
        except json.JSONDecodeError as error:
            raise RollerballError(f"'{line}': the line-up is not valid JSON.") from error
        if not isinstance(lineup, dict) or not all(
            isinstance(number, int | None) and not isinstance(number, bool)
            for number in lineup.values()
        ):
            raise RollerballError(f"'{line}': a line-up maps slots to uniform numbers.")
        return SubmitLineup.of(words[1], lineup)
    raise RollerballError(f"'{line}' is not a Rollerball II action.")


# --- state -----------------------------------------------------------------------------------


@dataclass
class Out:
    """A player off the track and not allowed back yet."""

    reason: str  # penalty, injury, rest, ban, killed, absent
    until: str  # "fac" (a Penalty Expires marker), "new_ball", "period" or "match"
    fac: int = 0  # for "fac": the card count at which the marker turns up
    slot: str = ""  # the slot he left, so he can go straight back into it


@dataclass
class TeamState:
    side: str
    roster: Roster
    lineup: Lineup  # slot -> number on the track (None: the slot is empty)
    starters: Lineup  # the lineup the coach picked before the match
    out: dict[int, Out] = field(default_factory=dict)
    locked: dict[str, int] = field(default_factory=dict)  # slot -> card count it may be refilled
    sheet: dict[int, PlayerLine] = field(default_factory=dict)
    score_by_period: list[int] = field(default_factory=lambda: [0])
    new_absences: list[Absence] = field(default_factory=list)

    @property
    def score(self) -> int:
        return sum(self.score_by_period)

    def card(self, number: int) -> PlayerCard:
        return self.roster.card(number)

    def card_in(self, slot: str) -> PlayerCard:
        """The player in `slot`, which the caller knows is filled (an action names it)."""
        number = self.lineup[slot]
        if number is None:
            raise RollerballError(f"{self.roster.team} has nobody in {slot}.")
        return self.card(number)

    def on_track(self) -> set[int]:
        return {number for number in self.lineup.values() if number is not None}


@dataclass
class Settings:
    """Match options chosen when the match is created."""

    overtime: bool = True  # tied after four periods: one sudden-death period (else a draw)
    private_lineups: bool = False  # both coaches hand in line-ups (SubmitLineup) before card 1
    coach_dice: bool = False  # each coach rolls his own dice (RollDie) before a play resolves


@dataclass
class MatchState:
    seed: int | str
    settings: Settings
    home: TeamState
    away: TeamState
    rng: random.Random
    deck: list[int]  # FAC indices still to come in the current piles, top first
    period: int = 1
    period_fac: int = 0  # cards read in this period
    fac_count: int = 0  # cards read in the match
    phase: str = PHASE_FIRE
    control: str | None = None  # side in possession
    handler: str | None = None  # slot of the ball handler
    previous_handler: int | None = None  # teammate who had the ball before him (assists)
    context: dict[str, Any] = field(default_factory=dict)  # what the next card's section needs
    pending: dict[str, Any] | None = None  # a coach decision the match waits for
    golden_goal: bool = False  # a goal was scored in sudden-death overtime
    record: list[str] = field(default_factory=list)  # the actions applied, as record lines
    setup: dict[str, Any] = field(default_factory=dict)  # the match's starting point, for records
    submitted: dict[str, Lineup] = field(default_factory=dict)  # PHASE_SETUP: line-ups handed in
    moments: list[Moment] = field(default_factory=list)  # scoring and penalty summary

    def team(self, side: str) -> TeamState:
        return self.home if side == HOME else self.away

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER


# --- copying ---------------------------------------------------------------------------------


def _clone_team(team: TeamState) -> TeamState:
    return TeamState(
        side=team.side,
        roster=Roster(
            team=team.roster.team,
            players=list(team.roster.players),  # cards are frozen: shared
            absences=list(team.roster.absences),
        ),
        lineup=dict(team.lineup),
        starters=dict(team.starters),
        out={number: replace(out) for number, out in team.out.items()},
        locked=dict(team.locked),
        sheet={
            number: replace(
                line, goal_order=list(line.goal_order), casualties=list(line.casualties)
            )
            for number, line in team.sheet.items()
        },
        score_by_period=list(team.score_by_period),
        new_absences=list(team.new_absences),
    )


def _copied(rng: random.Random) -> random.Random:
    """The generator in the same state, for a tenth of what copy.deepcopy spends on it (not
    seeded first: its state is set at once)."""
    copied = random.Random.__new__(random.Random)
    copied.setstate(rng.getstate())
    return copied


def clone(state: MatchState) -> MatchState:
    """An independent copy of the match (much cheaper than copy.deepcopy: frozen cards and the
    setup, which never change, are shared)."""
    return MatchState(
        seed=state.seed,
        settings=replace(state.settings),
        home=_clone_team(state.home),
        away=_clone_team(state.away),
        rng=_copied(state.rng),
        deck=list(state.deck),
        period=state.period,
        period_fac=state.period_fac,
        fac_count=state.fac_count,
        phase=state.phase,
        control=state.control,
        handler=state.handler,
        previous_handler=state.previous_handler,
        context=copy.deepcopy(state.context),
        pending=dict(state.pending) if state.pending is not None else None,
        golden_goal=state.golden_goal,
        record=list(state.record),
        setup=state.setup,
        submitted={side: dict(lineup) for side, lineup in state.submitted.items()},
        moments=list(state.moments),  # frozen entries: shared
    )


# --- JSON ------------------------------------------------------------------------------------


def _plain(record: Any) -> dict[str, Any]:
    """A flat record (a scoresheet line, an absence, an out, a moment) as JSON data: what
    `dataclasses.asdict` gives for these (their fields are numbers, strings and lists of them),
    without its deep copy of every value, which was most of a Rollerball II save's time
    (bench/busy_matches.py --game rollerball2)."""
    values = {name: getattr(record, name) for name in _field_names(type(record))}
    return {name: list(v) if isinstance(v, list) else v for name, v in values.items()}


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(item.name for item in fields(kind))


def card_to_json(card: PlayerCard) -> dict:
    return {
        "number": card.number,
        "name": card.name,
        "position": card.position,
        "experience": card.experience,
        "team": card.team,
        "offense": list(card.offense),
        "defense": list(card.defense),
    }


_CARD_FIELDS = ("number", "name", "position", "experience", "team", "offense", "defense")


def card_from_json(data: Any) -> PlayerCard:
    """A card from JSON, checked with the seed's card rules (cards.card_problems, the rules the
    player tables follow): a bad card is refused here, never when it is rolled."""
    if not isinstance(data, dict) or any(key not in data for key in _CARD_FIELDS):
        raise RollerballError(f"A player card needs the fields {', '.join(_CARD_FIELDS)}.")
    if not isinstance(data["offense"], list) or not isinstance(data["defense"], list):
        raise RollerballError("A player card's offense and defense are lists of 10 results.")
    values = tuple(
        tuple(data[key]) if key in ("offense", "defense") else data[key] for key in _CARD_FIELDS
    )
    # Kept only where equal means the same: the card's checks let through strings and a whole
    # number, and 1, 1.0 and True are equal keys.
    if type(data["number"]) is int and type(data["team"]) is str:
        try:
            return _checked_card(values)
        except TypeError:  # a value JSON can hold but a key cannot (a list for a name, say)
            pass
    return _checked_card.__wrapped__(values)


# Every Rollerball II match reads both rosters again for each click (they are kept in the
# match's set-up, bench/busy_matches.py --game rollerball2); a card is frozen, so one checked
# once is shared. Bounded: about 160 rosters of 25.
@lru_cache(maxsize=4096)
def _checked_card(values: tuple[Any, ...]) -> PlayerCard:
    card = PlayerCard(**dict(zip(_CARD_FIELDS, values, strict=True)))
    problems = card_problems(card)
    if problems:
        raise RollerballError(" ".join(problems))
    return card


def roster_to_json(roster: Roster) -> dict:
    return {
        "team": roster.team,
        "players": [card_to_json(card) for card in roster.players],
        "absences": [_plain(absence) for absence in roster.absences],
    }


def roster_from_json(data: Any) -> Roster:
    """A roster from JSON, every card and the roster itself validated (roster.validate_roster)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise RollerballError("A roster needs a team name and a list of players.")
    try:
        absences = [Absence(**absence) for absence in data.get("absences", [])]
    except TypeError as error:
        raise RollerballError(f"A roster's absences are malformed ({error}).") from error
    roster = Roster(
        team=str(data.get("team", "")),
        players=[card_from_json(card) for card in data["players"]],
        absences=absences,
    )
    validate_roster(roster, cards_checked=True)  # each card was, by card_from_json
    return roster


def _team_to_json(team: TeamState, setup: dict) -> dict:
    """The team's state; its roster as None when it is the set-up's (a match never changes a
    roster: it is stored once, in the set-up the record is written from)."""
    roster = roster_to_json(team.roster)
    return {
        "side": team.side,
        "roster": None if roster == setup.get(team.side) else roster,
        "lineup": dict(team.lineup),
        "starters": dict(team.starters),
        "out": {str(number): _plain(out) for number, out in team.out.items()},
        "locked": dict(team.locked),
        "sheet": [_plain(line) for line in team.sheet.values()],
        "score_by_period": list(team.score_by_period),
        "new_absences": [_plain(absence) for absence in team.new_absences],
    }


def _team_from_json(data: dict, setup: dict) -> TeamState:
    sheet = [PlayerLine(**line) for line in data["sheet"]]
    roster = data["roster"] if data["roster"] is not None else setup[data["side"]]
    return TeamState(
        side=data["side"],
        roster=roster_from_json(roster),
        lineup=dict(data["lineup"]),
        starters=dict(data["starters"]),
        out={int(number): Out(**out) for number, out in data["out"].items()},
        locked=dict(data["locked"]),
        sheet={line.number: line for line in sheet},
        score_by_period=list(data["score_by_period"]),
        new_absences=[Absence(**absence) for absence in data["new_absences"]],
    )


def _rng_to_json(state: MatchState) -> list | None:
    """The generator's state while cards and dice are still to come; None once the match is
    over: nothing is drawn again, and its record and commitment prove the match (6-7 KB of
    the 50-odd a finished match would keep, bench/rollerball2_storage.py)."""
    if state.over:
        return None
    version, internal, gauss = state.rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: list | None, seed: int) -> random.Random:
    if data is None:  # a finished match: a generator it never draws from
        return random.Random(seed)
    rng = random.Random()
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng


def _json_safe(value: Any) -> Any:
    """Context values hold tuples (side, slot); JSON keeps them as lists."""
    if isinstance(value, tuple):
        return list(value)
    return value


def to_json(state: MatchState) -> dict:
    """The whole match as plain JSON data (lossless: from_json(to_json(s)) plays on identically;
    a finished match keeps what is shown and counted, not the dice it will not roll)."""
    return {
        "game": "rollerball2",
        "version": 1,
        "seed": state.seed,
        "settings": asdict(state.settings),
        "home": _team_to_json(state.home, state.setup),
        "away": _team_to_json(state.away, state.setup),
        "rng": _rng_to_json(state),
        "deck": list(state.deck),
        "period": state.period,
        "period_fac": state.period_fac,
        "fac_count": state.fac_count,
        "phase": state.phase,
        "control": state.control,
        "handler": state.handler,
        "previous_handler": state.previous_handler,
        "context": {key: _json_safe(value) for key, value in state.context.items()},
        "pending": dict(state.pending) if state.pending is not None else None,
        "golden_goal": state.golden_goal,
        "record": list(state.record),
        "setup": state.setup,
        "submitted": {side: dict(lineup) for side, lineup in state.submitted.items()},
        "moments": [_plain(moment) for moment in state.moments],
    }


def from_json(data: dict) -> MatchState:
    """Rebuild a match from to_json's output."""
    context = {}
    for key, value in data["context"].items():
        context[key] = tuple(value) if isinstance(value, list) else value
    return MatchState(
        seed=data["seed"],
        settings=Settings(**data["settings"]),
        home=_team_from_json(data["home"], data["setup"]),
        away=_team_from_json(data["away"], data["setup"]),
        rng=_rng_from_json(data["rng"], data["seed"]),
        deck=list(data["deck"]),
        period=data["period"],
        period_fac=data["period_fac"],
        fac_count=data["fac_count"],
        phase=data["phase"],
        control=data["control"],
        handler=data["handler"],
        previous_handler=data["previous_handler"],
        context=context,
        pending=data["pending"],
        golden_goal=data["golden_goal"],
        record=list(data["record"]),
        setup=data["setup"],
        submitted={side: dict(lineup) for side, lineup in data.get("submitted", {}).items()},
        moments=[Moment(**moment) for moment in data.get("moments", [])],
    )
