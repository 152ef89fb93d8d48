"""ui/replies.py report_error when Discord refuses for a missing permission (403 50013): the
player hears which permission privately, or, when even the private answer is refused, in the
channel the click came from; nothing is logged as an unexpected error. Without Discord: the
interaction is a stand-in with the parts report_error reads."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord

from ui.replies import report_error


def missing_permissions() -> discord.Forbidden:
    response: Any = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})


class Channel(discord.abc.Messageable):
    """A text channel that keeps what is sent to it (discord.abc.Messageable's send, stood in)."""

    def __init__(self) -> None:
        self.sent: list[str | None] = []

    async def _get_channel(self):  # pragma: no cover - send is replaced
        return self

    async def send(self, content=None, **_):
        self.sent.append(content)


class Response:
    """An interaction's response whose private answer Discord refuses as well."""

    def is_done(self) -> bool:
        return False

    async def send_message(self, *_, **__) -> None:
        raise missing_permissions()


def interaction(channel: Channel) -> SimpleNamespace:
    granted = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
    return SimpleNamespace(
        user=SimpleNamespace(id=42, mention="<@42>"),
        channel=channel,
        guild=SimpleNamespace(me=None),
        app_permissions=granted,  # Attach Files taken away
        response=Response(),
        command=None,
        data={"custom_id": "match:1:2:pick:square:0"},
    )


async def test_a_refused_private_answer_is_told_in_the_channel_with_the_permission(caplog):
    channel = Channel()
    with caplog.at_level(logging.WARNING):
        await report_error(interaction(channel), missing_permissions())  # type: ignore[arg-type]
    (said,) = channel.sent
    assert said is not None and said.startswith("<@42> ")
    assert "I'm missing the Attach Files permission in this channel" in said
    assert "Nothing was changed" in said
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
