"""The live match card: one Components v2 message per match, in its thread, holding the title,
what happened since the last card (every step: the player's move and the replies) and what
happens next, the board or track shown large, a footer
and the controls. A click that changes the match redraws it through the click's own interaction
response, so an ordinary move costs no globally rate-limited request (docs/rules: "Playing in
Discord" on each game's page)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import discord

from host.adapter import ButtonSpec, SelectSpec, TurnPost
from host.components import MoveButton, MoveSelect
from ui.items import written
from ui.text import fit

MAX_CARD_TEXT = 3900  # Discord: 4,000 characters of text displays in one message
BUTTONS_PER_ROW = 5
EARLIER = "• … (earlier events are in the record)"


def control_of(
    game_id: int,
    version: int,
    spec: ButtonSpec | SelectSpec,
    *,
    button: type[MoveButton] = MoveButton,
    menu: type[MoveSelect] = MoveSelect,
) -> discord.ui.Item[Any]:
    """The persistent component for a button or select the game asked for (`button` and `menu`:
    the kinds of control, a private panel's own for its choices)."""
    if isinstance(spec, SelectSpec):
        return menu(
            game_id,
            version,
            spec.action,
            spec.arg,
            placeholder=spec.placeholder,
            options=spec.options,
            min_values=spec.min_values,
            max_values=spec.max_values,
        )
    style = discord.ButtonStyle[spec.style]
    if spec.custom_id is not None:  # the game's own component handles it
        custom_id = written(re.compile(spec.custom_id), {"game": game_id, "version": version})
        return discord.ui.Button(label=spec.label[:80], style=style, custom_id=custom_id)
    return button(game_id, version, spec.action, spec.arg, label=spec.label[:80], style=style)


def rows_of(items: list[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    """Buttons five to a row, each select on a row of its own (Discord's layout rules)."""
    rows: list[discord.ui.ActionRow[Any]] = []
    buttons: list[discord.ui.Item[Any]] = []

    def flush() -> None:
        while buttons:
            row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            for item in buttons[:BUTTONS_PER_ROW]:
                row.add_item(item)
            rows.append(row)
            del buttons[:BUTTONS_PER_ROW]

    for item in items:
        base = getattr(item, "item", item)  # a DynamicItem wraps its button or select
        if isinstance(base, discord.ui.Select):
            flush()
            row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            row.add_item(item)
            rows.append(row)
        else:
            buttons.append(item)
    flush()
    return rows


def build_card(
    game_id: int,
    version: int,
    post: TurnPost,
    *,
    deadline: str | None = None,
    extra: Sequence[discord.ui.Item[Any]] = (),
) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """The card's layout and the image files to upload with it (those drawn anew). `deadline`
    is the host's line about when the time for the move is up (host/timeouts.py), under what
    happens next."""
    view = discord.ui.LayoutView(timeout=None)
    card = discord.ui.Container(accent_colour=post.colour)
    card.add_item(discord.ui.TextDisplay(card_text(post, deadline)))
    # A gallery of one image each: stacked full width, never shrunk into a grid on a phone.
    for name, _ in post.images:
        card.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{name}")))
    if post.footer:
        card.add_item(discord.ui.TextDisplay(f"-# {post.footer}"))
    controls = [control_of(game_id, version, spec) for spec in (*post.selects, *post.buttons)]
    items = [*controls, *extra]
    # The controls follow straight on: no separator line, whose room a phone's screen needs to
    # show the board, what happened, what's next and the controls together.
    if items:
        for row in rows_of(items):
            card.add_item(row)
    view.add_item(card)
    files = [
        discord.File(io.BytesIO(data), filename=name)
        for name, data in post.images
        if data is not None
    ]
    return view, files


def card_text(post: TurnPost, deadline: str | None = None) -> str:
    """The card's text: the title, what happened (`post.happened`), what happens next and the
    deadline, within Discord's limit together with the footer. What happens next is never cut:
    when the events are too long, the oldest lines give way (the record keeps them all)."""
    tail = post.body
    if deadline:
        tail += f"\n-# {deadline}"
    budget = MAX_CARD_TEXT - len(post.footer) - 10
    head = f"### {post.title}"
    room = budget - len(head) - len(tail) - 4
    happened = post.happened.strip()
    if len(happened) > room:
        lines = happened.split("\n")
        kept: list[str] = []
        used = len(EARLIER)
        for line in reversed(lines):
            if used + len(line) + 1 > room:
                break
            kept.insert(0, line)
            used += len(line) + 1
        happened = "\n".join([EARLIER, *kept]) if room > len(EARLIER) else ""
    text = "\n".join(part for part in (head, happened) if part)
    # what happened, then what is next on the very next line (it starts in bold): a blank line
    # would cost the phone's screen a line the controls need
    text = "\n".join(part for part in (text, tail.strip()) if part)
    return fit(text, budget)


def retired_card(text: str) -> discord.ui.LayoutView:
    """What an old card becomes when a newer one replaces it: a line, no controls."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(text))
    return view
