"""The fake Discord archives a thread after ``auto_archive_duration`` minutes without activity,
as Discord documents (resources/channel, "Thread Metadata Object": ``auto_archive_duration``,
the "duration in minutes to automatically archive the thread after recent activity"; activity
is a message sent, unarchiving it, or a change of that duration: topics/threads), and finding
the threads that are due costs it nothing for those that are not: a request in a server of
thousands of match threads does not look at each of them (every request checks what the
fake's clock has done meanwhile, so a cost per thread there was paid on every request)."""

from __future__ import annotations

import datetime
import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from fakediscord import persist
from fakediscord.clock import CLOCK
from fakediscord.server import FakeDiscord

MINUTE = 60


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    # Discord's rate limits off: these requests come faster than a channel's bucket allows,
    # and what is checked is archiving, not the limits (ratelimits.py has its own tests).
    fake = FakeDiscord(rate_limits=False)
    fake.fixtures_general = fake.add_channel("general")  # type: ignore[attr-defined]
    offset = CLOCK.offset
    fake.start()
    yield fake
    fake.stop()
    CLOCK.offset = offset


def request(fake: FakeDiscord, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    sent = urllib.request.Request(
        fake.api_base + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return json.loads(answer.read() or b"{}")


def new_thread(fake: FakeDiscord, name: str, minutes: int) -> int:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    thread = request(
        fake,
        "POST",
        f"/channels/{general.id}/threads",
        {"name": name, "type": 11, "auto_archive_duration": minutes},
    )
    return int(thread["id"])


def post(fake: FakeDiscord, channel_id: int, content: str) -> None:
    request(fake, "POST", f"/channels/{channel_id}/messages", {"content": content})


def archived(fake: FakeDiscord, *thread_ids: int) -> list[bool]:
    return fake.call_sync(
        lambda: [fake.channels[i]["thread_metadata"]["archived"] for i in thread_ids]
    )


def archive_timestamp(fake: FakeDiscord, thread_id: int) -> str:
    return fake.call_sync(lambda: fake.channels[thread_id]["thread_metadata"]["archive_timestamp"])


def pass_time(fake: FakeDiscord, seconds: float) -> None:
    async def move() -> None:
        CLOCK.offset += seconds
        await fake.archive_idle_threads()

    fake.call_sync_coroutine(move)


class CountedChannels(dict):
    """The fake's channel table, counting the channels any walk over it is handed."""

    walked = 0

    def _walk(self, items: Iterator[Any]) -> Iterator[Any]:
        for item in items:
            self.walked += 1
            yield item

    def __iter__(self) -> Iterator[Any]:
        return self._walk(super().__iter__())

    def keys(self) -> Any:
        return self._walk(iter(super().keys()))

    def values(self) -> Any:
        return self._walk(iter(super().values()))

    def items(self) -> Any:
        return self._walk(iter(super().items()))


def test_a_request_does_not_look_at_every_thread_to_find_the_idle_ones(fake):
    threads = [new_thread(fake, f"match {number}", 1440) for number in range(300)]
    counted = fake.call_sync(lambda: CountedChannels(fake.channels))

    def count_walks() -> None:
        fake.channels = counted

    fake.call_sync(count_walks)
    for number in range(20):
        post(fake, threads[number], "your move")
    pass_time(fake, 10 * MINUTE)  # the clock moves: nothing is due yet
    # 20 requests and a move of the clock among 300 threads: the channels looked at do not
    # grow with the threads (a walk over the table was 300 a request)
    assert counted.walked < len(threads)
    assert archived(fake, *threads) == [False] * len(threads)


def test_threads_archive_after_their_own_idle_time_from_their_last_activity(fake):
    hour_a, hour_b = new_thread(fake, "hour a", 60), new_thread(fake, "hour b", 60)
    day_a, day_b, day_c = (new_thread(fake, f"day {name}", 1440) for name in "abc")
    pass_time(fake, 59 * MINUTE)
    post(fake, hour_b, "still here")  # activity: its hour starts again
    assert archived(fake, hour_a, hour_b, day_a) == [False, False, False]
    start = CLOCK.time() - 59 * MINUTE
    pass_time(fake, 2 * MINUTE)  # an hour and a minute since they were made
    assert archived(fake, hour_a, hour_b, day_a, day_b, day_c) == [True, False, False, False, False]
    # archive_timestamp: when it was archived, its last activity plus its idle time
    archived_at = datetime.datetime.fromisoformat(archive_timestamp(fake, hour_a)).timestamp()
    assert archived_at == pytest.approx(start + 60 * MINUTE, abs=2)
    pass_time(fake, 60 * MINUTE)
    assert archived(fake, hour_b) == [True]

    # a day thread's idle time changed to an hour: the hour counts from the change
    request(fake, "PATCH", f"/channels/{day_b}", {"auto_archive_duration": 60})
    post(fake, day_c, "a message a day")
    pass_time(fake, 61 * MINUTE)
    assert archived(fake, day_a, day_b, day_c) == [False, True, False]
    pass_time(fake, (1440 - 121) * MINUTE)  # a day and a minute since they were made
    assert archived(fake, day_a, day_c) == [True, False]

    # unarchived (by a message or by its moderator): the idle time starts again from then
    post(fake, day_a, "back")
    request(fake, "PATCH", f"/channels/{hour_a}", {"archived": False})
    assert archived(fake, day_a, hour_a) == [False, False]
    pass_time(fake, 59 * MINUTE)
    assert archived(fake, day_a, hour_a) == [False, False]
    pass_time(fake, 2 * MINUTE)
    assert archived(fake, day_a, hour_a) == [False, True]


def test_a_sandbox_world_read_back_archives_its_open_threads_once_idle_for_long_enough(
    fake, tmp_path
):
    """The sandbox's saved world (persist.py) keeps threads, not when each was last active:
    read back, an open thread archives after its idle time counted from then."""
    open_thread = new_thread(fake, "left open", 60)
    fake.call_sync(lambda: persist.save(fake, tmp_path))
    restored = FakeDiscord(rate_limits=False)
    assert persist.load(restored, tmp_path)
    restored.start()
    try:
        pass_time(restored, 59 * MINUTE)
        assert archived(restored, open_thread) == [False]
        pass_time(restored, 2 * MINUTE)
        assert archived(restored, open_thread) == [True]
    finally:
        restored.stop()
