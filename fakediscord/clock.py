"""The fake Discord's wall clock, and the sandbox's control of the bot's.

The sandbox lets a player "advance time by an hour / a day" so that reminders, forfeits and
league deadlines can be tried. The bot must run unmodified, so its clock is moved from outside:
it runs under libfaketime (Debian's ``libfaketime``), preloaded with ``LD_PRELOAD``, which reads
its offset from a file (``FAKETIME_TIMESTAMP_FILE``) at most once a second
(``FAKETIME_CACHE_DURATION=1``). Only the wall clock moves (``FAKETIME_DONT_FAKE_MONOTONIC=1``):
asyncio's timers, heartbeats and timeouts keep real time. Its "monotonic fix" is switched off
(``FAKETIME_FORCE_MONOTONIC_FIX=0``): on by default with this glibc, it delayed every hand-over
of the interpreter lock between the bot's threads. The bot's timer dispatcher re-checks
its timers table every ``TIMER_RECHECK_SECONDS`` (the sandbox sets 1), so a timer that became due
fires within about two seconds, as it would have when its time came.

The fake Discord itself (snowflakes, message timestamps) follows the same offset through
``CLOCK``, so the bot and "Discord" agree on what time it is. Tests never move it.

Known limit of libfaketime 0.9.10: ``time.sleep`` fails with EINVAL in a faked Python process
(it intercepts clock_nanosleep with an absolute monotonic deadline badly). Nothing the bot runs
calls it (asyncio, threads' timed waits and select are unaffected; checked in
tests/sandbox/test_clock.py).
"""

from __future__ import annotations

import glob
import time
from pathlib import Path

# Where Debian installs the preload library (per architecture).
LIBFAKETIME_GLOBS = (
    "/usr/lib/*/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
    "/usr/local/lib/faketime/libfaketime.so.1",
)


class Clock:
    """Wall-clock time shifted by ``offset`` seconds (0 unless the sandbox moved it)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset


# The one clock of this process's fake Discord.
CLOCK = Clock()


def find_libfaketime() -> Path | None:
    for pattern in LIBFAKETIME_GLOBS:
        for match in sorted(glob.glob(pattern)):
            return Path(match)
    return None


class BotClock:
    """Moves the wall clock of the bot process (libfaketime) together with ``CLOCK``."""

    def __init__(self, offset_file: Path, library: Path | None) -> None:
        self.offset_file = offset_file
        self.library = library

    @property
    def available(self) -> bool:
        return self.library is not None

    def unavailable_reason(self) -> str:
        return (
            "the clock control needs libfaketime (Debian: apt-get install libfaketime); "
            "without it the bot keeps real time"
        )

    def environment(self) -> dict[str, str]:
        """What the bot process needs in its environment to follow the offset file."""
        self._write()
        if self.library is None:
            return {}
        return {
            "LD_PRELOAD": str(self.library),
            "FAKETIME_TIMESTAMP_FILE": str(self.offset_file),
            "FAKETIME_CACHE_DURATION": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            # libfaketime turns its "monotonic fix" on by itself with this glibc; it makes the
            # interpreter lock's timed hand-over between threads wait (a computer's 2 ms move
            # in a thread took seconds while the event loop was busy). Timed waits keep real
            # time without it (tests/sandbox/test_clock.py).
            "FAKETIME_FORCE_MONOTONIC_FIX": "0",
            # the dispatcher's re-check interval: a due timer fires within a second or two
            "TIMER_RECHECK_SECONDS": "1",
        }

    def set_offset(self, seconds: float) -> None:
        CLOCK.offset = float(seconds)
        self._write()

    def advance(self, seconds: float) -> float:
        if seconds <= 0:
            raise ValueError("the sandbox clock only moves forward")
        self.set_offset(CLOCK.offset + seconds)
        return CLOCK.offset

    def _write(self) -> None:
        # libfaketime's relative format: "+N" seconds from the real time
        self.offset_file.parent.mkdir(parents=True, exist_ok=True)
        partial = self.offset_file.with_suffix(".partial")
        partial.write_text(f"+{int(CLOCK.offset)}\n")
        partial.replace(self.offset_file)  # never let libfaketime read half a file
