"""The real bot (bot.py, unchanged) as a subprocess pointed at the fake Discord.

``BotProcess`` starts ``python bot.py`` from the repository root with the environment the bot
documents (DISCORD_TOKEN, DATABASE_PATH or DATABASE_URL, DISCORD_API_BASE, DISCORD_GATEWAY_URL,
...), waits
until it has identified on the fake gateway, and stops it with SIGTERM. The database file
outlives a restart; so does the fake Discord, so a restart proves what survives one.

The bot's stderr goes to a log file; ERROR records and tracebacks in it are "bot errors", which
fail the test unless it takes them (``take_errors``) - a silent failure is still a failure.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from db.database import marker_of
from fakediscord.server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
READY_LINE = "Ballcourt ready as"  # what bot.py logs (INFO) once discord.py is ready
# A log record of bot.py's format: "2026-11-22 03:04:05 ERROR    name: message".
LOG_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?P<level>[A-Z]+)\s", re.MULTILINE)


def error_records_in(text: str) -> list[str]:
    """Every ERROR/CRITICAL record (with its traceback) and bare traceback in a log of
    bot.py's format: what a test, or the chaos run's checker (bench/invariants.py), counts as
    an error the bot logged."""
    starts = [match.start() for match in LOG_RECORD.finditer(text)]
    records = []
    # text before the first record (e.g. a crash before logging was set up)
    head = text[: starts[0]] if starts else text
    if "Traceback (most recent call last)" in head:
        records.append(head.strip())
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        record = text[start:end]
        level = LOG_RECORD.match(record)
        if (level and level["level"] in ("ERROR", "CRITICAL")) or (
            "Traceback (most recent call last)" in record
        ):
            records.append(record.strip())
    return records


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        *,
        database_path: Path,
        log_path: Path,
        extra_extensions: Iterable[str] = (),
        owner_ids: Iterable[int] = (),
        dev_guild: bool = False,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.database_path = database_path
        self.log_path = log_path
        self.extra_extensions = tuple(extra_extensions)
        self.owner_ids = tuple(owner_ids)
        self.dev_guild = dev_guild
        self.extra_env = dict(extra_env or {})
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.stopped = True  # stopped on purpose (or never started), as opposed to crashed
        self._log_file = None
        self._errors_seen = 0  # error records already reported or taken

    # --- lifecycle ---------------------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            # the fake decides these; a developer's shell must not leak into the test
            if key not in ("DISCORD_TOKEN", "DEV_GUILD_ID", "OWNER_IDS", "EXTRA_EXTENSIONS")
        }
        env.update(
            {
                "DISCORD_TOKEN": self.fake.token,
                "DATABASE_PATH": str(self.database_path),
                # SQLite unless the test gives a PostgreSQL URL (extra_env); never the shell's
                # or .env's database
                "DATABASE_URL": "",
                "LOG_LEVEL": "INFO",
                "DISCORD_API_BASE": self.fake.api_base,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url,
                "OWNER_IDS": ",".join(str(owner) for owner in self.owner_ids),
                "EXTRA_EXTENSIONS": ",".join(self.extra_extensions),
                # global sync, as in production (commands also work in DMs); pinned so that an
                # operator's .env cannot send them to a guild the fake does not have
                "DEV_GUILD_ID": str(self.fake.guild.id) if self.dev_guild else "",
                "PYTHONUNBUFFERED": "1",
                # turns drawn in a worker process, as a bot started with the default draws
                # them (RENDER_PROCESSES=auto gives one on the two cores the suite is sized
                # for): what a server runs is what the tests click through
                "RENDER_PROCESSES": "1",
            }
        )
        env.update(self.extra_env)
        return env

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start bot.py and wait until it is connected to the fake gateway."""
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("the bot is already running")
        identified_before = self.fake.call_sync(lambda: self.fake.identify_count)
        if self._log_file is not None:  # the last run ended by itself (a crash), not by stop()
            self._log_file.close()
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - kept open while it runs
        self._log_file.write(
            f"\n===== harness: starting bot.py (start {self.starts + 1}) =====\n".encode()
        )
        self._log_file.flush()
        self.process = subprocess.Popen(
            [sys.executable, "bot.py"],
            cwd=REPO_ROOT,
            env=self.environment(),
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.starts += 1
        self.stopped = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                # It ended by itself: its log is closed now, not left to the garbage collector
                # when the caller (a test that expects the refusal) never calls stop().
                self._log_file.close()
                self._log_file = None
                raise RuntimeError(
                    f"bot.py exited with code {self.process.returncode} before connecting:\n"
                    + self.log_tail()
                )
            connected = self.fake.call_sync(
                lambda: self.fake.identify_count > identified_before and self._own_connected()
            )
            if connected:
                return
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"bot.py did not connect within {timeout} s:\n" + self.log_tail())

    def _own_connected(self) -> bool:
        """This process's shards are connected (SHARD_IDS on a sharded fake), or the bot is.
        Not the whole cluster's: with every process down, the first one started is up before
        the others start, as an operator brings a cluster back one process at a time."""
        shards = self.extra_env.get("SHARD_IDS")
        shard_connected = getattr(self.fake, "shard_connected", None)
        if shards and shard_connected is not None:
            return all(shard_connected(int(shard)) for shard in shards.split(","))
        return self.fake.bot_connected

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """SIGTERM (what a process manager sends), then wait; SIGKILL if it hangs."""
        self.stopped = True
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
                raise RuntimeError(
                    f"bot.py ignored SIGTERM for {timeout} s and was killed:\n" + self.log_tail()
                ) from None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        # let the fake notice the socket closed before anyone sends an interaction
        deadline = time.monotonic() + 5
        while self.fake.call_sync(self._own_connected) and time.monotonic() < deadline:
            time.sleep(0.02)

    async def restart(self) -> None:
        """Stop the bot and start it again on the same database (the fake keeps its state)."""
        await asyncio.to_thread(self._restart)

    def _restart(self) -> None:
        self.stop()
        self.start()

    def start_afresh(self) -> None:
        """Stop the bot, delete its SQLite database (and the file saying it was created, so
        the start is an empty one on purpose) and start it again: the same module plays
        something again from scratch, the fake keeping its users and channels."""
        self.stop()
        database = Path(self.database_path)
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            path.unlink(missing_ok=True)
        marker_of(database).unlink(missing_ok=True)
        self.start()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def crashed(self) -> bool:
        """The process ended although nobody stopped it."""
        return not self.stopped and not self.running

    # --- the bot's log -----------------------------------------------------------------------

    def wait_until_ready(self, timeout: float = START_TIMEOUT) -> bool:
        """Wait until this start of bot.py says it is ready (discord.py's on_ready: the guilds
        of READY are in). False if it stopped or did not say so in time."""
        marker = f"===== harness: starting bot.py (start {self.starts}) ====="
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if READY_LINE in self.log_text().rsplit(marker, 1)[-1]:
                return True
            if self.process is None or self.process.poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def error_records(self) -> list[str]:
        """Every ERROR/CRITICAL log record (with its traceback) and bare traceback so far."""
        return error_records_in(self.log_text())

    def new_errors(self) -> list[str]:
        """Error records the test has not taken yet."""
        return self.error_records()[self._errors_seen :]

    def take_errors(self) -> list[str]:
        """Return the new error records and mark them expected (they will not fail the test)."""
        records = self.error_records()
        new = records[self._errors_seen :]
        self._errors_seen = len(records)
        return new

    async def expect_error(self, text: str, timeout: float = 5.0) -> list[str]:
        """Wait until an error record containing ``text`` is logged; take all new errors."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in record for record in self.new_errors()):
                return self.take_errors()
            await asyncio.sleep(0.05)
        raise AssertionError(
            f"the bot logged no error containing {text!r} within {timeout} s:\n" + self.log_tail()
        )
