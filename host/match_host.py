"""The match host (`bot.matches`): everything that runs a turn-based match in a channel, for
every game, written once. A game's cog only supplies a GameAdapter.

The host is the match core (host/core.py: load and authorise, apply, save, post) composed with
the parts it is handed to: the bot's listeners and timers it answers, the hooks after a post,
and the entry points the controls call. Each entry point is written in the part it belongs to
(the moves, a match's opening, the lobbies, timeouts, stand-ins), taking the core; nothing
below this module imports it.
"""

from __future__ import annotations

import asyncio
import functools

from db.database import is_unavailable
from host import (
    background,
    follow,
    lobby,
    moves,
    notify,
    opening,
    panels,
    posting,
    recovery,
    replays,
    standins,
    starting,
    timeouts,
    why,
)
from host.base import HostBot
from host.components import DYNAMIC_ITEMS
from host.core import MatchCore


class MatchHost(MatchCore):
    """The match core with the listeners, timers and hooks of the host's parts."""

    def __init__(self, bot: HostBot) -> None:
        super().__init__(bot)
        self._recovery: asyncio.Task[None] | None = None
        bot.add_dynamic_items(
            *DYNAMIC_ITEMS, replays.ReplayButton, replays.HighlightButton, why.WhyButton
        )
        for name, listener in (
            ("on_interaction", moves.on_interaction),  # the typed move's form
            ("on_guild_channel_update", posting.on_guild_channel_update),
            ("on_guild_role_update", posting.on_guild_role_update),
            ("on_guild_join", posting.on_guild_join),
            ("on_raw_thread_delete", opening.on_raw_thread_delete),
        ):
            bot.add_listener(functools.partial(listener, self), name)
        bot.timers.register_batch(
            timeouts.REMIND_EVENT, functools.partial(timeouts.on_remind_timers, self)
        )
        bot.timers.register(
            timeouts.FORFEIT_EVENT, functools.partial(timeouts.on_forfeit_timer, self)
        )
        bot.timers.register(
            standins.TAKEOVER_EVENT, functools.partial(standins.on_takeover_timer, self)
        )
        # Who follows a match, a player, a team or a league hears of its milestones.
        bot.add_dynamic_items(follow.FollowButton)
        bot.timers.register(follow.NEWS_EVENT, self.follows.on_news_timer)
        # After a post, with its card: whoever decides next is told, then the followers.
        self.on_shown += [functools.partial(notify.ping_after, bot), self.follows.after_post]
        # Once the card and its news are out: the open panels redrawn, a finished match's thread
        # archived (readable, searchable, out of the list).
        self.on_posted += [
            functools.partial(panels.after_post, self),
            functools.partial(notify.archive_finished, bot),
        ]

    async def start(self) -> None:
        """Before the gateway connects: what a crash left is read now, so that no match a
        command starts once connected is taken for one (recovery.crash_left); a database not
        answering yet leaves that to the repair after READY."""
        # the drawing workers import the presenters whose turns they draw
        self.drawing.start(type(adapter).__module__ for adapter in self.adapters.values())
        try:
            left = await recovery.crash_left(self)
        except Exception as error:
            if not is_unavailable(error):
                raise
            left = None
        self._recovery = background.started("match-recovery", recovery.recover(self, left))

    async def stop(self) -> None:
        await background.stopped(self._recovery)
        await super().stop()

    # The entry points the controls call (host/components.py `Answers`), each a function of
    # the part it belongs to, called with this host as its core.
    answer_challenge = opening.answer_challenge
    rematch = starting.rematch
    lobby_button = lobby.press
    on_move_button = moves.on_move_button
    on_move_select = moves.on_move_select
    on_panel_control = moves.on_panel_control
    confirm_resign = moves.confirm_resign
    show_private = moves.show_private
    claim_forfeit = timeouts.claim_forfeit
    take_back = standins.take_back
