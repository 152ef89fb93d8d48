"""host/gate.py: the drain waits for the work discord.py starts for an interaction (its
handlers are tasks of their own), and for nothing the bot was already doing."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from host.gate import InteractionGate
from host.locks import GameLocks
from render import idle


class State:
    """What the gate reads of discord.py's ConnectionState: the parsers and dispatch."""

    def __init__(self, admit: Any) -> None:
        self.parsers = {"INTERACTION_CREATE": admit}
        self.dispatched: list[str] = []

    def dispatch(self, event: str, *args: Any, **kwargs: Any) -> None:
        self.dispatched.append(event)


async def test_the_drain_waits_for_the_handlers_an_interaction_started_and_only_those():
    handler_done = asyncio.Event()
    finished: list[str] = []

    async def handler() -> None:
        await handler_done.wait()
        finished.append("handler")

    started: list[asyncio.Task[None]] = []

    def admit(data: Any) -> None:  # as discord.py's parser does: schedules, does not await
        started.append(asyncio.create_task(handler()))
        started.append(asyncio.get_running_loop().create_task(handler()))

    background = asyncio.create_task(asyncio.sleep(30))  # a task the interaction did not start
    state = State(admit)
    gate = InteractionGate(state, GameLocks())
    state.parsers["INTERACTION_CREATE"]({"id": "1"})
    assert asyncio.get_running_loop().get_task_factory() is None  # put back as it was

    waiting = asyncio.create_task(gate.wait(time.monotonic() + 5))
    await asyncio.sleep(0.05)
    assert not waiting.done()  # both handlers are still working
    handler_done.set()
    await asyncio.wait_for(waiting, 2)  # not held by the unrelated 30 s task
    assert finished == ["handler", "handler"]
    background.cancel()


async def test_each_interaction_is_noted_as_it_begins_and_as_its_work_ends():
    """The drawing workers hold their work ahead while the bot answers clicks (render/idle.py
    `clicked`): the gate notes when an interaction comes in and when its handlers end."""
    clicks = idle.clicks()
    assert clicks is not None
    handler_done = asyncio.Event()

    async def handler() -> None:
        await handler_done.wait()

    state = State(lambda data: asyncio.create_task(handler()))
    InteractionGate(state, GameLocks())
    clicks.value = 0.0
    state.parsers["INTERACTION_CREATE"]({"id": "1"})
    came_in = clicks.value
    assert came_in > 0.0
    await asyncio.sleep(0.02)
    assert clicks.value == came_in  # still working: nothing more to note
    handler_done.set()
    await asyncio.sleep(0.02)
    assert clicks.value > came_in  # its work ended
