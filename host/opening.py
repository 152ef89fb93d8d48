"""A match's opening: it is stored (one open match per players and channel), a challenge
answered or withdrawn, its thread opened off the announcement, the computers' first moves
saved and its first card posted; and a thread a moderator deleted opened again."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import settings as settings_store
from host.adapter import GameAdapter, Step
from host.core import NO_MENTIONS
from host.match import (
    COMPUTER_ID,
    Match,
    dice_line,
)
from ui import (
    UserError,
    channel_by_id,
    missing_permissions_text,
)

if TYPE_CHECKING:
    from db.database import Connection
    from host.base import Core

log = logging.getLogger(__name__)

# What a match needs in its channel; in a thread it also needs Send Messages in Threads.
BASE_PERMISSIONS = ("send_messages", "embed_links", "attach_files")

# A game's own rows stored in the transaction that creates its match.
OnCreate = Callable[["Connection", int], Awaitable[None]]


async def create(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    match: Match,
    players: list[int],
    *,
    status: str,
    key: str | None,
    channel_id: int | None = None,
    also: OnCreate | None = None,
) -> int:
    """Store a new match in `channel_id` (default: where the command was used). `key`: the
    match's pair key (one open match per key and channel; None: no such limit); `also(conn,
    game_id)` stores the game's own rows in the same transaction."""
    channel_id = channel_id or interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        raise UserError(f"{adapter.title} is played in a server channel, not in DMs.")
    try:
        return await game_store.create_game(
            host.bot.db,
            game=adapter.game,
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            players=players,
            state=match.to_json(adapter),
            status=status,
            pair_key=key,
            also=also,
        )
    except game_store.DuplicateGameError:
        assert key is not None  # only a pair key is unique in a channel
        raise await already_open(host, adapter, channel_id, key) from None


async def match_place(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter
) -> tuple[int, int, discord.TextChannel | None]:
    """Where a new match (or table) is made, checked before anything is created: its
    permissions here, a server channel, and the channel this server's admins chose for new
    matches. Returns the guild, the channel it is stored in, and that other channel when it
    is not the one the command was used in (None: here)."""
    require_match_permissions(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(f"{adapter.title} is played in a server channel, not in DMs.")
    elsewhere = await match_channel(host, interaction, adapter)
    channel_id = elsewhere.id if elsewhere is not None else interaction.channel_id
    return interaction.guild_id, channel_id, elsewhere


async def already_open(host: Core, adapter: GameAdapter, channel_id: int, key: str) -> UserError:
    """What a player hears who starts a second open match with the same players in one
    channel (a unique index refused it): the match that is open, and how to end it."""
    existing = await game_store.open_game_with_pair(
        host.bot.db, game=adapter.game, channel_id=channel_id, pair_key=key
    )
    number = f" #{existing.id}" if existing else ""
    return UserError(
        f"You already have {adapter.title} match{number} with them in this channel. "
        f"Finish it (or `{adapter.command('resign')}`) before starting another."
    )


def require_match_permissions(interaction: discord.Interaction) -> None:
    """Everything a match needs here, checked before anything is created or changed:
    posting, embeds, images, and writing in the thread it will be played in."""
    if interaction.guild is None:
        raise UserError("Matches are played in a server channel, not in DMs.")
    granted = interaction.app_permissions
    needed: list[str] = list(BASE_PERMISSIONS)
    in_thread = isinstance(interaction.channel, discord.Thread)
    if in_thread or granted.create_public_threads:
        needed.append("send_messages_in_threads")
    missing = [name for name in needed if not getattr(granted, name, False)]
    if missing:
        raise UserError(missing_permissions_text(missing))


# What a match needs in the channel it is posted in (require_match_permissions checks the
# channel of the command; match_channel a server's match channel).
CHANNEL_PERMISSIONS = (
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "create_public_threads",
    "send_messages_in_threads",
)


async def match_channel(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter
) -> discord.TextChannel | None:
    """The channel this server's admins chose for new matches (/settings server), when the
    command was used elsewhere; None: the match is made where the command was used (no such
    setting, that very channel or a thread in it, or a channel that is gone)."""
    defaults = await settings_store.defaults_for(host.bot.db, interaction.guild_id, adapter.game)
    wanted = defaults.channel_id
    here = interaction.channel
    if wanted is None or wanted == interaction.channel_id or interaction.guild is None:
        return None
    if isinstance(here, discord.Thread) and here.parent_id == wanted:
        return None
    channel = interaction.guild.get_channel(wanted)
    if not isinstance(channel, discord.TextChannel):
        return None
    granted = channel.permissions_for(interaction.guild.me)
    missing = [name for name in CHANNEL_PERMISSIONS if not getattr(granted, name, False)]
    if missing:
        names = ", ".join(name.replace("_", " ").title() for name in missing)
        raise UserError(
            f"This server plays new matches in {channel.mention}, but I'm missing {names} "
            "there. Ask a server admin to let me post there, or to change the channel with "
            "`/settings server`."
        )
    return channel


async def answer_challenge(
    host: Core, interaction: discord.Interaction, game_id: int, answer: str
) -> None:
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.game not in host.adapters:
            raise UserError("That challenge no longer exists.")
        adapter = host.adapters[stored.game]
        if stored.status == "cancelled":
            what = await game_store.last_action(host.bot.db, game_id) or "withdrawn"
            raise UserError(f"That challenge was already {what}.")
        if stored.status != "pending":
            raise UserError("That challenge was already accepted: the match is on.")
        match = Match.from_json(adapter, stored.state)
        challenged = stored.players[match.challenged_seat]
        challenger = stored.players[1 - match.challenged_seat]
        user_id = interaction.user.id
        if user_id not in stored.players or (answer == "accept" and user_id != challenged):
            raise UserError(f"Only <@{challenged}> can answer this challenge.")
        if answer == "decline":
            text = await cancel_challenge(host, adapter, stored, user_id)
            await interaction.response.edit_message(content=text, view=None)
            return
        require_match_permissions(interaction)
        events = adapter.engine.opening_events(match.engine)
        stored = await game_store.save_move(
            host.bot.db,
            stored,
            state=stored.state,
            actor_id=user_id,
            action="accept",
            events=[e.text for e in events],
            status="active",
            timers=host.timers_for(stored, match, stored.version + 1),
        )
        await interaction.response.edit_message(
            content=f"{adapter.title} match #{game_id}: <@{challenger}> vs <@{challenged}>. "
            "Play in the thread below.\n" + dice_line(match.commitment, adapter.command("record")),
            view=None,
        )
        await open_play(host, adapter, stored, match, events, interaction.message, locked=True)


async def cancel_challenge(
    host: Core, adapter: GameAdapter, stored: game_store.StoredGame, actor_id: int
) -> str:
    """End a challenge nobody accepted: declined, or withdrawn by the challenger."""
    challenged = Match.from_json(host.adapters[stored.game], stored.state).challenged_seat
    what = "declined" if actor_id == stored.players[challenged] else "withdrawn"
    text = f"{adapter.title} challenge #{stored.id} was {what}."
    await game_store.save_move(
        host.bot.db,
        stored,
        state=stored.state,
        actor_id=actor_id,
        action=what,
        events=[text],
        status="cancelled",
    )
    return text


async def open_play(
    host: Core,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    events: Sequence[Any],
    message: discord.Message | None,
    *,
    locked: bool = False,
) -> None:
    """Open the match thread off the announcement (or play in the channel if threads are
    not possible there), let computer seats move, and post the first turn."""
    if message is not None and not isinstance(message.channel, discord.Thread):
        try:
            stored = await open_thread(host, adapter, stored, message)
        except discord.HTTPException:
            log.info("no thread for match %s; playing in the channel", stored.id)
    lock = host.bot.game_locks(stored.id)
    if not locked:
        await lock.acquire()
    try:
        steps = [Step(match.engine, events, match.engine)]
        computer_steps = await host.computer_steps(adapter, match, stored)
        if computer_steps:
            steps += computer_steps
            stored = await host.save(adapter, stored, match, COMPUTER_ID, "computer", steps[1:])
        await host.post(adapter, stored, match, steps, first=True)
    finally:
        if not locked:
            await lock.release()


async def open_thread(
    host: Core, adapter: GameAdapter, stored: game_store.StoredGame, message: discord.Message
) -> game_store.StoredGame:
    """The match's thread, started off `message`; the match as stored with it."""
    thread = await message.create_thread(
        name=f"{adapter.title} #{stored.id}", auto_archive_duration=1440
    )
    await game_store.set_thread(host.bot.db, stored.id, thread.id)
    return await game_store.load_game(host.bot.db, stored.id) or stored


async def on_raw_thread_delete(host: Core, payload: discord.RawThreadDeleteEvent) -> None:
    """A moderator deleted a match's thread: the match goes on in a new one, under a
    message in its channel saying why, with a fresh card."""
    for stored in await game_store.open_games(host.bot.db, tuple(host.adapters)):
        if stored.thread_id != payload.thread_id:
            continue
        adapter = host.adapters[stored.game]
        async with host.bot.game_locks(stored.id):
            stored = await game_store.load_game(host.bot.db, stored.id) or stored
            match = Match.from_json(adapter, stored.state)
            try:
                channel = await channel_by_id(host.bot, stored.channel_id)
                message = await channel.send(
                    f"{adapter.title} match #{stored.id} goes on in a new thread: its "
                    "thread was deleted. Nothing of the match was lost.",
                    allowed_mentions=NO_MENTIONS,
                )
                stored = await open_thread(host, adapter, stored, message)
            except discord.HTTPException as error:
                log.warning("match %s lost its thread and no new one opened: %s", stored.id, error)
                continue
            log.info(
                "match %s: its thread was deleted; it goes on in %s",
                stored.id,
                stored.thread_id,
            )
            step = Step(match.engine, [], match.engine)
            await host.post(adapter, stored, match, [step], new_card=True)
