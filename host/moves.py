"""The entry points of a player's moves: a click on the card or on the private panel, a pick,
the typed form, a command (`/GAME move`, `board`, `resign`, `hand`); each ends in `play`: the
match's lock, the match loaded and the clicker checked (the core's `load_for_action`), the
action applied by the engine, saved, and only then the player answered and the card shown
(the core's `save` and `post`). A move is never shown as taken unless it is stored."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db.database import is_unavailable
from host import lessons, lobby, opening, panels, posting
from host.adapter import AUTO, FORM, GameAdapter, Picked, Step
from host.base import core_of
from host.components import (
    MOVE_FORM_ID,
    MoveButton,
    MoveForm,
    MoveSelect,
    PanelButton,
    PanelSelect,
    ResignButton,
    text_inputs,
)
from host.core import acknowledged, expired
from host.match import (
    COMPUTER_ID,
    Match,
    seat_of_clicker,
)
from rules.errors import PlayerError
from ui import (
    UserError,
    report_error,
    send_ephemeral,
)
from ui.items import view_of
from ui.permissions import refused_for_permission

if TYPE_CHECKING:
    from host.base import Core

log = logging.getLogger(__name__)


# A saved move whose showing met the database unavailable: never "nothing was changed".
SAVED_NOT_SHOWN = (
    "That was saved, but the database stopped answering before the match's card was redrawn: "
    "the card shows it as soon as the database answers again."
)


class SavedNotShown(UserError):
    """A move is stored and the database became unavailable while it was being shown: the
    player reads SAVED_NOT_SHOWN, and the match is shown as stored once the database answers
    (the core's show_when_available). Raised from the DatabaseUnavailable, so whoever retries
    on an outage (host/background.py until_done, the timers) still sees one."""


Chooser = Callable[[GameAdapter, Match, int], Any]  # (adapter, match, seat) -> action


async def match_here(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    *,
    players_only: bool = True,
    include_pending: bool = True,
) -> game_store.StoredGame:
    """The caller's match in this channel or thread (or, for spectators, the newest one)."""
    if interaction.channel_id is None:
        raise UserError(f"There is no {adapter.title} match here.")
    here = await game_store.games_here(
        host.bot.db, game=adapter.game, channel_id=interaction.channel_id
    )
    if not include_pending:
        here = [g for g in here if g.status == "active"]
    mine = [g for g in here if seat_of_clicker(g, interaction) is not None]
    if mine:
        return mine[0]
    if here and not players_only:
        return here[0]
    raise UserError(
        f"There is no {adapter.title} match of yours here. "
        f"Start one with `/{adapter.game} {adapter.new_command}`."
    )


async def board(host: Core, interaction: discord.Interaction, adapter: GameAdapter) -> None:
    """A fresh live card for the match here, at the bottom of its thread (the old one
    loses its controls and points to it), pinging nobody."""
    stored = await match_here(host, interaction, adapter, players_only=False, include_pending=False)
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with host.bot.game_locks(stored.id):
        stored = await game_store.load_game(host.bot.db, stored.id) or stored
        match = Match.from_json(adapter, stored.state)
        view, files = await host.draw_card(
            adapter, stored, match, [Step(match.engine, [], match.engine)]
        )
        card_id = await host.show_card(stored, view, files, interaction=None, new_card=True)
        await game_store.mark_posted(host.bot.db, stored.id, stored.version, card_id)
    channel = await host.channel_of(stored)
    await interaction.edit_original_response(
        content=f"{adapter.title} match #{stored.id}'s live card: "
        f"{channel.get_partial_message(card_id).jump_url}"
    )


async def move_text(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter, text: str
) -> None:
    stored = await match_here(host, interaction, adapter, include_pending=False)
    await play(
        host,
        interaction,
        stored.id,
        stored.version,
        lambda a, match, seat: a.parse_text(match.engine, seat, text),
    )


async def resign(host: Core, interaction: discord.Interaction, adapter: GameAdapter) -> None:
    """Withdraw or decline a pending challenge at once; ask before resigning a match."""
    stored = await match_here(host, interaction, adapter)
    if stored.status == "pending" and lobby.is_lobby(stored.state):
        await lobby.leave_by_command(host, interaction, stored.id)
        return
    if stored.status == "pending":
        async with host.bot.game_locks(stored.id):
            stored = await game_store.load_game(host.bot.db, stored.id) or stored
            if stored.status != "pending":
                raise UserError("That challenge was answered meanwhile: try again.")
            text = await opening.cancel_challenge(host, adapter, stored, interaction.user.id)
        await interaction.response.send_message(text)
        return
    match = Match.from_json(adapter, stored.state)
    await send_ephemeral(
        interaction,
        f"Resign {adapter.title} match #{stored.id}? {adapter.next_text(match)} "
        + adapter.resign_consequence(match, seat_of_clicker(stored, interaction) or 0),
        view=view_of([ResignButton(stored.id)]),
    )


async def confirm_resign(host: Core, interaction: discord.Interaction, game_id: int) -> None:
    await play(
        host,
        interaction,
        game_id,
        None,
        lambda adapter, match, seat: adapter.engine.resign_action(match.engine, seat),
        any_time=True,
        done=f"You resigned match #{game_id}.",
    )


async def on_move_button(host: Core, interaction: discord.Interaction, button: MoveButton) -> None:
    if button.action == AUTO:
        await toggle_auto(host, interaction, button.game_id)
        return
    if button.action == FORM:
        await _open_form(host, interaction, button.game_id, button.version)
        return
    await play(
        host,
        interaction,
        button.game_id,
        button.version,
        lambda adapter, match, seat: adapter.clicked(match.engine, seat, button.action, button.arg),
    )


async def on_move_select(
    host: Core, interaction: discord.Interaction, select: MoveSelect, values: list[str]
) -> None:
    await play(
        host,
        interaction,
        select.game_id,
        select.version,
        lambda adapter, match, seat: adapter.select_action(
            match.engine, seat, select.action, select.arg, values
        ),
    )


async def _open_form(
    host: Core, interaction: discord.Interaction, game_id: int, version: int
) -> None:
    adapter, stored, match, seat = await host.load_for_action(interaction, game_id, version)
    form = adapter.move_form(match, seat)
    await interaction.response.send_modal(
        MoveForm(stored.id, stored.version, form.title, form.label, form.placeholder)
    )


async def play(
    host: Core,
    interaction: discord.Interaction,
    game_id: int,
    version: int | None,
    choose: Chooser,
    *,
    any_time: bool = False,
    done: str | None = None,
) -> None:
    """Apply one player action, save it, and only then answer the player: a move is never
    shown as taken unless it is stored. The computer seats' replies follow as a move of
    their own (so a crash between the two loses nothing: start-up repair plays them)."""
    # A click left waiting here (for the lock, for the database) is acknowledged in time by
    # its TimelyResponse (host/gate.py, ui/timely.py); the answers below then follow it.
    async with host.bot.game_locks(game_id):
        told = await _play_locked(
            host, interaction, game_id, version, choose, any_time=any_time, done=done
        )
    if told is not None:  # a command's answer, once the match's lock is free
        await interaction.edit_original_response(content=told)


async def _play_locked(
    host: Core,
    interaction: discord.Interaction,
    game_id: int,
    version: int | None,
    choose: Chooser,
    *,
    any_time: bool,
    done: str | None,
) -> str | None:
    """play() under the match's lock; what a command's acknowledgement then becomes."""
    adapter, stored, match, seat = await host.load_for_action(
        interaction, game_id, version, any_time=any_time
    )
    picked = choose(adapter, match, seat)
    if isinstance(picked, Picked):  # part of a move: show the rest of its picks
        await show_pick(host, interaction, adapter, stored, match, picked.arg)
        return None
    try:
        lessons.check_move(adapter, match, seat, picked)  # a lesson takes its script's move
    except PlayerError:
        # A lesson's refusal takes the card (or the panel) back to the step's start, its
        # picks undone, so the hint's first control is on offer at once.
        if interaction.message is not None:
            await show_pick(host, interaction, adapter, stored, match, None)
        raise
    before = match.engine
    # a PlayerError here: nothing was changed, and the player hears what is allowed
    after, events = adapter.engine.apply(before, seat, picked)
    match.engine = after
    match.seen[seat] = time.time()
    steps = [Step(before, events, after)]
    stored = await host.save(
        adapter,
        stored,
        match,
        interaction.user.id,
        adapter.engine.format_action(picked),
        steps,
    )
    # The move is saved: from here on the interaction may have expired (a process that
    # stood still), which must not keep the move from being shown: `live` is None then;
    # and a database that stops answering is no "nothing was changed" (SavedNotShown).
    command = interaction.type is discord.InteractionType.application_command
    clicked = interaction.message
    live: discord.Interaction | None = interaction
    try:
        if command:
            if not interaction.response.is_done():  # else acknowledged while it waited
                live = await acknowledged(interaction, ephemeral=True, thinking=True)
        elif clicked is None or clicked.id != stored.turn_message_id:
            # Not from the card (the private panel, a confirmation): that message is
            # answered now; the card follows.
            try:
                await _answer_elsewhere(host, interaction, adapter, stored, match, seat, done)
            except discord.NotFound:
                live = expired(interaction)
            except discord.Forbidden as error:
                if not refused_for_permission(error):
                    raise
                # The move is saved: the player hears so and what is missing; the card
                # follows when the permission is back (posting.post_unposted).
                await posting.refused(
                    host, adapter, stored, error, interaction=interaction, card_shown=False
                )
                return None
        if host.computers_to_act(adapter, match):
            if (
                live is not None
                and not live.response.is_done()
                and host.computers_think(adapter, match)
            ):
                live = await acknowledged(live)
            replies = await host.computer_steps(adapter, match, stored)
            if replies:
                stored = await host.save(adapter, stored, match, COMPUTER_ID, "computer", replies)
                steps += replies
        posted = await host.post(adapter, stored, match, steps, interaction=live)
    except Exception as error:
        if isinstance(error, SavedNotShown) or not is_unavailable(error):
            raise
        host.show_when_available(stored.id, "saved while the database stopped answering")
        raise SavedNotShown(SAVED_NOT_SHOWN) from error
    if posted and command and live is not None:
        return f"Done: {adapter.title} match #{stored.id}'s card shows your move."
    return None


async def _answer_elsewhere(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    seat: int,
    done: str | None = None,
) -> None:
    """A move made from another message than the card: a confirmation becomes `done`
    without its spent button, the private panel is redrawn, anything else stays."""
    clicked = interaction.message
    if done is not None and clicked is not None:
        await posting.edit_clicked_reopening(host.bot, interaction, content=done, view=None)
    elif clicked is not None and clicked.flags.ephemeral:
        await panels.refresh_panel(host, interaction, adapter, stored, match, seat)
    elif not interaction.response.is_done():  # else acknowledged while it waited
        await interaction.response.defer()


async def show_pick(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    arg: str | None,
) -> None:
    """Redraw the card (or the panel the pick came from) with the rest of a move's picks
    (None: with none, as the step began); nothing is saved, and the images stay as they
    are."""
    clicked = interaction.message
    if clicked is not None and clicked.flags.ephemeral:
        seat = seat_of_clicker(stored, interaction) or 0
        await panels.refresh_panel(host, interaction, adapter, stored, match, seat, arg)
        return
    kept = [a.filename for a in clicked.attachments] if clicked is not None else []
    step = Step(match.engine, [], match.engine)
    view, files = await host.draw_card(adapter, stored, match, [step], picked=arg, kept_images=kept)
    images = {"attachments": files} if files else {}  # a pick marked on the image
    try:
        await posting.edit_clicked_reopening(host.bot, interaction, view=view, **images)
    except discord.NotFound:  # a moderator deleted the card since it was drawn
        board = adapter.command("board")
        await send_ephemeral(interaction, posting.CARD_DELETED.format(board=board))


async def toggle_auto(host: Core, interaction: discord.Interaction, game_id: int) -> None:
    """A player leaves their routine actions to the bot, or takes them back (the game says
    which: Rollerball II's coach dice); saved like a move, then the bot acts if it is due."""
    async with host.bot.game_locks(game_id):
        adapter, stored, match, seat = await host.load_for_action(
            interaction, game_id, None, any_time=True
        )
        if adapter.auto_label(match) is None:
            raise UserError("There is nothing the bot can do for you in this game.")
        if seat in match.auto:
            match.auto.discard(seat)
            said = f"{adapter.seat_label(match, seat)} takes back: {adapter.auto_label(match)}."
        else:
            match.auto.add(seat)
            said = (
                f"{adapter.seat_label(match, seat)} leaves to the bot: {adapter.auto_label(match)}."
            )
        match.seen[seat] = time.time()  # pressing the toggle is being at the card
        steps = [Step(match.engine, [], match.engine, texts=[said])]
        stored = await host.save(adapter, stored, match, interaction.user.id, "auto", steps)
        replies = await host.computer_steps(adapter, match, stored)
        if replies:
            stored = await host.save(adapter, stored, match, COMPUTER_ID, "computer", replies)
            steps += replies
        await host.post(adapter, stored, match, steps, interaction=interaction)


async def private_view_here(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter
) -> None:
    """`/GAME hand`: the caller's private view of their match here."""
    stored = await match_here(host, interaction, adapter)
    await panels.show_private(host, interaction, adapter, stored)


async def show_private(host: Core, interaction: discord.Interaction, game_id: int) -> None:
    """The "My hand" button: what only the clicking player may see, ephemerally."""
    adapter, stored = await host.hosted(game_id)
    await panels.show_private(host, interaction, adapter, stored)


async def on_interaction(host: Core, interaction: discord.Interaction) -> None:
    """The typed move's form submitted (a modal routed by its custom_id, host/components.py
    `MoveForm`): played as a typed move."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    found = MOVE_FORM_ID.fullmatch((interaction.data or {}).get("custom_id", ""))
    if not found:
        return
    values = text_inputs((interaction.data or {}).get("components", []))
    text = values[0] if values else ""
    try:
        await play(
            host,
            interaction,
            int(found[1]),
            int(found[2]),
            lambda adapter, match, seat: adapter.parse_text(match.engine, seat, text),
        )
    except Exception as error:
        await report_error(interaction, error)


async def on_panel_control(
    host: Core,
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
                note = panels.OVER_PANEL if over else panels.STALE_PANEL
                await panels.refresh_panel(
                    host, interaction, adapter, stored, match, seat, note=note
                )
                return
    if isinstance(control, PanelButton):
        await on_move_button(host, interaction, control)
    else:
        await on_move_select(host, interaction, control, values or [])


async def act(
    interaction: discord.Interaction,
    game_id: int,
    version: int | None,
    choose: Chooser,
) -> None:
    """Apply `choose(adapter, match, seat)` for the user of `interaction` (PlayerError if they
    may not, or if the action is illegal: nothing is changed then)."""
    await play(core_of(interaction), interaction, game_id, version, choose)
