"""The scoresheet of a Rollerball II match and what carries over to later matches.

Seed clause: "ScoreSheet" in the workbook list (score by periods, then per player: Exit, Number,
OnTrack, Goals, Assists, Penalties, Catches, Casualties, Nature of Injury). Injuries and bans
that outlast the match carry over in the team's roster (docs/rules/rollerball2.md, "The scoresheet
and what carries over").

The engine fills these while the match runs; the renderer draws them as a box score.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PlayerLine:
    """One player's row on the scoresheet."""

    number: int
    name: str
    position: str  # skater / biker / catcher
    experience: str  # star / veteran / rookie
    on_track: bool = False  # he appeared on the track in this match
    exit: bool = False  # out for the rest of the match (injury, ejection, death, ban)
    goals: int = 0
    goal_order: list[int] = field(default_factory=list)  # team goal numbers he scored: [1, 4]
    assists: int = 0
    penalty_minutes: int = 0
    catches: int = 0  # fired balls caught
    casualties: list[int] = field(default_factory=list)  # opponents' numbers he knocked out
    injury: str = ""  # nature of injury and its length, e.g. "broken jaw (out 3 matches)"
    injuries: int = 0  # injuries suffered in the match (any length; bans and rest are not)


@dataclass
class TeamSheet:
    """One team's half of the scoresheet."""

    team: str
    side: str  # "home" or "away"
    players: list[PlayerLine]  # the whole roster, by uniform number
    # Goals per period, one entry per period started: four after a full match, a fifth for
    # overtime if it was played (fewer while the match is still running).
    score_by_period: list[int]

    @property
    def score(self) -> int:
        return sum(self.score_by_period)

    def line(self, number: int) -> PlayerLine:
        """The row of uniform `number` (KeyError if he is not on this team)."""
        for player in self.players:
            if player.number == number:
                return player
        raise KeyError(number)


# Carry-over kinds.
CARRY_INJURY = "injury"
CARRY_BAN = "ban"
CARRY_KILLED = "killed"


@dataclass(frozen=True)
class Absence:
    """A player who will miss matches after this one.

    `matches` is how many matches he misses; None means "not by count": for the season
    (`length` "season"), for life ("lifetime") or for ever (kind "killed")."""

    number: int
    kind: str  # CARRY_INJURY, CARRY_BAN or CARRY_KILLED
    length: str  # "matches", "season", "lifetime" or "killed"
    matches: int | None
    reason: str  # what happened, for people: "broken jaw", "match fixing"


@dataclass(frozen=True)
class Moment:
    """One line of the scoring or penalty summary (seed ScoreSheet: "You may wish to place a
    numeral ... to indicate which goal a player scored"): what, when, who."""

    kind: str  # "goal", "penalty", "injury" or "ban"
    clock: str  # "P2 07:30", "OT 01:00": the card's time in its period
    side: str  # "home" or "away"
    number: int
    name: str
    assist: int | None = None  # goal: the assisting teammate's number
    assist_name: str = ""
    detail: str = ""  # penalty: "3 minutes", "ejected ... (42 min)"; goal: the score after it,
    # visitors first ("2-1"), as the seed's scoresheet lists the visitors first; injury: its
    # nature and length; ban: its length


@dataclass
class MatchResult:
    """The final word on a match: both scoresheets, the score, the winner, what carries over."""

    home: TeamSheet
    away: TeamSheet
    winner: str | None  # "home", "away", or None for a draw
    overtime: bool  # an overtime period was played
    facs_played: int  # Fast Action Cards read in the whole match
    carry_over: dict[str, list[Absence]]  # "home"/"away" -> absences beyond this match
    moments: list[Moment] = field(default_factory=list)  # goals, penalties, injuries, bans

    @property
    def home_score(self) -> int:
        return self.home.score

    @property
    def away_score(self) -> int:
        return self.away.score
