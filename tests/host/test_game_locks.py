"""host/locks.py at shutdown: the moves in progress finish, and a click that comes while they
finish (the gateway still delivers until the bot closes it) is refused with a clear answer
instead of starting a move that the closing HTTP session and database would cut in half."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest

from host.background import until_done
from host.locks import SHUTTING_DOWN, GameLocks
from ui.replies import UserError


async def test_a_click_during_the_drain_is_refused_and_the_move_in_progress_finishes():
    locks = GameLocks()
    finished: list[str] = []
    saving = asyncio.Event()

    async def move_in_progress() -> None:
        async with locks(1):
            saving.set()
            await asyncio.sleep(0.2)
            finished.append("match 1")

    move = asyncio.create_task(move_in_progress())
    await saving.wait()
    drain = asyncio.create_task(locks.drain(timeout=5.0))
    await asyncio.sleep(0)
    with pytest.raises(UserError) as refused:
        async with locks(2):  # another match's click, come during the drain
            finished.append("match 2")
    assert str(refused.value) == SHUTTING_DOWN
    await drain
    assert finished == ["match 1"] and move.done()


async def test_a_click_queued_behind_the_move_in_progress_is_refused_once_it_is_its_turn():
    locks = GameLocks()
    saving = asyncio.Event()
    finished: list[str] = []

    async def click(name: str) -> None:
        async with locks(1):
            saving.set()
            await asyncio.sleep(0.2)
            finished.append(name)

    first = asyncio.create_task(click("first"))
    await saving.wait()
    second = asyncio.create_task(click("second"))  # the same match: it queues
    await asyncio.sleep(0.01)
    await locks.drain(timeout=5.0)
    await first
    with pytest.raises(UserError):
        await second
    assert finished == ["first"]


async def test_the_start_up_repair_met_by_the_drain_stops_without_an_error(caplog):
    """The repair after a crash takes each match's lock; a restart coming meanwhile closes them.
    That is no failure: the repair stops, said in the log as information, and the next start
    repairs the match."""
    caplog.set_level(logging.INFO, logger="host.background")
    locks = GameLocks()
    await locks.drain(timeout=1.0)
    tried: list[int] = []

    async def repair() -> None:
        tried.append(1)
        async with locks(8):
            raise AssertionError("the lock is closed")

    await until_done("start-up repair of the matches", cast(Any, _NeverUnavailable()), repair)
    assert tried == [1]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "the next start does it again" in caplog.text


class _NeverUnavailable:
    """The part of db.Database that until_done uses."""

    def when_available(self, callback) -> None:
        pass

    def forget_available(self, callback) -> None:
        pass
