"""A Rollerball II season's time as stored, on both backends (docs/rules/rollerball2.md,
rulings D10-D12; migration 015): one deadline timer a season, each matchday's set deadline and
the one in force, a pause, the seasons a coach's vacation may put off, when a fixture was
played, and seasons made before migration 015."""

from __future__ import annotations

import json

from db import rollerball2 as store
from db.connect import open_database
from db.database import Database, load_migrations
from db.timers import TimerSpec, insert_timer
from rules.rollerball2.roster import generate_roster
from tests.db.rollerball2.test_stats_rows import GUILD, finish, make_team

EVENT = "test_deadline"
DAY = 86400.0


async def season_timers(db: Database) -> list[tuple[dict, float]]:
    rows = await db.fetch_all(
        "SELECT payload, due_at FROM timers WHERE event = ? ORDER BY due_at", (EVENT,)
    )
    return [(json.loads(row["payload"]), row["due_at"]) for row in rows]


async def coached(db: Database, name: str, seed: int, *, owner: int) -> store.Team:
    return await store.create_team(
        db,
        guild_id=GUILD,
        owner_id=owner,
        roster=generate_roster(seed, name),
        colour="#000000",
        colour2="#ffffff",
        seed=str(seed),
    )


async def new_season(db: Database, teams: list[store.Team], name: str, **options):
    """A double round robin of two teams, 24 hours a matchday, started at day 0."""
    first, second = teams
    return await store.create_season(
        db,
        guild_id=GUILD,
        channel_id=5,
        name=name,
        created_by=1,
        starts_at=0.0,
        hours=24,
        schedule=[[(first.id, second.id)], [(second.id, first.id)]],
        rosters={team.id: team.roster for team in teams},
        timer_event=EVENT,
        **options,
    )


async def test_a_season_has_one_timer_and_each_matchday_a_set_deadline(db):
    houston, tokyo = await make_team(db, "Houston", 1), await make_team(db, "Tokyo", 2)
    season = await new_season(db, [houston, tokyo], "Spring")
    assert (season.current_matchday, season.paused_at, season.vacation_pauses) == (1, None, False)
    assert await season_timers(db) == [({"season": season.id, "matchday": 1}, DAY)]
    fixtures = await store.fixtures_of(db, season.id)
    assert [(f.matchday, f.set_deadline, f.deadline) for f in fixtures] == [
        (1, DAY, DAY),
        (2, 2 * DAY, 2 * DAY),
    ]
    assert all(f.played_at is None for f in fixtures)

    # matchday 1 extended: its deadline and the next one's move, with the timer
    saved = await store.save_season_time(
        db,
        season,
        current_matchday=1,
        deadlines={1: (DAY + 30 * 3600, DAY + 30 * 3600), 2: (2 * DAY, 2 * DAY + 18 * 3600)},
        paused_at=None,
        resumed_at=None,
        timer_event=EVENT,
        due_at=DAY + 30 * 3600,
    )
    assert saved.current_matchday == 1
    assert await season_timers(db) == [({"season": season.id, "matchday": 1}, DAY + 30 * 3600)]
    fixtures = await store.fixtures_of(db, season.id)
    assert [(f.set_deadline, f.deadline) for f in fixtures] == [
        (DAY + 30 * 3600, DAY + 30 * 3600),
        (2 * DAY, 2 * DAY + 18 * 3600),
    ]

    # paused: no timer; the pause is kept
    paused = await store.save_season_time(
        db,
        saved,
        current_matchday=1,
        deadlines={},
        paused_at=5.0,
        resumed_at=None,
        timer_event=EVENT,
        due_at=None,
    )
    assert paused.paused_at == 5.0 and await season_timers(db) == []


async def test_a_fixtures_match_tells_when_it_was_played(db):
    houston, tokyo = await make_team(db, "Houston", 1), await make_team(db, "Tokyo", 2)
    season = await new_season(db, [houston, tokyo], "Spring")
    fixture = (await store.fixtures_of(db, season.id, 1))[0]
    game_id, _ = await finish(db, houston, tokyo, 3, fixture=fixture.id)
    played = (await store.fixtures_of(db, season.id, 1))[0]
    finished = await db.fetch_one(
        "SELECT finished_at FROM rollerball2_matches WHERE game_id = ?", (game_id,)
    )
    assert played.how == "simulated" and played.played_at == finished["finished_at"]
    assert (await store.fixtures_of(db, season.id, 2))[0].played_at is None
    assert await store.open_fixture(db, tokyo.id, houston.id) is not None
    assert await store.open_fixture(db, houston.id, tokyo.id) is None


async def test_a_coachs_vacation_concerns_the_seasons_that_wait_for_them(db):
    houston, tokyo = await make_team(db, "Houston", 1), await make_team(db, "Tokyo", 2)
    lima, paris = await coached(db, "Lima", 4, owner=2), await coached(db, "Paris", 5, owner=3)
    waits = await new_season(db, [houston, lima], "Waits", vacation_pauses=True)
    plays = await new_season(db, [tokyo, paris], "Plays")
    assert waits.vacation_pauses and not plays.vacation_pauses
    assert await store.seasons_waiting_for(db, 1) == [waits.id]  # Houston's coach
    assert await store.seasons_waiting_for(db, 2) == [waits.id]  # Lima's
    assert await store.seasons_waiting_for(db, 3) == []  # Paris plays at its deadlines
    await store.save_season_time(
        db,
        waits,
        current_matchday=1,
        deadlines={},
        paused_at=10.0,
        resumed_at=None,
        timer_event=EVENT,
        due_at=None,
    )
    assert await store.seasons_waiting_for(db, 1) == []  # paused: no deadline runs


async def test_a_season_made_before_one_timer_a_season_is_brought_up_to_date(database_target):
    """Migration 015 on a season stored before it: the matchday whose deadline runs is the
    first with a fixture not played; the set deadlines are the ones it had; the first save of
    its time leaves one timer."""
    db = await open_database(database_target)
    try:
        before = [m for m in load_migrations(backend=db.backend) if m.version < 15]
        await db.migrate(before)
        async with db.transaction() as conn:
            for team_id, name in ((1, "Houston"), (2, "Tokyo")):
                await conn.execute(
                    "INSERT INTO rollerball2_teams (id, guild_id, owner_id, name, name_key,"
                    " colour, colour2, seed, roster, version, created_at, updated_at)"
                    " VALUES (?, ?, 1, ?, ?, '#000', '#fff', '1', '{}', 1, 'x', 'x')",
                    (team_id, GUILD, name, name.lower()),
                )
            for season_id, name, played in ((1, "Old", 1), (2, "Done", 2)):
                await conn.execute(
                    "INSERT INTO rollerball2_seasons (id, guild_id, channel_id, name, name_key,"
                    " created_by, starts_at, hours, matchdays, created_at)"
                    " VALUES (?, ?, 5, ?, ?, 1, 0, 24, 2, 'x')",
                    (season_id, GUILD, name, name.lower()),
                )
                for matchday in (1, 2):
                    await conn.execute(
                        "INSERT INTO rollerball2_fixtures (season_id, matchday, home_team_id,"
                        " away_team_id, deadline, how, home_goals, away_goals)"
                        " VALUES (?, ?, 1, 2, ?, ?, ?, ?)",
                        (
                            season_id,
                            matchday,
                            matchday * DAY,
                            "simulated" if matchday <= played else None,
                            3 if matchday <= played else None,
                            2 if matchday <= played else None,
                        ),
                    )
                    # a timer a matchday, as seasons had them (matchday 1's was played by
                    # its coaches: its timer still waits for the deadline)
                    payload = {"season": season_id, "matchday": matchday}
                    await insert_timer(conn, TimerSpec(EVENT, matchday * DAY, payload), now=0.0)
        await db.migrate()
        old = await store.load_season(db, 1)
        done = await store.load_season(db, 2)
        assert old is not None and done is not None
        assert (old.current_matchday, old.vacation_pauses, old.paused_at) == (2, False, None)
        assert done.current_matchday == 3 and done.over
        fixtures = await store.fixtures_of(db, 1)
        assert [(f.set_deadline, f.deadline) for f in fixtures] == [(DAY, DAY), (2 * DAY, 2 * DAY)]
        await store.save_season_time(
            db,
            old,
            current_matchday=2,
            deadlines={2: (2 * DAY, 2 * DAY + 60)},
            paused_at=None,
            resumed_at=None,
            timer_event=EVENT,
            due_at=2 * DAY + 60,
        )
        assert [t for t in await season_timers(db) if t[0]["season"] == 1] == [
            ({"season": 1, "matchday": 2}, 2 * DAY + 60)
        ]
    finally:
        await db.close()
