"""Volleyball's slash commands (`/volleyball ...`): league administration, managers' teams and
orders, and the public answers (table, schedule, results, cup, history, season). Each command
parses the interaction and hands over to the leagues (league.py), their seats (seats.py) or a
manager's orders (orders.py, editor.py), or answers from the stored state with the engine's
read-only calls. Its league, team and sponsor options are transformers with their completion
(cogs/volleyball/options.py); every name a message shows goes through ui.text.shown. The
league's buttons (components.py) hand their clicks to this cog (`press_league_button`,
`press_retry`), a public post's details button to its orders (`orders.show_details`).
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.volleyball import lesson, lesson_card, why
from cogs.volleyball import replays as vb_replays
from cogs.volleyball.answers import TeamRefused, answer
from cogs.volleyball.components import (
    DYNAMIC_ITEMS,
    ORDERS_FORM_ID,
    TEAM_FORM_ID,
    TEAM_ORDERS,
    RetryButton,
)
from cogs.volleyball.editor import EDITOR_ITEMS, POINTS_FORM_ID, open_editor, submit_points
from cogs.volleyball.forms import join_boxes, order_summary_lines
from cogs.volleyball.league import Leagues
from cogs.volleyball.listing import live_entries
from cogs.volleyball.options import (
    AnyTeam,
    ComputerSeat,
    League,
    Sponsor,
    find_league,
    with_league,
)
from cogs.volleyball.orders import Orders
from cogs.volleyball.playing import decode, encode, league_secret, round_key, round_name
from cogs.volleyball.present import deadline_policies, depth_line
from cogs.volleyball.rules_text import RULES_PAGES, TOPICS
from cogs.volleyball.seats import Seats, free_seat
from cogs.volleyball.settings import (
    describe_config,
    parse_season_settings,
    season_config,
    settings_help,
)
from db import volleyball as store
from db import volleyball_drafts as drafts
from host import replays as host_replays
from host.lessons import STARTERS
from host.listing import Entry, LiveLine
from rules.names import clean_name
from rules.volleyball import (
    WEEKDAYS,
    DeadlineError,
    DeadlineRule,
    LeagueState,
    division_sizes,
    format_round_forms,
    lesson_script,
    market_lines,
    new_league,
    parse_rule,
    results_lines,
    round_fixtures,
    schedule_lines,
    season_publication,
    squad_depth,
    team_fixtures,
    team_history,
)
from ui import Markup, UserError, bold, send_ephemeral, shown
from ui.formats import due, plural
from ui.forms import FormRoute, route_form
from ui.items import view_of
from ui.uploads import read_upload

if TYPE_CHECKING:
    from bot import Ballcourt

LEAGUE_NAME_LENGTH = 40
WEEKDAY_CHOICES = [app_commands.Choice(name=day, value=day) for day in WEEKDAYS]


def require_pingable(role: discord.Role | None) -> None:
    """@everyone is not a role to ping with every round's results."""
    if role is not None and role.is_default():
        raise UserError("Pick a role for the results' ping, not @everyone.")


def text_file(name: str, text: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode()), filename=name)


class Volleyball(commands.Cog):
    group = app_commands.Group(
        name="volleyball", description="Volleyball: a league the bot runs", guild_only=True
    )
    league_group = app_commands.Group(name="league", description="Run a league", parent=group)
    round_group = app_commands.Group(name="round", description="A league's rounds", parent=group)
    team_group = app_commands.Group(name="team", description="Your team", parent=group)
    orders_group = app_commands.Group(name="orders", description="Your orders", parent=group)

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.leagues = Leagues(bot)
        self.seats = Seats(self.leagues)
        self.orders = Orders(self.leagues)  # found by the orders editor with orders.orders_of
        self.form_routes = (
            FormRoute(ORDERS_FORM_ID, self.submit_orders_form),
            FormRoute(TEAM_FORM_ID, self.submit_team_form),
            FormRoute(POINTS_FORM_ID, submit_points),
        )
        host_replays.register(vb_replays.KIND, vb_replays.find)  # ruling 57: a match's replay

    async def cog_load(self) -> None:
        self.leagues.start()

    async def cog_unload(self) -> None:
        await self.leagues.stop()

    # ---- the league's buttons (components.LeagueControls) ---------------------------------------

    async def press_league_button(
        self, interaction: discord.Interaction, league_id: int, action: str
    ) -> None:
        stored = await self.leagues.load(league_id, by=interaction.user.id)
        if lesson_card.is_lesson(stored) and action in ("orders", "repeat"):
            lesson_card.checked(stored, action)  # typed orders are not the lesson's: its hint
        if action == "orders":
            await self.orders.open_orders_form(interaction, league_id)
        elif action == "edit":
            await open_editor(interaction, league_id)
            if lesson_card.is_lesson(stored) and not lesson_card.mismatch_of(stored, "edit"):
                await lesson.advance(self.leagues, stored)
        elif action == "repeat":
            await self.orders.repeat_orders(interaction, league_id)
        elif action == "why":
            await why.explain_latest(interaction, self.bot.db, stored)
            if lesson_card.is_lesson(stored) and not lesson_card.mismatch_of(stored, "why"):
                await lesson.advance(self.leagues, stored)
        else:
            await self.orders.show_sheet(interaction, league_id)

    async def press_team_order(
        self, interaction: discord.Interaction, league_id: int, what: str, player: str
    ) -> None:
        """My team's menus: the order line TEAM_ORDERS names, added to the orders on file as
        `/volleyball sell` adds one, so the engine takes or refuses it as it does the line."""
        stored = await self.leagues.load(league_id, by=interaction.user.id)
        line = TEAM_ORDERS[what][1].format(player=player).replace("\n", " ")
        if lesson_card.is_lesson(stored):
            control, _, pick = line.partition(": ")
            lesson_card.checked(stored, "sell" if control == "SELL" else "train", pick=pick)
        label = line.split(":")[0] + ":"
        check = await self.orders.submit(interaction, league_id, line, whole=False, adding=label)
        if check is not None and check.accepted and lesson_card.is_lesson(stored):
            await send_ephemeral(interaction, await lesson.advance(self.leagues, stored))

    async def play_lesson(self, interaction: discord.Interaction, league_id: int) -> None:
        await lesson.play(interaction, league_id)

    async def press_retry(
        self, interaction: discord.Interaction, league_id: int, kind: str
    ) -> None:
        if kind == "orders":
            await self.orders.open_orders_form(interaction, league_id)
        else:
            await self.orders.open_team_form(interaction, league_id, None)

    async def explain_round(
        self, interaction: discord.Interaction, league_id: int, season: int, round_number: int
    ) -> None:
        stored = await self.leagues.load(league_id, by=interaction.user.id)
        await why.explain_round(interaction, self.bot.db, stored, season, round_number)

    # ---- /games: the leagues the user manages a team in ---------------------------------------

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        return await self.leagues.games_entries(user_id, now)

    async def live_entries(self, guild_id: int) -> list[LiveLine]:
        return await live_entries(self.bot, guild_id)

    async def replay_entries(self, user_id: int) -> list[tuple[Any, Entry]]:
        """/games: the user's teams' latest played matches, each with its Replay button."""
        return await vb_replays.finished_entries(self.bot, user_id)

    # ---- /privacy: what the leagues keep about a user ------------------------------------------

    async def describe_user(self, db: Any, user_id: int) -> list[str]:
        lines = [
            f"Volleyball: you manage {shown(team)} in {shown(league)}"
            for _, league, team in await store.leagues_of_manager(db, user_id)
        ]
        count = await drafts.drafts_of_user(db, user_id)
        if count:
            lines.append(
                f"Volleyball: {plural(count):unsaved orders draft} (`/volleyball orders edit`)"
            )
        lessons = await store.lessons_of_user(db, user_id)
        if lessons:
            lines.append(f"Volleyball: {plural(lessons):lesson} of yours (`/volleyball learn`)")
        kept = await store.kept_forms_of_user(db, user_id)
        if kept:
            lines.append(f"Volleyball: the text of {plural(kept):refused form} you sent")
        return lines

    async def release_user(self, user_id: int) -> None:
        """Before /privacy deletes: the user's teams go back to the computer, league by league
        under each league's lock (not inside the deletion's transaction)."""
        for league_id, _, _ in await store.leagues_of_manager(self.bot.db, user_id):
            await self.seats.release(league_id, user_id)

    async def forget_user(self, conn: Any, user_id: int, anonymous: int) -> None:
        await store.forget_user(conn, user_id)
        await drafts.forget_user(conn, user_id)

    # ---- the league a command is about ----------------------------------------------------------

    async def league_here(
        self, interaction: discord.Interaction, league: store.StoredLeague | None
    ) -> store.StoredLeague:
        """The league named in the option, else the one `options.find_league` picks."""
        return league or await find_league(self.bot.db, interaction, None)

    async def state_of(
        self, interaction: discord.Interaction, league: store.StoredLeague | None
    ) -> tuple[store.StoredLeague, LeagueState]:
        stored = await self.league_here(interaction, league)
        return stored, decode(stored)

    async def as_admin(
        self, interaction: discord.Interaction, league: store.StoredLeague | None
    ) -> store.StoredLeague:
        stored = await self.league_here(interaction, league)
        await self.leagues.require_admin(interaction, stored)
        return stored

    # ---- league administration ------------------------------------------------------------------

    @league_group.command(name="create", description="Set up a league (free seats: computers)")
    @app_commands.describe(
        name="The league's name",
        teams="Seats in all (8)",
        channel="Results channel (here)",
        every_hours="Deadline every N hours",
        weekday="Or weekly on this day",
        time="at this time UTC (18:00)",
        divisions="Divisions (16 seats each)",
        promotion="Teams up and down (2)",
        remind_hours="Remind this long before (12)",
        ping_role="Pinged with results",
        admin_role="May run the league",
        season="e.g. special_points=200",
        missed_rounds="Computer takes a team after N missed rounds (0 never)",
        vacations="A manager's vacation puts the deadline off",
    )
    @app_commands.choices(weekday=WEEKDAY_CHOICES)
    async def league_create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        teams: app_commands.Range[int, 2, 64] = 8,
        channel: discord.TextChannel | None = None,
        every_hours: app_commands.Range[int, 1, 672] | None = None,
        weekday: str | None = None,
        time: app_commands.Range[str, 1, 10] | None = None,
        divisions: app_commands.Range[int, 1, 8] | None = None,
        promotion: app_commands.Range[int, 1, 8] = 2,
        remind_hours: app_commands.Range[int, 0, 72] = 12,
        ping_role: discord.Role | None = None,
        admin_role: discord.Role | None = None,
        season: app_commands.Range[str, 0, 300] = "",
        missed_rounds: app_commands.Range[int, 0, 20] = 0,
        vacations: bool = False,
    ) -> None:
        await self.leagues.require_admin(interaction, None)
        if interaction.guild_id is None:
            raise UserError("Volleyball leagues live in a server channel.")
        name = clean_name(name, "The league name", LEAGUE_NAME_LENGTH)
        try:
            rule = parse_rule(every_hours, weekday, time)
        except DeadlineError as error:
            raise UserError(str(error)) from None
        values, problems = parse_season_settings(season)
        if problems:
            raise UserError("\n".join(problems))
        require_pingable(ping_role)
        results = channel or interaction.channel
        self.require_channel(interaction, results)
        assert results is not None
        seed = self.bot.seed_source.randrange(2**31)
        sizes = division_sizes(teams, count=divisions)
        state = await asyncio.to_thread(  # 60 ms for 64 seats: no need to defer
            new_league,
            [],
            total_teams=teams,
            divisions=sizes,
            config=season_config(values),
            seed=seed,
            promotion_places=promotion,
            secret=league_secret(self.bot),
        )
        settings = {"teams": teams, "divisions": sizes, "promotion_places": promotion}
        try:
            league_id = await store.create_league(
                self.bot.db,
                guild_id=interaction.guild_id,
                name=name,
                channel_id=results.id,
                ping_role_id=ping_role.id if ping_role else None,
                admin_role_id=admin_role.id if admin_role else None,
                created_by=interaction.user.id,
                settings={**settings, "seed": seed, "season": values},
                deadline_rule=rule.to_dict(),
                remind_minutes=remind_hours * 60,
                state=encode(state),
                anchor=0.0,
                hand_over_after=missed_rounds,
                vacation_pauses=vacations,
            )
        except store.DuplicateLeagueError:
            raise UserError(
                f"This server already has a league called {shown(name)}: pick another name."
            ) from None
        split = (
            f" in {len(sizes)} divisions ({'/'.join(map(str, sizes))})" if len(sizes) > 1 else ""
        )
        await interaction.response.send_message(
            f"**{shown(name)}**: a Volleyball league of {teams} seats{split}, deadlines "
            f"{rule.describe()}, results in <#{results.id}>. "
            f"{deadline_policies(missed_rounds, vacations)} Every seat has a computer team "
            "until a manager comes: `/volleyball team create` brings your own team, "
            "`/volleyball take-seat` takes over a computer team. An admin starts the season "
            "with `/volleyball league start`; the league's card below shows where it is.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.leagues.card.refresh(league_id)

    def require_channel(self, interaction: discord.Interaction, channel: object) -> None:
        """The bot can post the results (and their images) in the results channel."""
        guild = interaction.guild
        if guild is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            raise UserError("Name a text channel of this server for the results.")
        resolved = guild.get_channel(channel.id)
        if resolved is None or guild.me is None:
            return
        granted = resolved.permissions_for(guild.me)
        missing = [
            label
            for label, ok in (
                ("View Channel", granted.view_channel),
                ("Send Messages", granted.send_messages),
                ("Embed Links", granted.embed_links),
                ("Attach Files", granted.attach_files),
            )
            if not ok
        ]
        if missing:
            raise UserError(
                f"I can't post the results in <#{channel.id}>: I'm missing {', '.join(missing)} "
                "there. Grant it to the Ballcourt role, or pick another channel."
            )

    @league_group.command(name="start", description="Start the season's deadlines")
    @with_league()
    async def league_start(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.as_admin(interaction, league)
        stored, deadline = await self.leagues.start_league(stored.id)
        await interaction.response.send_message(
            Markup(
                f"{shown(stored.name)} has started; round 1 is due {due(deadline)}. The "
                f"season's information goes to <#{stored.channel_id}>."
            ),
            ephemeral=True,
        )
        await self.leagues.reports.send_pending_now(stored.id)

    @league_group.command(name="pause", description="Stop the deadlines for now")
    @with_league()
    async def league_pause(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.as_admin(interaction, league)
        stored = await self.leagues.pause(stored.id)
        await interaction.response.send_message(
            f"{shown(stored.name)} is paused: no round is played until an admin uses "
            "`/volleyball league resume`, which gives the round the time it has left now. "
            "Orders on file stay."
        )

    @league_group.command(name="resume", description="Start the deadlines again")
    @with_league()
    async def league_resume(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.as_admin(interaction, league)
        stored, deadline = await self.leagues.resume(stored.id)
        await interaction.response.send_message(
            f"{shown(stored.name)} goes on: {round_name(decode(stored))} is due {due(deadline)}."
        )

    @league_group.command(name="config", description="Show or change a league's settings")
    @with_league(
        every_hours="Deadline every N hours",
        weekday="Or weekly on this day",
        time="at this time UTC",
        remind_hours="Remind this long before",
        channel="Results channel",
        ping_role="Pinged with results",
        admin_role="May run the league",
        season="Before the start: e.g. scouts=2",
        missed_rounds="Computer takes a team after N missed rounds (0 never)",
        vacations="A manager's vacation puts the deadline off",
    )
    @app_commands.choices(weekday=WEEKDAY_CHOICES)
    async def league_config(
        self,
        interaction: discord.Interaction,
        league: League | None = None,
        every_hours: app_commands.Range[int, 1, 672] | None = None,
        weekday: str | None = None,
        time: app_commands.Range[str, 1, 10] | None = None,
        remind_hours: app_commands.Range[int, 0, 72] | None = None,
        channel: discord.TextChannel | None = None,
        ping_role: discord.Role | None = None,
        admin_role: discord.Role | None = None,
        season: app_commands.Range[str, 0, 300] = "",
        missed_rounds: app_commands.Range[int, 0, 20] | None = None,
        vacations: bool | None = None,
    ) -> None:
        stored = await self.as_admin(interaction, league)
        changes: dict[str, object] = {}
        if missed_rounds is not None:
            changes["hand_over_after"] = missed_rounds
        if vacations is not None:
            changes["vacation_pauses"] = vacations
        if every_hours is not None or weekday or time:
            try:
                changes["deadline_rule"] = parse_rule(every_hours, weekday, time).to_dict()
            except DeadlineError as error:
                raise UserError(str(error)) from None
        if remind_hours is not None:
            changes["remind_minutes"] = remind_hours * 60
        if channel is not None:
            self.require_channel(interaction, channel)
            changes["channel_id"] = channel.id
        if ping_role is not None:
            require_pingable(ping_role)
            changes["ping_role_id"] = ping_role.id
        if admin_role is not None:
            changes["admin_role_id"] = admin_role.id
        if season:
            await self.change_season_settings(stored, season)
        if changes:
            stored = await self.leagues.reschedule(stored.id, changes)
        stored = await self.leagues.load(stored.id)
        await send_ephemeral(
            interaction, self.settings_text(stored, changed=bool(changes or season))
        )

    async def change_season_settings(self, stored: store.StoredLeague, text: str) -> None:
        """Season settings shape the teams and the schedule, so they change only before the
        start and before any manager has joined: the league is set up again with them."""
        values, problems = parse_season_settings(text)
        if problems:
            raise UserError("\n".join(problems))

        async def apply(stored: store.StoredLeague) -> None:
            if stored.status != "forming" or await store.managers(self.bot.db, stored.id):
                raise UserError(
                    "Season settings can only change before the league starts and before any "
                    "manager has joined (teams are built with them)."
                )
            merged = {**stored.settings.get("season", {}), **values}
            state = await asyncio.to_thread(
                new_league,
                [],
                total_teams=stored.settings["teams"],
                divisions=stored.settings["divisions"],
                config=season_config(merged),
                seed=stored.settings["seed"],
                promotion_places=stored.settings["promotion_places"],
                secret=decode(stored).league.secret or league_secret(self.bot),
            )
            await self.leagues.save(
                stored, state=encode(state), settings={**stored.settings, "season": merged}
            )

        await self.leagues.host.change(stored.id, apply, shown=False)

    def settings_text(self, stored: store.StoredLeague, *, changed: bool) -> str:
        state = decode(stored)
        rule = DeadlineRule.from_dict(stored.deadline_rule)
        deadline = (
            f"next deadline {due(stored.next_deadline)}"
            if stored.next_deadline
            else "no deadline set"
        )
        hours = stored.remind_minutes // 60
        lines = [
            f"**{shown(stored.name)}** ({stored.status}{', changed' if changed else ''}): "
            f"deadlines {rule.describe()}, {deadline}; reminders {plural(hours):hour} before; "
            f"results in <#{stored.channel_id}>"
            + (f"; pings <@&{stored.ping_role_id}>" if stored.ping_role_id else "")
            + (f"; admin role <@&{stored.admin_role_id}>" if stored.admin_role_id else "")
            + ".",
            deadline_policies(stored.hand_over_after, stored.vacation_pauses),
            f"{len(state.league.teams)} seats, divisions "
            f"{'/'.join(str(len(state.team_names(d))) for d in state.league.divisions)}, "
            f"promotion places {state.league.promotion_places}.",
            *describe_config(state.league.config),
            settings_help(),
        ]
        return "\n".join(lines)

    @round_group.command(name="run-now", description="Play the next round now (admins)")
    @with_league()
    async def round_run_now(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.as_admin(interaction, league)
        if stored.status == "forming":
            raise UserError(f"Start {shown(stored.name)} first (`/volleyball league start`).")
        state = decode(stored)
        played = await self.leagues.host.advance(
            stored.id, expected=round_key(state), forced=True, send=False
        )
        if not played:
            raise UserError(f"{round_name(state)} was played at the same moment; see the results.")
        await interaction.response.send_message(
            f"Played {round_name(state)} of {shown(stored.name)}; the results go to "
            f"<#{stored.channel_id}>.",
            ephemeral=True,
        )
        await self.leagues.reports.send_pending_now(stored.id)

    @round_group.command(name="extend", description="Give the round more time (admins)")
    @with_league(hours="Hours more for this round")
    async def round_extend(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[int, 1, 336],
        league: League | None = None,
    ):
        stored = await self.as_admin(interaction, league)
        stored, deadline = await self.leagues.extend(stored.id, hours)
        await interaction.response.send_message(
            Markup(
                f"{shown(round_name(decode(stored)).capitalize())} of {shown(stored.name)} gets "
                f"{plural(hours):hour} more: due {due(deadline)}. The next deadline follows the "
                "league's rule."
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ---- managers ------------------------------------------------------------------------------

    @team_group.command(name="create", description="Bring your team: a form, or a roster file")
    @with_league(
        name="Your team's name",
        roster="A .txt file: NAME AGE OL DL a line",
        replacing="The computer team whose seat you take",
        make_me_a_team="The form filled with a legal team the bot makes, to send or edit",
    )
    async def team_create(
        self,
        interaction: discord.Interaction,
        league: League | None = None,
        name: app_commands.Range[str, 1, 100] | None = None,
        roster: discord.Attachment | None = None,
        replacing: ComputerSeat | None = None,
        make_me_a_team: bool = False,
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        current = await store.team_of(self.bot.db, stored.id, interaction.user.id)
        if current is not None:
            raise UserError(f"You manage {shown(current)} in {shown(stored.name)} already.")
        if roster is not None and make_me_a_team:
            raise UserError(
                "Send a roster file or ask for a team made for you (make_me_a_team), not both."
            )
        seat = free_seat(stored, state, replacing)
        if roster is None:
            await self.orders.open_team_form(
                interaction, stored.id, seat.name, name or "", made=make_me_a_team
            )
            return
        text = await read_upload(roster, what="a roster")
        await self.join_with_roster(interaction, stored.id, name, text, seat.name)

    async def join_with_roster(
        self,
        interaction: discord.Interaction,
        league_id: int,
        name: str | None,
        text: str,
        seat: str | None,
        *,
        form: bool = False,
    ) -> None:
        try:
            stored, team, old = await self.seats.join(
                league_id, interaction.user.id, seat=seat, name=name, roster_text=text, form=form
            )
        except TeamRefused as refused:
            if not form:
                raise
            await send_ephemeral(
                interaction,
                f"{refused}\nYour text is kept: **Fix and send again** opens the form with it.",
                view=view_of([RetryButton(league_id, "team")]),
            )
            return
        state = decode(stored)
        joined = state.league.known_team(team)
        where = f", division {joined.division}" if len(state.league.divisions) > 1 else ""
        sheet = await self.orders.sheet_messages(league_id, interaction.user.id)
        depth = await asyncio.to_thread(squad_depth, joined.players, state.league.config)
        await interaction.response.send_message(
            f"{interaction.user.mention}'s team **{shown(team)}** joins {shown(stored.name)}, in "
            f"the seat of {shown(old)}{where}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        # Private, first: what the roster can field (the manager's own information).
        await answer(interaction, [depth_line(team, depth)])
        await answer(interaction, sheet, already_packed=True)

    @group.command(name="take-seat", description="Manage a computer team as it is")
    @with_league(team="The computer team")
    async def take_seat(
        self, interaction: discord.Interaction, team: ComputerSeat, league: League | None = None
    ) -> None:
        found = await self.league_here(interaction, league)
        stored, joined, _ = await self.seats.join(found.id, interaction.user.id, seat=team)
        await interaction.response.send_message(
            f"{interaction.user.mention} takes over **{shown(joined)}** in {shown(stored.name)}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @team_group.command(name="show", description="Your team sheet (only you see it)")
    @with_league()
    async def team_show(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.league_here(interaction, league)
        await self.orders.show_sheet(interaction, stored.id)

    # ---- orders --------------------------------------------------------------------------------

    @orders_group.command(name="send", description="Write your orders for the next round")
    @with_league()
    async def orders_send(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.league_here(interaction, league)
        await self.orders.open_orders_form(interaction, stored.id)

    @orders_group.command(name="repeat", description="Last round's line-ups for this round")
    @with_league()
    async def orders_repeat(self, interaction: discord.Interaction, league: League | None = None):
        stored = await self.league_here(interaction, league)
        await self.orders.repeat_orders(interaction, stored.id)

    @orders_group.command(name="edit", description="Build your line-ups with menus, set by set")
    @with_league(match="Start at this match number")
    async def orders_edit(
        self,
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1, 9] | None = None,
        league: League | None = None,
    ) -> None:
        stored = await self.league_here(interaction, league)
        await open_editor(interaction, stored.id, match)

    @orders_group.command(name="upload", description="Send the seed's order forms as a file")
    @with_league(file="A .txt file: forms and order lines")
    async def orders_upload(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        league: League | None = None,
    ) -> None:
        stored = await self.league_here(interaction, league)
        text = await read_upload(file, what="order forms")
        await self.orders.submit(interaction, stored.id, text, whole=False)

    @orders_group.command(name="show", description="Your orders on file (only you see them)")
    @with_league()
    async def orders_show(self, interaction: discord.Interaction, league: League | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.orders.my_team(stored, state, interaction.user.id)
        on_file = await self.orders.orders_on_file(stored, state, team.name)
        what = round_name(state)
        if on_file is None:
            await send_ephemeral(
                interaction,
                f"No orders on file for {what} ({shown(team.name)}): without them your team "
                "plays the NMR line-up (rule 12). `/volleyball orders send` writes them.",
            )
            return
        fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
        forms = format_round_forms(team, fixtures, on_file)
        lines: list[str] = [
            Markup(
                f"**Orders on file for {what}** ({shown(team.name)})"
                + ("; the filled-in forms are attached." if forms else ".")
            )
        ]
        lines += order_summary_lines(state, team, on_file)
        name = f"orders-round-{state.league.round_number}.txt"
        await answer(interaction, lines, attachment=(name, forms) if forms else None)

    @orders_group.command(name="form", description="The order forms for the next round, to fill in")
    @with_league()
    async def orders_form(self, interaction: discord.Interaction, league: League | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.orders.my_team(stored, state, interaction.user.id)
        if state.season_over:
            raise UserError(
                "The season is over: no matches until the next one. Send your ageing splits as "
                "AGEING: PLAYER OL N lines with `/volleyball orders upload`."
            )
        on_file = await self.orders.orders_on_file(stored, state, team.name)
        fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
        forms = format_round_forms(team, fixtures, on_file)
        await interaction.response.send_message(
            f"The forms for {round_name(state)} ({shown(team.name)}), "
            + ("filled in with your orders on file" if on_file else "blank")
            + ": fill them in and send them with `/volleyball orders upload`.",
            file=text_file(f"volleyball-round-{state.league.round_number}.txt", forms),
            ephemeral=True,
        )

    @group.command(name="market", description="Players and offers open for bids this round")
    @with_league()
    async def market(self, interaction: discord.Interaction, league: League | None = None):
        _, state = await self.state_of(interaction, league)
        lines = market_lines(state)
        await answer(interaction, [bold(lines[0]), *lines[1:]])

    @group.command(name="preview", description="Your line-ups' totals and chances (private)")
    @with_league()
    async def preview(self, interaction: discord.Interaction, league: League | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.orders.my_team(stored, state, interaction.user.id)
        on_file = await self.orders.orders_on_file(stored, state, team.name)
        if on_file is None or not on_file.matches:
            raise UserError(
                f"No line-up on file for {round_name(state)}: `/volleyball orders send` writes one."
            )
        lines: list[str] = [
            Markup(
                f"**{shown(team.name)}, {round_name(state)}**: totals per set and the chance "
                "against a neutral side (Neutral, risk 6, DL 60)"
            )
        ]
        await answer(interaction, lines + order_summary_lines(state, team, on_file))

    # ---- single orders (the order lines of rules.volleyball.ordertext, sent as a piece) --------

    @group.command(name="sponsor", description="Choose your sponsor (an order)")
    @with_league(sponsor="Sponsor")
    async def sponsor(
        self, interaction: discord.Interaction, sponsor: Sponsor, league: League | None = None
    ) -> None:
        await self.order_line(interaction, league, f"SPONSOR: {sponsor}", adding=None)

    @group.command(name="bid", description="Bid on a listed player (an order)")
    @with_league(player="Player", seller="His team", amount="Dollars")
    async def bid(
        self,
        interaction: discord.Interaction,
        player: app_commands.Range[str, 1, 40],
        seller: AnyTeam,
        amount: app_commands.Range[int, 1, 100_000],
        league: League | None = None,
    ) -> None:
        line = f"BID: {player} from {seller} {amount}"
        await self.order_line(interaction, league, line, adding="BID:")

    @group.command(name="sell", description="Offer a player for sale (an order)")
    @with_league(player="Your player", minimum="Lowest price")
    async def sell(
        self,
        interaction: discord.Interaction,
        player: app_commands.Range[str, 1, 40],
        minimum: app_commands.Range[int, 0, 100_000] = 0,
        league: League | None = None,
    ) -> None:
        line = f"SELL: {player}" + (f" min {minimum}" if minimum else "")
        await self.order_line(interaction, league, line, adding="SELL:")

    @group.command(name="spy", description="Spy on a team's match (an order)")
    @with_league(team="Team", match="Match number", detail="Players' levels too")
    async def spy(
        self,
        interaction: discord.Interaction,
        team: AnyTeam,
        match: app_commands.Range[int, 1, 9],
        detail: bool = False,
        league: League | None = None,
    ) -> None:
        line = f"SPY: {team} match {match}" + (" detail" if detail else "")
        await self.order_line(interaction, league, line, adding="SPY:")

    async def order_line(
        self,
        interaction: discord.Interaction,
        league: store.StoredLeague | None,
        line: str,
        *,
        adding: str | None,
    ) -> None:
        """One order line as a piece of the orders: a bid, a sale or a spying order is added
        to those on file; a sponsor replaces the one on file (ruling 35)."""
        stored = await self.league_here(interaction, league)
        await self.orders.submit(
            interaction, stored.id, line.replace("\n", " "), whole=False, adding=adding
        )

    # ---- for everyone --------------------------------------------------------------------------

    @group.command(name="table", description="The league table")
    @with_league()
    async def table(self, interaction: discord.Interaction, league: League | None = None):
        stored, state = await self.state_of(interaction, league)
        await interaction.response.defer(thinking=True)
        files = await self.leagues.poster.images(state, ["standings"])
        played = state.league.round_number - 1
        await interaction.followup.send(
            f"{shown(stored.name)}, season {state.league.season}: the table after "
            + (f"round {played}." if played else "no rounds yet."),
            files=[discord.File(io.BytesIO(data), filename=name) for _, name, data in files],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @group.command(name="cup", description="The Galaxy Cup bracket")
    @with_league()
    async def cup(self, interaction: discord.Interaction, league: League | None = None):
        stored, state = await self.state_of(interaction, league)
        await interaction.response.defer(thinking=True)
        files = await self.leagues.poster.images(state, ["cup"])
        winner = f" Winner: {shown(state.cup.winner)}." if state.cup.winner else ""
        await interaction.followup.send(
            f"{shown(stored.name)}, season {state.league.season}: the Galaxy Cup.{winner}",
            files=[discord.File(io.BytesIO(data), filename=name) for _, name, data in files],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @group.command(name="schedule", description="The season's fixtures")
    @with_league(team="Only this team's")
    async def schedule(
        self,
        interaction: discord.Interaction,
        team: AnyTeam | None = None,
        league: League | None = None,
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        lines: list[str] = [bold(f"{stored.name}, season {state.league.season}: schedule")]
        lines += schedule_lines(state, team) or [f"No fixtures for {team or 'anyone'}."]
        await answer(interaction, lines)

    @group.command(name="results", description="A round's results")
    @with_league(round="Round number (default: the last)")
    async def results(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 200] | None = None,
        league: League | None = None,
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        number = round or max(1, state.league.round_number - 1)
        lines: list[str] = [bold(f"{stored.name}, season {state.league.season}, round {number}")]
        await answer(interaction, lines + results_lines(state, number))

    @group.command(name="why", description="What decided a round, rule by rule (private)")
    @with_league(round="Round of this season (default: the last)")
    async def why_round(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 200] | None = None,
        league: League | None = None,
    ) -> None:
        """The round's Why? (cogs/volleyball/why.py), as its post's button gives it."""
        stored = await self.league_here(interaction, league)
        if round is None:
            await why.explain_latest(interaction, self.bot.db, stored)
        else:
            season = decode(stored).league.season
            await why.explain_round(interaction, self.bot.db, stored, season, round)

    @group.command(name="history", description="A team's results and past seasons")
    @with_league(team="Which team")
    async def history(
        self, interaction: discord.Interaction, team: AnyTeam, league: League | None = None
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        lines: list[str] = [bold(f"{team} in {stored.name}"), *team_history(state, team)]
        await answer(interaction, lines)

    @group.command(name="season", description="What the GM publishes for the season")
    @with_league()
    async def season(self, interaction: discord.Interaction, league: League | None = None):
        _, state = await self.state_of(interaction, league)
        lines = season_publication(state).lines()
        await answer(interaction, [bold(lines[0]), *lines[1:]])

    @group.command(name="rules", description="How the game and the league work here")
    @app_commands.describe(topic="league, orders, lines or rulings")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "league") -> None:
        others = ", ".join(f"`{t}`" for t in TOPICS if t != topic)
        await send_ephemeral(interaction, f"{RULES_PAGES[topic]}\nMore: topic {others}.")

    @group.command(name="learn", description="A guided first set")
    async def learn(self, interaction: discord.Interaction) -> None:
        await lesson.start(interaction)

    # ---- the forms' submits (routed by custom_id, so they work across restarts) ---------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await route_form(interaction, self.form_routes)

    async def submit_orders_form(
        self, interaction: discord.Interaction, found: re.Match[str], values: dict[str, str]
    ) -> None:
        boxes = []
        for custom_id, text in values.items():
            if custom_id.startswith("match:"):
                boxes.append((f"Match {custom_id.split(':')[1]} box", text, True))
        boxes.sort(key=lambda box: box[0])
        boxes.append(("Order lines box", values.get("lines", ""), False))
        joined = join_boxes(boxes)
        await self.orders.submit(
            interaction,
            int(found["league"]),
            joined.text,
            whole=True,
            for_round=(int(found["season"]), int(found["round"])),
            joined=joined,
            form=values,
        )

    async def submit_team_form(
        self, interaction: discord.Interaction, found: re.Match[str], values: dict[str, str]
    ) -> None:
        league_id = int(found["league"])
        stored = await self.leagues.load(league_id)
        seat = None
        if found["seat"] is not None:
            teams = decode(stored).league.teams
            index = int(found["seat"])
            seat = teams[index].name if index < len(teams) else None
        await self.join_with_roster(
            interaction,
            league_id,
            values.get("name", ""),
            values.get("players", ""),
            seat,
            form=True,
        )


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *EDITOR_ITEMS, *lesson_card.LESSON_ITEMS)
    lesson_script()  # the lesson is checked as the cog loads: LessonError names its fault
    STARTERS[lesson.GAME] = lesson.start  # the Learn buttons of /help and the welcome
    await bot.add_cog(Volleyball(bot))
