"""Seats beyond "whose turn is it": what only one player may see, and absent players.

- The private view ("My hand"): any player, at any time, gets a fresh ephemeral message with
  what only their seat may see (adapter.private_view). Ephemeral messages cannot be edited after
  their token expires, so it is always a new one.
- The takeover: when a match has `takeover_minutes`, a timer written with each move fires if the
  players it waits for have not moved by then; a computer then stands in for each of them (their
  seat joins `match.computers`, so the host's computer loop plays it) and they get a button to
  take the seat back. The last player still present is never replaced: a match is never left to
  computers alone; it waits for them with reminders instead.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import timers as timer_store
from host import clocks
from host.adapter import Step
from host.card import control_of
from host.components import TakeBackButton
from host.match import COMPUTER_ID, Match, human_seats, seat_of
from ui import UserError, fit, send_ephemeral
from ui.items import view_of

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.service import MatchHost

log = logging.getLogger(__name__)

TAKEOVER_EVENT = "match_takeover"


# ---- the private view ----------------------------------------------------------------------------


async def show_private(
    host: MatchHost,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
) -> None:
    seat = seat_of(stored.players, interaction.user.id)
    what = (adapter.private_label or "hidden information").lower()
    if seat is None:
        raise UserError(
            f"You're watching {adapter.title} game #{stored.id}: only its players have "
            f"{'a hand' if 'hand' in what else what} to see."
        )
    if stored.status == "pending":
        raise UserError(
            f"{adapter.title} game #{stored.id} has not started yet: nothing is dealt before "
            "its host presses Start."
        )
    if stored.status == "cancelled":
        raise UserError(f"{adapter.title} game #{stored.id} was closed before it started.")
    match = Match.from_json(adapter, stored.state)
    content, files, view = await panel(host, adapter, stored, match, seat)
    kwargs: dict[str, Any] = {"files": files}
    if view is not None:
        kwargs["view"] = view
    await send_ephemeral(interaction, content, **kwargs)


async def panel(
    host: MatchHost,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    seat: int,
    picked: str | None = None,
) -> tuple[str, list[discord.File], discord.ui.View | None]:
    """A player's private panel: what only their seat may see (their hand, drawn from their
    seat's view) and the choices that need it, as controls of the current position."""
    text, files = await asyncio.to_thread(adapter.private_view, match, seat)
    specs = adapter.private_controls(match, seat, picked) if stored.status == "active" else []
    view = view_of([control_of(stored.id, stored.version, spec) for spec in specs])
    return (
        fit(text),
        [discord.File(io.BytesIO(data), filename=name) for name, data in files],
        view,
    )


async def refresh_panel(
    host: MatchHost,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    seat: int,
    picked: str | None = None,
) -> None:
    """Redraw the panel a player used (their decision changed what it shows)."""
    content, files, view = await panel(host, adapter, stored, match, seat, picked)
    await interaction.response.edit_message(content=content, attachments=files, view=view)


# ---- absent players --------------------------------------------------------------------------------


def takeover_timer(match: Match, payload: dict) -> timer_store.TimerSpec | None:
    if not match.takeover_minutes:
        return None
    return timer_store.TimerSpec(TAKEOVER_EVENT, time.time() + match.takeover_minutes * 60, payload)


def _hours(minutes: int) -> str:
    hours = minutes / 60
    shown = f"{hours:g}" if hours < 10 else f"{round(hours)}"
    return f"{shown} hour{'s' if shown != '1' else ''}"


async def on_takeover_timer(host: MatchHost, timer: timer_store.Timer) -> None:
    game_id = timer.payload["game_id"]
    async with host.bot.game_locks(game_id):
        found = await host.still_waiting(timer.payload)
        if found is None:
            return  # somebody moved since
        adapter, stored, match = found
        acting = adapter.engine.actors(match.engine)
        absent = [
            seat
            for seat in sorted(acting)
            if stored.players[seat] != COMPUTER_ID and seat not in match.computers
        ]
        present = [
            seat
            for seat in human_seats(stored.players)
            if seat not in match.computers and seat not in absent
        ]
        if not absent or not present:
            return  # no computer plays everyone's seats: the match waits (reminders go on)
        # Time on vacation is not counted (host/clocks.py): those away get their stand-in later.
        users = [stored.players[seat] for seat in absent]
        due, later = await clocks.due_users(host.bot.db, timer, users, time.time())
        if later is not None:
            await clocks.put_off(host.bot, timer, later)
        absent = [seat for seat in absent if stored.players[seat] in due]
        if not absent:
            return
        level = adapter.engine.levels[0]
        for seat in absent:
            match.computers[seat] = level
        steps = await host.computer_steps(adapter, match, stored)
        stored = await host.save(adapter, stored, match, COMPUTER_ID, "takeover", steps)
        labels = " and ".join(adapter.seat_label(match, seat) for seat in absent)
        users = [stored.players[seat] for seat in absent]
        channel = await host.channel_of(stored)
        try:
            await channel.send(
                " ".join(f"<@{user}>" for user in users)
                + f", {adapter.title} game #{stored.id} waited {_hours(match.takeover_minutes)} "
                f"for your move: a computer ({level}) now plays {labels}. Press "
                "**Take my seat back** when you want to play again.",
                view=view_of([TakeBackButton(stored.id)]),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
            )
        except discord.HTTPException as error:
            log.warning("could not announce the takeover in match %s: %s", stored.id, error)
        await host.post(adapter, stored, match, steps or [Step(match.engine, [], match.engine)])


async def take_back(host: MatchHost, interaction: discord.Interaction, game_id: int) -> None:
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.game not in host.adapters:
            raise UserError("That match no longer exists.")
        adapter = host.adapters[stored.game]
        seat = seat_of(stored.players, interaction.user.id)
        if seat is None:
            raise UserError(f"Only the players of {adapter.title} game #{game_id} have seats.")
        if stored.status != "active":
            raise UserError(f"{adapter.title} game #{game_id} is over.")
        match = Match.from_json(adapter, stored.state)
        if seat not in match.computers:
            raise UserError("You're playing your seat yourself already: no computer has it.")
        del match.computers[seat]
        text = f"{adapter.seat_label(match, seat)} takes their seat back from the computer."
        stored = await game_store.save_move(
            host.bot.db,
            stored,
            state=match.to_json(adapter),
            actor_id=interaction.user.id,
            action="take back",
            events=[text],
            timers=host.timers_for(stored, match, stored.version + 1),
        )
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        # The version moved on: post the position again so everyone has current buttons.
        step = Step(match.engine, [], match.engine, texts=[text])
        await host.post(adapter, stored, match, [step], interaction=interaction)
