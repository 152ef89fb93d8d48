"""Discord's rate limits through the fake (fakediscord/ratelimits.py): what the fake answers, and
that the real bot, through discord.py, waits and retries instead of losing what it was sending."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import aiohttp
import pytest

from fakediscord.server import FakeDiscord
from tests.e2e.cards import is_card
from tests.e2e.stored import until

pytestmark = pytest.mark.e2e


@pytest.fixture
def limits(fake_discord: FakeDiscord) -> Iterator[FakeDiscord]:
    """The fake with empty buckets, its limits put back as Discord's after the test."""
    fake_discord.rate_limits.reset()
    yield fake_discord
    fake_discord.rate_limits.reset()


def test_limits_are_on_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on Discord, in every test and the sandbox; off only when asked."""
    monkeypatch.delenv("FAKEDISCORD_RATE_LIMITS", raising=False)
    assert FakeDiscord(spec_check=False).rate_limits.enabled
    assert not FakeDiscord(spec_check=False, rate_limits=False).rate_limits.enabled
    monkeypatch.setenv("FAKEDISCORD_RATE_LIMITS", "0")
    assert not FakeDiscord(spec_check=False).rate_limits.enabled


async def test_sixth_message_in_five_seconds_gets_429_with_the_headers(limits, general):
    fake = limits
    url = f"{fake.api_base}/channels/{general.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    answers = []
    async with aiohttp.ClientSession() as session:
        for number in range(6):
            async with session.post(url, json={"content": f"n{number}"}, headers=headers) as r:
                answers.append((r.status, dict(r.headers), await r.json()))
    statuses = [status for status, _, _ in answers]
    assert statuses == [200] * 5 + [429]
    _, first, _ = answers[0]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert first["X-RateLimit-Bucket"] and float(first["X-RateLimit-Reset-After"]) <= 5
    _, refused, body = answers[-1]
    assert refused["X-RateLimit-Scope"] == "user" and refused["X-RateLimit-Remaining"] == "0"
    assert "X-RateLimit-Global" not in refused and refused["Via"]
    assert 0 < body["retry_after"] <= 5 and body["global"] is False
    assert int(refused["Retry-After"]) >= body["retry_after"]
    # another channel has its own bucket (a top-level resource)
    async with aiohttp.ClientSession() as session:
        other = f"{fake.api_base}/channels/{fake.fixtures.games.id}/messages"
        async with session.post(other, json={"content": "elsewhere"}, headers=headers) as r:
            assert r.status == 200


async def test_global_limit_spares_interaction_routes(limits, general):
    fake = limits
    fake.rate_limits.set_limit("global", 1)
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        # a channel that has no per-route rule in the fake: only the global bucket counts it
        gets = []
        for _ in range(2):
            async with session.get(f"{fake.api_base}/channels/{general.id}", headers=headers) as r:
                gets.append((r.status, dict(r.headers), await r.json()))
        (ok, _, _), (status, refused, body) = gets
        assert ok == 200 and status == 429
        assert body["global"] is True and refused["X-RateLimit-Global"] == "true"
        assert refused["X-RateLimit-Scope"] == "global"
    # Discord: interaction endpoints are not bound to the global limit
    verdict = fake.rate_limits.admit("POST", "/interactions/1/token/callback")
    assert verdict.status is None


async def test_bot_waits_out_a_global_429_and_the_card_still_arrives(
    limits, discord, bot, alice, bob, general
):
    fake = limits
    fake.rate_limits.set_limit("global", 2)
    refused_before = len(fake.rate_limits.refused)
    reply = await discord.slash("rocketball challenge", user=alice, opponent=bob)
    await discord.click(reply, "Accept", user=bob, timeout=20)
    thread = await discord.wait_for_thread(general, timeout=20)
    card = await discord.wait_for_message(thread, is_card, timeout=20)
    assert card.buttons  # the live card, with its controls, arrived whole
    # the first turn's ping follows the card: the burst that went past 2 requests a second
    ping = await discord.wait_for_message(thread, lambda m: "your move" in m.text, timeout=20)
    assert alice.mention in ping.text or bob.mention in ping.text
    refused = fake.rate_limits.refused[refused_before:]
    assert ("global", "global") in refused  # the bot did hit the limit, and retried
    for _ in range(100):
        if "Global rate limit has been hit" in bot.log_text():
            break
        await asyncio.sleep(0.05)
    assert "Global rate limit has been hit" in bot.log_text()


async def test_managers_taking_seats_one_after_another_are_each_answered_in_time(
    limits, discord, bot, owner, general
):
    """Each seat taken edits the league's card in the channel, which Discord limits to 5 edits
    in 5 s: the command's answer must not wait behind that edit (3 s to answer), and the card
    shows every seat taken once the edits are through."""
    room = discord.add_channel("seats")
    created = await discord.slash(
        "volleyball league create", user=owner, channel=room, name="Seat Rush", teams=8
    )
    assert "Seat Rush" in created.text, created.text
    managers = [discord.add_user(f"rush{number}") for number in range(7)]
    for user in managers:
        free = await discord.autocomplete(
            "volleyball take-seat", "team", "", user=user, channel=room
        )
        team = free[0]["value"]
        taken = await discord.slash("volleyball take-seat", user=user, channel=room, team=team)
        assert "takes over" in taken.content, taken.content
    card = [m for m in discord.channel_messages(room) if m.embeds][-1]

    # the card catches up: one computer team left of eight
    await until(lambda: "1 team play by themselves" in discord.message(card).text, timeout=20)


async def test_a_command_right_after_a_round_is_answered_while_its_results_wait_on_the_limit(
    limits, discord, bot, owner
):
    """The results of a round (and the card posted again below them) go to the channel after
    the command that played it was answered, and wait there on Discord's limit of posts per
    channel; the next command on the league (an admin playing the next round at once) must
    not wait behind them (3 s to answer), and every post still arrives in order."""
    fake = limits
    room = discord.add_channel("rush-results")
    created = await discord.slash(
        "volleyball league create", user=owner, channel=room, name="Rush Results", teams=4
    )
    assert "Rush Results" in created.text, created.text
    started = await discord.slash("volleyball league start", user=owner, channel=room)
    assert "has started" in started.content, started.content
    await until(
        lambda: any("round 1" in m.text.lower() for m in discord.channel_messages(room)),
        timeout=20,
    )
    # one post per 5 s in this channel: each round's results and its card wait seconds
    fake.rate_limits.set_limit("message-create", 1, 5.0)
    first = await discord.slash("volleyball round run-now", user=owner, channel=room)
    assert "Played" in first.content, first.content
    second = await discord.slash("volleyball round run-now", user=owner, channel=room)
    assert "Played" in second.content, second.content
    for number in (1, 2):
        await until(
            lambda number=number: any(
                f"round {number} results" in m.content for m in discord.channel_messages(room)
            ),
            timeout=40,
        )
    posts = [m.content for m in discord.channel_messages(room)]
    first_at = next(i for i, text in enumerate(posts) if "round 1 results" in text)
    second_at = next(i for i, text in enumerate(posts) if "round 2 results" in text)
    assert first_at < second_at
