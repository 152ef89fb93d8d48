"""The no-op floor of bench/reminders.py: loaded into the bot only by that benchmark
(EXTRA_EXTENSIONS=bench.noop_timer), never shipped, no command or setting reaches it.

It registers a timer event whose handler does nothing, so the same bot, on the same database,
can fire as many timers as reminders: what the dispatcher itself costs (claim, fire, delete).
"""

from __future__ import annotations

from typing import Any

EVENT = "bench_noop"


async def setup(bot: Any) -> None:
    async def nothing(timer: Any) -> None:
        return None

    bot.timers.register(EVENT, nothing)
