"""The image's HEALTHCHECK: the bot is healthy while it keeps touching HEALTH_FILE (bot.py does,
every 10 s, while it is connected to Discord and its database answers a query).

    python healthcheck.py    exit 0 when healthy, 1 when not; the reason on stdout
                             (`docker inspect --format '{{json .State.Health}}' ballcourt`)

Standard library only, so the check costs a few milliseconds, not the bot's start-up.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping

MAX_AGE_SECONDS = 60.0


def check(environ: Mapping[str, str], now: float | None = None) -> tuple[bool, str]:
    """(healthy, why) from the age of HEALTH_FILE."""
    path = environ.get("HEALTH_FILE", "").strip()
    if not path:
        return False, "HEALTH_FILE is not set, so the bot keeps no health file"
    try:
        age = (time.time() if now is None else now) - os.stat(path).st_mtime
    except FileNotFoundError:
        return False, "not connected to Discord with a working database yet"
    if age > MAX_AGE_SECONDS:
        return False, (
            f"the bot last had Discord and its database {age:.0f} s ago; its log says why"
        )
    return True, f"connected to Discord, database answering ({age:.0f} s ago)"


def main() -> int:
    healthy, why = check(os.environ)
    print(why)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
