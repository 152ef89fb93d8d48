"""The pictures on a tournament's card (docs/rules/tournaments.md "On Discord"): a knockout's
bracket as the results so far leave it, or the standings of the rounds complete of a Swiss, a
round robin or tables; drawn by render/tournament.py in a worker thread."""

from __future__ import annotations

import asyncio
import io
from functools import partial
from typing import TYPE_CHECKING

import discord

from db import tournament_teams
from db import tournaments as store
from render.tournament import STANDINGS_ROWS, render_bracket, render_standings
from rules.tournament import TIE_BREAKS, Knockout, resolve

TIES = ", then ".join(name for name, _ in TIE_BREAKS)  # the tie-breaks in order, as shown

if TYPE_CHECKING:
    from host.base import TournamentsFace as Tournaments


# Players' names as the pictures show them, by (server, user): the bot does not receive the
# members list, so a name not asked of Discord once in this process would be asked at every
# change of every card (a 64-player Swiss: 64 requests a result). A lookup under way is kept
# too (_ASKING), so two cards drawn at once ask once.
_NAMES: dict[tuple[int, int], str] = {}
_ASKING: dict[tuple[int, int], asyncio.Future[str]] = {}
NAMES_KEPT = 4096


async def _name(tournaments: Tournaments, guild: discord.Guild | None, user_id: int) -> str:
    key = (guild.id if guild is not None else 0, user_id)
    if key in _NAMES:
        return _NAMES[key]
    asking = _ASKING.get(key)
    if asking is None:
        asking = _ASKING[key] = asyncio.ensure_future(tournaments.name_of(guild, user_id))
    try:
        # shielded: a caller given up on (a redraw cancelled) leaves the lookup to the others
        name = await asyncio.shield(asking)
    finally:
        if asking.done() and _ASKING.get(key) is asking:
            del _ASKING[key]
    if len(_NAMES) >= NAMES_KEPT:
        _NAMES.clear()
    _NAMES[key] = name
    return name


async def card_images(tournaments: Tournaments, tournament: store.Tournament) -> list[discord.File]:
    """The card's pictures: none before round 1, nor for standings before a round is complete."""
    if tournament.status == "signup" or tournament.round == 0:
        return []
    db = tournaments.bot.db
    entrants = store.entrants_of(await store.entrants(db, tournament.id))
    games = store.games_of(await store.games(db, tournament.id))
    guild = tournaments.bot.get_guild(tournament.guild_id)
    teams = await tournament_teams.team_names(db, tournament.id)  # a cup's: by its teams
    names = {
        e.id: teams.get(int(e.id)) or await _name(tournaments, guild, int(e.id)) for e in entrants
    }
    title = f"{tournaments.game_title(tournament)} #{tournament.id}"
    fmt = store.format_of(tournament)
    if isinstance(fmt, Knockout):
        bracket = fmt.bracket(entrants)
        winners, _ = fmt.winners(entrants, games, tournament.round)
        places = resolve(bracket, winners)
        pages = await asyncio.to_thread(render_bracket, title, places, bracket.seeds, names)
        return [
            discord.File(io.BytesIO(page), filename=f"bracket-{number}.png")
            for number, page in enumerate(pages, start=1)
        ]
    complete = tournament.complete
    if complete < 1:
        return []
    order = await store.standings(db, tournament, entrants, top=STANDINGS_ROWS)
    page = await asyncio.to_thread(
        partial(render_standings, tie_breaks=TIES, players=len(entrants)),
        f"{title}, after round {complete}",
        order,
        names,
    )
    return [discord.File(io.BytesIO(page), filename="standings.png")]
