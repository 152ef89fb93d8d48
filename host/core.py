"""The match core: load and authorise, apply, save, post, for every game, written once.

Like Red-DiscordBot's TriviaSession it is the one place a running match is handled, but the
match itself lives in the database, not in memory: a move's match is loaded under its lock and
the clicker checked (`load_for_action`), the engine's action and the computer seats' replies
saved as one versioned transaction with the next timers (`save`), and the card shown (`post`).
What follows a post is a hook registered on the core (`on_shown`: whoever decides next is
pinged, followers hear the milestones; `on_posted`: open panels redrawn, a finished match's
thread archived). The host's parts are handed it as a host/base.py `Core`; host/match_host.py
`MatchHost` composes it with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import timers as timer_store
from db.database import CommitUnknown, is_unavailable
from host import background, clocks, controls, lessons, notify, posting, recovery, results, timeouts
from host.adapter import GameAdapter, Step, TurnPost
from host.base import FinishListener, HostBot, PermissionListener, VacationListener
from host.card import build_card, retired_card
from host.drawing import Drawing
from host.follow import FollowButton, Follows
from host.match import COMPUTER_ID, Match, seat_of_clicker
from host.panel_memory import Panels
from host.posted import Posted, PostHook
from rules.records import commitment
from ui import MAX_CONTENT, UserError, channel_by_id, fit, interaction_expired

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

log = logging.getLogger(__name__)

STALE_BUTTON = (
    "That button is from an earlier turn. Use the newest message in the match thread, "
    "or `{board}` to post a fresh one."
)
NO_MENTIONS = discord.AllowedMentions.none()
MAX_GALLERY = 10  # Discord's limit of a media gallery
# A click's response must come within Discord's 3 seconds: past this, acknowledge first.
RESPOND_BY_SECONDS = 1.5


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


class MatchCore:
    """A host/base.py `Core`: the state every match shares in this process and the steps of a
    move."""

    def __init__(self, bot: HostBot) -> None:
        self.bot = bot
        self.adapters: dict[str, GameAdapter] = {}
        # The players' open private panels and their last looks (memory only: host/panels.py)
        self.panels = Panels()
        # Who follows a match, a player, a team or a league (host/follow.py).
        self.follows = Follows(bot)
        # The leagues told when a user takes a vacation or comes back (host/clocks.py).
        self.vacation_listeners: list[VacationListener] = []
        # The leagues told when a permission in a server may be back (host/posting.py).
        self.permission_listeners: list[PermissionListener] = []
        # Told inside the transaction that saves a match's last move (a tournament's result).
        self.finish_listeners: list[FinishListener] = []
        # After a post: with its card (a Discord refusal is the post's), then once the card and
        # its news are out, before the version is noted as posted.
        self.on_shown: list[PostHook] = []
        self.on_posted: list[PostHook] = []
        # matches to show again once the database answers (a move's commit went unanswered, or
        # the database stopped answering while a saved move was being shown), by match id
        self._after_lost_commits: dict[int, asyncio.Task[None]] = {}
        # (match, cause) already told to a match's channel when Discord refused a move's post
        self.told: set[tuple[int, str]] = set()
        # Where turn images are drawn: warm worker processes, or a thread (host/drawing.py).
        self.drawing = Drawing(bot.config.render_processes)

    def register(self, adapter: GameAdapter) -> None:
        self.adapters[adapter.game] = adapter

    async def stop(self) -> None:
        for task in list(self._after_lost_commits.values()):
            task.cancel()
        await self.drawing.stop()

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

    async def hosted(self, game_id: int) -> tuple[GameAdapter, game_store.StoredGame]:
        """The match a control names, with its game's adapter; UserError when it is gone
        (deleted with its player's data) or of a game not loaded here."""
        stored = await game_store.load_game(self.bot.db, game_id)
        if stored is None or stored.game not in self.adapters:
            raise UserError("That match no longer exists.")
        return self.adapters[stored.game], stored

    async def load_for_action(
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
                offer=[FollowButton("match", str(game_id))] if stored.status == "active" else [],
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

    def still_deciding(self, adapter: GameAdapter, match: Match, seat: int) -> bool:
        """A seat that still has to decide in a simultaneous decision (a secret bid) may use a
        button or form drawn before another seat's decision: those did not change its choice."""
        return adapter.engine.simultaneous(match.engine) and seat in adapter.engine.actors(
            match.engine
        )

    def computers_to_act(self, adapter: GameAdapter, match: Match) -> bool:
        """Whether a computer seat, or the bot for a player's routine action, acts now."""
        if self.computers_think(adapter, match):
            return True
        if adapter.engine.is_over(match.engine):
            return False
        return any(
            adapter.engine.auto_action(match.engine, seat) is not None
            for seat in adapter.engine.actors(match.engine) & match.auto
        )

    def computers_think(self, adapter: GameAdapter, match: Match) -> bool:
        """Whether a computer seat acts now: its search can take a while, so a click is
        acknowledged before it (`computer_steps`). A player's routine action left to the bot
        (a die to roll) has no search in it, and the click is answered by the card at once."""
        if adapter.engine.is_over(match.engine):
            return False
        return bool(adapter.engine.actors(match.engine) & set(match.computers))

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
            background.until_done(
                f"showing match {game_id} {why}",
                self.bot.db,
                functools.partial(recovery.finish_lost_move, self, game_id),
            )
        )
        self._after_lost_commits[game_id] = task
        task.add_done_callback(lambda _: self._after_lost_commits.pop(game_id, None))

    async def still_waiting(
        self, payload: dict[str, Any]
    ) -> tuple[GameAdapter, game_store.StoredGame, Match] | None:
        """For a reminder, forfeit, clock or stand-in timer: the match it names, if it still
        waits at that version."""
        return self.waiting_at(await game_store.load_game(self.bot.db, payload["game_id"]), payload)

    def waiting_at(
        self, stored: game_store.StoredGame | None, payload: dict[str, Any]
    ) -> tuple[GameAdapter, game_store.StoredGame, Match] | None:
        """The match a timer's payload names, if it still waits at the payload's version."""
        if (
            stored is None
            or stored.game not in self.adapters
            or stored.status != "active"
            or stored.version != payload["version"]
        ):
            return None  # somebody moved since: nothing to do (this makes handlers idempotent)
        adapter = self.adapters[stored.game]
        return adapter, stored, Match.from_json(adapter, stored.state)

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
        """Draw a turn off the event loop (host/drawing.py)."""
        return await self.drawing(
            functools.partial(
                adapter.draw_turn, match, step, game_id=game_id, final=final, picked=picked
            )
        )

    async def channel_of(self, stored: game_store.StoredGame) -> PartialMessageableChannel:
        """Where the match is played: its thread, else the channel it was started in."""
        return await channel_by_id(self.bot, stored.thread_id or stored.channel_id)

    async def draw_card(
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
        images of the latest step that drew any (the track after the computer's reply, not
        before it; the ball's path of the last roll). Only that step is drawn: the steps
        before it are told in words (GameAdapter.happened), where drawing each of them too
        cost a click against the computer a whole image thrown away."""
        *earlier, last = steps
        post = await self._draw(adapter, match, last, game_id=stored.id, final=True, picked=picked)
        images = post.images
        for step in reversed(earlier):  # a last step that draws nothing: the one before it
            if images:
                break
            images = (await self._draw(adapter, match, step, game_id=stored.id, final=False)).images
        said = [adapter.happened(match, step) for step in earlier]
        post.happened = "\n".join(text for text in [*said, post.happened] if text)
        lessons.annotate(adapter, match, post)
        if kept_images is not None and not adapter.marks_picks:
            # a redraw for a pick keeps the card's images as they are
            post.images = [(name, None) for name in kept_images]
        else:
            post.images = list(images)[:MAX_GALLERY]
        deadline = None
        if not adapter.engine.is_over(match.engine):
            timers = stored.timers
            if timers is None:
                timers = await timer_store.timers_for_game(self.bot.db, stored.id)
            found = timeouts.deadline_of(timers)
            if found is not None:
                deadline = timeouts.deadline_text(adapter, stored, match, found)
        return build_card(
            stored.id,
            stored.version,
            post,
            deadline=deadline,
            extra=controls.extra_controls(self, stored, match, post),
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
        posted: Posted | None = None
        hooks = list(self.on_shown)  # told with the card: a refusal is the post's
        try:
            view, files = await self.draw_card(adapter, stored, match, steps)
            card_id = await self.show_card(
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
            posted = Posted(adapter, stored, match, steps, channel, card_id, first, ping)
            await _run_hooks(hooks, posted)
        except discord.HTTPException as error:
            await posting.refused(
                self, adapter, stored, error, interaction=interaction, card_shown=card_shown
            )
            return False
        except Exception as error:
            if not is_unavailable(error):
                raise
            if posted is None:  # saved, not shown: shown once it answers
                self.show_when_available(stored.id, "saved while the database stopped answering")
                raise
            self._finish_later(posted, [*hooks, *self.on_posted])
            return True
        hooks = list(self.on_posted)  # the card and its news are out
        try:
            await self._finish_post(posted, hooks)
        except Exception as error:
            if not is_unavailable(error):
                raise
            self._finish_later(posted, hooks)
        return True

    async def _finish_post(
        self, posted: Posted, hooks: list[PostHook], *, later: bool = False
    ) -> None:
        """What follows a post's card and news: the `hooks` left, then the card noted as
        posted (start-up repair posts a card that is not). `later`: after an outage, when
        the player heard of the move long ago: a hook Discord refuses is logged and passed."""
        await _run_hooks(hooks, posted, later=later)
        stored = posted.stored
        await game_store.mark_posted(self.bot.db, stored.id, stored.version, posted.card_id)
        self.told = {told for told in self.told if told[0] != stored.id}

    def _finish_later(self, posted: Posted, hooks: list[PostHook]) -> None:
        """The card shows the move and the database stopped answering before what follows it
        (the pings, the news, the card noted as posted): that is done once it answers, from
        the hook it stopped at; the move's player is not told otherwise (the card shows it)."""
        background.done_later(
            f"what follows match {posted.stored.id}'s card",
            self.bot.db,
            functools.partial(self._finish_post, posted, hooks, later=True),
        )

    async def show_card(
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


async def _run_hooks(hooks: list[PostHook], posted: Posted, *, later: bool = False) -> None:
    """Run `hooks` in order, each taken off the list once done: a run stopped by an outage
    goes on where it stopped. `later`: a hook Discord refuses is logged and passed."""
    while hooks:
        try:
            await hooks[0](posted)
        except discord.HTTPException as error:
            if not later:
                raise
            log.warning(
                "match %s: Discord refused what follows its card: %s", posted.stored.id, error
            )
        hooks.pop(0)
