"""Volleyball's leagues on the league host (host/leagues/): everything that changes a stored
Volleyball league's round, written once for the commands and the timers.

Every change runs on the league host, under the league's lock: it loads the league, computes
with the engine (rules.volleyball), and saves with the version it read (db/volleyball
save_league), so two changes never interleave and a round is never played twice. A round is
played by its deadline timer (the league host calls `play`) or `round run-now`; the new state,
the round's reports and the next deadline's timers (the reminder's among them) are written in
one transaction, and only then are the reports sent (reports.py): a crash in between leaves
them unsent, and they are sent at the next start-up (the league host's repair). The orders
are orders.py's, the seats seats.py's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from cogs.volleyball import lesson_card, listing
from cogs.volleyball.card import StatusCard
from cogs.volleyball.components import LeagueButton
from cogs.volleyball.playing import (
    decode,
    encode,
    end_season_reports,
    first_deadline,
    league_begins_report,
    league_secret,
    play_round_reports,
    round_key,
    round_name,
    round_time,
)
from cogs.volleyball.posting import Poster
from cogs.volleyball.reports import Reports
from db import timers as timer_store
from db import volleyball as store
from db.volleyball_records import NewRecord, write_records
from host import background
from host.leagues import (
    LeagueHost,
    LeagueReminders,
    Outcome,
    Reminder,
    Round,
    require_league_admin,
)
from host.listing import Entry
from host.notify import channel_link
from rules.periods import counted_deadline, time_left
from rules.volleyball import (
    DeadlineRule,
    LeagueState,
    missed_rounds_after,
    next_deadline,
)
from ui import UserError, shown
from ui.formats import timestamp
from ui.items import view_of

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

DEADLINE_EVENT = "volleyball_deadline"
REMIND_EVENT = "volleyball_remind"
RETRY_SECONDS = 600  # a deadline whose round failed to play is tried again this much later


class Leagues:
    """Volleyball's leagues, and their adapter on the league host (host/leagues/league_host.py
    `LeagueAdapter`, host/leagues/reminders.py `ReminderAdapter`): the host runs the deadlines,
    reminders, vacations and repair, and calls back here for what a Volleyball round is."""

    lock_name = "volleyball"
    deadline_event = DEADLINE_EVENT
    title = "the Volleyball leagues"
    gone = "That league no longer exists."
    retry_seconds: float | None = RETRY_SECONDS
    remind_event = REMIND_EVENT

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.poster = Poster(bot)
        self.host = LeagueHost(bot, self)
        self.reminders = LeagueReminders(self.host, self)
        self.card = StatusCard(self.host, self.poster)
        self.reports = Reports(bot, self.host, self.poster, self.card)

    @property
    def db(self):
        return self.bot.db

    async def load(self, league_id: int, *, by: int | None = None) -> store.StoredLeague:
        """The league (gone: a private refusal); `by`: for that user to act in (a lesson is
        its learner's alone: `refusal`)."""
        return await self.host.load(league_id, by=by)

    async def require_admin(
        self, interaction: discord.Interaction, stored: store.StoredLeague | None
    ) -> None:
        """Only the league's admins run it (host/leagues/admins.py): the server's, and members with
        the league's own admin role."""
        role = stored.admin_role_id if stored is not None else None
        await require_league_admin(self.db, interaction, role)

    # ---- changing a league ---------------------------------------------------------------------

    def deadline_timers(
        self,
        stored: store.StoredLeague,
        state: LeagueState,
        deadline: float,
        remind_minutes: int | None = None,
    ) -> list[timer_store.TimerSpec]:
        """The timer that plays what is next at `deadline`, and its reminder (the league host's,
        if it is still ahead). Their payload names the round, so a timer for a round already
        played does nothing."""
        season, number = round_key(state)
        payload = {"league_id": stored.id, "season": season, "round": number}
        remind = stored.remind_minutes if remind_minutes is None else remind_minutes
        reminder = self.reminders.timer(payload, deadline, remind)
        deadline_timer = timer_store.TimerSpec(DEADLINE_EVENT, deadline, payload)
        return [deadline_timer] if reminder is None else [deadline_timer, reminder]

    # ---- the round's time: extensions, pauses, vacations (rulings 52-54) ----------------------

    async def put_off_deadline(
        self,
        stored: store.StoredLeague,
        since: float,
        set_deadline: float,
        *,
        users: list[int] | None = None,
        pauses: bool | None = None,
    ) -> float:
        """The deadline of a round whose time runs from `since` to `set_deadline`, put off by
        the vacations of the managers (`users`, else the league's) when the league lets them
        (`pauses`, else its setting)."""
        if users is None:
            users = list((await store.managers(self.db, stored.id)).values())
        pauses = stored.vacation_pauses if pauses is None else pauses
        away = await self.host.vacations(users, since, counted=pauses)
        return counted_deadline(
            since, set_deadline, [p for periods in away.values() for p in periods]
        )

    async def arm(
        self,
        stored: store.StoredLeague,
        state: LeagueState,
        since: float,
        set_deadline: float,
        *,
        remind_minutes: int | None = None,
        pauses: bool | None = None,
    ) -> dict[str, Any]:
        """`save`'s keyword arguments `changes` and `deadline` for the round of `state` whose
        time runs from `since` to `set_deadline`: the round's time, and its deadline put off
        by the managers' vacations (ruling 53) with its timers."""
        moment = await self.put_off_deadline(stored, since, set_deadline, pauses=pauses)
        return {
            "changes": {"round_since": since, "set_deadline": set_deadline},
            "deadline": (moment, self.deadline_timers(stored, state, moment, remind_minutes)),
        }

    # ---- on the league host (host/leagues/league_host.py LeagueAdapter) ----------------------------

    async def load_league(self, league_id: int) -> store.StoredLeague | None:
        return await store.load_league(self.db, league_id)

    def refusal(self, league: store.StoredLeague, user_id: int) -> str | None:
        return lesson_card.refusal(league, user_id)

    def timer_target(self, payload: dict[str, Any]) -> tuple[int, Round]:
        return int(payload["league_id"]), (int(payload["season"]), int(payload["round"]))

    def round_of(self, league: store.StoredLeague) -> Round:
        return round_key(decode(league))

    def deadline_runs(self, league: store.StoredLeague) -> bool:
        return league.status == "running"

    def vacations_count(self, league: store.StoredLeague) -> bool:
        return league.vacation_pauses

    async def waits(self, league: store.StoredLeague, now: float) -> bool:
        """The deadline has come: it waits while a manager who went on vacation during the
        round puts it off (ruling 53), and moves to when it falls due."""
        span = round_time(league)
        armed = await self.arm(league, decode(league), *span) if span else None
        if armed is None or armed["deadline"][0] <= now + 1:
            return False
        await self.save(league, **armed)
        return True

    async def recount(self, league: store.StoredLeague) -> bool:
        """The deadline again from the round's time and the managers' vacations as they are
        now (a manager took a vacation or came back): saved when it moved."""
        span = round_time(league)
        if span is None:
            return False
        armed = await self.arm(league, decode(league), *span)
        moment = armed["deadline"][0]
        if abs(moment - (league.next_deadline or 0)) < 1:
            return False
        await self.save(league, **armed)
        log.info("league %s: the deadline moved to %s for vacations", league.id, moment)
        return True

    async def retry_at(self, league: store.StoredLeague, moment: float) -> None:
        """The round's deadline timer again at `moment` (its round failed to play); the
        deadline shown stays the one passed."""
        timers = self.deadline_timers(league, decode(league), moment)[:1]
        await self.save(league, deadline=(league.next_deadline, timers))

    async def unsettled(self, league: store.StoredLeague) -> list[str]:
        return []  # a round is played whole by the engine, saved with the next deadline (play)

    async def next_round(self, league: store.StoredLeague, now: float) -> None:
        pass  # saved by play, in the round's one transaction

    async def waiting_for(self, user_id: int) -> list[int]:
        return [league_id for league_id, _, _ in await store.leagues_of_manager(self.db, user_id)]

    async def league_ids(self) -> list[int]:
        return await store.leagues_of_status(self.db, store.STATUSES)

    async def held_back(self, guild_id: int) -> list[int]:
        return await store.leagues_unposted(self.db, guild_id)

    async def repair(self, league: store.StoredLeague) -> None:
        """At start-up: a running league whose deadline timer is gone gets it back."""
        if await store.league_timers_exist(self.db, league):
            return
        now = time.time()
        span = round_time(league) or (now, first_deadline(league, now))
        await self.save(league, **await self.arm(league, decode(league), *span))
        log.info("league %s: its deadline timer was written again", league.id)

    async def published(self, league_id: int, outcome: Outcome) -> None:
        """The reports a round (or a crash) left unsent are sent; the status card shows a
        change (at once when a deadline moved, soon after an admin's change)."""
        if outcome in ("played", "waits", "repaired"):
            await self.reports.send_pending_now(league_id)
        if outcome in ("waits", "moved"):
            await self.card.refresh(league_id)
        elif outcome == "changed":
            self.card.refresh_soon(league_id)
            self.send_held_back_soon(league_id)

    def send_held_back_soon(self, league_id: int) -> None:
        """After an admin's change (the league moved to a channel where the bot may post, say)
        the reports a missing permission held back are sent, in the background: the admin is
        answered first, and never waits behind Discord's limit of posts."""
        background.done_later(
            f"league {league_id}'s held-back reports",
            self.db,
            lambda: self.reports.send_pending_now(league_id),
        )

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        return await listing.games_entries(self.bot, user_id, now)

    async def save(self, stored: store.StoredLeague, **changes: Any) -> store.StoredLeague:
        """save_league, waking the timer dispatcher when timers were written."""
        try:
            saved = await store.save_league(self.db, stored, **changes)
        except store.StaleLeagueError:
            raise UserError("The league changed at the same moment; try again.") from None
        if changes.get("deadline") is not None:
            self.bot.timers.wake()
        return saved

    # ---- playing a round -----------------------------------------------------------------------

    async def play(self, stored: store.StoredLeague, now: float) -> None:
        """Under the league's lock: play its round (or season's end) and save it, with the
        missed rounds (ruling 55), the teams handed to the computer and the next deadline;
        its reports are saved to be sent (send_pending_now)."""
        state = decode(stored)
        managers = await store.managers(self.db, stored.id)
        on_file = await store.orders_on_file(self.db, stored.id, *round_key(state))
        counts: dict[str, int] = {}
        handed: dict[str, int] = {}
        if not state.season_over:
            counts = missed_rounds_after(
                managers,
                set(on_file),
                await store.missed_rounds(self.db, stored.id),
                await self.host.on_vacation(list(managers.values()), now),
            )
            if stored.hand_over_after:
                handed = {t: n for t, n in counts.items() if n >= stored.hand_over_after}
        staying = [user for team, user in managers.items() if team not in handed]
        span = None
        moment = None
        if stored.status == "running":
            rule = DeadlineRule.from_dict(stored.deadline_rule)
            set_deadline = next_deadline(rule, stored.anchor, now=now, after=stored.next_deadline)
            span = (now, set_deadline)
            moment = await self.put_off_deadline(stored, *span, users=staying)
        records: list[NewRecord] = []
        if state.season_over:
            after, reports = await asyncio.to_thread(
                end_season_reports, stored.name, state, managers, on_file, moment
            )
        else:
            # ruling 57: a league saved before its rounds were committed to gets its secret now
            after, reports, records = await asyncio.to_thread(
                play_round_reports,
                stored.name,
                state,
                managers,
                on_file,
                moment,
                handed,
                league_secret(self.bot) if state.league.secret is None else None,
            )

        async def missed(conn: Any) -> None:
            await store.set_missed_rounds(
                conn, stored.id, {t: n for t, n in counts.items() if t not in handed}
            )
            for team in sorted(handed):
                await store.hand_over(conn, stored.id, team)
            await write_records(conn, stored.id, *round_key(state), records)

        # Played while paused (run-now): the next round has no time yet; the resume gives it
        # a period.
        changes: dict[str, Any] = {"round_since": None, "set_deadline": None}
        deadline = None
        if span is not None and moment is not None:
            changes = {"round_since": span[0], "set_deadline": span[1]}
            deadline = (moment, self.deadline_timers(stored, after, moment))
        stored = await self.save(
            stored,
            state=encode(after),
            changes=changes,
            deadline=deadline,
            reports=(*round_key(state), reports),
            also=missed,
        )
        log.info("league %s: played %s", stored.id, round_name(state))
        if handed:
            log.info("league %s: the computer manages %s now", stored.id, sorted(handed))

    # ---- reminders (host/leagues/reminders.py ReminderAdapter) ---------------------------------

    def deadline_of(self, league: store.StoredLeague) -> float | None:
        return league.next_deadline

    async def missing(self, league: store.StoredLeague) -> list[int]:
        """The managers whose orders for the round are not on file."""
        managers = await store.managers(self.db, league.id)
        on_file = await store.orders_on_file(self.db, league.id, *self.round_of(league))
        return [user for team, user in managers.items() if team not in on_file]

    async def reminder(self, league: store.StoredLeague, deadline: float) -> Reminder:
        """Rulings 46 and 56: what is due and when, with the buttons a manager needs (a season's
        end asks for the ageing splits, which take no button)."""
        state = decode(league)
        name = shown(league.name)
        view = None
        if state.season_over:
            what = (
                f"the ageing splits for the end of season {state.league.season} of {name} are "
                f"due {timestamp(deadline, 'R')} (AGEING lines; without them the bot picks)."
            )
        else:
            what = (
                f"your orders for {round_name(state)} of {name} are due "
                f"{timestamp(deadline, 'R')}; without them your team plays the NMR line-up "
                "(rule 12)."
            )
            view = view_of([LeagueButton(league.id, "orders"), LeagueButton(league.id, "repeat")])
        card = await store.card_of(self.db, league.id)
        return Reminder(
            await self.poster.channel(league),
            what,
            f"Volleyball: {what}",
            channel_link(league.guild_id, league.channel_id, card),
            view,
        )

    # ---- start-up ----------------------------------------------------------------------------------

    def start(self) -> None:
        self.host.start()

    async def stop(self) -> None:
        await self.host.stop()

    # ---- administration ----------------------------------------------------------------------------

    async def start_league(self, league_id: int) -> tuple[store.StoredLeague, float]:
        """Forming -> running: the first deadline's timers and the season's publication (the
        report of round 0, sent by send_pending_now), in one save."""

        async def apply(stored: store.StoredLeague) -> tuple[store.StoredLeague, float]:
            if stored.status != "forming":
                raise UserError(f"{shown(stored.name)} has started already ({stored.status}).")
            now = time.time()
            rule = DeadlineRule.from_dict(stored.deadline_rule)
            state = decode(stored)
            armed = await self.arm(
                stored, state, now, next_deadline(rule, now, now=now, after=None)
            )
            deadline = armed["deadline"][0]
            managers = await store.managers(self.db, stored.id)
            report = league_begins_report(stored.name, rule.describe(), state, deadline, managers)
            stored = await self.save(
                stored,
                status="running",
                changes={"anchor": now, **armed["changes"]},
                deadline=armed["deadline"],
                reports=(state.league.season, 0, [report]),
            )
            return stored, deadline

        return await self.host.change(league_id, apply, shown=False)

    async def pause(self, league_id: int) -> store.StoredLeague:
        """No deadlines until resumed (the timers are deleted; orders on file stay); the
        round's time is kept, and what it has left is given back at the resume (ruling 52)."""

        async def apply(stored: store.StoredLeague) -> store.StoredLeague:
            if stored.status != "running":
                raise UserError(f"{shown(stored.name)} is not running ({stored.status}).")
            span = round_time(stored)
            changes: dict[str, Any] = {"paused_at": time.time()}
            if span is not None:
                changes |= {"round_since": span[0], "set_deadline": span[1]}
            saved = await self.save(stored, status="paused", changes=changes, deadline=(None, []))
            return saved

        return await self.host.change(league_id, apply)

    async def resume(self, league_id: int) -> tuple[store.StoredLeague, float]:
        """Paused -> running: the round gets the time it had left when it was paused (its
        managers' vacations not counted), and an every-N-hours rule's later deadlines move by
        the length of the pause (ruling 52). A round without its time kept (paused before
        it was, or played while paused) gets the rule's first deadline at least half a period
        away (ruling 43)."""

        async def apply(stored: store.StoredLeague) -> tuple[store.StoredLeague, float]:
            if stored.status != "paused":
                raise UserError(f"{shown(stored.name)} is not paused ({stored.status}).")
            now = time.time()
            state = decode(stored)
            rule = DeadlineRule.from_dict(stored.deadline_rule)
            changes: dict[str, Any] = {"paused_at": None}
            if stored.paused_at is not None and stored.set_deadline is not None:
                since = stored.round_since if stored.round_since is not None else stored.paused_at
                users = list((await store.managers(self.db, stored.id)).values())
                away = await self.host.vacations(users, since, counted=stored.vacation_pauses)
                left = time_left(
                    since,
                    stored.set_deadline,
                    stored.paused_at,
                    [p for periods in away.values() for p in periods],
                )
                set_deadline = now + left
                if rule.every_hours is not None:
                    changes["anchor"] = stored.anchor + max(0.0, now - stored.paused_at)
            else:  # paused before its time was kept, or played while paused: a period
                set_deadline = next_deadline(rule, stored.anchor, now=now, after=now)
            armed = await self.arm(stored, state, now, set_deadline)
            deadline = armed["deadline"][0]
            stored = await self.save(
                stored,
                status="running",
                changes={**changes, **armed["changes"]},
                deadline=armed["deadline"],
            )
            return stored, deadline

        return await self.host.change(league_id, apply)

    async def extend(self, league_id: int, hours: int) -> tuple[store.StoredLeague, float]:
        """The running round's deadline `hours` later (ruling 54); its reminder moves with
        it. Only this round's: the next deadline follows the rule (ruling 43)."""

        async def apply(stored: store.StoredLeague) -> tuple[store.StoredLeague, float]:
            span = round_time(stored)
            if stored.status != "running" or span is None:
                raise UserError(
                    f"{shown(stored.name)} has no deadline to extend ({stored.status})"
                    + (
                        ": `/volleyball league resume` gives its round the time it had left."
                        if stored.status == "paused"
                        else "."
                    )
                )
            since, set_deadline = span
            armed = await self.arm(stored, decode(stored), since, set_deadline + hours * 3600)
            deadline = armed["deadline"][0]
            stored = await self.save(stored, **armed)
            return stored, deadline

        return await self.host.change(league_id, apply)

    async def reschedule(self, league_id: int, changes: dict[str, Any]) -> store.StoredLeague:
        """Other columns (channel, roles, deadline rule, reminder time, the deadline policies)
        in one save; with a new rule the next deadline follows it (from now), with a new
        reminder time the reminder moves, with vacations allowed or not the deadline is put
        off by them or not."""

        async def apply(stored: store.StoredLeague) -> store.StoredLeague:
            now = time.time()
            wanted = {**changes, "anchor": now} if "deadline_rule" in changes else changes
            armed: dict[str, Any] = {}
            timed = {"deadline_rule", "remind_minutes", "vacation_pauses"}
            span = round_time(stored)
            if stored.status == "running" and timed & set(wanted) and span is not None:
                if "deadline_rule" in wanted:
                    rule = DeadlineRule.from_dict(wanted["deadline_rule"])
                    span = (now, next_deadline(rule, now, now=now, after=None))
                armed = await self.arm(
                    stored,
                    decode(stored),
                    *span,
                    remind_minutes=wanted.get("remind_minutes"),
                    pauses=wanted.get("vacation_pauses"),
                )
                wanted = {**wanted, **armed.pop("changes")}
            saved = await self.save(stored, changes=wanted, **armed)
            return saved

        return await self.host.change(league_id, apply)
