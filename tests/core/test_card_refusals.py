"""What the match host does when Discord refuses to redraw the card a player clicked on
(host/posting.py), checked without Discord: the refusal comes from a stand-in interaction."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from cogs.rocketball.adapter import RocketballAdapter
from cogs.rocketball.options import match_settings
from db import games as game_store
from host.match import Match
from host.service import MatchHost

ADAPTER = RocketballAdapter()


def archived() -> discord.HTTPException:
    response = SimpleNamespace(status=400, reason="Bad Request")
    return discord.HTTPException(
        response, {"code": 50083, "message": "Operation was performed on an archived thread"}
    )


class Thread(discord.Thread):
    """A match thread, archived by a moderator (the parts of discord.Thread `reopen` uses)."""

    def __init__(self) -> None:  # no connection state: nothing but these parts is used
        self.id, self.archived = 7, True

    async def edit(self, *, archived: bool) -> None:
        self.archived = archived


async def test_a_pick_on_a_card_whose_thread_was_archived_meanwhile_reopens_it_and_is_shown():
    """Seen in the chaos run: a click that waited for its match (so it was acknowledged
    first) found its thread archived by the time the pick was drawn; the edit through the
    interaction was refused (400 50083) and the click ended in an unhandled exception, the
    player reading "something went wrong". The thread is opened again and the pick drawn."""
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

    interaction = SimpleNamespace(
        message=SimpleNamespace(flags=SimpleNamespace(ephemeral=False), attachments=[]),
        channel=thread,
        response=SimpleNamespace(is_done=lambda: True),  # acknowledged while it waited
        edit_original_response=edit_original_response,
    )
    host = SimpleNamespace(bot=SimpleNamespace(fetch_channel=fetch_channel), _draw_card=draw_card)
    await MatchHost._show_pick(host, interaction, ADAPTER, stored, match, "b2")
    assert not thread.archived
    assert edits == [{"view": "the card with the pick"}]
