"""Start-up repair (host/recovery.py): what a crash left is read as the bot starts, before the
gateway connects, so a match a command starts in between is not taken for one a crash left."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from db import games as game_store
from db.connect import open_database
from host import recovery


async def test_a_match_a_command_starts_before_ready_is_not_repaired_as_one_a_crash_left(
    tmp_path, monkeypatch
):
    """A simulated Rollerball II match started by a command as the bot connected (its
    computers' reply still to play) was read by the repair after READY as one a crash left: the
    repair played it and showed it from the stored texts, without the stories of its periods,
    while the command was about to. Only what was there as the bot started is repaired."""
    db = await open_database(tmp_path / "ballcourt.db")
    await db.migrate()

    async def new_match() -> int:
        return await game_store.create_game(
            db,
            game="rocketball",
            guild_id=1,
            channel_id=1,
            players=[1, 2],
            state="{}",
            status="active",
        )

    left_by_a_crash = await new_match()
    # every match here has its computers' reply to play, as both of these had
    monkeypatch.setattr(recovery.Match, "from_json", staticmethod(lambda adapter, state: None))
    repaired: list[int] = []

    async def finish_lost_move(host: Any, game_id: int) -> None:
        repaired.append(game_id)

    monkeypatch.setattr(recovery, "finish_lost_move", finish_lost_move)
    ready = asyncio.Event()
    host: Any = SimpleNamespace(
        bot=SimpleNamespace(db=db, wait_until_ready=ready.wait, timers=SimpleNamespace()),
        adapters={"rocketball": object()},
        computers_to_act=lambda adapter, match: True,
        timers_for=lambda stored, match, version: [],
    )
    try:
        left = await recovery.crash_left(host)  # MatchHost.start, in the bot's setup
        started_by_a_command = await new_match()  # connected, not READY yet
        repair = asyncio.create_task(recovery.recover(host, left))
        await asyncio.sleep(0)
        ready.set()
        await asyncio.wait_for(repair, 10)
        assert started_by_a_command not in repaired
        assert repaired == [left_by_a_crash]
    finally:
        await db.close()
