"""A post of a match, as the hooks registered on the match core (host/core.py `on_shown`,
`on_posted`) are told it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import discord

    from db.games import StoredGame
    from host.adapter import GameAdapter, Step
    from host.match import Match


@dataclass
class Posted:
    """A post of the match after `steps` (saved already), as the hooks after it are told it:
    the card shown in `channel` as message `card_id`; `first` the match's first card, `ping`
    whether anything was played (else whoever decides next was told already)."""

    adapter: GameAdapter
    stored: StoredGame
    match: Match
    steps: list[Step]
    channel: discord.abc.Messageable
    card_id: int
    first: bool
    ping: bool


PostHook = Callable[[Posted], Awaitable[None]]
