"""A manager's private answers (docs/rules/volleyball.md, "A manager's week"): messages that
fit Discord, and the lines more than one answer says (what is still missing, a refused team,
a league not playing a round)."""

from __future__ import annotations

import io
from typing import Any

import discord

from db import volleyball as store
from rules.volleyball import LeagueState, RoundOrders, Team, round_fixtures, team_fixtures
from ui import UserError, packed, send_ephemeral
from ui.formats import human_join, plural

MAX_ANSWER_MESSAGES = 4  # an answer longer than this goes as a file too


async def answer(
    interaction: discord.Interaction,
    lines: list[str],
    *,
    attachment: tuple[str, str] | None = None,
    already_packed: bool = False,
    view: discord.ui.View | None = None,
) -> None:
    """Ephemeral messages that fit Discord: `lines` packed into messages (ui.text.packed:
    Markup as it is, anything else shown as text), or with `already_packed` messages already;
    at most a few, the rest as a text file. `view` goes with the last message."""
    messages = list(lines) if already_packed else packed(lines)
    files = []
    if len(messages) > MAX_ANSWER_MESSAGES:
        files.append(("answer.txt", "\n".join(messages)))
        messages = [
            *messages[: MAX_ANSWER_MESSAGES - 1],
            "(The whole answer is in the attached file.)",
        ]
    if attachment is not None:
        files.append(attachment)
    for index, message in enumerate(messages):
        extra: dict[str, Any] = {}
        if index == len(messages) - 1:
            if files:
                extra["files"] = [
                    discord.File(io.BytesIO(body.encode()), filename=name) for name, body in files
                ]
            if view is not None:
                extra["view"] = view
        await send_ephemeral(interaction, message, **extra)


def missing_line(state: LeagueState, team: Team, orders: RoundOrders) -> str:
    """ "Still missing: line-ups for matches 1 and 2: the NMR line-up (rule 12) plays them." """
    if state.season_over:
        return ""
    given = {m.match_number for m in orders.matches}
    fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
    numbers = [str(f.match_number) for f in fixtures if f.match_number not in given]
    if not numbers:
        return ""
    count = plural(len(numbers))
    return (
        f"Still missing: {count:the line-up|line-ups!} for {count:match|matches!} "
        f"{human_join(numbers, final='and')}: the NMR line-up (rule 12) plays {count:it|them!}."
    )


class TeamRefused(UserError):
    """A new team that breaks rule 1; the message lists every problem."""


def points_per_age(points: dict[str, int]) -> str:
    """Rule 1's budget as the team form's answer repeats it."""
    budget = ", ".join(f"Age {age} {n}" for age, n in points.items())
    return (
        f"Player points this season: {budget}; each player at most 24, each level at least 1, "
        "the higher level at most twice the lower."
    )


def not_running(stored: store.StoredLeague) -> str:
    """A league not playing a round, as a list line says it."""
    return {
        "forming": "forming: the season has not started",
        "paused": "paused by its admins",
    }.get(stored.status, stored.status)
