"""A player's private panel: what only their seat may see, and the choices that need it.

The private panel ("My hand"): any player, at any time, gets a fresh ephemeral message with
what only their seat may see (adapter.private_view) and the choices that need it
(adapter.private_controls). While the token of the interaction that drew it lasts (Discord:
15 minutes), the panel is redrawn in place whenever what it shows changes, whoever's move
changed it (a card drawn at the start of their turn); after that, a click on it redraws it. A
player's newer panel retires the older one, so one panel per player offers choices. Opened
from the match's card, the click is acknowledged as a deferred update of the card and the
panel follows as a private followup: that click's token then redraws the card after a
decision made on the panel (an interaction request, which Discord's global rate limit does
not count) for as long as it lasts, instead of an edit through the channel.

Stand-ins for absent players are host/standins.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from host.card import control_of
from host.components import PanelButton, PanelSelect
from host.match import Match, seat_of_clicker
from ui import UserError, fit, send_ephemeral
from ui.items import view_of
from ui.replies import edit_clicked

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.service import MatchHost

log = logging.getLogger(__name__)


# ---- the private view ----------------------------------------------------------------------------

# Discord lets a bot edit an interaction's response for 15 minutes: an open panel is redrawn
# through the token of the interaction that drew it while that token is younger than this (a
# minute to spare for the edit itself).
PANEL_TOKEN_SECONDS = 14 * 60
# The games as each seat last looked at its panel, remembered for what arrives later (NEW): at
# most this many seats' worth in one process, the least recently used forgotten first.
REMEMBERED_LOOKS = 4096
STALE_PANEL = "That choice was from an earlier turn: here is your panel as it is now."
OVER_PANEL = "The game is over: here is your panel as it ended."


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
    global rate limit counts (host/service.py `_show_card`)."""

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


async def show_private(
    host: MatchHost,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
) -> None:
    seat = seat_of_clicker(stored, interaction)
    what = (adapter.private_label or "hidden information").lower()
    if seat is None:
        raise UserError(
            f"You're watching {adapter.title} game #{stored.id}: only its players have "
            f"{'a hand' if 'hand' in what else what} to see."
        )
    if stored.status == "pending":
        raise UserError(
            f"{adapter.title} game #{stored.id} has not started yet: nothing is dealt before "
            "its host presses Start."
        )
    if stored.status == "cancelled":
        raise UserError(f"{adapter.title} game #{stored.id} was closed before it started.")
    match = Match.from_json(adapter, stored.state)
    drawn = await panel(host, adapter, stored, match, seat, looking=True)
    kwargs: dict[str, Any] = {"files": drawn.files()}
    if drawn.view is not None:
        kwargs["view"] = drawn.view
    if interaction.response.is_done():
        await send_ephemeral(interaction, drawn.content, **kwargs)
        return
    card_id = stored.turn_message_id
    clicked = interaction.message
    try:
        if clicked is not None and card_id is not None and clicked.id == card_id:
            # Opened from the card: the click is acknowledged as a deferred update of the card
            # and the panel follows as a private followup, so this token redraws the card after
            # a decision made on the panel (an interaction edit) instead of a channel edit,
            # which counts against the bot's global rate limit.
            await interaction.response.defer()
            followup = await interaction.followup.send(
                drawn.content, ephemeral=True, wait=True, **kwargs
            )
            host.panels.keep_card_token(stored.id, CardToken(interaction, card_id))
            await _keep_open(
                host, stored.id, seat, interaction, followup.id, drawn.digest, original=False
            )
            return
        sent = await interaction.response.send_message(drawn.content, ephemeral=True, **kwargs)
    except discord.NotFound:
        log.info("interaction of user %s expired before it was answered", interaction.user.id)
        return
    if sent.message_id is not None:  # the panel is the interaction's response: its token edits it
        await _keep_open(host, stored.id, seat, interaction, sent.message_id, drawn.digest)


@dataclass
class Panel:
    """A drawn panel: its text, image files, controls, and a digest of what it shows."""

    content: str
    images: list[tuple[str, bytes]]
    view: discord.ui.View | None
    digest: str

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.images]


async def panel(
    host: MatchHost,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    seat: int,
    picked: str | None = None,
    *,
    note: str | None = None,
    looking: bool = False,
) -> Panel:
    """A player's private panel: what only their seat may see (their hand, drawn from their
    seat's view; NEW on what arrived since they last looked at their panel) and the choices
    that need it, as controls of the current position; `note` says why it was redrawn;
    `looking`: drawn for the player's own interaction (not the bot's redraw of an open panel)."""
    key = (stored.id, seat)
    since = host.panels.since(key, stored.version, match.engine, looking=looking)
    text, images = await asyncio.to_thread(adapter.private_view, match, seat, since=since)
    active = stored.status == "active"
    specs = adapter.private_controls(match, seat, picked) if active else []
    # What the panel shows, its picks undone: a redraw is due when this changes. The version
    # counts only where the controls would go stale with it (not a seat still deciding).
    unpicked = adapter.private_controls(match, seat, None) if active and picked else specs
    version = stored.version if unpicked and not host.still_deciding(adapter, match, seat) else 0
    digest = hashlib.sha256(
        repr(
            (text, [(n, hashlib.sha256(d).hexdigest()) for n, d in images], unpicked, version)
        ).encode()
    ).hexdigest()
    controls = [
        control_of(stored.id, stored.version, spec, button=PanelButton, menu=PanelSelect)
        for spec in specs
    ]
    view = view_of(controls) if controls else None  # no controls: the panel has no view
    content = fit(f"*{note}*\n{text}" if note else text)
    return Panel(content, images, view, digest)


async def refresh_panel(
    host: MatchHost,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    seat: int,
    picked: str | None = None,
    *,
    note: str | None = None,
) -> None:
    """Redraw the panel a player used (their decision changed what it shows, or its choices
    were from an earlier turn), in place, through the click's own response."""
    drawn = await panel(host, adapter, stored, match, seat, picked, note=note, looking=True)
    await edit_clicked(
        interaction, content=drawn.content, attachments=drawn.files(), view=drawn.view
    )
    if interaction.message is not None:
        await _keep_open(host, stored.id, seat, interaction, interaction.message.id, drawn.digest)


async def _keep_open(
    host: MatchHost,
    game_id: int,
    seat: int,
    interaction: discord.Interaction,
    message_id: int,
    digest: str,
    *,
    original: bool = True,
) -> None:
    """Note the panel `interaction` drew (message `message_id`: its response, or with
    `original` False a followup) as the seat's open panel. An older panel of the seat, while
    its token lasts, gives up its controls: it points to the newer one, so one panel per player
    offers choices."""
    panels = host.panels.open
    older = panels.get((game_id, seat))
    panels[(game_id, seat)] = OpenPanel(interaction, message_id, digest, original)
    if older is None or older.message_id == message_id or not older.token_valid():
        return
    with contextlib.suppress(discord.HTTPException):
        await older.edit(
            content="Your panel moved to a newer message: use that one.",
            attachments=[],
            view=None,
        )


async def redraw_open_panels(
    host: MatchHost, adapter: GameAdapter, stored: game_store.StoredGame, match: Match
) -> None:
    """After a move is shown: every open panel of the match whose token still lasts is redrawn
    in place where what it shows changed (a card drawn, a decision come or gone, choices gone
    stale), so a player sees a drawn card when it is drawn (docs/rules/rollerball.md, ruling
    D3)."""
    panels = host.panels.open
    for key in [key for key in panels if key[0] == stored.id]:
        shown = panels[key]
        if not shown.token_valid():
            del panels[key]
            continue
        seat = key[1]
        drawn = await panel(host, adapter, stored, match, seat)
        if drawn.digest == shown.digest:
            continue
        try:
            await shown.edit(content=drawn.content, attachments=drawn.files(), view=drawn.view)
        except discord.HTTPException as error:
            log.info("could not redraw a panel of match %s: %s", stored.id, error)
            panels.pop(key, None)
            continue
        shown.digest = drawn.digest


async def on_panel_control(
    host: MatchHost,
    interaction: discord.Interaction,
    control: PanelButton | PanelSelect,
    values: list[str] | None,
) -> None:
    """A click on a panel: played as on the card, unless the panel's choices are from an
    earlier turn (its token ran out before it could be redrawn) or the game is over: then the
    panel is redrawn as it is now, in place, so no panel keeps a choice that acts on nothing."""
    stored = await game_store.load_game(host.bot.db, control.game_id)
    if stored is not None and stored.game in host.adapters:
        adapter = host.adapters[stored.game]
        seat = seat_of_clicker(stored, interaction)
        if seat is not None and stored.status != "pending":
            match = Match.from_json(adapter, stored.state)
            over = stored.status != "active"
            stale = control.version != stored.version and not host.still_deciding(
                adapter, match, seat
            )
            if over or stale:
                note = OVER_PANEL if over else STALE_PANEL
                await refresh_panel(host, interaction, adapter, stored, match, seat, note=note)
                return
    if isinstance(control, PanelButton):
        await host.on_move_button(interaction, control)
    else:
        await host.on_move_select(interaction, control, values or [])
