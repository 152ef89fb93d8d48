"""db/volleyball.py's lessons (docs/rules/volleyball.md "Learn by playing"): a lesson league is
its learner's, left out of the server's leagues, their names and a user's leagues; its step
moves on once however many clicks race to it; an abandoned one is found by its last move; and
/privacy's deletion deletes the user's lessons with everything of them, on both backends."""

from __future__ import annotations

import time

from db import volleyball as store
from db.database import Database


async def new_league(db: Database, name: str, lesson_of: int | None = None) -> int:
    league_id = await store.create_league(
        db,
        guild_id=1,
        name=name,
        channel_id=10,
        ping_role_id=None,
        admin_role_id=None,
        created_by=lesson_of or 5,
        settings={"teams": 2},
        deadline_rule={"every_hours": 24},
        remind_minutes=0,
        state='{"round": 1}',
        anchor=0.0,
        lesson_of=lesson_of,
    )
    async with db.transaction() as conn:
        await store.add_manager(conn, league_id, lesson_of or 5, "Lesson Lions")
    return league_id


async def test_a_lesson_is_left_out_of_everything_public(db):
    real = await new_league(db, "Spring League")
    lesson = await new_league(db, "Lesson 7", lesson_of=7)
    assert [s.id for s in await store.leagues_in_guild(db, 1)] == [real]
    assert await store.league_names(db, 1) == ["Spring League"]
    assert await store.league_named(db, 1, "Lesson 7") is None
    assert await store.leagues_managed_by(db, 1, 7) == []
    assert await store.leagues_of_manager(db, 7) == []
    found = await store.lesson_of(db, 1, 7)
    assert found is not None and found.id == lesson and found.lesson_of == 7
    assert await store.lesson_of(db, 1, 5) is None  # a real league is nobody's lesson
    assert await store.lesson_of(db, 2, 7) is None  # in another server


async def test_a_lessons_step_moves_on_once(db):
    lesson = await new_league(db, "Lesson 7", lesson_of=7)
    assert await store.set_lesson_step(db, lesson, 1, 0)
    assert not await store.set_lesson_step(db, lesson, 1, 0)  # the second click of a race
    stored = await store.load_league(db, lesson)
    assert stored is not None and stored.lesson_step == 1


async def test_an_abandoned_lesson_is_found_by_its_last_move_and_privacy_deletes_it(db):
    lesson = await new_league(db, "Lesson 7", lesson_of=7)
    await new_league(db, "Spring League")
    assert await store.stale_lessons(db, time.time() - 3600) == []  # moved on just now
    stale = await store.stale_lessons(db, time.time() + 3600)
    assert [s.id for s in stale] == [lesson]  # the real league is never stale
    assert await store.lessons_of_user(db, 7) == 1
    async with db.transaction() as conn:
        await store.forget_user(conn, 7)
    assert await store.lessons_of_user(db, 7) == 0
    assert await store.load_league(db, lesson) is None
    assert await store.team_of(db, lesson, 7) is None  # its manager row went with it
    assert await store.league_names(db, 1) == ["Spring League"]
