"""Sending a league's reports to Discord: the public post with its images to the results
channel (the league's role pinged once), each manager's sheet by DM (if their DMs are closed,
the channel hears that and nothing of the sheet)."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

from db import volleyball as store
from host import notify
from render.volleyball import cup_bracket_pages, results_png, round_png, standings_png
from rules.volleyball import LeagueState
from ui import MAX_CONTENT, channel_by_id, shown
from ui.formats import possessive

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

    from bot import Ballcourt

MAX_FILES = 10  # Discord's attachments per message


def files_of(images: list[tuple[str, str, bytes]]) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for _, name, data in images]


class Poster:
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    async def channel(self, stored: store.StoredLeague) -> PartialMessageableChannel:
        return await channel_by_id(self.bot, stored.channel_id)

    async def send(
        self, stored: store.StoredLeague, state: LeagueState, report: store.StoredReport
    ) -> None:
        """A public report: its first message carries the images (and the role's ping, when
        it fits), any further messages follow."""
        if report.team:
            await self.send_private(stored, report)
            return
        channel = await self.channel(stored)
        messages = list(report.messages) or [f"{shown(stored.name)}:"]
        images = await self.images(state, report.images, report.round_number)
        files = files_of(images[:MAX_FILES])
        # A message carries at most ten files: any further (a big cup draw's pages beside many
        # divisions' results) follow in their own messages, ten at a time.
        more = [
            images[start : start + MAX_FILES] for start in range(MAX_FILES, len(images), MAX_FILES)
        ]
        quiet = discord.AllowedMentions.none()
        first = messages.pop(0)
        if stored.ping_role_id:
            ping = f"<@&{stored.ping_role_id}>"
            role = discord.AllowedMentions(
                roles=[discord.Object(stored.ping_role_id)], users=False, everyone=False
            )
            if len(ping) + 1 + len(first) <= MAX_CONTENT:
                await channel.send(f"{ping} {first}", files=files, allowed_mentions=role)
            else:
                await channel.send(ping, allowed_mentions=role)
                await channel.send(first, files=files, allowed_mentions=quiet)
        else:
            await channel.send(first, files=files, allowed_mentions=quiet)
        for batch in more:
            captions = ", ".join(dict.fromkeys(caption for caption, _, _ in batch))
            await channel.send(f"{captions}:", files=files_of(batch), allowed_mentions=quiet)
        for message in messages:
            await channel.send(message, allowed_mentions=quiet)

    async def images(
        self, state: LeagueState, which: list[str], round_number: int = 0
    ) -> list[tuple[str, str, bytes]]:
        """(caption, file name, PNG) for the report's images, drawn off the event loop:
        "round" each division's results of `round_number` with its table, "standings" each
        division's table, "cup" the Galaxy Cup's pages (render/volleyball/bracket.py)."""
        files = []
        divisions = state.league.divisions
        several = len(divisions) > 1
        cup = await asyncio.to_thread(cup_bracket_pages, state) if "cup" in which else []
        if "round" in which:
            # Each division's results and its table; in one image a division when the
            # separate ones would be more than a message's ten files.
            apart = 2 * len(divisions) + len(cup) <= MAX_FILES
            for division in divisions:
                suffix = f" of division {division}" if several else ""
                if apart:
                    results = await asyncio.to_thread(results_png, state, division, round_number)
                    table = await asyncio.to_thread(standings_png, state, division)
                    files.append((f"the results{suffix}", f"results-{division}.png", results))
                    files.append((f"the table{suffix}", f"standings-{division}.png", table))
                else:
                    data = await asyncio.to_thread(round_png, state, division, round_number)
                    files.append((f"the results and table{suffix}", f"round-{division}.png", data))
        if "standings" in which:
            for division in divisions:
                data = await asyncio.to_thread(standings_png, state, division)
                caption = "the standings" + (f" of division {division}" if several else "")
                files.append((caption, f"standings-{division}.png", data))
        for page, data in enumerate(cup, start=1):
            name = "galaxy-cup.png" if len(cup) == 1 else f"galaxy-cup-{page}.png"
            files.append(("the Galaxy Cup", name, data))
        return files

    async def send_private(self, stored: store.StoredLeague, report: store.StoredReport) -> None:
        """A manager's sheet by DM; if Discord refuses it (DMs closed, DMs opened too fast),
        the channel mentions them instead (and says nothing of what the sheet says), and the
        other managers' sheets still go (host/notify.py `dm`)."""
        if report.user_id is None:
            return
        if await notify.dm(self.bot, report.user_id, report.messages):
            return
        channel = await self.channel(stored)
        await channel.send(
            f"<@{report.user_id}>, I could not send you {possessive(shown(report.team))} private "
            f"report for round {report.round_number} of {shown(stored.name)} by DM (your DMs "
            "may be closed to me). `/volleyball team show` shows your team sheet.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(report.user_id)]),
        )
