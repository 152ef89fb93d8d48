"""The host's own controls on a match's card, beside the game's: the private panel, Follow,
a rematch, the replay and Why?."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from host import lessons, replays, why
from host.adapter import TurnPost
from host.components import SeatButton
from host.follow import FollowButton
from host.match import Match
from render.replay import replayable

if TYPE_CHECKING:
    from host.base import Core


def extra_controls(
    core: Core, stored: game_store.StoredGame, match: Match, post: TurnPost
) -> list[Any]:
    """The host's own controls on a card: the private panel and Follow while the match is
    on (a lesson is nobody's to follow), a rematch and the replay once it is over (after a
    lesson: a real match), and Why? on both."""
    over = core.adapters[stored.game].engine.is_over(match.engine)
    # Why? explains the latest moves by their rules; a lesson explains them itself.
    explained: list[Any] = []
    if why.explains(stored.game) and match.lesson is None:
        explained.append(why.WhyButton(stored.id))
    controls: list[Any] = []
    if post.rematch:
        label = lessons.NEXT_LABEL if match.lesson is not None else None
        controls.append(SeatButton(stored.id, "rematch", label))
    # every finished match is offered again, step by step (a lesson is nobody's to watch)
    if over and replayable(stored.game) and match.lesson is None:
        controls.append(replays.opener(stored.id))
    if over:
        return [*controls, *explained]
    if controls or stored.status != "active":
        return controls
    if match.lesson is not None:
        return private_buttons(core, stored)
    follows = FollowButton("match", str(stored.id))
    return [*private_buttons(core, stored), follows, *explained]


def private_buttons(core: Core, stored: game_store.StoredGame) -> list[discord.ui.Item]:
    adapter = core.adapters.get(stored.game)
    if adapter is None or adapter.private_label is None:
        return []
    return [SeatButton(stored.id, "private", adapter.private_label)]
