"""How a match starts, for every game: the commands that start one (a challenge, a match
against the computer, a lesson, a rematch), the match a game starts with the seats it says,
and what a league's deadline does to matches (plays one out, moves one, closes a challenge).
Answering a challenge and opening the match's thread are host/opening.py's.

- `challenge`, `play_computer`, `learn`, `rematch`: the commands and the button that start a
  match between people, against the computer or as a lesson.
- `start_match`: a match with the seats the game says (one person alone, two people in a given
  order, computers), started at once in a thread, or posted as a challenge the given seat
  answers (Accept/Decline as for `challenge`). The game may add its own rows in the transaction
  that creates the match (`on_create`; it may refuse by raising a PlayerError).
- `play_out`: a match the computer plays alone from the first move to the last (a deadline's
  default result): made, played and stored finished with its statistics in one transaction,
  so it happens once or not at all; nothing is posted.
- `force_action`: the system makes a move in an open match (a deadline finishing it), under
  the match's lock like any move, saved and posted with a note saying why.
- `expire_challenge`: a challenge nobody answered before a deadline is closed.

Like lobby.py, panels.py and standins.py, these are written once for every game and use the
host's own steps (create, open the thread, save, post).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import settings as settings_store
from host import clocks, lessons, results
from host.adapter import Step
from host.components import AnswerButton
from host.match import (
    COMPUTER_ID,
    DEFAULT_FORFEIT_MINUTES,
    DEFAULT_REMIND_MINUTES,
    Match,
    dice_line,
    pair_key,
    seat_of_clicker,
)
from host.opening import OnCreate, create, match_place, open_play, require_match_permissions
from ui import UserError, channel_by_id, display_name, fit
from ui.items import view_of
from ui.replies import interaction_expired

if TYPE_CHECKING:
    from db.database import Connection
    from host.adapter import GameAdapter
    from host.base import Core

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


async def start_match(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    options: dict[str, Any],
    *,
    players: list[int],
    names: list[str],
    describe: str,
    challenged_seat: int | None = None,
    computers: dict[int, str] | None = None,
    auto: set[int] | None = None,
    remind_minutes: int = DEFAULT_REMIND_MINUTES,
    forfeit_minutes: int = DEFAULT_FORFEIT_MINUTES,
    takeover_minutes: int | None = None,
    pair_key: str | None = None,
    on_create: OnCreate | None = None,
    seed: int | None = None,
    lesson: dict[str, Any] | None = None,
    rated: bool = True,
) -> int:
    """Create the match (the seed drawn and its commitment published now) and either post the
    challenge for `players[challenged_seat]` or start at once in a thread. Returns its id.
    `auto`: the seats that leave their routine actions to the bot from the start (the game's
    `auto_label`; each may take them back on the card). A lesson (host/lessons.py) brings its
    own `seed` and progress, and its learner presses every roll the lesson teaches. `rated`:
    rated or casual, as the challenger chose (a match against the computer is never rated: host/results.py `rate`)."""
    guild_id, channel_id, elsewhere = await match_place(host, interaction, adapter)
    terms = await clocks.match_terms(
        host.bot.db,
        interaction,
        adapter.game,
        seats=range(len(players)),
        remind_minutes=remind_minutes,
        forfeit_minutes=forfeit_minutes,
        takeover_minutes=takeover_minutes,
    )
    match, events = host.new_match(
        adapter,
        options,
        names,
        computers=dict(computers or {}),
        auto=set()
        if lesson is not None
        else set(auto or ()) | await rolled_for(host, adapter, players),
        seed=seed,
        lesson=lesson,
        challenged_seat=challenged_seat if challenged_seat is not None else 1,
        rated=rated,
        **terms.fields(),
    )
    pending = challenged_seat is not None
    game_id = await create(
        host,
        interaction,
        adapter,
        match,
        players,
        status="pending" if pending else "active",
        key=pair_key,
        channel_id=channel_id,
        also=on_create,
    )
    rating_of = await results.seat_ratings(host, adapter, guild_id, players)
    labels = " vs ".join(
        results.with_rating(adapter.seat_label(match, seat), players[seat], rating_of)
        for seat in range(len(players))
    )
    describe = f"{describe}; {results.rated_word(rated, players)}"
    if pending:
        assert challenged_seat is not None
        challenged = players[challenged_seat]
        challenge = {
            "content": fit(
                f"<@{challenged}>, {interaction.user.mention} challenges you to {adapter.title} "
                f"(match #{game_id}: {describe}). {labels}.\n"
                + dice_line(match.commitment, adapter.command("record"))
            ),
            "view": view_of([AnswerButton(game_id, "accept"), AnswerButton(game_id, "decline")]),
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(challenged)]),
        }
        if elsewhere is None:
            try:
                await interaction.response.send_message(**challenge)
            except discord.HTTPException as error:
                if not interaction_expired(error):
                    raise
                too_late(interaction, game_id)
                await (await channel_by_id(host.bot, channel_id)).send(**challenge)
        else:
            posted = await elsewhere.send(**challenge)
            await _point_there(interaction, adapter, elsewhere, game_id, posted)
        return game_id
    people = [seat for seat, user in enumerate(players) if user != COMPUTER_ID]
    if len(people) == 1 and len(players) == 2 and match.computers:
        level = next(iter(match.computers.values()))
        starts = f"takes on the computer ({level}): {adapter.title} match #{game_id}"
    else:
        starts = f"starts {adapter.title} match #{game_id}"
    opening = fit(
        f"{interaction.user.mention} {starts} ({describe}): {labels}.\n"
        + dice_line(match.commitment, adapter.command("record"))
    )
    if elsewhere is None:
        try:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(opening, allowed_mentions=NO_MENTIONS)
            message = await interaction.original_response()
        except discord.HTTPException as error:
            if not interaction_expired(error):
                raise
            too_late(interaction, game_id)
            channel = await channel_by_id(host.bot, channel_id)
            message = await channel.send(opening, allowed_mentions=NO_MENTIONS)
    else:
        message = await elsewhere.send(opening, allowed_mentions=NO_MENTIONS)
        await _point_there(interaction, adapter, elsewhere, game_id, message)
    stored = await game_store.load_game(host.bot.db, game_id)
    assert stored is not None
    await open_play(host, adapter, stored, match, events, message)
    return game_id


def too_late(interaction: discord.Interaction, game_id: int) -> None:
    """The command that made match `game_id` was answered after Discord's 3 s (its player saw
    "The application did not respond"): the match is stored, so it is posted in the channel all
    the same, never left stored with nothing to show or play it (its players, a pair or a
    team, busy with a match nobody can see)."""
    log.warning(
        "%s match %s: its command expired before it was answered; posting it in the channel",
        interaction.command.qualified_name if interaction.command else "a",
        game_id,
    )


async def rolled_for(host: Core, adapter: GameAdapter, players: list[int]) -> set[int]:
    """The seats whose rolls with no choice in them the bot makes as their turn begins: in a
    game that rolls for its players (`rolls_for_players`), every person's but those who press
    Roll themselves (/settings me). Read when the match is made: a match keeps its terms."""
    if not adapter.rolls_for_players:
        return set()
    people = [user for user in players if user != COMPUTER_ID]
    settings = await settings_store.users_settings(host.bot.db, people)
    return {
        seat
        for seat, user in enumerate(players)
        if user != COMPUTER_ID and not settings[user].roll_myself
    }


async def _point_there(
    interaction: discord.Interaction,
    adapter: GameAdapter,
    channel: discord.TextChannel,
    game_id: int,
    message: discord.Message,
) -> None:
    await interaction.response.send_message(
        f"This server plays new matches in {channel.mention}: {adapter.title} match #{game_id} "
        f"is there: {message.jump_url}",
        ephemeral=True,
    )


async def play_out(
    host: Core,
    adapter: GameAdapter,
    options: dict[str, Any],
    *,
    guild_id: int,
    channel_id: int,
    names: list[str],
    seats: int = 1,
    on_create: OnCreate | None = None,
) -> tuple[int, Match]:
    """A match the computer plays alone, stored finished (with the game's on_finished) in the
    transaction that creates it. Returns its id and the finished match."""
    level = adapter.engine.levels[0]
    match, _ = host.new_match(
        adapter, options, names, computers={seat: level for seat in range(seats)}
    )
    rng = random.Random(f"{adapter.game}:play-out:{match.commitment}")

    def run() -> Any:
        state = match.engine
        while not adapter.engine.is_over(state):
            acting = sorted(adapter.engine.actors(state))
            if not acting:
                raise RuntimeError("nobody may act in a match the computer plays alone")
            action = adapter.engine.computer_action(state, acting[0], level, rng)
            state, _ = adapter.engine.apply(state, acting[0], action)
        return state

    match.engine = await asyncio.to_thread(run)
    state_json = match.to_json(adapter)
    players = [COMPUTER_ID] * seats

    async def also(conn: Connection, game_id: int) -> None:
        if on_create is not None:
            await on_create(conn, game_id)
        stored = game_store.StoredGame(
            id=game_id,
            game=adapter.game,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            status="finished",
            state=state_json,
            version=0,
            players=tuple(players),
        )
        await adapter.on_finished(conn, stored, match)

    game_id = await game_store.create_game(
        host.bot.db,
        game=adapter.game,
        guild_id=guild_id,
        channel_id=channel_id,
        players=players,
        state=state_json,
        status="finished",
        also=also,
    )
    return game_id, match


async def force_action(
    host: Core,
    game_id: int,
    choose: Callable[[GameAdapter, Match], tuple[int, Any]],
    *,
    why: str,
) -> bool:
    """The system's move in an open match: `choose` gives (seat, action); saved and posted
    like a player's, after a message saying `why`. False if the match is not active."""
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.status != "active" or stored.game not in host.adapters:
            return False
        adapter = host.adapters[stored.game]
        match = Match.from_json(adapter, stored.state)
        seat, action = choose(adapter, match)
        before = match.engine
        match.engine, events = await asyncio.to_thread(adapter.engine.apply, before, seat, action)
        steps = [Step(before, events, match.engine)]
        steps += await host.computer_steps(adapter, match, stored)
        stored = await host.save(
            adapter, stored, match, COMPUTER_ID, adapter.engine.format_action(action), steps
        )
        try:
            channel = await host.channel_of(stored)
            await channel.send(fit(why), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not say why match %s was moved: %s", game_id, error)
        await host.post(adapter, stored, match, steps)
    return True


async def expire_challenge(host: Core, game_id: int, why: str) -> bool:
    """Close a challenge nobody answered (a deadline passed). False if it was answered."""
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.status != "pending":
            return False
        await game_store.save_move(
            host.bot.db,
            stored,
            state=stored.state,
            actor_id=COMPUTER_ID,
            action="expired",
            events=[why],
            status="cancelled",
        )
    return True


# ---- the commands that start a match between people or against the computer ----------------


async def challenge(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    opponent: discord.Member | discord.User,
    options: dict[str, Any],
    *,
    describe: str,
    remind_minutes: int = DEFAULT_REMIND_MINUTES,
    forfeit_minutes: int = DEFAULT_FORFEIT_MINUTES,
    rated: bool = True,
) -> None:
    """Post a challenge with Accept/Decline; the match is created now (pending) so its
    commitment is published before anyone has moved. The server's defaults (/settings
    server) fill in what the challenger did not type; `rated` or casual, as chosen."""
    if opponent.id == interaction.user.id:
        raise UserError(
            f"You can't challenge yourself. Try `/{adapter.game} play-computer`."
            if adapter.engine.levels
            else "You can't challenge yourself."
        )
    if opponent.bot:
        raise UserError(f"Bots can't play {adapter.title}.")
    if forfeit_minutes <= remind_minutes:
        raise UserError(
            "forfeit_hours must be longer than remind_hours: a player is reminded first, "
            "and only later may their opponent claim the match."
        )
    players = [interaction.user.id, opponent.id]
    await start_match(
        host,
        interaction,
        adapter,
        options,
        players=players,
        names=[display_name(interaction.user), display_name(opponent)],
        describe=describe,
        challenged_seat=1,
        remind_minutes=remind_minutes,
        forfeit_minutes=forfeit_minutes,
        pair_key=pair_key(players),
        rated=rated,
    )


async def play_computer(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    level: str,
    options: dict[str, Any],
    *,
    describe: str,
    remind_minutes: int = DEFAULT_REMIND_MINUTES,
) -> None:
    """Start a match at once against the computer (seat 1)."""
    user = interaction.user
    players = [user.id, COMPUTER_ID]
    await start_match(
        host,
        interaction,
        adapter,
        options,
        players=players,
        names=[display_name(user), f"Computer ({level})"],
        describe=describe,
        computers={1: level},
        remind_minutes=remind_minutes,
        pair_key=pair_key(players),  # one open match against the computer per channel
    )


async def learn(host: Core, interaction: discord.Interaction, adapter: GameAdapter) -> None:
    """`/GAME learn`: the game's lesson (host/lessons.py) on a live card against its tutor,
    from the lesson's seed and options; one open lesson per player and channel."""
    script = lessons.lesson(adapter)
    if script is None:
        raise UserError(f"{adapter.title} has no lesson yet: `/help` has its quick start.")
    user = interaction.user
    tutored = script.seats > 1  # else the learner alone (a game's solo mode)
    players = [user.id, COMPUTER_ID] if tutored else [user.id]
    await start_match(
        host,
        interaction,
        adapter,
        dict(script.options),
        players=players,
        names=[display_name(user), lessons.TUTOR_NAME][: len(players)],
        describe=f"a lesson, {script.title}",
        computers={1: lessons.TUTOR_LEVEL} if tutored else {},
        pair_key=f"{pair_key(players)}:lesson",
        seed=script.seed,
        lesson=lessons.start(),
    )


async def rematch(host: Core, interaction: discord.Interaction, game_id: int) -> None:
    """The same settings again with the seats swapped, from the final message's button."""
    adapter, stored = await host.hosted(game_id)
    seat = seat_of_clicker(stored, interaction)
    if seat is None:
        raise UserError(f"Only the players of match #{game_id} can ask for its rematch.")
    if stored.status != "finished":
        raise UserError("A rematch is offered once the match is over.")
    require_match_permissions(interaction)
    old = Match.from_json(adapter, stored.state)
    players = list(reversed(stored.players))
    names = list(reversed(old.names))
    computers = {len(players) - 1 - s: level for s, level in old.computers.items()}
    options = adapter.engine.rematch_options(old.engine)
    if old.lesson is not None:  # after a lesson: a real match, the computer in the tutor's seat
        players, names, computers, options = lessons.real_match(adapter, stored.players, old.names)
    match, events = host.new_match(
        adapter,
        options,
        names,
        computers=computers,
        auto=await rolled_for(host, adapter, players),
        remind_minutes=old.remind_minutes,
        forfeit_minutes=old.forfeit_minutes,
        challenged_seat=0 if players[0] != interaction.user.id else 1,
        rated=old.rated,  # the same settings: rated or casual as the first
    )
    # The rematch is announced where the first match was made, so it gets its own thread.
    game_id = await create(
        host,
        interaction,
        adapter,
        match,
        players,
        status="active" if computers or len(players) == 1 else "pending",
        key=pair_key(players),
        channel_id=stored.channel_id,
    )
    channel = await channel_by_id(host.bot, stored.channel_id)
    await interaction.response.send_message(
        f"{'A real match' if old.lesson is not None else 'Rematch'}: {adapter.title} match "
        f"#{game_id}, in <#{stored.channel_id}>.",
        ephemeral=True,
    )
    if computers or len(players) == 1:
        against = (
            f"{adapter.seat_label(match, 0)} vs {adapter.seat_label(match, 1)}"
            if len(players) > 1
            else adapter.seat_label(match, 0)
        )
        message = await channel.send(
            f"{interaction.user.mention} plays {'the computer' if computers else 'alone'}"
            f"{' after the lesson' if old.lesson is not None else ' again'}: {adapter.title} match "
            f"#{game_id}, {against}.\n" + dice_line(match.commitment, adapter.command("record")),
            allowed_mentions=NO_MENTIONS,
        )
        created = await game_store.load_game(host.bot.db, game_id)
        assert created is not None
        await open_play(host, adapter, created, match, events, message)
        return
    challenged = players[match.challenged_seat]
    await channel.send(
        f"<@{challenged}>, {interaction.user.mention} asks for a rematch of match "
        f"#{stored.id} with the seats swapped (match #{game_id}: "
        f"{adapter.seat_label(match, 0)} vs {adapter.seat_label(match, 1)}).\n"
        + dice_line(match.commitment, adapter.command("record")),
        view=view_of([AnswerButton(game_id, "accept"), AnswerButton(game_id, "decline")]),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(challenged)]),
    )
