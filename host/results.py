"""What a match leaves behind: its record (the seed only once it is over, only in its own
server), its play-by-play, and the players' ratings with the leaderboard."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from db import games as game_store
from db import ratings as ratings_store
from host.adapter import GameAdapter
from host.match import COMPUTER_ID, DELETED_USER_ID, Match
from rules import ratings
from ui import UserError, fit
from ui.formats import plural

NO_MENTIONS = discord.AllowedMentions.none()
HISTORY_LINES = 15  # the latest events /GAME history shows in its message
NOT_RATED = (COMPUTER_ID, DELETED_USER_ID)  # seats that have no rating and move none

if TYPE_CHECKING:
    from host.base import Core


async def record(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
) -> None:
    """The record as a file: the seed and salt only once the match is over; only from the
    server the match is played in."""
    stored = await recorded_match(host, interaction, adapter, match_id)
    match = Match.from_json(adapter, stored.state)
    over = stored.status == "finished"
    text = adapter.engine.record(match.engine, salt=match.salt, reveal=over)
    how = (
        f"check it with `python -m rules.{adapter.game} verify FILE`"
        if over
        else "the seed stays secret until the match ends; its commitment is in the header"
    )
    await interaction.response.send_message(
        f"Record of {adapter.title} match #{stored.id} ({how}).",
        file=discord.File(io.BytesIO(text.encode()), filename=f"{adapter.game}-{stored.id}.txt"),
        ephemeral=True,
    )


async def history(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
) -> None:
    """The match so far in words: where it stands, the latest events, and the whole
    play-by-play as a file (the thread keeps one message per round; this keeps it all)."""
    stored = await recorded_match(host, interaction, adapter, match_id)
    match = Match.from_json(adapter, stored.state)
    moves = await game_store.list_moves(host.bot.db, stored.id)
    lines = [f"{version}. {text}" for version, _, _, events in moves for text in events if text]
    where = (
        adapter.result_text(match)
        if adapter.engine.is_over(match.engine)
        else adapter.next_text(match)
    )
    latest = "\n".join(lines[-HISTORY_LINES:]) or "Nothing has happened yet."
    embed = discord.Embed(
        title=f"{adapter.title} match #{stored.id}: {len(moves)} moves",
        description=fit(f"**Now:** {where}\n\n**Latest:**\n{latest}", 4000),
    )
    embed.set_footer(text="The whole play-by-play is in the file; numbers are move numbers.")
    await interaction.response.send_message(
        embed=embed,
        file=discord.File(
            io.BytesIO("\n".join(lines).encode()),
            filename=f"{adapter.game}-{stored.id}-history.txt",
        ),
        ephemeral=True,
    )


async def recorded_match(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
) -> game_store.StoredGame:
    """A match with moves: the one asked for, if it is in this server, or the user's latest."""
    if match_id is None:
        stored = await game_store.latest_game_of(
            host.bot.db,
            game=adapter.game,
            user_id=interaction.user.id,
            statuses=("active", "finished"),
        )
        if stored is None:
            raise UserError(f"You have no {adapter.title} matches yet.")
    else:
        stored = await game_store.load_game(host.bot.db, match_id, game=adapter.game)
        if (
            stored is None
            or stored.guild_id != interaction.guild_id
            or stored.status in ("pending", "cancelled")
        ):
            raise UserError(
                f"There is no {adapter.title} match #{match_id} with moves in this server."
            )
    return stored


def table_rated(adapter: GameAdapter) -> bool:
    """Tables of more than two (Rollerball) take the multiplayer rating, the rest Glicko-2."""
    return adapter.engine.max_seats > 2


def system_name(adapter: GameAdapter) -> str:
    return "OpenSkill (Plackett-Luce)" if table_rated(adapter) else "Glicko-2"


async def seat_ratings(
    host: Core, adapter: GameAdapter, guild_id: int | None, players: Sequence[int]
) -> dict[int, str]:
    """Each person's rating in this server as every line shows it ("1523", "1500?"); the
    computer has none."""
    people = [user for user in players if user not in NOT_RATED]
    if guild_id is None or not people:
        return {}
    found = await ratings_store.ratings_of(
        host.bot.db,
        game=adapter.game,
        guild_id=guild_id,
        users=people,
        multiplayer=table_rated(adapter),
    )
    return {user: rating.shown for user, rating in found.items()}


def against_computer(players: Sequence[int]) -> bool:
    """A two-player match against the computer: never rated."""
    return len(players) == 2 and COMPUTER_ID in players


def rated_word(rated: bool, players: Sequence[int]) -> str:
    """What a challenge, a table or /games says of a match's rating: "rated", "casual", or
    unrated against the computer."""
    if against_computer(players):
        return "unrated: against the computer"
    return "rated" if rated else "casual"


def with_rating(name: str, user_id: int, shown_ratings: dict[int, str]) -> str:
    """A name (already shown as text) followed by the player's rating, when they have one."""
    rating = shown_ratings.get(user_id)
    return f"{name} · {rating}" if rating else name


async def leaderboard(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter, everywhere: bool
) -> None:
    """Rating, games, wins and trend of this server's best, one short line each, and the
    asker's own line when they are not among them; `everywhere` ranks them by their rating
    across every server."""
    if interaction.guild_id is None:
        raise UserError("Leaderboards belong to a server.")
    rows = await ratings_store.leaderboard(
        host.bot.db, game=adapter.game, guild_id=interaction.guild_id, everywhere=everywhere
    )

    def line(row: ratings_store.Ranked) -> str:
        return (
            f"<@{row.user_id}> **{row.shown}** {row.trend} · "
            f"{plural(row.played):game|games}, {plural(row.wins):win|wins}"
        )

    lines = [f"{rank}. {line(row)}" for rank, row in enumerate(rows, start=1)] or [
        "Nobody has finished a rated match here yet."
    ]
    if interaction.user.id not in {row.user_id for row in rows}:
        mine = await ratings_store.standing(
            host.bot.db,
            game=adapter.game,
            guild_id=interaction.guild_id,
            user_id=interaction.user.id,
            everywhere=everywhere,
        )
        if mine is not None:  # below the top: the asker's own line under it
            lines.append(f"…\nYou: {line(mine)}")
    levels = [
        f"{level}: {rating:.0f}"
        for level in adapter.engine.levels
        if (rating := adapter.engine.computer_rating(level)) is not None
    ]
    where = "across every server" if everywhere else "in this server"
    embed = discord.Embed(title=f"{adapter.title} leaderboard", description="\n".join(lines))
    if levels:
        embed.add_field(name="The computer's levels, for comparison", value=" · ".join(levels))
    embed.set_footer(
        text=f"{system_name(adapter)} ratings {where}; everyone starts at 1500. "
        f"? = provisional (under {ratings.PROVISIONAL_GAMES} rated games). "
        f"▲▼: the last {ratings_store.TREND_GAMES} rated games. Matches against the computer "
        "are not rated."
    )
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


async def rate(conn, adapter: GameAdapter, stored: game_store.StoredGame, match: Match) -> None:
    """A rated match moves its people's ratings, in this server and across servers, in the
    transaction that saves the last move (rules/ratings.py). Computer seats are left out: a
    two-player match against the computer is not rated, and the people of a table are rated
    by their places among themselves."""
    if not match.rated or stored.guild_id is None:
        return
    outcome = adapter.engine.outcome(match.engine)
    if len(outcome) != len(stored.players):
        return
    people = [seat for seat, user in enumerate(stored.players) if user not in NOT_RATED]
    if len(people) < 2 or against_computer(stored.players):
        return
    players = [stored.players[seat] for seat in people]
    results = [outcome[seat] for seat in people]
    if table_rated(adapter):
        await ratings_store.record_table(
            conn,
            game=adapter.game,
            guild_id=stored.guild_id,
            game_id=stored.id,
            players=players,
            results=results,
        )
    elif len(stored.players) == 2:
        await ratings_store.record_duel(
            conn,
            game=adapter.game,
            guild_id=stored.guild_id,
            game_id=stored.id,
            players=(players[0], players[1]),
            results=(results[0], results[1]),
        )
