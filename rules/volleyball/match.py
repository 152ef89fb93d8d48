"""The Volleyball match engine: seed rules 2-5 and the Volleyball rulings.

One match is best of five sets (rule 2). Each set, both formations' levels are changed by
the players' positions (rule 3), summed with the home-advantage, devotion and special
points (rule 4) into team totals, which give each team a scoring chance, adjusted by the
tactical concepts and the average risk factor (rule 5). Rallies are side-out: only the
server scores (rule 5, docs/rules/volleyball.md ruling 1). Players tire by five points a set played
and recover three a set rested (rule 2). After the match the devotion points used may cause a lack
of devotion (rule 4, ruling 11).

Every random draw is a d100 from the `random.Random` the caller passes (the league's), and
every roll is kept in the result so players can see it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from rules.errors import echoed
from rules.volleyball.models import Player, Team
from rules.volleyball.orders import (
    PLAYERS_PER_SET,
    SETS_PER_MATCH_ORDER,
    TIREDNESS_PER_SET,
    Concept,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    Position,
    SetOrder,
    VolleyballError,
    points_used,
    set_order_problems,
)
from rules.volleyball.wording import did_you_mean

HOME = "home"
AWAY = "away"
SETS_TO_WIN = 3
POINTS_TO_WIN_SET = 15
MIN_LEAD = 2
RECOVERY_PER_SET_RESTED = 3
DEVOTION_MAX_PER_MATCH = 30
SPECIAL_MAX_PER_MATCH = 40
LACK_OF_DEVOTION_CHECKS = 3
TALENT_MATCHES_NEEDED = 4
TALENT_SETS_PER_MATCH = 2
TALENT_LEVELS_AFTER_SCOUTING = 2
MIN_CHANCE = 1
MAX_CHANCE = 99


def other_side(side: str) -> str:
    return AWAY if side == HOME else HOME


def round_half_up(value: Fraction | int) -> int:
    """docs/rules/volleyball.md ruling 3, "Position changes": percentages round half up to whole
    points."""
    return math.floor(Fraction(value) + Fraction(1, 2))


# --- Player levels: positions, tiredness, rest, lack of devotion, eligibility ------------

# Rule 3: (OL percent rise, OL drop, DL percent rise, DL drop) per position.
POSITION_CHANGES: dict[Position, tuple[int, int, int, int]] = {
    Position.SETTER: (20, 0, 0, 2),
    Position.ATTACKER: (10, 0, 0, 1),
    Position.ALLROUND: (0, 0, 0, 0),
    Position.DEFENDER: (0, 1, 10, 0),
    Position.BLOCKER: (0, 2, 20, 0),
}


def position_levels(ol: int, dl: int, position: Position) -> tuple[int, int]:
    """Rule 3: a player's levels in a set at `position`. "Setter: OL rises 20 % and DL drops
    2 points", Attacker 10 % / 1, Defender and Blocker the mirror, Allround no change.
    docs/rules/volleyball.md ruling 3: the percentage rounds half up; a level never goes below 0."""
    ol_rise, ol_drop, dl_rise, dl_drop = POSITION_CHANGES[position]
    # floor(x / 100 + 1/2) == (x + 50) // 100 exactly: round_half_up in whole numbers.
    new_ol = ol + (ol * ol_rise + 50) // 100 - ol_drop
    new_dl = dl + (dl * dl_rise + 50) // 100 - dl_drop
    return max(0, new_ol), max(0, new_dl)


def tire(ol: int, dl: int, tired_from_ol: int | None = None) -> tuple[int, int]:
    """Rule 2: "a player looses five points of his level after every set he plays. It's up to
    the manager from which level he looses his points".

    `tired_from_ol` points come off OL and the rest of the five off DL. Without a choice
    (ruling, docs/rules/volleyball.md) each point comes off the higher level at that moment,
    OL on a tie, which keeps the player balanced. A level stops at 0.
    """
    if tired_from_ol is not None:
        return max(0, ol - tired_from_ol), max(0, dl - (TIREDNESS_PER_SET - tired_from_ol))
    for _ in range(TIREDNESS_PER_SET):
        if ol >= dl and ol > 0:
            ol -= 1
        elif dl > 0:
            dl -= 1
    return ol, dl


def rest(ol: int, dl: int, original_ol: int, original_dl: int) -> tuple[int, int]:
    """Rule 2: "For every set a player takes rest, he regains three points of his level back,
    with a maximum of his original levels". Ruling: each point goes to the level furthest
    below its original, OL on a tie."""
    for _ in range(RECOVERY_PER_SET_RESTED):
        ol_short = original_ol - ol
        dl_short = original_dl - dl
        if ol_short <= 0 and dl_short <= 0:
            break
        if ol_short >= dl_short:
            ol += 1
        else:
            dl += 1
    return ol, dl


def half_levels(ol: int, dl: int) -> tuple[int, int]:
    """Rule 4: a lack of devotion "means that a player has only half of its normal levels in
    the next match". Ruling: halves round half up, so a level of 1 stays 1."""
    return (ol + 1) // 2, (dl + 1) // 2  # round_half_up(ol / 2) in whole numbers


def match_levels(player: Player) -> tuple[int, int]:
    """The levels a player starts a match with: his own, halved after a lack of devotion."""
    if player.lack_of_devotion:
        return half_levels(player.ol, player.dl)
    return player.ol, player.dl


def can_play(player: Player, ol: int, dl: int) -> bool:
    """Rule 2: "Only players with both levels of at least 1 point can play. This rule also
    counts for players whose level drops below one point because of tiredness-loss. New
    talents with both levels at 0 are an exeption". The exception is for a talent who has
    not yet earned his 2/2 levels (his own levels are 0/0)."""
    if player.is_talent and player.ol == 0 and player.dl == 0:
        return True
    return ol >= 1 and dl >= 1


@dataclass
class SetLine:
    """One player's line in a set, as on the seed's form: start levels (after tiredness),
    position code, end levels (after the position change)."""

    player: str
    position: Position
    start_ol: int
    start_dl: int
    end_ol: int
    end_dl: int

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "position": int(self.position),
            "start_ol": self.start_ol,
            "start_dl": self.start_dl,
            "end_ol": self.end_ol,
            "end_dl": self.end_dl,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SetLine:
        return cls(
            str(data["player"]),
            Position(int(data["position"])),
            int(data["start_ol"]),
            int(data["start_dl"]),
            int(data["end_ol"]),
            int(data["end_dl"]),
        )


class Fatigue:
    """Every player's current levels during one match (rule 2), starting from his match
    levels and changed set by set by tiredness and rest."""

    def __init__(self, team: Team):
        self.team = team
        self.original: dict[str, tuple[int, int]] = {p.name: match_levels(p) for p in team.players}
        self.current: dict[str, tuple[int, int]] = dict(self.original)

    def levels(self, name: str) -> tuple[int, int]:
        return self.current[name]

    def after_set(self, slots: list[PlayerSlot]) -> None:
        """Tire the players who played the set, rest everyone else."""
        split = {slot.player: slot.tired_from_ol for slot in slots}
        current, original = self.current, self.original
        for name, levels in current.items():
            if name in split:
                current[name] = tire(*levels, split[name])
            elif levels != original[name]:  # a rested player at his own levels stays there
                current[name] = rest(*levels, *original[name])


def resolve_slots(team: Team, set_order: SetOrder) -> list[PlayerSlot]:
    """The set's slots with player names spelled as on the roster (orders match names
    case-insensitively); unknown names are dropped (validation reports them)."""
    resolved = []
    for slot in set_order.slots:
        player = team.player(slot.player)
        if player is not None:
            resolved.append(PlayerSlot(player.name, slot.position, slot.tired_from_ol))
    return resolved


def set_lines(slots: list[PlayerSlot], fatigue: Fatigue) -> list[SetLine]:
    """The players' lines of a set (rule 3): levels at the start of the set (after the sets
    before) and after the position change. `slots` are resolved (resolve_slots)."""
    lines = []
    for slot in slots:
        start_ol, start_dl = fatigue.levels(slot.player)
        end_ol, end_dl = position_levels(start_ol, start_dl, slot.position)
        lines.append(SetLine(slot.player, slot.position, start_ol, start_dl, end_ol, end_dl))
    return lines


def set_totals(lines: list[SetLine], set_order: SetOrder) -> tuple[int, int]:
    """Rule 4: a team's total OL and DL in a set, the players' end levels plus the
    home-advantage, devotion and special points put on each level."""
    points = (set_order.home_advantage, set_order.devotion, set_order.special)
    return (
        sum(line.end_ol for line in lines) + sum(p.ol for p in points),
        sum(line.end_dl for line in lines) + sum(p.dl for p in points),
    )


def lineup_levels(team: Team, orders: MatchOrders) -> list[list[SetLine]]:
    """The form's Startlevels/Endlevels for every set of `orders`, assuming the sets before
    it were played (which is true whenever that set is played). Unknown players are left
    out; players who cannot play still get a line (validation reports them)."""
    fatigue = Fatigue(team)
    all_lines = []
    for set_order in orders.sets:
        slots = resolve_slots(team, set_order)
        all_lines.append(set_lines(slots, fatigue))
        fatigue.after_set(slots)
    return all_lines


def eligible_players(team: Team, fatigue: Fatigue) -> list[Player]:
    return [p for p in team.players if can_play(p, *fatigue.levels(p.name))]


# --- Order validation --------------------------------------------------------------------


def validate_match_orders(
    team: Team,
    orders: MatchOrders,
    *,
    home: bool,
    home_advantage_points: int = 0,
    special_points_left: int | None = None,
) -> list[str]:
    """Every problem with one team's orders for one match, each a sentence for the manager;
    an empty list means the orders are valid.

    Checks: five sets (rule 2's five possible sets); each set's formation, concept and risk
    (orders.set_order_problems: rule 3 and docs/rules/volleyball.md ruling 2); the players are in
    the team and able to play after the tiredness of the sets before (rule 2); at most 30 devotion
    points and 40 special points in the match, no more special points than the team has left of its
    season pool (rule 4); home-advantage points only at home and no more than this match's allowance
    (rule 4: "can exclusively used for the specific home game").

    A set may be left empty only when the team cannot field six players able to play in it;
    it is then lost 0-15 (ruling, docs/rules/volleyball.md).
    """
    problems: list[str] = []
    if len(orders.sets) != SETS_PER_MATCH_ORDER:
        problems.append(
            f"The orders have {len(orders.sets)} sets; fill in all five sets "
            "(sets 4 and 5 are only played when needed)."
        )
    fatigue = Fatigue(team)
    for number, set_order in enumerate(orders.sets, start=1):
        if not set_order.slots:
            able = eligible_players(team, fatigue)
            if len(able) >= PLAYERS_PER_SET:
                problems.append(
                    f"Set {number} has no players; fill in six. A set may be left empty only "
                    "when you cannot field six players able to play (it is then lost 0-15)."
                )
            if (
                set_order.home_advantage.total
                or set_order.devotion.total
                or set_order.special.total
            ):
                problems.append(f"Set {number} has no players, so it cannot use any points.")
            fatigue.after_set([])
            continue
        problems.extend(set_order_problems(set_order, number))
        resolved = []
        for slot in set_order.slots:
            player = team.player(slot.player)
            if player is None:
                problems.append(
                    f"Set {number}: there is no player called {echoed(slot.player)} in {team.name}."
                    + did_you_mean(slot.player, [p.name for p in team.players])
                )
                continue
            resolved.append(PlayerSlot(player.name, slot.position, slot.tired_from_ol))
            ol, dl = fatigue.levels(player.name)
            if not can_play(player, ol, dl):
                problems.append(
                    f"Set {number}: {player.name} cannot play: his levels would be OL {ol} / DL {dl} "
                    "after the sets before, and a player needs both levels at least 1."
                )
        fatigue.after_set(resolved)

    devotion = orders.devotion_total
    if devotion > DEVOTION_MAX_PER_MATCH:
        problems.append(
            f"The orders use {devotion} devotion points; at most {DEVOTION_MAX_PER_MATCH} may be used in a match."
        )
    special = orders.special_total
    if special > SPECIAL_MAX_PER_MATCH:
        problems.append(
            f"The orders use {special} special points; at most {SPECIAL_MAX_PER_MATCH} may be used in a match."
        )
    pool = team.special_points if special_points_left is None else special_points_left
    if special > pool:
        problems.append(
            f"The orders use {special} special points but {team.name} has only {pool} left this season."
        )
    advantage = orders.home_advantage_total
    if not home and advantage:
        problems.append(
            "Home-advantage points can only be used in a home match; this is an away match."
        )
    elif home and advantage > home_advantage_points:
        problems.append(
            f"The orders use {advantage} home-advantage points; this home match has {home_advantage_points}."
        )
    return problems


# --- Scoring chance ------------------------------------------------------------------------

# Rule 5's table: (own concept, other concept) -> the share of the average risk factor the
# team with the own concept adds (negative: loses). Only the team named in the seed's line
# changes; pairs not listed and equal concepts change nothing (docs/rules/volleyball.md "A match").
_AC, _OC, _NC, _DC, _WC = (
    Concept.AGGRESSIVE,
    Concept.OFFENSIVE,
    Concept.NEUTRAL,
    Concept.DEFENSIVE,
    Concept.WALL,
)
CONCEPT_TABLE: dict[tuple[Concept, Concept], Fraction] = {
    (_AC, _OC): Fraction(1, 2),
    (_AC, _NC): Fraction(1),
    (_AC, _DC): Fraction(-1, 2),
    (_AC, _WC): Fraction(-1),
    (_OC, _NC): Fraction(1, 2),
    (_OC, _DC): Fraction(1, 2),
    (_OC, _WC): Fraction(-1, 2),
    (_NC, _DC): Fraction(1, 2),
    (_WC, _NC): Fraction(-1),
    (_WC, _DC): Fraction(-1, 2),
}


def concept_adjustment(own: Concept, other: Concept, own_risk: int, other_risk: int) -> Fraction:
    """Rule 5: percentage points added to (or taken from) the own team's scoring chance:
    the table's share of the ARF, "the average risk factor of both teams"."""
    average_risk = Fraction(own_risk + other_risk, 2)
    return CONCEPT_TABLE.get((own, other), Fraction(0)) * average_risk


def base_chance(offensive_total: int, other_defensive_total: int) -> Fraction:
    """Rule 5: "Total offensive level of the team divided by the total of: Total offensive
    level of the team together with the defensive level of the other team", as a percentage.
    Ruling: with both totals 0 the chance is 50 %."""
    denominator = offensive_total + other_defensive_total
    if denominator == 0:
        return Fraction(50)
    return Fraction(100 * offensive_total, denominator)


def scoring_chance(
    offensive_total: int,
    other_defensive_total: int,
    own_concept: Concept,
    other_concept: Concept,
    own_risk: int,
    other_risk: int,
) -> int:
    """A team's chance in whole percent to win a rally it serves (docs/rules/volleyball.md
    ruling 1): the base chance plus the concept adjustment, rounded half up to a whole percent (so a
    d100 decides each rally), clamped to 1-99 %."""
    chance = base_chance(offensive_total, other_defensive_total) + concept_adjustment(
        own_concept, other_concept, own_risk, other_risk
    )
    return min(MAX_CHANCE, max(MIN_CHANCE, round_half_up(chance)))


# --- Results ---------------------------------------------------------------------------------


@dataclass
class SetSide:
    """One team in one set: its formation lines, concept and risk, the points it used and
    the totals and scoring chance they give. `forfeit` marks a set it could not field."""

    concept: Concept
    risk: int
    lines: list[SetLine] = field(default_factory=list)
    home_advantage: LevelPoints = field(default_factory=LevelPoints)
    devotion: LevelPoints = field(default_factory=LevelPoints)
    special: LevelPoints = field(default_factory=LevelPoints)
    ol_total: int = 0
    dl_total: int = 0
    chance: int = 0
    forfeit: bool = False

    def to_dict(self) -> dict:
        return {
            "concept": int(self.concept),
            "risk": self.risk,
            "lines": [line.to_dict() for line in self.lines],
            "home_advantage": self.home_advantage.to_dict(),
            "devotion": self.devotion.to_dict(),
            "special": self.special.to_dict(),
            "ol_total": self.ol_total,
            "dl_total": self.dl_total,
            "chance": self.chance,
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SetSide:
        return cls(
            concept=Concept(int(data["concept"])),
            risk=int(data["risk"]),
            lines=[SetLine.from_dict(line) for line in data.get("lines", [])],
            home_advantage=LevelPoints.from_dict(data.get("home_advantage", {})),
            devotion=LevelPoints.from_dict(data.get("devotion", {})),
            special=LevelPoints.from_dict(data.get("special", {})),
            ol_total=int(data.get("ol_total", 0)),
            dl_total=int(data.get("dl_total", 0)),
            chance=int(data.get("chance", 0)),
            forfeit=bool(data.get("forfeit", False)),
        )


@dataclass
class Rally:
    """One rally: who served, the d100 rolled, and whether the server scored (roll <= chance)."""

    server: str
    roll: int
    scored: bool

    def to_dict(self) -> list:
        return [self.server, self.roll, self.scored]

    @classmethod
    def from_dict(cls, data: list) -> Rally:
        server, roll, scored = data
        return cls(str(server), int(roll), bool(scored))


@dataclass
class Run:
    """Points in a row by one team (a "5-0 run"), with the score it started from."""

    side: str
    points: int
    start_home: int
    start_away: int


def runs_of(rallies: list[Rally]) -> list[Run]:
    """Every stretch of points in a row by one team in a set's `rallies`, in order."""
    runs: list[Run] = []
    home = away = 0
    for rally in rallies:
        if not rally.scored:
            continue
        if runs and runs[-1].side == rally.server:
            runs[-1].points += 1
        else:
            runs.append(Run(rally.server, 1, home, away))
        if rally.server == HOME:
            home += 1
        else:
            away += 1
    return runs


def longest_serve_streak_of(rallies: list[Rally]) -> Run | None:
    """The most points one team scored in a single turn of service in a set's `rallies` (the
    first longest)."""
    best: Run | None = None
    current: Run | None = None
    home = away = 0
    for rally in rallies:
        if current is None or current.side != rally.server:
            current = Run(rally.server, 0, home, away)
        if rally.scored:
            current.points += 1
            if rally.server == HOME:
                home += 1
            else:
                away += 1
            if best is None or current.points > best.points:
                best = Run(current.side, current.points, current.start_home, current.start_away)
        else:
            current = None
    return best


def rally_summary(rallies: list[Rally], names: dict[str, str]) -> list[str]:
    """A set's rallies in a line or two (`names` by side): the longest serve streak and the
    runs of four points or more."""
    lines = []
    streak = longest_serve_streak_of(rallies)
    if streak is not None:
        lines.append(
            f"Longest serve streak: {names[streak.side]}, {streak.points} points "
            f"from {streak.start_home}-{streak.start_away}."
        )
    long_runs = [run for run in runs_of(rallies) if run.points >= 4]
    if long_runs:
        described = ", ".join(
            f"{names[run.side]} {run.points}-0 from {run.start_home}-{run.start_away}"
            for run in long_runs
        )
        lines.append(f"Runs: {described}.")
    return lines


@dataclass
class SetResult:
    """One played set: both sides, the first server, every rally and the final score."""

    number: int
    first_server: str
    home: SetSide
    away: SetSide
    rallies: list[Rally] = field(default_factory=list)
    home_points: int = 0
    away_points: int = 0

    @property
    def winner(self) -> str:
        return HOME if self.home_points > self.away_points else AWAY

    def side(self, side: str) -> SetSide:
        return self.home if side == HOME else self.away

    def points(self, side: str) -> int:
        return self.home_points if side == HOME else self.away_points

    def runs(self) -> list[Run]:
        """Every stretch of points in a row by one team, in order."""
        return runs_of(self.rallies)

    def longest_serve_streak(self) -> Run | None:
        """The most points one team scored in a single turn of service (the first longest)."""
        return longest_serve_streak_of(self.rallies)

    def rally_log(self, home_name: str, away_name: str) -> list[str]:
        """Every rally of the set as a line players can check: the server, the d100 against
        the server's chance, and the score after it."""
        names = {HOME: home_name, AWAY: away_name}
        chances = {HOME: self.home.chance, AWAY: self.away.chance}
        points = {HOME: 0, AWAY: 0}
        lines = []
        for number, rally in enumerate(self.rallies, start=1):
            chance = chances[rally.server]
            if rally.scored:
                points[rally.server] += 1
                outcome = f"{rally.roll} <= {chance}: point"
            else:
                outcome = f"{rally.roll} > {chance}: side-out"
            lines.append(
                f"{number}. {names[rally.server]} serve, d100 = {outcome}, "
                f"{points[HOME]}-{points[AWAY]}"
            )
        return lines

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "first_server": self.first_server,
            "home": self.home.to_dict(),
            "away": self.away.to_dict(),
            "rallies": [r.to_dict() for r in self.rallies],
            "home_points": self.home_points,
            "away_points": self.away_points,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SetResult:
        return cls(
            number=int(data["number"]),
            first_server=str(data["first_server"]),
            home=SetSide.from_dict(data["home"]),
            away=SetSide.from_dict(data["away"]),
            rallies=[Rally.from_dict(r) for r in data.get("rallies", [])],
            home_points=int(data["home_points"]),
            away_points=int(data["away_points"]),
        )


@dataclass
class MatchResult:
    """A played match: the teams, the orders they played with, every set, the points used
    per side (sets played only) and how many sets each player played."""

    home: str
    away: str
    home_orders: MatchOrders
    away_orders: MatchOrders
    sets: list[SetResult] = field(default_factory=list)
    sets_played: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def home_sets(self) -> int:
        return sum(1 for s in self.sets if s.winner == HOME)

    @property
    def away_sets(self) -> int:
        return sum(1 for s in self.sets if s.winner == AWAY)

    @property
    def winner(self) -> str:
        """The winning team's name."""
        return self.home if self.home_sets > self.away_sets else self.away

    def team_name(self, side: str) -> str:
        return self.home if side == HOME else self.away

    def devotion_used(self, side: str) -> int:
        """Devotion points used in the sets played (the sets not needed spend nothing)."""
        return sum(s.side(side).devotion.total for s in self.sets)

    def special_used(self, side: str) -> int:
        return sum(s.side(side).special.total for s in self.sets)

    @property
    def score_line(self) -> str:
        """ "Red 3-1 Blue (15-12, 11-15, 15-9, 17-15)" """
        sets = ", ".join(f"{s.home_points}-{s.away_points}" for s in self.sets)
        return f"{self.home} {self.home_sets}-{self.away_sets} {self.away} ({sets})"

    def set_summary(self, set_result: SetResult) -> list[str]:
        """The play-by-play summary of one set: the score, each side's totals, concept, risk
        and chance, the longest serve streak and the runs of four points or more."""
        names = {HOME: self.home, AWAY: self.away}
        lines = [
            f"Set {set_result.number} ({names[set_result.first_server]} serve first): "
            f"{self.home} {set_result.home_points}-{set_result.away_points} {self.away}"
        ]
        for side in (HOME, AWAY):
            info = set_result.side(side)
            if info.forfeit:
                lines.append(f"  {names[side]} could not field six players and forfeit the set.")
                continue
            if set_result.side(other_side(side)).forfeit:
                continue  # no rallies were played: there is no scoring chance to show
            lines.append(
                f"  {names[side]}: {info.concept.abbreviation} risk {info.risk}, "
                f"OL {info.ol_total} vs DL {set_result.side(other_side(side)).dl_total}, "
                f"scoring chance {info.chance} %"
            )
        if set_result.rallies:
            lines.append(
                f"  {len(set_result.rallies)} rallies; a d100 roll at or under the server's chance scores."
            )
        lines += [f"  {line}" for line in rally_summary(set_result.rallies, names)]
        return lines

    def players_who_played(self, side: str) -> list[str]:
        """The players of one side who played at least one set, in the order they first
        came on (what a spectator sees)."""
        names: dict[str, None] = {}
        for set_result in self.sets:
            for line in set_result.side(side).lines:
                names[line.player] = None
        return list(names)

    def public_summary(self, label: str = "") -> list[str]:
        """What a spectator at the match saw (docs/rules/volleyball.md, "What the
        public sees"): the score by set and the players who played, nothing of totals, concepts,
        risk, points or levels (rule 9 sells those)."""
        head = f"{label}: " if label else ""
        lines = [f"{head}{self.score_line}"]
        for side in (HOME, AWAY):
            played = self.players_who_played(side)
            lines.append(
                f"  {self.team_name(side)}: " + (", ".join(played) if played else "nobody")
            )
        forfeits = [
            f"set {s.number} ({self.team_name(side)} could not field six players)"
            for s in self.sets
            for side in (HOME, AWAY)
            if s.side(side).forfeit
        ]
        if forfeits:
            lines.append("  Forfeited: " + "; ".join(forfeits) + ".")
        return lines

    def side_summary(self, side: str, *, player_detail: bool = True) -> list[str]:
        """One side's own view of the match, set by set: concept, risk, totals against the
        other side's, the HA/DP/SP per level (OL/DL, those used) and the scoring chance; with
        `player_detail` each player's position and end levels. For the team's private sheet
        and for spy reports (rule 9). A forfeited set says so and has no chance (there were no rallies)."""
        name = self.team_name(side)
        lines = [f"{name} in {self.score_line}:"]
        for set_result in self.sets:
            info = set_result.side(side)
            other = set_result.side(other_side(side))
            if info.forfeit:
                lines.append(f"  Set {set_result.number}: forfeited, no six players to field.")
                continue
            if other.forfeit:
                lines.append(
                    f"  Set {set_result.number}: won by forfeit, the opponent had no six players."
                )
                continue
            points = "".join(f", {used}" for used in points_used(info))
            lines.append(
                f"  Set {set_result.number}: {info.concept.abbreviation} risk {info.risk}, "
                f"OL {info.ol_total} DL {info.dl_total} (opponent DL {other.dl_total})"
                f"{points}, scoring chance {info.chance} %"
            )
            if player_detail:
                lines.extend(
                    f"    {line.player}: {line.position.label} {line.end_ol}/{line.end_dl}"
                    for line in info.lines
                )
        return lines

    def summary(self) -> list[str]:
        """Every set's summary, then the final score (the GM's full view: both sides)."""
        lines: list[str] = []
        for set_result in self.sets:
            lines.extend(self.set_summary(set_result))
        lines.append(f"Final: {self.score_line}. {self.winner} win.")
        return lines

    def to_dict(self) -> dict:
        return {
            "home": self.home,
            "away": self.away,
            "home_orders": self.home_orders.to_dict(),
            "away_orders": self.away_orders.to_dict(),
            "sets": [s.to_dict() for s in self.sets],
            "sets_played": {side: dict(counts) for side, counts in self.sets_played.items()},
        }

    @classmethod
    def from_dict(cls, data: dict) -> MatchResult:
        return cls(
            home=str(data["home"]),
            away=str(data["away"]),
            home_orders=MatchOrders.from_dict(data["home_orders"]),
            away_orders=MatchOrders.from_dict(data["away_orders"]),
            sets=[SetResult.from_dict(s) for s in data.get("sets", [])],
            sets_played={
                str(side): {str(k): int(v) for k, v in counts.items()}
                for side, counts in data.get("sets_played", {}).items()
            },
        )


# --- Playing ---------------------------------------------------------------------------------


def first_server(set_number: int) -> str:
    """Rule 5: "the home playing team will start with the service in the first, third and
    eventually fifth set, while the opposing team starts with the service in the second and
    eventually the fourth set"."""
    return HOME if set_number % 2 == 1 else AWAY


def set_is_over(home_points: int, away_points: int) -> bool:
    """Rule 5: first to 15 with a lead of at least two; no cap (docs/rules/volleyball.md
    ruling 1)."""
    leader = max(home_points, away_points)
    return leader >= POINTS_TO_WIN_SET and abs(home_points - away_points) >= MIN_LEAD


def build_side(team: Team, set_order: SetOrder, fatigue: Fatigue) -> SetSide:
    """A team's side of a set: the formation's end levels plus the points on each level."""
    if not set_order.slots:
        return SetSide(set_order.concept, set_order.effective_risk, forfeit=True)
    lines = set_lines(resolve_slots(team, set_order), fatigue)
    ol_total, dl_total = set_totals(lines, set_order)
    return SetSide(
        concept=set_order.concept,
        risk=set_order.effective_risk,
        lines=lines,
        home_advantage=LevelPoints(set_order.home_advantage.ol, set_order.home_advantage.dl),
        devotion=LevelPoints(set_order.devotion.ol, set_order.devotion.dl),
        special=LevelPoints(set_order.special.ol, set_order.special.dl),
        ol_total=ol_total,
        dl_total=dl_total,
    )


def play_rallies(set_result: SetResult, rng: random.Random) -> None:
    """Rule 5 and docs/rules/volleyball.md ruling 1: the server wins a rally on a d100 roll at or
    under its scoring chance, scores and keeps the serve; otherwise the serve passes, nobody
    scores."""
    chances = {HOME: set_result.home.chance, AWAY: set_result.away.chance}
    server = set_result.first_server
    points = {HOME: 0, AWAY: 0}
    while not set_is_over(points[HOME], points[AWAY]):
        roll = rng.randint(1, 100)
        scored = roll <= chances[server]
        set_result.rallies.append(Rally(server, roll, scored))
        if scored:
            points[server] += 1
        else:
            server = other_side(server)
    set_result.home_points = points[HOME]
    set_result.away_points = points[AWAY]


def play_set(
    number: int,
    home_team: Team,
    away_team: Team,
    home_order: SetOrder,
    away_order: SetOrder,
    home_fatigue: Fatigue,
    away_fatigue: Fatigue,
    rng: random.Random,
) -> SetResult:
    """One set: both sides' totals and chances, then the rallies. A side that could not
    field six players loses the set 0-15; if neither could, the first server takes it 15-0
    (ruling, docs/rules/volleyball.md)."""
    home = build_side(home_team, home_order, home_fatigue)
    away = build_side(away_team, away_order, away_fatigue)
    result = SetResult(number, first_server(number), home, away)
    if home.forfeit or away.forfeit:
        home_wins = away.forfeit and (not home.forfeit or result.first_server == HOME)
        result.home_points, result.away_points = (15, 0) if home_wins else (0, 15)
        return result
    home.chance = scoring_chance(
        home.ol_total, away.dl_total, home.concept, away.concept, home.risk, away.risk
    )
    away.chance = scoring_chance(
        away.ol_total, home.dl_total, away.concept, home.concept, away.risk, home.risk
    )
    play_rallies(result, rng)
    return result


def play_match(
    home_team: Team,
    away_team: Team,
    home_orders: MatchOrders,
    away_orders: MatchOrders,
    rng: random.Random,
    *,
    home_advantage_points: int = 0,
    home_special_left: int | None = None,
    away_special_left: int | None = None,
    checked: bool = False,
) -> MatchResult:
    """Play one match (rules 2-5) and return its result; the teams are not changed (use
    `team_after_match`). Raises VolleyballError listing every problem of both teams' orders
    if either is invalid, before any die is rolled. `checked`: the caller has just validated
    both orders against these teams (the round does), so they are not checked twice."""
    problems = (
        []
        if checked
        else [
            f"{home_team.name}: {p}"
            for p in validate_match_orders(
                home_team,
                home_orders,
                home=True,
                home_advantage_points=home_advantage_points,
                special_points_left=home_special_left,
            )
        ]
        + [
            f"{away_team.name}: {p}"
            for p in validate_match_orders(
                away_team, away_orders, home=False, special_points_left=away_special_left
            )
        ]
    )
    if problems:
        raise VolleyballError(problems)

    result = MatchResult(home_team.name, away_team.name, home_orders, away_orders)
    home_fatigue, away_fatigue = Fatigue(home_team), Fatigue(away_team)
    played = {HOME: Counter[str](), AWAY: Counter[str]()}
    for index in range(SETS_PER_MATCH_ORDER):
        if result.home_sets == SETS_TO_WIN or result.away_sets == SETS_TO_WIN:
            break
        home_order, away_order = home_orders.sets[index], away_orders.sets[index]
        set_result = play_set(
            index + 1,
            home_team,
            away_team,
            home_order,
            away_order,
            home_fatigue,
            away_fatigue,
            rng,
        )
        result.sets.append(set_result)
        for side, team, order, fatigue in (
            (HOME, home_team, home_order, home_fatigue),
            (AWAY, away_team, away_order, away_fatigue),
        ):
            # A forfeited set is not played by anyone: both formations rest.
            forfeited = set_result.home.forfeit or set_result.away.forfeit
            slots = [] if forfeited else resolve_slots(team, order)
            played[side].update(slot.player for slot in slots)
            fatigue.after_set(slots)
    result.sets_played = {side: dict(counts) for side, counts in played.items()}
    return result


def copy_team(team: Team) -> Team:
    """A copy whose players can be changed freely. The last line-up's SetOrders are never
    changed in place (a new list replaces them), so the copy shares them."""
    return team.copy()


def count_talent_match(player: Player, sets_played: int) -> None:
    """Rule 6 for a new talent after a match: playing at least two sets of it counts the
    match, and after four such matches a talent still at 0/0 gets his 2/2 levels."""
    if not player.is_talent or sets_played < TALENT_SETS_PER_MATCH:
        return
    player.talent_matches += 1
    if player.talent_matches >= TALENT_MATCHES_NEEDED and player.ol == 0 and player.dl == 0:
        player.ol = player.dl = TALENT_LEVELS_AFTER_SCOUTING


def team_after_match(team: Team, result: MatchResult, side: str) -> Team:
    """The team after playing `result` on `side` (a new Team; the argument is unchanged):

    - every player is back at his own levels (rule 2: "After a game every players regains
      his original level"; tiredness never touched them) and a lack of devotion is used up
      (rule 4: half levels "in the next match" only);
    - the special points used in the sets played leave the season pool (rule 4);
    - a talent who played at least two sets counts a match; at four he gets 2/2 levels
      (rule 6);
    - the line-up is kept for rule 12's NMR (without HA, DP and SP).
    """
    after = copy_team(team)
    orders = result.home_orders if side == HOME else result.away_orders
    after.special_points -= result.special_used(side)
    played = result.sets_played.get(side, {})
    for player in after.players:
        player.lack_of_devotion = False
        count_talent_match(player, played.get(player.name, 0))
    after.last_lineup = orders.without_points().sets
    return after


# --- Lack of devotion ------------------------------------------------------------------------


@dataclass
class DevotionCheck:
    """Rule 4's lack-of-devotion checks for one team after one match: three d100 rolls, each
    a lack of devotion when at or under the devotion points used (docs/rules/volleyball.md
    ruling 11), and the player drawn at random for each."""

    team: str
    devotion_used: int
    rolls: list[int] = field(default_factory=list)
    players: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if not self.rolls:
            return f"{self.team} used no devotion points: no lack-of-devotion checks."
        rolls = ", ".join(str(r) for r in self.rolls)
        text = (
            f"{self.team} used {self.devotion_used} devotion points: three checks at "
            f"{self.devotion_used} %, d100 = {rolls}."
        )
        if not self.players:
            return text + " No lack of devotion."
        names = ", ".join(dict.fromkeys(self.players))
        return text + f" Lack of devotion: {names} will play the next match at half levels."

    def to_dict(self) -> dict:
        return {
            "team": self.team,
            "devotion_used": self.devotion_used,
            "rolls": list(self.rolls),
            "players": list(self.players),
        }

    @classmethod
    def from_dict(cls, data: dict) -> DevotionCheck:
        return cls(
            str(data["team"]),
            int(data["devotion_used"]),
            [int(r) for r in data.get("rolls", [])],
            [str(p) for p in data.get("players", [])],
        )


def roll_lack_of_devotion(team: Team, devotion_used: int, rng: random.Random) -> DevotionCheck:
    """Rule 4: "The total number of DP is divided by three and each points represents a 3 %
    chance of a LD. All three figures are compared with a random figure ... The players who
    suffer of LD are also randomly appointed." So three checks at DP % each
    (docs/rules/volleyball.md ruling 11); each success draws one player of the whole roster (the
    same player may be drawn twice, which changes nothing). No devotion points, no checks."""
    check = DevotionCheck(team.name, devotion_used)
    if devotion_used <= 0 or not team.players:
        return check
    for _ in range(LACK_OF_DEVOTION_CHECKS):
        roll = rng.randint(1, 100)
        check.rolls.append(roll)
        if roll <= devotion_used:
            check.players.append(rng.choice(team.players).name)
    return check


def apply_lack_of_devotion(team: Team, check: DevotionCheck) -> Team:
    """The team with the checked players marked to play their next match at half levels."""
    after = copy_team(team)
    hit = set(check.players)
    for player in after.players:
        if player.name in hit:
            player.lack_of_devotion = True
    return after


# --- A line-up when none is given ------------------------------------------------------------


def default_match_orders(
    team: Team, *, opponent: str = "", home: bool = True, match_number: int = 1
) -> MatchOrders:
    """A legal line-up without points for a team that gave none (rule 12 when there is no
    last line-up to repeat, and a starting point for computer managers): each set the six
    players with the highest current level total, all Allround, Neutral concept at the
    lowest risk; a set the team cannot field is left empty (and forfeited)."""
    fatigue = Fatigue(team)
    sets = []
    for _ in range(SETS_PER_MATCH_ORDER):
        able = eligible_players(team, fatigue)
        able.sort(key=lambda p: (-sum(fatigue.levels(p.name)), p.name))
        if len(able) < PLAYERS_PER_SET:
            set_order = SetOrder()
        else:
            set_order = SetOrder(slots=[PlayerSlot(p.name) for p in able[:PLAYERS_PER_SET]])
        sets.append(set_order)
        fatigue.after_set(set_order.slots)
    return MatchOrders(sets=sets, match_number=match_number, opponent=opponent, home=home)
