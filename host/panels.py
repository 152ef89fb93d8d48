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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from host.card import control_of
from host.components import PanelButton, PanelSelect
from host.match import Match, seat_of_clicker
from host.panel_memory import CardToken, OpenPanel
from ui import UserError, fit, send_ephemeral
from ui.items import view_of
from ui.replies import edit_clicked

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.base import Core
    from host.posted import Posted

log = logging.getLogger(__name__)

STALE_PANEL = "That choice was from an earlier turn: here is your panel as it is now."
OVER_PANEL = "The game is over: here is your panel as it ended."


# ---- the private view ----------------------------------------------------------------------------


async def show_private(
    host: Core,
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
    host: Core,
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
    host: Core,
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
    host: Core,
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
    host: Core, adapter: GameAdapter, stored: game_store.StoredGame, match: Match
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


async def after_post(core: Core, posted: Posted) -> None:
    """A post's hook, once its card and news are out: the match's open panels redrawn."""
    await redraw_open_panels(core, posted.adapter, posted.stored, posted.match)
