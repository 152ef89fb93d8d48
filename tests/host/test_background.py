"""host/background.py: a background task's failure is logged when it happens, and stopping it
(failed, running or done) ends it without raising its old error into the shutdown."""

import asyncio
import logging

import pytest

from host import background


async def test_a_failure_is_logged_when_it_happens_and_stopping_it_raises_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def repair() -> None:
        raise RuntimeError("the repair broke")

    with caplog.at_level(logging.ERROR, logger="host.background"):
        task = background.started("league-recovery", repair())
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    failed = [r for r in caplog.records if r.getMessage() == "league-recovery failed"]
    assert len(failed) == 1 and "the repair broke" in str(failed[0].exc_info)
    await background.stopped(task)  # no RuntimeError


async def test_a_running_task_is_cancelled_and_waited_for_without_a_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    gate = asyncio.Event()
    task = background.started("podium-repair", gate.wait())  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="host.background"):
        await background.stopped(task)
    assert task.cancelled()
    assert caplog.records == []
    await background.stopped(None)
