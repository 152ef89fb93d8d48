"""What every cog shares: player-facing errors and how they reach the player."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

import ui as common
from rules.errors import PlayerError


class ExpiredResponse:
    def is_done(self):
        return False

    async def send_message(self, *args, **kwargs):
        raise discord.NotFound(
            cast(Any, FakeHTTPResponse(404)), {"code": 10062, "message": "Unknown interaction"}
        )


class FakeHTTPResponse:
    """The parts of aiohttp's response discord.HTTPException reads."""

    def __init__(self, status):
        self.status = status
        self.reason = "Not Found"


class Channel(discord.abc.Messageable):
    def __init__(self):
        self.sent = []

    async def _get_channel(self):
        return self

    async def send(self, *args, **kwargs):
        self.sent.append((args, kwargs))


class ExpiredInteraction:
    """An interaction whose 3 seconds ran out (e.g. the database was locked)."""

    def __init__(self):
        self.response = ExpiredResponse()
        self.channel = Channel()
        self.user = type("U", (), {"id": 7, "mention": "<@7>"})()


async def test_an_expired_interaction_never_pings_the_user_in_public():
    """The fallback posted "@carol Something went wrong" in the channel."""
    interaction = ExpiredInteraction()
    await common.send_ephemeral(cast(Any, interaction), "Something went wrong")
    assert interaction.channel.sent == []


def test_every_engine_error_is_a_player_error_so_the_reporter_needs_no_registry():
    from rules.dice import DiceError
    from rules.rocketball import RocketballError
    from rules.rollerball2 import RollerballError

    for error_type in (DiceError, RocketballError, RollerballError):
        assert common.user_message_for(error_type("say this")) == "say this"
    assert common.user_message_for(RuntimeError("bug")) is None
    assert issubclass(common.UserError, PlayerError)


@pytest.mark.parametrize("length", [10, 5000])
def test_quoted_input_is_capped(length):
    quoted = common.quote("x" * length)
    assert len(quoted) <= common.MAX_QUOTE + 2
    assert quoted.startswith("`") and quoted.endswith("`")
