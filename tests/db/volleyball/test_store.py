"""db/volleyball.py: the database's rules for leagues (one name per server, one team per
manager, versioned saves that write the deadline's timers and the round's reports with the
state, orders stored only against the version they were checked with), on both backends."""

from __future__ import annotations

import sqlite3

import pytest

from db import timers as timer_store
from db import volleyball as store
from db.database import Database


async def new_league(db: Database, name: str = "Spring League", guild: int = 1) -> int:
    return await store.create_league(
        db,
        guild_id=guild,
        name=name,
        channel_id=10,
        ping_role_id=None,
        admin_role_id=None,
        created_by=5,
        settings={"teams": 4},
        deadline_rule={"every_hours": 24},
        remind_minutes=720,
        state='{"round": 1}',
        anchor=0.0,
    )


async def test_one_league_of_a_name_per_server(db):
    await new_league(db, "Spring League")
    with pytest.raises(store.DuplicateLeagueError):
        await new_league(db, "  spring   LEAGUE ")
    await new_league(db, "Spring League", guild=2)  # another server may use the name
    assert await store.league_names(db, 1) == ["Spring League"]


async def test_a_save_from_an_old_version_writes_nothing(db):
    league_id = await new_league(db)
    first = await store.load_league(db, league_id)
    assert first is not None
    saved = await store.save_league(db, first, state='{"round": 2}')
    assert saved.version == first.version + 1
    with pytest.raises(store.StaleLeagueError):
        await store.save_league(
            db,
            first,
            state='{"round": 2}',
            reports=(1, 1, [store.NewReport("", None, ["twice"], [])]),
        )
    assert (await store.load_league(db, league_id)).state == '{"round": 2}'
    assert await store.unposted_reports(db, league_id) == []


async def test_the_deadline_timers_and_reports_are_written_with_the_state(db):
    league_id = await new_league(db)
    stored = await store.load_league(db, league_id)
    assert stored is not None
    payload = {"league_id": league_id, "season": 1, "round": 1}
    specs = [
        timer_store.TimerSpec("volleyball_deadline", 2000.0, payload),
        timer_store.TimerSpec("volleyball_remind", 1000.0, payload),
    ]
    stored = await store.save_league(
        db,
        stored,
        status="running",
        deadline=(2000.0, specs),
        reports=(1, 0, [store.NewReport("", None, ["Spring League begins"], ["cup"])]),
    )
    assert stored.status == "running" and stored.next_deadline == 2000.0
    timers = await timer_store.list_timers(db)
    assert {t.id for t in timers} == {stored.deadline_timer, stored.remind_timer}
    # A new deadline replaces the league's timers, never adds to them.
    payload2 = {**payload, "round": 2}
    stored = await store.save_league(
        db,
        stored,
        deadline=(3000.0, [timer_store.TimerSpec("volleyball_deadline", 3000.0, payload2)]),
    )
    timers = await timer_store.list_timers(db)
    assert [(t.event, t.payload["round"]) for t in timers] == [("volleyball_deadline", 2)]
    assert stored.remind_timer is None
    (report,) = await store.unposted_reports(db)
    assert report.messages == ["Spring League begins"] and report.images == ["cup"]
    await store.mark_posted(db, report.id)
    assert await store.unposted_reports(db) == []
    # A round's reports exist once: writing them again fails the whole save.
    with pytest.raises(sqlite3.IntegrityError):
        await store.save_league(
            db, stored, reports=(1, 0, [store.NewReport("", None, ["again"], [])])
        )
    assert (await store.load_league(db, league_id)).version == stored.version


async def test_one_team_per_manager_and_one_manager_per_team(db):
    league_id = await new_league(db)
    async with db.transaction() as conn:
        await store.add_manager(conn, league_id, 100, "Red Rockets")
    with pytest.raises(store.DuplicateManagerError):
        async with db.transaction() as conn:
            await store.add_manager(conn, league_id, 100, "Blue Whales")
    with pytest.raises(store.DuplicateManagerError):
        async with db.transaction() as conn:
            await store.add_manager(conn, league_id, 200, "Red Rockets")
    assert await store.managers(db, league_id) == {"Red Rockets": 100}
    assert await store.team_of(db, league_id, 100) == "Red Rockets"
    assert await store.leagues_managed_by(db, 1, 100) == [league_id]


async def test_orders_land_only_on_the_version_they_were_checked_against(db):
    league_id = await new_league(db)
    stored = await store.load_league(db, league_id)
    assert stored is not None
    await store.save_orders(
        db, stored, season=1, round_number=1, team="Red Rockets", orders='{"a": 1}', user_id=100
    )
    await store.save_orders(
        db, stored, season=1, round_number=1, team="Red Rockets", orders='{"a": 2}', user_id=100
    )
    assert await store.orders_on_file(db, league_id, 1, 1) == {"Red Rockets": '{"a": 2}'}
    await store.save_league(db, stored, state='{"round": 2}')  # the round was played
    with pytest.raises(store.StaleLeagueError):
        await store.save_orders(
            db, stored, season=1, round_number=1, team="Red Rockets", orders='{"a": 3}', user_id=100
        )
    assert await store.team_orders(db, league_id, 1, 1, "Red Rockets") == '{"a": 2}'
