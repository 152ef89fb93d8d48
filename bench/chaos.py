"""A chaos run: the real bot plays on through faults injected at random moments, and at the end
the invariant checker (bench/invariants.py) says whether anything was lost.

    .venv/bin/python bench/chaos.py [--backend postgres|sqlite] [--minutes 60] [--seed N]
                                    [--matches 20] [--keep DIR]

postgres: a PostgreSQL server of its own (tests/postgres/server.py), the sharded fake Discord
(fakediscord/sharded.py) with a guild on each of two shards, and two bot.py processes, one shard
each. sqlite: one bot.py process on a SQLite file, both guilds on its one shard.

Played meanwhile, at a human pace (a second or two between clicks): Rocketball matches between
two people and against the computer, by clicking and picking on the live cards as the players
would, each choosing what the computer's easy level would. A new match starts whenever one ends,
so `--matches` are in play at any moment.

The chaos driver, from the seed, picks a fault from FAULTS every few seconds (those of the
backend) and injects it; a fault kind is one entry there. At the end every process is running
again, the cards are given time to catch up, and the checker runs on the database, on what the
players saw (what they were told about their clicks, what the cards show) and on the logs. It
prints each invariant with its count, the faults injected by kind, the moves played, and exits 1
on any violation, with the seed to reproduce the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import invariants  # noqa: E402
from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.model import Channel, DiscordViolation, DriverError, User  # noqa: E402
from fakediscord.ratelimits import GLOBAL_LIMIT  # noqa: E402
from fakediscord.sharded import ShardedFakeDiscord  # noqa: E402
from rules.face import engine_for  # noqa: E402
from rules.rocketball import choose_action  # noqa: E402
from tests.e2e.cards import card_version, is_card  # noqa: E402
from tests.e2e.rocketball_clicks import click_action  # noqa: E402
from tests.postgres.server import PostgresServer, find_binaries  # noqa: E402

ROCKETBALL = engine_for("rocketball")
PACE = (0.5, 2.0)  # seconds a player takes between looking at the card and clicking
FAULT_GAP = (4.0, 12.0)  # seconds between two faults
SETTLE_SECONDS = 15.0  # after the last fault: every process up, cards catching up


@dataclass
class Observed:
    """What the players saw: bench/invariants.py's --observed."""

    told: list[dict[str, Any]] = field(default_factory=list)
    clicks: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"told": self.told, "clicks": self.clicks, "cards": self.cards}


class Chaos:
    def __init__(
        self,
        *,
        backend: str,
        seconds: float,
        seed: int,
        matches: int,
        folder: Path,
        kinds: tuple[str, ...] = (),
    ) -> None:
        self.backend, self.seconds, self.seed = backend, seconds, seed
        self.matches, self.folder = matches, folder
        self.kinds = kinds  # the fault kinds to inject (none named: every kind of the backend)
        self.rng = random.Random(seed)
        self.faults: Counter[str] = Counter()
        self.fault_failures: list[str] = []
        self.observed = Observed()
        self.started = time.monotonic()
        self.down: dict[
            int, list[list[float | None]]
        ] = {}  # shard -> [start, end] windows it was down
        self.postgres: PostgresServer | None = None
        self.url = ""
        self.games: dict[int, Channel] = {}  # match id -> its thread
        self.moves_clicked = 0
        self.finished = 0
        self.shards = 2 if backend == "postgres" else 1

    # --- the cluster -----------------------------------------------------------------------------

    def build(self) -> None:
        if self.backend == "postgres":
            binaries = find_binaries()
            if binaries is None:
                raise SystemExit("no PostgreSQL installed (initdb, pg_ctl)")
            self.postgres = PostgresServer(binaries)
            self.postgres.start()
            self.url = self.postgres.create_database("chaos")
        fake = ShardedFakeDiscord(shard_count=self.shards, first_guild_shard=0)
        self.fake = fake
        self.users = [fake.add_user(f"player{index:02d}") for index in range(2 * self.matches)]
        self.channels = [fake.add_channel("general"), fake.add_channel("games")]
        second = fake.add_guild("Second Court", shard=(self.shards - 1, self.shards))
        self.channels += [fake.add_channel(name, guild=second) for name in ("court", "pitch")]
        fake.start()
        self.discord = DiscordDriver(fake, self.channels[0])
        self.processes = [self.process(shard) for shard in range(self.shards)]
        for process in self.processes:
            process.start()
        self.down = {shard: [] for shard in range(self.shards)}

    def process(self, shard: int) -> BotProcess:
        env = {"GAME_SEED": str(self.seed), "TIMER_RECHECK_SECONDS": "0.5"}
        if self.backend == "postgres":
            env |= {"DATABASE_URL": self.url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
        return BotProcess(
            self.fake,
            database_path=self.folder / "ballcourt.db",
            log_path=self.folder / f"shard-{shard}.log",
            owner_ids=[self.fake.owner.id],
            extra_env=env,
        )

    @property
    def database(self) -> str:
        return self.url or str(self.folder / "ballcourt.db")

    def sql(self, query: str, *parameters: Any) -> list[Any]:
        if self.url:
            return invariants.connect(self.url)(query, *parameters)
        with sqlite3.connect(self.folder / "ballcourt.db", timeout=30) as conn:
            return conn.execute(query, parameters).fetchall()

    def shard_of(self, channel: Channel) -> int:
        guild = self.fake.guild_of_channel(channel.id)
        return 0 if guild is None else self.fake.shard_of_guild(guild)

    def now(self) -> float:
        return time.monotonic() - self.started

    def was_down(self, shard: int, start: float, end: float) -> bool:
        return any(
            s <= end and (e is None or e >= start) for s, e in self.down[shard] if s is not None
        )

    def tear_down(self) -> None:
        for process in self.processes:
            with contextlib.suppress(Exception):
                process.stop()
        self.fake.stop()
        if self.postgres is not None:
            self.postgres.stop()

    # --- the players -----------------------------------------------------------------------------

    async def keep_playing(self, slot: int, until: float) -> None:
        """Slot `slot`'s players play match after match until `until` (seconds into the run)."""
        computer = slot % 4 == 3  # one slot in four plays the computer
        first, second = self.users[2 * slot], self.users[2 * slot + 1]
        channel = self.channels[slot % len(self.channels)]
        rng = random.Random(f"{self.seed}:{slot}")
        while self.now() < until:
            try:
                game_id, thread = await self.start_match(
                    first, None if computer else second, channel
                )
            except (DriverError, DiscordViolation, TimeoutError, AssertionError) as error:
                self.note_click(None, channel, self.now(), error)
                await asyncio.sleep(rng.uniform(*PACE))
                continue
            await self.play(
                game_id, thread, channel, {first.id: first, second.id: second}, rng, until
            )

    async def start_match(
        self, challenger: User, opponent: User | None, channel: Channel
    ) -> tuple[int, Channel]:
        if opponent is None:
            await self.discord.slash(
                "rocketball play-computer",
                user=challenger,
                channel=channel,
                level="easy",
                target=1,
                settle=False,
            )
        else:
            challenge = await self.discord.slash(
                "rocketball challenge",
                user=challenger,
                channel=channel,
                opponent=opponent,
                target=1,
                settle=False,
            )
            await self.discord.click(challenge, "Accept", user=opponent, settle=False)
        for _ in range(600):
            rows = await asyncio.to_thread(
                self.sql,
                "SELECT g.id, g.thread_id FROM games g JOIN game_players p ON p.game_id = g.id"
                " WHERE p.user_id = ? AND g.status = 'active' AND g.thread_id IS NOT NULL"
                " ORDER BY g.id DESC",
                challenger.id,
            )
            if rows and rows[0][0] not in self.games:
                game_id, thread_id = rows[0]
                thread = self.fake.channel_handle(thread_id)
                self.games[game_id] = thread
                return game_id, thread
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no match thread for {challenger.name} in channel {channel.id}")

    def stored(self, game_id: int) -> tuple[int, str, Any, dict[int, int]]:
        ((version, status, state),) = self.sql(
            "SELECT version, status, state FROM games WHERE id = ?", game_id
        )
        seats = dict(self.sql("SELECT seat, user_id FROM game_players WHERE game_id = ?", game_id))
        return version, status, ROCKETBALL.load(json.loads(state)["engine"]), seats

    async def play(
        self,
        game_id: int,
        thread: Channel,
        channel: Channel,
        people: dict[int, User],
        rng: random.Random,
        until: float,
    ) -> None:
        while self.now() < until:
            await asyncio.sleep(rng.uniform(*PACE))
            try:
                version, status, state, seats = await asyncio.to_thread(self.stored, game_id)
            except Exception:  # the database is down (a fault): look again in a moment
                continue
            if status != "active":
                self.finished += 1
                return
            cards = [m for m in self.discord.channel_messages(thread) if is_card(m)]
            if not cards:
                continue
            card = self.discord.message(cards[-1])
            shown = card_version(card)
            if shown != version:
                continue  # the card has not caught up yet: a player waits for it
            seat = min(ROCKETBALL.actors(state), default=None)
            user = people.get(seats.get(seat, 0)) if seat is not None else None
            if user is None:
                continue  # the computer's turn
            action = choose_action(state, "easy", rng)
            at = self.now()
            try:
                await click_action(self.discord, card, user, action, settle=False, timeout=30)
            except RuntimeError:
                # the control the player looked for is not on the card they read (a step drawn
                # on it meanwhile): they look again, as a person would; nothing was sent
                continue
            except (DriverError, DiscordViolation, AssertionError) as error:
                self.note_click(game_id, channel, at, error)
                continue
            self.note_click(game_id, channel, at, None)
            self.moves_clicked += 1
            after = self.discord.message(card)
            if card_version(after) != version:  # the card moved on: the player was told
                self.observed.told.append(
                    {"game_id": game_id, "version": version, "user": user.name, "at": at}
                )

    def note_click(
        self, game_id: int | None, channel: Channel, at: float, error: BaseException | None
    ) -> None:
        # Discord's own answer to a click the bot left unanswered past 3 s, or answered late
        late = isinstance(error, DiscordViolation) and any(
            kind in str(error) for kind in ("no_response", "late_response")
        )
        self.observed.clicks.append(
            {
                "game_id": game_id,
                "at": at,
                "late": late,
                "shard_down": self.was_down(self.shard_of(channel), at - 1, self.now()),
                "error": "" if error is None else f"{type(error).__name__}: {error}"[:400],
            }
        )

    # --- faults ----------------------------------------------------------------------------------

    def mark_down(self, shard: int) -> None:
        self.down[shard].append([self.now(), None])

    def mark_up(self, shard: int) -> None:
        self.down[shard][-1][1] = self.now()

    async def kill_shard(self) -> None:
        """SIGKILL a bot process (no shutdown at all), then start it again."""
        shard = self.rng.randrange(self.shards)
        process = self.processes[shard]
        self.mark_down(shard)
        assert process.process is not None
        process.process.kill()
        await asyncio.to_thread(process.process.wait, 10)
        await asyncio.to_thread(process.stop)
        await asyncio.sleep(self.rng.uniform(0.5, 3.0))
        await asyncio.to_thread(process.start, 60)
        self.mark_up(shard)

    async def sigterm_in_startup(self) -> None:
        """Stop a process, start it and SIGTERM it while it starts, then start it for good."""
        shard = self.rng.randrange(self.shards)
        process = self.processes[shard]
        self.mark_down(shard)
        await asyncio.to_thread(process.stop)
        delay = self.rng.uniform(0.2, 2.0)

        async def terminate() -> None:
            await asyncio.sleep(delay)
            if process.process is not None and process.process.poll() is None:
                process.process.send_signal(signal.SIGTERM)

        killer = asyncio.create_task(terminate())
        with contextlib.suppress(RuntimeError):  # it exited before connecting, as it should
            await asyncio.to_thread(process.start, 60)
        await killer
        if process.process is not None:
            await asyncio.to_thread(process.process.wait, 15)
        await asyncio.to_thread(process.stop)
        await asyncio.to_thread(process.start, 60)
        self.mark_up(shard)

    async def restart_postgres(self) -> None:
        assert self.postgres is not None
        await asyncio.to_thread(self.postgres.shut_down, "fast")
        await asyncio.sleep(self.rng.uniform(0.5, 4.0))
        await asyncio.to_thread(self.postgres.start_again)

    async def kill_backends(self) -> None:
        """End every session of the bot's database (pg_terminate_backend, as an operator or
        the OOM killer would)."""
        assert self.postgres is not None
        binaries = self.postgres.binaries
        await asyncio.to_thread(
            subprocess.run,
            [
                str(binaries / "psql"),
                "-X",
                "-q",
                "-d",
                self.postgres.url(),
                "-c",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                f" WHERE datname = '{self.url.rsplit('/', 1)[1]}' AND pid <> pg_backend_pid()",
            ],
            capture_output=True,
            timeout=30,
        )

    async def stall_postgres(self) -> None:
        """SIGSTOP the whole server for up to 10 s."""
        assert self.postgres is not None
        frozen = self.postgres.stall()
        try:
            await asyncio.sleep(self.rng.uniform(1.0, 10.0))
        finally:
            self.postgres.resume(frozen)

    async def drop_gateway(self, *, invalidate: bool = False) -> None:
        """Close a shard's websocket (code 4000) as Discord does now and then: discord.py
        RESUMEs. ``invalidate``: the session is forgotten first, so the RESUME gets
        INVALID_SESSION (d: false) and the bot IDENTIFYs afresh (Gateway, "Resuming" and
        "Invalid Session"); the events of the gap are not replayed. The shard counts as down
        until it is connected again."""
        shard = self.rng.randrange(self.shards)
        fake = self.fake

        async def drop() -> bool:
            session = fake.shard_sessions.get(shard)
            if session is None or session.connection is None:
                return False
            if invalidate:
                fake.gateway_sessions.pop(session.session_id, None)
            await session.connection.socket.close(code=4000, message=b"fake: reconnect")
            return True

        self.mark_down(shard)
        try:
            if await fake.call(drop):
                await asyncio.sleep(0.5)
                for _ in range(600):
                    if fake.call_sync(lambda: fake.shard_connected(shard)):
                        break
                    await asyncio.sleep(0.05)
                else:
                    raise TimeoutError(f"shard {shard} did not reconnect within 30 s")
        finally:
            self.mark_up(shard)

    async def invalidate_session(self) -> None:
        await self.drop_gateway(invalidate=True)

    async def answer_429s(self) -> None:
        """Discord's global limit cut to 2 requests a second for a few seconds: the bot's posts
        and edits get 429s (interaction responses are not under the global limit)."""
        self.fake.call_sync(lambda: setattr(self.fake.rate_limits, "global_limit", 2))
        try:
            await asyncio.sleep(self.rng.uniform(2.0, 6.0))
        finally:
            self.fake.call_sync(
                lambda: setattr(self.fake.rate_limits, "global_limit", GLOBAL_LIMIT)
            )

    async def archive_threads(self) -> None:
        """A moderator archives up to three match threads at once (Discord's idle timer does the
        same after a quiet day). A player's click from one reopens it (their client does), and
        what the bot draws there itself (the computer's reply) must reopen it first: nothing
        may be lost or left undrawn (told-moves-stored, cards-show-stored)."""
        live = sorted(self.games)[-self.matches :]  # the matches in play now
        chosen = self.rng.sample(live, min(3, len(live)))
        fake = self.fake

        async def archive() -> None:
            for game in chosen:
                await fake.archive_thread(self.games[game].id)

        await fake.call(archive)

    async def chaos(self, until: float) -> None:
        kinds = [
            fault
            for fault in FAULTS
            if self.backend in fault.backends and (not self.kinds or fault.name in self.kinds)
        ]
        while True:
            await asyncio.sleep(self.rng.uniform(*FAULT_GAP))
            if self.now() >= until:
                return
            fault = self.rng.choice(kinds)
            print(f"{self.now():7.1f} s  fault: {fault.name}", flush=True)
            try:
                await fault.inject(self)
            except Exception as error:  # a fault that could not be injected is reported
                self.fault_failures.append(f"{fault.name}: {error!r}"[:300])
                continue
            self.faults[fault.name] += 1

    # --- the run ---------------------------------------------------------------------------------

    async def run(self) -> int:
        until = self.seconds
        players = [self.keep_playing(slot, until) for slot in range(self.matches)]
        await asyncio.gather(self.chaos(until), *players)
        await self.recover()
        await asyncio.sleep(SETTLE_SECONDS)
        self.read_cards()
        observed = self.folder / "observed.json"
        observed.write_text(json.dumps(self.observed.as_json(), indent=1))
        for process in self.processes:
            await asyncio.to_thread(process.stop)
        found = invariants.check(
            self.database, self.observed.as_json(), [p.log_path for p in self.processes]
        )
        text, status = invariants.report(found, self.seed)
        print(self.figures())
        print(text)
        return status

    async def recover(self) -> None:
        """Every process running again (a fault may have failed half way)."""
        for shard, process in enumerate(self.processes):
            if process.process is None or process.process.poll() is not None:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(process.stop)
                await asyncio.to_thread(process.start, 60)
                if self.down[shard] and self.down[shard][-1][1] is None:
                    self.mark_up(shard)

    def read_cards(self) -> None:
        for game_id, thread in self.games.items():
            cards = [m for m in self.discord.channel_messages(thread) if is_card(m)]
            if cards:
                card = self.discord.message(cards[-1])
                self.observed.cards.append(
                    {"game_id": game_id, "shown_version": card_version(card)}
                )

    def figures(self) -> str:
        ((moves,),) = self.sql("SELECT COUNT(*) FROM game_moves")
        ((finished,),) = self.sql("SELECT COUNT(*) FROM games WHERE status = 'finished'")
        faults = ", ".join(f"{name} {count}" for name, count in sorted(self.faults.items()))
        lines = [
            f"chaos run: backend {self.backend}, seed {self.seed}, {self.seconds:.0f} s, "
            f"{self.matches} matches in play at once",
            f"faults injected: {sum(self.faults.values())} ({faults or 'none'})",
            f"clicks {len(self.observed.clicks)}, moves clicked {self.moves_clicked}, "
            f"told taken {len(self.observed.told)}; moves stored {moves}, "
            f"matches finished {finished}",
        ]
        lines += [f"fault not injected: {failure}" for failure in self.fault_failures]
        return "\n".join(lines)


@dataclass(frozen=True)
class Fault:
    name: str
    backends: tuple[str, ...]
    inject: Callable[[Chaos], Awaitable[None]]


BOTH = ("postgres", "sqlite")
# The faults the run injects. A Discord fault the fake learns (expiring tokens, deleting a card,
# taking a permission away) is one more entry here.
FAULTS = [
    Fault("sigkill-shard", BOTH, Chaos.kill_shard),
    Fault("sigterm-in-startup", BOTH, Chaos.sigterm_in_startup),
    Fault("postgres-restart", ("postgres",), Chaos.restart_postgres),
    Fault("postgres-kill-backends", ("postgres",), Chaos.kill_backends),
    Fault("postgres-stall", ("postgres",), Chaos.stall_postgres),
    Fault("gateway-drop", BOTH, Chaos.drop_gateway),
    Fault("gateway-invalid-session", BOTH, Chaos.invalidate_session),
    Fault("discord-429s", BOTH, Chaos.answer_429s),
    Fault("archive-threads", BOTH, Chaos.archive_threads),
]


def run(
    *,
    backend: str,
    seconds: float,
    seed: int,
    matches: int,
    folder: Path | None = None,
    kinds: tuple[str, ...] = (),
) -> int:
    """One chaos run; its exit status (1: an invariant broke)."""
    folder = folder or Path(tempfile.mkdtemp(prefix=f"ballcourt-chaos-{backend}-"))
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        os.chmod(folder, 0o777)
    chaos = Chaos(
        backend=backend, seconds=seconds, seed=seed, matches=matches, folder=folder, kinds=kinds
    )
    chaos.build()
    try:
        return asyncio.run(chaos.run())
    finally:
        chaos.tear_down()
        print(f"logs and what the players saw: {folder}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--keep", type=Path, default=None, help="logs go here")
    names = ", ".join(fault.name for fault in FAULTS)
    parser.add_argument("--faults", default="", help=f"comma-separated, of: {names} (default all)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    unknown = set(filter(None, args.faults.split(","))) - {fault.name for fault in FAULTS}
    if unknown:
        parser.error(f"no such fault: {', '.join(sorted(unknown))}")
    return run(
        backend=args.backend,
        seconds=args.minutes * 60,
        seed=seed,
        matches=args.matches,
        folder=args.keep,
        kinds=tuple(name for name in args.faults.split(",") if name),
    )


if __name__ == "__main__":
    sys.exit(main())
