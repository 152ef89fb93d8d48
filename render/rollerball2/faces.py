"""What the Rollerball II images show, as plain data the drawing code reads.

The engine's own objects (player cards, Fast Action Cards, the match result) are turned into
these "faces" by the `*_face` functions below, so the drawing code never depends on how the
engine stores things internally, only on what a player sees printed on the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.rollerball2.cards import SECTION_HEADINGS, FastActionCard, PlayerCard
from rules.rollerball2.scoresheet import CARRY_KILLED, Absence, MatchResult, PlayerLine, TeamSheet
from rules.rollerball2.state import PERIOD_FACS, PERIODS

# The six action codes of the seed's player card, in the order the legend lists them.
CODE_MEANINGS: tuple[tuple[str, str], ...] = (
    ("GOAL", "goal"),
    ("PASS", "pass"),
    ("LOSE", "lose ball"),
    ("Att", "attack"),
    ("Bkr", "biker"),
    ("EVT", "event"),
)

# The seed's FAC sections, in the order the sample card prints them.
FAC_SECTIONS: tuple[str, ...] = tuple(SECTION_HEADINGS.values())


@dataclass(frozen=True)
class CardFace:
    """A player card as printed: identity plus the D10 table, no numeric ratings.

    `offense[i]` and `defense[i]` are the results for a D10 roll of i + 1, as in the engine;
    the card prints them in cards.PRINTED_FACES order (face 0, i.e. the engine's 10, first).
    """

    number: str
    name: str
    position: str  # "Skater", "Biker" or "Catcher"
    experience: str  # "STAR", "VETERAN" or "ROOKIE"
    team: str
    offense: tuple[str, ...]
    defense: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.offense) != 10 or len(self.defense) != 10:
            raise ValueError("a player card has exactly ten rows (D10 = 1-10) in each column")


@dataclass(frozen=True)
class FacFace:
    """A Fast Action Card as printed: its number and the six sections' texts, in seed order."""

    number: int
    sections: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        if len(self.sections) != len(FAC_SECTIONS):
            raise ValueError("a Fast Action Card has exactly six sections")


@dataclass(frozen=True)
class BoxLine:
    """One row of the box score: a player who was on the track in this match."""

    number: str
    name: str
    position: str  # "Skater", "Biker" or "Catcher"
    experience: str  # "STAR", "VETERAN" or "ROOKIE"
    goals: int = 0
    goal_order: tuple[int, ...] = ()  # which of his team's goals he scored: (1, 4)
    assists: int = 0
    penalty_minutes: int = 0
    catches: int = 0
    casualties: tuple[str, ...] = ()  # uniform numbers of opponents this player knocked out
    injury: str = ""  # nature of injury with its length, empty when unhurt
    exited: bool = False  # out for the rest of the match (injury, ejection, death)


@dataclass(frozen=True)
class TeamBox:
    """One team's half of the box score."""

    name: str
    side: str  # "VISITORS" or "HOME"
    goals_by_period: tuple[int, ...]
    players: tuple[BoxLine, ...] = ()
    absences: tuple[str, ...] = ()  # what carries over to later matches, one line each

    @property
    def total(self) -> int:
        return sum(self.goals_by_period)


@dataclass(frozen=True)
class BoxScore:
    """The whole box score: score by period and the two teams (visitors first, as the seed)."""

    visitors: TeamBox
    home: TeamBox
    period_labels: tuple[str, ...]  # "1".."4", plus "OT" when overtime was played
    result_line: str  # "Houston win 7-5", "Draw 4-4"


# --- From the engine's objects to faces -------------------------------------------------------


def card_face(card: PlayerCard) -> CardFace:
    """The printed face of an engine PlayerCard (rules/rollerball2/cards.py)."""
    return CardFace(
        number=str(card.number),
        name=card.name,
        position=card.position.title(),
        experience=card.experience.upper(),
        team=card.team,
        offense=tuple(card.offense),
        defense=tuple(card.defense),
    )


def fac_face(fac: FastActionCard) -> FacFace:
    """The printed face of an engine FastActionCard: its number and six section texts."""
    return FacFace(
        number=fac.index,
        sections=tuple((heading, section.text) for heading, section in fac.sections()),
    )


def _box_line(line: PlayerLine) -> BoxLine:
    return BoxLine(
        number=str(line.number),
        name=line.name,
        position=line.position.title(),
        experience=line.experience.upper(),
        goals=line.goals,
        goal_order=tuple(line.goal_order),
        assists=line.assists,
        penalty_minutes=line.penalty_minutes,
        catches=line.catches,
        casualties=tuple(str(number) for number in line.casualties),
        injury=line.injury,
        exited=line.exit,
    )


def _absence_line(absence: Absence, names: dict[int, str]) -> str:
    """ "#12 Name: broken jaw, misses 3 matches" - what the roster will remember."""
    who = f"#{absence.number} {names.get(absence.number, '')}".strip()
    if absence.kind == CARRY_KILLED or absence.length == "killed":
        length = "killed"
    elif absence.matches is not None:
        length = f"misses {absence.matches} match" + ("" if absence.matches == 1 else "es")
    elif absence.length == "season":
        length = "out for the season"
    elif absence.length == "lifetime":
        length = "banned for life"
    else:
        length = absence.length
    reason = f"{absence.reason}, " if absence.reason else ""
    return f"{who}: {reason}{length}"


def _team_box(sheet: TeamSheet, absences: list[Absence], periods: int) -> TeamBox:
    # The box score lists who played; a player hurt or punished off the track is listed too.
    players = tuple(
        _box_line(line)
        for line in sorted(sheet.players, key=lambda player: player.number)
        if line.on_track or line.injury or line.exit or line.penalty_minutes
    )
    names = {line.number: line.name for line in sheet.players}
    return TeamBox(
        name=sheet.team,
        side="HOME" if sheet.side == "home" else "VISITORS",
        # Padded so both teams show a figure under every period played so far.
        goals_by_period=tuple(sheet.score_by_period)
        + (0,) * (periods - len(sheet.score_by_period)),
        players=players,
        absences=tuple(_absence_line(absence, names) for absence in absences),
    )


def _all_periods_played(result: MatchResult) -> bool:
    """Every card of the match is read: four periods, or five once sudden-death overtime has
    started (a level match ends no sooner: a golden goal would have broken the tie)."""
    periods = PERIODS + 1 if result.overtime else PERIODS
    return result.facs_played >= periods * PERIOD_FACS


def result_line(result: MatchResult) -> str:
    """The headline: "Houston win 7-5", "Draw 4-4", or for a match still being played
    "Houston lead 3-2 after 57 FACs" (the engine names no winner before the end)."""
    home, away = result.home, result.away
    if result.winner in ("home", "away"):
        winner, loser = (home, away) if result.winner == "home" else (away, home)
        line = f"{winner.team} win {winner.score}-{loser.score}"
        return line + (" after overtime" if result.overtime else "")
    if home.score == away.score and _all_periods_played(result):
        return f"Draw {away.score}-{home.score}" + (" after overtime" if result.overtime else "")
    if home.score == away.score:
        line = f"Level at {away.score}-{home.score}"
    else:
        leader, trailer = (home, away) if home.score > away.score else (away, home)
        line = f"{leader.team} lead {leader.score}-{trailer.score}"
    return line + f" after {result.facs_played} FACs"


def box_score(result: MatchResult) -> BoxScore:
    """The box score of an engine MatchResult (rules/rollerball2/scoresheet.py)."""
    periods = max(len(result.away.score_by_period), len(result.home.score_by_period), 4)
    extra = periods - 4
    overtime_labels = ("OT",) if extra == 1 else tuple(f"OT{n}" for n in range(1, extra + 1))
    labels = ("1", "2", "3", "4", *overtime_labels)
    visitors = _team_box(result.away, result.carry_over.get("away", []), periods)
    home = _team_box(result.home, result.carry_over.get("home", []), periods)
    return BoxScore(
        visitors=visitors, home=home, period_labels=labels, result_line=result_line(result)
    )
