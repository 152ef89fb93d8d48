"""/settings: how a user is pinged (across servers), their vacation, and a server's defaults for
new matches (docs/async-play.md).

- `/settings me`: ping in the thread every turn / only when away from the match / by DM / never,
  a time zone, quiet hours, a daily DM digest, whether a roll with no choice in it is made for
  them as their turn begins (the default) or pressed by them. Without options it shows what is
  set.
- `/settings vacation`: take days from the vacation bank (every clock of yours pauses) or come
  back early (what is left goes back to the bank).
- `/settings server` (Manage Server): per game the reminder and timeout lengths, what happens when
  time runs out, a clock; which games are switched on; the channel new matches use; the league
  admin role. Only matches made afterwards read them.
"""

from __future__ import annotations

import functools
import re
import time
from typing import TYPE_CHECKING, Any
from zoneinfo import available_timezones

import discord
from discord import app_commands
from discord.ext import commands

from db import clocks as clock_store
from db import follows as follow_store
from db import settings as store
from host import clocks, notify, timeouts
from rules import games as registry
from ui import UserError, fit, shown
from ui.formats import plural
from ui.permissions import is_server_admin

if TYPE_CHECKING:
    from bot import Ballcourt

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)

PING_TEXT = {
    "every_turn": "in the match's thread, every turn",
    "away": "in the match's thread, unless you acted in it in the last {away} minutes",
    "dm": "by DM",
    "never": "never (the match card and /games still show whose turn it is)",
}
DICE_TEXT = {
    False: "a roll with no choice in it is made for you as your turn begins (a new match "
    "takes this; it stays verifiable like every roll)",
    True: "you press Roll yourself",
}
POLICY_TEXT = {
    "computer": "a computer plays the seat until the player takes it back",
    "forfeit": "the player forfeits",
    "wait": "everyone waits",
    None: "the game's own (Rocketball: the opponent may claim; Rollerball and Rollerball II: "
    "a computer stands in)",
}
CLOCK_TIME = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*$")


def hours(minutes: float | None) -> str:
    if minutes is None:
        return "the game's own"
    if minutes % (24 * 60) == 0 and minutes >= 24 * 60:
        days = minutes // (24 * 60)
        return f"{days:g} {plural(days):day!}"
    value = minutes / 60
    return f"{value:g} {plural(value):hour!}"


def parse_clock_time(text: str) -> int:
    """'22:00', '7' or '07:30' as a minute of the day."""
    found = CLOCK_TIME.match(text)
    if not found or int(found[1]) > 23 or int(found[2] or 0) > 59:
        raise UserError(f"{shown(text[:20])} is not a time of day: write it like 22:00 or 7:30.")
    return int(found[1]) * 60 + int(found[2] or 0)


def parse_quiet_hours(text: str) -> tuple[int | None, int | None]:
    """'22:00-07:00' as (start, end) minutes; 'off' as none."""
    if text.strip().lower() in ("off", "none", "no", "-"):
        return None, None
    parts = text.split("-")
    if len(parts) != 2:
        raise UserError("Write quiet hours like 22:00-07:00 (from-to, your time), or off.")
    start, end = parse_clock_time(parts[0]), parse_clock_time(parts[1])
    if start == end:
        raise UserError("Quiet hours need a start and an end that differ, like 22:00-07:00.")
    return start, end


def clock_text(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def describe_user_settings(settings: store.UserSettings) -> list[str]:
    ping = PING_TEXT[settings.ping].format(away=settings.away_minutes)
    quiet = (
        f"{clock_text(settings.quiet_start)}-{clock_text(settings.quiet_end)} "
        "(reminders wait until they end; turns come without a ping)"
        if settings.has_quiet_hours
        and settings.quiet_start is not None
        and settings.quiet_end is not None
        else "none"
    )
    digest = (
        f"every day at {clock_text(settings.digest_minute)}"
        if settings.digest_minute is not None
        else "off"
    )
    return [
        f"**Pinged for your turn:** {ping}",
        f"**Time zone:** {shown(settings.time_zone)}",
        f"**Quiet hours:** {quiet}",
        f"**Daily DM of what waits for you:** {digest}",
        f"**Dice:** {DICE_TEXT[settings.roll_myself]}",
    ]


def describe_vacation(status: clocks.VacationStatus) -> str:
    banked = (
        f"{status.banked / clocks.DAY:.1f} days banked (a day more accrues every week, 30 at most)"
    )
    if status.current is None:
        return f"**Vacation:** not on vacation; {banked}."
    ends = int(status.current[1])
    return (
        f"**Vacation:** on vacation until <t:{ends}:f> (<t:{ends}:R>): every clock of yours "
        f"is paused; {banked} besides."
    )


class Settings(commands.Cog):
    group = app_commands.Group(
        name="settings",
        description="Your notifications and vacation; a server's defaults for new matches",
        allowed_contexts=EVERYWHERE,
        allowed_installs=BOTH_INSTALLS,
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        bot.timers.register(
            clocks.CLOCK_EVENT, functools.partial(timeouts.on_clock_timer, bot.matches)
        )

    # ---- /settings me --------------------------------------------------------------------------

    @group.command(
        name="me", description="How you are pinged and who presses a plain roll, on every server"
    )
    @app_commands.describe(
        ping="Where a turn or a reminder reaches you",
        away_minutes="With ping 'when away': no ping if you acted in the match this recently (5)",
        time_zone="Your time zone, e.g. Europe/Berlin (for quiet hours and the digest)",
        quiet_hours="From-to in your time, e.g. 22:00-07:00 (reminders wait), or off",
        digest="A daily DM of what waits for you, at this time (e.g. 08:00), or off",
        dice="A roll with no choice in it (Rocketball's d4): made as your turn begins, or yours",
    )
    @app_commands.choices(
        ping=[
            app_commands.Choice(name="in the thread, when I was away (default)", value="away"),
            app_commands.Choice(name="in the thread, every turn", value="every_turn"),
            app_commands.Choice(name="by DM", value="dm"),
            app_commands.Choice(name="never", value="never"),
        ],
        dice=[
            app_commands.Choice(name="rolled for me as my turn begins (default)", value="bot"),
            app_commands.Choice(name="I press Roll myself", value="myself"),
        ],
    )
    async def me(
        self,
        interaction: discord.Interaction,
        ping: app_commands.Choice[str] | None = None,
        away_minutes: app_commands.Range[int, 1, 10080] | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        quiet_hours: app_commands.Range[str, 1, 20] | None = None,
        digest: app_commands.Range[str, 1, 10] | None = None,
        dice: app_commands.Choice[str] | None = None,
    ) -> None:
        current = await store.user_settings(self.bot.db, interaction.user.id)
        changes: dict[str, Any] = {}
        if ping is not None:
            changes["ping"] = ping.value
        if away_minutes is not None:
            changes["away_minutes"] = away_minutes
        if time_zone is not None:
            name = time_zone.strip()
            if not notify.is_time_zone(name):
                raise UserError(
                    f"{shown(name[:40])} is not a time zone I know: pick one from the list, "
                    "like Europe/Berlin or America/New_York."
                )
            changes["time_zone"] = name
        if quiet_hours is not None:
            changes["quiet_start"], changes["quiet_end"] = parse_quiet_hours(quiet_hours)
        if digest is not None:
            off = digest.strip().lower() in ("off", "none", "no", "-")
            changes["digest_minute"] = None if off else parse_clock_time(digest)
        if dice is not None:
            changes["roll_myself"] = dice.value == "myself"
        settings = current
        if changes:
            wanted = store.UserSettings(**{**_fields(current), **changes})
            due = None
            if wanted.digest_minute is not None:
                due = notify.next_local(wanted, time.time(), wanted.digest_minute)
            settings = await store.save_user_settings(self.bot.db, wanted, digest_due=due)
        status = await clocks.vacation_status(self.bot.db, interaction.user.id, time.time())
        head = "Saved. " if changes else ""
        await interaction.response.send_message(
            fit(
                f"{head}Your settings (on every server):\n"
                + "\n".join(describe_user_settings(settings))
                + "\n"
                + describe_vacation(status)
                + "\nChange them with the options of `/settings me`; take a vacation with "
                "`/settings vacation`."
            ),
            ephemeral=True,
        )

    @me.autocomplete("time_zone")
    async def time_zone_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().lower().replace(" ", "_")
        names = sorted(
            name for name in available_timezones() if wanted in name.lower() and "/" in name
        )
        if wanted in ("", "utc"):
            names = ["UTC", *names]
        return [app_commands.Choice(name=name, value=name) for name in names[:25]]

    # ---- /settings follows -----------------------------------------------------------------------

    @group.command(
        name="follows", description="What you follow, how its news reaches you; unfollow"
    )
    @app_commands.describe(
        news="How the milestones of what you follow reach you",
        unfollow="Stop following this (picked from the list)",
    )
    @app_commands.choices(
        news=[
            app_commands.Choice(name="as my turns do (default)", value="turns"),
            app_commands.Choice(name="a mention where the news is posted", value="mention"),
            app_commands.Choice(name="by DM", value="dm"),
            app_commands.Choice(name="in my daily digest", value="digest"),
        ]
    )
    async def follows(
        self,
        interaction: discord.Interaction,
        news: app_commands.Choice[str] | None = None,
        unfollow: app_commands.Range[str, 1, 120] | None = None,
    ) -> None:
        following = self.bot.matches.follows
        user_id = interaction.user.id
        said = []
        if news is not None:
            if news.value == "digest":
                settings = await store.user_settings(self.bot.db, user_id)
                if settings.digest_minute is None:
                    raise UserError(
                        "You have no daily digest: set its time first with "
                        "`/settings me digest:08:00`, then choose it here."
                    )
            mode = None if news.value == "turns" else news.value
            await follow_store.set_news_mode(self.bot.db, user_id, mode)
            said.append("Saved.")
        if unfollow is not None:
            said.append(await following.unfollow_named(user_id, unfollow))
        said += await following.listing(user_id)
        await interaction.response.send_message(
            fit("\n".join(said)), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @follows.autocomplete("unfollow")
    async def followed_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.bot.matches.follows.followed_choices(interaction.user.id, current)
        return [app_commands.Choice(name=label[:100], value=value) for label, value in found][:25]

    # ---- /settings vacation -----------------------------------------------------------------------

    @group.command(name="vacation", description="Pause every clock of yours, or come back early")
    @app_commands.describe(
        days="Take this many days from your vacation bank now (0.5 to 30)",
        end="Come back now: what is left of the vacation goes back to the bank",
    )
    async def vacation(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[float, 0.5, 30.0] | None = None,
        end: bool = False,
    ) -> None:
        user_id = interaction.user.id
        if days is not None and end:
            raise UserError("Either take days of vacation or end the one you're on, not both.")
        # Taking or ending a vacation moves the deadlines of the user's leagues (and edits
        # their cards) before the answer: acknowledged first, so that never outlasts Discord's
        # three seconds.
        await interaction.response.defer(ephemeral=True, thinking=True)
        now = time.time()
        head = ""
        try:
            if days is not None:
                _, ends_at = await clocks.take_vacation(self.bot, user_id, days, now)
                head = (
                    f"Enjoy! Until <t:{int(ends_at)}:f> every clock, reminder and timeout of "
                    "yours is paused, on every server; they go on where they stopped when you "
                    "come back. "
                )
            elif end:
                given_back = await clocks.end_vacation(self.bot, user_id, now)
                head = (
                    f"Welcome back: your clocks run again, and {given_back / clocks.DAY:.1f} "
                    "days went back to your vacation bank. "
                )
        except clocks.VacationError as error:
            raise UserError(str(error)) from None
        status = await clocks.vacation_status(self.bot.db, user_id, time.time())
        await interaction.followup.send(
            fit(
                head
                + describe_vacation(status)
                + "\n`/settings vacation days:N` takes N days; `end:True` comes back early."
            ),
            ephemeral=True,
        )

    # ---- /settings server ------------------------------------------------------------------------------

    @group.command(name="server", description="This server's defaults for new matches (admins)")
    @app_commands.describe(
        game="The game the reminder, timeout, clock and on/off options are for",
        remind_hours="Ping a player who has not moved after this many hours",
        timeout_hours="A player's time for a move; then on_timeout applies",
        on_timeout="What happens when a player's time runs out",
        clock_hours="A clock: each player's bank of hours for the whole match (0: no clock)",
        increment_hours="A clock: hours added to a player's bank after each of their turns",
        cap_hours="A clock: the most a bank may hold",
        enabled="Switch the game on or off here (running matches go on)",
        channel="Post new matches and leagues in this channel",
        admin_role="Members with this role run leagues (besides Manage Server)",
        reset="Go back to the built-in default",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=g.name) for g in registry.GAMES],
        on_timeout=[
            app_commands.Choice(name="a computer takes the seat", value="computer"),
            app_commands.Choice(name="the player forfeits", value="forfeit"),
            app_commands.Choice(name="everyone waits", value="wait"),
            app_commands.Choice(name="the game's own", value="game"),
        ],
        reset=[
            app_commands.Choice(name="the game's reminder, timeout and clock", value="game"),
            app_commands.Choice(name="the channel for new matches", value="channel"),
            app_commands.Choice(name="the league admin role", value="role"),
        ],
    )
    async def server(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        remind_hours: app_commands.Range[float, 0.25, 720.0] | None = None,
        timeout_hours: app_commands.Range[float, 0.5, 2160.0] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
        clock_hours: app_commands.Range[float, 0.0, 2160.0] | None = None,
        increment_hours: app_commands.Range[float, 0.0, 720.0] | None = None,
        cap_hours: app_commands.Range[float, 0.0, 4320.0] | None = None,
        enabled: bool | None = None,
        channel: discord.TextChannel | None = None,
        admin_role: discord.Role | None = None,
        reset: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None or interaction.guild is None:
            raise UserError("Server settings are set in the server: run this there.")
        if not is_server_admin(interaction):
            raise UserError("Only members with the Manage Server permission change these.")
        per_game = {
            "remind_hours": remind_hours,
            "timeout_hours": timeout_hours,
            "on_timeout": on_timeout,
            "clock_hours": clock_hours,
            "increment_hours": increment_hours,
            "cap_hours": cap_hours,
            "enabled": enabled,
        }
        named = [name for name, value in per_game.items() if value is not None]
        if reset is not None and reset.value == "game":
            named.append("reset")
        if named and game is None:
            raise UserError(f"Name the game {', '.join(named)} is for: add the game option.")
        if enabled is not None and game is not None and game.value not in registry.switchable():
            raise UserError(f"{game.name} is always on: it cannot be switched off on a server.")
        done: list[str] = []
        db = self.bot.db
        if reset is not None and reset.value == "channel":
            await store.set_match_channel(db, guild_id, None)
            done.append("new matches are made where their command is used")
        if reset is not None and reset.value == "role":
            await store.set_admin_role(db, guild_id, None)
            done.append("leagues are run by members with Manage Server")
        if channel is not None:
            await store.set_match_channel(db, guild_id, channel.id)
            done.append(f"new matches and leagues go to {channel.mention}")
        if admin_role is not None:
            await store.set_admin_role(db, guild_id, admin_role.id)
            done.append(f"members with {admin_role.mention} run leagues")
        if game is not None:
            done += await self._change_game(
                guild_id, game.value, reset, per_game, on_timeout, enabled
            )
        settings = await store.server_settings(db, guild_id)
        head = (
            ("Saved: " + "; ".join(done) + ". Matches made from now on use it.\n") if done else ""
        )
        await interaction.response.send_message(
            fit(head + "\n".join(self.describe_server(settings))),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _change_game(
        self,
        guild_id: int,
        game: str,
        reset: app_commands.Choice[str] | None,
        values: dict[str, Any],
        on_timeout: app_commands.Choice[str] | None,
        enabled: bool | None,
    ) -> list[str]:
        db = self.bot.db
        title = registry.title_of(game)
        done = []
        if enabled is not None:
            await store.set_game_enabled(db, guild_id, game, enabled)
            done.append(f"{title} is switched {'on' if enabled else 'off'}")
        server = await store.server_settings(db, guild_id)
        old = (
            store.GameDefaults()
            if reset is not None and reset.value == "game"
            else server.games.get(game, store.GameDefaults())
        )

        def minutes(name: str, current: int | None) -> int | None:
            value = values[name]
            return current if value is None else round(value * 60)

        new = store.GameDefaults(
            remind_minutes=minutes("remind_hours", old.remind_minutes),
            timeout_minutes=minutes("timeout_hours", old.timeout_minutes),
            on_timeout=old.on_timeout
            if on_timeout is None
            else (None if on_timeout.value == "game" else on_timeout.value),
            clock_minutes=minutes("clock_hours", old.clock_minutes) or None,
            increment_minutes=minutes("increment_hours", old.increment_minutes),
            cap_minutes=minutes("cap_hours", old.cap_minutes) or None,
        )
        if new.clock_minutes is None:
            new = store.GameDefaults(
                new.remind_minutes, new.timeout_minutes, new.on_timeout, None, None, None
            )
        remind, timeout = new.remind_minutes, new.timeout_minutes
        if remind is not None and timeout is not None and timeout <= remind:
            raise UserError(
                f"The timeout ({hours(timeout)}) must be longer than the reminder "
                f"({hours(remind)}): a player is reminded first."
            )
        if (
            new.cap_minutes is not None
            and new.clock_minutes
            and new.cap_minutes < new.clock_minutes
        ):
            raise UserError("A clock's cap must be at least its bank.")
        if new != server.games.get(game, store.GameDefaults()):
            await store.save_game_defaults(db, guild_id, game, new)
            done.append(f"{title}'s defaults changed")
        return done

    def describe_server(self, settings: store.ServerSettings) -> list[str]:
        guild = self.bot.get_guild(settings.guild_id)
        role = None
        if settings.admin_role_id is not None:
            found = guild.get_role(settings.admin_role_id) if guild else None
            role = found.mention if found else f"<@&{settings.admin_role_id}>"
        lines = [
            "**This server's settings** (`/settings server` changes them; only matches made "
            "afterwards read them):",
            "**New matches and leagues:** "
            + (
                f"in <#{settings.match_channel_id}>"
                if settings.match_channel_id
                else "where their command is used"
            ),
            "**League admins:** members with Manage Server"
            + (f" and members with {role}" if role else ""),
        ]
        for info in registry.GAMES:
            defaults = settings.games.get(info.name, store.GameDefaults())
            switched = "off" if info.name in settings.disabled_games else "on"
            parts = [f"**{info.title}** ({switched}): reminder {hours(defaults.remind_minutes)}"]
            parts.append(f"timeout {hours(defaults.timeout_minutes)}")
            parts.append(f"then {POLICY_TEXT[defaults.on_timeout]}")
            if defaults.clock_minutes:
                clock = f"clock: {hours(defaults.clock_minutes)} each"
                if defaults.increment_minutes:
                    clock += f" + {hours(defaults.increment_minutes)} a turn"
                if defaults.cap_minutes:
                    clock += f", at most {hours(defaults.cap_minutes)}"
                parts.append(clock)
            else:
                parts.append("no clock")
            lines.append("; ".join(parts))
        return lines

    # ---- /privacy ------------------------------------------------------------------------------------------

    async def describe_user(self, db: Any, user_id: int) -> list[str]:
        lines = []
        settings = await store.user_settings(db, user_id)
        if settings.stored:
            quiet = (
                f"{clock_text(settings.quiet_start)}-{clock_text(settings.quiet_end)}"
                if settings.has_quiet_hours
                and settings.quiet_start is not None
                and settings.quiet_end is not None
                else "none"
            )
            lines.append(
                f"your notification settings: pinged {PING_TEXT[settings.ping].split(' (')[0]}".format(
                    away=settings.away_minutes
                )
                + f", time zone {shown(settings.time_zone)}, quiet hours {quiet}, daily digest "
                + (
                    "off"
                    if settings.digest_minute is None
                    else f"at {clock_text(settings.digest_minute)}"
                )
            )
        taken = await clock_store.vacations(db, user_id)
        balance = await clock_store.balance(db, user_id)
        if taken or balance is not None:
            banked = clocks.accrued(balance, time.time()) / clocks.DAY
            lines.append(
                f"your vacation bank ({banked:.1f} days) and {plural(len(taken)):vacation} taken"
                + (f", the last until <t:{int(taken[-1][1])}:f>" if taken else "")
            )
        return lines

    async def forget_user(self, conn: Any, user_id: int, anonymous: int) -> None:
        await store.forget_user(conn, user_id)
        await clock_store.forget_user(conn, user_id)


def _fields(settings: store.UserSettings) -> dict[str, Any]:
    return {
        "user_id": settings.user_id,
        "ping": settings.ping,
        "away_minutes": settings.away_minutes,
        "time_zone": settings.time_zone,
        "quiet_start": settings.quiet_start,
        "quiet_end": settings.quiet_end,
        "digest_minute": settings.digest_minute,
        "roll_myself": settings.roll_myself,
    }


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Settings(bot))
