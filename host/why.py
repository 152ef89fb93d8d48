"""Why?: the rules behind what just happened, privately, at the moment it happens.

Every event a game's engine produces names the topics and rulings of its rules page that decided
it (for Rocketball, rules/rocketball/events.py: "R7" is a row of docs/rules/rocketball.md's
Rulings table, any other name a topic of that page). The engine names them; this module words
them for a player: each event as the card told it, under it each ruling it is the first to name
(its clause and what the bot does), and the topics, with the rules menu to read them whole.

What is explained comes from the match's record played again line by line (the engine's own
`plays`), so it is exactly what the card showed. The seed is used here, on the server, to play
the lines already made, and never shown: only the events' texts, which every seat saw on the
card, are worded, never a record line (a secret bid's line names its cards).
The Why? button on a card explains the clicker's latest move and what followed it (a spectator:
the latest two lines); `/GAME why match move` any line of a match of this server.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from db import games as game_store
from host import results
from host.base import core_of
from host.match import Match, seat_of_clicker
from rules.face import rules_named, with_hosted
from rules.records import Played
from ui import UserError
from ui.formats import human_join
from ui.items import Control, view_of
from ui.replies import send_ephemeral
from ui.rulebook import RULEBOOKS, Rulebook, RulesTopicSelect
from ui.text import fit

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.base import Core

SPECTATOR_LINES = 2  # a spectator's Why?: the latest move and the reply to it
MOST_LINES = 4  # a player's Why? explains at most their latest move and three after it
EMBED_TEXT = 4000  # an embed's description holds 4,096 characters


def explains(game: str) -> bool:
    """Whether `game`'s events name its rules (its rules page has ruling ids to name)."""
    rulebook = RULEBOOKS.get(game)
    return rulebook is not None and bool(rulebook.rulings)


class WhyButton(Control[discord.ui.Button], template=r"why:(?P<id>\d+)"):
    """A card's Why?: the rules behind the latest moves, for whoever clicks, privately."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Why?",
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(id=game_id),
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> WhyButton:
        return cls(int(match["id"]))

    async def act(self, interaction: discord.Interaction) -> None:
        host = core_of(interaction)
        stored = await game_store.load_game(host.bot.db, self.game_id)
        adapter = host.adapters.get(stored.game) if stored is not None else None
        if (
            stored is None
            or adapter is None
            or stored.guild_id != interaction.guild_id
            or stored.status not in ("active", "finished")
        ):
            raise UserError(f"There is no match #{self.game_id} with moves in this server.")
        await explain(interaction, adapter, stored, None)


async def command(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    match_id: int | None,
    move: int | None,
) -> None:
    """`/GAME why [match] [move]`: a move of a match of this server (default: the user's
    latest match, and their latest move in it)."""
    stored = await results.recorded_match(host, interaction, adapter, match_id)
    await explain(interaction, adapter, stored, move)


async def explain(
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    line: int | None,
) -> None:
    """The Why? of `stored`: its record's line `line` (0: the set-up), or the clicker's latest
    move and what followed it."""
    game_id = stored.id
    rulebook = RULEBOOKS.get(stored.game)
    if rulebook is None or not rulebook.rulings:
        raise UserError(f"{adapter.title}'s events do not name their rules yet.")
    match = Match.from_json(adapter, stored.state)
    played = plays(adapter, match)
    if line is None:
        chosen = latest(played, seat_of_clicker(stored, interaction))
    elif 0 <= line < len(played):
        chosen = [line]
    else:
        raise UserError(
            f"Match #{game_id} has moves 1 to {len(played) - 1} (0 is the set-up): "
            f"pick one of those."
        )
    text, topics = explanation(adapter, match, rulebook, [(i, played[i]) for i in chosen])
    await send_worded(interaction, rulebook, f"Why? {adapter.title} #{game_id}", text, topics)


async def send_worded(
    interaction: discord.Interaction, rulebook: Rulebook, title: str, text: str, topics: list[str]
) -> None:
    """A Why? worded (`worded`), privately to whoever asked: the events and their rulings, and
    the rules menu open at the first topic named (where the game's rulebook is registered)."""
    embed = discord.Embed(
        title=title, description=fit(text, EMBED_TEXT), colour=discord.Colour(rulebook.colour)
    )
    first = next((i for t in topics if (i := rulebook.topic_index(t)) is not None), 0)
    menu = rulebook.game in RULEBOOKS
    view = view_of([RulesTopicSelect(rulebook.game, first)]) if menu else None
    await send_ephemeral(interaction, "", embed=embed, **({"view": view} if view else {}))


def plays(adapter: GameAdapter, match: Match) -> list[Played]:
    """The match's record played line by line: the set-up first, then every move made, each with
    the lines the hosted match wrote itself beside it (rules.face.with_hosted)."""
    engine = adapter.engine
    text = engine.record(match.engine, salt=match.salt, reveal=True, names=match.names)
    return with_hosted(engine, match.engine, list(engine.plays(text)))


def latest(played: Sequence[Played], seat: int | None) -> list[int]:
    """The lines a Why? button explains: from `seat`'s latest move to the end (at most
    MOST_LINES), or the latest SPECTATOR_LINES for someone not playing (or before their first
    move)."""
    last = len(played) - 1
    own = [i for i, line in enumerate(played) if i > 0 and seat is not None and line.seat == seat]
    start = own[-1] if own else last - SPECTATOR_LINES + 1
    start = max(start, last - MOST_LINES + 1, 0)
    return list(range(start, last + 1))


def explanation(
    adapter: GameAdapter, match: Match, rulebook: Rulebook, lines: Sequence[tuple[int, Played]]
) -> tuple[str, list[str]]:
    """The lines' events worded, each ruling under the first event that names it, and the
    topics named (in order), for the closing line and the rules menu."""
    groups: list[tuple[str, list[tuple[str, tuple[str, ...]]]]] = []
    for number, line in lines:
        if number == 0:
            head = "**The set-up**"
        else:  # the seat, not the record's line: a line may hold what is hidden (a bid's cards)
            who = adapter.seat_label(match, line.seat) if line.seat is not None else "A move"
            head = f"**{number}. {who}**"
        told = [
            (adapter.said(match, getattr(event, "text", "")), rules_named(event))
            for event in line.events
        ]
        groups.append((head, told))
    return worded(rulebook, groups, f"/{adapter.game} rules")


def worded(
    rulebook: Rulebook,
    groups: Sequence[tuple[str, Sequence[tuple[str, Sequence[str]]]]],
    command: str,
) -> tuple[str, list[str]]:
    """Groups of events (a heading, then each event's text as players saw it and the rules it
    names) worded from the rules page: each ruling under the first event that names it, with
    its clause and what the bot does, and the topics named (in order) in a closing line that
    points to `command`; also those topics, for the rules menu."""
    parts: list[str] = []
    told: set[str] = set()
    topics: list[str] = []
    for head, events in groups:
        parts.append(head)
        for said, named in events:
            if said:
                parts.append(f"• {said}")
            for rule in named:
                if rule in told:
                    continue
                told.add(rule)
                if rule in rulebook.rulings:
                    clause, ruling = rulebook.rulings[rule]
                    parts.append(f"> **Ruling {rule}** ({clause}): {ruling}")
                else:
                    topics.append(rule)
    if topics:
        parts.append(
            f"-# The rules: {human_join([f'*{t}*' for t in topics], final='and')}. Pick a "
            f"topic below to read it, or `{command}`."
        )
    return "\n".join(parts), topics
