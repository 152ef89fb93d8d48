"""The replay card: a finished match watched again step by step, by anyone in its server
(`/GAME replay`, the Replay button of the final card). Each step is drawn by the game's own
renderer from the match's record after the record is verified against its dice commitment
(rules/replay.py, render/replay.py): what the card shows is what the dice and the players did.

The card is private (ephemeral): a spectator watches at their own pace, several people at
different steps at once, and nothing is posted into the match's thread, where its story and
its talk stay. Its buttons carry the match and the step they lead to, so they work after a
restart: each click reads the stored match again (a finished match no longer changes).
A match still being played has no replay: its seed is secret until it ends.
"""

from __future__ import annotations

import asyncio
import functools
import io
import re
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from host.adapter import GameAdapter, Step
from host.card import MAX_CARD_TEXT
from host.components import host_of
from host.match import Match
from render.replay import frame, replayable
from rules.replay import IN_PLAY, Replay, verified
from ui import UserError
from ui.items import Control
from ui.text import fit

if TYPE_CHECKING:
    from host.service import MatchHost

# A replay verified and played is kept for the next clicks (a match's record is the key: a
# finished match's record never changes, and a changed one is verified again).
KEPT_REPLAYS = 8
# Draw longer than this and the click is acknowledged first (Discord waits 3 s for an answer).
DEFER_AFTER_SECONDS = 1.5
OPEN = "open"  # the final card's button: a new replay card, at the set-up


class ReplayButton(
    Control[discord.ui.Button],
    template=r"replay:(?P<id>\d+):(?P<step>\d+):(?P<how>[a-z]{1,10})",
):
    """A step of a match's replay: `how` names the button (each id must be unique in the
    card, and two buttons may lead to the same step)."""

    def __init__(
        self,
        game_id: int,
        step: int,
        how: str,
        *,
        label: str = "Replay",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=self.id_for(id=game_id, step=step, how=how),
            )
        )
        self.game_id, self.step, self.how = game_id, step, how

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> ReplayButton:
        return cls(int(match["id"]), int(match["step"]), match["how"])

    async def act(self, interaction: discord.Interaction) -> None:
        await show(host_of(interaction), interaction, self.game_id, self.step, new=self.how == OPEN)


def opener(game_id: int) -> ReplayButton:
    """The final card's button: this match's replay, privately, from the set-up."""
    return ReplayButton(game_id, 0, OPEN, label="Replay ▶")


@functools.lru_cache(maxsize=KEPT_REPLAYS)
def _verified(text: str, game: str, published: str) -> Replay:
    return verified(text, game, published=published)


async def command(
    host: MatchHost, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
) -> None:
    """`/GAME replay [match]`: the match asked for (in this server), else the user's latest
    finished one."""
    if match_id is None:
        stored = await game_store.latest_game_of(
            host.bot.db, game=adapter.game, user_id=interaction.user.id, statuses=("finished",)
        )
        if stored is None:
            raise UserError(
                f"You have no finished {adapter.title} matches to replay yet: name one with "
                "`match` (its number is on its card)."
            )
        match_id = stored.id
    await show(host, interaction, match_id, 0, new=True)


async def show(
    host: MatchHost, interaction: discord.Interaction, game_id: int, step: int, *, new: bool
) -> None:
    """The replay card of match `game_id` at `step`: a new private message (`new`), else the
    clicked replay card redrawn in place."""
    stored = await game_store.load_game(host.bot.db, game_id)
    adapter = host.adapters.get(stored.game) if stored is not None else None
    if (
        stored is None
        or adapter is None
        or stored.guild_id != interaction.guild_id
        or stored.status in ("pending", "cancelled")
    ):
        raise UserError(f"There is no match #{game_id} with moves in this server.")
    if not replayable(adapter.game):
        raise UserError(f"{adapter.title} matches cannot be replayed step by step yet.")
    if stored.status != "finished":
        raise UserError(f"{adapter.title} match #{game_id}: {IN_PLAY}")
    match = Match.from_json(adapter, stored.state)
    text = adapter.engine.record(match.engine, salt=match.salt, reveal=True, names=match.names)
    drawing = asyncio.ensure_future(asyncio.to_thread(draw, adapter, match, game_id, text, step))
    done, _ = await asyncio.wait({drawing}, timeout=DEFER_AFTER_SECONDS)
    if not done:  # a long record verified for the first time: acknowledge, privately
        if new:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    view, (filename, image) = await drawing  # a RecordError: the reason, privately
    file = discord.File(io.BytesIO(image), filename=filename)
    if interaction.response.is_done():
        await interaction.edit_original_response(view=view, attachments=[file])
    elif new:
        await interaction.response.send_message(view=view, file=file, ephemeral=True)
    else:
        await interaction.response.edit_message(view=view, attachments=[file])


def draw(
    adapter: GameAdapter, match: Match, game_id: int, text: str, step: int
) -> tuple[discord.ui.LayoutView, tuple[str, bytes]]:
    """The card at `step` (runs in a worker thread): the record verified, the step's frame."""
    replay = _verified(text, adapter.game, match.commitment)
    step = min(step, len(replay) - 1)
    drawn = frame(replay, step)
    return card(adapter, match, game_id, replay, step, drawn[0]), drawn


def milestone_lines(adapter: GameAdapter, match: Match, replay: Replay, step: int) -> list[str]:
    """What made step `step` a milestone (the game's own: a goal), as its thread said it."""
    position = replay.positions[step]
    return adapter.milestones(match, Step(position.before, position.events, position.after))


def card(
    adapter: GameAdapter, match: Match, game_id: int, replay: Replay, step: int, filename: str
) -> discord.ui.LayoutView:
    """The replay card: the step, the move in words, the frame (uploaded as `filename`), the
    controls."""
    position = replay.positions[step]
    last = len(replay) - 1
    if position.number == 0:
        who = "**The set-up**"
    elif position.seat is not None:
        who = f"**{adapter.seat_label(match, position.seat)}:** `{position.move}`"
    else:
        who = f"`{position.move}`"
    lines = [
        f"### Replay · {adapter.title} #{game_id} · step {step} of {last}",
        who,
        *(f"• {text}" for text in position.texts),
    ]
    if step == last:
        lines.append(f"**{adapter.result_text(match)}**")
    view = discord.ui.LayoutView(timeout=None)
    box = discord.ui.Container()
    box.add_item(discord.ui.TextDisplay(fit("\n".join(lines), MAX_CARD_TEXT)))
    box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{filename}")))
    box.add_item(
        discord.ui.TextDisplay(
            f"-# Verified: the revealed seed matches the dice commitment published before the "
            f"first move, and every step replays from it. `{adapter.command('record')}` gives "
            "the record."
        )
    )
    following = next(
        (
            later
            for later in range(step + 1, len(replay))
            if milestone_lines(adapter, match, replay, later)
        ),
        None,
    )
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for target, how, label, off in (
        (0, "start", "⏮ Start", step == 0),
        (max(step - 1, 0), "back", "◀", step == 0),
        (min(step + 1, last), "next", "▶", step == last),
        (following or last, "mark", "Next milestone", following is None),
        (last, "end", "End ⏭", step == last),
    ):
        style = discord.ButtonStyle.primary if how == "next" else discord.ButtonStyle.secondary
        row.add_item(ReplayButton(game_id, target, how, label=label, style=style, disabled=off))
    box.add_item(row)
    view.add_item(box)
    return view
