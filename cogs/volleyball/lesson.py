"""`/volleyball learn`: Volleyball's lesson (rules/volleyball/lesson.py, docs/rules/volleyball.md
"Learn by playing") on a real league of four seats, the learner's prepared team against
computer teams, flagged as the learner's lesson (db/volleyball.py `lesson_of`).

The lesson is taught on the real controls: the league's own card (its embed, Edit with menus,
My team, Why?), the real orders editor and its Save orders, the real round, its posts and its
Why?, and My team's training and transfer-list menus. The card's message says the step (what to do, why, the clause); after each click the
bot asks the lesson whether it was the step's control and the set what the step expects
(`checked`): a wrong click is answered privately with the step's hint, and nothing is saved;
a right one moves the stored step on and redraws the card. The stored step is the progress: a
learner who leaves, or a restart, finds the lesson where it was, and `/volleyball learn` posts
its card again below. The round has no deadline (the league is kept paused, so no timer and no
reminder runs): it is played when the learner clicks Play the round.

A lesson is nobody's but its learner's (lesson_card.py `refusal`) and is left out of everything
public (the server's leagues and their names, a user's leagues in /games): db/volleyball.py
filters it. A finished lesson is deleted when its learner starts the next one.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import discord

from cogs import bot_of
from cogs.volleyball.lesson_card import checked, done
from cogs.volleyball.playing import decode, encode, league_secret, round_key
from db import volleyball as store
from rules.volleyball import lesson_script, parse_rule
from ui import UserError
from ui.replies import send_ephemeral

if TYPE_CHECKING:
    from cogs.volleyball.league import Leagues

GAME = "volleyball"
ABANDONED_DAYS = 7  # a lesson nobody moved on for this long is deleted


def leagues_of(interaction: discord.Interaction) -> Leagues:
    cog: Any = bot_of(interaction).get_cog("Volleyball")
    if cog is None:
        raise RuntimeError("the Volleyball cog, whose lesson this is, is not loaded")
    return cog.leagues


async def advance(leagues: Leagues, stored: store.StoredLeague) -> str:
    """The step done: the stored progress moves on (once, however many clicks race to it), the
    card is redrawn, and the next step's words are returned (for the clicker's answer)."""
    moved = await store.set_lesson_step(
        leagues.db, stored.id, stored.lesson_step + 1, stored.lesson_step
    )
    if moved:
        leagues.card.refresh_soon(stored.id)
    step = lesson_script().step(stored.lesson_step + 1)
    return f"✓ Next: {step.say}" if step is not None else "✓ Lesson done: see the card."


async def create(leagues: Leagues, guild_id: int, channel_id: int, user_id: int) -> int:
    """A new lesson league: the lesson's team, managed by the learner, and computer teams,
    its first season open and kept paused (no deadline, no timer: the lesson plays the round)."""
    script = lesson_script()
    state = script.league(secret=league_secret(leagues.bot))
    team = state.league.team(script.team.name)
    assert team is not None
    team.manager_id = str(user_id)
    league_id = await store.create_league(
        leagues.db,
        guild_id=guild_id,
        name=f"Lesson {user_id}",
        channel_id=channel_id,
        ping_role_id=None,
        admin_role_id=None,
        created_by=user_id,
        settings={"teams": len(state.league.teams), "seed": script.seed, "lesson": True},
        deadline_rule=parse_rule(24, None, None).to_dict(),
        remind_minutes=0,
        state=encode(state),
        anchor=0.0,
        lesson_of=user_id,
    )
    stored = await leagues.load(league_id)

    async def manager(conn: Any) -> None:
        await store.add_manager(conn, league_id, user_id, script.team.name)

    await leagues.save(stored, status="paused", also=manager)
    return league_id


async def drop(leagues: Leagues, stored: store.StoredLeague) -> None:
    """A lesson done with: its card taken down (if Discord still has it) and the league
    deleted with everything of it."""
    if stored.card_message_id is not None:
        with contextlib.suppress(discord.HTTPException):
            channel = await leagues.poster.channel(stored)
            await channel.get_partial_message(stored.card_message_id).delete()
    await store.delete_league(leagues.db, stored.id)


async def prune(leagues: Leagues, now: float) -> None:
    """The lessons abandoned for ABANDONED_DAYS, deleted (each learner's start looks)."""
    for stale in await store.stale_lessons(leagues.db, now - ABANDONED_DAYS * 86400):
        await drop(leagues, stale)


async def start(interaction: discord.Interaction) -> None:
    """`/volleyball learn` (and a Learn button): the learner's lesson, resumed where it was or
    begun; its card is posted below in the channel (a finished one is deleted first)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("The Volleyball lesson is played in a server channel, not in DMs.")
    leagues = leagues_of(interaction)
    user_id = interaction.user.id
    await prune(leagues, time.time())
    stored = await store.lesson_of(leagues.db, interaction.guild_id, user_id)
    if stored is not None and done(stored):
        await drop(leagues, stored)
        stored = None
    if stored is None:
        league_id = await create(leagues, interaction.guild_id, interaction.channel_id, user_id)
        said = "Your Volleyball lesson begins: its card is below."
    else:
        league_id = stored.id
        said = "Your Volleyball lesson goes on where you left it: its card is below."
    await send_ephemeral(interaction, said)
    async with leagues.host.posting_lock(league_id):
        await leagues.card.repost(league_id)


async def play(interaction: discord.Interaction, league_id: int) -> None:
    """Play the round: the real round of the lesson's league (as `round run-now` plays one),
    its posts sent, when the lesson's step is this one."""
    leagues = leagues_of(interaction)
    stored = await leagues.load(league_id, by=interaction.user.id)
    checked(stored, "play")
    state = decode(stored)
    played = await leagues.host.advance(
        stored.id, expected=round_key(state), forced=True, send=False
    )
    if not played:
        raise UserError("The round was played at the same moment: see the results above.")
    said = await advance(leagues, stored)
    await send_ephemeral(interaction, f"Round played: its results are posted below. {said}")
    await leagues.reports.send_pending_now(stored.id)
