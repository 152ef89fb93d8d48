"""Stand-ins for absent players.

The takeover: when a match has `takeover_minutes`, a timer written with each move fires if the
players it waits for have not moved by then; a computer then stands in for each of them (their
seat joins `match.computers`, so the host's computer loop plays it) and they get a button to
take the seat back. The last player still present is never replaced: a match is never left to
computers alone; it waits for them with reminders instead.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord

from db import games as game_store
from db import timers as timer_store
from host import clocks
from host.adapter import Step
from host.components import SeatButton
from host.match import COMPUTER_ID, Match, human_seats, seat_of_clicker
from ui import UserError, fit
from ui.formats import plural
from ui.items import view_of

if TYPE_CHECKING:
    from host.base import Core

log = logging.getLogger(__name__)

TAKEOVER_EVENT = "match_takeover"


# ---- absent players --------------------------------------------------------------------------------


def takeover_timer(match: Match, payload: dict) -> timer_store.TimerSpec | None:
    if not match.takeover_minutes:
        return None
    return timer_store.TimerSpec(TAKEOVER_EVENT, time.time() + match.takeover_minutes * 60, payload)


def _hours(minutes: int) -> str:
    hours = minutes / 60
    shown = f"{hours:g}" if hours < 10 else f"{round(hours)}"
    return f"{shown} {plural(float(shown)):hour!}"


async def on_takeover_timer(host: Core, timer: timer_store.Timer) -> None:
    game_id = timer.payload["game_id"]
    async with host.bot.game_locks(game_id):
        found = await host.still_waiting(timer.payload)
        if found is None:
            return  # somebody moved since
        adapter, stored, match = found
        if match.takeover_minutes is None:
            return  # only a match with stand-ins writes this timer
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
                view=view_of([SeatButton(stored.id, "takeback")]),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
            )
        except discord.HTTPException as error:
            log.warning("could not announce the takeover in match %s: %s", stored.id, error)
        await host.post(adapter, stored, match, steps or [Step(match.engine, [], match.engine)])


async def take_back(host: Core, interaction: discord.Interaction, game_id: int) -> None:
    async with host.bot.game_locks(game_id):
        adapter, stored = await host.hosted(game_id)
        seat = seat_of_clicker(stored, interaction)
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
        # The notice's button is spent: it goes, and the notice says what became of it.
        notice = interaction.message
        said = f"{notice.content}\n{text}" if notice is not None and notice.content else text
        await interaction.response.edit_message(
            content=fit(said), view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        # The version moved on: post the position again so everyone has current buttons. Nothing
        # was played: whoever must decide was told when the decision came, and is not told again.
        step = Step(match.engine, [], match.engine, texts=[text])
        await host.post(adapter, stored, match, [step], interaction=interaction, ping=False)
