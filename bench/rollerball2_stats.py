"""Rollerball II statistics at 100,000 finished matches, on SQLite and on PostgreSQL.

    .venv/bin/python bench/rollerball2_stats.py [--matches 100000] [--postgres-url URL]

Every statistics command (`leaders`, `stats player`, `stats team`, `history`, all time and one
season; `injuries`) is timed as the command runs it without Discord: the team or player looked
up, then the embed built from the database (cogs/rollerball2/stats_commands.py), median and p99
over 200 calls each, against the goal of 20 ms (the ratio is figure / goal). Also timed: the
final transaction of a finished match, which now writes its statistics rows and totals
(db/rollerball2/matches.py: record_result), and counting matches finished before those rows existed
(count_old_matches, once at start-up).

The database holds one server with 40 teams of 25 players and 100,000 finished matches (about
5,000 a team, 64 seasons of a 40-team double round robin), each with the rows a finished match
writes: a line for each of the 12 players of a side who appeared and for each team, and their
totals of all time and of the season (filled directly, in bulk, with made-up but plausible
counts). SQLite runs as the bot runs it (WAL); without --postgres-url a throw-away PostgreSQL
server of this machine's binaries is started (tests/support/postgres_server.py), commits flushed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cogs.rollerball2 import stats_commands  # noqa: E402
from db import rollerball2 as store  # noqa: E402
from db.connect import open_database  # noqa: E402
from db.database import Database  # noqa: E402
from db.games import create_game  # noqa: E402
from rules.rollerball2.coach import auto_play  # noqa: E402
from rules.rollerball2.engine import new_match, result  # noqa: E402
from rules.rollerball2.roster import generate_roster  # noqa: E402
from rules.rollerball2.season import double_round_robin  # noqa: E402

GUILD = 1
TEAMS = 20
APPEARING = 12  # players of a side who appear in a match
GOAL_MS = 20.0
CHUNK = 5_000  # rows per executemany (one statement within the database's timeout)


def _player_line(rng: random.Random) -> tuple[int, ...]:
    """(on_track, goals, assists, penalty_minutes, catches, casualties, injuries)."""
    goals = rng.choices((0, 1, 2), (80, 17, 3))[0]
    return (
        1,
        goals,
        rng.choices((0, 1), (85, 15))[0],
        rng.choices((0, 3, 5), (90, 8, 2))[0],
        rng.choices((0, 1, 2), (70, 25, 5))[0],
        rng.choices((0, 1), (95, 5))[0],
        rng.choices((0, 1), (97, 3))[0],
    )


async def _insert(db: Database, sql: str, rows: list[tuple]) -> None:
    for start in range(0, len(rows), CHUNK):
        async with db.transaction() as conn:
            await conn.executemany(sql, rows[start : start + CHUNK])


async def fill(db: Database, count: int) -> tuple[list[store.Team], list[int]]:
    """The teams (real rosters), the seasons, and `count` finished matches with their rows."""
    rng = random.Random(2)
    teams = [
        await store.create_team(
            db,
            guild_id=GUILD,
            owner_id=10 + index,
            roster=generate_roster(index, f"Team {index:02d}"),
            colour="#0072b2",
            colour2="#f5f5f5",
            seed=str(index),
        )
        for index in range(TEAMS)
    ]
    numbers = {team.id: [card.number for card in team.roster.players] for team in teams}
    by_name = {team.name: team.id for team in teams}
    schedule = [
        [(by_name[home], by_name[away]) for home, away in day]
        for day in double_round_robin(list(by_name))
    ]
    per_season = sum(len(day) for day in schedule)
    seasons: list[int] = []
    games, matches, player_rows, team_rows = [], [], [], []
    player_totals: dict[tuple[int, int, int], list[int]] = {}
    team_totals: dict[tuple[int, int], list[int]] = {}
    names = {(t.id, c.number): c.name for t in teams for c in t.roster.players}
    fixtures_flat = [fixture for day in schedule for fixture in day]
    for index in range(count):
        season_index = index // per_season
        while len(seasons) <= season_index:
            seasons.append(len(seasons) + 1)
        season_id = seasons[season_index]
        home, away = fixtures_flat[index % per_season]
        game_id = index + 1
        finished = 1_700_000_000.0 + index * 60
        lines = {}
        goals = {}
        for team_id in (home, away):
            chosen = rng.sample(numbers[team_id], APPEARING)
            lines[team_id] = [(number, _player_line(rng)) for number in chosen]
            goals[team_id] = sum(line[1] for _, line in lines[team_id])
        winner = (
            "home" if goals[home] > goals[away] else "away" if goals[away] > goals[home] else "draw"
        )
        games.append((game_id, "rollerball2", GUILD, 5, "finished"))
        matches.append(
            (game_id, GUILD, home, away, "simulate", goals[home], goals[away], winner, finished)
        )

        sums = {
            team_id: [sum(line[i] for _, line in lines[team_id]) for i in range(7)]
            for team_id in (home, away)
        }
        for team_id, opponent in ((home, away), (away, home)):
            for number, line in lines[team_id]:
                name = names[(team_id, number)]
                player_rows.append(
                    (game_id, team_id, number, GUILD, season_id, finished, name, *line, "")
                )
                counts = (line[0], line[1], line[2], line[1] + line[2], *line[3:])
                for scope in (0, season_id):
                    total = player_totals.setdefault((scope, team_id, number), [0] * 8)
                    for position, value in enumerate(counts):
                        total[position] += value
            won, lost = goals[team_id] > goals[opponent], goals[team_id] < goals[opponent]
            # In TEAM_COUNTS' order: played, won, lost, drawn, goals for and against, assists,
            # catches, casualties, casualties suffered, penalty minutes, injuries.
            team_line = (
                1,
                int(won),
                int(lost),
                int(not won and not lost),
                goals[team_id],
                goals[opponent],
                sums[team_id][2],
                sums[team_id][4],
                sums[team_id][5],
                sums[opponent][5],
                sums[team_id][3],
                sums[team_id][6],
            )
            _, won_, lost_, drawn, goals_for, goals_against, *rest = team_line
            at_home = int(team_id == home)
            where = (game_id, team_id, GUILD, season_id, finished, opponent, at_home)
            team_rows.append((*where, goals_for, goals_against, won_, lost_, drawn, *rest))
            for scope in (0, season_id):
                total = team_totals.setdefault((scope, team_id), [0] * 12)
                for position, value in enumerate(team_line):
                    total[position] += value
    async with db.transaction() as conn:
        for season_id in seasons:
            await conn.execute(
                "INSERT INTO rollerball2_seasons (id, guild_id, channel_id, name, name_key,"
                " created_by, starts_at, hours, matchdays, created_at)"
                " VALUES (?, ?, 5, ?, ?, 1, 0, 48, ?, CURRENT_TIMESTAMP)",
                (season_id, GUILD, f"Season {season_id}", f"season {season_id}", len(schedule)),
            )
    await _insert(
        db,
        "INSERT INTO games (id, game, guild_id, channel_id, status, state, version, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?, '{}', 120, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
        games,
    )
    await _insert(
        db,
        "INSERT INTO rollerball2_matches (game_id, guild_id, home_team_id, away_team_id, mode,"
        " home_goals, away_goals, winner, result, finished_at, counted)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, 1)",
        matches,
    )
    await _insert(
        db,
        "INSERT INTO rollerball2_player_matches (game_id, team_id, number, guild_id, season_id,"
        " finished_at, name, on_track, goals, assists, penalty_minutes, catches, casualties,"
        " injuries, injury) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        player_rows,
    )
    await _insert(
        db,
        "INSERT INTO rollerball2_team_matches (game_id, team_id, guild_id, season_id,"
        " finished_at, opponent_id, at_home, goals_for, goals_against, won, lost, drawn,"
        " assists, catches, casualties, casualties_suffered, penalty_minutes, injuries)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        team_rows,
    )
    await _insert(
        db,
        "INSERT INTO rollerball2_player_totals (guild_id, scope, team_id, number, name, last_at,"
        " matches, goals, assists, points, penalty_minutes, catches, casualties, injuries)"
        " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (GUILD, scope, team_id, number, names[(team_id, number)], *values)
            for (scope, team_id, number), values in player_totals.items()
        ],
    )
    await _insert(
        db,
        "INSERT INTO rollerball2_team_totals (guild_id, scope, team_id, played, won, lost,"
        " drawn, goals_for, goals_against, assists, catches, casualties, casualties_suffered,"
        " penalty_minutes, injuries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(GUILD, scope, team_id, *values) for (scope, team_id), values in team_totals.items()],
    )
    async with db.transaction() as conn:
        if db.backend == "postgres":
            for table in ("games", "rollerball2_seasons"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM {table}"
                )
        await conn.execute("ANALYZE")
    return teams, seasons


async def timed(
    name: str, call, calls: int = 200, floor: float | None = None
) -> tuple[float, float]:
    """Median and p99 wall time of `calls` calls (what a user waits for), and the median CPU
    time of this process (SQLite's work included: it runs in this process's thread)."""
    samples, cpu = [], []
    for index in range(calls):
        started, processed = time.perf_counter(), time.process_time()
        await call(index)
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - processed) * 1000)
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered)
    print(
        f"  {name:<22} median {median:6.2f} ms  p99 {p99:6.2f} ms  (CPU {statistics.median(cpu):5.2f}"
        f" ms)   goal {GOAL_MS:.0f} ms   ratio {median / GOAL_MS:4.2f} / {p99 / GOAL_MS:4.2f}"
        + (f"   {median / floor:4.1f} x the floor" if floor else "")
    )
    return median, p99


def load() -> str:
    return "load average " + ", ".join(f"{value:.1f}" for value in os.getloadavg())


async def measure(target: Path | str, count: int, results: list) -> None:
    db = await open_database(target)
    await db.migrate()
    print(db.describe())
    started = time.perf_counter()
    teams, seasons = await fill(db, count)
    print(f"  filled {count} finished matches in {time.perf_counter() - started:.0f} s")
    rows = await db.fetch_one("SELECT COUNT(*) AS n FROM rollerball2_player_matches")
    print(f"  {rows['n'] if rows else 0} player lines, {len(seasons)} seasons, {len(teams)} teams")
    print(f"  timing ({load()}; on 2 cores above 2 every figure waits for the CPU)")
    season = await store.load_season(db, seasons[len(seasons) // 2])
    assert season is not None

    def team_at(index: int) -> store.Team:
        return teams[index % len(teams)]

    async def find(index: int) -> store.Team:
        found = await store.team_by_name(db, GUILD, team_at(index).name)
        assert found is not None
        return found

    async def player(index: int, chosen) -> None:
        team = await store.load_team(db, team_at(index).id)
        assert team is not None
        number = team.roster.players[index % len(team.roster.players)].number
        await stats_commands.player_embed(db, GUILD, team, number, chosen)

    async def team(index: int, chosen) -> None:
        await stats_commands.team_embed(db, GUILD, await find(index), chosen)

    async def history(index: int, chosen) -> None:
        assert await stats_commands.history_embed(db, GUILD, await find(index), chosen)

    async def leaders(index: int, chosen) -> None:
        assert await stats_commands.leaders_embed(db, GUILD, chosen)

    async def injuries(index: int) -> None:
        assert await stats_commands.injury_embed(db, GUILD, None)

    # The floor: one round trip to the database that does nothing, measured in the same run (on
    # a busy machine the commands' wall time is mostly their round trips waiting for a CPU).
    floor, _ = await timed("SELECT 1 (the floor)", lambda i: db.fetch_one("SELECT 1"))
    figures = {}
    for label, call in (
        ("leaders", leaders),
        ("stats player", player),
        ("stats team", team),
        ("history", history),
    ):
        figures[f"{label}"] = await timed(label, lambda i, call=call: call(i, None), floor=floor)
        figures[f"{label} season:"] = await timed(
            f"{label} season:", lambda i, call=call: call(i, season), floor=floor
        )
    figures["injuries"] = await timed("injuries", injuries, floor=floor)
    print(f"  ({load()})")

    # The final transaction of a finished match with its statistics rows, and counting old
    # matches once (real scoresheets, played by the default coaches).
    home, away = teams[0], teams[1]
    sheets = [result(auto_play(new_match(seed, home.roster, away.roster))[0]) for seed in range(20)]

    async def finish(index: int, rows_only: bool = False) -> None:
        game_id = await create_game(
            db,
            game="rollerball2",
            guild_id=GUILD,
            channel_id=5,
            players=[0],
            state="{}",
            status="finished",
        )
        async with db.transaction() as conn:
            await store.add_match(
                conn,
                game_id=game_id,
                guild_id=GUILD,
                home_team_id=home.id,
                away_team_id=away.id,
                mode="simulate",
                fixture_id=None,
            )
        sheet = sheets[index % len(sheets)]
        started = time.perf_counter()
        async with db.transaction() as conn:
            if rows_only:
                counted = store.CountedMatch(game_id, GUILD, None, 1.0, home.id, away.id, sheet)
                await store.count_match(conn, counted)
            else:
                await store.record_result(conn, game_id, sheet, {}, how="x")
        samples.append((time.perf_counter() - started) * 1000)

    for label, rows_only in (("last save, all of it", False), ("of it the stat rows", True)):
        samples: list[float] = []
        for index in range(100):
            await finish(index, rows_only)
        ordered = sorted(samples)
        print(
            f"  {label:<22} median {statistics.median(ordered):6.2f} ms  p99 {ordered[98]:6.2f} ms"
        )
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE rollerball2_matches SET counted = 0 WHERE game_id IN"
            " (SELECT game_id FROM rollerball2_matches ORDER BY game_id DESC LIMIT 100)"
        )
        await conn.execute(
            "UPDATE rollerball2_matches SET result = ? WHERE counted = 0",
            (store.result_to_json(sheets[0]),),
        )
        for table in ("rollerball2_player_matches", "rollerball2_team_matches"):
            await conn.execute(
                f"DELETE FROM {table} WHERE game_id IN"
                " (SELECT game_id FROM rollerball2_matches WHERE counted = 0)"
            )
    started = time.perf_counter()
    counted = await store.count_old_matches(db)
    elapsed = time.perf_counter() - started
    print(f"  counting {counted} old matches at start-up: {counted / elapsed:6.0f} matches/s")
    results.append((db.backend, figures))
    await db.close()


async def main(
    count: int, postgres_url: str | None, sqlite_only: bool, postgres_only: bool
) -> None:
    results: list = []
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-rb2-stats-"))
    if not postgres_only:
        await measure(folder / "bench.db", count, results)
    if sqlite_only:
        pass
    elif postgres_url is not None:
        await measure(postgres_url, count, results)
    else:
        from tests.support.postgres_server import PostgresServer, find_binaries

        binaries = find_binaries()
        if binaries is None:
            print("PostgreSQL: not installed here (apt-get install postgresql), or --postgres-url")
        else:
            server = PostgresServer(binaries)
            server.start(durable=True)
            try:
                await measure(server.create_database("bench"), count, results)
            finally:
                server.stop()
    if not results:
        return
    worst = max((p99, backend, name) for backend, f in results for name, (_, p99) in f.items())
    print(
        f"slowest p99: {worst[2]} on {worst[1]}, {worst[0]:.2f} ms; goal {GOAL_MS:.0f} ms; "
        f"ratio {worst[0] / GOAL_MS:.2f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--postgres-url", help="an empty PostgreSQL database to use instead")
    parser.add_argument("--sqlite-only", action="store_true", help="measure SQLite alone")
    parser.add_argument("--postgres-only", action="store_true", help="measure PostgreSQL alone")
    arguments = parser.parse_args()
    asyncio.run(
        main(
            arguments.matches,
            arguments.postgres_url,
            arguments.sqlite_only,
            arguments.postgres_only,
        )
    )
