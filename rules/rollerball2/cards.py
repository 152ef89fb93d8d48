"""The printed things of Rollerball II: player cards, Fast Action Cards (FACs) and their effects.

These dataclasses are what the renderer draws and what the engine reads. They are frozen: a card
never changes during a match (injuries and bans live in the roster and the match state, not on the
card). Field names are stable; renderers may rely on them.

Seed clauses: "ROLLERBALL PLAYER CARDS" (one card type for every position, a D10 offense and
defense column, no numeric ratings) and "FAST ACTION CARDS" (six sections per card).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import echoed

# Positions (seed: "Player's Position").
SKATER = "skater"
BIKER = "biker"
CATCHER = "catcher"
POSITIONS = (SKATER, BIKER, CATCHER)

# Experience levels (seed: "Star, Veteran, or Rookie"). Ordered best first.
STAR = "star"
VETERAN = "veteran"
ROOKIE = "rookie"
EXPERIENCES = (STAR, VETERAN, ROOKIE)

# Card actions, spelled as on the seed's sample card.
GOAL = "GOAL"
PASS = "PASS"
ATT = "Att"
BKR = "Bkr"
LOSE = "LOSE"
EVT = "EVT"
OFFENSE_ACTIONS = (GOAL, PASS, ATT, BKR, LOSE, EVT)
# Seed: "PASS never occurs in the Defensive column."
DEFENSE_ACTIONS = (GOAL, ATT, BKR, LOSE, EVT)

# The six sections of a FAC, in card order: field name -> printed heading.
SECTION_HEADINGS = {
    "action": "ACTION",
    "biker_id": "BIKER ID",
    "attack_skater": "ATTACK (SKATER/CATCHER)",
    "attack_biker": "ATTACK (BIKER)",
    "ball_fires": "The BALL FIRES...",
    "event": "EVENT",
}


def face_label(face: int) -> str:
    """How a D10 face is printed: the engine's 1..10 as the die shows it, 1-9 and 0 for 10 (the
    sample card of Rollerball II's rules lists rows 0-9; docs/rules/rollerball2.md, the ruling on
    "DICE": a die face 0 is the engine's 10)."""
    return "0" if face == 10 else str(face)


PRINTED_FACES = (10, 1, 2, 3, 4, 5, 6, 7, 8, 9)  # card rows in the seed's order: 0, 1, ..., 9


@dataclass(frozen=True)
class PlayerCard:
    """One athlete's card (seed: "Sample Player Card").

    `offense` and `defense` are the two columns, 10 entries each: entry i is the result for a D10
    roll of i + 1 (use `offense_on(roll)` / `defense_on(roll)`). Each column holds exactly one
    EVT; PASS appears only in `offense`; Bkr never appears on a biker's card. The card carries no
    numeric rating: a player's worth shows only in the mix of results.
    """

    number: int  # uniform number, unique within the team
    name: str  # e.g. "JONATHAN E."
    position: str  # SKATER, BIKER or CATCHER
    experience: str  # STAR, VETERAN or ROOKIE
    team: str  # team name printed on the card, e.g. "Houston"
    offense: tuple[str, ...]  # 10 results from OFFENSE_ACTIONS, by D10 roll 1..10
    defense: tuple[str, ...]  # 10 results from DEFENSE_ACTIONS, by D10 roll 1..10

    def offense_on(self, roll: int) -> str:
        """The OFFENSE result for a D10 roll of 1..10."""
        return self.offense[roll - 1]

    def defense_on(self, roll: int) -> str:
        """The DEFENSE result for a D10 roll of 1..10."""
        return self.defense[roll - 1]

    def __deepcopy__(self, memo: dict) -> PlayerCard:
        # Frozen and made of immutable parts: sharing is safe and keeps state copies cheap.
        return self


# --- The seed's rules for a card (the player tables and every card that enters obey them) -------

COLUMN_ACTIONS = {"offense": OFFENSE_ACTIONS, "defense": DEFENSE_ACTIONS}


def column_problems(position: str, column: str, results: tuple[str, ...] | list[str]) -> list[str]:
    """What breaks the seed's card rules in one column ("offense" or "defense") of a `position`
    card: ten D10 faces, results from the column's actions ("PASS never occurs in the Defensive
    column"), exactly one EVT ("Each player has one"), no Bkr on a biker ("Only occurs on Skater
    and Catcher's cards"). Empty when the column is sound."""
    problems = []
    name = column.upper()
    if len(results) != 10:
        problems.append(f"{name} needs 10 results (one per D10 face), not {len(results)}.")
    unknown = sorted({str(r) for r in results if r not in COLUMN_ACTIONS[column]})
    if unknown:
        allowed = ", ".join(COLUMN_ACTIONS[column])
        problems.append(f"{name} may only hold {allowed}; not {', '.join(unknown)}.")
    events = sum(1 for r in results if r == EVT)
    if events != 1:
        problems.append(f"{name} has exactly one EVT, not {events}.")
    if position == BIKER and BKR in results:
        problems.append(f"{name}: Bkr never appears on a biker's card.")
    return problems


def card_problems(card: PlayerCard) -> list[str]:
    """Everything wrong with one player card, each problem a sentence naming the card."""
    problems = []
    if (
        not isinstance(card.number, int)
        or isinstance(card.number, bool)
        or not 0 <= card.number <= 99
    ):
        problems.append(f"uniform number must be 0-99, not {echoed(card.number)}.")
    if not isinstance(card.name, str) or not card.name.strip():
        problems.append("the name is empty.")
    if card.position not in POSITIONS:
        problems.append(f"position must be skater, biker or catcher, not {echoed(card.position)}.")
    if card.experience not in EXPERIENCES:
        problems.append(
            f"experience must be star, veteran or rookie, not {echoed(card.experience)}."
        )
    for column in ("offense", "defense"):
        problems.extend(column_problems(card.position, column, getattr(card, column)))
    return [f"Card #{card.number} {card.name}: {problem}" for problem in problems]


# --- Structured effects ----------------------------------------------------------------------
#
# Every FAC section carries an Effect the engine executes. An effect is a guarded step:
#   if `when` holds (or there is no `when`): perform `ops` in order, then follow `flow`;
#   otherwise: use `otherwise` (another Effect).
#
# A "place" names who is meant, as a string:
#   "<team>.<slot>"    team is offense|defense|home|away; slot is Biker1-3, Skater1-5, Catcher1-3
#                      (Skater5 or Catcher3 is the tenth player: the extra skater or catcher)
#   "<team>.random_player"          Random Player chart, Player column (bikers included)
#   "<team>.random_skater_catcher"  Random Player chart, Skater/Catcher column
#   "<team>.least_experienced"      the least experienced player on the track (ties: slot order)
#   "handler"   the ball handler;  "defender"  the defender matched against him
#   "attacker", "victim"            in the two ATTACK sections: the hitter and the player hit
#   "open"      nobody: as a control flow's defender, the Action Matrix's [Position Empty]
#               (the defense is beaten; the player in control still rolls on his card)
# "offense" is the team in control of the ball when the section is read; "defense" the other.

# Op kinds and their lengths.
OP_PENALTY = "penalty"  # length: a key of the penalty legend ("3min", "5min", "10min", ...)
OP_INJURY = "injury"  # length: new_ball | period | match | matches | d10_matches | season | killed
OP_BAN = "ban"  # length: matches | season | lifetime
OP_REST = "rest"  # forced rest, not an injury; length: new_ball | period
OP_GOAL = "goal"  # `who` scores, `assist` (optional place) gets the assist
OPEN_TRACK = "open"  # the place nobody stands in (see "open" above)
OP_KINDS = (OP_PENALTY, OP_INJURY, OP_BAN, OP_REST, OP_GOAL)

INJURY_LENGTHS = ("new_ball", "period", "match", "matches", "d10_matches", "season", "killed")
BAN_LENGTHS = ("matches", "season", "lifetime")
REST_LENGTHS = ("new_ball", "period")

# Flow kinds: what happens to the ball after the ops.
FLOW_CONTROL = "control"  # `who` takes the ball and rolls on his card vs `defender` (or his match)
FLOW_RETAIN = "retain"  # the team in control keeps the ball: next FAC, ACTION section
FLOW_TURNOVER = "turnover"  # the defense takes the ball: next FAC, ACTION section
FLOW_FIRE = "fire"  # the game restarts: next FAC, THE BALL FIRES section
FLOW_CATCH = "catch"  # `who` catches the fired ball (only in THE BALL FIRES)
FLOW_TOW = "tow"  # `who` (an offensive biker) is the identified biker (only in BIKER ID)
FLOW_KINDS = (FLOW_CONTROL, FLOW_RETAIN, FLOW_TURNOVER, FLOW_FIRE, FLOW_CATCH, FLOW_TOW)


@dataclass(frozen=True)
class Condition:
    """True when a player stands in `who` and matches `experiences` and `positions`.

    An empty tuple means "any". An empty slot never satisfies a condition: that is how the seed's
    "If no STAR in Skater4 ..." and "If Visiting team has a third catcher ..." are written.
    """

    who: str
    experiences: tuple[str, ...] = ()
    positions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    """One thing that happens to a player: a penalty, injury, ban, forced rest or goal."""

    kind: str  # one of OP_KINDS
    who: str  # the place it happens to (the scorer for OP_GOAL)
    length: str = ""  # see the OP_* comments above
    matches: int = 0  # for length "matches": how many matches
    by: str = ""  # injury: the place credited with the casualty on the scoresheet
    assist: str = ""  # goal: the place credited with the assist
    note: str = ""  # injury: nature of injury for the scoresheet, e.g. "broken jaw"


@dataclass(frozen=True)
class Flow:
    """Where the ball goes after a section's ops (see FLOW_* above)."""

    kind: str
    who: str = ""  # control / catch / tow: the place
    defender: str = ""  # control: a defender other than the usual match-up, if the card says so


@dataclass(frozen=True)
class Effect:
    """A guarded step: when `when` holds do `ops` then `flow`, else follow `otherwise`."""

    ops: tuple[Op, ...]
    flow: Flow
    when: Condition | None = None
    otherwise: Effect | None = None


@dataclass(frozen=True)
class Section:
    """One section of a FAC: the words printed for people and the effect the engine runs."""

    text: str
    effect: Effect


@dataclass(frozen=True)
class FastActionCard:
    """One of the 60 Fast Action Cards (seed: "FAST ACTION CARDS"). A FAC is read once, one
    section only: which one depends on the situation (new ball, control, Bkr, Att vs Att, EVT)."""

    index: int  # 1..60
    action: Section  # ACTION
    biker_id: Section  # BIKER ID
    attack_skater: Section  # ATTACK (SKATER/CATCHER)
    attack_biker: Section  # ATTACK (BIKER)
    ball_fires: Section  # The BALL FIRES...
    event: Section  # EVENT

    def sections(self) -> tuple[tuple[str, Section], ...]:
        """The six sections with their printed headings, in card order."""
        return tuple((heading, getattr(self, key)) for key, heading in SECTION_HEADINGS.items())
