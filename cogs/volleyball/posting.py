"""Sending a league's reports to Discord: the public post to the results channel (the
league's role pinged once), one phone screen with the images that fit and buttons for the
details that do not; each manager's sheet by DM (if their DMs are closed, the channel hears
that and nothing of the sheet)."""

from __future__ import annotations

import asyncio
import io
import math
import re
import struct
from typing import TYPE_CHECKING, Any

import discord

from cogs.volleyball.components import DetailsButton
from db import volleyball as store
from host import notify
from render.textsize import ATTACHMENT_WIDTH
from render.volleyball import cup_bracket_pages, results_png, standings_png
from rules.volleyball import LeagueState
from ui import MAX_CONTENT, channel_by_id, shown
from ui.formats import possessive
from ui.items import view_of

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

    from bot import Ballcourt

MAX_FILES = 10  # Discord's attachments per message

# A public post is one phone screen (390 x 844; tests/sandbox/test_phone_fit.py measures the
# posts there): its text, the images that fit below it at the width a phone shows an
# attachment, and a row of buttons for the rest (DETAILS), which answer only the clicker.
# The text's height is estimated on the safe side: a line of the 330-px column holds about
# LINE_CHARACTERS characters of 16-px text (measured: the estimate is 0-80 px over what the
# sandbox page draws for a league's posts).
SCREEN_HEIGHT = 844
CHROME = 56  # the author line and the message's margins
BUTTON_ROW = 52  # a row of 44-px buttons and its gap (DETAILS' labels are short: one row)
LINE_HEIGHT = 23
LINE_CHARACTERS = 40
IMAGE_GAP = 6
# What Discord shows in fewer characters than it is written: a relative timestamp ("in 7
# days"), a full one ("December 6, 2026 at 6:00 PM"), a mention (@name), markdown's marks.
SHORTER = (
    (re.compile(r"<t:\d+:R>"), "in 10 hours"),
    (re.compile(r"<t:\d+:[a-zA-Z]>"), "December 30, 2026 at 10:00 PM"),
    (re.compile(r"<@[!&]?\d+>"), "@a-long-name"),
    (re.compile(r"\*\*|`|\\"), ""),
)


def text_height(text: str) -> int:
    """About how tall `text` is on the phone, in px (each line wrapped, on the safe side)."""
    for pattern, shown_as in SHORTER:
        text = pattern.sub(shown_as, text)
    lines = text.split("\n")
    return LINE_HEIGHT * sum(max(1, math.ceil(len(line) / LINE_CHARACTERS)) for line in lines)


def image_height(data: bytes) -> int:
    """How tall a PNG is on the phone as an attachment (ATTACHMENT_WIDTH wide at most): its
    size read from its header."""
    width, height = struct.unpack(">II", data[16:24])
    return math.ceil(height * min(1.0, ATTACHMENT_WIDTH / width)) + IMAGE_GAP


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
        """A public report: its first message with the images that fit one phone screen
        below it, and a button for each detail that does not (a round's every set always:
        its image is taller than a screen), then any further messages. `report.images`
        names what the post shows: "round" (each division's results and table), "standings"
        (the tables), "cup" (the bracket's pages), "season" (the season's publication)."""
        if report.team:
            await self.send_private(stored, report)
            return
        channel = await self.channel(stored)
        messages = list(report.messages) or [f"{shown(stored.name)}:"]
        first = messages.pop(0)
        details = ["sets"] if "round" in report.images else []
        shown_here: list[tuple[str, str, bytes]] = []
        room = SCREEN_HEIGHT - CHROME - text_height(first) - BUTTON_ROW
        wanted = [
            ("table", ["standings"] if {"round", "standings"} & set(report.images) else []),
            ("cup", ["cup"] if "cup" in report.images else []),
        ]
        for what, kinds in wanted:
            if not kinds:
                continue
            images = await self.images(state, kinds)
            height = sum(image_height(data) for _, _, data in images)
            if height <= room and len(shown_here) + len(images) <= MAX_FILES:
                shown_here += images
                room -= height
            else:
                details.append(what)
        if "season" in report.images:
            details.append("season")
        if report.why is not None:  # what decided the round is kept: its Why?
            details.append("why")
        view = None
        if details:
            view = view_of(
                [
                    DetailsButton(stored.id, report.season, report.round_number, what)
                    for what in details
                ]
            )
        quiet = discord.AllowedMentions.none()
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        files = files_of(shown_here)
        if stored.ping_role_id:
            ping = f"<@&{stored.ping_role_id}>"
            role = discord.AllowedMentions(
                roles=[discord.Object(stored.ping_role_id)], users=False, everyone=False
            )
            if len(ping) + 1 + len(first) <= MAX_CONTENT:
                await channel.send(f"{ping} {first}", files=files, allowed_mentions=role, **extra)
            else:
                await channel.send(ping, allowed_mentions=role)
                await channel.send(first, files=files, allowed_mentions=quiet, **extra)
        else:
            await channel.send(first, files=files, allowed_mentions=quiet, **extra)
        for message in messages:
            await channel.send(message, allowed_mentions=quiet)

    async def images(
        self, state: LeagueState, which: list[str], round_number: int = 0
    ) -> list[tuple[str, str, bytes]]:
        """(caption, file name, PNG) for the images, drawn off the event loop: "results"
        each division's results of `round_number`, "standings" each division's table, "cup"
        the Galaxy Cup's pages (render/volleyball/bracket.py)."""
        files = []
        divisions = state.league.divisions
        several = len(divisions) > 1
        if "results" in which:
            for division in divisions:
                data = await asyncio.to_thread(results_png, state, division, round_number)
                caption = "the results" + (f" of division {division}" if several else "")
                files.append((caption, f"results-{division}.png", data))
        if "standings" in which:
            for division in divisions:
                data = await asyncio.to_thread(standings_png, state, division)
                caption = "the standings" + (f" of division {division}" if several else "")
                files.append((caption, f"standings-{division}.png", data))
        if "cup" in which:
            cup = await asyncio.to_thread(cup_bracket_pages, state)
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
