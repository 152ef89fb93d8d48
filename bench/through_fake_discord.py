"""The local fake Discord with the real bot.py in its own process (127.0.0.1 only), for the
benchmarks that measure through it: a fresh SQLite database in a temporary folder, the bot's
log at WARNING, a #general channel (the driver's `default_channel`), and a driver that acts as
users.

    with bot_and_fake(seed="7") as (discord, bot, fake):
        asyncio.run(measure(discord, bot, fake))
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402


@contextmanager
def bot_and_fake(
    seed: str, env: dict[str, str] | None = None
) -> Iterator[tuple[DiscordDriver, BotProcess, FakeDiscord]]:
    """The driver, the bot process and the fake, running; stopped on the way out. `seed` is
    the bot's GAME_SEED (the same run makes the same teams, matches and dice)."""
    fake = FakeDiscord()
    general = fake.add_channel("general")
    fake.start()
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-bench-"))
    bot = BotProcess(
        fake,
        database_path=folder / "bench.db",
        log_path=folder / "bot.log",
        extra_env={"GAME_SEED": seed, "LOG_LEVEL": "WARNING", **(env or {})},
    )
    bot.start()
    try:
        yield DiscordDriver(fake, general), bot, fake
    finally:
        bot.stop()
        fake.stop()
