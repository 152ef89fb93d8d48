"""discord.py keeps a rate-limit bucket per route and channel, and forgets one idle for five
minutes by looking at every bucket whenever a new one is made once there are 256
(`HTTPClient._try_clear_expired_ratelimits`). Reminders due together go to a thread each: every
one makes a bucket, so the looks grew with the square of the reminders (bench/reminders.py:
the bot's CPU per reminder 1.7, 2.4, 3.4 ms at 100, 1,000, 3,000). The bot looks again only
once the buckets have doubled since its last look (ui/client.py)."""

from __future__ import annotations

import asyncio

import discord.http

from ui.client import sweep_buckets_in_proportion


async def looks_for_new_buckets(count: int, monkeypatch, *, proportional: bool) -> int:
    looks = 0
    is_inactive = discord.http.Ratelimit.is_inactive

    def counted(bucket: discord.http.Ratelimit) -> bool:
        nonlocal looks
        looks += 1
        return is_inactive(bucket)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    if proportional:
        sweep_buckets_in_proportion(http)
    for channel in range(count):
        http.get_ratelimit(f"POST /channels/{channel}/messages")
    return looks


async def test_a_new_bucket_per_thread_is_not_a_look_at_every_bucket(monkeypatch):
    looks = await looks_for_new_buckets(3000, monkeypatch, proportional=True)
    assert looks <= 2 * 3000, f"{looks} looks at buckets for 3,000 new ones"


async def test_idle_buckets_are_still_forgotten(monkeypatch):
    """A bucket idle for five minutes is forgotten at the next look, as discord.py does."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep_buckets_in_proportion(http)
    for channel in range(300):
        http.get_ratelimit(f"POST /channels/{channel}/messages")
    for bucket in http._buckets.values():
        bucket._last_request -= 301
    for channel in range(300, 600):
        http.get_ratelimit(f"POST /channels/{channel}/messages")
    assert len(http._buckets) < 600
    assert "POST /channels/599/messages" in http._buckets
