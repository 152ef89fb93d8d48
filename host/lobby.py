"""A lobby: a pending match that players join before it starts (games for more than two).

`/GAME new` opens a table with Join / Leave / Add computer / Start buttons. The seats are the
match's rows in game_players, rewritten in the lobby's versioned saves under the match's lock,
so two clicks at once can never seat more players than the table has. The seed is drawn and its
commitment published when the table opens; the engine's state is made at Start, when the number
of players is known. The creator's pair_key (`lobby:<user id>`) gives them one open table per
channel: the database's unique index refuses a second one, however many clicks arrive at once.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import lobby as lobby_store
from host import clocks, results
from host.components import LobbyButton
from host.match import COMPUTER_ID, DEFAULT_FORFEIT_MINUTES, Match, dice_line
from host.opening import match_place, open_play, require_match_permissions
from rules.clocks import seated as seated_clock
from rules.records import commitment
from ui import UserError, display_name, fit, shown
from ui.formats import plural
from ui.items import view_of

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.base import Core

NO_MENTIONS = discord.AllowedMentions.none()
LOBBY_ACTIONS = ("join", "leave", "computer", "start")


@dataclass
class Lobby:
    """What a table waiting for players stores (the games row's state while pending)."""

    creator: int
    seats: int  # how many players the table takes
    options: dict[str, Any]  # the game's options, given to adapter.engine.new_state at Start
    describe: str  # the options in words, e.g. "later edition, first to 5 victory points"
    names: list[str]  # display names by seat (the top-level key /privacy rewrites)
    seed: int  # secret until the match ends
    salt: str
    commitment: str
    remind_minutes: int
    takeover_minutes: int | None
    computers: dict[int, str] = field(default_factory=dict)  # seat -> level
    # The server's defaults when the table opened (host/clocks.py): the forfeit time, what
    # happens when time runs out, and the clock's settings (None: the game's own).
    forfeit_minutes: int | None = None
    on_timeout: str | None = None
    clock: dict[str, Any] | None = None
    rated: bool = True  # rated or casual, as the opener chose (a table kept before: rated)

    def to_json(self) -> str:
        data = asdict(self)
        data["computers"] = {str(seat): level for seat, level in self.computers.items()}
        return json.dumps({"lobby": True, **data}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Lobby:
        data = json.loads(text)
        data.pop("lobby")
        data["computers"] = {int(seat): level for seat, level in data["computers"].items()}
        return cls(**data)


def is_lobby(state: str) -> bool:
    """Is this stored state a table still waiting for players?"""
    try:
        return json.loads(state).get("lobby") is True
    except (ValueError, AttributeError):
        return False


def lobby_key(creator_id: int) -> str:
    return f"lobby:{creator_id}"


def lobby_view(game_id: int, lobby: Lobby) -> discord.ui.View:
    """The table's buttons; a full table offers no seat (Join and Add computer are disabled)."""
    full = len(lobby.names) >= lobby.seats
    return view_of(
        [
            LobbyButton(game_id, what, disabled=full and what in ("join", "computer"))
            for what in LOBBY_ACTIONS
        ]
    )


async def table_text(
    host: Core,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    lobby: Lobby,
    players: list[int],
    note: str = "",
) -> str:
    """The table as it is now, each person with their rating in this server."""
    rating_of = await results.seat_ratings(host, adapter, stored.guild_id, players)
    return lobby_text(adapter, stored.id, lobby, players, rating_of, note)


def lobby_text(
    adapter: GameAdapter,
    game_id: int,
    lobby: Lobby,
    players: list[int],
    rating_of: dict[int, str],
    note: str = "",
) -> str:
    taken = len(lobby.names)
    seats = "\n".join(
        f"{seat + 1}. {results.with_rating(shown(name), user, rating_of)}"
        for seat, (name, user) in enumerate(zip(lobby.names, players, strict=False))
    )
    free = lobby.seats - taken
    host = shown(lobby.names[0])
    lines = [
        f"**{adapter.title} table #{game_id}** ({lobby.describe}; "
        f"{results.rated_word(lobby.rated, players)}), opened by {host}. "
        f"{taken} of {lobby.seats} seats taken:",
        seats,
        (f"{plural(free):seat} free: press Join to play. " if free else "")
        + f"{host} starts the game once {adapter.engine.min_seats} or more are seated "
        "(Add computer fills a seat with a computer player).",
        dice_line(lobby.commitment, adapter.command("record")),
    ]
    if note:
        lines.insert(0, note)
    return fit("\n".join(lines))


async def open_lobby(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    options: dict[str, Any],
    *,
    seats: int,
    describe: str,
    remind_minutes: int,
    takeover_minutes: int | None,
    rated: bool = True,
) -> None:
    """Open a table with the caller in seat 1 and post it with its buttons."""
    guild_id, channel_id, elsewhere = await match_place(host, interaction, adapter)
    terms = await clocks.match_terms(
        host.bot.db,
        interaction,
        adapter.game,
        seats=range(seats),
        remind_minutes=remind_minutes,
        forfeit_minutes=max(DEFAULT_FORFEIT_MINUTES, remind_minutes + 60),
        takeover_minutes=takeover_minutes,
    )
    remind_minutes, takeover_minutes = terms.remind_minutes, terms.takeover_minutes
    if not adapter.engine.min_seats <= seats <= adapter.engine.max_seats:
        raise UserError(
            f"{adapter.title} is for {adapter.engine.min_seats} to {adapter.engine.max_seats} players."
        )
    if takeover_minutes is not None and takeover_minutes <= remind_minutes:
        raise UserError(
            "timeout_hours must be longer than remind_hours: a player is reminded first, and "
            "only later does a computer take over their seat."
        )
    user = interaction.user
    seed = host.bot.seed_source.randrange(2**31)
    salt = secrets.token_hex(16)
    lobby = Lobby(
        creator=user.id,
        seats=seats,
        options=options,
        describe=describe,
        names=[display_name(user)],
        seed=seed,
        salt=salt,
        commitment=commitment(adapter.game, seed, salt),
        remind_minutes=remind_minutes,
        takeover_minutes=takeover_minutes,
        forfeit_minutes=terms.forfeit_minutes,
        on_timeout=terms.on_timeout,
        clock=terms.clock,
        rated=rated,
    )
    key = lobby_key(user.id)
    try:
        game_id = await game_store.create_game(
            host.bot.db,
            game=adapter.game,
            guild_id=guild_id,
            channel_id=channel_id,
            players=[user.id],
            state=lobby.to_json(),
            status="pending",
            pair_key=key,
        )
    except game_store.DuplicateGameError:
        existing = await game_store.open_game_with_pair(
            host.bot.db, game=adapter.game, channel_id=channel_id, pair_key=key
        )
        what = (
            "a table waiting for players"
            if existing is None or existing.status == "pending"
            else "a game being played"
        )
        number = f" #{existing.id}" if existing else ""
        raise UserError(
            f"You already have {adapter.title} table{number} open in <#{channel_id}> ({what}). "
            f"Start it, or close it with its Leave button or `{adapter.command('resign')}`, before "
            "opening another."
        ) from None
    rating_of = await results.seat_ratings(host, adapter, guild_id, [user.id])
    text = lobby_text(adapter, game_id, lobby, [user.id], rating_of)
    if elsewhere is not None:
        message = await elsewhere.send(
            text,
            view=lobby_view(game_id, lobby),
            allowed_mentions=NO_MENTIONS,
        )
        await interaction.response.send_message(
            f"This server plays new matches in {elsewhere.mention}: your {adapter.title} table "
            f"#{game_id} is open there: {message.jump_url}",
            ephemeral=True,
        )
        return
    await interaction.response.send_message(
        text, view=lobby_view(game_id, lobby), allowed_mentions=NO_MENTIONS
    )


async def press(host: Core, interaction: discord.Interaction, game_id: int, what: str) -> None:
    """A lobby button: change the table (or start the game) and show the table as it is now."""
    async with host.bot.game_locks(game_id):
        adapter, stored, lobby = await _load(host, game_id)
        if what == "start":
            await _start(host, interaction, adapter, stored, lobby)
            return
        note, players = await _change(host, interaction.user, adapter, stored, lobby, what)
        if players is None:
            await interaction.response.edit_message(content=note, view=None)
        else:
            await interaction.response.edit_message(
                content=await table_text(host, adapter, stored, lobby, players),
                view=lobby_view(game_id, lobby),
            )


async def leave_by_command(host: Core, interaction: discord.Interaction, game_id: int) -> None:
    """`/GAME resign` at a table that has not started: leave it (its creator closes it)."""
    async with host.bot.game_locks(game_id):
        adapter, stored, lobby = await _load(host, game_id)
        note, players = await _change(host, interaction.user, adapter, stored, lobby, "leave")
        if players is None:
            await interaction.response.send_message(note)
        else:
            await interaction.response.send_message(
                await table_text(host, adapter, stored, lobby, players, note),
                view=lobby_view(game_id, lobby),
                allowed_mentions=NO_MENTIONS,
            )


async def _load(host: Core, game_id: int) -> tuple[GameAdapter, game_store.StoredGame, Lobby]:
    stored = await game_store.load_game(host.bot.db, game_id)
    if stored is None or stored.game not in host.adapters:
        raise UserError("That table no longer exists.")
    adapter = host.adapters[stored.game]
    if stored.status == "cancelled":
        raise UserError(f"{adapter.title} table #{game_id} was closed.")
    if stored.status != "pending" or not is_lobby(stored.state):
        where = "over" if stored.status == "finished" else "being played in its thread"
        raise UserError(
            f"{adapter.title} game #{game_id} has already started (it is {where}): nobody can "
            f"join or leave it now. `/{adapter.game} {adapter.new_command}` opens a new table."
        )
    return adapter, stored, Lobby.from_json(stored.state)


async def _change(
    host: Core,
    user: discord.abc.User,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    lobby: Lobby,
    what: str,
) -> tuple[str, list[int] | None]:
    """Join, leave or add a computer, saved with the seats; (what happened, the players now,
    None when the table was closed)."""
    players = list(stored.players)
    title = f"{adapter.title} table #{stored.id}"
    if what == "join":
        if user.id in players:
            raise UserError(f"You're already at {title}.")
        _refuse_if_full(adapter, lobby, players)
        players.append(user.id)
        lobby.names.append(display_name(user))
        note = f"{shown(display_name(user))} joins {title}."
    elif what == "computer":
        if user.id != lobby.creator:
            raise UserError(
                f"Only {shown(lobby.names[0])}, who opened {title}, can add computer players."
            )
        _refuse_if_full(adapter, lobby, players)
        level = adapter.engine.levels[0]
        number = sum(user_id == COMPUTER_ID for user_id in players) + 1
        lobby.computers[len(players)] = level
        players.append(COMPUTER_ID)
        lobby.names.append(f"Computer {number}")
        note = f"A computer player ({level}) takes a seat at {title}."
    elif user.id not in players:
        raise UserError(f"You're not at {title}.")
    elif user.id == lobby.creator:
        note = f"{title} was closed by {shown(lobby.names[0])}, who opened it."
        await game_store.save_move(
            host.bot.db,
            stored,
            state=stored.state,
            actor_id=user.id,
            action="closed",
            events=[note],
            status="cancelled",
        )
        return note, None
    else:
        seat = players.index(user.id)
        del players[seat]
        del lobby.names[seat]
        lobby.computers = {
            (s if s < seat else s - 1): level for s, level in lobby.computers.items() if s != seat
        }
        note = f"{shown(display_name(user))} leaves {title}."

    async def seats(conn):
        await lobby_store.replace_seats(conn, stored.id, players)

    await game_store.save_move(
        host.bot.db,
        stored,
        state=lobby.to_json(),
        actor_id=user.id,
        action=what,
        events=[note],
        also=seats,
    )
    return note, players


def _refuse_if_full(adapter: GameAdapter, lobby: Lobby, players: list[int]) -> None:
    if len(players) < lobby.seats:
        return
    most = (
        f" {adapter.title} is for at most {adapter.engine.max_seats} players."
        if lobby.seats >= adapter.engine.max_seats
        else ""
    )
    raise UserError(f"This table is full: {len(players)} of {lobby.seats} seats are taken.{most}")


async def _start(
    host: Core,
    interaction: discord.Interaction,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    lobby: Lobby,
) -> None:
    """Deal: the engine's state from the seed drawn at the opening, the thread, the first turn."""
    if interaction.user.id != lobby.creator:
        raise UserError(f"Only {shown(lobby.names[0])}, who opened the table, can start the game.")
    players = list(stored.players)
    if len(players) < adapter.engine.min_seats:
        raise UserError(
            f"At least {adapter.engine.min_seats} players are needed: wait for someone to join, "
            "or press Add computer."
        )
    require_match_permissions(interaction)
    options = {
        **lobby.options,
        "players": len(players),
        "human_seats": [seat for seat, user in enumerate(players) if user != COMPUTER_ID],
    }
    state, events = adapter.engine.new_state(
        lobby.seed, options
    )  # a PlayerError if options don't fit
    match = Match(
        engine=state,
        names=list(lobby.names),
        salt=lobby.salt,
        commitment=lobby.commitment,
        computers=dict(lobby.computers),
        remind_minutes=lobby.remind_minutes,
        forfeit_minutes=lobby.forfeit_minutes
        or max(DEFAULT_FORFEIT_MINUTES, lobby.remind_minutes + 60),
        takeover_minutes=lobby.takeover_minutes,
        on_timeout=lobby.on_timeout,
        clock=seated_clock(lobby.clock, len(players)),
        rated=lobby.rated,
    )
    stored = await game_store.save_move(
        host.bot.db,
        stored,
        state=match.to_json(adapter),
        actor_id=interaction.user.id,
        action="start",
        events=[event.text for event in events],
        status="active",
        timers=host.timers_for(stored, match, stored.version + 1),
    )
    seated = ", ".join(adapter.seat_label(match, seat) for seat in range(len(players)))
    await interaction.response.edit_message(
        content=fit(
            f"{adapter.title} game #{stored.id} ({lobby.describe}) has started: {seated}. "
            "Play in the thread below.\n" + dice_line(match.commitment, adapter.command("record"))
        ),
        view=None,
        allowed_mentions=NO_MENTIONS,
    )
    await open_play(host, adapter, stored, match, events, interaction.message, locked=True)
