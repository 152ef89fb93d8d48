"""The commands every hosted game has, written once: the host adds them to a game's command
group, so a game's cog declares only what is its own (how a match starts, its statistics).

A command's options are the same for every game; only the words differ (`MatchWords`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from host import moves, replays, results, starting, why
from host.base import core_of
from render.replay import replayable
from rules.lessons import lesson_of

if TYPE_CHECKING:
    from host.adapter import GameAdapter


@dataclass(frozen=True)
class MatchWords:
    """How a game names its matches and moves in the standard commands' descriptions."""

    match: str = "match"  # "game" for Rollerball
    move_example: str = "e.g. c4 N"
    move_help: str = "Your move, as the bot prints it"
    private: str | None = None  # the hand command's description (None: no hidden information)
    resign_help: str | None = None  # what resigning does in this game, if not ending the match
    history: bool = True


def match_commands(
    adapter: GameAdapter, words: MatchWords
) -> list[app_commands.Command[Any, ..., Any]]:
    """board, move, resign, record, leaderboard (and hand, history, replay, learn where the game
    has them)."""
    what = words.match

    async def board(interaction: discord.Interaction) -> None:
        await moves.board(core_of(interaction), interaction, adapter)

    async def move(interaction: discord.Interaction, move: app_commands.Range[str, 1, 60]) -> None:
        await moves.move_text(core_of(interaction), interaction, adapter, move)

    async def resign(interaction: discord.Interaction) -> None:
        await moves.resign(core_of(interaction), interaction, adapter)

    async def record(interaction: discord.Interaction, match_id: int | None = None) -> None:
        await results.record(core_of(interaction), interaction, adapter, match_id)

    async def history(interaction: discord.Interaction, match_id: int | None = None) -> None:
        await results.history(core_of(interaction), interaction, adapter, match_id)

    async def replay(
        interaction: discord.Interaction, match: app_commands.Range[int, 1] | None = None
    ) -> None:
        await replays.command(core_of(interaction), interaction, adapter, match)

    async def explain(
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1] | None = None,
        move: app_commands.Range[int, 0] | None = None,
    ) -> None:
        await why.command(core_of(interaction), interaction, adapter, match, move)

    async def leaderboard(interaction: discord.Interaction, everywhere: bool = False) -> None:
        await results.leaderboard(core_of(interaction), interaction, adapter, everywhere)

    async def hand(interaction: discord.Interaction) -> None:
        await moves.private_view_here(core_of(interaction), interaction, adapter)

    async def learn(interaction: discord.Interaction) -> None:
        await starting.learn(core_of(interaction), interaction, adapter)

    number = f"A {what} number (default: your latest)"
    app_commands.describe(move=words.move_help[:100])(move)
    app_commands.describe(match_id=number)(record)
    app_commands.describe(match_id=number)(history)
    app_commands.describe(match=f"A finished {what}'s number (default: your latest)")(replay)
    app_commands.describe(
        match=f"A {what}'s number (default: your latest)",
        move="A step's number, as its replay numbers them (0: the set-up; default: the latest)",
    )(explain)
    app_commands.describe(
        everywhere="Rank this server's players by their rating across every server (default: here)"
    )(leaderboard)
    made = [
        app_commands.Command(
            name="board",
            description=f"A fresh live card of the {what} here, at the bottom of its thread",
            callback=board,
        ),
        app_commands.Command(
            name="move", description=f"Type your move, {words.move_example}", callback=move
        ),
        app_commands.Command(
            name="resign",
            description=(
                words.resign_help
                or f"Resign your {what} here (or withdraw a challenge, leave a table)"
            )[:100],
            callback=resign,
        ),
        app_commands.Command(
            name="record", description=f"The game record of a {what}, as a file", callback=record
        ),
    ]
    if words.history:
        made.append(
            app_commands.Command(
                name="history",
                description=f"A {what}'s play-by-play (default: your latest)",
                callback=history,
            )
        )
    if replayable(adapter.game):
        made.append(
            app_commands.Command(
                name="replay",
                description=f"Watch a finished {what} again step by step, verified, privately",
                callback=replay,
            )
        )
    if why.explains(adapter.game):  # its events name the rulings of its rules page
        made.append(
            app_commands.Command(
                name="why",
                description=f"The rules behind a {what}'s latest moves (or one move), privately",
                callback=explain,
            )
        )
    made.append(
        app_commands.Command(
            name="leaderboard",
            description=f"{adapter.title}'s ratings: rating, games, wins, trend",
            callback=leaderboard,
        )
    )
    if words.private:
        made.append(app_commands.Command(name="hand", description=words.private, callback=hand))
    if lesson_of(adapter.game) is not None:  # a game with a lesson (data/lessons/GAME.json)
        made.append(
            app_commands.Command(
                name="learn",
                description=f"Learn {adapter.title} by playing: a guided match of a few minutes",
                callback=learn,
            )
        )
    return made


def add_match_commands(group: app_commands.Group, adapter: GameAdapter, words: MatchWords) -> None:
    """Add the standard commands to `group`, and tell the adapter where they are (the host's
    texts name them: "`/rollerball2 match board` posts it again")."""
    for command in match_commands(adapter, words):
        group.add_command(command)
    adapter.match_group = group.qualified_name
