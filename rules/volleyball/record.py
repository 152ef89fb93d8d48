"""A played Volleyball match's record, which anyone can check against its round's dice
commitment (docs/rules/volleyball.md ruling 57; rules/records.py for the format every game
shares; rules/volleyball/fair.py for the seeds).

    # Volleyball: Red v Blue, match 1 of round 2, season 1
    [Game "volleyball"]
    [Commitment "9f2c..."]     the round's, published before its orders could matter
    [Seed "5be1..."] [Salt "07aa..."]   the round's rally seed and salt, revealed once it is played
    [Names ["Red", "Blue"]]    home, away
    [Match {"season": 1, "round": 2, "number": 1, "competition": "league"}]
    [Result "Red 3-1 Blue (15-12, 11-15, 15-9, 17-15)"]

    set 1 15-12 +-++-+--...    one line a set: each rally's outcome, + the server scored,
    set 2 forfeit away         - side-out; a set a side could not field names it

Each rally's d100 is the next roll of the match's generator (fair.py `match_rng`): replaying
the lines checks that every set starts with the server rule 5 names, that the serve passes on
every side-out, that a set ends exactly when it is won (15, two ahead), that the sets end when
a team has three, that each side's outcomes in a set fit one scoring chance between 1 and 99
(every roll it scored with at or under every roll it lost the serve on), and that the [Result]
is where the sets lead. The chances themselves are the teams' own (rule 9 sells them): a
manager checks his against his sheet; the record does not print them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import records
from rules.errors import PlayerError
from rules.records import Played, Record, RecordError
from rules.volleyball import fair
from rules.volleyball.match import (
    AWAY,
    HOME,
    SETS_TO_WIN,
    MatchResult,
    Rally,
    first_server,
    other_side,
    rally_summary,
    set_is_over,
)
from rules.volleyball.models import Fixture, FixtureResult

if TYPE_CHECKING:
    from rules.volleyball.rounds import RoundReport

NAME = fair.GAME
TITLE = "Volleyball"
SCORED, SIDE_OUT = "+", "-"
FORFEIT = "forfeit"
MAX_CHANCE = 99  # ruling 1: a chance is clamped to 1-99 %
KNOWN = ("Game", "Commitment", "Seed", "Salt", "Names", "Match", "Result")


@dataclass(frozen=True)
class SetPlayed:
    """One set as the record tells it: its number, the score, each rally (server, d100,
    scored) and the sides that could not field six players."""

    number: int
    home_points: int
    away_points: int
    rallies: tuple[Rally, ...] = ()
    forfeits: tuple[str, ...] = ()

    @property
    def winner(self) -> str:
        return HOME if self.home_points > self.away_points else AWAY


@dataclass(frozen=True)
class MatchView:
    """A replay's position: the match (names home, away; which match of which round) and the
    sets played so far."""

    home: str
    away: str
    label: str
    sets: tuple[SetPlayed, ...] = ()

    def name(self, side: str) -> str:
        return self.home if side == HOME else self.away

    def sets_won(self, side: str) -> int:
        return sum(1 for played in self.sets if played.winner == side)

    @property
    def over(self) -> bool:
        return max(self.sets_won(HOME), self.sets_won(AWAY)) == SETS_TO_WIN

    @property
    def score_line(self) -> str:
        """ "Red 3-1 Blue (15-12, 11-15, 15-9, 17-15)", as the round's results say it."""
        scores = ", ".join(f"{s.home_points}-{s.away_points}" for s in self.sets)
        return f"{self.home} {self.sets_won(HOME)}-{self.sets_won(AWAY)} {self.away} ({scores})"


@dataclass(frozen=True)
class Said:
    """An event of a replay step: one line players read."""

    text: str


def match_label(season: int, round_number: int, number: int, competition: str) -> str:
    """ "Match 1 of round 2, season 1" (a cup match: "Galaxy Cup, round 2, season 1")."""
    what = "Galaxy Cup" if competition == "cup" else f"Match {number}"
    return f"{what} of round {round_number}, season {season}"


def set_line(number: int, rallies: Sequence[Rally], score: tuple[int, int], forfeits) -> str:
    """A set's line in the record."""
    if forfeits:
        return f"set {number} {FORFEIT} {' '.join(forfeits)}"
    outcomes = "".join(SCORED if rally.scored else SIDE_OUT for rally in rallies)
    return f"set {number} {score[0]}-{score[1]} {outcomes}"


def match_record(
    result: MatchResult, fixture: Fixture, *, season: int, secret: str, reveal: bool = True
) -> str:
    """The record of `result`, the match of `fixture` played in round `fixture.round_number` of
    `season` of a league with `secret` (ruling 57). `reveal`: with the round's seed and salt
    (only once the round is played)."""
    number, competition = fixture.match_number, fixture.competition
    lines = [
        set_line(
            played.number,
            played.rallies,
            (played.home_points, played.away_points),
            tuple(side for side in (HOME, AWAY) if played.side(side).forfeit),
        )
        for played in result.sets
    ]
    label = match_label(season, fixture.round_number, number, competition)
    return records.write_record(
        NAME,
        seed=fair.round_seed(secret, season, fixture.round_number),
        salt=fair.round_salt(secret, season, fixture.round_number),
        reveal=reveal,
        name=TITLE,
        title=f"{TITLE}: {result.home} v {result.away}, {label}",
        names=(result.home, result.away),
        headers=[
            records.header(
                "Match",
                {
                    "season": season,
                    "round": fixture.round_number,
                    "number": number,
                    "competition": competition,
                },
            )
        ],
        result=result.score_line,
        actions=lines,
    )


def round_records(
    secret: str | None, report: RoundReport, results: Sequence[FixtureResult]
) -> list[tuple[Fixture, str]]:
    """The records of a round's matches (`report`'s, in the order they were played, the last
    of the league's `results`), with the round's seed revealed: the round is played. None for
    a round of a league without a secret (it had no commitment)."""
    if secret is None or not report.matches:
        return []
    played = results[len(results) - len(report.matches) :]
    found = []
    for result, fixture_result in zip(report.matches, played, strict=True):
        fixture = fixture_result.fixture
        if (fixture.home, fixture.away) != (result.home, result.away):
            raise ValueError(f"match {result.home} v {result.away} is not the fixture {fixture}")
        found.append((fixture, match_record(result, fixture, season=report.season, secret=secret)))
    return found


def _match_header(record: Record) -> tuple[int, int, int, str]:
    value = record.headers.get("Match")
    try:
        assert isinstance(value, dict)
        season, round_number, number = (int(value[key]) for key in ("season", "round", "number"))
        competition = str(value.get("competition", "league"))
    except (AssertionError, KeyError, TypeError, ValueError):
        raise RecordError("The record's [Match] is unreadable.") from None
    return season, round_number, number, competition


def described(text: str) -> tuple[str, str]:
    """A stored record's match and result in words ("Match 1 of round 2, season 1", its
    [Result]), as a list of matches names them; RecordError for an unreadable one."""
    record = records.read_record(text, known=KNOWN)
    return match_label(*_match_header(record)), str(record.result or "")


def _names(record: Record) -> tuple[str, str]:
    names = record.names
    if len(names) != 2:
        raise RecordError("The record's [Names] must name the home and the away team.")
    return names[0], names[1]


def _forfeited(number: int, sides: tuple[str, ...]) -> SetPlayed:
    """Ruling 8: the side that could not field six players loses 0-15; if neither could, the
    first server takes the set."""
    home_wins = AWAY in sides and (HOME not in sides or first_server(number) == HOME)
    home, away = (15, 0) if home_wins else (0, 15)
    return SetPlayed(number, home, away, (), sides)


def _played(number: int, outcomes: str, rng: random.Random) -> SetPlayed:
    """A set's rallies replayed from the match's generator; PlayerError where the outcomes do
    not follow the rules or fit no scoring chance."""
    if not outcomes or set(outcomes) - {SCORED, SIDE_OUT}:
        raise PlayerError(f"set {number}: each rally is {SCORED} or {SIDE_OUT}.")
    server = first_server(number)
    points = {HOME: 0, AWAY: 0}
    rallies = []
    for outcome in outcomes:
        if set_is_over(points[HOME], points[AWAY]):
            raise PlayerError(f"set {number} goes on after it was won.")
        scored = outcome == SCORED
        rallies.append(Rally(server, rng.randint(1, 100), scored))
        if scored:
            points[server] += 1
        else:
            server = other_side(server)
    if not set_is_over(points[HOME], points[AWAY]):
        raise PlayerError(f"set {number} ends at {points[HOME]}-{points[AWAY]}, before it is won.")
    for side in (HOME, AWAY):
        scored_with = [r.roll for r in rallies if r.server == side and r.scored]
        lost_with = [r.roll for r in rallies if r.server == side and not r.scored]
        highest_in = max(scored_with, default=1)
        lowest_out = min([*lost_with, MAX_CHANCE + 1])
        if highest_in >= lowest_out:
            raise PlayerError(
                f"set {number}: the {side} side scored on a d100 of {highest_in} but lost the "
                f"serve on {lowest_out}: no scoring chance gives both."
            )
    return SetPlayed(number, points[HOME], points[AWAY], tuple(rallies))


def set_words(view: MatchView, played: SetPlayed) -> list[str]:
    """A set as the replay tells it: the score, then the rallies' summary."""
    names = {HOME: view.home, AWAY: view.away}
    head = f"Set {played.number}: {view.home} {played.home_points}-{played.away_points} {view.away}"
    if played.forfeits:
        who = " and ".join(names[side] for side in played.forfeits)
        return [f"{head}: {who} could not field six players (ruling 8)."]
    serving = names[first_server(played.number)]
    return [
        f"{head}, {len(played.rallies)} rallies, {serving} serving first.",
        *rally_summary(list(played.rallies), names),
    ]


def plays(text: str) -> Iterator[Played]:
    """A record's steps: the line-up of the match (no die), then one set a line, each replayed
    from the revealed seed; PlayerError naming a line that does not replay."""
    record = records.read_record(text, known=KNOWN)
    seed = record.seed
    if seed is None:
        raise RecordError(records.NO_SEED)
    season, round_number, number, competition = _match_header(record)
    home, away = _names(record)
    rng = fair.match_rng(str(seed), number, home)
    view = MatchView(home, away, match_label(season, round_number, number, competition))
    yield Played(None, "", view, [Said(f"{home} (home) v {away}: {view.label}.")])
    for line_number, line in record.actions:
        if view.over:
            raise RecordError(f"Record line {line_number}: the match was already won.")
        parts = line.split()
        expected = len(view.sets) + 1
        if len(parts) < 3 or parts[0] != "set" or parts[1] != str(expected):
            raise RecordError(f"Record line {line_number}: set {expected} was expected.")
        if parts[2] == FORFEIT:
            sides = tuple(parts[3:])
            if not sides or set(sides) - {HOME, AWAY} or len(set(sides)) != len(sides):
                raise RecordError(f"Record line {line_number}: a forfeit names home or away.")
            played = _forfeited(expected, sides)
        else:
            try:
                played = _played(expected, parts[3] if len(parts) == 4 else "", rng)
            except PlayerError as error:
                raise RecordError(f"Record line {line_number}: {error}") from None
            if parts[2] != f"{played.home_points}-{played.away_points}":
                raise RecordError(
                    f"Record line {line_number}: the rallies make it "
                    f"{played.home_points}-{played.away_points}, not {parts[2]}."
                )
        view = MatchView(home, away, view.label, (*view.sets, played))
        events = [Said(words) for words in set_words(view, played)]
        if view.over:
            winner = view.name(HOME if view.sets_won(HOME) == SETS_TO_WIN else AWAY)
            events.append(Said(f"{winner} win {view.score_line}."))
        yield Played(None, line, view, events)
    if not view.over:
        raise RecordError("The record ends before a team has won three sets.")


def _final(record: Record, text: str) -> MatchView:
    view: Any = None
    for step in plays(text):
        view = step.state
    return view


def replay(text: str) -> dict[str, Any]:
    """The final position of a revealed record, as JSON data."""
    view = _final(records.read_record(text, known=KNOWN), text)
    return {
        "home": view.home,
        "away": view.away,
        "match": view.label,
        "sets": [[s.home_points, s.away_points] for s in view.sets],
        "result": view.score_line,
    }


def verify(text: str) -> list[str]:
    """What does not match in a played match's record (rules/records.py `verify`): the seed
    against the round's commitment, every rally replayed, the [Result]."""
    return records.verify(
        text,
        NAME,
        lambda record: _final(record, text).score_line,
        read=lambda given: records.read_record(given, known=KNOWN),
    )


class VolleyballRecords:
    """What the record tools need of a game (rules/face.py `engine_named`): its name, title,
    steps, final position and verification. Volleyball has no engine face (a league, not a
    turn-based match); its matches have records."""

    name = NAME
    title = TITLE

    def plays(self, text: str) -> Iterator[Played]:
        return plays(text)

    def replay(self, text: str) -> dict[str, Any]:
        return replay(text)

    def verify(self, text: str) -> list[str]:
        return verify(text)


RECORDS = VolleyballRecords()
