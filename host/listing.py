"""What /games lists (docs/async-play.md "Your games"): one line per match or league of a user's,
on every server. The host's matches are listed by cogs/games.py itself; a cog that runs leagues
(Volleyball's leagues, Rollerball II's seasons) lists its own by implementing `ListsGames`.

What /live lists (docs/async-play.md "What's on"): the matches in play on one server, for anyone
to watch, and its leagues and seasons with their current round (`ListsLive`). Built from what the
card shows everyone (the adapter's seat labels, score and next step): never a seat's private view
nor the engine's hidden state."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from db import games as game_store
from host import notify
from host.follow import following_match
from host.match import Match
from ui import shown
from ui.formats import plural, timestamp

if TYPE_CHECKING:
    from host.adapter import GameAdapter

log = logging.getLogger(__name__)

LIVE_PAGE = 10  # matches on one page of /live (an embed's description holds 4096 characters)


@dataclass(frozen=True)
class Entry:
    """One line of /games: a match or a league of the user's."""

    your_turn: bool
    title: str  # "Rocketball #12"
    where: str  # the server's name
    others: str  # "vs Bob", "with Bob and Carol", "team Falcons"
    state: str  # "your move", "Bob's move", "waiting for players"
    link: str
    deadline: float | None = None
    deadline_what: str = ""  # "time runs out", "reminder", "deadline"
    clock: str = ""  # "your clock: 2 d 3 h left"
    sort_key: float = 0.0

    def line(self) -> str:
        parts = [f"**{self.title}** {self.others}".rstrip(), self.where, self.state]
        if self.clock:
            parts.append(self.clock)
        if self.deadline is not None:
            parts.append(f"{self.deadline_what} {timestamp(self.deadline, 'R')}")
        return " · ".join(p for p in parts if p) + f" · [open]({self.link})"


@runtime_checkable
class ListsReplays(Protocol):
    """A cog whose leagues' matches have replays (host/replays.py `register`): /games' lines
    of `user_id`'s latest played ones, each with its Replay button, newest first."""

    async def replay_entries(self, user_id: int) -> list[tuple[Any, Entry]]: ...


@runtime_checkable
class ListsGames(Protocol):
    """A cog that runs leagues: the lines of /games for what it holds of `user_id`."""

    async def games_entries(self, user_id: int, now: float) -> list[Entry]: ...


def server_name(bot: Any, guild_id: int | None) -> str:
    """A server as a line of /games names it (escaped: a server's name is user text)."""
    guild = bot.get_guild(guild_id) if guild_id else None
    return shown(guild.name) if guild is not None else "a server"


# ---- /live ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveLine:
    """One line of /live: a match in play, or a league or season and its round, as anyone on
    the server may read it."""

    title: str  # "Rocketball #12", "Volleyball league Spring"
    who: str  # "North (Alice) vs South (Bob)", "8 teams"
    score: str  # "North 2-1 South"; "" when none
    state: str  # "North (Alice) rolls the d4.", "round 3 of 14"
    link: str
    moved_at: float | None = None  # the last move (or the start)
    deadline: float | None = None
    followers: int | None = None  # people following a match (host/follow.py); None: a league

    def line(self) -> str:
        parts = [f"**{self.title}** {self.who}".rstrip(), self.score, self.state]
        if self.moved_at is not None:
            parts.append(f"last move {timestamp(self.moved_at, 'R')}")
        if self.followers is not None:
            parts.append(f"{self.followers} following")
        if self.deadline is not None:
            parts.append(f"deadline {timestamp(self.deadline, 'R')}")
        return " · ".join(p for p in parts if p) + f" · [card]({self.link})"


@runtime_checkable
class ListsLive(Protocol):
    """A cog that runs leagues: a line of /live per league of `guild_id` with its round."""

    async def live_entries(self, guild_id: int) -> list[LiveLine]: ...


async def live_match(
    db: Any, adapter: GameAdapter, stored: game_store.StoredGame, moved_at: float
) -> LiveLine:
    """A match in play as a spectator reads it: its seats, the public score, whose turn (the
    same phrasing as the card's reminders, which the whole thread sees), how many follow it."""
    match = Match.from_json(adapter, stored.state)
    seats = " vs ".join(adapter.seat_label(match, seat) for seat in range(len(stored.players)))
    return LiveLine(
        f"{adapter.title} #{stored.id}",
        seats,
        adapter.score_text(match),
        adapter.next_text(match),
        notify.jump_url(stored),
        moved_at,
        followers=await following_match(db, adapter, stored, match),
    )


@dataclass(frozen=True)
class LivePage:
    matches: list[LiveLine]
    total: int  # matches in play on the server, all pages
    page: int  # 1-based, within range
    pages: int
    leagues: list[LiveLine]


async def live_page(
    db: Any, adapters: dict[str, GameAdapter], cogs: Any, guild_id: int, page: int
) -> LivePage:
    """Page `page` of the server's matches in play (the most recently moved first) and, on
    every page, its leagues and seasons."""
    total = await game_store.count_in_play_in_guild(db, guild_id)
    pages = max(1, -(-total // LIVE_PAGE))
    page = min(max(1, page), pages)
    found = await game_store.in_play_in_guild(
        db, guild_id, limit=LIVE_PAGE, offset=(page - 1) * LIVE_PAGE
    )
    matches = []
    for stored, moved_at in found:
        adapter = adapters.get(stored.game)
        if adapter is None:
            continue
        try:
            matches.append(await live_match(db, adapter, stored, moved_at))
        except Exception:  # one unreadable match must not hide the others
            log.exception("/live could not show match %s", stored.id)
    leagues: list[LiveLine] = []
    for cog in cogs:
        if isinstance(cog, ListsLive):
            try:
                leagues += await cog.live_entries(guild_id)
            except Exception:  # one league cog failing must not hide the rest
                log.exception("/live could not list the leagues of %s", type(cog).__name__)
    return LivePage(matches, total, page, pages, leagues)


def live_text(found: LivePage) -> str:
    """The page as one message's text (cut to fit by the caller)."""
    lines = []
    if found.total:
        heading = f"__{plural(found.total):match|matches} in play__"
        if found.pages > 1:
            heading += f" (page {found.page} of {found.pages}: `/live page:N` for another)"
        lines.append(heading)
        lines += [f"• {m.line()}" for m in found.matches]
    else:
        lines.append("No match is in play on this server right now.")
    if found.leagues:
        lines.append(f"__Leagues and seasons ({len(found.leagues)})__")
        lines += [f"• {league.line()}" for league in found.leagues]
    return "\n".join(lines)
