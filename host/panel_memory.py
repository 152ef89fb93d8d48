"""What one bot process remembers of the players' private panels (host/panels.py): each seat's
open panel and its last look, and the click on a card that opened a panel, whose token redraws
the card (the core's `show_card`). Memory only: after a restart a panel is a fresh one."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import discord

# Discord lets a bot edit an interaction's response for 15 minutes: an open panel is redrawn
# through the token of the interaction that drew it while that token is younger than this (a
# minute to spare for the edit itself).
PANEL_TOKEN_SECONDS = 14 * 60
# The games as each seat last looked at its panel, remembered for what arrives later (NEW): at
# most this many seats' worth in one process, the least recently used forgotten first.
REMEMBERED_LOOKS = 4096


@dataclass
class Look:
    """A seat's last look at its panel (opening it, or a click on it): the match's version then,
    the game then (`state`), and the game that panel's NEW marks counted from (`since`)."""

    version: int
    state: Any
    since: Any


def token_valid(interaction: discord.Interaction) -> bool:
    """Whether the bot may still edit through `interaction`'s token (with a minute to spare)."""
    age = discord.utils.utcnow() - interaction.created_at
    return age.total_seconds() < PANEL_TOKEN_SECONDS


@dataclass
class OpenPanel:
    """A seat's newest panel: the interaction whose token edits it, its message (`original`:
    the interaction's own response; else a followup of it), and what it shows."""

    interaction: discord.Interaction
    message_id: int
    digest: str
    original: bool = True

    def token_valid(self) -> bool:
        return token_valid(self.interaction)

    async def edit(self, **fields: Any) -> None:
        if self.original:
            await self.interaction.edit_original_response(**fields)
        else:
            await self.interaction.followup.edit_message(self.message_id, **fields)


@dataclass
class CardToken:
    """The click on a match's card that opened a panel: acknowledged as a deferred update of
    the card, so its token edits the card (`card_id`) for 15 minutes, through a route no
    global rate limit counts (host/core.py `show_card`)."""

    interaction: discord.Interaction
    card_id: int


@dataclass
class Panels:
    """Per bot process: the seats' open panels and each seat's last look at its panel. Memory
    only: after a restart a panel is a fresh one (nothing marked NEW, nothing to edit)."""

    open: dict[tuple[int, int], OpenPanel] = field(default_factory=dict)
    looks: OrderedDict[tuple[int, int], Look] = field(default_factory=OrderedDict)
    cards: dict[int, CardToken] = field(default_factory=dict)  # game id -> the newest

    def keep_card_token(self, game_id: int, token: CardToken) -> None:
        """Note the newest click on a match's card that opened a panel; tokens past their time
        are forgotten (a finished match's too)."""
        for key in [k for k, kept in self.cards.items() if not token_valid(kept.interaction)]:
            del self.cards[key]
        self.cards[game_id] = token

    def card_token(self, game_id: int, card_id: int | None) -> CardToken | None:
        """A token that still edits the match's card `card_id` (None: no such panel click, or
        its 15 minutes are nearly over, or the match has another card now)."""
        token = self.cards.get(game_id)
        if token is None or not token_valid(token.interaction) or token.card_id != card_id:
            self.cards.pop(game_id, None)
            return None
        return token

    def since(self, key: tuple[int, int], version: int, state: Any, *, looking: bool) -> Any:
        """The game a panel drawn now at `version` counts its NEW marks from: the game as the
        seat last looked at its panel (at the same version, a pick: the marks that look had).
        A player `looking` (opening the panel, clicking on it) has now seen it; the bot's own
        redraws of an open panel keep the marks until they do."""
        last = self.looks.get(key)
        if last is None:
            since = None
        elif last.version == version:
            since = last.since
        else:
            since = last.state
        if looking:
            self.looks[key] = Look(version, state, since)
            self.looks.move_to_end(key)
            while len(self.looks) > REMEMBERED_LOOKS:
                self.looks.popitem(last=False)
        return since
