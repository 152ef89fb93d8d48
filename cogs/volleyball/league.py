"""The league service (the Volleyball cog's `leagues`): everything that changes a stored Volleyball league,
written once for the commands, the forms and the timers, on the league host (host/leagues/).

Every change runs under the league's lock (the league host's), loads the league, computes with
the engine (rules.volleyball), and saves with the version it read (db/volleyball.save_league),
so two changes never interleave and a round is never played twice. A round is played by its
deadline timer (the league host calls `play`) or `round run-now`; the new state, the round's
reports and the next deadline's timers are written in one transaction, and only then are the
reports sent (`published`): a crash in between leaves them marked unsent, and they are sent at
the next start-up (the league host's repair).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from cogs.volleyball.card import StatusCard
from cogs.volleyball.components import LeagueButton, OrdersForm, RetryButton, TeamForm
from cogs.volleyball.forms import (
    JoinedBoxes,
    changed_lines,
    on_file_line,
    order_boxes,
    parse_roster,
    roster_text,
)
from cogs.volleyball.playing import (
    decode,
    encode,
    end_season_reports,
    league_begins_report,
    play_round_reports,
    round_key,
    round_name,
)
from cogs.volleyball.posting import MAX_FILES, Poster, files_of
from cogs.volleyball.present import (
    Markup,
    due,
    item,
    pack,
    season_start_lines,
    team_sheet_messages,
)
from db import clocks as clock_store
from db import timers as timer_store
from db import volleyball as store
from host import notify
from host.follow import Followable
from host.leagues import LeagueHost, Outcome, Round, require_league_admin
from host.listing import Entry, LiveLine, server_name
from host.locks import GameLock
from host.notify import channel_link
from rules.periods import counted_deadline, time_left
from rules.volleyball import (
    DeadlineRule,
    LeagueState,
    OrderCheck,
    RoundOrders,
    Team,
    create_team,
    format_orders_text,
    generated_roster,
    generated_team_name,
    missed_rounds_after,
    new_team_problems,
    next_deadline,
    release_seat,
    repeat_lineups,
    round_fixtures,
    submit_orders,
    take_over_seat,
    team_fixtures,
)
from ui import UserError, fit, quote, send_ephemeral, shown
from ui.formats import human_join, plural, timestamp
from ui.items import view_of

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

DEADLINE_EVENT = "volleyball_deadline"
REMIND_EVENT = "volleyball_remind"
MAX_ANSWER_MESSAGES = 4  # an answer longer than this goes as a file too
RETRY_SECONDS = 600  # a deadline whose round failed to play is tried again this much later


class Leagues:
    """Volleyball's leagues, and their adapter on the league host (host/leagues/service.py
    `LeagueAdapter`): the host runs the deadlines, vacations and repair, and calls back here
    for what a Volleyball round is."""

    lock_name = "volleyball"
    deadline_event = DEADLINE_EVENT
    title = "the Volleyball leagues"
    gone = "That league no longer exists."
    retry_seconds: float | None = RETRY_SECONDS

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.poster = Poster(bot)
        self.card = StatusCard(self)
        self.host = LeagueHost(bot, self)
        bot.timers.register(REMIND_EVENT, self.on_remind_timer)
        bot.matches.follows.register("league", "volleyball", self.followable)

    def lock(self, league_id: int) -> GameLock:
        return self.host.lock(league_id)

    @property
    def db(self):
        return self.bot.db

    # ---- finding leagues and teams -----------------------------------------------------------

    async def find(self, interaction: discord.Interaction, name: str | None) -> store.StoredLeague:
        """The league a command is about: the one named, else the only one in the server,
        else the one whose results channel this is, else the caller's only one."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UserError("Volleyball leagues live in a server, not in DMs.")
        if name:
            found = await store.league_named(self.db, guild_id, name)
            if found is None:
                names = await store.league_names(self.db, guild_id)
                known = f" Leagues here: {human_join([shown(n) for n in names])}." if names else ""
                raise UserError(f"There is no Volleyball league called {quote(name)} here.{known}")
            return found
        leagues = await store.leagues_in_guild(self.db, guild_id)
        if not leagues:
            raise UserError(
                "There is no Volleyball league in this server yet. A server admin starts one "
                "with `/volleyball league create`."
            )
        if len(leagues) == 1:
            return leagues[0]
        here = [league for league in leagues if league.channel_id == interaction.channel_id]
        if len(here) == 1:
            return here[0]
        mine = await store.leagues_managed_by(self.db, guild_id, interaction.user.id)
        if len(mine) == 1:
            return next(league for league in leagues if league.id == mine[0])
        raise UserError(
            "This server has several leagues; name one with the league option: "
            + human_join([shown(league.name) for league in leagues])
            + "."
        )

    async def load(self, league_id: int) -> store.StoredLeague:
        return await self.host.load(league_id)

    async def my_team(self, stored: store.StoredLeague, state: LeagueState, user_id: int) -> Team:
        name = await store.team_of(self.db, stored.id, user_id)
        team = state.league.team(name) if name is not None else None
        if team is None:
            raise UserError(
                f"You don't manage a team in {shown(stored.name)}. `/volleyball team create` "
                "makes one; `/volleyball take-seat` takes over a computer team."
            )
        return team

    async def require_admin(
        self, interaction: discord.Interaction, stored: store.StoredLeague | None
    ) -> None:
        """Only the league's admins run it (host/leagues/admins.py): the server's, and members with
        the league's own admin role."""
        role = stored.admin_role_id if stored is not None else None
        await require_league_admin(self.db, interaction, role)

    # ---- changing a league ---------------------------------------------------------------------

    @staticmethod
    def deadline_timers(
        stored: store.StoredLeague,
        state: LeagueState,
        deadline: float,
        remind_minutes: int | None = None,
    ) -> list[timer_store.TimerSpec]:
        """The timer that plays what is next at `deadline`, and its reminder (if it is still
        ahead). Their payload names the round, so a timer for a round already played does
        nothing."""
        season, number = round_key(state)
        payload = {"league_id": stored.id, "season": season, "round": number}
        specs = [timer_store.TimerSpec(DEADLINE_EVENT, deadline, payload)]
        remind = stored.remind_minutes if remind_minutes is None else remind_minutes
        remind_at = deadline - remind * 60
        if remind > 0 and remind_at > time.time():
            specs.append(timer_store.TimerSpec(REMIND_EVENT, remind_at, payload))
        return specs

    def first_deadline(self, stored: store.StoredLeague, now: float) -> float:
        rule = DeadlineRule.from_dict(stored.deadline_rule)
        return next_deadline(rule, stored.anchor, now=now, after=None)

    # ---- the round's time: extensions, pauses, vacations (rulings 52-54) ----------------------

    @staticmethod
    def round_time(stored: store.StoredLeague) -> tuple[float, float] | None:
        """(since, set deadline) of the round that runs now; None while no deadline is set. A
        league armed before its round's time was stored counts a period back from its
        deadline; a deadline on file earlier than the set one (moved by hand) wins."""
        if stored.next_deadline is None:
            return None
        rule = DeadlineRule.from_dict(stored.deadline_rule)
        deadline = min(stored.set_deadline or stored.next_deadline, stored.next_deadline)
        since = stored.round_since if stored.round_since is not None else deadline - rule.period
        return min(since, deadline), deadline

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

    # ---- on the league host (host/leagues/service.py LeagueAdapter) ----------------------------

    async def load_league(self, league_id: int) -> store.StoredLeague | None:
        return await store.load_league(self.db, league_id)

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
        span = self.round_time(league)
        armed = await self.arm(league, decode(league), *span) if span else None
        if armed is None or armed["deadline"][0] <= now + 1:
            return False
        await self.save(league, **armed)
        return True

    async def recount(self, league: store.StoredLeague) -> bool:
        """The deadline again from the round's time and the managers' vacations as they are
        now (a manager took a vacation or came back): saved when it moved."""
        span = self.round_time(league)
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

    async def repair(self, league: store.StoredLeague) -> None:
        """At start-up: a running league whose deadline timer is gone gets it back."""
        if await store.league_timers_exist(self.db, league):
            return
        now = time.time()
        span = self.round_time(league) or (now, self.first_deadline(league, now))
        await self.save(league, **await self.arm(league, decode(league), *span))
        log.info("league %s: its deadline timer was written again", league.id)

    async def published(self, league_id: int, outcome: Outcome) -> None:
        """The reports a round (or a crash) left unsent are sent; the status card shows a
        change (at once when a deadline moved, soon after an admin's change)."""
        if outcome in ("played", "waits", "repaired"):
            await self.send_pending_now(league_id)
        if outcome in ("waits", "moved"):
            await self.card.refresh(league_id)
        elif outcome == "changed":
            self.card.refresh_soon(league_id)

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        """/games: a line per league the user manages a team in, saying whether this round's
        orders of theirs are on file (the names only: never their contents), with the
        league's deadline and a link to its status card."""
        found = []
        for league_id, _, team in await store.leagues_of_manager(self.db, user_id):
            stored = await store.load_league(self.db, league_id)
            if stored is None:
                continue
            due = stored.status == "running"
            sent = False
            if due:
                state = decode(stored)
                sent = team in await store.orders_on_file(self.db, stored.id, *round_key(state))
                what = round_name(state)
                doing = f"orders for {what} sent" if sent else f"**your orders** for {what}"
            else:
                doing = not_running(stored)
            card = await store.card_of(self.db, stored.id)
            found.append(
                Entry(
                    due and not sent,
                    f"Volleyball league {shown(stored.name)}",
                    server_name(self.bot, stored.guild_id),
                    f"team {shown(team)}",
                    doing,
                    channel_link(stored.guild_id, stored.channel_id, card),
                    stored.next_deadline if due else None,
                    "deadline",
                )
            )
        return found

    async def live_entries(self, guild_id: int) -> list[LiveLine]:
        """/live: each league of the server with its teams, the round being played and how many
        orders are in (a count: the card names the teams, never what the orders say), its
        deadline and a link to its status card."""
        found = []
        for stored in await store.leagues_in_guild(self.db, guild_id):
            state = decode(stored)
            teams = len(state.league.teams)
            running = stored.status == "running"
            if running:
                # the card's count: the managed teams (the others are the bot's)
                managed = len(await store.managers(self.db, stored.id))
                sent = len(await store.orders_on_file(self.db, stored.id, *round_key(state)))
                doing = f"{round_name(state)}: orders in {sent} of {managed}"
            else:
                doing = not_running(stored)
            card = await store.card_of(self.db, stored.id)
            found.append(
                LiveLine(
                    f"Volleyball league {shown(stored.name)}",
                    f"{plural(teams):team}",
                    "",
                    doing,
                    channel_link(stored.guild_id, stored.channel_id, card),
                    deadline=stored.next_deadline if running else None,
                )
            )
        return found

    async def save(self, stored: store.StoredLeague, **changes: Any) -> store.StoredLeague:
        """save_league, waking the timer dispatcher when timers were written."""
        try:
            saved = await store.save_league(self.db, stored, **changes)
        except store.StaleLeagueError:
            raise UserError("The league changed at the same moment; try again.") from None
        if changes.get("deadline") is not None:
            self.bot.timers.wake()
        return saved

    # ---- orders ------------------------------------------------------------------------------

    async def open_orders_form(self, interaction: discord.Interaction, league_id: int) -> None:
        stored = await self.load(league_id)
        state = decode(stored)
        team = await self.my_team(stored, state, interaction.user.id)
        if state.season_over:
            raise UserError(
                "The season is over: send your ageing splits (AGEING: PLAYER OL N lines) with "
                "`/volleyball orders upload`, or leave them to the bot's default."
            )
        on_file = await self.orders_on_file(stored, state, team.name)
        season, number = round_key(state)
        kept = await store.kept_form(self.db, stored.id, interaction.user.id, "orders")
        fields = (
            kept.fields if kept and (kept.season, kept.round_number) == (season, number) else None
        )
        boxes = order_boxes(state, team, on_file, fields)
        await interaction.response.send_modal(
            OrdersForm(stored.id, season, number, boxes, kept=fields is not None)
        )

    async def open_team_form(
        self,
        interaction: discord.Interaction,
        league_id: int,
        seat: str | None,
        name: str = "",
        *,
        made: bool = False,
    ) -> None:
        """The team form (rule 1), with the text of a refused one when there is one; `made`
        ("Make me a team") fills it with a legal roster the bot made (generated_roster,
        seeded by the league and the manager), to send as it is or edit first."""
        stored = await self.load(league_id)
        state = decode(stored)
        current = await store.team_of(self.db, stored.id, interaction.user.id)
        if current is not None:
            raise UserError(f"You manage {shown(current)} in {shown(stored.name)} already.")
        chosen = self.free_seat(stored, state, seat)
        config = state.league.config
        fields: dict[str, str] = {}
        if made:
            seed = f"{stored.settings.get('seed', stored.id)}:{interaction.user.id}"
            taken = [t.name for t in state.league.teams if t.name != chosen.name]
            players = await asyncio.to_thread(generated_roster, config, seed)
            fields = {
                "name": name or generated_team_name(seed, taken),
                "players": roster_text(players),
            }
        else:
            kept = await store.kept_form(self.db, stored.id, interaction.user.id, "team")
            fields = kept.fields if kept is not None else {}
        await interaction.response.send_modal(
            TeamForm(
                stored.id,
                state.league.teams.index(chosen),
                config,
                fields.get("name", name),
                fields.get("players", ""),
                made=made,
            )
        )

    async def show_sheet(self, interaction: discord.Interaction, league_id: int) -> None:
        """The manager's team sheet, ephemerally."""
        messages = await self.sheet_messages(league_id, interaction.user.id)
        await self.answer(interaction, messages, packed=True)

    async def sheet_messages(self, league_id: int, user_id: int) -> list[str]:
        """The manager's team sheet: the last round's (with its private lines), or the team
        as it is now."""
        stored = await self.load(league_id)
        state = decode(stored)
        team = await self.my_team(stored, state, user_id)
        season, number = round_key(state)
        last = await store.report_for(self.db, stored.id, season, number - 1, team.name)
        if last is not None and last.user_id == user_id:
            return last.messages
        return team_sheet_messages(stored.name, state, team.name, self.deadline(stored))

    @staticmethod
    def deadline(stored: store.StoredLeague) -> float | None:
        return stored.next_deadline if stored.status == "running" else None

    async def orders_on_file(
        self, stored: store.StoredLeague, state: LeagueState, team: str
    ) -> RoundOrders | None:
        season, number = round_key(state)
        text = await store.team_orders(self.db, stored.id, season, number, team)
        return None if text is None else RoundOrders.from_dict(json.loads(text))

    async def submit(
        self,
        interaction: discord.Interaction,
        league_id: int,
        text: str,
        *,
        whole: bool,
        for_round: tuple[int, int] | None = None,
        joined: JoinedBoxes | None = None,
        adding: str | None = None,
        lineups: RoundOrders | None = None,
        form: dict[str, str] | None = None,
        heading: list[str] | None = None,
    ) -> OrderCheck | None:
        """A manager's orders (a message: forms and order lines). `whole`: the text replaces
        everything on file (the orders form shows all of it); otherwise it is a piece that
        replaces only the kinds it contains; with `adding` (an order line's label, "BID:") the
        line is added to the lines of that kind on file instead. With `lineups` (the orders
        editor's line-ups, or last round's repeated) those are the piece, replacing the
        line-ups of their matches, and `text` is only what comes back as a file if the round
        was played meanwhile. `form` is the orders form's boxes as sent: refused, they are kept
        (store.keep_form) and a Fix and send again button opens the form with them.

        Accepted orders are stored; the answer says once what changed, what is on file, what
        is still missing and every warning. Refused ones change nothing, and the answer lists
        every problem with its line. Returns the check (None when the round had moved on)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.lock(league_id):
            stored = await self.load(league_id)
            state = decode(stored)
            team = await self.my_team(stored, state, interaction.user.id)
            key = round_key(state)
            if for_round is not None and key != for_round:
                await self.answer(
                    interaction,
                    [
                        f"Round {for_round[1]} was played after you opened the form, so nothing "
                        "was stored. Your text is attached: send what still applies with "
                        "`/volleyball orders upload`."
                    ],
                    attachment=("my-orders.txt", text),
                )
                return None
            self.require_before_deadline(stored, state)
            on_file = await self.orders_on_file(stored, state, team.name)
            if adding and on_file is not None:
                # The line is added to the lines of its kind on file; a line given twice is
                # two orders, which the engine refuses where the rules do (ruling 32).
                kept = [
                    line
                    for line in format_orders_text(on_file).splitlines()
                    if line.upper().startswith(adding)
                ]
                text = "\n".join([*kept, text])
            if lineups is not None:
                check = await asyncio.to_thread(
                    submit_orders,
                    state,
                    team.name,
                    orders=lineups,
                    kinds={"matches"},
                    on_file=on_file,
                )
            else:
                check = await asyncio.to_thread(
                    submit_orders,
                    state,
                    team.name,
                    text=text,
                    on_file=None if whole else on_file,
                )
            if check.accepted:
                try:
                    await store.save_orders(
                        self.db,
                        stored,
                        season=key[0],
                        round_number=key[1],
                        team=team.name,
                        orders=json.dumps(check.orders.to_dict()),
                        user_id=interaction.user.id,
                    )
                except store.StaleLeagueError:
                    raise UserError(
                        "The league changed while your orders were checked; nothing was "
                        "stored. Send them again."
                    ) from None
                await store.drop_form(self.db, stored.id, interaction.user.id, "orders")
            elif form is not None:
                await store.keep_form(
                    self.db,
                    stored.id,
                    interaction.user.id,
                    "orders",
                    season=key[0],
                    round_number=key[1],
                    fields=form,
                )
        what = round_name(state)
        view = None
        if check.accepted:
            changed = changed_lines(state, team, on_file, check.orders)
            deadline = self.deadline(stored)
            lines: list[str] = [
                Markup(
                    f"**Orders for {what} accepted** ({shown(team.name)})"
                    + (f", due {due(deadline)}." if deadline else ".")
                ),
            ]
            lines += heading or []
            lines.append("Changed:" if changed else "Changed: nothing.")
            lines += [item(line) for line in changed]
            lines.append(on_file_line(check.orders))
            # What is missing in one line (the engine's warnings say it per match).
            other = [w for w in check.warnings if not w.startswith("No line-up")]
            missing = missing_line(state, team, check.orders)
            if missing:
                lines.append(missing)
            if other:
                lines.append("Warnings:")
                lines += [item(w) for w in other]
            lines.append(
                Markup(
                    "`/volleyball orders show` lists them in full, `/volleyball preview` the "
                    "totals per set."
                )
            )
        else:
            problems = [joined.where(p) if joined else p for p in check.problems]
            kept_text = (
                "Your orders on file stay as they were (`/volleyball orders show`)."
                if on_file is not None
                else "Nothing was stored."
            )
            lines = [
                Markup(
                    f"**Orders for {what} refused** ({shown(team.name)}): "
                    f"{plural(len(problems)):problem}. {kept_text}"
                ),
                *(item(p) for p in problems),
            ]
            if form is not None:
                lines.append(
                    Markup(
                        "Your text is kept: **Fix and send again** opens the form with it "
                        "(so does `/volleyball orders send`)."
                    )
                )
                view = view_of([RetryButton(league_id, "orders")])
            if check.warnings:
                lines.append("Warnings:")
                lines += [item(w) for w in check.warnings]
        # The card shows who has sent orders: drawn now, shown right after the answer (the
        # answer is the manager's first sight; the card's edit is Discord's call only).
        card = await self.card.prepare(league_id) if check.accepted else None
        await self.answer(interaction, lines, view=view)
        if card is not None:
            await self.card.show(card)
        return check

    async def repeat_orders(self, interaction: discord.Interaction, league_id: int) -> None:
        """Last round's line-ups for this round's matches, adjusted to the team as it is
        (rules.volleyball.repeat_lineups) and checked like any orders."""
        stored = await self.load(league_id)
        state = decode(stored)
        team = await self.my_team(stored, state, interaction.user.id)
        if state.season_over:
            raise UserError(
                "The season is over: no matches to give line-ups for. Send your ageing splits "
                "with `/volleyball orders upload`, or leave them to the bot."
            )
        last = await store.last_orders(self.db, stored.id, team.name, round_key(state))
        previous = RoundOrders.from_dict(json.loads(last[2])) if last else None
        if last is None or previous is None or not previous.matches:
            raise UserError(
                f"{shown(team.name)} has no line-ups from an earlier round to repeat: "
                "`/volleyball orders send` or `/volleyball orders edit` writes them."
            )
        fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
        allowance = state.league.config.home_advantage_points(state.league.round_number)
        repeated = repeat_lineups(
            team,
            previous,
            fixtures,
            allowance,
            league_matches=state.league.config.matches_per_round,
        )
        heading: list[str] = [
            f"Your line-ups of round {last[1]} repeated"
            + (", changed where they had to be:" if repeated.changes else " as they were.")
        ]
        heading += [item(c) for c in repeated.changes]
        await self.submit(
            interaction,
            league_id,
            "",
            whole=False,
            for_round=round_key(state),
            lineups=repeated.orders,
            heading=heading,
        )

    @staticmethod
    def bot_deadline_known(stored: store.StoredLeague) -> bool:
        return stored.status == "running" and stored.next_deadline is not None

    def require_before_deadline(self, stored: store.StoredLeague, state: LeagueState) -> None:
        """Orders after the deadline are refused: the round is being played."""
        if self.bot_deadline_known(stored) and time.time() >= (stored.next_deadline or 0):
            raise UserError(
                f"The deadline for {round_name(state)} passed "
                f"{timestamp(stored.next_deadline or 0, 'R')}; it is being played now. Send "
                "your orders for the next round once its results are out."
            )

    async def answer(
        self,
        interaction: discord.Interaction,
        lines: list[str],
        *,
        attachment: tuple[str, str] | None = None,
        packed: bool = False,
        view: discord.ui.View | None = None,
    ) -> None:
        """Ephemeral messages that fit Discord: `lines` packed into messages (Markup as it
        is, anything else shown as text: ui.text.shown), or with `packed` messages already;
        at most a few, the rest as a text file. `view` goes with the last message."""
        messages = list(lines) if packed else pack(lines)
        files = []
        if len(messages) > MAX_ANSWER_MESSAGES:
            files.append(("answer.txt", "\n".join(messages)))
            messages = [
                *messages[: MAX_ANSWER_MESSAGES - 1],
                "(The whole answer is in the attached file.)",
            ]
        if attachment is not None:
            files.append(attachment)
        for index, message in enumerate(messages):
            extra: dict[str, Any] = {}
            if index == len(messages) - 1:
                if files:
                    extra["files"] = [
                        discord.File(io.BytesIO(body.encode()), filename=name)
                        for name, body in files
                    ]
                if view is not None:
                    extra["view"] = view
            await send_ephemeral(interaction, message, **extra)

    async def show_details(
        self,
        interaction: discord.Interaction,
        league_id: int,
        season: int,
        round_number: int,
        what: str,
    ) -> None:
        """A public post's details button (components.DETAILS), answered to the clicker only:
        the round's every set and who played (this season's rounds: a season's results are
        cleared when it closes), the table and the cup's bracket as they are now, or what the
        GM publishes for the season."""
        stored = await self.load(league_id)
        state = decode(stored)
        now = state.league.season
        name = shown(stored.name)
        if what == "season":
            await self.answer(interaction, season_start_lines(state))
            return
        if what == "sets" and season != now:
            raise UserError(
                f"Season {season} of {name} is over, and its rounds' sets with it; "
                "`/volleyball history` has each team's results."
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = state.league.round_number - 1
        if what == "sets":
            images = await self.poster.images(state, ["results"], round_number)
            caption = f"{name}, season {season}, round {round_number}: every set and who played."
        elif what == "table":
            images = await self.poster.images(state, ["standings"])
            after = f"after round {played}" if played else "before its first round"
            caption = f"{name}, season {now}: the table {after}."
        else:
            images = await self.poster.images(state, ["cup"])
            caption = f"{name}, season {now}: the Galaxy Cup."
        for start in range(0, len(images), MAX_FILES):
            await interaction.followup.send(
                caption if start == 0 else f"{caption} (more)",
                files=files_of(images[start : start + MAX_FILES]),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    # ---- playing a round -----------------------------------------------------------------------

    async def advance(
        self,
        league_id: int,
        *,
        expected: tuple[int, int] | None = None,
        forced: bool = False,
        send: bool = True,
    ) -> bool:
        """Play what is next in the league (a round, or the season's end) once, on the league
        host (`LeagueHost.advance`: `expected`, `forced` and `send` there); a round whose
        deadline a manager's vacation puts off (ruling 53) waits. Returns whether anything
        was played."""
        return await self.host.advance(league_id, expected=expected, forced=forced, send=send)

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
        if state.season_over:
            after, reports = await asyncio.to_thread(
                end_season_reports, stored.name, state, managers, on_file, moment
            )
        else:
            after, reports = await asyncio.to_thread(
                play_round_reports, stored.name, state, managers, on_file, moment, handed
            )

        async def missed(conn: Any) -> None:
            await store.set_missed_rounds(
                conn, stored.id, {t: n for t, n in counts.items() if t not in handed}
            )
            for team in sorted(handed):
                await store.hand_over(conn, stored.id, team)

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

    # ---- following (host/follow.py) ----------------------------------------------------------------

    async def followable(self, target: str) -> Followable | None:
        """The league "volleyball:ID" as a follower follows it (its card's Follow button)."""
        league_id = target.split(":", 1)[1]
        stored = await store.load_league(self.db, int(league_id)) if league_id.isdigit() else None
        if stored is None:
            return None
        managers = await store.managers(self.db, stored.id)
        return Followable(
            "league",
            target,
            f"Volleyball league {shown(stored.name)}",
            stored.guild_id,
            frozenset(managers.values()),
        )

    async def tell_followers(self, stored: store.StoredLeague, report: store.StoredReport) -> None:
        """A round's results (the public report's scores, every set in its images) to the
        league's followers, once each; its managers have the post and their sheets."""
        managers = await store.managers(self.db, stored.id)
        head = (report.messages or [f"**{shown(stored.name)}**"])[0]
        await self.bot.matches.follows.tell(
            [("league", f"volleyball:{stored.id}")],
            stored.guild_id,
            [(f"volleyball:{stored.id}:report:{report.id}", fit(head, 900))],
            channel=await self.poster.channel(stored),
            link=channel_link(stored.guild_id, stored.channel_id),
            members=managers.values(),
        )

    # ---- sending reports -------------------------------------------------------------------------

    async def send_pending(self, stored: store.StoredLeague) -> None:
        """Send the league's reports not sent yet (inside send_pending_now's lock)."""
        pending = await store.unposted_reports(self.db, stored.id)
        if not pending:
            return
        state = decode(stored)
        # The public post first, then the card again below it, then the managers' sheets.
        for report in sorted(pending, key=lambda r: (r.round_number, r.team != "", r.id)):
            try:
                await self.poster.send(stored, state, report)
            except discord.HTTPException as error:
                log.warning(
                    "league %s: report %s could not be sent: %s", stored.id, report.id, error
                )
            await store.mark_posted(self.db, report.id)
            if not report.team:
                await self.card.refresh(stored.id, repost=True)
                if report.round_number:  # round 0: a season's opening, no results
                    await self.tell_followers(stored, report)

    # ---- reminders -------------------------------------------------------------------------------

    async def on_remind_timer(self, timer: timer_store.Timer) -> None:
        """Rulings 46 and 56: the managers without orders on file (of the timer's `users`,
        when it names them) are reminded while the deadline is still ahead, each as their
        notification settings say (host/notify.py): a mention in the results channel with the
        buttons they need, a DM with a link to the league's card, or nothing. A manager in
        quiet hours or on vacation is reminded when those end, if that is before the deadline.
        A reminder that fires late, after the clock jumped past the deadline or the bot was
        down, says nothing: the round is being played."""
        payload = timer.payload
        stored = await store.load_league(self.db, int(payload["league_id"]))
        if stored is None or stored.status != "running":
            return
        state = decode(stored)
        if round_key(state) != (int(payload["season"]), int(payload["round"])):
            return
        deadline = stored.next_deadline
        now = time.time()
        if deadline is None or deadline <= now:
            return
        managers = await store.managers(self.db, stored.id)
        on_file = await store.orders_on_file(self.db, stored.id, *round_key(state))
        waiting = sorted(uid for team, uid in managers.items() if team not in on_file)
        if payload.get("users") is not None:
            waiting = [uid for uid in waiting if uid in payload["users"]]
        if not waiting:
            return
        found = await clock_store.vacations_of(self.db, waiting, since=now)
        back = {
            user: max(end for start, end in periods if start <= now)
            for user, periods in found.items()
            if any(start <= now for start, _ in periods)
        }
        pings = await notify.people_pings(self.db, [u for u in waiting if u not in back], now)
        later = {**pings.later, **back}
        for moment in sorted(set(later.values())):
            if moment < deadline - 60:  # one that would come after the deadline never comes
                users = sorted(user for user, at in later.items() if at == moment)
                again = {key: payload[key] for key in ("league_id", "season", "round")}
                await timer_store.create_timer(
                    self.db, REMIND_EVENT, moment, {**again, "users": users}, now=now
                )
                self.bot.timers.wake()
        if state.season_over:
            what = (
                f"the ageing splits for the end of season {state.league.season} of "
                f"{shown(stored.name)} are due {timestamp(deadline, 'R')} (AGEING lines; without "
                "them the bot picks)."
            )
            controls: dict[str, Any] = {}
        else:
            what = (
                f"your orders for {round_name(state)} of {shown(stored.name)} are due "
                f"{timestamp(deadline, 'R')}; without them your team plays the NMR line-up "
                "(rule 12)."
            )
            controls = {
                "view": view_of(
                    [LeagueButton(stored.id, "orders"), LeagueButton(stored.id, "repeat")]
                )
            }
        card = await store.card_of(self.db, stored.id)
        link = channel_link(stored.guild_id, stored.channel_id, card)
        channel = await self.poster.channel(stored)
        await notify.deliver(
            self.bot, pings, channel, what, dm=f"Volleyball: {what}", link=link, **controls
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

    async def send_pending_now(self, league_id: int) -> None:
        """Send what a change left to send (after the command that made it was answered).
        Under a lock of its own, not the league's: the posts wait on Discord's limit of posts
        per channel (5 in 5 s), and a command on the league (which takes the league's lock
        before answering) must not wait behind them past its 3 seconds. One sender at a time
        sends every report left, oldest round first, so none is sent twice or out of order."""
        async with self.bot.game_locks(("volleyball-reports", league_id)):
            stored = await store.load_league(self.db, league_id)
            if stored is not None:
                await self.send_pending(stored)

    async def pause(self, league_id: int) -> store.StoredLeague:
        """No deadlines until resumed (the timers are deleted; orders on file stay); the
        round's time is kept, and what it has left is given back at the resume (ruling 52)."""

        async def apply(stored: store.StoredLeague) -> store.StoredLeague:
            if stored.status != "running":
                raise UserError(f"{shown(stored.name)} is not running ({stored.status}).")
            span = self.round_time(stored)
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
            span = self.round_time(stored)
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
            span = self.round_time(stored)
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

    # ---- managers ------------------------------------------------------------------------------------

    @staticmethod
    def free_seat(stored: store.StoredLeague, state: LeagueState, seat: str | None) -> Team:
        """The computer team whose seat a manager takes: the one named, or the first one."""
        if seat:
            team = state.league.team(seat)
            if team is None:
                raise UserError(f"There is no team called {quote(seat)} in {shown(stored.name)}.")
            if team.manager_id is not None:
                raise UserError(f"{shown(team.name)} has a manager; pick a computer team's seat.")
            return team
        for team in sorted(state.league.teams, key=lambda t: t.division):
            if team.manager_id is None:
                return team
        raise UserError(f"Every seat in {shown(stored.name)} has a manager.")

    async def release(self, league_id: int, user_id: int) -> str | None:
        """The user stops managing their team in the league (they deleted their data): the
        computer manages it from the next round; their orders on file go. Returns the team."""

        async def apply(stored: store.StoredLeague) -> str | None:
            team = await store.team_of(self.db, stored.id, user_id)
            if team is None:
                return None
            after = release_seat(decode(stored), team)

            async def drop(conn: Any) -> None:
                await store.remove_manager(conn, stored.id, user_id)

            await self.save(stored, state=encode(after), also=drop)
            return team

        team = await self.host.change(league_id, apply, shown=False)
        if team is not None:
            self.card.refresh_soon(league_id)
        return team

    async def join(
        self,
        league_id: int,
        user_id: int,
        *,
        seat: str | None,
        name: str | None = None,
        roster_text: str | None = None,
        form: bool = False,
    ) -> tuple[store.StoredLeague, str, str]:
        """A manager joins: with a roster, a new team (rule 1) in a computer team's seat;
        without, the computer team as it is (ruling 39). Returns the league, the team's name
        and the seat's old name. A team that breaks rule 1 raises TeamRefused listing every
        problem; with `form` (it came from the team form) its text is kept for Fix and send
        again."""
        roster = parse_roster(roster_text) if roster_text is not None else None

        async def apply(stored: store.StoredLeague) -> tuple[store.StoredLeague, str, str]:
            state = decode(stored)
            current = await store.team_of(self.db, stored.id, user_id)
            if current is not None:
                raise UserError(f"You manage {shown(current)} in {shown(stored.name)} already.")
            chosen = self.free_seat(stored, state, seat)
            new_team = None
            if roster is not None:
                config = state.league.config
                team_name = " ".join((name or roster.name or "").split())
                taken = [t.name for t in state.league.teams if t.name != chosen.name]
                problems = roster.problems + new_team_problems(
                    team_name, roster.players, config, taken
                )
                if problems:
                    if form:
                        season, number = round_key(state)
                        await store.keep_form(
                            self.db,
                            stored.id,
                            user_id,
                            "team",
                            season=season,
                            round_number=number,
                            fields={"name": name or "", "players": roster_text or ""},
                        )
                    raise TeamRefused(
                        "\n".join(
                            [
                                f"Your team was not created: {plural(len(problems)):problem}.",
                                *(item(p) for p in problems),
                                points_per_age(config.player_points_by_age),
                            ]
                        )
                    )
                new_team = create_team(
                    team_name,
                    roster.players,
                    config,
                    manager_id=str(user_id),
                    taken_team_names=taken,
                )
            after = take_over_seat(state, chosen.name, str(user_id), new_team)
            joined = new_team.name if new_team is not None else chosen.name

            async def add(conn: Any) -> None:
                await store.add_manager(conn, stored.id, user_id, joined)
                if joined != chosen.name:  # the seat plays under the new team's name now
                    await store.rename_opponent(
                        conn, stored.id, *round_key(state), chosen.name, joined
                    )

            try:
                stored = await self.save(stored, state=encode(after), also=add)
            except store.DuplicateManagerError:
                raise UserError(
                    f"You manage a team in {shown(stored.name)} already, or {shown(joined)} "
                    "has a manager."
                ) from None
            await store.drop_form(self.db, stored.id, user_id, "team")
            return stored, joined, chosen.name

        return await self.host.change(league_id, apply)


def missing_line(state: LeagueState, team: Team, orders: RoundOrders) -> str:
    """ "Still missing: line-ups for matches 1 and 2: the NMR line-up (rule 12) plays them." """
    if state.season_over:
        return ""
    given = {m.match_number for m in orders.matches}
    fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
    numbers = [str(f.match_number) for f in fixtures if f.match_number not in given]
    if not numbers:
        return ""
    count = plural(len(numbers))
    return (
        f"Still missing: {count:the line-up|line-ups!} for {count:match|matches!} "
        f"{human_join(numbers, final='and')}: the NMR line-up (rule 12) plays {count:it|them!}."
    )


class TeamRefused(UserError):
    """A new team that breaks rule 1; the message lists every problem."""


def points_per_age(points: dict[str, int]) -> str:
    """Rule 1's budget as the team form's answer repeats it."""
    budget = ", ".join(f"Age {age} {n}" for age, n in points.items())
    return (
        f"Player points this season: {budget}; each player at most 24, each level at least 1, "
        "the higher level at most twice the lower."
    )


def not_running(stored: store.StoredLeague) -> str:
    """A league not playing a round, as a list line says it."""
    return {
        "forming": "forming: the season has not started",
        "paused": "paused by its admins",
    }.get(stored.status, stored.status)
