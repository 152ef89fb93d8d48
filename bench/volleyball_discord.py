"""A Volleyball league round as the bot plays it at a deadline, database included: 16 teams,
every one with a manager and orders on file (the worst case: every team's orders are checked
again against the state), in a SQLite file like the bot's.

    python bench/volleyball_discord.py [--teams 16] [--repeats 5]

What one deadline costs (cogs/volleyball/league.py, Leagues.advance without sending): load
the league row and decode its state, read the orders on file, check them again, the computer
teams' orders, play the round (rules.volleyball.run_round), encode the state and save it with
the round's reports and the next deadline's timers in one versioned transaction. Sending is
Discord's time; drawing its images (the standings and the cup) is measured apart. Also what
the round keeps for its Why? (db/migrations/028_volleyball_round_why.sql: its events' lines and
rule ids) beside its reports' messages, in bytes of JSON.
Target: a 16-team round, database included, under 500 ms. Wall-clock seconds on a
shared machine: the best and the median of the repeats, with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.volleyball.league import Leagues, decode, encode
from db import volleyball as store
from db.connect import open_database
from db.database import Database
from host.locks import GameLocks
from render.volleyball import cup_bracket_pages, results_png, standings_png
from rules.volleyball import all_computer_orders, new_league

TARGET_MS = 500  # a 16-team round, database included (docs/rules/volleyball.md, "Speed")


class NoTimers:
    """The bot's timer service as the league service uses it while playing a round."""

    def register(self, event, handler) -> None:
        pass

    def wake(self) -> None:
        pass


async def league_with_orders(db: Database, teams: int, seed: int) -> int:
    """A running league of `teams` managed teams, each with orders on file for round 1 (the
    computer managers' orders stand in for what the managers sent)."""
    state = new_league([], total_teams=teams, seed=seed)
    sent = all_computer_orders(state)
    for number, team in enumerate(state.league.teams, start=1):
        team.manager_id = str(1000 + number)
    league_id = await store.create_league(
        db,
        guild_id=1,
        name=f"Bench {seed}",
        channel_id=2,
        ping_role_id=None,
        admin_role_id=None,
        created_by=3,
        settings={"teams": teams},
        deadline_rule={"every_hours": 24},
        remind_minutes=720,
        state=encode(state),
        anchor=time.time(),
    )
    async with db.transaction() as conn:
        for number, team in enumerate(state.league.teams, start=1):
            await store.add_manager(conn, league_id, 1000 + number, team.name)
    stored = await store.load_league(db, league_id)
    assert stored is not None
    stored = await store.save_league(db, stored, status="running")
    for team, orders in sent.items():
        await store.save_orders(
            db,
            stored,
            season=1,
            round_number=1,
            team=team,
            orders=json.dumps(orders.to_dict()),
            user_id=1,
        )
    return league_id


async def measure(teams: int, repeats: int) -> None:
    rounds: list[float] = []
    images: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        try:
            await db.migrate()
            # the bot, as far as the league service reads it
            bot: Any = SimpleNamespace(
                db=db,
                timers=NoTimers(),
                game_locks=GameLocks(),
                matches=SimpleNamespace(  # the match core's parts a league host registers with
                    vacation_listeners=[],
                    follows=SimpleNamespace(register=lambda *args: None),
                ),
            )
            leagues = Leagues(bot)
            for seed in range(repeats):
                league_id = await league_with_orders(db, teams, seed)
                start = time.perf_counter()
                played = await leagues.host.advance(league_id, expected=(1, 1), send=False)
                rounds.append(time.perf_counter() - start)
                assert played
                stored = await store.load_league(db, league_id)
                assert stored is not None
                state = decode(stored)
                assert state.league.round_number == 2
                reports = await store.unposted_reports(db, league_id)
                assert len(reports) == teams + 1  # the public summary and a sheet per manager
                assert "No orders from" not in reports[0].messages[0]  # every team's orders
                kept = [len(json.dumps(r.why, separators=(",", ":"))) for r in reports]
                sent = sum(len(json.dumps(r.messages)) for r in reports)
                start = time.perf_counter()
                for division in state.league.divisions:  # as the public post has them
                    results_png(state, division, 1)
                    standings_png(state, division)
                cup_bracket_pages(state)
                images.append(time.perf_counter() - start)
        finally:
            await db.close()  # an open connection's thread would keep the process alive
    size = len(stored.state)
    median = statistics.median(rounds) * 1000
    print(
        f"{teams}-team round at its deadline, database included: best "
        f"{min(rounds) * 1000:.0f} ms, median {median:.0f} ms "
        f"({repeats} leagues; state {size // 1000} KB); goal {TARGET_MS} ms, ratio "
        f"{median / TARGET_MS:.2f} {'ok' if median <= TARGET_MS else 'OVER'}"
    )
    print(
        f"its images (results and standings per division + cup): best {min(images) * 1000:.0f} ms, median "
        f"{statistics.median(images) * 1000:.0f} ms"
    )
    print(
        f"kept for its Why?: {sum(kept):,} bytes (the public report {kept[0]:,}, the "
        f"{len(kept) - 1} sheets {sum(kept[1:]):,}), beside its reports' messages {sent:,} bytes"
    )
    with contextlib.suppress(OSError):
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--teams", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(measure(args.teams, args.repeats))


if __name__ == "__main__":
    main()
