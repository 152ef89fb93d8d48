"""What happens when a player does not move: the reminder, the forfeit offer after the
forfeit time, and claiming the match (the absent player resigns). Timers are written with the
move they follow; each handler checks the match is still at that version, so firing twice is
harmless."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import timers as timer_store
from host.adapter import GameAdapter, Step
from host.components import ClaimButton
from host.match import COMPUTER_ID, Match, human_seats, seat_of
from ui import UserError
from ui.items import view_of

if TYPE_CHECKING:
    from host.service import MatchHost


async def still_waiting(
    host: MatchHost, payload: dict[str, Any]
) -> tuple[GameAdapter, game_store.StoredGame, Match] | None:
    stored = await game_store.load_game(host.bot.db, payload["game_id"])
    if (
        stored is None
        or stored.game not in host.adapters
        or stored.status != "active"
        or stored.version != payload["version"]
    ):
        return None  # somebody moved since: nothing to do (this makes handlers idempotent)
    adapter = host.adapters[stored.game]
    return adapter, stored, Match.from_json(adapter, stored.state)


async def on_remind_timer(host: MatchHost, timer: timer_store.Timer) -> None:
    found = await still_waiting(host, timer.payload)
    if found is None:
        return
    adapter, stored, match = found
    waiting = [stored.players[s] for s in sorted(adapter.actors(match.engine))]
    channel = await host.channel_of(stored)
    await channel.send(
        " ".join(f"<@{u}>" for u in waiting if u != COMPUTER_ID)
        + f", {adapter.title} match #{stored.id} is waiting for your move: "
        + f"{adapter.next_text(match)} (`/{adapter.game} board` shows it again)",
        allowed_mentions=discord.AllowedMentions(users=True),
    )


async def on_forfeit_timer(host: MatchHost, timer: timer_store.Timer) -> None:
    found = await still_waiting(host, timer.payload)
    if found is None:
        return
    adapter, stored, match = found
    absent = adapter.actors(match.engine)
    waiting = [stored.players[s] for s in human_seats(stored.players) if s not in absent]
    channel = await host.channel_of(stored)
    await channel.send(
        " ".join(f"<@{u}>" for u in waiting)
        + f", your opponent has not moved in match #{stored.id} for "
        + f"{match.forfeit_minutes // 60} hours. You may claim the match as a forfeit.",
        view=view_of([ClaimButton(stored.id, stored.version)]),
        allowed_mentions=discord.AllowedMentions(users=True),
    )


async def claim_forfeit(
    host: MatchHost, interaction: discord.Interaction, game_id: int, version: int
) -> None:
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.status != "active" or stored.game not in host.adapters:
            raise UserError("That match is not being played any more.")
        if stored.version != version:
            raise UserError("Your opponent has moved since: the match goes on.")
        adapter = host.adapters[stored.game]
        match = Match.from_json(adapter, stored.state)
        absent = sorted(adapter.actors(match.engine))
        seat = seat_of(stored.players, interaction.user.id)
        if seat is None or seat in absent or not absent:
            raise UserError("Only the player who is waiting can claim this match.")
        before = match.engine
        action = adapter.resign_action(before, absent[0])
        match.engine, events = adapter.apply(before, absent[0], action)
        match.forfeited_by = absent[0]
        steps = [Step(before, events, match.engine)]
        stored = await host.save(adapter, stored, match, interaction.user.id, "forfeit", steps)
        # Saved: the offer's button is spent, so it goes with the answer.
        await interaction.response.edit_message(
            content=f"{adapter.seat_label(match, seat)} claimed match #{stored.id} as a forfeit.",
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await host.post(adapter, stored, match, steps, interaction=interaction)
