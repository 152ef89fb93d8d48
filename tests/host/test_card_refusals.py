"""What the match host does when Discord refuses to redraw the card a player clicked on
(host/posting.py), checked without Discord: the refusal comes from a stand-in interaction."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs.rocketball.options import match_settings
from cogs.rocketball.presenter import RocketballAdapter
from db import games as game_store
from host import moves
from host.match import Match

ADAPTER = RocketballAdapter()


def archived() -> discord.HTTPException:
    response: Any = SimpleNamespace(status=400, reason="Bad Request")
    return discord.HTTPException(
        response, {"code": 50083, "message": "Operation was performed on an archived thread"}
    )


def token_expired() -> discord.HTTPException:
    response: Any = SimpleNamespace(status=401, reason="Unauthorized")
    return discord.HTTPException(response, {"code": 50027, "message": "Invalid Webhook Token"})


def deleted() -> discord.NotFound:
    response: Any = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})


class Thread(discord.Thread):
    """A match thread, archived by a moderator (the parts of discord.Thread `reopen` uses)."""

    def __init__(self) -> None:  # no connection state: nothing but these parts is used
        self.id, self.archived = 7, True

    async def edit(self, *, archived: bool) -> None:
        self.archived = archived


def a_match() -> tuple[Match, game_store.StoredGame]:
    state, _ = ADAPTER.engine.new_state(7, {"settings": match_settings("", 2, 10, 7)})
    match = Match(engine=state, names=["Ann", "Bo"], salt="s", commitment="c")
    stored = game_store.StoredGame(
        id=1,
        game="rocketball",
        guild_id=5,
        channel_id=6,
        thread_id=7,
        status="active",
        state=match.to_json(ADAPTER),
        version=4,
        players=(10, 11),
    )
    return match, stored


async def test_a_pick_on_a_card_whose_thread_was_archived_meanwhile_reopens_it_and_is_shown():
    """Seen in the chaos run: a click that waited for its match (so it was acknowledged
    first) found its thread archived by the time the pick was drawn; the edit through the
    interaction was refused (400 50083) and the click ended in an unhandled exception, the
    player reading "something went wrong". The thread is opened again and the pick drawn."""
    match, stored = a_match()
    thread = Thread()
    edits: list[dict] = []

    async def edit_original_response(**changes) -> None:
        if thread.archived:  # Discord refuses any edit in an archived thread
            raise archived()
        edits.append(changes)

    async def fetch_channel(channel_id: int) -> Thread:
        assert channel_id == thread.id
        return thread

    async def draw_card(*args, **kwargs):
        return "the card with the pick", []

    interaction: Any = SimpleNamespace(
        message=SimpleNamespace(flags=SimpleNamespace(ephemeral=False), attachments=[]),
        channel=thread,
        response=SimpleNamespace(is_done=lambda: True),  # acknowledged while it waited
        edit_original_response=edit_original_response,
    )
    host: Any = SimpleNamespace(
        bot=SimpleNamespace(fetch_channel=fetch_channel), draw_card=draw_card
    )
    await moves.show_pick(host, interaction, ADAPTER, stored, match, "b2")
    assert not thread.archived
    assert edits == [{"view": "the card with the pick"}]


async def pick_refused(refusal: discord.HTTPException, *, card_there: bool):
    """A pick on a card whose click was acknowledged while it waited, its edit through the
    interaction refused with `refusal`: what the card became, what the player read."""
    match, stored = a_match()
    edits: list[dict] = []
    told: list[str] = []

    async def edit_original_response(**changes) -> None:
        raise refusal

    async def edit(**changes) -> None:  # the card edited as the bot's own message
        if not card_there:
            raise deleted()
        edits.append(changes)

    async def send(content, **kwargs) -> None:
        told.append(content)

    async def draw_card(*args, **kwargs):
        return "the card with the pick", []

    interaction: Any = SimpleNamespace(
        message=SimpleNamespace(
            flags=SimpleNamespace(ephemeral=False), attachments=[], id=99, edit=edit
        ),
        channel=None,
        user=SimpleNamespace(id=10),
        response=SimpleNamespace(
            is_done=lambda: True, type=discord.InteractionResponseType.deferred_message_update
        ),
        edit_original_response=edit_original_response,
        followup=SimpleNamespace(send=send),
    )
    host: Any = SimpleNamespace(bot=SimpleNamespace(), draw_card=draw_card)
    await moves.show_pick(host, interaction, ADAPTER, stored, match, "b2")
    return edits, told


async def test_a_pick_whose_token_expired_while_it_waited_is_drawn_on_the_card_all_the_same():
    """Seen in the chaos run (tokens expiring): the pick's edit through the interaction was
    refused with 401 50027 and the click ended in an unhandled exception. The card is edited as
    the bot's own message instead, as the card's redraw does."""
    edits, told = await pick_refused(token_expired(), card_there=True)
    assert edits == [{"view": "the card with the pick"}] and told == []


async def test_a_pick_on_a_card_deleted_meanwhile_tells_the_player_where_the_match_goes_on():
    """Seen in the chaos run (a card deleted): the edit found no message (404 10008) and the
    click ended in an unhandled exception. Nothing was saved; the player reads that the card is
    gone and the match goes on in a new one."""
    edits, told = await pick_refused(deleted(), card_there=False)
    assert edits == []
    assert len(told) == 1 and "deleted" in told[0] and "nothing was changed" in told[0]
