"""What happens when a player does not move: the reminder (where and when the player's
notification settings say, host/notify.py), what follows when their time is up (the match's
policy, host/clocks.py; by default the forfeit offer), and claiming the match (the absent player
resigns). Timers are written with the move they follow; each handler checks the match is still at
that version, so firing twice is harmless. Time a player spent on vacation is not counted: a
timer that waits for them is put off by that much."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from db import clocks as clock_store
from db import games as game_store
from db import timers as timer_store
from host import clocks, notify, posting
from host.adapter import GameAdapter, Step
from host.components import ClaimButton, SeatButton
from host.locks import ShuttingDown
from host.match import COMPUTER_ID, Match, human_seats, seat_of_clicker
from host.standins import TAKEOVER_EVENT, takeover_timer
from ui import UserError
from ui.client import post
from ui.items import view_of

if TYPE_CHECKING:
    from host.base import Core

log = logging.getLogger(__name__)

REMIND_EVENT = "match_remind"
# A reminder's payload: the people it waits for and what it says (`timers_for`).
WAITING = "waiting"
TEXT = "text"
FORFEIT_EVENT = "match_forfeit"
# The timers that end a player's time for a move, in the order the deadline is read from them
# (a match has at most one of them besides its reminder).
DEADLINE_EVENTS = (clocks.CLOCK_EVENT, TAKEOVER_EVENT, FORFEIT_EVENT)


class Due(Protocol):
    """A stored timer as far as a deadline needs it (db/timers.py Timer, db/clocks.py TimerRow)."""

    @property
    def event(self) -> str: ...

    @property
    def due_at(self) -> float: ...


@dataclass(frozen=True)
class Deadline:
    """When the position's time is up (or, with nothing after it, its reminder): computed
    once from its timers, said on the live card and in /games."""

    due_at: float
    event: str

    @property
    def final(self) -> bool:
        """The time for the move ends then (not merely a reminder)."""
        return self.event != REMIND_EVENT


def deadline_of(timers: Iterable[Due]) -> Deadline | None:
    """The deadline of a position from its stored timers (None: nothing waits for anyone)."""
    timers = list(timers)
    for event in (*DEADLINE_EVENTS, REMIND_EVENT):
        due = [timer.due_at for timer in timers if timer.event == event]
        if due:
            return Deadline(min(due), event)
    return None


def deadline_text(
    adapter: GameAdapter, stored: game_store.StoredGame, match: Match, deadline: Deadline
) -> str:
    """The card's line about the deadline: when, and what happens then (the match's policy,
    docs/async-play.md "When time runs out")."""
    when = discord.utils.format_dt(dt.datetime.fromtimestamp(deadline.due_at, dt.UTC), "R")
    if not deadline.final:
        return f"⏰ A reminder {when} if nobody moves."
    if deadline.event == clocks.CLOCK_EVENT:
        then = {
            "computer": "a computer plays the seat",
            "forfeit": "the match is forfeited",
            "wait": "everyone waits",
        }.get(clocks.policy_of(match), "the opponent may claim the match")
        return f"⏰ The clock runs out {when}: then {then}."
    if deadline.event == TAKEOVER_EVENT:
        return f"⏰ Move {when}, or a computer plays the seat until its player is back."
    then = {
        "forfeit": "the move is forfeited",
        "wait": "the match waits, and everyone is told",
    }.get(clocks.policy_of(match), "the opponent may claim the match")
    return f"⏰ Move {when}: then {then}."


def still_at(host: Core, stored: game_store.StoredGame | None, payload: dict[str, Any]) -> bool:
    """Whether the match a timer's payload names is in play here at the payload's version."""
    return (
        stored is not None
        and stored.game in host.adapters
        and stored.status == "active"
        and stored.version == payload["version"]
    )


def timers_for(
    adapter: GameAdapter, stored: game_store.StoredGame, match: Match, version: int, now: float
) -> list[timer_store.TimerSpec]:
    """The timers of the position at `version`: the reminder, and then either the match's clock
    (the first bank to run out, host/clocks.py), a computer stand-in, or (between people) the
    forfeit timer, whose handler applies the match's timeout policy."""
    if adapter.engine.is_over(match.engine):
        return []
    waiting = [s for s in adapter.engine.actors(match.engine) if stored.players[s] != COMPUTER_ID]
    if not waiting:
        return []
    payload = {"game_id": stored.id, "version": version}
    # The reminder carries what it says and to whom: firing it then reads no match state
    # (10,000 due at once, bench/reminders.py); the version check keeps it true.
    remind = {
        **payload,
        WAITING: _waiting_people(adapter, stored, match),
        TEXT: reminder_text(adapter, stored, match),
    }
    timers = [timer_store.TimerSpec(REMIND_EVENT, now + match.remind_minutes * 60, remind)]
    clock = clocks.clock_timer(adapter, stored, match, payload, now)
    if clock is not None:
        timers.append(clock)
        return timers
    takeover = takeover_timer(match, payload)
    if takeover is not None:  # a computer stands in for the absent instead of a forfeit
        timers.append(takeover)
    elif len(human_seats(stored.players)) > 1:
        timers.append(
            timer_store.TimerSpec(FORFEIT_EVENT, now + match.forfeit_minutes * 60, payload)
        )
    return timers


def reminder_text(adapter: GameAdapter, stored: game_store.StoredGame, match: Match) -> str:
    """What a reminder says: the match, what it waits for, and how to see it again."""
    return (
        f"{adapter.title} match #{stored.id} is waiting for your move: "
        + f"{adapter.next_text(match)} (`{adapter.command('board')}` shows it again)"
    )


@dataclass(frozen=True)
class Reminder:
    """A due reminder of a match still at its version: who it waits for and what it says."""

    adapter: GameAdapter
    stored: game_store.StoredGame
    waiting: list[int]
    text: str


def reminder_of(
    host: Core, stored: game_store.StoredGame | None, payload: dict[str, Any]
) -> Reminder | None:
    """The reminder a timer's payload names, if its match still waits at the payload's
    version: from the payload (written with the position, `timers_for`), or, for a timer
    written before reminders carried their text, from the match's state."""
    if TEXT in payload and WAITING in payload:
        if not still_at(host, stored, payload) or stored is None:
            return None
        return Reminder(host.adapters[stored.game], stored, payload[WAITING], payload[TEXT])
    found = host.waiting_at(stored, payload)
    if found is None:
        return None
    adapter, stored, match = found
    return Reminder(adapter, stored, _waiting_people(adapter, stored, match), reminder_text(*found))


def _waiting_people(adapter: GameAdapter, stored: game_store.StoredGame, match: Match) -> list[int]:
    """The people (not computers, not their stand-ins) the position waits for."""
    return [
        stored.players[seat]
        for seat in sorted(adapter.engine.actors(match.engine))
        if stored.players[seat] != COMPUTER_ID and seat not in match.computers
    ]


# Reminders of one batch posted at once: each is one request to Discord, and waiting for each
# answer in turn would make 10,000 reminders due together take 10,000 round trips end to end
# (discord.py keeps to Discord's rate limits whatever is in flight).
REMINDERS_AT_ONCE = 16


async def on_remind_timers(host: Core, timers: list[timer_store.Timer]) -> None:
    """Remind the players each match waits for, as each one's settings say (host/notify.py):
    in the thread, by DM, or not at all; someone in quiet hours or on vacation is reminded
    once those are over. A batch of reminders due together reads its matches, vacations and
    settings in one query each, however many there are (bench/reminders.py); one that
    Discord refuses leaves the others to go."""
    db = host.bot.db
    stored_games = await game_store.load_games(
        db,
        [t.payload["game_id"] for t in timers],
        states=any(TEXT not in t.payload for t in timers),
    )
    found = []
    for timer in timers:
        reminder = reminder_of(host, stored_games.get(timer.payload["game_id"]), timer.payload)
        if reminder is None:
            continue
        waiting = reminder.waiting
        only = timer.payload.get("users")
        if only is not None:
            waiting = [user for user in waiting if user in only]
        if waiting:
            found.append((timer, reminder, waiting))
    now = time.time()
    dues = await clocks.due_users_of(db, [(timer, waiting) for timer, _, waiting in found], now)
    reminders = []
    for (timer, reminder, waiting), (due, later) in zip(found, dues, strict=True):
        if later is not None:  # on vacation: their reminder waits for the time they were away
            away = [user for user in waiting if user not in due]
            await clocks.put_off(host.bot, timer, later, users=away)
        if due:
            reminders.append((timer, reminder, due))
    all_pings = await notify.reminders_pings(db, [due for _, _, due in reminders], now)
    at_once = asyncio.Semaphore(REMINDERS_AT_ONCE)

    async def remind(timer: timer_store.Timer, found: Reminder, pings: notify.Pings) -> None:
        adapter, stored, text = found.adapter, found.stored, found.text
        for moment in sorted(set(pings.later.values())):
            users = [user for user, when in pings.later.items() if when == moment]
            await clocks.put_off(host.bot, timer, moment, users=users)
        async with at_once:
            try:
                channel = await host.channel_of(stored)
                await notify.deliver(
                    host.bot, pings, channel, text, dm=text, link=notify.jump_url(stored)
                )
            except discord.HTTPException as error:
                await posting.reminder_refused(host, adapter, stored, error)

    results = await asyncio.gather(
        *(
            remind(timer, reminder, pings)
            for (timer, reminder, _), pings in zip(reminders, all_pings, strict=True)
        ),
        return_exceptions=True,
    )
    for (timer, _, _), result in zip(reminders, results, strict=True):
        if isinstance(result, ShuttingDown | asyncio.CancelledError):
            raise result
        if isinstance(result, Exception):
            log.error("reminder %s failed", timer.id, exc_info=result)


async def on_forfeit_timer(host: Core, timer: timer_store.Timer) -> None:
    """The time for a move is up (vacations not counted): the match's policy applies
    (host/clocks.py): the absent forfeit, a computer stands in, everyone waits, or (the game's
    own behaviour) the others may claim the match."""
    game_id = timer.payload["game_id"]
    async with host.bot.game_locks(game_id):
        found = await host.still_waiting(timer.payload)
        if found is None:
            return
        adapter, stored, match = found
        absent_users = _waiting_people(adapter, stored, match)
        if not absent_users:
            return
        due, later = await clocks.due_users(host.bot.db, timer, absent_users, time.time())
        if not due:  # everyone it waits for was on vacation meanwhile
            if later is not None:
                await clocks.put_off(host.bot, timer, later)
            return
        seats = [
            seat
            for seat in sorted(adapter.engine.actors(match.engine))
            if stored.players[seat] in due
        ]
        await apply_policy(
            host, adapter, stored, match, seats, clocks.policy_of(match), reason="timeout"
        )


async def offer_claim(
    host: Core, adapter: GameAdapter, stored: game_store.StoredGame, match: Match
) -> None:
    """The game's own forfeit: the players who are waiting may claim the match."""
    absent = adapter.engine.actors(match.engine)
    waiting = [stored.players[s] for s in human_seats(stored.players) if s not in absent]
    channel = await host.channel_of(stored)
    await post(  # only those waiting may be pinged by it, whatever else it names
        host.bot,
        channel,
        notify.mentions(waiting)
        + f", your opponent has not moved in match #{stored.id} for "
        + f"{match.forfeit_minutes // 60} hours. You may claim the match as a forfeit.",
        view=view_of([ClaimButton(stored.id, stored.version)]),
        allowed_mentions=notify.allowed(waiting),
    )


async def claim_forfeit(
    host: Core, interaction: discord.Interaction, game_id: int, version: int
) -> None:
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.status != "active" or stored.game not in host.adapters:
            raise UserError("That match is not being played any more.")
        if stored.version != version:
            raise UserError("Your opponent has moved since: the match goes on.")
        adapter = host.adapters[stored.game]
        match = Match.from_json(adapter, stored.state)
        absent = sorted(adapter.engine.actors(match.engine))
        seat = seat_of_clicker(stored, interaction)
        if seat is None or seat in absent or not absent:
            raise UserError("Only the player who is waiting can claim this match.")
        before = match.engine
        action = adapter.engine.resign_action(before, absent[0])
        match.engine, events = adapter.engine.apply(before, absent[0], action)
        match.forfeited_by = absent[0]
        steps = [Step(before, events, match.engine)]
        stored = await host.save(adapter, stored, match, interaction.user.id, "forfeit", steps)
        # Saved: the offer's button is spent, so it goes with the answer.
        await interaction.response.edit_message(
            content=f"{adapter.seat_label(match, seat)} claimed match #{stored.id} as a forfeit.",
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await host.post(adapter, stored, match, steps, interaction=interaction)


# ---- when time runs out ------------------------------------------------------------------------------


async def on_clock_timer(host: Core, timer: timer_store.Timer) -> None:
    """A match's first clock may have run out: the seats whose time is up (vacations not
    counted) get the match's policy; if none is up (a vacation), the timer is put off to when
    the first one is."""
    game_id = timer.payload["game_id"]
    async with host.bot.game_locks(game_id):
        found = await host.still_waiting(timer.payload)
        if found is None:
            return
        adapter, stored, match = found
        up = await clocks.time_up(host.bot.db, adapter, stored, match, time.time())
        if up is None:
            return
        out = up.out
        if not out:
            if up.next_due is not None:
                await clock_store.add_game_timer(
                    host.bot.db, stored.id, clocks.CLOCK_EVENT, up.next_due, timer.payload
                )
            return
        await apply_policy(
            host, adapter, stored, match, out, clocks.policy_of(match), reason="clock"
        )


async def apply_policy(
    host: Core,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    seats: list[int],
    policy: str,
    *,
    reason: str,
) -> None:
    """Under the match's lock: the time of `seats` is up; do what the policy says and tell the
    match. `reason` is "clock" (their bank ran out), "timeout" (the time for a move) or
    "deadline" (a tournament round's time, host/tournaments.py)."""
    users = [stored.players[seat] for seat in seats]
    labels = " and ".join(adapter.seat_label(match, seat) for seat in seats)
    what = {"clock": "time on the clock", "deadline": "the round's time"}.get(
        reason, "time for a move"
    )
    present = [
        seat
        for seat, user in enumerate(stored.players)
        if user != COMPUTER_ID and seat not in match.computers and seat not in seats
    ]
    if policy == "computer" and not present:
        policy = "wait"  # a match is never left to computers alone (host/standins.py)
    if policy == "computer":
        level = adapter.engine.levels[0]
        for seat in seats:
            match.computers[seat] = level
        steps = await host.computer_steps(adapter, match, stored)
        stored = await host.save(adapter, stored, match, COMPUTER_ID, "takeover", steps)
        text = (
            f"{adapter.title} game #{stored.id}: {labels} ran out of {what}, so a computer "
            f"({level}) plays for them. Press **Take my seat back** when you want to play again."
        )
        await _announce(
            host, stored, text, users, view=view_of([SeatButton(stored.id, "takeback")])
        )
        await host.post(adapter, stored, match, steps or [Step(match.engine, [], match.engine)])
    elif policy == "forfeit":
        steps = []
        for seat in seats:
            if adapter.engine.is_over(match.engine):
                break
            before = match.engine
            match.engine, events = adapter.engine.apply(
                before, seat, adapter.engine.resign_action(before, seat)
            )
            match.forfeited_by = seat
            steps.append(Step(before, events, match.engine))
        steps += await host.computer_steps(adapter, match, stored)
        stored = await host.save(adapter, stored, match, COMPUTER_ID, "forfeit", steps)
        text = f"{adapter.title} game #{stored.id}: {labels} ran out of {what} and forfeit."
        await _announce(host, stored, text, users)
        await host.post(adapter, stored, match, steps)
    elif policy == "wait":
        text = (
            f"{adapter.title} game #{stored.id}: {labels} ran out of {what}. This match waits "
            "for them: nothing happens until they move."
        )
        await _announce(host, stored, text, users)
    else:  # "claim": the opponents may claim the match (the host's forfeit offer)
        await offer_claim(host, adapter, stored, match)


async def _announce(
    host: Core,
    stored: game_store.StoredGame,
    text: str,
    users: list[int],
    *,
    view: discord.ui.View | None = None,
) -> None:
    """Say in the match what happened to `users`, pinging them as their settings say."""
    pings = await notify.reminder_pings(host.bot.db, stored, users, time.time(), now_only=True)
    extra: dict[str, Any] = {} if view is None else {"view": view}
    try:
        channel = await host.channel_of(stored)
        await notify.deliver(
            host.bot,
            pings,
            channel,
            text,
            dm=text,
            link=notify.jump_url(stored),
            lead=" ",
            always=True,
            **extra,
        )
    except discord.HTTPException as error:
        log.warning("could not tell match %s that time ran out: %s", stored.id, error)
