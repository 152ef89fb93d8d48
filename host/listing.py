"""What /games lists (docs/async-play.md "Your games"): one line per match or league of a user's,
on every server. The host's matches are listed by cogs/games.py itself; a cog that runs leagues
(Volleyball's leagues, Rollerball II's seasons) lists its own by implementing `ListsGames`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ui import shown
from ui.formats import timestamp


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
class ListsGames(Protocol):
    """A cog that runs leagues: the lines of /games for what it holds of `user_id`."""

    async def games_entries(self, user_id: int, now: float) -> list[Entry]: ...


def server_name(bot: Any, guild_id: int | None) -> str:
    """A server as a line of /games names it (escaped: a server's name is user text)."""
    guild = bot.get_guild(guild_id) if guild_id else None
    return shown(guild.name) if guild is not None else "a server"
