"""ui/timely.py's rule, request by request: an answer is the interaction's first response only
while it begins early enough to reach Discord within its 3 s (an upload, earlier than a text);
later, the interaction is acknowledged first and the answer follows by an edit or a followup.
The answer as a player sees it, through the fake Discord: tests/e2e/test_answered_in_time.py."""

from __future__ import annotations

import asyncio
import datetime
import io
import time
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from ui import timely
from ui.timely import TimelyResponse, uploads


@dataclass
class Clicked:
    """What TimelyResponse reads of an interaction, and the requests it sends through it."""

    created_at: datetime.datetime
    message: object | None = "the card"
    id: int = 1
    sent: list[str] = field(default_factory=list)

    async def edit_original_response(self, **changes: Any) -> None:
        self.sent.append("edit original")


@pytest.fixture(autouse=True)
def responses(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's own responses, each recorded on the interaction instead of sent."""

    def responding(kind: str, response_type: discord.InteractionResponseType):
        async def respond(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> None:
            name = kind
            if kind == "defer":
                name = "defer thinking" if kwargs.get("thinking") else "defer update"
            self._parent.sent.append(name)  # type: ignore[attr-defined]
            self._response_type = response_type

        return respond

    kinds = discord.InteractionResponseType
    monkeypatch.setattr(
        discord.InteractionResponse, "defer", responding("defer", kinds.deferred_message_update)
    )
    monkeypatch.setattr(
        discord.InteractionResponse, "edit_message", responding("update", kinds.message_update)
    )
    monkeypatch.setattr(
        discord.InteractionResponse,
        "send_message",
        responding("message", kinds.channel_message),
    )


def clicked(seconds_ago: float) -> Clicked:
    return Clicked(discord.utils.utcnow() - datetime.timedelta(seconds=seconds_ago))


def image() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG" + bytes(50_000)), filename="board.png")


async def answered(interaction: Clicked, **answer: Any) -> list[str]:
    response = TimelyResponse(interaction)  # type: ignore[arg-type]
    await response.edit_message(**answer)
    await asyncio.sleep(0)
    return interaction.sent


async def test_a_quick_answer_with_an_image_is_the_one_response():
    assert await answered(clicked(0.05), attachments=[image()]) == ["update"]


async def test_an_answer_with_an_image_begun_after_a_second_follows_an_acknowledgement():
    assert await answered(clicked(1.2), attachments=[image()]) == ["defer update", "edit original"]


async def test_a_text_answer_begun_after_a_second_is_still_the_one_response():
    assert await answered(clicked(1.2), content="Your move") == ["update"]


async def test_a_text_answer_begun_late_follows_an_acknowledgement():
    late = timely.ACKNOWLEDGE_AFTER_SECONDS + 0.1
    assert await answered(clicked(late), content="Your move") == ["defer update", "edit original"]


async def test_a_clock_behind_discords_still_counts_the_wait_since_the_click_came(
    monkeypatch: pytest.MonkeyPatch,
):
    """The snowflake says the click is a moment old (the bot's clock 5 s behind), but the bot
    received it 1.2 s ago: the image's answer is acknowledged first."""
    interaction = clicked(-5)
    response = TimelyResponse(interaction)  # type: ignore[arg-type]
    received = time.monotonic()
    monkeypatch.setattr(timely.time, "monotonic", lambda: received + 1.2)
    await response.edit_message(attachments=[image()])
    assert interaction.sent == ["defer update", "edit original"]


async def test_a_message_with_a_private_image_begun_late_thinks_privately_then_follows(
    monkeypatch: pytest.MonkeyPatch,
):
    followups: list[dict[str, Any]] = []

    class Followup:
        async def send(self, content: Any, **kwargs: Any) -> None:
            followups.append(kwargs)

    interaction = clicked(1.2)
    interaction.followup = Followup()  # type: ignore[attr-defined]
    deferred: list[dict[str, Any]] = []

    async def defer(self: discord.InteractionResponse, **kwargs: Any) -> None:
        deferred.append(kwargs)
        self._response_type = discord.InteractionResponseType.deferred_channel_message

    monkeypatch.setattr(discord.InteractionResponse, "defer", defer)
    response = TimelyResponse(interaction)  # type: ignore[arg-type]
    await response.send_message("Yours", file=image(), ephemeral=True)
    assert deferred == [{"thinking": True, "ephemeral": True}]
    assert [kwargs["ephemeral"] for kwargs in followups] == [True]


def test_what_is_an_upload():
    assert uploads({"file": image()})
    assert uploads({"files": [image()]})
    assert uploads({"attachments": [image()]})
    assert not uploads({"attachments": []})  # the images taken off the message
    assert not uploads({"content": "Your move", "view": None})


async def test_a_click_still_unanswered_is_acknowledged_in_time():
    interaction = clicked(timely.ACKNOWLEDGE_AFTER_SECONDS - 0.1)
    TimelyResponse(interaction)  # type: ignore[arg-type]
    await asyncio.sleep(0.3)
    assert interaction.sent == ["defer update"]


async def test_on_a_busy_event_loop_a_click_is_acknowledged_earlier():
    """The loop wakes the watch late (it ran something else for 0.3 s): the acknowledgement
    leaves at once, not at ACKNOWLEDGE_AFTER_SECONDS."""
    interaction = clicked(timely.ACKNOWLEDGE_BUSY_AFTER_SECONDS - 0.05)
    TimelyResponse(interaction)  # type: ignore[arg-type]
    await asyncio.sleep(0)
    time.sleep(0.3)  # the loop busy: drawing, say
    await asyncio.sleep(0.01)
    assert interaction.sent == ["defer update"]
    assert timely.ACKNOWLEDGE_BUSY_AFTER_SECONDS + 0.3 < timely.ACKNOWLEDGE_AFTER_SECONDS


async def test_on_an_idle_event_loop_a_click_waiting_its_turn_is_not_acknowledged_early():
    interaction = clicked(timely.ACKNOWLEDGE_BUSY_AFTER_SECONDS - 0.05)
    response = TimelyResponse(interaction)  # type: ignore[arg-type]
    await asyncio.sleep(0.2)  # past the busy loop's time; the loop idle, waiting
    assert interaction.sent == []
    await response.edit_message(content="Your move")
    assert interaction.sent == ["update"]


def unknown_interaction() -> discord.NotFound:
    """Discord's 10062 Unknown interaction: a first response (or acknowledgement) too late."""

    @dataclass
    class Response:
        status: int = 404
        reason: str = "Not Found"

    body = {"code": 10062, "message": "Unknown interaction"}
    return discord.NotFound(Response(), body)  # type: ignore[arg-type]


@pytest.mark.parametrize("watch", [True, False], ids=["by the watch", "by the answer"])
async def test_an_acknowledgement_discord_refused_is_not_followed_by_an_edit_or_a_followup(
    monkeypatch: pytest.MonkeyPatch, watch: bool
):
    """The acknowledgement came too late (a stalled process): Discord answered 10062 and the
    interaction has no response, so there is no original response to edit nor a followup to
    send (Discord answers those 10015 Unknown Webhook). The answer hears the 10062, as a late
    first response would, and takes its caller's route for an expired interaction."""
    refusals: list[str] = []

    async def refused(self: discord.InteractionResponse, **kwargs: Any) -> None:
        refusals.append("defer")
        raise unknown_interaction()

    monkeypatch.setattr(discord.InteractionResponse, "defer", refused)
    interaction = clicked(timely.ACKNOWLEDGE_AFTER_SECONDS + 0.1 if watch else 1.2)
    response = TimelyResponse(interaction)  # type: ignore[arg-type]
    if watch:
        await asyncio.sleep(0.01)  # the watch acknowledges at once, and is refused
        assert refusals == ["defer"]
    with pytest.raises(discord.NotFound):
        await response.edit_message(attachments=[image()])
    with pytest.raises(discord.NotFound):
        await response.send_message("Your move")
    assert refusals == ["defer"]  # not sent again: Discord has said the interaction is gone
    assert interaction.sent == []
