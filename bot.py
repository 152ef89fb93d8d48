"""Ballcourt: a Discord bot that hosts four ball games in chat.

Run it with `python bot.py`. Configuration comes from the environment and a `.env` file next to
this file (see .env.example and config.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import gc
import hashlib
import json
import logging
import os
import pkgutil
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands
from dotenv import load_dotenv

from config import Config, ConfigError, load_config
from db import meta
from db import settings as settings_store
from db.connect import open_database
from db.database import Database, DatabaseError
from host import HostBot, MatchHost
from host.gate import InteractionGate
from host.locks import GameLocks
from host.timers import TimerService
from rules import games as registry
from ui import report_error, rulebook, send_ephemeral
from ui.client import BOT_MENTIONS, own_messages_unparsed, sweep_buckets_in_proportion

__version__ = "0.1.0"

BASE_DIR = Path(__file__).resolve().parent
log = logging.getLogger("ballcourt")

COGS_DIR = BASE_DIR / "cogs"

# How long a restart waits for the moves and commands in progress (docker stop's SIGKILL comes
# 10 s after its SIGTERM), and then for the answers to what came meanwhile.
DRAIN_SECONDS = 5.0
REFUSALS_SECONDS = 1.0

# Pillow's block pool (Image.core.set_blocks_max) is left off, as Pillow ships it: a pooled block
# is resized to whatever image asks next, so the small images the drawing caches keep (a text
# line, a name's block) each took a piece of a board-sized block, and with players of their own
# names the caches' turnover held 60-150 MiB more at 60-1,000 matches (bench/memory.py). It saved
# about 5 ms of CPU a move GIF (bench/pillow_blocks.py).


def discover_extensions() -> list[str]:
    """Every module or package in cogs/ is an extension: a new game adds its folder, not a line
    here. Nothing is imported to find them; shared code lives beside cogs/ (host/, ui/)."""
    return [
        f"cogs.{module.name}"
        for module in sorted(pkgutil.iter_modules([str(COGS_DIR)]), key=lambda m: m.name)
    ]


class BallcourtTree(app_commands.CommandTree["Ballcourt"]):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A game a server's admins switched off (/settings server) answers none of its slash
        commands there; its running matches go on with their buttons."""
        if interaction.guild_id is None or interaction.type is not (
            discord.InteractionType.application_command
        ):
            return True
        game = (interaction.data or {}).get("name", "")
        if game not in registry.switchable():
            return True  # the rest needs no database read (/roll works while it is down)
        try:
            if await settings_store.game_enabled(self.client.db, interaction.guild_id, game):
                return True
        except Exception as error:  # the database is down: the player hears so, now
            await report_error(interaction, error)
            return False
        await send_ephemeral(
            interaction,
            f"`/{game}` is switched off on this server. Its running matches go on with their "
            "buttons; a server admin can switch it back on with `/settings server`.",
        )
        return False

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


def settle_memory() -> None:
    """At each READY: what exists once the bot is ready (modules, commands, the cache of
    servers) lives until the next READY, so it is frozen and the collector's full passes stop
    walking it again; those passes were most of the collector's time in a burst of clicks
    (bench/busy_matches.py --game rollerball2). A READY after an invalid session builds the
    servers' cache anew: the old one is unfrozen and collected first, not kept for good."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class Ballcourt(HostBot):
    def __init__(self, config: Config) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # No message cache: nothing reads it (every click carries its message), and each
            # edit of a cached card was parsed twice (its components, select options and all)
            # on the event loop, besides keeping up to 1,000 such messages in memory.
            max_messages=None,
            tree_cls=BallcourtTree,
            help_command=None,
            owner_ids=set(config.owner_ids) or None,
            allowed_mentions=BOT_MENTIONS,
            **self.shard_options(config),
        )
        self.config = config
        # a bucket per thread: reminders due together made discord.py look at every bucket
        # for each new one (ui/client.py)
        sweep_buckets_in_proportion(self.http)
        own_messages_unparsed(self)  # nothing reads the bot's own messages back (ui/client.py)
        self.version = __version__
        self.started_at = time.monotonic()
        self.game_locks = GameLocks()
        # every interaction passes it; the drain closes it (host/gate.py)
        self.gate = InteractionGate(self._connection, self.game_locks)
        # Where new games get their seeds: the OS's randomness, or a fixed sequence when the
        # operator set GAME_SEED (reproducible runs for tests and bug reports).
        self.seed_source: random.Random = (
            random.Random(config.game_seed)
            if config.game_seed is not None
            else random.SystemRandom()
        )
        self._db: Database | None = None
        # The services every cog uses (timers, matches) are set in setup_hook and typed by
        # HostBot. A game's own service is its cog's (`bot.get_cog`): the bot knows no game.

    @staticmethod
    def shard_options(config: Config) -> dict[str, Any]:
        """What discord.py is told about shards (nothing: one unsharded connection). Any: the
        keywords are AutoShardedBot's (shard_ids), which discord.py's type of Bot does not list."""
        return {}

    @property
    def db(self) -> Database:
        if self._db is None:
            raise RuntimeError("the database is opened in setup_hook")
        return self._db

    async def setup_hook(self) -> None:
        self._db = await open_database(
            self.config.database_target, wait_seconds=self.config.database_wait_seconds
        )
        if self.config.shard_count is not None and self.config.shard_ids is not None:
            self._db.shards = (self.config.shard_count, self.config.shard_ids)
        self.game_locks.database = self._db  # a match's lock holds across the cluster too
        applied = await self._db.migrate()
        log.info(
            "database %s ready (%s)",
            self._db.describe(),
            f"applied {', '.join(applied)}" if applied else "schema up to date",
        )
        self.timers = TimerService(
            self._db,
            recheck_seconds=self.config.timer_recheck_seconds,
            wait_until_ready=self.wait_until_ready,
        )
        self.matches = MatchHost(self)
        # The rules pages' menus and buttons serve every game, also after a restart.
        self.add_dynamic_items(*rulebook.DYNAMIC_ITEMS)
        for extension in (*discover_extensions(), *self.config.extra_extensions):
            await self.load_extension(extension)
        self.timers.start()
        await self.matches.start()
        if self.config.runs_shard_zero:  # in a cluster, one process syncs the command tree
            await self.sync_commands_if_changed()
        else:
            log.info("commands are synced by the process that runs shard 0")

    # Command sync ---------------------------------------------------------------------------

    def _sync_guild(self) -> discord.Object | None:
        return discord.Object(self.config.dev_guild_id) if self.config.dev_guild_id else None

    def command_tree_hash(self) -> str:
        """A hash of the command payload Discord would receive: it changes exactly when a sync is
        needed (a renamed option, a new command, a reworded description)."""
        guild = self._sync_guild()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        encoded = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(encoded.encode()).hexdigest()

    async def sync_commands(self) -> int:
        guild = self._sync_guild()
        synced = await self.tree.sync(guild=guild)
        scope = f"guild {guild.id}" if guild else "global"
        await meta.set_value(self.db, f"command_tree_hash:{scope}", self.command_tree_hash())
        log.info("synced %d commands (%s)", len(synced), scope)
        return len(synced)

    async def sync_commands_if_changed(self) -> bool:
        guild = self._sync_guild()
        scope = f"guild {guild.id}" if guild else "global"
        stored = await meta.get_value(self.db, f"command_tree_hash:{scope}")
        if stored == self.command_tree_hash():
            log.info("command tree unchanged since the last sync (%s); not syncing", scope)
            return False
        await self.sync_commands()
        return True

    async def on_message(self, message: discord.Message) -> None:
        """Ballcourt has no text commands. Someone who @mentions it gets pointed at /help (once,
        politely) instead of a "command not found" in the logs."""
        if message.author.bot or self.user is None or not message.content:
            return
        if message.content.startswith((f"<@{self.user.id}>", f"<@!{self.user.id}>")):
            try:
                await message.reply(
                    "I work with slash commands: type `/help` to see the games.",
                    mention_author=False,
                )
            except discord.HTTPException:
                log.info("could not answer a mention in channel %s", message.channel.id)

    async def on_ready(self) -> None:
        log.info("Ballcourt ready as %s in %d servers", self.user, len(self.guilds))
        settle_memory()

    async def close(self) -> None:
        # A stop between the gateway's READY and the guilds it waits for: discord.py's task that
        # then dispatches on_ready would run after close() (its loop gone) and die with a
        # traceback. It is cancelled first.
        ready = getattr(self._connection, "_ready_task", None)
        if ready is not None and not ready.done():
            ready.cancel()
        # Background work first: nothing may touch Discord or the database once they close.
        # From here on every interaction is refused (host/gate.py); those let in before finish.
        deadline = time.monotonic() + DRAIN_SECONDS
        await self.game_locks.drain(timeout=DRAIN_SECONDS)
        await self.gate.wait(deadline)
        if hasattr(self, "timers"):
            await self.timers.stop()
        if hasattr(self, "matches"):
            await self.matches.stop()
        await self.gate.wait(time.monotonic() + REFUSALS_SECONDS)  # answers sent meanwhile
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None


class ShardedBallcourt(Ballcourt, commands.AutoShardedBot):
    """Ballcourt over the shards SHARD_COUNT and SHARD_IDS name (discord.py's AutoShardedBot):
    several processes, each with some of the shards, share one database (docs/operations.md)."""

    @staticmethod
    def shard_options(config: Config) -> dict[str, Any]:
        assert config.shard_count is not None and config.shard_ids is not None
        return {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids)}


def make_bot(config: Config) -> Ballcourt:
    """The bot as configured: sharded when SHARD_COUNT is set, else as one connection."""
    return ShardedBallcourt(config) if config.shard_count is not None else Ballcourt(config)


def point_at_discord(config: Config) -> None:
    """Send REST calls and the gateway connection where the operator said (a REST proxy, or the
    tests' fake Discord on 127.0.0.1). Unset, discord.py's defaults (Discord itself) stay."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


def setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's gateway chatter is useful at DEBUG only.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))


# Discord cannot be reached (no network, a DNS failure, Discord down): a long-running service
# keeps trying, every DISCORD_RETRY_MAX seconds at most, and says so once.
DISCORD_UNREACHABLE = (aiohttp.ClientConnectionError, OSError, discord.DiscordServerError)
DISCORD_RETRY_FIRST = 2.0
DISCORD_RETRY_MAX = 60.0
HEALTH_EVERY_SECONDS = 10.0


async def wait_for_discord(bot: Ballcourt, token: str) -> None:
    """Until Discord answers the token check that login starts with (a bad token raises
    LoginFailure at once). The database is opened only after: nothing is half-open while the
    bot waits, and a stop ends the wait at once."""
    where = discord.http.Route.BASE
    delay = DISCORD_RETRY_FIRST
    told: str | None = None
    while True:
        try:
            await bot.http.static_login(token)
        except DISCORD_UNREACHABLE as error:
            problem = f"{type(error).__name__}: {error}"
            if problem != told:
                log.warning(
                    "cannot reach Discord at %s (%s); trying again, every %.0f s at most",
                    where,
                    problem,
                    DISCORD_RETRY_MAX,
                )
                told = problem
            await asyncio.sleep(delay)
            delay = min(DISCORD_RETRY_MAX, delay * 2)
        else:
            if told is not None:
                log.info("Discord answers again at %s", where)
            return
        finally:
            # login() makes its own HTTP session; this one (and its connector) must not leak
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING


async def keep_health_file(bot: Ballcourt, path: Path) -> None:
    """Touch `path` every HEALTH_EVERY_SECONDS while the bot is connected to Discord and its
    database answers (healthcheck.py, the image's HEALTHCHECK, reads how old it is)."""
    await bot.wait_until_ready()
    while True:
        if bot.is_ready() and not bot.is_closed():
            try:
                await asyncio.wait_for(bot.db.ping(), HEALTH_EVERY_SECONDS / 2)
                path.write_text(f"{time.time():.0f}\n")
            except Exception as error:  # unhealthy: the file ages, the check says why
                log.debug("health check: %s", error)
        await asyncio.sleep(HEALTH_EVERY_SECONDS)


async def run(config: Config, stop_requested: list[str] | None = None) -> None:
    """Start the bot and run it until SIGTERM or SIGINT. A stop that comes during start-up
    (waiting for Discord, opening or migrating the database, loading the cogs) abandons the
    start-up where it is, instead of closing the database under it; a stop after start-up
    closes the bot in order (moves in progress finish, then timers, then the database)."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def request_stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("received %s, shutting down", signame)
            stopping.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, request_stop, signum.name)
    for signame in stop_requested or ():  # came before the event loop ran
        request_stop(signame)

    bot = make_bot(config)
    started = asyncio.Event()
    health: asyncio.Task[None] | None = None

    async def start() -> None:
        nonlocal health
        await wait_for_discord(bot, config.token)
        await bot.login(config.token)  # runs setup_hook: database, cogs, command sync
        started.set()
        if config.health_file is not None:
            health = asyncio.create_task(keep_health_file(bot, config.health_file))
        await bot.connect(reconnect=True)

    async with bot:
        runner = asyncio.create_task(start())
        stopper = asyncio.create_task(stopping.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            stopper.cancel()
            runner.result()  # re-raise a login failure
        elif not started.is_set():
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runner
        else:
            await bot.close()
            await runner
        if health is not None:
            health.cancel()
    log.info("Ballcourt stopped")


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line: the bot itself takes no options (it reads its settings from the
    environment), so this is `--help`, the sandbox's switch, and a refusal of anything else."""
    parser = argparse.ArgumentParser(
        prog="python bot.py",
        description="Ballcourt: a Discord bot that hosts four ball games in chat.",
        epilog="Settings come from the environment or a .env file next to bot.py (see "
        ".env.example): DISCORD_TOKEN is required; DATABASE_PATH or DATABASE_URL, LOG_LEVEL, "
        "OWNER_IDS, DEV_GUILD_ID and the rest are optional. `python bot.py --sandbox --help` "
        "lists the sandbox's own options.",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="try it without Discord or a token, in a local Discord-like web page",
    )
    return parser.parse_args(argv)


def main() -> int:
    if "--sandbox" in sys.argv[1:]:
        # a local Discord-like page with this bot in it; no token needed (fakediscord/sandbox.py)
        from fakediscord.sandbox import main as run_sandbox

        return run_sandbox(sys.argv[1:])
    parse_args(sys.argv[1:])  # --help prints and exits; an unknown option is refused
    # A stop from here on is honoured (run() takes it over once its event loop runs); before
    # this line the default action ends the process, which has opened nothing yet.
    stop_requested: list[str] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda number, _: stop_requested.append(signal.Signals(number).name))
    # A fatal signal (SIGBUS from a file that vanished under a memory map, SIGSEGV) leaves the
    # Python stack in the log instead of nothing.
    faulthandler.enable()
    load_dotenv(BASE_DIR / ".env", override=False)
    try:
        config = load_config(os.environ, base_dir=BASE_DIR)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    point_at_discord(config)
    try:
        asyncio.run(run(config, stop_requested))
    except DatabaseError as error:
        print(error, file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN. Reset it in the Developer Portal "
            "(your application -> Bot -> Reset Token) and update .env.",
            file=sys.stderr,
        )
        return 1
    finally:
        # Nothing needs collecting once the bot has stopped: the interpreter's last garbage
        # collections over every loaded module took most of a stop's time (0.65 of 0.8 s on
        # a busy 2-core machine; 0.08 s frozen), and `docker stop` waits for them.
        gc.freeze()
    return 0


if __name__ == "__main__":
    sys.exit(main())
