"""`python bot.py --sandbox`: try Ballcourt without Discord.

Starts the fake Discord on 127.0.0.1 with a Discord-like web client (fakediscord/web), then the
real, unmodified bot.py against it with its own database (sandbox.db, kept between runs), and
prints one line with the URL. Ctrl-C (or SIGTERM) stops both and saves the fake's world.

    python bot.py --sandbox [--port 8765] [--host 127.0.0.1] [--reset] [--no-bot] [--data DIR]

The data folder is --data, else $SANDBOX_DATA (the Docker image sets it to its /data volume:
the app folder there is read-only), else the folder of bot.py. The page listens on 127.0.0.1
only, unless --host names another address (in a container, --host 0.0.0.0 so that a published
port reaches it): whoever reaches that port can then use the page, as any of its users.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import threading
from pathlib import Path

from db.database import marker_of
from fakediscord import openapi, persist, web
from fakediscord.botproc import REPO_ROOT, BotProcess
from fakediscord.clock import CLOCK, BotClock, find_libfaketime
from fakediscord.server import FakeDiscord

DEFAULT_PORT = 8765
LOCAL = "127.0.0.1"
MEMBERS = ("alice", "bob", "carol")
CHANNELS = ("general", "games", "league")
SAVE_EVERY_SECONDS = 2.0
MAX_RESTARTS = 3  # after a crash; then the page stays up and says the bot is offline


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bot.py --sandbox",
        description="Try Ballcourt in a local Discord-like web page (no Discord, no token).",
    )
    parser.add_argument("--sandbox", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to listen on")
    parser.add_argument(
        "--host",
        default=LOCAL,
        help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 in a "
        "container: whoever reaches the port can use the page)",
    )
    parser.add_argument("--reset", action="store_true", help="start over with a new database")
    parser.add_argument("--no-bot", action="store_true", help="serve the page only, no bot")
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(os.environ.get("SANDBOX_DATA", "").strip() or REPO_ROOT),
        help="folder for sandbox.db and the sandbox's Discord state (default: $SANDBOX_DATA, "
        "else next to bot.py)",
    )
    return parser.parse_args(argv)


class Sandbox:
    """The fake Discord, its web client, the bot process and the saved world, together."""

    def __init__(
        self, data: Path, *, port: int, reset: bool, run_bot: bool, host: str = LOCAL
    ) -> None:
        self.data = data
        self.database = data / "sandbox.db"
        self.world = data / "sandbox-discord"  # the fake's state.json, files/, bot.log
        if reset:
            self._reset()
        self.world.mkdir(parents=True, exist_ok=True)
        self.port = port
        self.host = host
        self.run_bot = run_bot
        self.fake = FakeDiscord(guild_name="Ballcourt Sandbox", spec_check=openapi.usable())
        # A new world is a server the bot has just been invited to: it is told so once it is
        # ready, and says hello in #general as it would on Discord (cogs/core.py's welcome).
        self.invite_pending = not persist.load(self.fake, self.world)
        if self.invite_pending:
            self._populate()
        self.clock = BotClock(self.world / "faketime", find_libfaketime())
        self.bot: BotProcess | None = None
        self._bot_lock = threading.Lock()
        self._saved_mark: tuple[int, float] | None = None
        self._stop = threading.Event()

    def _reset(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.database}{suffix}").unlink(missing_ok=True)
        marker_of(self.database).unlink(missing_ok=True)  # starting over is asked for
        shutil.rmtree(self.world, ignore_errors=True)
        CLOCK.offset = 0.0

    def _populate(self) -> None:
        """A fresh server: the owner (made by the fake), three members, three channels."""
        for name in MEMBERS:
            self.fake.add_user(name)
        for name in CHANNELS:
            self.fake.add_channel(name)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.fake.port}"

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        controls = web.SandboxControls()
        if self.clock.available and self.run_bot:
            controls.advance_clock = self._advance_clock
        elif not self.run_bot:
            controls.clock_note = "the clock moves the bot's time; there is no bot (--no-bot)"
        else:
            controls.clock_note = self.clock.unavailable_reason()
        # The fake binds where its `host` says and names that host in the URLs it gives the bot;
        # the bot reaches it on 127.0.0.1 in any case (0.0.0.0 includes it).
        self.fake.host = self.host
        try:
            self.fake.start(
                port=self.port, setup_app=lambda app: web.setup(app, self.fake, controls)
            )
        finally:
            self.fake.host = LOCAL
        if self.run_bot:
            self.bot = BotProcess(
                self.fake,
                database_path=self.database,
                log_path=self.world / "bot.log",
                owner_ids=(self.fake.owner.id,),
                extra_env=self.clock.environment(),
            )
            threading.Thread(target=self._start_bot, name="sandbox-bot", daemon=True).start()
        threading.Thread(target=self._keep_saving, name="sandbox-save", daemon=True).start()

    def _start_bot(self) -> None:
        assert self.bot is not None
        with self._bot_lock:
            try:
                self.bot.start()
            except RuntimeError as error:
                print(f"Ballcourt sandbox: the bot did not start:\n{error}", file=sys.stderr)
                return
            if self.invite_pending and self.bot.wait_until_ready():
                self.invite_pending = False
                guild = self.fake.guild
                self.fake.call_sync_coroutine(
                    lambda: self.fake.dispatch("GUILD_CREATE", self.fake.joined_guild_json(guild))
                )

    def stop(self) -> None:
        self._stop.set()
        if self.bot is not None:
            with self._bot_lock:
                try:
                    self.bot.stop()
                except RuntimeError as error:
                    print(error, file=sys.stderr)
        self.save()
        self.fake.stop()

    def save(self) -> None:
        """Write the world when it changed since the last save: a request, a message, or a
        moved clock (a clock move is no Discord request, and was lost when nothing else
        happened before the sandbox stopped)."""
        mark = self.fake.call_sync(
            lambda: (self.fake.request_count + len(self.fake.messages), CLOCK.offset)
        )
        if mark == self._saved_mark:
            return
        self.fake.call_sync(lambda: persist.save(self.fake, self.world))
        self._saved_mark = mark

    def _keep_saving(self) -> None:
        while not self._stop.wait(SAVE_EVERY_SECONDS):
            try:
                self.save()
            except Exception as error:  # keep serving; say why the world was not saved
                print(f"Ballcourt sandbox: could not save: {error!r}", file=sys.stderr)

    # --- the clock -----------------------------------------------------------------------------

    async def _advance_clock(self, seconds: float) -> str:
        """Move the bot's and the fake's wall clock forward. The bot's timer dispatcher
        re-checks its timers every TIMER_RECHECK_SECONDS (1 here), so whatever became due
        fires within about two seconds, as it would have when its time came."""
        self.clock.advance(seconds)
        await self.fake.archive_idle_threads()  # threads idle that long archive now
        return "due reminders and deadlines fire within two seconds"


def data_problem(folder: Path) -> str | None:
    """Why the sandbox cannot keep its data in `folder` (None: it can)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"cannot create {folder} ({error.strerror})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not writable by this user (uid {os.geteuid()})"
    return None


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    data = args.data.resolve()
    problem = data_problem(data)
    if problem is not None:
        print(
            f"Ballcourt sandbox: {problem}. Give a writable folder with --data DIR (or "
            "SANDBOX_DATA); in the Docker image the /data volume is the place.",
            file=sys.stderr,
        )
        return 2
    sandbox = Sandbox(
        data, port=args.port, reset=args.reset, run_bot=not args.no_bot, host=args.host
    )
    try:
        sandbox.start()
    except OSError as error:
        print(
            f"Ballcourt sandbox: cannot listen on {args.host}:{args.port}: {error}",
            file=sys.stderr,
        )
        return 1
    print(f"Ballcourt sandbox: open {sandbox.url}", flush=True)
    if args.host != LOCAL:
        print(
            f"Ballcourt sandbox: listening on {args.host}:{args.port}, not only on this "
            "machine: whoever reaches that port can use the page, as any of its users. Its "
            "buttons answer a page opened as http://127.0.0.1 or http://localhost (a port "
            "published by Docker, or an SSH tunnel).",
            flush=True,
        )
    stopping = threading.Event()

    def request_stop(signum: int, frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    restarts = 0
    try:
        while not stopping.wait(0.5):
            if sandbox.bot is None or not sandbox.bot.crashed or restarts > MAX_RESTARTS:
                continue
            restarts += 1
            log = sandbox.world / "bot.log"
            if restarts > MAX_RESTARTS:
                print(f"Ballcourt sandbox: the bot keeps stopping; see {log}", file=sys.stderr)
                continue
            print(
                f"Ballcourt sandbox: the bot stopped unexpectedly (log: {log}); restarting it.",
                file=sys.stderr,
                flush=True,
            )
            sandbox._start_bot()
    finally:
        sandbox.stop()
    print("Ballcourt sandbox stopped.", flush=True)
    return 0
