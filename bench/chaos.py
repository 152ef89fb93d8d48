"""A chaos run: the real bot plays on through faults injected at random moments, and at the end
the invariant checker (bench/invariants.py) says whether anything was lost.

    .venv/bin/python bench/chaos.py [--backend postgres|sqlite] [--minutes 60] [--seed N]
                                    [--matches 20] [--round-seconds 180] [--keep DIR]

postgres: a PostgreSQL server of its own (tests/support/postgres_server.py), the sharded fake Discord
(fakediscord/sharded.py) with a guild on each of two shards, and two bot.py processes, one shard
each. sqlite: one bot.py process on a SQLite file (on a small filesystem of its own where the
machine allows, for disk-full), both guilds on its one shard.

Played meanwhile, at a human pace (a second or two between clicks), by clicking and picking on
the live cards as the players would (SLOT_GAMES): Rocketball between two people and against the
computer, Rollerball tables of two people and the computer (picks on the card and on each
player's private panel), Rollerball II matches solo. A new match starts whenever one ends, so
`--matches` are in play at any moment. Beside them, a Volleyball league of eight teams (two
managers send their orders from the league's card each round) and a Rollerball II season (its
fixtures played solo by the owner) run on deadlines that the league clock makes due every
`--round-seconds`.

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
import faulthandler
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import invariants  # noqa: E402
from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.clock import CLOCK  # noqa: E402
from fakediscord.days import TOKEN_LIFETIME_SECONDS  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.model import (  # noqa: E402  # noqa: E402
    ATTACH_FILES,
    EMBED_LINKS,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    DiscordViolation,
    DriverError,
    User,
)
from fakediscord.ratelimits import GLOBAL_LIMIT  # noqa: E402
from fakediscord.sharded import ShardedFakeDiscord  # noqa: E402
from rules import rollerball  # noqa: E402
from rules.face import engine_for  # noqa: E402
from rules.rocketball import choose_action  # noqa: E402
from rules.volleyball import LeagueState  # noqa: E402
from tests.e2e.cards import card_version, is_card  # noqa: E402
from tests.e2e.rocketball_clicks import click_action  # noqa: E402
from tests.e2e.rollerball_clicks import ClickingTable, stored_match  # noqa: E402
from tests.e2e.stored import StoredDatabase  # noqa: E402
from tests.e2e.test_volleyball_week import ROSTER as VOLLEYBALL_ROSTER  # noqa: E402
from tests.support.postgres_server import PostgresServer, find_binaries  # noqa: E402

ROCKETBALL = engine_for("rocketball")
PACE = (0.5, 2.0)  # seconds a player takes between looking at the card and clicking
FAULT_GAP = (4.0, 12.0)  # seconds between two faults
LAG_TICK_SECONDS = 0.05  # the fake's loop watch: a short sleep, and how late it woke
LAG_NOTED_SECONDS = 0.1
TOKEN_IN_USE_SECONDS = 60.0  # expire-tokens leaves younger tokens alone (being answered)
FAULT_MOST_SECONDS = 180.0  # a fault still being injected after this is given up (and reported)
SETTLE_SECONDS = 15.0  # after the last fault: every process up, cards catching up
BOARD_AFTER = 15.0  # a player without a card asks for the match again at most this often
ROLLERBALL2_BOARD = "rollerball2 match board"
GRACE_SECONDS = 10.0  # a player's click under way at the end gets this long, then is left
ROUND_SECONDS = 180.0  # the league clock: a Volleyball round and a Rollerball II matchday
# The game each slot of players plays, match after match (slot % 5): Rocketball between two
# people and against the computer, Rollerball tables of two people and the computer, Rollerball
# II solo matches.
SLOT_GAMES = ("rocketball", "rollerball", "rocketball-computer", "rollerball2", "rocketball")
LEAGUE_TEAMS = 8
SEASON_TEAMS = ("Chaos Aces", "Chaos Bees", "Chaos Cats", "Chaos Dogs")
# A Rollerball II coach's clicks: the button wanted (when the card offers it; else its first)
ROLLERBALL2_LABELS = ("Next card", "Play to next event", "Simulate the rest")
ROLLERBALL2_WEIGHTS = (0.86, 0.12, 0.02)
ORDERS_ACCEPTED = re.compile(r"Orders for round (?P<round>\d+) of season (?P<season>\d+) accepted")
CLICK_HOW = {"settle": False, "timeout": 30}  # each click of a player: sent as they click
# What a moderator takes from the bot now and then: posting in threads, images, embeds
TAKEN_PERMISSIONS = (SEND_MESSAGES_IN_THREADS, ATTACH_FILES, EMBED_LINKS)
DISK_MEGABYTES = 256  # the small filesystem SQLite's database lives on (disk-full)


def rollerball2_teams(slot: int) -> tuple[str, str]:
    """The two teams a Rollerball II slot's coach made, and plays solo."""
    return f"Slot {slot} Home", f"Slot {slot} Away"


def is_move_control(custom_id: str | None, version: int) -> bool:
    """A card's control that makes a move, drawn for `version` (host/components.py)."""
    parts = (custom_id or "").split(":")
    return len(parts) > 3 and parts[0] == "match" and parts[2] == str(version) and parts[3] == "do"


@dataclass
class Observed:
    """What the players saw: bench/invariants.py's --observed."""

    told: list[dict[str, Any]] = field(default_factory=list)
    clicks: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)  # Volleyball orders told accepted
    violations: list[dict[str, Any]] = field(default_factory=list)  # what the fake refused

    def as_json(self) -> dict[str, Any]:
        return {
            "told": self.told,
            "clicks": self.clicks,
            "cards": self.cards,
            "orders": self.orders,
            "violations": self.violations,
        }


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
        round_seconds: float = ROUND_SECONDS,
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
        self.round_seconds = round_seconds
        self.deadlines = 0  # times the league clock made the deadlines due
        self.disk: Path | None = None  # the small filesystem of disk-full, mounted
        self.unavailable: dict[str, str] = {}  # fault kind -> why this machine cannot inject it
        self.volleyball_teams: dict[int, str] = {}
        self.set_up_seconds = self.tail_seconds = 0.0
        self.seasons = 0  # Rollerball II seasons made
        self.player_errors: list[str] = []  # players stopped by an error of the harness
        # how late the fake Discord's own loop woke (its clock is Discord's): (run time, lag)
        self.fake_lags: list[tuple[float, float]] = []
        self.lag_watch: asyncio.Task[None] | None = None

    # --- the cluster -----------------------------------------------------------------------------

    def build(self) -> None:
        if self.backend == "postgres":
            binaries = find_binaries()
            if binaries is None:
                raise SystemExit("no PostgreSQL installed (initdb, pg_ctl)")
            self.postgres = PostgresServer(binaries)
            self.postgres.start()
            self.url = self.postgres.create_database("chaos")
        else:
            self.mount_disk()
        # what the clicking helpers read the bot's database through, on either backend
        # (tests/e2e/stored.py connect)
        self.reader = StoredDatabase(
            self.database_file, {"DATABASE_URL": self.url} if self.url else {}
        )
        fake = ShardedFakeDiscord(shard_count=self.shards, first_guild_shard=0)
        self.fake = fake
        self.users = [fake.add_user(f"player{index:02d}") for index in range(2 * self.matches)]
        self.managers = [fake.add_user(f"manager{index}") for index in range(2)]
        self.channels = [fake.add_channel("general"), fake.add_channel("games")]
        second = fake.add_guild("Second Court", shard=(self.shards - 1, self.shards))
        self.channels += [fake.add_channel(name, guild=second) for name in ("court", "pitch")]
        fake.start()
        fake.call(self.watch_fake_loop)
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
            database_path=self.database_file,
            log_path=self.folder / f"shard-{shard}.log",
            owner_ids=[self.fake.owner.id],
            extra_env=env,
        )

    def postgres_running(self) -> bool:
        """Whether the server's postmaster is alive (its pid file names it)."""
        assert self.postgres is not None
        try:
            os.kill(int((self.postgres.data / "postmaster.pid").read_text().split()[0]), 0)
        except (OSError, ValueError, IndexError):
            return False
        return True

    def mount_disk(self) -> None:
        """SQLite's database on a small filesystem of its own (a tmpfs), so that disk-full can
        fill it; where the machine does not allow it (not root), disk-full is left out, with the
        reason printed."""
        disk = self.folder / "disk"
        disk.mkdir(exist_ok=True)
        if os.geteuid() != 0 or shutil.which("mount") is None:
            self.unavailable["disk-full"] = "mounting a small filesystem needs root"
            return
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={DISK_MEGABYTES}m,mode=0777", "tmpfs", str(disk)],
            capture_output=True,
            text=True,
        )
        if mounted.returncode != 0:
            self.unavailable["disk-full"] = f"cannot mount a tmpfs: {mounted.stderr.strip()}"
            return
        self.disk = disk

    @property
    def database_file(self) -> Path:
        return self.folder / "disk" / "ballcourt.db"

    @property
    def database(self) -> str:
        return self.url or str(self.database_file)

    def sql(self, query: str, *parameters: Any) -> list[Any]:
        if self.url:
            return invariants.connect(self.url)(query, *parameters)
        with sqlite3.connect(self.database_file, timeout=30) as conn:
            return conn.execute(query, parameters).fetchall()

    def shard_of(self, channel: Channel) -> int:
        guild = self.fake.guild_of_channel(channel.id)
        return 0 if guild is None else self.fake.shard_of_guild(guild)

    def now(self) -> float:
        return time.monotonic() - self.started

    async def watch_fake_loop(self) -> None:
        """On the fake Discord's loop: how late it wakes from a short sleep. The fake stamps
        when an interaction was sent and when its response arrived on that loop, so a loop
        that stood still (the harness starved of CPU) makes the bot look late by as much;
        a late click is printed with this lag beside it."""
        self.lag_watch = asyncio.current_task()
        while True:
            before = time.monotonic()
            await asyncio.sleep(LAG_TICK_SECONDS)
            lag = time.monotonic() - before - LAG_TICK_SECONDS
            if lag > LAG_NOTED_SECONDS:
                self.fake_lags.append((self.now(), lag))

    def fake_lag(self, start: float, end: float) -> float:
        """The fake's worst loop lag between two run times."""
        return max((lag for at, lag in self.fake_lags if start <= at <= end), default=0.0)

    def was_down(self, shard: int, start: float, end: float) -> bool:
        return any(
            s <= end and (e is None or e >= start) for s, e in self.down[shard] if s is not None
        )

    def tear_down(self) -> None:
        for process in self.processes:
            with contextlib.suppress(Exception):
                process.stop()
        if self.lag_watch is not None:
            self.fake.call_sync(self.lag_watch.cancel)
        self.fake.stop()
        if self.postgres is not None:
            self.postgres.stop()
        if self.backend == "sqlite":  # the database beside the logs: it is read afterwards
            with contextlib.suppress(OSError):
                shutil.copytree(self.database_file.parent, self.folder, dirs_exist_ok=True)
        if self.disk is not None:
            subprocess.run(["umount", "-l", str(self.disk)], capture_output=True)

    # --- the players -----------------------------------------------------------------------------

    async def set_up(self) -> None:
        """What the league players need before play: a Volleyball league of LEAGUE_TEAMS teams
        (two managed by people, the rest by the computer) with a deadline every hour, started;
        four Rollerball II teams and a season of them (the owner coaches all four); each
        Rollerball II slot's two teams. Deadlines come sooner: the league clock makes them due
        every `--round-seconds`."""
        owner, channel = self.fake.owner, self.channels[1]
        say = self.discord.slash
        await say(
            "volleyball league create",
            user=owner,
            channel=channel,
            name="Chaos League",
            teams=LEAGUE_TEAMS,
            every_hours=1,
        )
        first, second = self.managers
        form = await say("volleyball team create", user=first, channel=channel)
        joined = await self.discord.submit_modal(
            form, {"name": "Chaos Rockets", "players": VOLLEYBALL_ROSTER}, user=first
        )
        assert "joins" in joined.content, joined.content
        state = await asyncio.to_thread(self.league_state)
        seat = next(t.name for t in state.league.teams if t.manager_id is None)
        await say("volleyball take-seat", user=second, channel=channel, team=seat)
        started = await say("volleyball league start", user=owner, channel=channel)
        assert "has started" in started.text, started.text
        self.volleyball_teams = {first.id: "Chaos Rockets", second.id: seat}
        for name in SEASON_TEAMS:
            made = await say("rollerball2 team create", user=owner, channel=channel, name=name)
            assert not made.ephemeral, made.text
        await self.new_season()
        for slot in range(self.matches):
            if SLOT_GAMES[slot % len(SLOT_GAMES)] == "rollerball2":
                coach, channel = self.users[2 * slot], self.channels[slot % len(self.channels)]
                for name in rollerball2_teams(slot):
                    made = await say(
                        "rollerball2 team create", user=coach, channel=channel, name=name
                    )
                    assert not made.ephemeral, made.text

    async def new_season(self) -> None:
        """The owner makes the next Rollerball II season of SEASON_TEAMS (an hour a matchday)."""
        self.seasons += 1
        season = await self.discord.slash(
            "rollerball2 season create",
            user=self.fake.owner,
            channel=self.channels[1],
            name=f"Chaos Season {self.seasons}",
            teams=", ".join(SEASON_TEAMS),
            hours=1,
            settle=False,
        )
        assert not season.ephemeral, season.text

    def league_state(self) -> LeagueState:
        ((state,),) = self.sql("SELECT state FROM volleyball_leagues")
        return LeagueState.from_dict(json.loads(state))

    async def keep_playing(self, slot: int, until: float) -> None:
        """Slot `slot`'s players play match after match of its game (SLOT_GAMES) until `until`
        (seconds into the run)."""
        game = SLOT_GAMES[slot % len(SLOT_GAMES)]
        first, second = self.users[2 * slot], self.users[2 * slot + 1]
        channel = self.channels[slot % len(self.channels)]
        rng = random.Random(f"{self.seed}:{slot}")
        if game == "rollerball":
            # its clicking helpers read the database without awaiting: an event loop of its own
            table = self.keep_playing_rollerball(first, second, channel, rng, until)
            await asyncio.to_thread(asyncio.run, self.in_time(table, until))
            return
        say, click = self.discord.slash, self.discord.click

        async def begin() -> None:
            if game == "rocketball-computer":
                await say(
                    "rocketball play-computer",
                    user=first,
                    channel=channel,
                    level="easy",
                    target=1,
                    settle=False,
                )
            elif game == "rocketball":
                challenge = await say(
                    "rocketball challenge",
                    user=first,
                    channel=channel,
                    opponent=second,
                    target=1,
                    settle=False,
                )
                await click(challenge, "Accept", user=second, settle=False)
            else:
                await self.start_rollerball2(first, channel, *rollerball2_teams(slot))

        while self.now() < until:
            try:
                game_id, thread = await self.start_match(first, begin, channel)
            except (DriverError, DiscordViolation, TimeoutError, AssertionError) as error:
                self.note_click(None, channel, self.now(), error)
                await asyncio.sleep(rng.uniform(*PACE))
                continue
            if game == "rollerball2":
                move, board = self.rollerball2_move(first, rng), ROLLERBALL2_BOARD
            else:
                move = self.rocketball_move({first.id: first, second.id: second}, rng)
                board = "rocketball board"
            await self.play(game_id, thread, channel, rng, until, move, (board, first))

    async def start_rollerball2(self, coach: User, channel: Channel, home: str, away: str) -> None:
        """A solo Rollerball II match of two teams the coach coaches."""
        await self.discord.slash(
            "rollerball2 match start",
            user=coach,
            channel=channel,
            home=home,
            away=away,
            mode="solo",
            settle=False,
        )

    async def in_time(self, playing: Awaitable[None], until: float) -> None:
        """`playing` until the end of the run, and a click under way then a little longer. A
        player that fails (the harness's own error) stops, and the run says so at the end."""
        try:
            await asyncio.wait_for(playing, until - self.now() + GRACE_SECONDS)
        except Exception as error:
            # TimeoutError is an Exception: the one wait_for raises at the grace's end is no
            # error of the player's (a click still under way when the run ends, under load)
            if not (isinstance(error, TimeoutError) and self.now() >= until + GRACE_SECONDS - 1):
                self.player_errors.append(f"{error!r}"[:300])

    async def start_match(
        self, challenger: User, begin: Callable[[], Awaitable[None]], channel: Channel
    ) -> tuple[int, Channel]:
        """`begin` starts a match of `challenger`'s; its id and thread once the bot made them
        (or those of one of theirs nobody plays yet: a start whose answer a fault cut off)."""
        await begin()
        for _ in range(600):
            try:
                rows = await asyncio.to_thread(
                    self.sql,
                    "SELECT g.id, g.thread_id FROM games g JOIN game_players p ON p.game_id = g.id"
                    " WHERE p.user_id = ? AND g.status = 'active' AND g.thread_id IS NOT NULL"
                    " ORDER BY g.id DESC",
                    challenger.id,
                )
            except Exception:  # the database is down (a fault): look again in a moment
                rows = []
            fresh = [
                (game_id, thread_id) for game_id, thread_id in rows if game_id not in self.games
            ]
            if fresh:
                game_id, thread_id = fresh[0]
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
        return version, status, json.loads(state), seats

    async def look(self, game_id: int, thread: Channel) -> tuple[int, str, Any, dict, Any] | None:
        """What a player sees before clicking: the stored match (version, status, state, seats)
        and its live card, once the card shows the stored version (a player waits for it to
        catch up; no card at all: a moderator deleted it). None: nothing to click on yet (the
        database or the card is behind)."""
        try:
            version, status, state, seats = await asyncio.to_thread(self.stored, game_id)
        except Exception:  # the database is down (a fault): look again in a moment
            return None
        cards = [m for m in self.discord.channel_messages(thread) if is_card(m)]
        if status != "active" or not cards:
            return version, status, state, seats, None
        if card_version(cards[-1]) != version:
            return None
        return version, status, state, seats, cards[-1]

    async def click_move(
        self,
        game_id: int,
        channel: Channel,
        card: Any,
        version: int,
        user: User,
        click: Awaitable[Any],
    ) -> None:
        """A player's click (or picks) for a move on `card`, drawn for `version`: what they were
        answered is noted, and whether they were told the move was taken (the card moved on)."""
        at = self.now()
        try:
            await click
        except RuntimeError:
            # the control the player looked for is not on the card they read (a step drawn
            # on it meanwhile): they look again, as a person would; nothing was sent
            return
        except (DriverError, DiscordViolation, AssertionError) as error:
            self.note_click(game_id, channel, at, error)
            return
        self.note_click(game_id, channel, at, None)
        self.moves_clicked += 1
        if card_version(self.discord.message(card)) != version:
            self.observed.told.append(
                {"game_id": game_id, "version": version, "user": user.name, "at": at}
            )

    async def play(
        self,
        game_id: int,
        thread: Channel,
        channel: Channel,
        rng: random.Random,
        until: float,
        move: Callable[[int, Any, dict[int, int], Any], tuple[User, Awaitable[Any]] | None],
        board: tuple[str, User],
    ) -> None:
        """Play the match until it is over (or the run is): a moment's thought, a look at the
        stored match and its card, then `move(version, state, seats, card)`'s click (the player
        and their click; None: nobody here is to move, e.g. the computer's turn). A card deleted
        by a moderator: a player asks for the match again with `board` (the command, who)."""
        asked = -BOARD_AFTER
        while self.now() < until:
            await asyncio.sleep(rng.uniform(*PACE))
            seen = await self.look(game_id, thread)
            if seen is None:
                continue
            version, status, data, seats, card = seen
            if status != "active":
                self.finished += 1
                return
            if card is None:
                if self.now() - asked >= BOARD_AFTER:
                    asked = self.now()
                    command, user = board
                    with contextlib.suppress(DriverError, DiscordViolation, AssertionError):
                        await self.discord.slash(command, user=user, channel=thread, settle=False)
                continue
            chosen = move(version, data, seats, card)
            if chosen is not None:
                await self.click_move(game_id, channel, card, version, *chosen)

    def rocketball_move(self, people: dict[int, User], rng: random.Random) -> Callable[..., Any]:
        """Rocketball players choosing as the computer's easy level would."""

        def move(version: int, data: Any, seats: dict[int, int], card: Any) -> Any:
            state = ROCKETBALL.load(data["engine"])
            seat = min(ROCKETBALL.actors(state), default=None)
            user = people.get(seats.get(seat, 0)) if seat is not None else None
            if user is None:
                return None  # the computer's turn
            action = choose_action(state, "easy", rng)
            return user, click_action(self.discord, card, user, action, settle=False, timeout=30)

        return move

    def rollerball2_move(self, coach: User, rng: random.Random) -> Callable[..., Any]:
        """A coach clicking through a solo Rollerball II match: mostly the next card, now and
        then on to the next event, a decision's first choice when one is asked, and once in a
        while the rest simulated (so matches end within minutes)."""

        def move(version: int, data: Any, seats: dict[int, int], card: Any) -> Any:
            labels = [
                b.label
                for b in card.buttons
                if is_move_control(b.custom_id, version) and not (b.label or "").endswith("…")
            ]
            if not labels:
                return None
            (wanted,) = rng.choices(ROLLERBALL2_LABELS, ROLLERBALL2_WEIGHTS)
            label = wanted if wanted in labels else labels[0]
            return coach, self.discord.click(card, label, user=coach, settle=False, timeout=30)

        return move

    async def keep_playing_rollerball(
        self, first: User, second: User, channel: Channel, rng: random.Random, until: float
    ) -> None:
        """Tables of three (two people and the computer, first to one point) played to the end
        by clicks and picks on the card and on each player's panel (tests/e2e/rollerball_clicks.py),
        each person choosing at random among their moves."""
        say, click = self.discord.slash, self.discord.click

        async def begin() -> None:
            lobby = await say(
                "rollerball new", user=first, channel=channel, players=3, target=1, settle=False
            )
            await click(lobby, "Join", user=second, settle=False)
            await click(lobby, "Add computer", user=first, settle=False)
            await click(lobby, "Start", user=first, settle=False)

        while self.now() < until:
            try:
                game_id, thread = await self.start_match(first, begin, channel)
                seats = (await asyncio.to_thread(self.stored, game_id))[3]
            except Exception as error:  # a fault cut the start off (told the player): again
                self.note_click(None, channel, self.now(), error)
                await asyncio.sleep(rng.uniform(*PACE))
                continue
            people: dict[int, User] = {
                seat: u for seat, user in seats.items() for u in (first, second) if u.id == user
            }
            table = ClickingTable(self.discord, self.reader, thread, game_id, people, how=CLICK_HOW)
            await self.play_rollerball(table, channel, rng, until)

    async def play_rollerball(
        self, table: ClickingTable, channel: Channel, rng: random.Random, until: float
    ) -> None:
        asked = -BOARD_AFTER
        while self.now() < until:
            await asyncio.sleep(rng.uniform(*PACE))
            try:
                version, status, match = await asyncio.to_thread(
                    stored_match, self.reader, table.game_id
                )
            except Exception:  # the database is down (a fault): look again in a moment
                continue
            if status != "active":
                self.finished += 1
                return
            game = match.engine.game
            ours = sorted(seat for seat in rollerball.actors(game) if seat in table.users)
            if not ours:
                continue  # the computer's turn
            seat = ours[0]
            thread, user = cast(Channel, table.thread), cast(User, table.users[seat])
            if not any(is_card(m) for m in self.discord.channel_messages(thread)):
                if self.now() - asked >= BOARD_AFTER:  # its card was deleted: shown again
                    asked = self.now()
                    with contextlib.suppress(DriverError, DiscordViolation, AssertionError):
                        await self.discord.slash(
                            "rollerball board", user=user, channel=thread, settle=False
                        )
                continue
            action = rollerball.choose_action(rollerball.view_for(game, seat), rng, "random")
            play = rollerball.Play(action, game.settings.board)
            at = self.now()
            try:
                await table.play(seat, play)
            except Exception as error:  # told "not taken", "from an earlier turn", a fault
                self.note_click(table.game_id, channel, at, error)
                continue
            self.note_click(table.game_id, channel, at, None)
            self.moves_clicked += 1
            self.observed.told.append(
                {"game_id": table.game_id, "version": version, "user": "", "at": at}
            )

    async def manage_volleyball(self, manager: User, until: float) -> None:
        """A manager sends the prefilled orders from the league's card once a round (as most
        do: the card's Send orders, the form sent as it opens)."""
        team, channel = self.volleyball_teams[manager.id], self.channels[1]
        rng = random.Random(f"{self.seed}:volleyball:{manager.id}")
        done: set[str] = set()
        while self.now() < until:
            await asyncio.sleep(rng.uniform(2.0, 6.0))
            try:
                state = await asyncio.to_thread(self.league_state)
            except Exception:  # the database is down (a fault)
                continue
            now = f"{state.league.season}:{state.league.round_number}"
            cards = [
                m
                for m in self.discord.channel_messages(channel)
                if m.embeds and m.button_labels[:1] == ["Send orders"]
            ]
            if now in done or not cards:
                continue
            at = self.now()
            try:
                modal = await self.discord.click(
                    cards[-1], "Send orders", user=manager, settle=False, timeout=30
                )
                if modal.response_type != 9:  # told why not (between rounds): later
                    self.note_click(None, channel, at, None)
                    continue
                sent = await self.discord.submit_modal(modal, {}, user=manager, timeout=30)
            except (DriverError, DiscordViolation, AssertionError) as error:
                self.note_click(None, channel, at, error)
                continue
            self.note_click(None, channel, at, None)
            text = "\n".join([sent.text, *(f.text for f in sent.followups)])
            accepted = ORDERS_ACCEPTED.search(text)
            if accepted:
                done.add(f"{accepted['season']}:{accepted['round']}")
                self.observed.orders.append(
                    {
                        "team": team,
                        "season": int(accepted["season"]),
                        "round": int(accepted["round"]),
                        "at": at,
                    }
                )

    async def coach_season(self, until: float) -> None:
        """The owner coaches the season's teams: the current matchday's first fixture not yet
        played is played solo by clicks, then the next; a deadline (the league clock) simulates
        what is left of its matchday, a match under way included. Once a season is over the
        owner makes the next."""
        owner, channel = self.fake.owner, self.channels[1]
        rng = random.Random(f"{self.seed}:season")
        while self.now() < until:
            try:
                fixtures = await asyncio.to_thread(
                    self.sql,
                    "SELECT h.name, a.name FROM rollerball2_fixtures f"
                    " JOIN rollerball2_seasons s ON s.id = f.season_id"
                    " JOIN rollerball2_teams h ON h.id = f.home_team_id"
                    " JOIN rollerball2_teams a ON a.id = f.away_team_id"
                    " WHERE f.how IS NULL AND f.matchday = s.current_matchday ORDER BY f.id",
                )
                running = await asyncio.to_thread(
                    self.sql,
                    "SELECT COUNT(*) FROM rollerball2_seasons WHERE current_matchday <= matchdays",
                )
                if running == [(0,)]:
                    await self.new_season()
            except Exception:  # the database is down, the answer was cut off (a fault)
                fixtures = []
            if not fixtures:
                await asyncio.sleep(rng.uniform(*PACE))
                continue
            home, away = fixtures[0]

            async def begin(home: str = home, away: str = away) -> None:
                await self.start_rollerball2(owner, channel, home, away)

            try:
                game_id, thread = await self.start_match(owner, begin, channel)
            except (DriverError, DiscordViolation, TimeoutError, AssertionError) as error:
                self.note_click(None, channel, self.now(), error)
                await asyncio.sleep(rng.uniform(*PACE))
                continue
            move = self.rollerball2_move(owner, rng)
            await self.play(game_id, thread, channel, rng, until, move, (ROLLERBALL2_BOARD, owner))

    async def league_clock(self, until: float) -> None:
        """Every `round_seconds`, the Volleyball league's and the season's deadlines come: their
        timers are made due now, as the hour would make them."""
        while True:
            await asyncio.sleep(self.round_seconds)
            if self.now() >= until:
                return
            with contextlib.suppress(Exception):  # the database is down (a fault): next time
                await asyncio.to_thread(
                    self.sql,
                    "UPDATE timers SET due_at = ? WHERE event IN (?, ?)",
                    time.time() - 1,
                    "volleyball_deadline",
                    "rollerball2_deadline",
                )
                self.deadlines += 1

    def note_click(
        self, game_id: int | None, channel: Channel, at: float, error: BaseException | None
    ) -> None:
        # Discord's own answer to a click the bot left unanswered past 3 s, or answered late
        late = isinstance(error, DiscordViolation) and any(
            kind in str(error) for kind in invariants.LATENESS
        )
        self.observed.clicks.append(
            {
                "game_id": game_id,
                "at": at,
                "late": late,
                "shard_down": self.was_down(self.shard_of(channel), at - 1, self.now()),
                "load": os.getloadavg()[0],  # the machine's, as the click was answered
                # the fake's own loop lag while Discord's 3 s ran (a click's error is noted
                # when it began or when its error was raised, after the 3 s and the driver's grace)
                "fake_lag": self.fake_lag(at - 5.0, at + 5.0) if late else 0.0,
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

    async def expire_tokens(self) -> None:
        """Every interaction token issued so far expires, as 15 minutes after it was issued
        ("Interaction tokens are valid for 15 minutes", Receiving and Responding, "Followup
        Messages"): each token at least a minute old is made 15 minutes old, without moving
        any other clock (a token seconds old, still being answered, cannot have lived 15
        minutes). What the bot still edits or follows up through one (a Rollerball player's
        open panel, the card redrawn through a decision's interaction) is refused with 401
        50027."""
        fake = self.fake

        def age() -> None:
            now = CLOCK.time()
            for record in fake.interactions.values():
                if now - record.issued_at >= TOKEN_IN_USE_SECONDS:
                    record.issued_at = min(record.issued_at, now - TOKEN_LIFETIME_SECONDS)

        fake.call_sync(age)

    async def delete_card(self) -> None:
        """A moderator deletes a live card of a match in play (MESSAGE_DELETE; then 10008): the
        bot posts a fresh card the match goes on with."""
        fake = self.fake
        live = sorted(self.games)[-self.matches :]
        for game in self.rng.sample(live, len(live)):
            cards = [m for m in self.discord.channel_messages(self.games[game]) if is_card(m)]
            if cards:
                await fake.call(lambda card=cards[-1]: fake.moderator_deletes_message(card.id))
                return

    async def take_permission(self) -> None:
        """A moderator takes a permission from the bot's role in a channel (and its threads)
        and gives it back a few seconds later (CHANNEL_UPDATE each time; meanwhile 403 50013)."""
        fake = self.fake
        channel = self.rng.choice(self.channels)
        permission = self.rng.choice(TAKEN_PERMISSIONS)
        await fake.call(lambda: fake.set_bot_overwrite(channel.id, deny=permission))
        try:
            await asyncio.sleep(self.rng.uniform(2.0, 8.0))
        finally:
            await fake.call(lambda: fake.set_bot_overwrite(channel.id, deny=0))

    async def fill_disk(self) -> None:
        """The filesystem of the SQLite database fills up (a file written until ENOSPC) for a
        few seconds, then the space is freed: clicks meanwhile are answered "nothing changed"."""
        assert self.disk is not None
        filler = self.disk / "filler"

        def fill() -> None:
            with open(filler, "wb") as out, contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * (1 << 20))
                    out.flush()

        await asyncio.to_thread(fill)
        try:
            await asyncio.sleep(self.rng.uniform(1.0, 6.0))
        finally:
            filler.unlink(missing_ok=True)

    async def chaos(self, until: float) -> None:
        kinds = [
            fault
            for fault in FAULTS
            if self.backend in fault.backends
            and fault.name not in self.unavailable
            and (not self.kinds or fault.name in self.kinds)
        ]
        while True:
            await asyncio.sleep(self.rng.uniform(*FAULT_GAP))
            if self.now() >= until:
                return
            fault = self.rng.choice(kinds)
            print(f"{self.now():7.1f} s  fault: {fault.name}", flush=True)
            try:
                await asyncio.wait_for(fault.inject(self), FAULT_MOST_SECONDS)
            except Exception as error:  # a fault that could not be injected is reported
                self.fault_failures.append(f"{fault.name}: {error!r}"[:300])
                continue
            self.faults[fault.name] += 1

    # --- the run ---------------------------------------------------------------------------------

    async def run(self) -> int:
        # the Rollerball tables' loops each hold a thread for the whole run
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(64))
        await self.set_up()
        self.set_up_seconds = self.now()
        until = self.now() + self.seconds
        players = [self.keep_playing(slot, until) for slot in range(self.matches)]
        players += [self.manage_volleyball(manager, until) for manager in self.managers]
        players += [self.coach_season(until), self.league_clock(until)]
        await asyncio.gather(self.chaos(until), *(self.in_time(p, until) for p in players))
        self.tail_seconds = self.now() - until
        await self.recover()
        await asyncio.sleep(SETTLE_SECONDS)
        self.read_cards()
        self.observed.violations = [
            {"kind": v.kind, "description": v.description[:400], "route": v.route}
            for v in self.fake.call_sync(lambda: list(self.fake.violations))
        ]
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
        if status and self.postgres is not None:  # the database, for a look after the run
            await asyncio.to_thread(
                subprocess.run,
                [
                    str(self.postgres.binaries / "pg_dump"),
                    "-f",
                    str(self.folder / "chaos.sql"),
                    self.url,
                ],
                capture_output=True,
                timeout=120,
            )
        return status

    async def recover(self) -> None:
        """Every process running again (a fault may have failed half way)."""
        if self.postgres is not None and not await asyncio.to_thread(self.postgres_running):
            await asyncio.to_thread(self.postgres.start_again)
        for shard, process in enumerate(self.processes):
            if process.process is None or process.process.poll() is not None:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(process.stop)
                await asyncio.to_thread(process.start, 60)
                if self.down[shard] and self.down[shard][-1][1] is None:
                    self.mark_up(shard)

    def first_responses(self) -> str:
        """How soon the bot's first responses arrived, on the fake's clock, and how late the
        fake's own loop woke at worst (what it adds to them)."""
        took = sorted(
            self.fake.call_sync(
                lambda: [
                    r.responded - r.created
                    for r in self.fake.interactions.values()
                    if r.responded is not None
                ]
            )
        )
        if not took:
            return "first responses: none"
        median, p99 = took[len(took) // 2], took[min(len(took) - 1, len(took) * 99 // 100)]
        worst = max((lag for _, lag in self.fake_lags), default=0.0)
        return (
            f"first responses {len(took)}: median {median:.2f} s, p99 {p99:.2f} s, slowest "
            f"{took[-1]:.2f} s (Discord allows 3 s); the fake's own loop woke up to {worst:.2f} s "
            "late"
        )

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
        by_game = ", ".join(
            f"{game} {count}"
            for game, count in self.sql(
                "SELECT g.game, COUNT(*) FROM game_moves m JOIN games g ON g.id = m.game_id"
                " GROUP BY g.game ORDER BY g.game"
            )
        )
        ((rounds,),) = self.sql("SELECT COUNT(*) FROM volleyball_reports WHERE team = ''")
        ((matchdays,),) = self.sql(
            "SELECT COUNT(DISTINCT season_id * 1000 + matchday) FROM rollerball2_fixtures"
            " WHERE how IS NOT NULL"
        )
        lines = [
            f"chaos run: backend {self.backend}, seed {self.seed}, {self.seconds:.0f} s, "
            f"{self.matches} matches in play at once, a Volleyball league of {LEAGUE_TEAMS} and "
            f"a Rollerball II season, deadlines every {self.round_seconds:.0f} s",
            f"faults injected: {sum(self.faults.values())} ({faults or 'none'})",
            f"clicks {len(self.observed.clicks)}, moves clicked {self.moves_clicked}, "
            f"told taken {len(self.observed.told)}; moves stored {moves} ({by_game}), "
            f"matches finished {finished}",
            f"deadlines {self.deadlines}: Volleyball rounds played {rounds}, orders told "
            f"accepted {len(self.observed.orders)}; Rollerball II matchdays settled {matchdays}",
        ]
        lines.append(
            f"wall time: set-up {self.set_up_seconds:.0f} s, play {self.seconds:.0f} s, the last"
            f" faults and clicks {self.tail_seconds:.0f} s more; load average at the end"
            f" {os.getloadavg()[0]:.1f}"
        )
        lines.append(self.first_responses())
        lines += [f"fault not injected: {failure}" for failure in self.fault_failures]
        lines += [f"player stopped: {error}" for error in self.player_errors]
        lines += [f"fault left out: {name}: {why}" for name, why in self.unavailable.items()]
        return "\n".join(lines)


@dataclass(frozen=True)
class Fault:
    name: str
    backends: tuple[str, ...]
    inject: Callable[[Chaos], Awaitable[None]]


BOTH = ("postgres", "sqlite")
# The faults the run injects; disk-full only where a small filesystem can be mounted (root).
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
    Fault("expire-tokens", BOTH, Chaos.expire_tokens),
    Fault("delete-card", BOTH, Chaos.delete_card),
    Fault("take-permission", BOTH, Chaos.take_permission),
    Fault("disk-full", ("sqlite",), Chaos.fill_disk),
]


def run(
    *,
    backend: str,
    seconds: float,
    seed: int,
    matches: int,
    folder: Path | None = None,
    kinds: tuple[str, ...] = (),
    round_seconds: float = ROUND_SECONDS,
) -> int:
    """One chaos run; its exit status (1: an invariant broke)."""
    folder = folder or Path(tempfile.mkdtemp(prefix=f"ballcourt-chaos-{backend}-"))
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        os.chmod(folder, 0o777)
    chaos = Chaos(
        backend=backend,
        seconds=seconds,
        seed=seed,
        matches=matches,
        folder=folder,
        kinds=kinds,
        round_seconds=round_seconds,
    )
    chaos.build()
    try:
        return asyncio.run(chaos.run())
    finally:
        chaos.tear_down()
        print(f"logs and what the players saw: {folder}")


def main() -> int:
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 PID: every thread's stack, on stderr
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--keep", type=Path, default=None, help="logs go here")
    parser.add_argument(
        "--round-seconds",
        type=float,
        default=ROUND_SECONDS,
        help="seconds between two deadlines of the league and the season",
    )
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
        round_seconds=args.round_seconds,
    )


if __name__ == "__main__":
    sys.exit(main())
