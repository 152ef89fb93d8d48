"""The match host (`bot.matches`): everything that runs a turn-based match in a channel, for
every game, written once.

Like Red-DiscordBot's TriviaSession it is the one place a running match is handled, but the
match itself lives in the database, not in memory: every click takes the match's lock, loads it,
checks the clicker may act with a current button, applies the action with the engine (and the
computer seats' replies), saves state + events + timers in one versioned transaction, and posts
the next turn in the match's thread. A game's cog only supplies a GameAdapter.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from db import games as game_store
from db import timers as timer_store
from db.database import CommitUnknown, is_unavailable
from host import (
    background,
    clocks,
    direct,
    follow,
    lessons,
    lobby,
    notify,
    panels,
    posting,
    recovery,
    replays,
    results,
    standins,
    timeouts,
    why,
)
from host.adapter import AUTO, FORM, GameAdapter, Picked, Step, TurnPost
from host.card import build_card, retired_card
from host.components import (
    DYNAMIC_ITEMS,
    MOVE_FORM_ID,
    AnswerButton,
    MoveButton,
    MoveForm,
    MoveSelect,
    ResignButton,
    SeatButton,
    text_inputs,
)
from host.match import (
    COMPUTER_ID,
    DEFAULT_FORFEIT_MINUTES,
    DEFAULT_REMIND_MINUTES,
    Match,
    dice_line,
    human_seats,
    pair_key,
    seat_of_clicker,
)
from render.replay import replayable
from rules.errors import PlayerError
from rules.records import commitment
from ui import (
    MAX_CONTENT,
    UserError,
    channel_by_id,
    display_name,
    fit,
    interaction_expired,
    missing_permissions_text,
    report_error,
    send_ephemeral,
)
from ui.items import view_of
from ui.permissions import refused_for_permission

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

    from config import Config
    from db.database import Database
    from host.locks import GameLocks
    from host.timers import TimerService

log = logging.getLogger(__name__)

STALE_BUTTON = (
    "That button is from an earlier turn. Use the newest message in the match thread, "
    "or `{board}` to post a fresh one."
)
# A saved move whose showing met the database unavailable: never "nothing was changed".
SAVED_NOT_SHOWN = (
    "That was saved, but the database stopped answering before the match's card was redrawn: "
    "the card shows it as soon as the database answers again."
)


class SavedNotShown(UserError):
    """A move is stored and the database became unavailable while it was being shown: the
    player reads SAVED_NOT_SHOWN, and the match is shown as stored once the database answers
    (MatchHost.show_when_available). Raised from the DatabaseUnavailable, so whoever retries
    on an outage (host/recovery.py until_done, the timers) still sees one."""


# What a match needs in its channel; in a thread it also needs Send Messages in Threads.
BASE_PERMISSIONS = ("send_messages", "embed_links", "attach_files")
NO_MENTIONS = discord.AllowedMentions.none()
MAX_GALLERY = 10  # Discord's limit of a media gallery
# A click's response must come within Discord's 3 seconds: past this, acknowledge first.
RESPOND_BY_SECONDS = 1.5
# (connection, the match as stored, the finished match, its game): inside the last move's
# transaction
FinishListener = Callable[[Any, game_store.StoredGame, Match, GameAdapter], Awaitable[None]]

Chooser = Callable[[GameAdapter, Match, int], Any]  # (adapter, match, seat) -> action


def expired(interaction: discord.Interaction) -> None:
    """Say in the log that a saved move's interaction expired (Discord's 10062): the move is
    shown without it."""
    log.warning(
        "interaction %s expired after its move was saved; the card is drawn without it",
        interaction.id,
    )


async def acknowledged(
    interaction: discord.Interaction, **defer: Any
) -> discord.Interaction | None:
    """Defer a saved move's interaction: itself, or None when Discord no longer knows it (it
    came too late, 10062 Unknown interaction: "Interactions" in Discord's "Receiving and
    Responding" page gives 3 seconds for the first response)."""
    try:
        await interaction.response.defer(**defer)
    except discord.NotFound:
        return expired(interaction)
    return interaction


class HostBot(commands.Bot):
    """The bot as the host uses it: discord.py's Bot with the services bot.py's Ballcourt sets
    up (it derives from this), so the host types its bot without importing bot.py, which
    stands above it."""

    config: Config
    game_locks: GameLocks
    seed_source: random.Random  # where new games get their seeds
    timers: TimerService
    matches: MatchHost

    @property
    def db(self) -> Database:
        raise NotImplementedError("Ballcourt opens the database in setup_hook")


class MatchHost:
    def __init__(self, bot: HostBot) -> None:
        self.bot = bot
        self.adapters: dict[str, GameAdapter] = {}
        # The players' open private panels and their last looks (memory only: host/panels.py)
        self.panels = panels.Panels()
        # The leagues told when a user takes a vacation or comes back (host/clocks.py).
        self.vacation_listeners: list[clocks.VacationListener] = []
        # Told inside the transaction that saves a match's last move (a tournament's result).
        self.finish_listeners: list[FinishListener] = []
        self._recovery: asyncio.Task[None] | None = None
        # matches to show again once the database answers (a move's commit went unanswered, or
        # the database stopped answering while a saved move was being shown), by match id
        self._after_lost_commits: dict[int, asyncio.Task[None]] = {}
        # (match, cause) already told to a match's channel when Discord refused a move's post
        self.told: set[tuple[int, str]] = set()
        workers = bot.config.render_processes
        self._render_pool = (
            ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
            if workers
            else None
        )
        bot.add_dynamic_items(
            *DYNAMIC_ITEMS, replays.ReplayButton, replays.HighlightButton, why.WhyButton
        )
        bot.add_listener(self.on_interaction)
        bot.add_listener(self.on_guild_channel_update)
        bot.add_listener(self.on_guild_role_update)
        bot.add_listener(self.on_guild_join)
        bot.add_listener(self.on_raw_thread_delete)
        bot.timers.register_batch(
            timeouts.REMIND_EVENT, functools.partial(timeouts.on_remind_timers, self)
        )
        bot.timers.register(
            timeouts.FORFEIT_EVENT, functools.partial(timeouts.on_forfeit_timer, self)
        )
        bot.timers.register(standins.TAKEOVER_EVENT, self.on_takeover_timer)
        # Who follows a match, a player, a team or a league hears of its milestones.
        self.follows = follow.Follows(bot)
        bot.add_dynamic_items(follow.FollowButton)
        bot.timers.register(follow.NEWS_EVENT, self.follows.on_news_timer)

    def register(self, adapter: GameAdapter) -> None:
        self.adapters[adapter.game] = adapter

    def start(self) -> None:
        self._recovery = background.started("match-recovery", recovery.recover(self))

    async def stop(self) -> None:
        await background.stopped(self._recovery)
        for task in list(self._after_lost_commits.values()):
            task.cancel()
        if self._render_pool is not None:
            self._render_pool.shutdown(wait=False, cancel_futures=True)

    # ---- creating a match ----------------------------------------------------------------------

    def new_match(
        self,
        adapter: GameAdapter,
        options: dict[str, Any],
        names: list[str],
        *,
        seed: int | None = None,
        **extra: Any,
    ) -> tuple[Match, Sequence[Any]]:
        """A new match's envelope and the engine's opening events: a fresh seed (a lesson's is
        its own, host/lessons.py), committed to (sha256 with a secret salt) before anyone sees
        a die."""
        if seed is None:
            seed = self.bot.seed_source.randrange(2**31)
        state, events = adapter.engine.new_state(seed, options)
        salt = secrets.token_hex(16)
        match = Match(
            engine=state,
            names=names,
            salt=salt,
            commitment=commitment(adapter.game, seed, salt),
            **extra,
        )
        return match, events

    async def challenge(
        self,
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
        await direct.start_match(
            self,
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
        self,
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
        await direct.start_match(
            self,
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

    async def learn(self, interaction: discord.Interaction, adapter: GameAdapter) -> None:
        """`/GAME learn`: the game's lesson (host/lessons.py) on a live card against its tutor,
        from the lesson's seed and options; one open lesson per player and channel."""
        script = lessons.lesson(adapter)
        if script is None:
            raise UserError(f"{adapter.title} has no lesson yet: `/help` has its quick start.")
        user = interaction.user
        tutored = script.seats > 1  # else the learner alone (a game's solo mode)
        players = [user.id, COMPUTER_ID] if tutored else [user.id]
        await direct.start_match(
            self,
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

    async def _create(
        self,
        interaction: discord.Interaction,
        adapter: GameAdapter,
        match: Match,
        players: list[int],
        *,
        status: str,
        channel_id: int | None = None,
    ) -> int:
        """Store a new match in `channel_id` (default: where the command was used)."""
        channel_id = channel_id or interaction.channel_id
        if interaction.guild_id is None or channel_id is None:
            raise UserError(f"{adapter.title} is played in a server channel, not in DMs.")
        key = pair_key(players)
        try:
            return await game_store.create_game(
                self.bot.db,
                game=adapter.game,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                players=players,
                state=match.to_json(adapter),
                status=status,
                pair_key=key,
            )
        except game_store.DuplicateGameError:
            raise await self.already_open(adapter, channel_id, key) from None

    async def already_open(self, adapter: GameAdapter, channel_id: int, key: str) -> UserError:
        """What a player hears who starts a second open match with the same players in one
        channel (a unique index refused it): the match that is open, and how to end it."""
        existing = await game_store.open_game_with_pair(
            self.bot.db, game=adapter.game, channel_id=channel_id, pair_key=key
        )
        number = f" #{existing.id}" if existing else ""
        return UserError(
            f"You already have {adapter.title} match{number} with them in this channel. "
            f"Finish it (or `{adapter.command('resign')}`) before starting another."
        )

    def require_match_permissions(self, interaction: discord.Interaction) -> None:
        """Everything a match needs here, checked before anything is created or changed:
        posting, embeds, images, and writing in the thread it will be played in."""
        if interaction.guild is None:
            raise UserError("Matches are played in a server channel, not in DMs.")
        granted = interaction.app_permissions
        needed: list[str] = list(BASE_PERMISSIONS)
        in_thread = isinstance(interaction.channel, discord.Thread)
        if in_thread or granted.create_public_threads:
            needed.append("send_messages_in_threads")
        missing = [name for name in needed if not getattr(granted, name, False)]
        if missing:
            raise UserError(missing_permissions_text(missing))

    async def answer_challenge(
        self, interaction: discord.Interaction, game_id: int, answer: str
    ) -> None:
        async with self.bot.game_locks(game_id):
            stored = await game_store.load_game(self.bot.db, game_id)
            if stored is None or stored.game not in self.adapters:
                raise UserError("That challenge no longer exists.")
            adapter = self.adapters[stored.game]
            if stored.status == "cancelled":
                what = await game_store.last_action(self.bot.db, game_id) or "withdrawn"
                raise UserError(f"That challenge was already {what}.")
            if stored.status != "pending":
                raise UserError("That challenge was already accepted: the match is on.")
            match = Match.from_json(adapter, stored.state)
            challenged = stored.players[match.challenged_seat]
            challenger = stored.players[1 - match.challenged_seat]
            user_id = interaction.user.id
            if user_id not in stored.players or (answer == "accept" and user_id != challenged):
                raise UserError(f"Only <@{challenged}> can answer this challenge.")
            if answer == "decline":
                text = await self.cancel_challenge(adapter, stored, user_id)
                await interaction.response.edit_message(content=text, view=None)
                return
            self.require_match_permissions(interaction)
            events = adapter.engine.opening_events(match.engine)
            stored = await game_store.save_move(
                self.bot.db,
                stored,
                state=stored.state,
                actor_id=user_id,
                action="accept",
                events=[e.text for e in events],
                status="active",
                timers=self.timers_for(stored, match, stored.version + 1),
            )
            await interaction.response.edit_message(
                content=f"{adapter.title} match #{game_id}: <@{challenger}> vs <@{challenged}>. "
                "Play in the thread below.\n"
                + dice_line(match.commitment, adapter.command("record")),
                view=None,
            )
            await self.open_play(adapter, stored, match, events, interaction.message, locked=True)

    async def cancel_challenge(
        self, adapter: GameAdapter, stored: game_store.StoredGame, actor_id: int
    ) -> str:
        """End a challenge nobody accepted: declined, or withdrawn by the challenger."""
        challenged = Match.from_json(self.adapters[stored.game], stored.state).challenged_seat
        what = "declined" if actor_id == stored.players[challenged] else "withdrawn"
        text = f"{adapter.title} challenge #{stored.id} was {what}."
        await game_store.save_move(
            self.bot.db,
            stored,
            state=stored.state,
            actor_id=actor_id,
            action=what,
            events=[text],
            status="cancelled",
        )
        return text

    async def open_play(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        events: Sequence[Any],
        message: discord.Message | None,
        *,
        locked: bool = False,
    ) -> None:
        """Open the match thread off the announcement (or play in the channel if threads are
        not possible there), let computer seats move, and post the first turn."""
        if message is not None and not isinstance(message.channel, discord.Thread):
            try:
                stored = await self._open_thread(adapter, stored, message)
            except discord.HTTPException:
                log.info("no thread for match %s; playing in the channel", stored.id)
        lock = self.bot.game_locks(stored.id)
        if not locked:
            await lock.acquire()
        try:
            steps = [Step(match.engine, events, match.engine)]
            computer_steps = await self.computer_steps(adapter, match, stored)
            if computer_steps:
                steps += computer_steps
                stored = await self.save(adapter, stored, match, COMPUTER_ID, "computer", steps[1:])
            await self.post(adapter, stored, match, steps, first=True)
        finally:
            if not locked:
                await lock.release()

    async def _open_thread(
        self, adapter: GameAdapter, stored: game_store.StoredGame, message: discord.Message
    ) -> game_store.StoredGame:
        """The match's thread, started off `message`; the match as stored with it."""
        thread = await message.create_thread(
            name=f"{adapter.title} #{stored.id}", auto_archive_duration=1440
        )
        await game_store.set_thread(self.bot.db, stored.id, thread.id)
        return await game_store.load_game(self.bot.db, stored.id) or stored

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A moderator deleted a match's thread: the match goes on in a new one, under a
        message in its channel saying why, with a fresh card."""
        for stored in await game_store.open_games(self.bot.db, tuple(self.adapters)):
            if stored.thread_id != payload.thread_id:
                continue
            adapter = self.adapters[stored.game]
            async with self.bot.game_locks(stored.id):
                stored = await game_store.load_game(self.bot.db, stored.id) or stored
                match = Match.from_json(adapter, stored.state)
                try:
                    channel = await channel_by_id(self.bot, stored.channel_id)
                    message = await channel.send(
                        f"{adapter.title} match #{stored.id} goes on in a new thread: its "
                        "thread was deleted. Nothing of the match was lost.",
                        allowed_mentions=NO_MENTIONS,
                    )
                    stored = await self._open_thread(adapter, stored, message)
                except discord.HTTPException as error:
                    log.warning(
                        "match %s lost its thread and no new one opened: %s", stored.id, error
                    )
                    continue
                log.info(
                    "match %s: its thread was deleted; it goes on in %s",
                    stored.id,
                    stored.thread_id,
                )
                step = Step(match.engine, [], match.engine)
                await self.post(adapter, stored, match, [step], new_card=True)

    # ---- finding a match -------------------------------------------------------------------------

    async def match_here(
        self,
        interaction: discord.Interaction,
        adapter: GameAdapter,
        *,
        players_only: bool = True,
        include_pending: bool = True,
    ) -> game_store.StoredGame:
        """The caller's match in this channel or thread (or, for spectators, the newest one)."""
        if interaction.channel_id is None:
            raise UserError(f"There is no {adapter.title} match here.")
        here = await game_store.games_here(
            self.bot.db, game=adapter.game, channel_id=interaction.channel_id
        )
        if not include_pending:
            here = [g for g in here if g.status == "active"]
        mine = [g for g in here if seat_of_clicker(g, interaction) is not None]
        if mine:
            return mine[0]
        if here and not players_only:
            return here[0]
        raise UserError(
            f"There is no {adapter.title} match of yours here. "
            f"Start one with `/{adapter.game} {adapter.new_command}`."
        )

    # ---- the commands every game has ---------------------------------------------------------------

    async def board(self, interaction: discord.Interaction, adapter: GameAdapter) -> None:
        """A fresh live card for the match here, at the bottom of its thread (the old one
        loses its controls and points to it), pinging nobody."""
        stored = await self.match_here(
            interaction, adapter, players_only=False, include_pending=False
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.game_locks(stored.id):
            stored = await game_store.load_game(self.bot.db, stored.id) or stored
            match = Match.from_json(adapter, stored.state)
            view, files = await self._draw_card(
                adapter, stored, match, [Step(match.engine, [], match.engine)]
            )
            card_id = await self._show_card(stored, view, files, interaction=None, new_card=True)
            await game_store.mark_posted(self.bot.db, stored.id, stored.version, card_id)
        channel = await self.channel_of(stored)
        await interaction.edit_original_response(
            content=f"{adapter.title} match #{stored.id}'s live card: "
            f"{channel.get_partial_message(card_id).jump_url}"
        )

    async def move_text(
        self, interaction: discord.Interaction, adapter: GameAdapter, text: str
    ) -> None:
        stored = await self.match_here(interaction, adapter, include_pending=False)
        await self.play(
            interaction,
            stored.id,
            stored.version,
            lambda a, match, seat: a.parse_text(match.engine, seat, text),
        )

    async def resign(self, interaction: discord.Interaction, adapter: GameAdapter) -> None:
        """Withdraw or decline a pending challenge at once; ask before resigning a match."""
        stored = await self.match_here(interaction, adapter)
        if stored.status == "pending" and lobby.is_lobby(stored.state):
            await lobby.leave_by_command(self, interaction, stored.id)
            return
        if stored.status == "pending":
            async with self.bot.game_locks(stored.id):
                stored = await game_store.load_game(self.bot.db, stored.id) or stored
                if stored.status != "pending":
                    raise UserError("That challenge was answered meanwhile: try again.")
                text = await self.cancel_challenge(adapter, stored, interaction.user.id)
            await interaction.response.send_message(text)
            return
        match = Match.from_json(adapter, stored.state)
        await send_ephemeral(
            interaction,
            f"Resign {adapter.title} match #{stored.id}? {adapter.next_text(match)} "
            + adapter.resign_consequence(match, seat_of_clicker(stored, interaction) or 0),
            view=view_of([ResignButton(stored.id)]),
        )

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.play(
            interaction,
            game_id,
            None,
            lambda adapter, match, seat: adapter.engine.resign_action(match.engine, seat),
            any_time=True,
            done=f"You resigned match #{game_id}.",
        )

    async def record(
        self, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
    ) -> None:
        await results.record(self, interaction, adapter, match_id)

    async def history(
        self, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
    ) -> None:
        await results.history(self, interaction, adapter, match_id)

    # ---- buttons, the form, and the move itself ------------------------------------------------------

    async def on_move_button(self, interaction: discord.Interaction, button: MoveButton) -> None:
        if button.action == AUTO:
            await self.toggle_auto(interaction, button.game_id)
            return
        if button.action == FORM:
            await self._open_form(interaction, button.game_id, button.version)
            return
        await self.play(
            interaction,
            button.game_id,
            button.version,
            lambda adapter, match, seat: adapter.clicked(
                match.engine, seat, button.action, button.arg
            ),
        )

    async def on_move_select(
        self, interaction: discord.Interaction, select: MoveSelect, values: list[str]
    ) -> None:
        await self.play(
            interaction,
            select.game_id,
            select.version,
            lambda adapter, match, seat: adapter.select_action(
                match.engine, seat, select.action, select.arg, values
            ),
        )

    async def _open_form(
        self, interaction: discord.Interaction, game_id: int, version: int
    ) -> None:
        adapter, stored, match, seat = await self._load_for_action(interaction, game_id, version)
        form = adapter.move_form(match, seat)
        await interaction.response.send_modal(
            MoveForm(stored.id, stored.version, form.title, form.label, form.placeholder)
        )

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        found = MOVE_FORM_ID.fullmatch((interaction.data or {}).get("custom_id", ""))
        if not found:
            return
        values = text_inputs((interaction.data or {}).get("components", []))
        text = values[0] if values else ""
        try:
            await self.play(
                interaction,
                int(found[1]),
                int(found[2]),
                lambda adapter, match, seat: adapter.parse_text(match.engine, seat, text),
            )
        except Exception as error:
            await report_error(interaction, error)

    async def hosted(self, game_id: int) -> tuple[GameAdapter, game_store.StoredGame]:
        """The match a control names, with its game's adapter; UserError when it is gone
        (deleted with its player's data) or of a game not loaded here."""
        stored = await game_store.load_game(self.bot.db, game_id)
        if stored is None or stored.game not in self.adapters:
            raise UserError("That match no longer exists.")
        return self.adapters[stored.game], stored

    async def _load_for_action(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int | None,
        *,
        any_time: bool = False,
    ) -> tuple[GameAdapter, game_store.StoredGame, Match, int]:
        """Load the match and check that this user may act now, with a current button."""
        adapter, stored = await self.hosted(game_id)
        seat = seat_of_clicker(stored, interaction)
        if seat is None:
            # who may act now, as the card says it to everyone: a spectator learns whose
            # control it was without anything a seat alone may see
            now = ""
            if stored.status == "active":
                now = f" {adapter.next_text(Match.from_json(adapter, stored.state))}"
            raise UserError(
                f"You're watching {adapter.title} match #{game_id}: only its players can act."
                f"{now} Start your own with `/{adapter.game} {adapter.new_command}`, or follow "
                "this one to hear of its milestones and result.",
                offer=[follow.FollowButton("match", str(game_id))]
                if stored.status == "active"
                else [],
            )
        if stored.status != "active":
            state = "is over" if stored.status == "finished" else "is not being played"
            raise UserError(f"{adapter.title} match #{game_id} {state}.")
        match = Match.from_json(adapter, stored.state)
        if not any_time and seat not in adapter.engine.actors(match.engine):
            raise UserError(f"It's not your turn: {adapter.next_text(match)}")
        if (
            version is not None
            and version != stored.version
            and not self.still_deciding(adapter, match, seat)
        ):
            raise UserError(STALE_BUTTON.format(board=adapter.command("board")))
        return adapter, stored, match, seat

    async def play(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int | None,
        choose: Chooser,
        *,
        any_time: bool = False,
        done: str | None = None,
    ) -> None:
        """Apply one player action, save it, and only then answer the player: a move is never
        shown as taken unless it is stored. The computer seats' replies follow as a move of
        their own (so a crash between the two loses nothing: start-up repair plays them)."""
        # A click left waiting here (for the lock, for the database) is acknowledged in time by
        # its TimelyResponse (host/gate.py, ui/timely.py); the answers below then follow it.
        async with self.bot.game_locks(game_id):
            told = await self._play_locked(
                interaction, game_id, version, choose, any_time=any_time, done=done
            )
        if told is not None:  # a command's answer, once the match's lock is free
            await interaction.edit_original_response(content=told)

    async def _play_locked(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int | None,
        choose: Chooser,
        *,
        any_time: bool,
        done: str | None,
    ) -> str | None:
        """play() under the match's lock; what a command's acknowledgement then becomes."""
        adapter, stored, match, seat = await self._load_for_action(
            interaction, game_id, version, any_time=any_time
        )
        picked = choose(adapter, match, seat)
        if isinstance(picked, Picked):  # part of a move: show the rest of its picks
            await self._show_pick(interaction, adapter, stored, match, picked.arg)
            return None
        try:
            lessons.check_move(adapter, match, seat, picked)  # a lesson takes its script's move
        except PlayerError:
            # A lesson's refusal takes the card (or the panel) back to the step's start, its
            # picks undone, so the hint's first control is on offer at once.
            if interaction.message is not None:
                await self._show_pick(interaction, adapter, stored, match, None)
            raise
        before = match.engine
        # a PlayerError here: nothing was changed, and the player hears what is allowed
        after, events = adapter.engine.apply(before, seat, picked)
        match.engine = after
        match.seen[seat] = time.time()
        steps = [Step(before, events, after)]
        stored = await self.save(
            adapter,
            stored,
            match,
            interaction.user.id,
            adapter.engine.format_action(picked),
            steps,
        )
        # The move is saved: from here on the interaction may have expired (a process that
        # stood still), which must not keep the move from being shown: `live` is None then;
        # and a database that stops answering is no "nothing was changed" (SavedNotShown).
        command = interaction.type is discord.InteractionType.application_command
        clicked = interaction.message
        live: discord.Interaction | None = interaction
        try:
            if command:
                if not interaction.response.is_done():  # else acknowledged while it waited
                    live = await acknowledged(interaction, ephemeral=True, thinking=True)
            elif clicked is None or clicked.id != stored.turn_message_id:
                # Not from the card (the private panel, a confirmation): that message is
                # answered now; the card follows.
                try:
                    await self._answer_elsewhere(interaction, adapter, stored, match, seat, done)
                except discord.NotFound:
                    live = expired(interaction)
                except discord.Forbidden as error:
                    if not refused_for_permission(error):
                        raise
                    # The move is saved: the player hears so and what is missing; the card
                    # follows when the permission is back (posting.post_unposted).
                    await posting.refused(
                        self, adapter, stored, error, interaction=interaction, card_shown=False
                    )
                    return None
            if self.computers_to_act(adapter, match):
                if live is not None and not live.response.is_done():
                    live = await acknowledged(live)
                replies = await self.computer_steps(adapter, match, stored)
                if replies:
                    stored = await self.save(
                        adapter, stored, match, COMPUTER_ID, "computer", replies
                    )
                    steps += replies
            posted = await self.post(adapter, stored, match, steps, interaction=live)
        except Exception as error:
            if isinstance(error, SavedNotShown) or not is_unavailable(error):
                raise
            self.show_when_available(stored.id, "saved while the database stopped answering")
            raise SavedNotShown(SAVED_NOT_SHOWN) from error
        if posted and command and live is not None:
            return f"Done: {adapter.title} match #{stored.id}'s card shows your move."
        return None

    def computers_to_act(self, adapter: GameAdapter, match: Match) -> bool:
        """Whether a computer seat, or the bot for a player's routine action, acts now."""
        if adapter.engine.is_over(match.engine):
            return False
        acting = adapter.engine.actors(match.engine)
        return bool(acting & set(match.computers)) or any(
            adapter.engine.auto_action(match.engine, seat) is not None
            for seat in acting & match.auto
        )

    async def _answer_elsewhere(
        self,
        interaction: discord.Interaction,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        seat: int,
        done: str | None = None,
    ) -> None:
        """A move made from another message than the card: a confirmation becomes `done`
        without its spent button, the private panel is redrawn, anything else stays."""
        clicked = interaction.message
        if done is not None and clicked is not None:
            await posting.edit_clicked_reopening(self.bot, interaction, content=done, view=None)
        elif clicked is not None and clicked.flags.ephemeral:
            await panels.refresh_panel(self, interaction, adapter, stored, match, seat)
        elif not interaction.response.is_done():  # else acknowledged while it waited
            await interaction.response.defer()

    async def _show_pick(
        self,
        interaction: discord.Interaction,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        arg: str | None,
    ) -> None:
        """Redraw the card (or the panel the pick came from) with the rest of a move's picks
        (None: with none, as the step began); nothing is saved, and the images stay as they
        are."""
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral:
            seat = seat_of_clicker(stored, interaction) or 0
            await panels.refresh_panel(self, interaction, adapter, stored, match, seat, arg)
            return
        kept = [a.filename for a in clicked.attachments] if clicked is not None else []
        step = Step(match.engine, [], match.engine)
        view, files = await self._draw_card(
            adapter, stored, match, [step], picked=arg, kept_images=kept
        )
        images = {"attachments": files} if files else {}  # a pick marked on the image
        try:
            await posting.edit_clicked_reopening(self.bot, interaction, view=view, **images)
        except discord.NotFound:  # a moderator deleted the card since it was drawn
            board = adapter.command("board")
            await send_ephemeral(interaction, posting.CARD_DELETED.format(board=board))

    def still_deciding(self, adapter: GameAdapter, match: Match, seat: int) -> bool:
        """A seat that still has to decide in a simultaneous decision (a secret bid) may use a
        button or form drawn before another seat's decision: those did not change its choice."""
        return adapter.engine.simultaneous(match.engine) and seat in adapter.engine.actors(
            match.engine
        )

    async def computer_steps(
        self, adapter: GameAdapter, match: Match, stored: game_store.StoredGame
    ) -> list[Step]:
        """The computer seats play while only they may act, and so do a player's routine
        actions they left to the bot (a die to roll); one Step for all of it. The RNG is seeded
        from the match and its version, so a position gets the same choices."""
        if not (match.computers or match.auto) or adapter.engine.is_over(match.engine):
            return []

        def automatic(state: Any, seat: int, rng: random.Random) -> Any:
            if match.lesson is not None:  # the tutor's moves and the learner's are scripted
                return lessons.scripted(adapter, match, state, seat)
            if seat in match.computers:
                return adapter.engine.computer_action(state, seat, match.computers[seat], rng)
            if seat in match.auto:
                return adapter.engine.auto_action(state, seat)
            return None

        def play() -> list[Step]:
            rng = random.Random(f"{adapter.game}:{stored.id}:{stored.version}")
            state, events = match.engine, []
            before = state
            while not adapter.engine.is_over(state):
                # every automatic seat among those acting (all in a simultaneous decision)
                moved = False
                for seat in sorted(adapter.engine.actors(state)):
                    if seat not in adapter.engine.actors(state):
                        continue
                    action = automatic(state, seat, rng)
                    if action is None:
                        continue
                    state, new_events = adapter.engine.apply(state, seat, action)
                    events += new_events
                    moved = True
                if not moved:
                    break
            return [Step(before, events, state)] if events else []

        steps = await asyncio.to_thread(play)
        if steps:
            match.engine = steps[-1].after
        return steps

    async def toggle_auto(self, interaction: discord.Interaction, game_id: int) -> None:
        """A player leaves their routine actions to the bot, or takes them back (the game says
        which: Rollerball II's coach dice); saved like a move, then the bot acts if it is due."""
        async with self.bot.game_locks(game_id):
            adapter, stored, match, seat = await self._load_for_action(
                interaction, game_id, None, any_time=True
            )
            if adapter.auto_label(match) is None:
                raise UserError("There is nothing the bot can do for you in this game.")
            if seat in match.auto:
                match.auto.discard(seat)
                said = f"{adapter.seat_label(match, seat)} takes back: {adapter.auto_label(match)}."
            else:
                match.auto.add(seat)
                said = f"{adapter.seat_label(match, seat)} leaves to the bot: {adapter.auto_label(match)}."
            match.seen[seat] = time.time()  # pressing the toggle is being at the card
            steps = [Step(match.engine, [], match.engine, texts=[said])]
            stored = await self.save(adapter, stored, match, interaction.user.id, "auto", steps)
            replies = await self.computer_steps(adapter, match, stored)
            if replies:
                stored = await self.save(adapter, stored, match, COMPUTER_ID, "computer", replies)
                steps += replies
            await self.post(adapter, stored, match, steps, interaction=interaction)

    async def save(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        actor_id: int,
        action: str,
        steps: list[Step],
    ) -> game_store.StoredGame:
        """Store the match after `steps` as one versioned move: state, the steps' events, the
        next reminders, and for a finished match its results and ratings, all in one
        transaction (StaleGameError if another move was saved since `stored` was read)."""
        finished = adapter.engine.is_over(match.engine)
        if match.clock:
            now = time.time()
            if actor_id != COMPUTER_ID:  # a person's move after their flag fell is refused
                await clocks.refuse_after_flag(self, adapter, stored, now)
            # the seats whose turn ended are charged, those whose turn began start
            await clocks.tick(self.bot.db, adapter, stored, match, now)

        async def also(conn):
            await adapter.on_finished(conn, stored, match)
            await results.rate(conn, adapter, stored, match)
            for listener in self.finish_listeners:
                await listener(conn, stored, match, adapter)

        try:
            return await game_store.save_move(
                self.bot.db,
                stored,
                state=match.to_json(adapter),
                actor_id=actor_id,
                action=action,
                events=[e.text for step in steps for e in step.events],
                status="finished" if finished else None,
                timers=self.timers_for(stored, match, stored.version + 1),
                # a lesson's match counts for nothing: no statistics, no rating
                also=also if finished and match.lesson is None else None,
            )
        except CommitUnknown:
            # Stored or not, nobody can say until the database answers again: then the match
            # is shown as it is stored (a saved move drawn), as start-up repair would.
            self.show_when_available(stored.id, "after a commit without an answer")
            raise

    def show_when_available(self, game_id: int, why: str) -> None:
        """Show match `game_id` as it is stored (what start-up repair does after a crash) once
        the database answers again; once per match however many moves ask meanwhile."""
        if game_id in self._after_lost_commits:
            return
        task = asyncio.create_task(
            recovery.until_done(
                f"showing match {game_id} {why}",
                self.bot.db,
                functools.partial(recovery.finish_lost_move, self, game_id),
            )
        )
        self._after_lost_commits[game_id] = task
        task.add_done_callback(lambda _: self._after_lost_commits.pop(game_id, None))

    async def leaderboard(
        self, interaction: discord.Interaction, adapter: GameAdapter, everywhere: bool = False
    ) -> None:
        await results.leaderboard(self, interaction, adapter, everywhere)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The same settings again with the seats swapped, from the final message's button."""
        adapter, stored = await self.hosted(game_id)
        seat = seat_of_clicker(stored, interaction)
        if seat is None:
            raise UserError(f"Only the players of match #{game_id} can ask for its rematch.")
        if stored.status != "finished":
            raise UserError("A rematch is offered once the match is over.")
        self.require_match_permissions(interaction)
        old = Match.from_json(adapter, stored.state)
        players = list(reversed(stored.players))
        names = list(reversed(old.names))
        computers = {len(players) - 1 - s: level for s, level in old.computers.items()}
        options = adapter.engine.rematch_options(old.engine)
        if old.lesson is not None:  # after a lesson: a real match, the computer in the tutor's seat
            players, names, computers, options = lessons.real_match(
                adapter, stored.players, old.names
            )
        match, events = self.new_match(
            adapter,
            options,
            names,
            computers=computers,
            auto=await direct.rolled_for(self, adapter, players),
            remind_minutes=old.remind_minutes,
            forfeit_minutes=old.forfeit_minutes,
            challenged_seat=0 if players[0] != interaction.user.id else 1,
            rated=old.rated,  # the same settings: rated or casual as the first
        )
        # The rematch is announced where the first match was made, so it gets its own thread.
        game_id = await self._create(
            interaction,
            adapter,
            match,
            players,
            status="active" if computers or len(players) == 1 else "pending",
            channel_id=stored.channel_id,
        )
        channel = await channel_by_id(self.bot, stored.channel_id)
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
                f"#{game_id}, {against}.\n"
                + dice_line(match.commitment, adapter.command("record")),
                allowed_mentions=NO_MENTIONS,
            )
            created = await game_store.load_game(self.bot.db, game_id)
            assert created is not None
            await self.open_play(adapter, created, match, events, message)
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

    def timers_for(
        self, stored: game_store.StoredGame, match: Match, version: int
    ) -> list[timer_store.TimerSpec]:
        """The timers of the position at `version` (host/timeouts.py): the reminder, then the
        match's clock, a computer stand-in or the forfeit offer."""
        adapter = self.adapters[stored.game]
        return timeouts.timers_for(adapter, stored, match, version, time.time())

    async def _draw(
        self,
        adapter: GameAdapter,
        match: Match,
        step: Step,
        *,
        game_id: int,
        final: bool,
        picked: str | None = None,
    ) -> TurnPost:
        """Draw a turn off the event loop: in the render processes (images are CPU-bound, and
        threads would queue on the GIL when several matches move at once), or a thread."""
        call = functools.partial(
            adapter.draw_turn, match, step, game_id=game_id, final=final, picked=picked
        )
        if self._render_pool is None:
            return await asyncio.to_thread(call)
        return await asyncio.get_running_loop().run_in_executor(self._render_pool, call)

    # ---- posting -----------------------------------------------------------------------------------

    async def channel_of(self, stored: game_store.StoredGame) -> PartialMessageableChannel:
        """Where the match is played: its thread, else the channel it was started in."""
        return await channel_by_id(self.bot, stored.thread_id or stored.channel_id)

    def _extra_controls(
        self, stored: game_store.StoredGame, match: Match, post: TurnPost
    ) -> list[Any]:
        """The host's own controls on a card: the private panel and Follow while the match is
        on (a lesson is nobody's to follow), a rematch and the replay once it is over (after a
        lesson: a real match), and Why? on both."""
        over = self.adapters[stored.game].engine.is_over(match.engine)
        # Why? explains the latest moves by their rules; a lesson explains them itself.
        explained: list[Any] = []
        if why.explains(stored.game) and match.lesson is None:
            explained.append(why.WhyButton(stored.id))
        controls: list[Any] = []
        if post.rematch:
            label = lessons.NEXT_LABEL if match.lesson is not None else None
            controls.append(SeatButton(stored.id, "rematch", label))
        # every finished match is offered again, step by step (a lesson is nobody's to watch)
        if over and replayable(stored.game) and match.lesson is None:
            controls.append(replays.opener(stored.id))
        if over:
            return [*controls, *explained]
        if controls or stored.status != "active":
            return controls
        if match.lesson is not None:
            return self._private_buttons(stored)
        follows = follow.FollowButton("match", str(stored.id))
        return [*self._private_buttons(stored), follows, *explained]

    async def _draw_card(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        steps: list[Step],
        *,
        picked: str | None = None,
        kept_images: list[str] | None = None,
    ) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        """The card after `steps`: what happened in every step of the batch (a player's move
        and the computers' reply, in order), the last step's status and controls, and the
        images of the latest step that drew any."""
        posts = [
            await self._draw(
                adapter,
                match,
                step,
                game_id=stored.id,
                final=index == len(steps) - 1,
                picked=picked if index == len(steps) - 1 else None,
            )
            for index, step in enumerate(steps)
        ]
        post = posts[-1]
        post.happened = "\n".join(p.happened for p in posts if p.happened)
        lessons.annotate(adapter, match, post)
        if kept_images is not None and not adapter.marks_picks:
            # a redraw for a pick keeps the card's images as they are
            post.images = [(name, None) for name in kept_images]
        else:
            # The images of the latest step of the batch that drew any (the track after the
            # computer's reply, not before it; the ball's path of the last roll).
            drawn = next((p.images for p in reversed(posts) if p.images), [])
            post.images = list(drawn)[:MAX_GALLERY]
        deadline = None
        if not adapter.engine.is_over(match.engine):
            found = timeouts.deadline_of(await timer_store.timers_for_game(self.bot.db, stored.id))
            if found is not None:
                deadline = timeouts.deadline_text(adapter, stored, match, found)
        return build_card(
            stored.id,
            stored.version,
            post,
            deadline=deadline,
            extra=self._extra_controls(stored, match, post),
        )

    async def post(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        steps: list[Step],
        *,
        interaction: discord.Interaction | None = None,
        first: bool = False,
        new_card: bool = False,
        ping: bool = True,
    ) -> bool:
        """Show the match after `steps` (saved already): redraw its live card, through the
        clicking interaction's response when the click came from the card (no globally
        rate-limited request), else by editing the card or posting a new one; then a message for
        each milestone, and a ping for whoever must decide next and has not been active in the
        match lately (`ping=False` where nothing was played, so whoever must decide was told
        already). If Discord refuses, the player hears exactly what happened."""
        if (
            interaction is not None
            and not interaction.response.is_done()
            and interaction.message is not None
            and (discord.utils.utcnow() - interaction.created_at).total_seconds()
            > RESPOND_BY_SECONDS
        ):
            interaction = await acknowledged(interaction)  # the move is saved; the card follows
        card_shown = False
        try:
            view, files = await self._draw_card(adapter, stored, match, steps)
            card_id = await self._show_card(
                stored, view, files, interaction=interaction, new_card=new_card or first
            )
            card_shown = True
            channel = await self.channel_of(stored)
            lines = [line for step in steps for line in adapter.milestones(match, step)]
            if lines:
                # spectators may talk below the card: a milestone leads back to it
                jump = f"[Jump to the card]({notify.jump_url(stored, card_id)})"
                text = fit("\n".join(lines), MAX_CONTENT - len(jump) - 1)
                await channel.send(f"{text}\n{jump}", allowed_mentions=NO_MENTIONS)
            if ping or first:
                await self._ping(adapter, stored, match, channel, first=first, card_id=card_id)
            if match.lesson is None:  # a lesson is nobody's news
                await self.follows.tell_match(
                    adapter, stored, match, steps, channel=channel, card_id=card_id
                )
        except discord.HTTPException as error:
            await posting.refused(
                self, adapter, stored, error, interaction=interaction, card_shown=card_shown
            )
            return False
        except Exception as error:
            if is_unavailable(error) and not card_shown:  # saved: shown once it answers
                self.show_when_available(stored.id, "saved while the database stopped answering")
            raise
        await panels.redraw_open_panels(self, adapter, stored, match)
        await game_store.mark_posted(self.bot.db, stored.id, stored.version, card_id)
        self.told = {told for told in self.told if told[0] != stored.id}
        if adapter.engine.is_over(match.engine):
            await notify.archive_thread(self.bot, stored)  # readable, searchable, out of the list
        return True

    async def _show_card(
        self,
        stored: game_store.StoredGame,
        view: discord.ui.LayoutView,
        files: list[discord.File],
        *,
        interaction: discord.Interaction | None,
        new_card: bool,
    ) -> int:
        """Put the card in the thread and return its message id. The first way that works: the
        click's response when the click came from the card; the token of the click on the
        card that opened a player's panel (host/panels.py `CardToken`: a decision made on the
        panel); both are interaction routes, which Discord's global rate limit does not count;
        then an edit of the card (a channel request, which it counts; a thread Discord archived
        is opened again first, host/posting.py); else (no card yet, it is gone, or Discord
        refused every edit) a new message that retires the old card."""
        copies = posting.file_copies(files)  # each attempt sends fresh copies of the images

        def edit() -> dict[str, Any]:
            changes: dict[str, Any] = {"view": view}
            if files or not new_card:
                changes["attachments"] = copies()
            return changes

        card_id = stored.turn_message_id
        if new_card or card_id is None:
            return await self._new_card(stored, view, copies(), card_id)
        clicked = interaction.message if interaction is not None else None
        token = self.panels.card_token(stored.id, card_id)
        channel = await self.channel_of(stored)
        ways: list[Callable[[], Awaitable[Any]]] = []
        if interaction is not None and clicked is not None and clicked.id == card_id:
            if interaction.response.is_done():
                ways.append(lambda: interaction.edit_original_response(**edit()))
            else:
                ways.append(lambda: interaction.response.edit_message(**edit()))
        elif token is not None:
            ways.append(lambda opener=token.interaction: opener.edit_original_response(**edit()))
        ways.append(
            lambda: posting.reopening(
                self.bot, channel, lambda: channel.get_partial_message(card_id).edit(**edit())
            )
        )
        for way in ways:
            try:
                await way()
                return card_id
            except discord.NotFound:
                log.info("match %s: a way to its card is gone, trying the next", stored.id)
            except discord.HTTPException as error:
                if not interaction_expired(error):  # an expired token: the next way
                    self._gallery_refused(stored, error, files)
            if interaction is not None and not interaction.response.is_done():
                # the click's own response was refused: acknowledge it, the card follows
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.defer()
        return await self._new_card(stored, view, copies(), card_id)

    async def _new_card(
        self,
        stored: game_store.StoredGame,
        view: discord.ui.LayoutView,
        files: list[discord.File],
        old: int | None,
    ) -> int:
        """Post the card as a new message; an older card points to it."""
        channel = await self.channel_of(stored)
        message = await channel.send(view=view, files=files, allowed_mentions=NO_MENTIONS)
        if old is not None and old != message.id:
            await self._retire_card(stored, old, message)
        await game_store.set_card(self.bot.db, stored.id, message.id)
        return message.id

    @staticmethod
    def _gallery_refused(
        stored: game_store.StoredGame, error: discord.HTTPException, files: list[discord.File]
    ) -> None:
        """Carry on after Discord refused an edit of the card that uploads its new images (the
        caller tries the next way to show the card, in the end a fresh card); any other
        refusal is raised.

        Discord's open bug "PATCHing with CV2 breaks media uploads" (discord-api-docs issue
        7529, still open with no fix announced in the API changelog as of this writing): an
        edit of an interaction's original response, after a defer or a first response, whose
        media gallery shows a file uploaded in that edit is refused with 400 (the report claims
        the unfurled media attachment is not found); the same layout posted as a new message or
        a separate followup is shown, and the report's "or otherwise edit" may take in the
        channel's edit too. The card's edit after the computer's reply in the same click is
        exactly that edit, so a refusal of it must not leave the card stale: the channel's edit,
        else a fresh card, shows the turn."""
        if error.status != 400 or not files:
            raise error
        log.info("match %s: Discord refused the card's edit (%s)", stored.id, error)

    async def _retire_card(
        self, stored: game_store.StoredGame, old: int, new: discord.Message
    ) -> None:
        """An older card of the match loses its controls and points to the newer one, so no
        message a player can see offers a control that acts on nothing."""
        try:
            channel = await self.channel_of(stored)
            await posting.reopening(
                self.bot,
                channel,
                lambda: channel.get_partial_message(old).edit(
                    view=retired_card(f"This match's live card moved: {new.jump_url}"),
                    attachments=[],
                ),
            )
        except (discord.HTTPException, AttributeError):
            log.info("could not retire match %s's old card", stored.id)

    async def _ping(
        self,
        adapter: GameAdapter,
        stored: game_store.StoredGame,
        match: Match,
        channel: discord.abc.Messageable,
        *,
        first: bool,
        card_id: int | None,
    ) -> None:
        """Tell the players what the card shows, as each one's notification settings say
        (host/notify.py: a mention in the thread, a DM, or nothing): at the end the result and
        the revealed seed, to every player; during play whose decision it is, unless they acted
        in the match in the last few minutes (they are looking at the card). The first turn is
        always said, with the seed's commitment."""
        over = adapter.engine.is_over(match.engine)
        if over:
            users = [stored.players[s] for s in human_seats(stored.players)]
            pings = await notify.reminder_pings(self.bot.db, stored, users, now_only=True)
            seed = adapter.engine.seed_of(match.engine)
            said = (
                f"**{adapter.result_text(match)}**\n"
                f"Dice revealed: seed {seed}, salt `{match.salt}` (commitment "
                f"`{match.commitment}`). `{adapter.command('record')}` gives the verifiable record."
            )
            dm = f"{adapter.title} match #{stored.id}: {adapter.result_text(match)}"
        else:
            users = [
                stored.players[s]
                for s in sorted(adapter.engine.actors(match.engine))
                if stored.players[s] != COMPUTER_ID and s not in match.computers
            ]
            pings = await notify.turn_pings(
                self.bot.db,
                stored,
                users,
                last_seen=notify.seen_by_user(stored.players, match.seen),
            )
            said = adapter.next_text(match)
            if first:
                said += "\n" + dice_line(match.commitment, adapter.command("record"))
            dm = f"{adapter.title} match #{stored.id}: your move. {adapter.next_text(match)}"
        await notify.deliver(
            self.bot,
            pings,
            channel,
            said,
            dm=dm,
            link=notify.jump_url(stored, card_id),
            lead=" " if over else ", your move: ",
            always=over or first,
        )

    # ---- a cause of a refusal gone (host/posting.py) ------------------------------------------------

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        if before.overwrites != after.overwrites:
            await posting.post_unposted(self, guild_id=after.guild.id, channel_id=after.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if before.permissions != after.permissions:
            await posting.post_unposted(self, guild_id=after.guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await posting.post_unposted(self, guild_id=guild.id)

    # ---- reminders, forfeits, claims ------------------------------------------------------------------

    async def still_waiting(self, payload: dict[str, Any]):
        """For a reminder or forfeit timer: the match it names, if it still waits at that
        version (host/timeouts.py)."""
        return await timeouts.still_waiting(self, payload)

    async def claim_forfeit(
        self, interaction: discord.Interaction, game_id: int, version: int
    ) -> None:
        await timeouts.claim_forfeit(self, interaction, game_id, version)

    # ---- lobbies, private views, stand-ins (host/lobby.py, panels.py, standins.py) ----------------------------

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        adapter: GameAdapter,
        options: dict[str, Any],
        *,
        seats: int,
        describe: str,
        remind_minutes: int = DEFAULT_REMIND_MINUTES,
        takeover_minutes: int | None = None,
        rated: bool = True,
    ) -> None:
        """Open a table for `seats` players with Join / Leave / Add computer / Start, rated or
        casual as its opener chose."""
        await lobby.open_lobby(
            self,
            interaction,
            adapter,
            options,
            seats=seats,
            describe=describe,
            remind_minutes=remind_minutes,
            takeover_minutes=takeover_minutes,
            rated=rated,
        )

    async def lobby_button(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        await lobby.press(self, interaction, game_id, what)

    async def show_private(self, interaction: discord.Interaction, game_id: int) -> None:
        """The "My hand" button: what only the clicking player may see, ephemerally."""
        adapter, stored = await self.hosted(game_id)
        await panels.show_private(self, interaction, adapter, stored)

    async def private_view_here(
        self, interaction: discord.Interaction, adapter: GameAdapter
    ) -> None:
        """`/GAME hand`: the caller's private view of their match here."""
        stored = await self.match_here(interaction, adapter)
        await panels.show_private(self, interaction, adapter, stored)

    async def take_back(self, interaction: discord.Interaction, game_id: int) -> None:
        await standins.take_back(self, interaction, game_id)

    async def on_takeover_timer(self, timer: timer_store.Timer) -> None:
        await standins.on_takeover_timer(self, timer)

    def _private_buttons(self, stored: game_store.StoredGame) -> list[discord.ui.Item]:
        adapter = self.adapters.get(stored.game)
        if adapter is None or adapter.private_label is None:
            return []
        return [SeatButton(stored.id, "private", adapter.private_label)]

    # ---- start-up repair ------------------------------------------------------------------------------
