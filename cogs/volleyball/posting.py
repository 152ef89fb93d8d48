"""Sending a league's reports to Discord: the public summary and its images to the results
channel (the league's role pinged once), each manager's sheet by DM (if their DMs are closed,
the channel hears that and nothing of the sheet), and the reminder before a deadline."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

from db import volleyball as store
from render.volleyball import cup_bracket_png, standings_png
from rules.volleyball import LeagueState
from ui import MAX_CONTENT

if TYPE_CHECKING:
    from bot import Ballcourt


class Poster:
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    async def channel(self, stored: store.StoredLeague) -> discord.abc.Messageable:
        channel = self.bot.get_channel(stored.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(stored.channel_id)
        return channel  # type: ignore[return-value]

    async def send(
        self, stored: store.StoredLeague, state: LeagueState, report: store.StoredReport
    ) -> None:
        if report.team:
            await self.send_private(stored, report)
            return
        channel = await self.channel(stored)
        messages = list(report.messages)
        if stored.ping_role_id and messages:
            # The role is pinged once, on the first message (alone if it would not fit).
            ping = f"<@&{stored.ping_role_id}>"
            role = discord.AllowedMentions(
                roles=[discord.Object(stored.ping_role_id)], users=False, everyone=False
            )
            if len(ping) + 1 + len(messages[0]) <= MAX_CONTENT:
                await channel.send(f"{ping} {messages.pop(0)}", allowed_mentions=role)
            else:
                await channel.send(ping, allowed_mentions=role)
        for message in messages:
            await channel.send(message, allowed_mentions=discord.AllowedMentions.none())
        files = await self.images(state, report.images)
        if files:
            await channel.send(
                f"{stored.name}: " + " and ".join(caption for caption, _, _ in files) + ".",
                files=[discord.File(io.BytesIO(data), filename=name) for _, name, data in files],
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def images(self, state: LeagueState, which: list[str]) -> list[tuple[str, str, bytes]]:
        """(caption, file name, PNG) for the report's images, drawn off the event loop."""
        files = []
        if "standings" in which:
            divisions = state.league.divisions
            for division in divisions:
                data = await asyncio.to_thread(standings_png, state, division)
                caption = "the standings" + (
                    f" of division {division}" if len(divisions) > 1 else ""
                )
                files.append((caption, f"standings-{division}.png", data))
        if "cup" in which:
            files.append(
                (
                    "the Galaxy Cup",
                    "galaxy-cup.png",
                    await asyncio.to_thread(cup_bracket_png, state),
                )
            )
        return files

    async def send_private(self, stored: store.StoredLeague, report: store.StoredReport) -> None:
        """A manager's sheet by DM; if their DMs are closed, the channel hears that (and
        nothing of what the sheet says)."""
        if report.user_id is None:
            return
        try:
            user = self.bot.get_user(report.user_id) or await self.bot.fetch_user(report.user_id)
            for message in report.messages:
                await user.send(message)
        except discord.Forbidden:
            channel = await self.channel(stored)
            await channel.send(
                f"<@{report.user_id}>, I could not send you {report.team}'s private report "
                f"for round {report.round_number} of {stored.name}: your DMs are closed to me. "
                "`/volleyball team show` shows your team sheet.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(report.user_id)]),
            )
