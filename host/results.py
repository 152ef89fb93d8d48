"""What a match leaves behind: its record (the seed only once it is over, only in its own
server), its play-by-play, and the players' Elo ratings with the leaderboard."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from db import games as game_store
from db import ratings as ratings_store
from host.adapter import GameAdapter
from host.match import COMPUTER_ID, Match
from ui import UserError, fit
from ui.formats import plural

NO_MENTIONS = discord.AllowedMentions.none()
HISTORY_LINES = 15  # the latest events /GAME history shows in its message

if TYPE_CHECKING:
    from host.service import MatchHost


async def record(
    host: MatchHost, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
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
    host: MatchHost, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
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
    host: MatchHost, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
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


async def leaderboard(
    host: MatchHost, interaction: discord.Interaction, adapter: GameAdapter
) -> None:
    if interaction.guild_id is None:
        raise UserError("Leaderboards belong to a server.")
    rows = await ratings_store.leaderboard(
        host.bot.db, game=adapter.game, guild_id=interaction.guild_id
    )
    lines = [
        f"{rank}. <@{row.user_id}>: **{row.rating:.0f}** ({plural(row.played):rated match|rated matches})"
        for rank, row in enumerate(rows, start=1)
    ] or ["Nobody has finished a rated match here yet."]
    levels = [
        f"{level}: {rating:.0f}"
        for level in adapter.engine.levels
        if (rating := adapter.engine.computer_rating(level)) is not None
    ]
    embed = discord.Embed(title=f"{adapter.title} leaderboard", description="\n".join(lines))
    if levels:
        embed.add_field(name="The computer, for comparison", value=" · ".join(levels))
    embed.set_footer(text="Elo ratings in this server; everyone starts at 1500.")
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


async def rate(conn, adapter: GameAdapter, stored: game_store.StoredGame, match: Match) -> None:
    """Two-seat matches move the players' Elo ratings in this server, in the transaction
    that saves the last move; a computer opponent counts at its level's rating."""
    if len(stored.players) != 2 or stored.guild_id is None:
        return
    outcome = adapter.engine.outcome(match.engine)
    for seat, other in ((0, 1), (1, 0)):
        player, opponent = stored.players[seat], stored.players[other]
        computer = opponent == COMPUTER_ID
        if player == COMPUTER_ID or (seat == 1 and not computer):
            continue  # the computer has no rating row; one update covers two people
        against = (
            adapter.engine.computer_rating(match.computers.get(other, "")) if computer else None
        )
        if computer and against is None:
            continue
        await ratings_store.record_game(
            conn,
            game=adapter.game,
            guild_id=stored.guild_id,
            player=player,
            opponent=None if computer else opponent,
            result=outcome[seat],
            opponent_rating=against,
        )
