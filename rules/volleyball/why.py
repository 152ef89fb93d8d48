"""What decided a played round, as events naming the rulings of docs/rules/volleyball.md ("R8"
is item 8 of its numbered Rulings list; any other name a topic of that page), for a Why?.

The engine names the rulings; a presenter words them from the page. Events are read from a
round's report (rounds.RoundReport) as it is stored: each set of each match (the rallies, and
what its line-ups and points brought into play), the devotion a team used, and the teams that
sent no orders. The rulings no round event decides (a new team's, the form's, the line-ups a
manager starts from) are listed on the page's "Why?" section.

What the public sees of a match is its score by set and who played ("What the public sees"):
a team's concept, positions and points are its own. So an event that names a ruling only a
team's orders bring in (its concept's formation, its positions, its points, its home advantage,
its devotion's checks) is that team's (`team`), for its manager's eyes; a set's public event
names only what any spectator could tell.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.volleyball.match import AWAY, HOME, MatchResult, SetResult, SetSide
from rules.volleyball.orders import CONCEPT_REQUIREMENTS, Position
from rules.volleyball.rounds import RoundReport
from rules.volleyball.wording import possessive

MATCH = "A match"  # the page's topic of rules 2 to 5


@dataclass(frozen=True)
class Ruled:
    """One thing a round decided, as players read it, and the rules that decided it; `team`
    names the team whose own information it tells (empty: anyone may read it)."""

    text: str
    rules: tuple[str, ...]
    team: str = ""


def own_rules(side: SetSide, home: bool) -> list[str]:
    """The rulings one side's orders for a set brought in: its concept's formation (R2), its
    positions (R3), its points (R9) and home advantage (R10): its own information."""
    if side.forfeit:
        return []
    rules: list[str] = []
    if side.concept in CONCEPT_REQUIREMENTS:
        rules.append("R2")
    if any(line.position != Position.ALLROUND for line in side.lines):
        rules.append("R3")
    if side.devotion.total or side.special.total or side.home_advantage.total:
        rules.append("R9")
    if home and side.home_advantage.total:
        rules.append("R10")
    return rules


def set_events(result: MatchResult, played: SetResult) -> list[Ruled]:
    """One set of a match: its score and the rulings anyone can see at work in it, then each
    side's own rulings (its orders), for that side's eyes."""
    rules: list[str] = [MATCH]
    sides = (played.home, played.away)
    if any(side.forfeit for side in sides):
        rules.append("R8")  # a set a team could not field: lost 0-15
    else:
        rules.append("R1")  # the rallies, the chance rounded and clamped
        rules.append("R6")  # who may play: both levels at least 1 at the set's start
    if played.number > 1:
        rules += ["R4", "R5"]  # the sets before tired who played and rested the others
    if played.number > 3:
        rules.append("R7")  # ordered with all five, played only when needed
    score = f"{played.home_points}-{played.away_points}"
    where = f"{result.home} v {result.away}, set {played.number}"
    events = [Ruled(f"{where}: {score}", tuple(rules))]
    for side in (HOME, AWAY):
        own = own_rules(played.side(side), side == HOME)
        if own:
            team = result.team_name(side)
            events.append(Ruled(f"{possessive(team)} orders in {where}", tuple(own), team))
    return events


def match_events(result: MatchResult) -> list[Ruled]:
    """A match's sets, then each side's lack-of-devotion checks (rule 4, ruling 11), the
    team's own."""
    events = [event for played in result.sets for event in set_events(result, played)]
    for side in (HOME, AWAY):
        used = sum(s.side(side).devotion.total for s in result.sets if not s.side(side).forfeit)
        if used:
            team = result.team_name(side)
            events.append(
                Ruled(
                    f"{team} used {used} devotion points: three checks at {used} %", ("R11",), team
                )
            )
    return events


def round_events(report: RoundReport) -> list[Ruled]:
    """A played round: the teams without orders (rule 12, ruling 16; the public post names
    them), then every match."""
    events = [
        Ruled(f"{team} sent no orders: the NMR line-up plays", ("R16",))
        for team in report.nmr_teams
    ]
    return events + [event for result in report.matches for event in match_events(result)]
