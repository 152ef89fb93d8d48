"""A Volleyball league in /games and /live (host/listing.py): what is on file is named, never
its contents."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.volleyball.answers import not_running
from cogs.volleyball.playing import decode, round_key, round_name
from db import volleyball as store
from host.listing import Entry, LiveLine, server_name
from host.notify import channel_link
from ui import shown
from ui.formats import plural

if TYPE_CHECKING:
    from bot import Ballcourt


async def games_entries(bot: Ballcourt, user_id: int, now: float) -> list[Entry]:
    """/games: a line per league the user manages a team in, saying whether this round's
    orders of theirs are on file (the names only: never their contents), with the
    league's deadline and a link to its status card."""
    found = []
    for league_id, _, team in await store.leagues_of_manager(bot.db, user_id):
        stored = await store.load_league(bot.db, league_id)
        if stored is None:
            continue
        due = stored.status == "running"
        sent = False
        if due:
            state = decode(stored)
            sent = team in await store.orders_on_file(bot.db, stored.id, *round_key(state))
            what = round_name(state)
            doing = f"orders for {what} sent" if sent else f"**your orders** for {what}"
        else:
            doing = not_running(stored)
        card = await store.card_of(bot.db, stored.id)
        found.append(
            Entry(
                due and not sent,
                f"Volleyball league {shown(stored.name)}",
                server_name(bot, stored.guild_id),
                f"team {shown(team)}",
                doing,
                channel_link(stored.guild_id, stored.channel_id, card),
                stored.next_deadline if due else None,
                "deadline",
            )
        )
    return found


async def live_entries(bot: Ballcourt, guild_id: int) -> list[LiveLine]:
    """/live: each league of the server with its teams, the round being played and how many
    orders are in (a count: the card names the teams, never what the orders say), its
    deadline and a link to its status card."""
    found = []
    for stored in await store.leagues_in_guild(bot.db, guild_id):
        state = decode(stored)
        teams = len(state.league.teams)
        running = stored.status == "running"
        if running:
            # the card's count: the managed teams (the others are the bot's)
            managed = len(await store.managers(bot.db, stored.id))
            sent = len(await store.orders_on_file(bot.db, stored.id, *round_key(state)))
            doing = f"{round_name(state)}: orders in {sent} of {managed}"
        else:
            doing = not_running(stored)
        card = await store.card_of(bot.db, stored.id)
        found.append(
            LiveLine(
                f"Volleyball league {shown(stored.name)}",
                f"{plural(teams):team}",
                "",
                doing,
                channel_link(stored.guild_id, stored.channel_id, card),
                deadline=stored.next_deadline if running else None,
            )
        )
    return found
