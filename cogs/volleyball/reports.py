"""A round's reports sent (docs/architecture.md, "A league's deadline"): the public post, the
status card again below it, the managers' sheets, and the results to the league's followers
(host/follow.py).

A round's reports are saved with the round (db/volleyball.save_league) and sent once the
league's lock is released, under the league host's posting lock (`LeagueHost.posting_lock`):
the posts wait on Discord's limit of posts per channel, and a command on the league must not
wait behind them. One sender at a time sends every report left, oldest round first, so none
is sent twice or out of order; a crash in between leaves them unsent, and the next start-up
sends them (the league host's repair).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.volleyball.card import StatusCard
from cogs.volleyball.playing import decode
from cogs.volleyball.posting import Poster
from db import volleyball as store
from host.follow import Followable
from host.leagues.league_host import post_in_order
from host.notify import channel_link
from ui import fit, shown

if TYPE_CHECKING:
    from bot import Ballcourt
    from host.leagues import LeagueHost

log = logging.getLogger(__name__)


class Reports:
    """Sending a league's reports, and the league as its followers follow it."""

    def __init__(
        self, bot: Ballcourt, host: LeagueHost[store.StoredLeague], poster: Poster, card: StatusCard
    ) -> None:
        self.bot = bot
        self.host = host
        self.poster = poster
        self.card = card
        bot.matches.follows.register("league", "volleyball", self.followable)

    @property
    def db(self):
        return self.bot.db

    async def send_pending_now(self, league_id: int) -> None:
        """Send what a change left to send (after the command that made it was answered), under
        the league host's posting lock (the module docstring)."""
        async with self.host.posting_lock(league_id):
            stored = await store.load_league(self.db, league_id)
            if stored is not None:
                await self.send_pending(stored)

    async def send_pending(self, stored: store.StoredLeague) -> None:
        """Send the league's reports not sent yet (under the posting lock: send_pending_now)."""
        pending = await store.unposted_reports(self.db, stored.id)
        if not pending:
            return
        state = decode(stored)

        async def sent(report: store.StoredReport) -> None:
            await store.mark_posted(self.db, report.id)
            if not report.team:
                await self.card.repost(stored.id)
                if report.round_number:  # round 0: a season's opening, no results
                    await self.tell_followers(stored, report)

        # The public post first, then the card again below it, then the managers' sheets.
        await post_in_order(
            f"league {stored.id}",
            sorted(pending, key=lambda r: (r.round_number, r.team != "", r.id)),
            lambda report: self.poster.send(stored, state, report),
            sent,
            lambda report: f"report {report.id}",
        )

    async def followable(self, target: str) -> Followable | None:
        """The league "volleyball:ID" as a follower follows it (its card's Follow button)."""
        league_id = target.split(":", 1)[1]
        stored = await store.load_league(self.db, int(league_id)) if league_id.isdigit() else None
        if stored is None or stored.lesson_of is not None:  # a lesson is nobody's to follow
            return None
        managers = await store.managers(self.db, stored.id)
        return Followable(
            "league",
            target,
            f"Volleyball league {shown(stored.name)}",
            stored.guild_id,
            frozenset(managers.values()),
        )

    async def tell_followers(self, stored: store.StoredLeague, report: store.StoredReport) -> None:
        """A round's results (the public report's scores, every set in its images) to the
        league's followers, once each; its managers have the post and their sheets."""
        managers = await store.managers(self.db, stored.id)
        head = (report.messages or [f"**{shown(stored.name)}**"])[0]
        await self.bot.matches.follows.tell(
            [("league", f"volleyball:{stored.id}")],
            stored.guild_id,
            [(f"volleyball:{stored.id}:report:{report.id}", fit(head, 900))],
            channel=await self.poster.channel(stored),
            link=channel_link(stored.guild_id, stored.channel_id),
            members=managers.values(),
        )
