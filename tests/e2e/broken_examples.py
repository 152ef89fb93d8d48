"""Tests that must FAIL: test_harness.py runs this file in a child pytest to prove that a
bot breaking Discord's rules fails a test even when the test does not look for it.
(The name does not start with test_, so the normal run does not collect it.)"""

from __future__ import annotations

import asyncio

import pytest

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_extensions() -> list[str]:
    return ["tests.e2e.misbehaving_cog"]


async def test_too_long_reply_unchecked(discord, alice):
    await discord.slash("misbehave long", user=alice)  # raises DiscordViolation: fails


async def test_answered_twice_unchecked(discord, alice):
    reply = await discord.slash("misbehave twice", user=alice)
    assert reply.content == "first"  # passes; the second response fails it at teardown
    await asyncio.sleep(1.0)


async def test_crash_unchecked(discord, alice):
    reply = await discord.slash("misbehave crash", user=alice)
    assert reply.ephemeral  # passes; the logged traceback fails it at teardown


async def test_bot_dies_unchecked(discord, alice):
    reply = await discord.slash("misbehave die", user=alice)
    assert reply.content == "goodbye"  # passes; the dead process fails it at teardown
    await asyncio.sleep(0.5)


async def test_well_behaved_passes(discord, alice):
    # runs after the crash above: the harness restarted the bot
    reply = await discord.slash("roll", user=alice, notation="2d6")
    assert "rolled `2d6`" in reply.content
