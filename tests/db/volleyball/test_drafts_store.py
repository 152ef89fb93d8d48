"""db/volleyball_drafts.py: the orders editor's drafts, one per manager per league, replaced
as the manager edits, gone with /privacy, and never orders (a round reads only the orders on
file), on both backends."""

from __future__ import annotations

from db import volleyball as store
from db import volleyball_drafts as drafts
from db.database import Database


async def new_league(db: Database) -> int:
    return await store.create_league(
        db,
        guild_id=1,
        name="Spring League",
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


async def test_a_draft_is_replaced_kept_per_manager_and_never_orders(db):
    league = await new_league(db)
    assert await drafts.load_draft(db, league, 7) is None
    await drafts.save_draft(
        db, league, 7, team="Red Rockets", season=1, round_number=1, draft='{"v": 1}'
    )
    await drafts.save_draft(
        db, league, 7, team="Red Rockets", season=1, round_number=2, draft='{"v": 2}'
    )
    await drafts.save_draft(
        db, league, 8, team="Blue Whales", season=1, round_number=2, draft='{"v": 3}'
    )
    assert await drafts.load_draft(db, league, 7) == drafts.StoredDraft(
        "Red Rockets", 1, 2, '{"v": 2}'
    )
    assert (await drafts.load_draft(db, league, 8)).draft == '{"v": 3}'
    assert await store.orders_on_file(db, league, 1, 2) == {}

    assert await drafts.drafts_of_user(db, 7) == 1
    await drafts.delete_draft(db, league, 8)
    assert await drafts.load_draft(db, league, 8) is None
    async with db.transaction() as conn:
        await drafts.forget_user(conn, 7)
    assert await drafts.load_draft(db, league, 7) is None
    assert await drafts.drafts_of_user(db, 7) == 0
