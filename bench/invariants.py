"""The invariants a chaos run (bench/chaos.py) must leave intact, checked on any Ballcourt
database, SQLite file or PostgreSQL URL:

    .venv/bin/python -m bench.invariants DB [--observed FILE] [--log FILE ...] [--seed N]

From the database alone:
  moves-once-in-order    every match's moves are stored once each, versions 1..version with no
                         gap, in the order they were saved
  records-verify         every finished match's record verifies (seed and salt against the
                         commitment published at its start, every action replayed, the result)
  results-once           every finished match has its result rows, for its own players only;
                         no unfinished match has any
  ratings-once           no player's rating counts more rated matches than they finished there
  league-rounds-once     every Volleyball league's rounds were played once each, 1..n (after the
                         season's opening, round 0), all posted
  season-matchdays-once  every Rollerball II season's matchdays before the current one are
                         settled, each fixture by one finished match of its own teams (played or
                         simulated), no match settling two fixtures
From what the players saw (``--observed``, the JSON bench/chaos.py writes):
  told-moves-stored      every move a player was told was taken is stored (once: the versions
                         are unique), at the version the player clicked on
  cards-show-stored      every live card shows its match's stored version (no move controls once
                         the match is over)
  clicks-answered        no click went unanswered past Discord's 3 s, except while the player's
                         shard was down (then Discord itself tells the player the application did
                         not respond)
  told-orders-stored     every Volleyball manager told their orders were accepted has them stored
                         for that round
  discord-rules-kept     nothing the bot sent was refused by Discord as against its rules (the
                         fake's violations; those of lateness are clicks-answered's)
From the bot's logs (``--log``):
  no-unhandled-exception no ERROR record with a traceback (nor a bare traceback) in any bot
                         process's log; ERROR records without one are the bot's reports of
                         faults it handled, WARNINGs with one a library's retries: counted, not
                         violations
  timers-once            no timer fired twice for one due time (the bot logs each firing)

Each invariant is printed with how many things it checked and how many broke it; the exit status
is 1 when any broke (with the seed, when given, to reproduce the run).
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from fakediscord.botproc import LOG_RECORD, error_records_in  # noqa: E402
from rules import records  # noqa: E402
from rules.face import GAMES, engine_for  # noqa: E402

Query = Callable[..., list[Sequence[Any]]]
RESULT_TABLES = {"rocketball": "rocketball_results", "rollerball": "rollerball_results"}
# The fake's violations that are a click answered late or never: clicks-answered judges them
# (they are fine while the player's shard was down).
LATENESS = ("no_response", "late_response", "deferred_without_followup")
FIRED = re.compile(r"timer (?P<id>\d+) \((?P<event>[^)]*)\) due at (?P<due>[\d.]+) fired")
DISCORD_DEADLINE = 3.0  # an interaction must be answered within 3 s (Discord's "Receiving an
# interaction": "you must send an initial response within 3 seconds")
SHOWN = 5  # violations printed per invariant


@dataclass
class Invariant:
    name: str
    checked: int = 0
    violations: list[str] = field(default_factory=list)

    def check(self, ok: bool, violation: str) -> None:
        self.checked += 1
        if not ok:
            self.violations.append(violation)


def connect(database: str) -> Query:
    """A query function over the database: a PostgreSQL URL or a SQLite file."""
    if database.startswith(("postgres://", "postgresql://")):
        from tests.support.postgres_reader import PostgresReader

        reader = PostgresReader(database)

        def pg(sql: str, *parameters: Any) -> list[Sequence[Any]]:
            with reader.connect(None) as conn:
                return [tuple(row) for row in conn.execute(sql, parameters).fetchall()]

        return pg
    if not Path(database).exists():
        raise SystemExit(f"no database at {database}")

    def lite(sql: str, *parameters: Any) -> list[Sequence[Any]]:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
            return conn.execute(sql, parameters).fetchall()

    return lite


def table_exists(sql: Query, table: str) -> bool:
    try:
        sql(f"SELECT 1 FROM {table} WHERE 1 = 0")  # a table name of ours, never input
    except Exception:  # absent: either backend raises its own type
        return False
    return True


# --- the database --------------------------------------------------------------------------------


def moves_once_in_order(sql: Query) -> Invariant:
    invariant = Invariant("moves-once-in-order")
    versions: dict[int, list[int]] = defaultdict(list)
    for game_id, version in sql("SELECT game_id, version FROM game_moves ORDER BY game_id, id"):
        versions[game_id].append(version)
    for game_id, version, status in sql("SELECT id, version, status FROM games"):
        saved = versions.get(game_id, [])
        if status == "pending" and not saved:
            continue
        invariant.check(
            saved == list(range(1, version + 1)),
            f"match {game_id} ({status}) at version {version} has moves stored as {saved[:20]}",
        )
    return invariant


def records_verify(sql: Query) -> Invariant:
    invariant = Invariant("records-verify")
    for game_id, game, state in sql("SELECT id, game, state FROM games WHERE status = 'finished'"):
        if game not in GAMES:
            continue
        data = json.loads(state)
        engine = engine_for(game)
        try:
            text = engine.record(engine.load(data["engine"]), salt=data["salt"], reveal=True)
            problems = list(engine.verify(text))
            if records.read_record(text).commitment != data["commitment"]:
                problems.append("its record's commitment is not the one published at its start")
        except Exception as error:  # a state that does not load: a finding
            problems = [f"its record cannot be made: {error!r}"]
        invariant.check(not problems, f"{game} match {game_id}: {'; '.join(problems)}")
    return invariant


def results_once(sql: Query) -> Invariant:
    invariant = Invariant("results-once")
    for game, table in RESULT_TABLES.items():
        if not table_exists(sql, table):
            continue
        rows: dict[int, list[int]] = defaultdict(list)
        for game_id, user_id in sql(f"SELECT game_id, user_id FROM {table}"):
            rows[game_id].append(user_id)
        seated: dict[int, set[int]] = defaultdict(set)
        for game_id, user_id in sql(
            "SELECT p.game_id, p.user_id FROM game_players p JOIN games g ON g.id = p.game_id"
            " WHERE g.game = ?",
            game,
        ):
            seated[game_id].add(user_id)
        for game_id, status in sql("SELECT id, status FROM games WHERE game = ?", game):
            users = rows.get(game_id, [])
            if status == "finished":
                invariant.check(
                    bool(users) and set(users) <= seated[game_id] | {0},
                    f"finished {game} match {game_id} has result rows for {users}",
                )
            else:
                invariant.check(not users, f"{status} {game} match {game_id} has a result")
    if table_exists(sql, "rollerball2_matches"):  # one row per match, its result once over
        for game_id, status, winner in sql(
            "SELECT g.id, g.status, m.winner FROM games g"
            " LEFT JOIN rollerball2_matches m ON m.game_id = g.id WHERE g.game = 'rollerball2'"
        ):
            over = status == "finished"
            invariant.check(
                (winner is not None) == over,
                f"{status} rollerball2 match {game_id} has winner {winner!r}",
            )
    return invariant


def ratings_once(sql: Query) -> Invariant:
    invariant = Invariant("ratings-once")
    if not table_exists(sql, "ratings"):
        return invariant
    finished = Counter(
        (game, guild_id, user_id)
        for game, guild_id, user_id in sql(
            "SELECT g.game, g.guild_id, p.user_id FROM games g JOIN game_players p"
            " ON p.game_id = g.id WHERE g.status = 'finished'"
        )
    )
    everywhere = Counter()  # guild_id 0: a player's rating across every server
    for (game, _, user_id), count in finished.items():
        everywhere[(game, 0, user_id)] += count
    for game, guild_id, user_id, played in sql(
        "SELECT game, guild_id, user_id, played FROM ratings"
    ):
        most = (everywhere if guild_id == 0 else finished)[(game, guild_id, user_id)]
        invariant.check(
            played <= most,
            f"{game} rating of user {user_id} counts {played} matches; they finished {most}",
        )
    return invariant


def league_rounds_once(sql: Query) -> Invariant:
    invariant = Invariant("league-rounds-once")
    if not table_exists(sql, "volleyball_reports"):
        return invariant
    rounds: dict[tuple[int, int], list[tuple[int, bool]]] = defaultdict(list)
    for league, season, number, posted in sql(
        "SELECT league_id, season, round_number, posted_at FROM volleyball_reports"
        " WHERE team = '' ORDER BY league_id, season, round_number"
    ):
        rounds[(league, season)].append((number, posted is not None))
    for (league, season), played in rounds.items():
        numbers = [number for number, _ in played]
        first = min(numbers, default=1)  # round 0: the season's opening post, no results
        invariant.check(
            first in (0, 1)
            and numbers == list(range(first, first + len(numbers)))
            and all(p for _, p in played),
            f"league {league} season {season}: rounds {numbers}, "
            f"unposted {[n for n, p in played if not p]}",
        )
    return invariant


def season_matchdays_once(sql: Query) -> Invariant:
    invariant = Invariant("season-matchdays-once")
    if not table_exists(sql, "rollerball2_fixtures"):
        return invariant
    matches = {
        game_id: (status, home, away, fixture)
        for game_id, status, home, away, fixture in sql(
            "SELECT g.id, g.status, m.home_team_id, m.away_team_id, m.fixture_id FROM games g"
            " JOIN rollerball2_matches m ON m.game_id = g.id"
        )
    }
    settled_by: Counter[int] = Counter()
    for fixture, season, matchday, current, home, away, game_id, how in sql(
        "SELECT f.id, f.season_id, f.matchday, s.current_matchday, f.home_team_id,"
        " f.away_team_id, f.game_id, f.how FROM rollerball2_fixtures f"
        " JOIN rollerball2_seasons s ON s.id = f.season_id ORDER BY f.id"
    ):
        where = f"season {season} matchday {matchday} fixture {fixture}"
        if how is None:
            theirs = [
                f"#{game_id} {status} (fixture {fixture_of})"
                for game_id, (status, h, a, fixture_of) in sorted(matches.items())
                if {h, a} & {home, away}
            ]
            invariant.check(
                matchday >= current,
                f"{where} ({home}-{away}) is unsettled; matchday {current} runs; the matches of"
                f" its teams: {', '.join(theirs) or 'none'}",
            )
            continue
        settled_by[game_id] += 1
        status, match_home, match_away, match_fixture = matches.get(game_id, (None,) * 4)
        invariant.check(
            status == "finished"
            and (match_home, match_away) == (home, away)
            and match_fixture == fixture,
            f"{where} was {how} by match {game_id} ({status}, teams {match_home}-{match_away},"
            f" fixture {match_fixture})",
        )
    for game_id, count in settled_by.items():
        invariant.check(count == 1, f"match {game_id} settled {count} fixtures")
    return invariant


# --- what the players saw --------------------------------------------------------------------------


def told_moves_stored(sql: Query, observed: dict[str, Any]) -> Invariant:
    invariant = Invariant("told-moves-stored")
    stored = {
        (game_id, version) for game_id, version in sql("SELECT game_id, version FROM game_moves")
    }
    for told in observed.get("told", []):
        game_id, version = told["game_id"], told["version"]
        # a click on the card of version v is the move that makes version v + 1
        invariant.check(
            (game_id, version + 1) in stored,
            f"{told['user']} was told their move on match {game_id} (version {version}) was "
            f"taken; no move {version + 1} is stored",
        )
    return invariant


def cards_show_stored(sql: Query, observed: dict[str, Any]) -> Invariant:
    invariant = Invariant("cards-show-stored")
    games = {
        game_id: (version, status)
        for game_id, version, status in sql("SELECT id, version, status FROM games")
    }
    for card in observed.get("cards", []):
        version, status = games.get(card["game_id"], (None, None))
        shown = card["shown_version"]
        invariant.check(
            shown == version or (status != "active" and shown is None),
            f"match {card['game_id']} ({status}) is at version {version}; its card shows {shown}",
        )
    return invariant


def clicks_answered(observed: dict[str, Any]) -> Invariant:
    invariant = Invariant("clicks-answered")
    for click in observed.get("clicks", []):
        invariant.check(
            not click["late"] or click["shard_down"],
            f"a click on match {click['game_id']} at {click['at']:.1f} s into the run (load "
            f"average {click.get('load', 0):.1f}, the fake's loop {click.get('fake_lag', 0):.2f} s"
            " late) was not answered within 3 s, its shard up: "
            f"{click['error'][:300]}",
        )
    return invariant


def told_orders_stored(sql: Query, observed: dict[str, Any]) -> Invariant:
    invariant = Invariant("told-orders-stored")
    if not observed.get("orders"):
        return invariant
    stored = {
        (team, season, number)
        for team, season, number in sql("SELECT team, season, round_number FROM volleyball_orders")
    }
    for told in observed["orders"]:
        key = (told["team"], told["season"], told["round"])
        invariant.check(
            key in stored,
            f"{told['team']}'s manager was told their orders for round {told['round']} of season"
            f" {told['season']} were accepted; none are stored",
        )
    return invariant


def discord_rules_kept(observed: dict[str, Any]) -> Invariant:
    invariant = Invariant("discord-rules-kept")
    for violation in observed.get("violations", []):
        if violation["kind"] in LATENESS:
            continue
        invariant.check(
            False, f"{violation['kind']} on {violation['route']}: {violation['description']}"
        )
    invariant.checked = max(invariant.checked, len(observed.get("clicks", [])))
    return invariant


def timers_once(logs: Iterable[Path]) -> Invariant:
    invariant = Invariant("timers-once")
    fired: Counter[tuple[str, str, str]] = Counter()
    for log in logs:
        if log.exists():
            for found in FIRED.finditer(log.read_text(errors="replace")):
                fired[(found["id"], found["event"], found["due"])] += 1
    for (timer, event, due), count in sorted(fired.items()):
        invariant.check(count == 1, f"timer {timer} ({event}) due at {due} fired {count} times")
    return invariant


def no_unhandled_exceptions(logs: Iterable[Path]) -> Invariant:
    """Every ERROR record and every traceback is looked at; an ERROR (or CRITICAL) record with a
    traceback, or a traceback outside any record, is an exception nothing handled. An ERROR
    record without one is the bot's own report of a fault it handled (the database unavailable:
    nothing is saved until it answers again); a WARNING with a traceback is a library's retry
    (asyncpg's pool reconnecting after a restart)."""
    invariant = Invariant("no-unhandled-exception")
    for log in logs:
        errors = error_records_in(log.read_text(errors="replace")) if log.exists() else []
        for error in errors:
            header = LOG_RECORD.match(error)
            retried = header is not None and header["level"] not in ("ERROR", "CRITICAL")
            invariant.check(
                retried or "Traceback (most recent call last)" not in error,
                f"{log.name}: {error[:800]}",
            )
    return invariant


def check(
    database: str, observed: dict[str, Any] | None = None, logs: Iterable[Path] = ()
) -> list[Invariant]:
    sql = connect(database)
    found = [
        moves_once_in_order(sql),
        records_verify(sql),
        results_once(sql),
        ratings_once(sql),
        league_rounds_once(sql),
        season_matchdays_once(sql),
    ]
    if observed is not None:
        found += [
            told_moves_stored(sql, observed),
            cards_show_stored(sql, observed),
            clicks_answered(observed),
            told_orders_stored(sql, observed),
            discord_rules_kept(observed),
        ]
    logs = list(logs)
    if logs:
        found += [no_unhandled_exceptions(logs), timers_once(logs)]
    return found


def report(found: list[Invariant], seed: int | None = None) -> tuple[str, int]:
    """The lines to print and the exit status (1 on any violation)."""
    lines = []
    for invariant in found:
        verdict = "ok" if not invariant.violations else "VIOLATED"
        lines.append(
            f"{invariant.name:<22} checked {invariant.checked:6d}  "
            f"violations {len(invariant.violations):4d}  {verdict}"
        )
        lines += [f"    - {violation}" for violation in invariant.violations[:SHOWN]]
        if len(invariant.violations) > SHOWN:
            lines.append(f"    ... and {len(invariant.violations) - SHOWN} more")
    broken = sum(len(invariant.violations) for invariant in found)
    if broken:
        again = "" if seed is None else f"; reproduce with --seed {seed}"
        lines.append(f"{broken} violations{again}")
    else:
        lines.append("every invariant holds")
    return "\n".join(lines), 1 if broken else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.invariants", description=__doc__)
    parser.add_argument("database", help="a SQLite file or a postgresql:// URL")
    parser.add_argument("--observed", type=Path, help="what the players saw (bench/chaos.py)")
    parser.add_argument("--log", type=Path, action="append", default=[], help="a bot log")
    parser.add_argument("--seed", type=int, help="the chaos run's seed, printed on a violation")
    args = parser.parse_args(argv)
    observed = json.loads(args.observed.read_text()) if args.observed else None
    text, status = report(check(args.database, observed, args.log), args.seed)
    print(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
