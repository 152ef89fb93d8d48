"""A played round's Why? (docs/rules/volleyball.md "Why?"): what decided it, privately to
whoever asks, worded as every game's Why? is (host/why.py `worded`, `send_worded`): each event
as the round's post told it, under it each ruling it is the first to name (its clause and what
the bot does), and the rules menu.

The events are the engine's (rules/volleyball/why.py), kept on the round's reports when it was
played (db/migrations/028_volleyball_round_why.sql): anyone reads the public report's (a set's
score, who could play, the sets before, a set not fielded, the teams without orders); the
manager of a team also reads its own (its orders' concept, positions and points, its devotion's
checks), from its sheet, and nobody else's. A round played before they were kept has no Why?:
the answer says so, privately.

Asked from the round's post (its Why? button names the round), the league's card (the latest
round played) or `/volleyball why` (a round of this season, default the latest).
"""

from __future__ import annotations

from typing import Any

import discord

from db import volleyball as store
from host.why import EMBED_TEXT, send_worded, worded
from ui import UserError, shown
from ui.formats import plural
from ui.rulebook import Rulebook, register

GAME = "volleyball"
# The rules page in Discord: the rules menu under a Why? opens it at the topic an event names.
RULEBOOK = register(Rulebook(GAME))
COMMAND = "/volleyball rules"


def told(events: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """Kept events as players read them: their names shown as text (ui.shown)."""
    return [(shown(text), rules) for text, rules in events]


async def explain_round(
    interaction: discord.Interaction,
    db: Any,
    stored: store.StoredLeague,
    season: int,
    round_number: int,
) -> None:
    """Why round `round_number` of season `season` went as it did, to the clicker only."""
    name = shown(stored.name)
    public = await store.report_for(db, stored.id, season, round_number, "")
    if public is None or stored.guild_id != interaction.guild_id:
        raise UserError(f"{name} has no round {round_number} of season {season} played.")
    await explained(interaction, db, stored, public)


async def explain_latest(
    interaction: discord.Interaction, db: Any, stored: store.StoredLeague
) -> None:
    """The league card's Why?: its latest round played."""
    public = await store.last_round_report(db, stored.id)
    if public is None:
        raise UserError(
            f"{shown(stored.name)} has played no round yet: once one is played, its Why? says "
            "what decided it."
        )
    await explained(interaction, db, stored, public)


async def explained(
    interaction: discord.Interaction,
    db: Any,
    stored: store.StoredLeague,
    public: store.StoredReport,
) -> None:
    name = shown(stored.name)
    where = f"round {public.round_number} of season {public.season}"
    if public.why is None:
        raise UserError(
            f"{where.capitalize()} of {name} was played before the bot kept what decided each "
            f"round: there is no Why? for it. `/volleyball results round:{public.round_number}`"
            " has its scores; every round played from now on has a Why?."
        )
    own: list[tuple[str, list[str]]] = []
    head = ""
    team = await store.team_of(db, stored.id, interaction.user.id)
    if team is not None:
        sheet = await store.report_for(db, stored.id, public.season, public.round_number, team)
        own = told(sheet.why or []) if sheet is not None else []
        head = f"**{shown(team)}, your team (only you see this)**"
    text, topics = fitted(head, own, f"**{name}, {where}**", told(public.why), public.round_number)
    await send_worded(interaction, RULEBOOK, f"Why? {name}, {where}", text, topics)


def fitted(
    own_head: str,
    own: list[tuple[str, list[str]]],
    head: str,
    events: list[tuple[str, list[str]]],
    round_number: int,
) -> tuple[str, list[str]]:
    """The Why? worded in one embed: the clicker's team's own events first, then the round's
    in order, as many as fit with the closing line of rules; a round too big for that (a
    division of 16 plays 16 matches) ends with how many events are left out and where their
    scores are. The rulings are worded under the first event naming them, so the events
    left out are the last matches' set scores."""

    def worded_with(count: int) -> tuple[str, list[str]]:
        groups = [(own_head, own)] if own else []
        groups.append((head, events[:count]))
        left = len(events) - count
        if left:
            groups.append(
                (
                    f"-# … and {plural(left):more event} of the round: every score is in "
                    f"`/volleyball results round:{round_number}`.",
                    [],
                )
            )
        return worded(RULEBOOK, groups, COMMAND)

    low, high = 0, len(events)  # the most events that fit: worded_with(low) fits or is none
    if len(worded_with(high)[0]) <= EMBED_TEXT:
        return worded_with(high)
    while low < high - 1:
        middle = (low + high) // 2
        if len(worded_with(middle)[0]) <= EMBED_TEXT:
            low = middle
        else:
            high = middle
    return worded_with(low)
