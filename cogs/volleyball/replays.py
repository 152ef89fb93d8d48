"""A played Volleyball match watched again, set by set (docs/rules/volleyball.md ruling 57): the
replay card of host/replays.py, from the match's record the league stored with its round
(db/volleyball_records.py), checked against the round's commitment published before the round.
Reached from /games (a manager's team's latest matches, each with its Replay button).

Who may watch: anyone in the league's server, and a manager of one of the two teams anywhere
(/games lists them in a DM too), as a hosted match's replay (host/replays.py `finished`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs.volleyball.playing import decode
from db import volleyball as store
from db import volleyball_records as record_store
from host import replays
from host.listing import Entry, server_name
from host.notify import channel_link
from rules.replay import Position
from rules.volleyball import described, round_commitment
from ui import UserError, shown

if TYPE_CHECKING:
    from bot import Ballcourt
    from host.base import Core

TITLE = "Volleyball"
KIND = "vb"  # the replay buttons' kind: a league's match, by its record's number
SHOWN = 5  # a manager's latest matches /games lists, one row of Replay buttons


def heading(row: record_store.StoredRecord) -> str:
    return f"{TITLE} {row.home} v {row.away}"


def say(position: Position) -> str:
    """A step in words: the match's line-up of teams, then each set."""
    return "**The match**" if position.number == 0 else f"**Set {position.number}**"


def set_lines(position: Position) -> list[str]:
    """Each set is a milestone (Next milestone, the highlight): its score and rallies."""
    return position.texts[:1] if position.number > 0 else []


async def find(host: Core, interaction: discord.Interaction, record_id: int) -> replays.Watched:
    """The played match `record_id` as its replay reads it; a UserError saying why there is
    none: no such match, not in this server and not one of the user's teams', a round not
    played yet (its record is written only once it is)."""
    db = host.bot.db
    row = await record_store.record(db, record_id)
    league = None if row is None else await store.load_league(db, row.league_id)
    missing = UserError(
        f"There is no played {TITLE} match #{record_id} here: a round's matches are replayed "
        "once it is played (until then its seed stays secret, since it would predict every "
        "rally)."
    )
    if row is None or league is None:
        raise missing
    team = await store.team_of(db, league.id, interaction.user.id)
    if league.guild_id != interaction.guild_id and team not in (row.home, row.away):
        raise missing
    secret = decode(league).league.secret
    published = None if secret is None else round_commitment(secret, row.season, row.round_number)
    result = described(row.record)[1]
    return replays.Watched(
        KIND,
        row.id,
        "volleyball",
        TITLE,
        row.record,
        published,
        [],
        (row.home, row.away),
        result,
        None,
        set_lines,
        committed="before the round's orders could matter",
        say=say,
        heading=heading(row),
    )


async def finished_entries(
    bot: Ballcourt, user_id: int
) -> list[tuple[replays.ReplayButton, Entry]]:
    """/games: the latest played matches of the teams the user manages, newest first, each
    with its Replay button."""
    found: list[tuple[int, replays.ReplayButton, Entry]] = []
    for league_id, _, team in await store.leagues_of_manager(bot.db, user_id):
        league = await store.load_league(bot.db, league_id)
        if league is None:
            continue
        for row in await record_store.records_of_teams(bot.db, league_id, [team], SHOWN):
            label, result = described(row.record)
            entry = Entry(
                False,
                shown(heading(row)),
                server_name(bot, league.guild_id),
                f"{shown(league.name)}, {label[0].lower()}{label[1:]}",
                shown(result),
                channel_link(league.guild_id, league.channel_id, None),
            )
            button = replays.opener(row.id, f"Replay {TITLE} #{row.id}", kind=KIND)
            found.append((row.id, button, entry))
    found.sort(key=lambda found: -found[0])
    return [(button, entry) for _, button, entry in found[:SHOWN]]
