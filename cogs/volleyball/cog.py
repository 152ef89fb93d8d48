"""Volleyball's slash commands (`/volleyball ...`): league administration, managers' teams and
orders, and the public answers (table, schedule, results, cup, history, season). Each command
parses the interaction and hands over to the league service (cogs/volleyball/league.py) or
answers from the stored state with the engine's read-only calls.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.volleyball.components import (
    ORDERS_FORM_ID,
    TEAM_FORM_ID,
    OrdersButton,
    TeamForm,
    modal_values,
)
from cogs.volleyball.deadlines import WEEKDAYS, DeadlineError, DeadlineRule, parse_rule
from cogs.volleyball.editor import EDITOR_ITEMS, POINTS_FORM_ID, open_editor, submit_points
from cogs.volleyball.forms import join_boxes, order_summary_lines
from cogs.volleyball.league import Leagues, decode, encode, round_key, round_name, timestamp
from cogs.volleyball.rules_text import RULES_PAGES, TOPICS
from cogs.volleyball.settings import (
    describe_config,
    parse_season_settings,
    season_config,
    settings_help,
)
from db import volleyball as store
from db import volleyball_drafts as drafts
from rules.volleyball import (
    LeagueState,
    format_round_forms,
    market_lines,
    new_league,
    results_lines,
    round_fixtures,
    schedule_lines,
    season_publication,
    team_fixtures,
    team_history,
    team_sheet,
)
from ui import UserError, quote, report_error, send_ephemeral

if TYPE_CHECKING:
    from bot import Ballcourt

MAX_UPLOAD_BYTES = 100_000  # issue 12: a bigger upload is refused before it is read
DIVISION_SEATS = 16
LEAGUE_NAME_LENGTH = 40
WEEKDAY_CHOICES = [app_commands.Choice(name=day, value=day) for day in WEEKDAYS]
LEAGUE_HELP = "Which league (default: the one here)"


def require_pingable(role: discord.Role | None) -> None:
    """@everyone is not a role to ping with every round's results."""
    if role is not None and role.is_default():
        raise UserError("Pick a role for the results' ping, not @everyone.")


def hours(count: int) -> str:
    return f"{count} hour{'' if count == 1 else 's'}"


def division_split(teams: int, divisions: int | None) -> list[int]:
    """Seats per division, highest first, as even as possible; by default as few divisions
    of at most 16 as the seats need (RULINGS "Divisions")."""
    count = divisions or max(1, -(-teams // DIVISION_SEATS))
    base, extra = divmod(teams, count)
    return [base + (1 if i < extra else 0) for i in range(count)]


async def read_upload(attachment: discord.Attachment, what: str) -> str:
    """An attachment's text, refused before it is read when it is over 100 KB."""
    if attachment.size > MAX_UPLOAD_BYTES:
        raise UserError(
            f"{attachment.filename} is {attachment.size // 1000} KB; send at most "
            f"{MAX_UPLOAD_BYTES // 1000} KB ({what} are a few KB)."
        )
    data = await attachment.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(
            f"{attachment.filename} is not plain text (UTF-8): send the {what} as a .txt file."
        ) from None


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
        bot.volleyball = self.leagues  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.leagues.start()

    # ---- /privacy: what the leagues keep about a user ------------------------------------------

    async def describe_user(self, db: Any, user_id: int) -> list[str]:
        lines = [
            f"Volleyball: you manage {team} in {league}"
            for _, league, team in await store.leagues_of_manager(db, user_id)
        ]
        count = await drafts.drafts_of_user(db, user_id)
        if count:
            lines.append(
                f"Volleyball: {count} unsaved orders draft{'s' if count != 1 else ''} "
                "(`/volleyball orders edit`)"
            )
        return lines

    async def release_user(self, user_id: int) -> None:
        """Before /privacy deletes: the user's teams go back to the computer, league by league
        under each league's lock (not inside the deletion's transaction)."""
        for league_id, _, _ in await store.leagues_of_manager(self.bot.db, user_id):
            await self.leagues.release(league_id, user_id)

    async def forget_user(self, conn: Any, user_id: int, anonymous: int) -> None:
        await store.forget_user(conn, user_id)
        await drafts.forget_user(conn, user_id)

    async def cog_unload(self) -> None:
        await self.leagues.stop()

    async def state_of(
        self, interaction: discord.Interaction, league: str | None
    ) -> tuple[store.StoredLeague, LeagueState]:
        stored = await self.leagues.find(interaction, league)
        return stored, decode(stored)

    # ---- autocomplete ------------------------------------------------------------------------

    async def league_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        names = await store.league_names(self.bot.db, interaction.guild_id)
        key = current.casefold()
        return [app_commands.Choice(name=n, value=n) for n in names if key in n.casefold()][:25]

    async def _teams_for_autocomplete(
        self, interaction: discord.Interaction, current: str, *, computer_only: bool
    ) -> list[app_commands.Choice[str]]:
        try:
            _, state = await self.state_of(
                interaction, getattr(interaction.namespace, "league", None)
            )
        except UserError:
            return []
        key = current.casefold()
        names = [
            t.name
            for t in state.league.teams
            if key in t.name.casefold() and (t.manager_id is None or not computer_only)
        ]
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    async def team_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._teams_for_autocomplete(interaction, current, computer_only=False)

    async def seat_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._teams_for_autocomplete(interaction, current, computer_only=True)

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
    )
    @app_commands.choices(weekday=WEEKDAY_CHOICES)
    async def league_create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, LEAGUE_NAME_LENGTH],
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
    ) -> None:
        self.leagues.require_admin(interaction, None)
        if interaction.guild_id is None:
            raise UserError("Volleyball leagues live in a server channel.")
        name = " ".join(name.split())
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
        sizes = division_split(teams, divisions)
        state = await asyncio.to_thread(  # 60 ms for 64 seats: no need to defer
            new_league,
            [],
            total_teams=teams,
            divisions=sizes,
            config=season_config(values),
            seed=seed,
            promotion_places=promotion,
        )
        settings = {"teams": teams, "divisions": sizes, "promotion_places": promotion}
        try:
            await store.create_league(
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
            )
        except store.DuplicateLeagueError:
            raise UserError(f"This server already has a league called {quote(name)}.") from None
        split = (
            f" in {len(sizes)} divisions ({'/'.join(map(str, sizes))})" if len(sizes) > 1 else ""
        )
        await interaction.response.send_message(
            f"**{name}**: a Volleyball league of {teams} seats{split}, deadlines "
            f"{rule.describe()}, results in <#{results.id}>. Every seat has a computer team "
            "until a manager comes: `/volleyball team create` brings your own team, "
            "`/volleyball take-seat` takes over a computer team. An admin starts the season "
            "with `/volleyball league start`.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

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
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def league_start(self, interaction: discord.Interaction, league: str | None = None):
        stored = await self.leagues.find_as_admin(interaction, league)
        stored, deadline = await self.leagues.start_league(stored.id)
        await interaction.response.send_message(
            f"{stored.name} has started; round 1 is due {timestamp(deadline)}. The season's "
            f"information goes to <#{stored.channel_id}>.",
            ephemeral=True,
        )
        await self.leagues.send_pending_now(stored.id)

    @league_group.command(name="pause", description="Stop the deadlines for now")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def league_pause(self, interaction: discord.Interaction, league: str | None = None):
        stored = await self.leagues.find_as_admin(interaction, league)
        stored = await self.leagues.pause(stored.id)
        await interaction.response.send_message(
            f"{stored.name} is paused: no round is played until an admin uses "
            "`/volleyball league resume`. Orders on file stay."
        )

    @league_group.command(name="resume", description="Start the deadlines again")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def league_resume(self, interaction: discord.Interaction, league: str | None = None):
        stored = await self.leagues.find_as_admin(interaction, league)
        stored, deadline = await self.leagues.resume(stored.id)
        await interaction.response.send_message(
            f"{stored.name} goes on: {round_name(decode(stored))} is due {timestamp(deadline)}."
        )

    @league_group.command(name="config", description="Show or change a league's settings")
    @app_commands.describe(
        league=LEAGUE_HELP,
        every_hours="Deadline every N hours",
        weekday="Or weekly on this day",
        time="at this time UTC",
        remind_hours="Remind this long before",
        channel="Results channel",
        ping_role="Pinged with results",
        admin_role="May run the league",
        season="Before the start: e.g. scouts=2",
    )
    @app_commands.choices(weekday=WEEKDAY_CHOICES)
    @app_commands.autocomplete(league=league_autocomplete)
    async def league_config(
        self,
        interaction: discord.Interaction,
        league: str | None = None,
        every_hours: app_commands.Range[int, 1, 672] | None = None,
        weekday: str | None = None,
        time: app_commands.Range[str, 1, 10] | None = None,
        remind_hours: app_commands.Range[int, 0, 72] | None = None,
        channel: discord.TextChannel | None = None,
        ping_role: discord.Role | None = None,
        admin_role: discord.Role | None = None,
        season: app_commands.Range[str, 0, 300] = "",
    ) -> None:
        stored = await self.leagues.find_as_admin(interaction, league)
        changes: dict[str, object] = {}
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
        async with self.leagues.lock(stored.id):
            stored = await self.leagues.load(stored.id)
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
            )
            await self.leagues.save(
                stored, state=encode(state), settings={**stored.settings, "season": merged}
            )

    def settings_text(self, stored: store.StoredLeague, *, changed: bool) -> str:
        state = decode(stored)
        rule = DeadlineRule.from_dict(stored.deadline_rule)
        deadline = (
            f"next deadline {timestamp(stored.next_deadline)}"
            if stored.next_deadline
            else "no deadline set"
        )
        lines = [
            f"**{stored.name}** ({stored.status}{', changed' if changed else ''}): "
            f"deadlines {rule.describe()}, {deadline}; reminders "
            f"{hours(stored.remind_minutes // 60)} before; results in <#{stored.channel_id}>"
            + (f"; pings <@&{stored.ping_role_id}>" if stored.ping_role_id else "")
            + (f"; admin role <@&{stored.admin_role_id}>" if stored.admin_role_id else "")
            + ".",
            f"{len(state.league.teams)} seats, divisions "
            f"{'/'.join(str(len(state.team_names(d))) for d in state.league.divisions)}, "
            f"promotion places {state.league.promotion_places}.",
            *describe_config(state.league.config),
            settings_help(),
        ]
        return "\n".join(lines)

    @round_group.command(name="run-now", description="Play the next round now (admins)")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def round_run_now(self, interaction: discord.Interaction, league: str | None = None):
        stored = await self.leagues.find_as_admin(interaction, league)
        if stored.status == "forming":
            raise UserError(f"Start {stored.name} first (`/volleyball league start`).")
        state = decode(stored)
        played = await self.leagues.advance(
            stored.id, expected=round_key(state), forced=True, send=False
        )
        if not played:
            raise UserError(f"{round_name(state)} was played at the same moment; see the results.")
        await interaction.response.send_message(
            f"Played {round_name(state)} of {stored.name}; the results go to "
            f"<#{stored.channel_id}>.",
            ephemeral=True,
        )
        await self.leagues.send_pending_now(stored.id)

    # ---- managers ------------------------------------------------------------------------------

    @team_group.command(name="create", description="Bring your team: a form, or a roster file")
    @app_commands.describe(
        league=LEAGUE_HELP,
        name="Your team's name",
        roster="A .txt file: NAME AGE OL DL a line",
        replacing="The computer team whose seat you take",
    )
    @app_commands.autocomplete(league=league_autocomplete, replacing=seat_autocomplete)
    async def team_create(
        self,
        interaction: discord.Interaction,
        league: str | None = None,
        name: app_commands.Range[str, 1, 32] | None = None,
        roster: discord.Attachment | None = None,
        replacing: str | None = None,
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        current = await store.team_of(self.bot.db, stored.id, interaction.user.id)
        if current is not None:
            raise UserError(f"You manage {current} in {stored.name} already.")
        seat = self.leagues.free_seat(stored, state, replacing)
        if roster is None:
            index = state.league.teams.index(seat)
            await interaction.response.send_modal(TeamForm(stored.id, index, name or ""))
            return
        text = await read_upload(roster, "rosters")
        await self.join_with_roster(interaction, stored.id, name, text, seat.name)

    async def join_with_roster(
        self,
        interaction: discord.Interaction,
        league_id: int,
        name: str | None,
        text: str,
        seat: str | None,
    ) -> None:
        stored, team, old = await self.leagues.join(
            league_id, interaction.user.id, seat=seat, name=name, roster_text=text
        )
        state = decode(stored)
        division = state.league.team(team).division  # type: ignore[union-attr]
        where = f", division {division}" if len(state.league.divisions) > 1 else ""
        await interaction.response.send_message(
            f"{interaction.user.mention}'s team **{team}** joins {stored.name}, in the seat "
            f"of {old}{where}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.leagues.answer(interaction, team_sheet(state, team), packed=True)

    @group.command(name="take-seat", description="Manage a computer team as it is")
    @app_commands.describe(team="The computer team", league=LEAGUE_HELP)
    @app_commands.autocomplete(team=seat_autocomplete, league=league_autocomplete)
    async def take_seat(
        self, interaction: discord.Interaction, team: str, league: str | None = None
    ) -> None:
        found = await self.leagues.find(interaction, league)
        stored, joined, _ = await self.leagues.join(found.id, interaction.user.id, seat=team)
        await interaction.response.send_message(
            f"{interaction.user.mention} takes over **{joined}** in {stored.name}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @team_group.command(name="show", description="Your team sheet (only you see it)")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def team_show(self, interaction: discord.Interaction, league: str | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.leagues.my_team(stored, state, interaction.user.id)
        season, number = round_key(state)
        last = await store.report_for(self.bot.db, stored.id, season, number - 1, team.name)
        if last is not None and last.user_id == interaction.user.id:
            messages = last.messages  # the last round's sheet with its private lines
        else:
            messages = team_sheet(state, team.name)
        await self.leagues.answer(interaction, messages, packed=True)

    # ---- orders --------------------------------------------------------------------------------

    @orders_group.command(name="send", description="Write your orders for the next round")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def orders_send(self, interaction: discord.Interaction, league: str | None = None):
        stored = await self.leagues.find(interaction, league)
        await self.leagues.open_orders_form(interaction, stored.id)

    @orders_group.command(name="edit", description="Build your line-ups with menus, set by set")
    @app_commands.describe(match="Start at this match number", league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def orders_edit(
        self,
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1, 9] | None = None,
        league: str | None = None,
    ) -> None:
        stored = await self.leagues.find(interaction, league)
        await open_editor(interaction, stored.id, match)

    @orders_group.command(name="upload", description="Send the seed's order forms as a file")
    @app_commands.describe(file="A .txt file: forms and order lines", league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def orders_upload(
        self, interaction: discord.Interaction, file: discord.Attachment, league: str | None = None
    ) -> None:
        stored = await self.leagues.find(interaction, league)
        text = await read_upload(file, "order forms")
        await self.leagues.submit(interaction, stored.id, text, whole=False)

    @orders_group.command(name="show", description="Your orders on file (only you see them)")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def orders_show(self, interaction: discord.Interaction, league: str | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.leagues.my_team(stored, state, interaction.user.id)
        on_file = await self.leagues.orders_on_file(stored, state, team.name)
        what = round_name(state)
        if on_file is None:
            await send_ephemeral(
                interaction,
                f"No orders on file for {what} ({team.name}): without them your team plays the "
                "NMR line-up (rule 12). `/volleyball orders send` writes them.",
            )
            return
        fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
        forms = format_round_forms(team, fixtures, on_file)
        lines = [
            f"**Orders on file for {what}** ({team.name})"
            + ("; the filled-in forms are attached." if forms else ".")
        ]
        lines += order_summary_lines(state, team, on_file)
        name = f"orders-round-{state.league.round_number}.txt"
        await self.leagues.answer(interaction, lines, attachment=(name, forms) if forms else None)

    @orders_group.command(name="form", description="The order forms for the next round, to fill in")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def orders_form(self, interaction: discord.Interaction, league: str | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.leagues.my_team(stored, state, interaction.user.id)
        if state.season_over:
            raise UserError(
                "The season is over: no matches until the next one. Send your ageing splits as "
                "AGEING: PLAYER OL N lines with `/volleyball orders upload`."
            )
        on_file = await self.leagues.orders_on_file(stored, state, team.name)
        fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
        forms = format_round_forms(team, fixtures, on_file)
        await interaction.response.send_message(
            f"The forms for {round_name(state)} ({team.name}), "
            + ("filled in with your orders on file" if on_file else "blank")
            + ": fill them in and send them with `/volleyball orders upload`.",
            file=text_file(f"volleyball-round-{state.league.round_number}.txt", forms),
            ephemeral=True,
        )

    @group.command(name="market", description="Players and offers open for bids this round")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def market(self, interaction: discord.Interaction, league: str | None = None):
        _, state = await self.state_of(interaction, league)
        await self.leagues.answer(interaction, market_lines(state))

    @group.command(name="preview", description="Your line-ups' totals and chances (private)")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def preview(self, interaction: discord.Interaction, league: str | None = None):
        stored, state = await self.state_of(interaction, league)
        team = await self.leagues.my_team(stored, state, interaction.user.id)
        on_file = await self.leagues.orders_on_file(stored, state, team.name)
        if on_file is None or not on_file.matches:
            raise UserError(
                f"No line-up on file for {round_name(state)}: `/volleyball orders send` writes one."
            )
        lines = [
            f"**{team.name}, {round_name(state)}**: totals per set and the chance against a "
            "neutral side (Neutral, risk 6, DL 60)"
        ]
        await self.leagues.answer(interaction, lines + order_summary_lines(state, team, on_file))

    # ---- single orders (the order lines of rules.volleyball.ordertext, sent as a piece) --------

    async def sponsor_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            _, state = await self.state_of(
                interaction, getattr(interaction.namespace, "league", None)
            )
        except UserError:
            return []
        names = [s.name for s in state.league.config.sponsors]
        key = current.casefold()
        return [app_commands.Choice(name=n, value=n) for n in names if key in n.casefold()][:25]

    @group.command(name="sponsor", description="Choose your sponsor (an order)")
    @app_commands.describe(sponsor="Sponsor", league=LEAGUE_HELP)
    @app_commands.autocomplete(sponsor=sponsor_autocomplete, league=league_autocomplete)
    async def sponsor(
        self, interaction: discord.Interaction, sponsor: str, league: str | None = None
    ) -> None:
        await self.order_line(interaction, league, f"SPONSOR: {sponsor}", adding=None)

    @group.command(name="bid", description="Bid on a listed player (an order)")
    @app_commands.describe(player="Player", seller="His team", amount="Dollars", league=LEAGUE_HELP)
    @app_commands.autocomplete(seller=team_autocomplete, league=league_autocomplete)
    async def bid(
        self,
        interaction: discord.Interaction,
        player: app_commands.Range[str, 1, 40],
        seller: str,
        amount: app_commands.Range[int, 1, 100_000],
        league: str | None = None,
    ) -> None:
        line = f"BID: {player} from {seller} {amount}"
        await self.order_line(interaction, league, line, adding="BID:")

    @group.command(name="sell", description="Offer a player for sale (an order)")
    @app_commands.describe(player="Your player", minimum="Lowest price", league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def sell(
        self,
        interaction: discord.Interaction,
        player: app_commands.Range[str, 1, 40],
        minimum: app_commands.Range[int, 0, 100_000] = 0,
        league: str | None = None,
    ) -> None:
        line = f"SELL: {player}" + (f" min {minimum}" if minimum else "")
        await self.order_line(interaction, league, line, adding="SELL:")

    @group.command(name="spy", description="Spy on a team's match (an order)")
    @app_commands.describe(
        team="Team", match="Match number", detail="Players' levels too", league=LEAGUE_HELP
    )
    @app_commands.autocomplete(team=team_autocomplete, league=league_autocomplete)
    async def spy(
        self,
        interaction: discord.Interaction,
        team: str,
        match: app_commands.Range[int, 1, 9],
        detail: bool = False,
        league: str | None = None,
    ) -> None:
        line = f"SPY: {team} match {match}" + (" detail" if detail else "")
        await self.order_line(interaction, league, line, adding="SPY:")

    async def order_line(
        self,
        interaction: discord.Interaction,
        league: str | None,
        line: str,
        *,
        adding: str | None,
    ) -> None:
        """One order line as a piece of the orders: a bid, a sale or a spying order is added
        to those on file; a sponsor replaces the one on file (ruling 35)."""
        stored = await self.leagues.find(interaction, league)
        await self.leagues.submit(
            interaction, stored.id, line.replace("\n", " "), whole=False, adding=adding
        )

    # ---- for everyone --------------------------------------------------------------------------

    @group.command(name="table", description="The league table")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def table(self, interaction: discord.Interaction, league: str | None = None):
        stored, state = await self.state_of(interaction, league)
        await interaction.response.defer(thinking=True)
        files = await self.leagues.poster.images(state, ["standings"])
        played = state.league.round_number - 1
        await interaction.followup.send(
            f"{stored.name}, season {state.league.season}: the table after "
            + (f"round {played}." if played else "no rounds yet."),
            files=[discord.File(io.BytesIO(data), filename=name) for _, name, data in files],
        )

    @group.command(name="cup", description="The Galaxy Cup bracket")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def cup(self, interaction: discord.Interaction, league: str | None = None):
        stored, state = await self.state_of(interaction, league)
        await interaction.response.defer(thinking=True)
        files = await self.leagues.poster.images(state, ["cup"])
        winner = f" Winner: {state.cup.winner}." if state.cup.winner else ""
        await interaction.followup.send(
            f"{stored.name}, season {state.league.season}: the Galaxy Cup.{winner}",
            files=[discord.File(io.BytesIO(data), filename=name) for _, name, data in files],
        )

    @group.command(name="schedule", description="The season's fixtures")
    @app_commands.describe(team="Only this team's", league=LEAGUE_HELP)
    @app_commands.autocomplete(team=team_autocomplete, league=league_autocomplete)
    async def schedule(
        self, interaction: discord.Interaction, team: str | None = None, league: str | None = None
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        lines = [f"**{stored.name}, season {state.league.season}: schedule**"]
        lines += schedule_lines(state, team) or [f"No fixtures for {quote(team or '')}."]
        await self.leagues.answer(interaction, lines)

    @group.command(name="results", description="A round's results")
    @app_commands.describe(round="Round number (default: the last)", league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def results(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 200] | None = None,
        league: str | None = None,
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        number = round or max(1, state.league.round_number - 1)
        lines = [f"**{stored.name}, season {state.league.season}, round {number}**"]
        await self.leagues.answer(interaction, lines + results_lines(state, number))

    @group.command(name="history", description="A team's results and past seasons")
    @app_commands.describe(team="Which team", league=LEAGUE_HELP)
    @app_commands.autocomplete(team=team_autocomplete, league=league_autocomplete)
    async def history(
        self, interaction: discord.Interaction, team: str, league: str | None = None
    ) -> None:
        stored, state = await self.state_of(interaction, league)
        found = state.league.team(team)
        if found is None:
            raise UserError(f"There is no team called {quote(team)} in {stored.name}.")
        lines = [f"**{found.name}** in {stored.name}", *team_history(state, found.name)]
        await self.leagues.answer(interaction, lines)

    @group.command(name="season", description="What the GM publishes for the season")
    @app_commands.describe(league=LEAGUE_HELP)
    @app_commands.autocomplete(league=league_autocomplete)
    async def season(self, interaction: discord.Interaction, league: str | None = None):
        _, state = await self.state_of(interaction, league)
        await self.leagues.answer(interaction, season_publication(state).lines())

    @group.command(name="rules", description="How the game and the league work here")
    @app_commands.describe(topic="league, orders, lines or rulings")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "league") -> None:
        others = ", ".join(f"`{t}`" for t in TOPICS if t != topic)
        await send_ephemeral(interaction, f"{RULES_PAGES[topic]}\nMore: topic {others}.")

    # ---- the forms' submits (routed by custom_id, so they work across restarts) ---------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        orders = ORDERS_FORM_ID.fullmatch(custom_id)
        team = TEAM_FORM_ID.fullmatch(custom_id)
        if not orders and not team:
            return
        values = modal_values((interaction.data or {}).get("components", []))
        try:
            if orders:
                await self.submit_orders_form(interaction, orders, values)
            elif team:
                await self.submit_team_form(interaction, team, values)
        except Exception as error:
            await report_error(interaction, error)

    @commands.Cog.listener("on_interaction")
    async def on_editor_points(self, interaction: discord.Interaction) -> None:
        """The orders editor's points form (cogs/volleyball/editor.py), routed by custom_id."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        found = POINTS_FORM_ID.fullmatch((interaction.data or {}).get("custom_id", ""))
        if not found:
            return
        values = modal_values((interaction.data or {}).get("components", []))
        try:
            await submit_points(interaction, found, values)
        except Exception as error:
            await report_error(interaction, error)

    async def submit_orders_form(self, interaction, found, values: dict[str, str]) -> None:
        boxes = []
        for custom_id, text in values.items():
            if custom_id.startswith("match:"):
                boxes.append((f"Match {custom_id.split(':')[1]} box", text, True))
        boxes.sort(key=lambda box: box[0])
        boxes.append(("Order lines box", values.get("lines", ""), False))
        joined = join_boxes(boxes)
        await self.leagues.submit(
            interaction,
            int(found["league"]),
            joined.text,
            whole=True,
            for_round=(int(found["season"]), int(found["round"])),
            joined=joined,
        )

    async def submit_team_form(self, interaction, found, values: dict[str, str]) -> None:
        league_id = int(found["league"])
        stored = await self.leagues.load(league_id)
        seat = None
        if found["seat"] is not None:
            teams = decode(stored).league.teams
            index = int(found["seat"])
            seat = teams[index].name if index < len(teams) else None
        await self.join_with_roster(
            interaction, league_id, values.get("name", ""), values.get("players", ""), seat
        )


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(OrdersButton, *EDITOR_ITEMS)
    await bot.add_cog(Volleyball(bot))
