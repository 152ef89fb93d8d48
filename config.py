"""Bot configuration from the environment (and a `.env` file, loaded by bot.py).

Only DISCORD_TOKEN is required. Everything else has a default an operator can live with.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from db.database import POSTGRES_SCHEMES, URL_ESCAPES, redacted, url_problem

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

NO_TOKEN_MESSAGE = """\
Ballcourt needs a Discord bot token, and DISCORD_TOKEN is not set.

To try it first without Discord, run `python bot.py --sandbox` and open the page it prints
(with Docker: docker run --rm -p 127.0.0.1:8765:8765 -v ballcourt-data:/data ballcourt
python bot.py --sandbox --host 0.0.0.0, then open http://127.0.0.1:8765).

  1. Open https://discord.com/developers/applications and create an application
     (or pick yours), then open "Bot" and press "Reset Token" to see the token.
  2. Put it in a file named .env next to bot.py (copy .env.example):
         DISCORD_TOKEN=your-token-here
     or export DISCORD_TOKEN in the environment.
  3. Run the bot again.

Never commit the token or paste it in chat: anyone who has it controls the bot."""


class ConfigError(Exception):
    """A setting is missing or malformed; the message tells the operator how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str
    database_path: Path
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    owner_ids: frozenset[int] = frozenset()
    # Where discord.py sends REST calls and opens the gateway: set for a REST proxy, or for the
    # test suite's local fake Discord. Unset means Discord itself.
    api_base: str | None = None
    gateway_url: str | None = None
    extra_extensions: tuple[str, ...] = ()
    # Seeds new games from this number instead of the operating system's randomness, so a run
    # of the bot can be reproduced (tests, bug reports). Unset in production.
    game_seed: int | None = None
    # The timer dispatcher looks at the timers table at least this often even when nothing is
    # due sooner (a wall-clock change, a long suspend, a clock moved by the sandbox).
    timer_recheck_seconds: float = 3600.0
    # Processes that draw turn images (0: a thread of the bot's own process); by default every
    # core but the event loop's, at most two (`drawing_workers`).
    render_processes: int = 0
    # postgresql://user:password@host:port/name selects PostgreSQL; unset, the SQLite file at
    # database_path is the database.
    database_url: str | None = None
    # Sharding (Discord requires it from 2,500 servers): the shards there are and the ones this
    # process runs (discord.py's AutoShardedBot). None: one process, unsharded, as before.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # How long start-up waits for a PostgreSQL server that refuses connections (Compose starts
    # the bot and the database together; a server restarting).
    database_wait_seconds: float = 60.0
    # A file the bot touches while it is connected to Discord and its database answers; the
    # image's HEALTHCHECK (healthcheck.py) reads its age. None: no file.
    health_file: Path | None = None

    @property
    def runs_shard_zero(self) -> bool:
        """Whether this process runs shard 0, the one process of a cluster that syncs the
        command tree (an unsharded bot does too)."""
        return self.shard_ids is None or 0 in self.shard_ids

    @property
    def database_target(self) -> Path | str:
        """What db.connect.open_database is given: the PostgreSQL URL, else the SQLite file."""
        return self.database_url or self.database_path

    def __repr__(self) -> str:  # never let the token reach a log line
        return (
            f"Config(database_path={str(self.database_path)!r}, "
            f"database_url={redacted(self.database_url) if self.database_url else None!r}, log_level={self.log_level!r}, "
            f"dev_guild_id={self.dev_guild_id}, owner_ids={sorted(self.owner_ids)}, "
            f"api_base={self.api_base!r}, gateway_url={self.gateway_url!r}, "
            f"extra_extensions={self.extra_extensions}, game_seed={self.game_seed}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids})"
        )


def _database_url(text: str) -> str | None:
    """DATABASE_URL, refused with a clear message (that quotes no part of the password) when it
    cannot be read unambiguously."""
    text = text.strip()
    if not text:
        return None
    if not text.startswith(POSTGRES_SCHEMES):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL such as "
            "postgresql://user:password@host:5432/ballcourt (or unset for the SQLite file at "
            f"DATABASE_PATH), not {redacted(text)!r}."
        )
    problem = url_problem(text)
    if problem is not None:
        raise ConfigError(
            f"DATABASE_URL cannot be read: {problem}. In a URL a password with other characters "
            f"than letters, digits and -._~ must be percent-encoded ({URL_ESCAPES}); or leave "
            "the password out of the URL (postgresql://user@host:5432/name) and set PGPASSWORD "
            "to it, as docker-compose.yml does."
        )
    return text


def _seconds(name: str, text: str, default: str, low: float, high: float) -> float:
    text = text.strip() or default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise ConfigError(
            f"{name} must be a number of seconds from {low:g} to {high:g}, not {text!r}."
        )
    return value


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: both unset, or a count and the ids (all of them when only the
    count is given) that this process runs."""
    count_text, ids_text = count_text.strip(), ids_text.replace(" ", "")
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all).")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 1024:
        raise ConfigError(f"SHARD_COUNT must be a whole number from 1 to 1024, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    parts = ids_text.split(",")
    if not all(part.isdigit() and int(part) < count for part in parts):
        raise ConfigError(
            f"SHARD_IDS must be shard numbers from 0 to {count - 1} separated by commas"
            f" (e.g. 0,1), not {ids_text!r}."
        )
    ids = tuple(sorted({int(part) for part in parts}))
    return count, ids


def _snowflake(name: str, text: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise ConfigError(f"{name} must be a Discord id (digits only), not {text!r}.")
    return int(text)


def usable_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def drawing_workers(cores: int) -> int:
    """RENDER_PROCESSES=auto (host/drawing.py): a worker on every core but the one the event
    loop runs on, at most two (drawing a turn costs about what the rest of a click costs, so
    one worker keeps pace with one event loop; the second takes bursts and the larger Rollerball
    II images); none on one core, where the workers would only add the pickling."""
    return max(0, min(cores - 1, 2))


def load_config(environ: Mapping[str, str], *, base_dir: Path) -> Config:
    """Read the settings from `environ`; relative paths are taken from `base_dir`."""
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(NO_TOKEN_MESSAGE)

    database_path = Path(environ.get("DATABASE_PATH", "").strip() or "ballcourt.db")
    if not database_path.is_absolute():
        database_path = base_dir / database_path

    log_level = environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")

    dev_guild = environ.get("DEV_GUILD_ID", "").strip()
    owners = environ.get("OWNER_IDS", "").replace(" ", "")
    extensions = environ.get("EXTRA_EXTENSIONS", "").replace(" ", "")
    game_seed = environ.get("GAME_SEED", "").strip()
    if game_seed and not game_seed.isdigit():
        raise ConfigError(f"GAME_SEED must be a whole number, not {game_seed!r}.")
    recheck = environ.get("TIMER_RECHECK_SECONDS", "").strip() or "3600"
    try:
        timer_recheck_seconds = float(recheck)
    except ValueError:
        timer_recheck_seconds = 0.0
    if not 0.1 <= timer_recheck_seconds <= 86400:
        raise ConfigError(
            f"TIMER_RECHECK_SECONDS must be a number of seconds from 0.1 to 86400, not {recheck!r}."
        )
    render_processes = environ.get("RENDER_PROCESSES", "").strip().lower() or "auto"
    if render_processes == "auto":
        render_processes = str(drawing_workers(usable_cores()))
    if not render_processes.isdigit() or int(render_processes) > 32:
        raise ConfigError(
            "RENDER_PROCESSES must be auto or a whole number from 0 to 32, "
            f"not {render_processes!r}."
        )
    shard_count, shard_ids = _shards(environ.get("SHARD_COUNT", ""), environ.get("SHARD_IDS", ""))
    return Config(
        token=token,
        database_path=database_path,
        log_level=log_level,
        dev_guild_id=_snowflake("DEV_GUILD_ID", dev_guild) if dev_guild else None,
        owner_ids=frozenset(_snowflake("OWNER_IDS", part) for part in owners.split(",") if part),
        api_base=environ.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
        gateway_url=environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
        extra_extensions=tuple(part for part in extensions.split(",") if part),
        game_seed=int(game_seed) if game_seed else None,
        timer_recheck_seconds=timer_recheck_seconds,
        render_processes=int(render_processes),
        database_url=_database_url(environ.get("DATABASE_URL", "")),
        shard_count=shard_count,
        shard_ids=shard_ids,
        database_wait_seconds=_seconds(
            "DATABASE_WAIT_SECONDS", environ.get("DATABASE_WAIT_SECONDS", ""), "60", 0, 3600
        ),
        health_file=Path(health) if (health := environ.get("HEALTH_FILE", "").strip()) else None,
    )
