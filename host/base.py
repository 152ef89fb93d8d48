"""What every part of the match host is handed: the bot as the host sees it (`HostBot`) and
the match core (`Core`, host/core.py `MatchCore`): load and authorise, apply, save, post.

The host's modules (the commands' entry points, timeouts, stand-ins, lobbies, panels, start-up
repair...) take a `Core` and call it. They name it by this face, which imports none of them,
never by its class: the core's own module uses some of them (a position's timers, the clocks'
charge, a refused post's report, the card's own controls) and host/match_host.py composes them
all, so no module of the host imports one that imports it back. What follows a post (pings, a follower's milestones, the open
panels, a finished match's thread) is a hook registered on the core (`on_shown`,
`on_posted`), not a call back into the service.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord
from discord.ext import commands

from db import games as game_store
from db import timers as timer_store
from host.adapter import GameAdapter, Step
from host.follow import Follows
from host.match import Match
from host.panel_memory import Panels
from host.posted import PostHook

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

    from config import Config
    from db import tournaments as tournament_store
    from db.database import Database
    from host.locks import GameLock, GameLocks
    from host.timers import TimerService

# (connection, the match as stored, the finished match, its game): inside the last move's
# transaction
FinishListener = Callable[[Any, game_store.StoredGame, Match, GameAdapter], Awaitable[None]]
# Told a user id when that user takes a vacation or comes back (host/clocks.py).
VacationListener = Callable[[int], Awaitable[None]]
# Told a server's id when Discord says a permission there may be back (host/posting.py).
PermissionListener = Callable[[int], Awaitable[None]]


def core_of(interaction: discord.Interaction[Any]) -> Core:
    """The match core of the bot an interaction came to: discord.py types
    `interaction.client` as its base Client; every interaction comes to a HostBot."""
    return cast("HostBot", interaction.client).matches


class HostBot(commands.Bot):
    """The bot as the host uses it: discord.py's Bot with the services bot.py's Ballcourt sets
    up (it derives from this), so the host types its bot without importing bot.py, which
    stands above it."""

    config: Config
    game_locks: GameLocks
    seed_source: random.Random  # where new games get their seeds
    timers: TimerService
    matches: Core

    @property
    def db(self) -> Database:
        raise NotImplementedError("Ballcourt opens the database in setup_hook")


class Core(Protocol):
    """The match core as the host's parts use it (host/core.py `MatchCore` is the one)."""

    bot: HostBot
    adapters: dict[str, GameAdapter]
    panels: Panels  # the players' open private panels and their last looks (memory only)
    follows: Follows
    told: set[tuple[int, str]]  # (match, cause) told to its channel after a refused post
    finish_listeners: list[FinishListener]
    vacation_listeners: list[VacationListener]
    permission_listeners: list[PermissionListener]
    on_shown: list[PostHook]
    on_posted: list[PostHook]

    def register(self, adapter: GameAdapter) -> None: ...

    async def stop(self) -> None: ...

    def new_match(
        self,
        adapter: GameAdapter,
        options: dict[str, Any],
        names: list[str],
        *,
        seed: int | None = None,
        **extra: Any,
    ) -> tuple[Match, Sequence[Any]]: ...

    async def hosted(self, game_id: int) -> tuple[GameAdapter, game_store.StoredGame]: ...

    async def load_for_action(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int | None,
        *,
        any_time: bool = False,
    ) -> tuple[GameAdapter, game_store.StoredGame, Match, int]: ...

    def still_deciding(self, adapter: GameAdapter, match: Match, seat: int) -> bool: ...

    def computers_to_act(self, adapter: GameAdapter, match: Match) -> bool: ...

    def computers_think(self, adapter: GameAdapter, match: Match) -> bool: ...

    async def computer_steps(
        self, adapter: GameAdapter, match: Match, stored: game_store.StoredGame
    ) -> list[Step]: ...

    async def save(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        actor_id: int,
        action: str,
        steps: list[Step],
    ) -> game_store.StoredGame: ...

    def show_when_available(self, game_id: int, why: str) -> None: ...

    async def still_waiting(
        self, payload: dict[str, Any]
    ) -> tuple[GameAdapter, game_store.StoredGame, Match] | None: ...

    def waiting_at(
        self, stored: game_store.StoredGame | None, payload: dict[str, Any]
    ) -> tuple[GameAdapter, game_store.StoredGame, Match] | None: ...

    def timers_for(
        self, stored: game_store.StoredGame, match: Match, version: int
    ) -> list[timer_store.TimerSpec]: ...

    async def channel_of(self, stored: game_store.StoredGame) -> PartialMessageableChannel: ...

    async def draw_card(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        steps: list[Step],
        *,
        picked: str | None = None,
        kept_images: list[str] | None = None,
    ) -> tuple[discord.ui.LayoutView, list[discord.File]]: ...

    async def show_card(
        self,
        stored: game_store.StoredGame,
        view: discord.ui.LayoutView,
        files: list[discord.File],
        *,
        interaction: discord.Interaction | None,
        new_card: bool,
    ) -> int: ...

    async def post(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        steps: list[Step],
        *,
        interaction: discord.Interaction | None = None,
        first: bool = False,
        new_card: bool = False,
        ping: bool = True,
    ) -> bool: ...


class TournamentsFace(Protocol):
    """What a tournament's card pictures and its podium (host/tournament_images.py,
    host/podium.py) ask of the tournaments that hand them themselves (host/tournaments.py
    `Tournaments`): typed by this face, they import nothing above them."""

    bot: HostBot

    def lock(self, tournament_id: int) -> GameLock: ...

    def game_title(self, tournament: tournament_store.Tournament) -> str: ...

    async def name_of(self, guild: discord.Guild | None, user_id: int) -> str: ...

    async def show(self, tournament: tournament_store.Tournament) -> None: ...
