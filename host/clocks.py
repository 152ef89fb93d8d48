"""Time control for matches played over days (docs/async-play.md): a clock per player, vacations,
and what happens when a player's time runs out.

- A match may have a clock (Board Game Arena's and OGS's model): every player starts with a bank
  of time; while it is their turn their bank runs; when their turn ends it gets the increment,
  up to the cap. A match without a clock has the host's per-move timeouts (a reminder, then a
  forfeit offer or a computer stand-in), which are a clock of one turn.
- Vacation: time a user has banked (it accrues) and spends to pause the clocks of all their
  matches at once. Nothing is written to the matches when a vacation starts: time inside a
  vacation is simply not charged, and every timer that waits for the user (reminder, timeout,
  clock) fires that much later (`extend`). Ending a vacation early moves those timers back.
  The leagues whose deadlines wait for their players on vacation (Volleyball's, Rollerball II's
  seasons) listen for vacations taken and ended (`Core.vacation_listeners`) and count a
  deadline's time the same way (`counted_deadline`, `time_left`).
- When time runs out the match's policy applies (`on_timeout`): a computer takes the seat until
  the player takes it back ("computer"), the player forfeits ("forfeit"), or everyone waits
  ("wait"). No policy: the game's own behaviour (its stand-in, else the opponent may claim).

The clock's arithmetic (rules/clocks.py: MatchClock, on_move; rules/periods.py: extend) and
terms_from are pure; the rest loads, locks and saves
through the match host like any move.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from db import clocks as clock_store
from db import games as game_store
from db import settings as settings_store
from db import timers as timer_store
from db.player_games import open_games_of, position_started
from host.match import COMPUTER_ID, DEFAULT_FORFEIT_MINUTES, Match
from rules.clocks import MatchClock, new_clock, on_move, remaining, run_out_at
from rules.periods import (
    Period,
    extend,
)
from ui import UserError

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.base import Core

log = logging.getLogger(__name__)

CLOCK_EVENT = "match_clock"
POLICIES = settings_store.TIMEOUT_POLICIES
DAY = 86400.0
# Vacation (docs/async-play.md, "Vacation"): a new player has a week; a day more accrues every
# week; at most 30 days are banked; one vacation lasts at most the 30 days.
VACATION_START = 7 * DAY
VACATION_PER_SECOND = 1 / 7
VACATION_CAP = 30 * DAY
# The options with which a player chose a match's reminder or timeout themselves: a server's
# defaults do not override what the player typed.
REMIND_OPTIONS = ("remind_hours",)
TIMEOUT_OPTIONS = ("forfeit_hours", "timeout_hours", "answer_minutes")
NO_MENTIONS = discord.AllowedMentions.none()

# A league told that a user took a vacation or came back (their id): it moves its deadlines.
VacationListener = Callable[[int], Awaitable[None]]


# ---- the clock ------------------------------------------------------------------------------------


def clock_of(match: Match) -> MatchClock | None:
    data = getattr(match, "clock", None)
    return None if not data else MatchClock.from_dict(data)


def running_seats(adapter: GameAdapter, players: Sequence[int], match: Match) -> set[int]:
    """The seats whose clocks run: the people (not computers, not stand-ins) to act now."""
    if adapter.engine.is_over(match.engine):
        return set()
    return {
        seat
        for seat in adapter.engine.actors(match.engine)
        if players[seat] != COMPUTER_ID and seat not in match.computers
    }


async def started(
    db: Any,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    now: float,
) -> MatchClock | None:
    """The match's clock at `stored`'s position (`match` is that position) as it runs: a seat to
    move whose clock was never started (the first turn, a seat taken back from the computer
    outside a move) runs since that position was saved (docs/async-play.md, "The first turn")."""
    clock = clock_of(match)
    if clock is None:
        return None
    unstarted = running_seats(adapter, stored.players, match) - set(clock.since)
    if unstarted:
        began = await position_started(db, stored.id, stored.version)
        for seat in unstarted:
            clock.since[seat] = min(now, began) if began is not None else now
    return clock


async def tick(
    db: Any, adapter: GameAdapter, stored: game_store.StoredGame, match: Match, now: float
) -> None:
    """Before a move of a match with a clock is saved (the host's save, with `stored` as it was
    before the move and `match` after it): charge the seats whose turn ended and start the seats
    whose turn began. Vacations are read for the seats that stop."""
    clock = clock_of(match)
    if clock is None:
        return
    try:
        before = Match.from_json(adapter, stored.state)
    except (ValueError, KeyError, TypeError):
        before = None
    if before is not None:
        before.clock = clock.to_dict()  # the clock as the move left it, run from the position
        clock = await started(db, adapter, stored, before, now) or clock
    running = running_seats(adapter, stored.players, match)
    stopping = [stored.players[seat] for seat in set(clock.since) - running]
    periods = await clock_store.vacations_of(
        db, stopping, since=min(clock.since.values(), default=now)
    )
    away = {
        seat: periods.get(stored.players[seat], [])
        for seat in clock.since
        if stored.players[seat] in periods
    }
    on_move(clock, running, now, away)
    match.clock = clock.to_dict()


@dataclass(frozen=True)
class TimeUp:
    """A position's clock at a moment: the seats to move whose time is up (vacations not
    counted), and when the first of the others runs out (None: none runs)."""

    out: list[int]
    next_due: float | None


async def time_up(
    db: Any, adapter: GameAdapter, stored: game_store.StoredGame, match: Match, now: float
) -> TimeUp | None:
    """Whose time is up at `now` in the match's stored position (None: it has no clock)."""
    clock = await started(db, adapter, stored, match, now)
    if clock is None:
        return None
    seats = sorted(running_seats(adapter, stored.players, match))
    periods = await clock_store.vacations_of(
        db,
        [stored.players[s] for s in seats],
        since=min(clock.since.values(), default=now),
    )
    out, later = [], []
    for seat in seats:
        seat_periods = periods.get(stored.players[seat], [])
        if remaining(clock, seat, now, seat_periods) <= 0.5:
            out.append(seat)
        else:
            moment = run_out_at(clock, seat, seat_periods)
            if moment is not None:
                later.append(moment)
    return TimeUp(out, min(later, default=None))


class TimeRanOut(UserError):
    """A move saved after the clock's flag fell: refused, and the match's policy applies."""


async def refuse_after_flag(
    host: Core, adapter: GameAdapter, stored: game_store.StoredGame, now: float
) -> None:
    """Before a person's move is saved (under the match's lock, from the stored position): if
    the time of a seat to move is up and the match's policy ends that seat's play (a forfeit or
    the computer), the move is refused (TimeRanOut) and the clock's timer is made due now, so
    the policy applies whether or not that timer had fired yet (docs/async-play.md, "A move
    after the time ran out")."""
    before = Match.from_json(adapter, stored.state)
    policy = policy_of(before)
    if policy not in ("forfeit", "computer"):
        return  # the match waits for them, or an opponent may claim: the move may still come
    found = await time_up(host.bot.db, adapter, stored, before, now)
    if found is None or not found.out:
        return
    payload = {"game_id": stored.id, "version": stored.version}
    await clock_store.add_game_timer(host.bot.db, stored.id, CLOCK_EVENT, now, payload)
    labels = " and ".join(adapter.seat_label(before, seat) for seat in found.out)
    then = "forfeits" if policy == "forfeit" else "is played by a computer"
    raise TimeRanOut(
        f"Too late: {labels} ran out of time on the clock before this move, so it was not "
        f"taken. As this match's rules say, the seat {then}."
    )


def clock_timer(
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    payload: dict[str, Any],
    now: float,
) -> timer_store.TimerSpec | None:
    """The timer of the first running clock to run out (vacations are looked at when it fires:
    it is put off then). A seat not yet started (its seat taken back outside a move) counts
    from now, the moment its position is saved."""
    clock = clock_of(match)
    if clock is None:
        return None
    moments = []
    for seat in running_seats(adapter, stored.players, match):
        left = max(0.0, clock.left.get(seat, clock.bank))
        moments.append(clock.since.get(seat, now) + left)
    if not moments:
        return None
    return timer_store.TimerSpec(CLOCK_EVENT, min(moments), payload)


# ---- a match's terms: reminders, timeouts, clock, policy -----------------------------------------


@dataclass(frozen=True)
class Terms:
    """What a new match stores about time (the Match fields of the same names)."""

    remind_minutes: int
    forfeit_minutes: int
    takeover_minutes: int | None
    on_timeout: str | None = None
    clock: dict[str, Any] | None = None

    def fields(self) -> dict[str, Any]:
        """Keyword arguments for Match(...) / Core.new_match(...)."""
        return {
            "remind_minutes": self.remind_minutes,
            "forfeit_minutes": self.forfeit_minutes,
            "takeover_minutes": self.takeover_minutes,
            "on_timeout": self.on_timeout,
            "clock": self.clock,
        }


def terms_from(
    defaults: settings_store.GameDefaults,
    given: set[str],
    *,
    seats: Iterable[int],
    remind_minutes: int,
    forfeit_minutes: int = DEFAULT_FORFEIT_MINUTES,
    takeover_minutes: int | None = None,
) -> Terms:
    """The terms of a new match: what the command gave (the game's own defaults where the player
    typed nothing), with the server's defaults in place of what the player did not type.

    The server's timeout is the time a player has for a move; its policy says what follows:
    "computer" (a stand-in after that time), "forfeit" and "wait" (no stand-in; the forfeit
    timer then forfeits, or only says that everyone waits). With a clock the time a player has
    is their bank instead."""
    remind = remind_minutes
    if not set(REMIND_OPTIONS) & given and defaults.remind_minutes is not None:
        remind = defaults.remind_minutes
    own_timeout = takeover_minutes if takeover_minutes is not None else forfeit_minutes
    typed_timeout = bool(set(TIMEOUT_OPTIONS) & given)
    timeout = own_timeout
    if not typed_timeout and defaults.timeout_minutes is not None:
        timeout = defaults.timeout_minutes
    policy = defaults.on_timeout
    forfeit, takeover = forfeit_minutes, takeover_minutes
    if policy == "computer":
        takeover = timeout
    elif policy in ("forfeit", "wait"):
        takeover, forfeit = None, timeout
    elif takeover_minutes is not None:
        takeover = timeout
    else:
        forfeit = timeout
    if takeover is not None:
        forfeit = max(forfeit, takeover + 60)  # unused while a stand-in comes first
    clock = None
    if defaults.clock_minutes:
        clock = new_clock(
            defaults.clock_minutes,
            defaults.increment_minutes or 0,
            defaults.cap_minutes,
            seats,
        ).to_dict()
    return Terms(remind, forfeit, takeover, policy, clock)


def given_options(interaction: discord.Interaction | None) -> set[str]:
    """The option names the user typed in the slash command (subcommands looked into)."""
    names: set[str] = set()
    options = list(((interaction.data or {}) if interaction else {}).get("options", []))
    while options:
        option = options.pop()
        if option.get("type") in (1, 2):  # a subcommand (group): its options are inside
            options += option.get("options", [])
        else:
            names.add(option.get("name", ""))
    return names


async def match_terms(
    db: Any,
    interaction: discord.Interaction,
    game: str,
    *,
    seats: Iterable[int],
    remind_minutes: int,
    forfeit_minutes: int = DEFAULT_FORFEIT_MINUTES,
    takeover_minutes: int | None = None,
) -> Terms:
    """`terms_from` with the server's defaults for `game` and the options the user typed."""
    defaults = await settings_store.defaults_for(db, interaction.guild_id, game)
    return terms_from(
        defaults.game_defaults,
        given_options(interaction),
        seats=seats,
        remind_minutes=remind_minutes,
        forfeit_minutes=forfeit_minutes,
        takeover_minutes=takeover_minutes,
    )


def policy_of(match: Match) -> str:
    """What happens when a player's time runs out in this match: the stored policy, else the
    game's own (its stand-in if it has one, else the opponent may claim: "claim")."""
    policy = getattr(match, "on_timeout", None)
    if policy in POLICIES:
        return policy
    return "computer" if match.takeover_minutes else "claim"


# ---- vacations -------------------------------------------------------------------------------------


def accrued(balance: clock_store.Balance | None, now: float) -> float:
    """The vacation a user has banked now: a week to start with, a day more a week, 30 days at
    most."""
    if balance is None:
        return VACATION_START
    gained = max(0.0, now - balance.as_of) * VACATION_PER_SECOND
    return min(VACATION_CAP, balance.seconds + gained)


@dataclass(frozen=True)
class VacationStatus:
    banked: float  # seconds available now
    current: Period | None  # the vacation running now
    current_id: int | None = None


async def vacation_status(db: Any, user_id: int, now: float) -> VacationStatus:
    banked = accrued(await clock_store.balance(db, user_id), now)
    current = await clock_store.current_vacation(db, user_id, now)
    if current is None:
        return VacationStatus(banked, None)
    return VacationStatus(banked, current[1], current[0])


class VacationError(Exception):
    """A vacation that cannot be taken or ended; the message says why."""


async def take_vacation(bot: Any, user_id: int, days: float, now: float) -> Period:
    """Start a vacation of `days` now, paid from the bank (VacationError if it is not there);
    then the leagues move the deadlines that wait for the user."""
    if days <= 0:
        raise VacationError("A vacation is at least part of a day.")
    db = bot.db
    status = await vacation_status(db, user_id, now)
    if status.current is not None:
        raise VacationError(
            f"You're on vacation already, until <t:{int(status.current[1])}:f>. End it first "
            "to take another."
        )
    length = days * DAY
    if length > status.banked + 1:
        raise VacationError(
            f"You have {status.banked / DAY:.1f} days of vacation banked, not {days:g}. A day "
            "more accrues every week."
        )
    ends_at = now + length
    if not await clock_store.start_vacation(
        db, user_id, now=now, ends_at=ends_at, balance_after=max(0.0, status.banked - length)
    ):
        raise VacationError("You're on vacation already.")
    await tell_leagues(bot, user_id)
    return (now, ends_at)


async def end_vacation(bot: Any, user_id: int, now: float) -> float:
    """End the running vacation now; what was not used goes back to the bank. The timers put off
    for it come back to when they fall due now, and so do the leagues' deadlines. Returns the
    seconds given back."""
    status = await vacation_status(bot.db, user_id, now)
    if status.current is None or status.current_id is None:
        raise VacationError("You're not on vacation.")
    unused = max(0.0, status.current[1] - now)
    banked = min(VACATION_CAP, status.banked + unused)
    if not await clock_store.end_vacation(
        bot.db, user_id, status.current_id, now=now, balance_after=banked
    ):
        raise VacationError("That vacation has ended already.")
    await bring_timers_back(bot, user_id, now)
    await tell_leagues(bot, user_id)
    return unused


async def tell_leagues(bot: Any, user_id: int) -> None:
    """The user took a vacation or came back: each league listening
    (`bot.matches.vacation_listeners`) moves the deadlines that wait for them. The vacation is
    saved whatever a listener does; one that fails is logged, and its deadline's timer looks at
    the vacations again when it fires."""
    for listener in bot.matches.vacation_listeners:
        try:
            await listener(user_id)
        except Exception:
            log.exception("a league could not move its deadline for the vacation of %s", user_id)


async def bring_timers_back(bot: Any, user_id: int, now: float) -> int:
    """After a vacation ended early: every timer of the user's matches that was put off for it
    (its payload says since when and for how long it waits) or that waits on their clock moves
    to when it falls due with the vacation as it really was. Returns how many moved."""
    host = bot.matches
    games = [g for g in await open_games_of(bot.db, user_id) if g.status == "active"]
    periods = await clock_store.vacations(bot.db, user_id)
    moved = 0
    for timer in await clock_store.timers_of_games(bot.db, [g.id for g in games]):
        if timer.event == CLOCK_EVENT:
            due = await _clock_due(bot.db, host, timer.game_id, now)
        elif "since" in timer.payload and "length" in timer.payload:
            due = extend(timer.payload["since"], timer.payload["length"], periods)
        else:
            continue
        if due is not None and due < timer.due_at - 1:
            moved += await clock_store.move_timer(bot.db, timer.id, max(now, due))
    return moved


async def _clock_due(db: Any, host: Core, game_id: int | None, now: float) -> float | None:
    stored = None if game_id is None else await game_store.load_game(db, game_id)
    if stored is None or stored.game not in host.adapters:
        return None
    adapter = host.adapters[stored.game]
    found = await time_up(db, adapter, stored, Match.from_json(adapter, stored.state), now)
    if found is None:
        return None
    return now if found.out else found.next_due


async def due_users(
    db: Any, timer: timer_store.Timer, user_ids: list[int], now: float
) -> tuple[list[int], float | None]:
    """For a reminder or timeout timer waiting on `user_ids`: those it is due for now, and when
    it falls due for the others (the time they were on vacation since it was set added; None:
    no others). The timer's length is its due time less its creation time, or what a put-off
    timer's payload carries."""
    return (await due_users_of(db, [(timer, user_ids)], now))[0]


async def due_users_of(
    db: Any, waits: list[tuple[timer_store.Timer, list[int]]], now: float
) -> list[tuple[list[int], float | None]]:
    """`due_users` for many timers at once (a batch of reminders), in one query: the
    vacations of everyone they wait on since the earliest of them began (`extend` passes over
    a vacation that ended before a timer was set)."""
    spans = [await _span(db, timer) for timer, _ in waits]
    users = [user for _, user_ids in waits for user in user_ids]
    since = min((start for start, _ in spans), default=now)
    periods = await clock_store.vacations_of(db, users, since=since) if users else {}
    found: list[tuple[list[int], float | None]] = []
    for (_, user_ids), (start, length) in zip(waits, spans, strict=True):
        due = {user: extend(start, length, periods.get(user, [])) for user in user_ids}
        later = [moment for moment in due.values() if moment > now + 1]
        found.append(
            ([user for user in user_ids if due[user] <= now + 1], min(later) if later else None)
        )
    return found


async def _span(db: Any, timer: timer_store.Timer) -> tuple[float, float]:
    payload = timer.payload
    if "since" in payload and "length" in payload:
        return float(payload["since"]), float(payload["length"])
    created_at = timer.created_at
    if created_at is None:  # a timer not read from its row (made in memory)
        row = await clock_store.timer_row(db, timer.id)
        created_at = row.created_at if row is not None else timer.due_at
    return created_at, max(0.0, timer.due_at - created_at)


async def put_off(bot: Any, timer: timer_store.Timer, due_at: float, **extra: Any) -> None:
    """Write `timer` again for `due_at` (it is deleted once its handler returns), keeping since
    when and for how long it waits, so an early return from vacation can bring it back."""
    since, length = await _span(bot.db, timer)
    payload = {**timer.payload, "since": since, "length": length, **extra}
    game_id = timer.game_id if timer.game_id is not None else payload["game_id"]
    await clock_store.add_game_timer(bot.db, game_id, timer.event, due_at, payload)
