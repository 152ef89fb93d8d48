"""Who is pinged, where and when: the one place that reads a user's notification settings
(/settings me, docs/async-play.md "Notifications").

A user picks how a turn reaches them: a mention in the match's thread unless they acted in that
match in the last few minutes ("away", 5 minutes: the default, the match host's own rule), a
mention every turn ("every_turn"), a DM ("dm"), or nothing ("never": the match card and /games
still show whose turn it is). Quiet hours
in their time zone hold reminders back until they end; during them a turn is shown without a
ping. The host asks `turn_pings` for every turn it posts and `reminder_pings` for every reminder;
what it gets says whom to mention in the thread, whom to DM, and whom to name without a ping.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord

from db import games as game_store
from db import settings as settings_store
from db.player_games import last_moves
from db.settings import UserSettings
from host.match import COMPUTER_ID, DELETED_USER_ID, dice_line, human_seats
from ui.client import post
from ui.text import MAX_CONTENT, fit

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.match import Match
    from host.posted import Posted

log = logging.getLogger(__name__)

THREAD, DM, QUIET = "thread", "dm", "quiet"


@dataclass
class Pings:
    """Where a turn or a reminder reaches each user it is for."""

    thread: list[int] = field(default_factory=list)  # mention in the match's thread
    dm: list[int] = field(default_factory=list)  # a DM (closed DMs: a mention instead)
    quiet: list[int] = field(default_factory=list)  # named, not pinged
    later: dict[int, float] = field(default_factory=dict)  # a reminder waits until then


# ---- time zones and quiet hours ------------------------------------------------------------------


def zone(name: str) -> dt.tzinfo:
    """The IANA time zone `name`, UTC if it is unknown (settings are checked when saved)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def is_time_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def local_time(settings: UserSettings, now: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(now, zone(settings.time_zone))


def in_quiet_hours(settings: UserSettings, now: float) -> bool:
    """Is `now` inside the user's quiet hours (from quiet_start to quiet_end, local time;
    a span past midnight, 22:00-07:00, wraps)?"""
    if not settings.has_quiet_hours:
        return False
    assert settings.quiet_start is not None and settings.quiet_end is not None
    local = local_time(settings, now)
    minute = local.hour * 60 + local.minute
    start, end = settings.quiet_start, settings.quiet_end
    if start < end:
        return start <= minute < end
    return minute >= start or minute < end


def next_local(settings: UserSettings, now: float, minute_of_day: int) -> float:
    """The next moment after `now` that is `minute_of_day` on the user's clock."""
    tz = zone(settings.time_zone)
    local = dt.datetime.fromtimestamp(now, tz)
    hour, minute = divmod(minute_of_day % (24 * 60), 60)
    for days in range(3):
        day = local.date() + dt.timedelta(days=days)
        candidate = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=tz).timestamp()
        if candidate > now:
            return candidate
    return now + 24 * 3600.0  # unreachable: a day always has the minute


def quiet_hours_end(settings: UserSettings, now: float) -> float:
    assert settings.quiet_end is not None
    return next_local(settings, now, settings.quiet_end)


# ---- where a turn or a reminder goes ----------------------------------------------------------------


def route(
    settings: UserSettings, *, last_move: float | None, now: float, reminder: bool
) -> str | float:
    """THREAD, DM or QUIET for one user, or (a reminder in quiet hours) the moment it may go.

    A turn: "every_turn" mentions, "away" mentions only after `away_minutes` without an action
    of theirs in the match (or before their first), "dm" DMs, "never" names them; in quiet hours
    it names them. A reminder: the same, except that "away" mentions (a reminder comes only to
    someone who has been away) and quiet hours hold it back."""
    if settings.ping == "never":
        return QUIET
    if in_quiet_hours(settings, now):
        return quiet_hours_end(settings, now) if reminder else QUIET
    if settings.ping == "dm":
        return DM
    recently = last_move is not None and now - last_move < settings.away_minutes * 60
    if settings.ping == "away" and not reminder and recently:
        return QUIET
    return THREAD


def _people(users: Iterable[int]) -> list[int]:
    seen: list[int] = []
    for user in users:
        if user not in (COMPUTER_ID, DELETED_USER_ID) and user not in seen:
            seen.append(user)
    return seen


async def _pings(
    db: Any,
    game_id: int | None,
    users: Iterable[int],
    now: float,
    *,
    reminder: bool,
    now_only: bool = False,
    last_seen: Mapping[int, float] | None = None,
) -> Pings:
    people = _people(users)
    settings = await settings_store.users_settings(db, people)
    away = [user for user in people if settings[user].ping == "away"]
    if last_seen is not None:
        moves: Mapping[int, float | None] = last_seen
    elif away and game_id is not None and not reminder:  # a reminder pings "away" regardless
        moves = await last_moves(db, game_id, away)
    else:
        moves = {}
    return _routed(people, settings, moves, now, reminder=reminder, now_only=now_only)


def _routed(
    people: list[int],
    settings: Mapping[int, UserSettings],
    moves: Mapping[int, float | None],
    now: float,
    *,
    reminder: bool,
    now_only: bool,
) -> Pings:
    pings = Pings()
    for user in people:
        where = route(settings[user], last_move=moves.get(user), now=now, reminder=reminder)
        if isinstance(where, float):
            if now_only:
                pings.quiet.append(user)
            else:
                pings.later[user] = where
        elif where == THREAD:
            pings.thread.append(user)
        elif where == DM:
            pings.dm.append(user)
        else:
            pings.quiet.append(user)
    return pings


async def turn_pings(
    db: Any,
    stored: game_store.StoredGame,
    users: Iterable[int],
    now: float | None = None,
    *,
    last_seen: Mapping[int, float] | None = None,
) -> Pings:
    """Where the news that it is their turn reaches `users` (the people to act now). When each
    of them last acted in the match is `last_seen` (user id -> time, `seen_by_user`), else their
    last saved move."""
    return await _pings(
        db,
        stored.id,
        users,
        time.time() if now is None else now,
        reminder=False,
        last_seen=last_seen,
    )


def seen_by_user(players: Sequence[int], seen: Mapping[int, float]) -> dict[int, float]:
    """A match's `seen` (seat -> when it last acted) by user id, for `turn_pings`."""
    return {players[seat]: at for seat, at in seen.items() if 0 <= seat < len(players)}


async def reminder_pings(
    db: Any,
    stored: game_store.StoredGame,
    users: Iterable[int],
    now: float | None = None,
    *,
    now_only: bool = False,
) -> Pings:
    """Where a reminder (or news about their seat) reaches `users`; `later` holds those in
    quiet hours, with when it may go. `now_only`: nothing waits (news that cannot be put
    off): those in quiet hours are named without a ping."""
    return await _pings(
        db,
        stored.id,
        users,
        time.time() if now is None else now,
        reminder=True,
        now_only=now_only,
    )


async def reminders_pings(db: Any, users: list[list[int]], now: float) -> list[Pings]:
    """`reminder_pings` for many reminders at once (a batch of them falling due), each
    reminder's users given: everyone's settings in one query."""
    people = [_people(each) for each in users]
    settings = await settings_store.users_settings(db, [u for each in people for u in each])
    return [_routed(each, settings, {}, now, reminder=True, now_only=False) for each in people]


async def people_pings(
    db: Any, users: Iterable[int], now: float | None = None, *, reminder: bool = True
) -> Pings:
    """Where news outside a match reaches `users` (a league's reminder that orders are due, a
    round's results): as their settings say, "away" counting as away."""
    return await _pings(db, None, users, time.time() if now is None else now, reminder=reminder)


def mentions(users: Iterable[int]) -> str:
    return " ".join(f"<@{user}>" for user in users)


def allowed(users: Iterable[int]) -> discord.AllowedMentions:
    """Exactly these users may be pinged by the message (nobody else it names)."""
    return discord.AllowedMentions(
        users=[discord.Object(user) for user in users], roles=False, everyone=False
    )


def channel_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel or thread (or a message in it), for a DM or a list."""
    link = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{link}/{message_id}" if message_id else link


def jump_url(stored: game_store.StoredGame, message_id: int | None = None) -> str:
    """A link to the match: its turn message (or `message_id`) in its thread or channel."""
    message = message_id if message_id is not None else stored.turn_message_id
    return channel_link(stored.guild_id, stored.thread_id or stored.channel_id, message)


async def dm(bot: Any, user_id: int, texts: Iterable[str]) -> bool:
    """DM `texts` to one user, in order; False if Discord refused any of it. Whatever the
    refusal (DMs closed, an unknown user, 40003 "opening direct messages too fast", a rate
    limit discord.py would not wait out), it is this user's alone: a caller sending to many
    goes on with the next and mentions this one where the news is posted instead."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        for text in texts:
            await post(bot, user, text[:2000], allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.info("could not DM user %s: %s", user_id, error)
        return False
    return True


async def send_dms(bot: Any, users: Iterable[int], text: str) -> list[int]:
    """DM `text` to each user; returns those it could not reach (`dm`), who should be
    mentioned in the thread instead."""
    return [user_id for user_id in users if not await dm(bot, user_id, [text])]


async def deliver(
    bot: Any,
    pings: Pings,
    channel: discord.abc.Messageable,
    text: str,
    *,
    dm: str,
    link: str,
    lead: str = ", ",
    always: bool = False,
    view: discord.ui.View | None = None,
) -> int | None:
    """Deliver news as `pings` says: `dm` (with `link`) by DM to those who chose DMs, then
    `text` in `channel` mentioning those to be pinged there and those whose DMs are closed
    (`lead` between the mentions and the text), with `view` (its buttons) under it; only the
    people it mentions may be pinged by it. Nothing is posted when nobody is mentioned, unless
    `always` (news everyone reading the thread should see). The posted message's id, if any.
    Every ping goes out through `ui.client.post` (no discord.Message is built from Discord's
    answer); a refusal raises discord.HTTPException as `send` would."""
    failed = await send_dms(bot, pings.dm, f"{dm}\n{link}")
    mentioned = pings.thread + failed
    if not mentioned:
        if not always:
            return None
        return await post(bot, channel, fit(text), allowed_mentions=allowed(()), view=view)
    first: int | None = None
    for group in mention_groups(mentioned, room=MAX_CONTENT - len(lead) - len(text)):
        content = fit(mentions(group) + lead + text)
        posted = await post(bot, channel, content, allowed_mentions=allowed(group), view=view)
        first = first if first is not None else posted
    return first


# Users one message may ping: Discord's allowed_mentions lists at most 100
# (https://discord.com/developers/docs/resources/message#allowed-mentions-object).
PINGED_AT_MOST = 100
MENTION_AT_MOST = len(" <@18446744073709551615>")  # the largest snowflake's, and its space


def mention_groups(users: Sequence[int], *, room: int) -> list[list[int]]:
    """`users` in groups whose mentions fit in `room` characters and Discord's 100 a message,
    so that each of them gets a message with the whole text after their mention. A text that
    leaves no room for one mention (no caller writes one) is cut by `fit`, the last safety net."""
    room = max(room, MENTION_AT_MOST)
    groups: list[list[int]] = []
    width = 0
    for user in users:
        more = len(f" <@{user}>")  # a space between two, or before the lead
        if not groups or len(groups[-1]) == PINGED_AT_MOST or width + more > room:
            groups.append([])
            width = 0
        groups[-1].append(user)
        width += more
    return groups


# ---- finished matches -------------------------------------------------------------------------------


async def archive_thread(bot: Any, stored: game_store.StoredGame) -> bool:
    """Archive a finished match's thread (it stays readable and searchable; a message in it
    opens it again). The host calls this once it has posted the result. False if there is no
    thread or Discord refused (logged, nothing else changes)."""
    if stored.thread_id is None:
        return False
    try:
        thread = bot.get_channel(stored.thread_id) or await bot.fetch_channel(stored.thread_id)
        if not isinstance(thread, discord.Thread):
            return False
        if not thread.archived:
            await thread.edit(archived=True)
    except discord.HTTPException as error:
        log.info("could not archive the thread of match %s: %s", stored.id, error)
        return False
    return True


async def tell_players(
    bot: Any,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    match: Match,
    channel: discord.abc.Messageable,
    *,
    first: bool,
    card_id: int | None,
) -> None:
    """Tell the players what the card shows, as each one's notification settings say
    (host/py: a mention in the thread, a DM, or nothing): at the end the result and
    the revealed seed, to every player; during play whose decision it is, unless they acted
    in the match in the last few minutes (they are looking at the card). The first turn is
    always said, with the seed's commitment."""
    over = adapter.engine.is_over(match.engine)
    if over:
        users = [stored.players[s] for s in human_seats(stored.players)]
        pings = await reminder_pings(bot.db, stored, users, now_only=True)
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
        pings = await turn_pings(
            bot.db,
            stored,
            users,
            last_seen=seen_by_user(stored.players, match.seen),
        )
        said = next_text = adapter.next_text(match)
        if first:
            said += "\n" + dice_line(match.commitment, adapter.command("record"))
        dm = f"{adapter.title} match #{stored.id}: your move. {next_text}"
    await deliver(
        bot,
        pings,
        channel,
        said,
        dm=dm,
        link=jump_url(stored, card_id),
        lead=" " if over else ", your move: ",
        always=over or first,
    )


async def ping_after(bot: Any, posted: Posted) -> None:
    """A post's hook: the players told what the card shows (`tell_players`), where anything
    was played or the match began."""
    if posted.ping or posted.first:
        await tell_players(
            bot,
            posted.adapter,
            posted.stored,
            posted.match,
            posted.channel,
            first=posted.first,
            card_id=posted.card_id,
        )


async def archive_finished(bot: Any, posted: Posted) -> None:
    """A post's hook, once its card and news are out: a finished match's thread archived."""
    if posted.adapter.engine.is_over(posted.match.engine):
        await archive_thread(bot, posted.stored)  # readable, searchable, out of the list
