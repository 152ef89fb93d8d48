"""Volleyball leagues in the database: the league row (state JSON, versioned), its managers,
the orders on file, the reports a round sends out (db/migrations/007_volleyball.sql), the
status card's message and the text of refused forms (011_volleyball_card_forms.sql), the
deadline policies and the missed rounds (014_volleyball_deadline_policies.sql), what decided a
round, for its Why? (028_volleyball_round_why.sql).

A change of the league state is saved like a match's move (db/games.save_move): only if the
league is still at the version it was read at, with everything that follows from it (the
managers, the reports, the deadline's timers) in the same transaction. Orders are stored only
while the league is at the version they were checked against.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from db import timers as timer_store
from db.database import Connection, Database, IntegrityError

STATUSES = ("forming", "running", "paused")


class StaleLeagueError(Exception):
    """The league changed since it was read: the change was computed from an old state."""


class DuplicateLeagueError(Exception):
    """A league of that name exists in the server (the unique key said so)."""


class DuplicateManagerError(Exception):
    """The user manages a team in the league already, or the team has a manager."""


@dataclass(frozen=True)
class StoredLeague:
    id: int
    guild_id: int
    name: str
    channel_id: int
    ping_role_id: int | None
    admin_role_id: int | None
    created_by: int
    settings: dict[str, Any]
    deadline_rule: dict[str, Any]
    remind_minutes: int
    anchor: float
    status: str
    state: str
    version: int
    next_deadline: float | None
    deadline_timer: int | None
    remind_timer: int | None
    card_message_id: int | None = None
    hand_over_after: int = 0  # missed rounds in a row that hand a team to the computer; 0 never
    vacation_pauses: bool = False  # a manager's vacation puts the deadline off
    round_since: float | None = None  # when the running round's time began
    set_deadline: float | None = None  # its deadline before the managers' vacations
    paused_at: float | None = None  # when an admin paused the league
    lesson_of: int | None = None  # a lesson's learner (docs/rules/volleyball.md "Learn by playing")
    lesson_step: int = 0  # how far the learner is in the lesson

    def state_json(self) -> Any:
        return json.loads(self.state)


@dataclass(frozen=True)
class StoredReport:
    id: int
    league_id: int
    season: int
    round_number: int
    team: str  # '' for the public summary
    user_id: int | None
    messages: list[str]
    images: list[str]
    posted: bool
    why: list[tuple[str, list[str]]] | None = None  # the round's events and their rule ids


@dataclass(frozen=True)
class NewReport:
    """A report to write with a round: public (team '') or one manager's."""

    team: str
    user_id: int | None
    messages: list[str]
    images: list[str]
    why: list[tuple[str, list[str]]] | None = None  # events and rule ids (None: none kept)


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _league(row: Any) -> StoredLeague:
    return StoredLeague(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        channel_id=row["channel_id"],
        ping_role_id=row["ping_role_id"],
        admin_role_id=row["admin_role_id"],
        created_by=row["created_by"],
        settings=json.loads(row["settings"]),
        deadline_rule=json.loads(row["deadline_rule"]),
        remind_minutes=row["remind_minutes"],
        anchor=row["anchor"],
        status=row["status"],
        state=row["state"],
        version=row["version"],
        next_deadline=row["next_deadline"],
        deadline_timer=row["deadline_timer"],
        remind_timer=row["remind_timer"],
        card_message_id=row["card_message_id"],
        hand_over_after=row["hand_over_after"],
        vacation_pauses=bool(row["vacation_pauses"]),
        round_since=row["round_since"],
        set_deadline=row["set_deadline"],
        paused_at=row["paused_at"],
        lesson_of=row["lesson_of"],
        lesson_step=row["lesson_step"],
    )


def _report(row: Any) -> StoredReport:
    return StoredReport(
        id=row["id"],
        league_id=row["league_id"],
        season=row["season"],
        round_number=row["round_number"],
        team=row["team"],
        user_id=row["user_id"],
        messages=json.loads(row["messages"]),
        images=json.loads(row["images"]),
        posted=row["posted_at"] is not None,
        why=None if row["why"] is None else [(str(t), list(r)) for t, r in json.loads(row["why"])],
    )


# --- leagues ----------------------------------------------------------------------------------


async def create_league(
    db: Database,
    *,
    guild_id: int,
    name: str,
    channel_id: int,
    ping_role_id: int | None,
    admin_role_id: int | None,
    created_by: int,
    settings: dict[str, Any],
    deadline_rule: dict[str, Any],
    remind_minutes: int,
    state: str,
    anchor: float,
    hand_over_after: int = 0,
    vacation_pauses: bool = False,
    lesson_of: int | None = None,
) -> int:
    """Insert a league (status forming). DuplicateLeagueError when the server has a league of
    that name (the unique key decides, so two simultaneous creates make one league)."""
    try:
        async with db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO volleyball_leagues (guild_id, name, name_key, channel_id,"
                " ping_role_id, admin_role_id, created_by, settings, deadline_rule,"
                " remind_minutes, anchor, status, state, version, hand_over_after,"
                " vacation_pauses, lesson_of, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'forming', ?, 0, ?, ?, ?,"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP) RETURNING id",
                (
                    guild_id,
                    name,
                    name_key(name),
                    channel_id,
                    ping_role_id,
                    admin_role_id,
                    created_by,
                    json.dumps(settings, sort_keys=True),
                    json.dumps(deadline_rule, sort_keys=True),
                    remind_minutes,
                    anchor,
                    state,
                    hand_over_after,
                    int(vacation_pauses),
                    lesson_of,
                ),
            )
            league_id = (await cursor.fetchone())["id"]
    except IntegrityError as error:
        raise DuplicateLeagueError(name) from error
    return league_id


async def load_league(db: Database, league_id: int) -> StoredLeague | None:
    row = await db.fetch_one("SELECT * FROM volleyball_leagues WHERE id = ?", (league_id,))
    return None if row is None else _league(row)


async def league_named(db: Database, guild_id: int, name: str) -> StoredLeague | None:
    row = await db.fetch_one(
        "SELECT * FROM volleyball_leagues WHERE guild_id = ? AND name_key = ?"
        " AND lesson_of IS NULL",
        (guild_id, name_key(name)),
    )
    return None if row is None else _league(row)


async def leagues_in_guild(db: Database, guild_id: int) -> list[StoredLeague]:
    rows = await db.fetch_all(
        "SELECT * FROM volleyball_leagues WHERE guild_id = ? AND lesson_of IS NULL ORDER BY id",
        (guild_id,),
    )
    return [_league(row) for row in rows]


async def league_names(db: Database, guild_id: int) -> list[str]:
    """Names only (autocomplete: no state is read)."""
    rows = await db.fetch_all(
        "SELECT name FROM volleyball_leagues WHERE guild_id = ? AND lesson_of IS NULL"
        " ORDER BY name_key",
        (guild_id,),
    )
    return [row["name"] for row in rows]


async def leagues_of_status(db: Database, statuses: tuple[str, ...]) -> list[int]:
    """The leagues in these statuses in the servers of this process's shards (start-up repair:
    with several processes, each repairs its own servers' leagues)."""
    placeholders = ", ".join("?" for _ in statuses)
    shard_sql, shard_parameters = db.on_own_shards("guild_id")
    rows = await db.fetch_all(
        f"SELECT id FROM volleyball_leagues WHERE status IN ({placeholders}) AND {shard_sql}"
        " ORDER BY id",
        (*statuses, *shard_parameters),
    )
    return [row["id"] for row in rows]


async def save_league(
    db: Database,
    stored: StoredLeague,
    *,
    state: str | None = None,
    status: str | None = None,
    settings: dict[str, Any] | None = None,
    deadline: tuple[float | None, list[timer_store.TimerSpec]] | None = None,
    reports: tuple[int, int, list[NewReport]] | None = None,
    also: Callable[[Connection], Awaitable[None]] | None = None,
    changes: dict[str, Any] | None = None,
) -> StoredLeague:
    """Write a new state (and status, settings), if nobody saved since `stored` was read;
    otherwise StaleLeagueError and nothing is written.

    In the same transaction: with `deadline` = (next deadline, timers) the league's old
    timers are deleted and these written (the first is the deadline's, the second its
    reminder); with `reports` = (season, round, reports) the round's reports; `also` runs
    last (e.g. a manager row). `changes` sets plain columns (channel_id, ping_role_id,
    admin_role_id, remind_minutes, deadline_rule, anchor, and the deadline policies and the
    round's time: hand_over_after, vacation_pauses, round_since, set_deadline, paused_at)."""
    allowed = {
        "channel_id",
        "ping_role_id",
        "admin_role_id",
        "remind_minutes",
        "deadline_rule",
        "anchor",
        "hand_over_after",
        "vacation_pauses",
        "round_since",
        "set_deadline",
        "paused_at",
    }
    changes = dict(changes or {})
    if not set(changes) <= allowed:
        raise ValueError(f"not a league column: {sorted(set(changes) - allowed)}")
    if "deadline_rule" in changes:
        changes["deadline_rule"] = json.dumps(changes["deadline_rule"], sort_keys=True)
    if "vacation_pauses" in changes:
        changes["vacation_pauses"] = int(bool(changes["vacation_pauses"]))
    new = {
        "state": stored.state if state is None else state,
        "status": status or stored.status,
        "settings": json.dumps(stored.settings if settings is None else settings, sort_keys=True),
        **changes,
    }
    now = time.time()
    async with db.transaction() as conn:
        if deadline is not None:
            next_deadline, specs = deadline
            # The new timers are written before the old ones go: a timer firing now (the
            # deadline's, which replaces itself) keeps its row until then, so no new timer
            # takes its id (SQLite numbers a row max + 1) and is deleted as the fired one.
            # An old timer that has fired is gone, and its id may be another row's by now
            # (this league's new timer, another's): only the league's own old timers go.
            ids = [await timer_store.insert_timer(conn, spec, now=now) for spec in specs]
            await _delete_own_timers(
                conn, stored.id, [stored.deadline_timer, stored.remind_timer], keep=ids
            )
            ids += [None] * (2 - len(ids))
            new |= {
                "next_deadline": next_deadline,
                "deadline_timer": ids[0],
                "remind_timer": ids[1],
            }
        assignments = ", ".join(f"{column} = ?" for column in new)
        cursor = await conn.execute(
            f"UPDATE volleyball_leagues SET {assignments}, version = version + 1,"
            " updated_at = CURRENT_TIMESTAMP WHERE id = ? AND version = ?",
            (*new.values(), stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            raise StaleLeagueError(f"league {stored.id} is no longer at version {stored.version}")
        if reports is not None:
            season, round_number, rows = reports
            await conn.executemany(
                "INSERT INTO volleyball_reports (league_id, season, round_number, team, user_id,"
                " messages, images, why, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
                [
                    (
                        stored.id,
                        season,
                        round_number,
                        r.team,
                        r.user_id,
                        json.dumps(r.messages),
                        json.dumps(r.images),
                        None if r.why is None else json.dumps(r.why, separators=(",", ":")),
                    )
                    for r in rows
                ],
            )
        if also is not None:
            await also(conn)
    fresh = await load_league(db, stored.id)
    assert fresh is not None
    return fresh


async def _delete_own_timers(
    conn: Connection, league_id: int, timer_ids: list[int | None], *, keep: list[int]
) -> None:
    """Inside the caller's transaction: delete those of `timer_ids` that are still the
    league's (a row whose payload names it), except `keep`."""
    wanted = [t for t in timer_ids if t is not None and t not in keep]
    if not wanted:
        return
    marks = ", ".join("?" for _ in wanted)
    cursor = await conn.execute(f"SELECT id, payload FROM timers WHERE id IN ({marks})", wanted)
    own = [
        (row["id"],)
        for row in await cursor.fetchall()
        if json.loads(row["payload"]).get("league_id") == league_id
    ]
    if own:
        await conn.executemany("DELETE FROM timers WHERE id = ?", own)


async def league_timers_exist(db: Database, stored: StoredLeague) -> bool:
    """The league's deadline timer is still a row (start-up repair writes it again if not)."""
    if stored.deadline_timer is None:
        return False
    row = await db.fetch_one("SELECT payload FROM timers WHERE id = ?", (stored.deadline_timer,))
    return row is not None and json.loads(row["payload"]).get("league_id") == stored.id


# --- managers ---------------------------------------------------------------------------------


async def add_manager(conn: Connection, league_id: int, user_id: int, team: str) -> None:
    """Inside the caller's transaction: DuplicateManagerError when the user has a team in the
    league or the team has a manager."""
    try:
        await conn.execute(
            "INSERT INTO volleyball_managers (league_id, user_id, team, joined_at)"
            " VALUES (?, ?, ?, CURRENT_TIMESTAMP)",
            (league_id, user_id, team),
        )
    except IntegrityError as error:
        raise DuplicateManagerError(team) from error


async def managers(db: Database, league_id: int) -> dict[str, int]:
    """team -> user id of every managed team."""
    rows = await db.fetch_all(
        "SELECT team, user_id FROM volleyball_managers WHERE league_id = ?", (league_id,)
    )
    return {row["team"]: row["user_id"] for row in rows}


async def missed_rounds(db: Database, league_id: int) -> dict[str, int]:
    """team -> rounds in a row it was played without its manager's orders."""
    rows = await db.fetch_all(
        "SELECT team, missed_rounds FROM volleyball_managers WHERE league_id = ?", (league_id,)
    )
    return {row["team"]: int(row["missed_rounds"]) for row in rows}


async def set_missed_rounds(conn: Connection, league_id: int, counts: dict[str, int]) -> None:
    """Inside the round's transaction: each managed team's missed rounds in a row."""
    if not counts:
        return
    await conn.executemany(
        "UPDATE volleyball_managers SET missed_rounds = ? WHERE league_id = ? AND team = ?",
        [(count, league_id, team) for team, count in sorted(counts.items())],
    )


async def hand_over(conn: Connection, league_id: int, team: str) -> None:
    """Inside the round's transaction: the team's manager no longer manages it (it missed
    the league's limit of rounds); the orders they sent stay, as history."""
    await conn.execute(
        "DELETE FROM volleyball_managers WHERE league_id = ? AND team = ?", (league_id, team)
    )


async def team_of(db: Database, league_id: int, user_id: int) -> str | None:
    row = await db.fetch_one(
        "SELECT team FROM volleyball_managers WHERE league_id = ? AND user_id = ?",
        (league_id, user_id),
    )
    return None if row is None else row["team"]


async def leagues_managed_by(db: Database, guild_id: int, user_id: int) -> list[int]:
    rows = await db.fetch_all(
        "SELECT l.id FROM volleyball_leagues l JOIN volleyball_managers m ON m.league_id = l.id"
        " WHERE l.guild_id = ? AND m.user_id = ? AND l.lesson_of IS NULL ORDER BY l.id",
        (guild_id, user_id),
    )
    return [row["id"] for row in rows]


async def remove_manager(conn: Connection, league_id: int, user_id: int) -> None:
    """Inside the caller's transaction: the user no longer manages a team in the league; their
    orders on file go with them."""
    await conn.execute(
        "DELETE FROM volleyball_managers WHERE league_id = ? AND user_id = ?", (league_id, user_id)
    )
    await conn.execute(
        "DELETE FROM volleyball_orders WHERE league_id = ? AND user_id = ?", (league_id, user_id)
    )


async def leagues_of_manager(db: Database, user_id: int) -> list[tuple[int, str, str]]:
    """(league id, league name, team) of every league the user manages a team in (/privacy)."""
    rows = await db.fetch_all(
        "SELECT l.id, l.name, m.team FROM volleyball_leagues l"
        " JOIN volleyball_managers m ON m.league_id = l.id WHERE m.user_id = ?"
        " AND l.lesson_of IS NULL ORDER BY l.id",
        (user_id,),
    )
    return [(row["id"], row["name"], row["team"]) for row in rows]


# --- lessons (docs/rules/volleyball.md "Learn by playing") -----------------------------------


async def lesson_of(db: Database, guild_id: int, user_id: int) -> StoredLeague | None:
    """The user's lesson in this server (a league of which they are the learner), if any."""
    row = await db.fetch_one(
        "SELECT * FROM volleyball_leagues WHERE guild_id = ? AND lesson_of = ? ORDER BY id DESC",
        (guild_id, user_id),
    )
    return None if row is None else _league(row)


async def set_lesson_step(db: Database, league_id: int, step: int, was: int) -> bool:
    """The lesson moves on to `step` if it is still at `was` (False: it moved already)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE volleyball_leagues SET lesson_step = ?, updated_at = CURRENT_TIMESTAMP"
            " WHERE id = ? AND lesson_step = ?",
            (step, league_id, was),
        )
        return cursor.rowcount == 1


async def stale_lessons(db: Database, before: float) -> list[StoredLeague]:
    """The lessons nobody moved on since `before` (seconds since the epoch, UTC): abandoned.
    CURRENT_TIMESTAMP is stored as text starting "YYYY-MM-DD HH:MM:SS" on both backends, so
    the text comparison orders it."""
    cutoff = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(before))
    rows = await db.fetch_all(
        "SELECT * FROM volleyball_leagues WHERE lesson_of IS NOT NULL AND updated_at < ?"
        " ORDER BY id",
        (cutoff,),
    )
    return [_league(row) for row in rows]


async def lessons_of_user(db: Database, user_id: int) -> int:
    """How many lessons the user has (/privacy)."""
    row = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM volleyball_leagues WHERE lesson_of = ?", (user_id,)
    )
    return 0 if row is None else int(row["n"])


async def delete_league(db: Database, league_id: int) -> None:
    """A lesson done with: the league and (ON DELETE CASCADE) its managers, orders, drafts,
    reports and records."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM volleyball_leagues WHERE id = ?", (league_id,))


async def forget_user(conn: Connection, user_id: int) -> None:
    """/privacy, inside its transaction: what is left of the user's rows (sheets already sent)
    no longer names them; their lessons are deleted, with everything of them."""
    await conn.execute("DELETE FROM volleyball_leagues WHERE lesson_of = ?", (user_id,))
    await conn.execute("DELETE FROM volleyball_orders WHERE user_id = ?", (user_id,))
    await conn.execute("UPDATE volleyball_reports SET user_id = NULL WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM volleyball_form_texts WHERE user_id = ?", (user_id,))


# --- orders -----------------------------------------------------------------------------------


async def save_orders(
    db: Database,
    stored: StoredLeague,
    *,
    season: int,
    round_number: int,
    team: str,
    orders: str,
    user_id: int,
) -> None:
    """Store (replace) a team's orders for a round, only while the league is still at the
    version the orders were checked against: StaleLeagueError otherwise."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO volleyball_orders (league_id, season, round_number, team, orders,"
            " user_id, updated_at)"
            " SELECT ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP"
            " WHERE EXISTS (SELECT 1 FROM volleyball_leagues WHERE id = ? AND version = ?)"
            " ON CONFLICT (league_id, season, round_number, team) DO UPDATE SET"
            " orders = excluded.orders, user_id = excluded.user_id,"
            " updated_at = excluded.updated_at",
            (stored.id, season, round_number, team, orders, user_id, stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            raise StaleLeagueError(f"league {stored.id} is no longer at version {stored.version}")


async def orders_on_file(
    db: Database, league_id: int, season: int, round_number: int
) -> dict[str, str]:
    """team -> orders JSON for one round."""
    rows = await db.fetch_all(
        "SELECT team, orders FROM volleyball_orders"
        " WHERE league_id = ? AND season = ? AND round_number = ?",
        (league_id, season, round_number),
    )
    return {row["team"]: row["orders"] for row in rows}


async def team_orders(
    db: Database, league_id: int, season: int, round_number: int, team: str
) -> str | None:
    row = await db.fetch_one(
        "SELECT orders FROM volleyball_orders"
        " WHERE league_id = ? AND season = ? AND round_number = ? AND team = ?",
        (league_id, season, round_number, team),
    )
    return None if row is None else row["orders"]


# --- reports ----------------------------------------------------------------------------------


async def leagues_unposted(db: Database, guild_id: int) -> list[int]:
    """The server's leagues with reports not sent yet (a missing permission held them back)."""
    rows = await db.fetch_all(
        "SELECT DISTINCT r.league_id FROM volleyball_reports r"
        " JOIN volleyball_leagues l ON l.id = r.league_id"
        " WHERE r.posted_at IS NULL AND l.guild_id = ? ORDER BY r.league_id",
        (guild_id,),
    )
    return [row["league_id"] for row in rows]


async def unposted_reports(db: Database, league_id: int | None = None) -> list[StoredReport]:
    """Reports not sent yet, oldest first (of one league, or of every league)."""
    if league_id is None:
        rows = await db.fetch_all(
            "SELECT * FROM volleyball_reports WHERE posted_at IS NULL ORDER BY id"
        )
    else:
        rows = await db.fetch_all(
            "SELECT * FROM volleyball_reports WHERE posted_at IS NULL AND league_id = ?"
            " ORDER BY id",
            (league_id,),
        )
    return [_report(row) for row in rows]


async def mark_posted(db: Database, report_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE volleyball_reports SET posted_at = CURRENT_TIMESTAMP WHERE id = ?",
            (report_id,),
        )


async def report_for(
    db: Database, league_id: int, season: int, round_number: int, team: str
) -> StoredReport | None:
    row = await db.fetch_one(
        "SELECT * FROM volleyball_reports"
        " WHERE league_id = ? AND season = ? AND round_number = ? AND team = ?",
        (league_id, season, round_number, team),
    )
    return None if row is None else _report(row)


async def last_round_report(db: Database, league_id: int) -> StoredReport | None:
    """The public report of the league's latest round played, of any season: the one whose
    images are a round's ("round"), not a league's start's nor a season's end's."""
    row = await db.fetch_one(
        "SELECT * FROM volleyball_reports WHERE league_id = ? AND team = ''"
        """ AND images LIKE '%"round"%' ORDER BY season DESC, round_number DESC LIMIT 1""",
        (league_id,),
    )
    return None if row is None else _report(row)


async def last_orders(
    db: Database, league_id: int, team: str, before: tuple[int, int]
) -> tuple[int, int, str] | None:
    """The team's latest orders on file for a round before `before` = (season, round):
    (season, round, orders JSON), or None (what "Repeat last orders" repeats)."""
    season, round_number = before
    row = await db.fetch_one(
        "SELECT season, round_number, orders FROM volleyball_orders"
        " WHERE league_id = ? AND team = ? AND (season < ? OR (season = ? AND round_number < ?))"
        " ORDER BY season DESC, round_number DESC LIMIT 1",
        (league_id, team, season, season, round_number),
    )
    if row is None:
        return None
    return int(row["season"]), int(row["round_number"]), row["orders"]


async def rename_opponent(
    conn: Connection, league_id: int, season: int, round_number: int, old: str, new: str
) -> None:
    """Inside the caller's transaction: the line-ups on file for the round that name `old`
    as their opponent name `new` (a seat taken over by a new team plays under its name; the
    opponents' line-ups stay right). Other orders naming `old` (a spying order) are left:
    they are about a team that is gone, and the check says so."""
    cursor = await conn.execute(
        "SELECT team, orders FROM volleyball_orders"
        " WHERE league_id = ? AND season = ? AND round_number = ?",
        (league_id, season, round_number),
    )
    rows = await cursor.fetchall()
    for row in rows:
        data = json.loads(row["orders"])
        changed = False
        for match in data.get("matches", []):
            if str(match.get("opponent", "")).casefold() == old.casefold():
                match["opponent"] = new
                changed = True
        if changed:
            await conn.execute(
                "UPDATE volleyball_orders SET orders = ? WHERE league_id = ? AND season = ?"
                " AND round_number = ? AND team = ?",
                (json.dumps(data), league_id, season, round_number, row["team"]),
            )


# --- the status card --------------------------------------------------------------------------


async def card_of(db: Database, league_id: int) -> int | None:
    row = await db.fetch_one(
        "SELECT card_message_id FROM volleyball_leagues WHERE id = ?", (league_id,)
    )
    return None if row is None else row["card_message_id"]


async def set_card(db: Database, league_id: int, message_id: int | None) -> None:
    """The status card's message (not a change of the league: its version stays)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE volleyball_leagues SET card_message_id = ? WHERE id = ?",
            (message_id, league_id),
        )


# --- refused forms ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FormText:
    season: int
    round_number: int
    fields: dict[str, str]


async def keep_form(
    db: Database,
    league_id: int,
    user_id: int,
    kind: str,
    *,
    season: int,
    round_number: int,
    fields: dict[str, str],
) -> None:
    """Keep (replace) the text of a refused form."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO volleyball_form_texts (league_id, user_id, kind, season, round_number,"
            " fields, updated_at) VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)"
            " ON CONFLICT (league_id, user_id, kind) DO UPDATE SET season = excluded.season,"
            " round_number = excluded.round_number, fields = excluded.fields,"
            " updated_at = excluded.updated_at",
            (league_id, user_id, kind, season, round_number, json.dumps(fields)),
        )


async def kept_form(db: Database, league_id: int, user_id: int, kind: str) -> FormText | None:
    row = await db.fetch_one(
        "SELECT season, round_number, fields FROM volleyball_form_texts"
        " WHERE league_id = ? AND user_id = ? AND kind = ?",
        (league_id, user_id, kind),
    )
    if row is None:
        return None
    return FormText(int(row["season"]), int(row["round_number"]), json.loads(row["fields"]))


async def drop_form(db: Database, league_id: int, user_id: int, kind: str) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM volleyball_form_texts WHERE league_id = ? AND user_id = ? AND kind = ?",
            (league_id, user_id, kind),
        )


async def kept_forms_of_user(db: Database, user_id: int) -> int:
    """How many refused forms are kept for the user (/privacy says so)."""
    row = await db.fetch_one(
        "SELECT COUNT(*) AS kept FROM volleyball_form_texts WHERE user_id = ?", (user_id,)
    )
    return int(row["kept"]) if row is not None else 0
