"""The drawing workers' stop (host/drawing.py): a bot stopped while its workers are still
starting ends them before it exits, as it does workers that are up. Who works ahead between
turns (render/idle.py): the workers, or the bot itself when it has none."""

from __future__ import annotations

import threading
from concurrent.futures import process

from host import drawing as drawing_module
from host.drawing import Drawing


def managers() -> list[threading.Thread]:
    """The process pools' manager threads still running in this process."""
    return [t for t in threading.enumerate() if isinstance(t, process._ExecutorManagerThread)]


def seven() -> int:
    return 7


async def test_workers_still_starting_end_before_the_stop_returns():
    """A SIGTERM just after the first turn was drawn (the workers starting in the background)
    left their pool to end on its own: its manager thread could close its wake-up pipe as the
    interpreter's exit wrote to it, and the bot's log ended on a Bad file descriptor traceback
    (seen in a CI run: a bot stopped as it started)."""
    before = managers()
    drawing = Drawing(1)
    drawing.start([])
    assert await drawing(seven) == 7  # drawn in the thread; the workers start meanwhile
    await drawing.stop()
    started = drawing._starting  # what a stop must not leave behind: the start in progress
    assert started is not None and started.done()
    assert [t for t in managers() if t not in before] == []


async def test_without_workers_the_bot_works_ahead_itself_and_marks_its_turns(monkeypatch):
    """One core: no worker to compress the next roll's opening while idle, so the bot's own
    process does, and a turn it draws in its thread holds that work back meanwhile, as do
    the clicks it answers (render/idle.py `clicks`)."""
    started: list[object] = []
    monkeypatch.setattr(drawing_module.idle, "start", lambda clicks: started.append(clicks))
    busy: list[bool] = []

    def looks() -> int:
        busy.append(drawing_module.idle._ahead._drawing > 0)
        return 7

    drawing = Drawing(0)
    drawing.start([])
    assert started == [drawing_module.idle.clicks()]
    assert await drawing(looks) == 7
    assert busy == [True]  # drawn inside `idle.drawing()`: no job starts meanwhile
    await drawing.stop()


async def test_with_workers_the_bots_own_process_does_not_work_ahead(monkeypatch):
    started: list[object] = []
    monkeypatch.setattr(drawing_module.idle, "start", lambda clicks: started.append(clicks))
    monkeypatch.setattr(drawing_module.multiprocessing, "get_context", lambda _: _NoPreload())
    Drawing(1).start([])
    assert started == []  # its event loop's time is the clicks'
    monkeypatch.setattr(drawing_module, "_end_with", lambda pid: None)
    clicks = drawing_module.idle.clicks()
    drawing_module._start_worker(1, clicks)  # a worker's initializer, in the worker
    assert started == [clicks]  # the bot's clicks, shared


class _NoPreload:
    def set_forkserver_preload(self, modules: list[str]) -> None:
        pass
