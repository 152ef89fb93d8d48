"""The sandbox's clock control: the bot's wall clock moves under libfaketime, its monotonic
clock (asyncio's timers) does not, and the fake Discord's snowflakes and timestamps follow."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fakediscord.clock import CLOCK, BotClock, find_libfaketime
from fakediscord.model import DISCORD_EPOCH_MS, SnowflakeFactory

# What the bot process does with time: the wall clock, an asyncio sleep, a thread's timed wait,
# a queue timeout (aiosqlite's worker) and SQLite's own clock.
PROBE = """
import asyncio, json, queue, sqlite3, threading, time
async def main():
    started = time.monotonic()
    await asyncio.sleep(0.2)
    await asyncio.to_thread(lambda: threading.Event().wait(0.1))
    try:
        queue.Queue().get(timeout=0.1)
    except queue.Empty:
        pass
    return time.monotonic() - started
waited = asyncio.run(main())
sql = sqlite3.connect(":memory:").execute("select strftime('%s', 'now')").fetchone()[0]
print(json.dumps({"wall": time.time(), "waited": waited, "sqlite": int(sql)}))
"""


def probe(environment: dict[str, str]) -> dict[str, float]:
    finished = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert finished.returncode == 0, finished.stderr
    return json.loads(finished.stdout)


@pytest.fixture
def reset_clock():
    yield
    CLOCK.offset = 0.0


@pytest.mark.usefixtures("reset_clock")
def test_a_day_forward_moves_the_bots_wall_clock_but_not_its_timers(tmp_path: Path) -> None:
    library = find_libfaketime()
    if library is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the sandbox's clock control needs libfaketime (.ci/run installs it)")
        pytest.skip("no libfaketime (Debian: apt-get install libfaketime)")
    clock = BotClock(tmp_path / "faketime", library)
    environment = clock.environment()
    assert environment["TIMER_RECHECK_SECONDS"] == "1"
    before = probe(environment)
    assert abs(before["wall"] - time.time()) < 5

    clock.advance(86400)
    after = probe(environment)
    assert 86400 - 5 < after["wall"] - time.time() < 86400 + 5
    assert 86400 - 5 < after["sqlite"] - time.time() < 86400 + 5
    # asyncio's sleep, a thread's wait and a queue timeout took real time, not a day (or 0)
    assert 0.35 < after["waited"] < 5


@pytest.mark.usefixtures("reset_clock")
def test_the_fake_discord_follows_the_sandbox_clock(tmp_path: Path) -> None:
    clock = BotClock(tmp_path / "faketime", None)
    assert not clock.available and "libfaketime" in clock.unavailable_reason()
    clock.advance(3600)
    assert (tmp_path / "faketime").read_text() == "+3600\n"
    snowflake = SnowflakeFactory().next()
    created = ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000
    assert 3600 - 5 < created - time.time() < 3600 + 5
    with pytest.raises(ValueError):
        clock.advance(-60)
    assert CLOCK.offset == 3600
    stamp = datetime.datetime.fromtimestamp(CLOCK.time(), datetime.UTC)
    assert stamp > datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=59)


# A computation in a worker thread while the event loop keeps waking (as the bot computes a
# computer's move in a thread while it serves other clicks): the two hand the interpreter lock
# back and forth through a timed condition wait, which libfaketime intercepts.
HANDOFF = """
import asyncio, json, time
def work():
    total = 0
    for number in range(2_000_000):
        total += number
async def main():
    async def tick():
        while True:
            await asyncio.sleep(0.001)
    ticking = asyncio.create_task(tick())
    started = time.monotonic()
    await asyncio.to_thread(work)
    ticking.cancel()
    return time.monotonic() - started
print(json.dumps({"took": asyncio.run(main())}))
"""


def handoff_seconds(environment: dict[str, str]) -> float:
    finished = subprocess.run(
        [sys.executable, "-c", HANDOFF],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 0, finished.stderr
    return json.loads(finished.stdout)["took"]


@pytest.mark.usefixtures("reset_clock")
def test_a_thread_under_the_sandbox_clock_is_not_held_up_by_the_event_loop(
    tmp_path: Path,
) -> None:
    """libfaketime's 'monotonic fix', on by default with this glibc, made every hand-over of
    the interpreter lock wait: a computer's 2 ms move in a thread took seconds in the sandbox
    while the event loop was busy (the same work in the same process without libfaketime: no
    delay). The bot's clock environment switches it off; the wall clock still moves."""
    library = find_libfaketime()
    if library is None:
        pytest.skip("no libfaketime (Debian: apt-get install libfaketime)")
    clock = BotClock(tmp_path / "faketime", library)
    clock.advance(3600)
    real = min(handoff_seconds({}) for _ in range(2))
    faked = min(handoff_seconds(clock.environment()) for _ in range(2))
    # without the fix: 6 to 25 times slower; with it, the same within the machine's noise
    assert faked < 3 * real + 0.1, (real, faked)
