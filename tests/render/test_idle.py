"""Work a drawing process does ahead while idle (render/idle.py): never while a turn is being
drawn, nor until the process has been quiet a while after one; the newest first; a failing
job does not stop the ones after it; nothing in a process that does not work ahead."""

from __future__ import annotations

import threading
import time

from render import idle
from render.idle import WorkAhead

WAIT = 5.0  # at most, for what must happen (a thread's wake-up on a loaded machine)


def test_a_job_runs_only_once_no_turn_has_been_drawn_for_the_quiet_time():
    ahead = WorkAhead(quiet=0.1)
    ahead.start()
    ran = threading.Event()
    ran_at: list[float] = []

    def job() -> None:
        ran_at.append(time.monotonic())
        ran.set()

    with ahead.drawing():
        ahead.later("opening", job)
        assert not ran.wait(0.3)  # a turn is being drawn: the job waits, however long
        ended = time.monotonic()  # the turn ends after this
    assert ran.wait(WAIT)
    assert ran_at[0] - ended >= 0.1  # and then for the quiet time


class Jobs:
    """Jobs that note their names as they run; `all_ran` is set once `expected` have."""

    def __init__(self, expected: int) -> None:
        self.done: list[object] = []
        self.expected = expected
        self.all_ran = threading.Event()

    def job(self, name: object):
        def run() -> None:
            self.done.append(name)
            if len(self.done) == self.expected:
                self.all_ran.set()

        return run


def test_the_newest_job_runs_first_and_a_key_given_again_replaces_its_job():
    ahead = WorkAhead(quiet=0.05)
    jobs = Jobs(3)
    with ahead.drawing():
        ahead.start()
        ahead.later("a", jobs.job("a, first"))
        ahead.later("b", jobs.job("b"))
        ahead.later("c", jobs.job("c"))
        ahead.later("a", jobs.job("a, again"))  # replaces a's job, and is now the newest
    assert jobs.all_ran.wait(WAIT)
    time.sleep(0.1)  # nothing else runs
    assert jobs.done == ["a, again", "c", "b"]


def test_every_job_of_a_lower_rank_runs_before_any_of_a_higher_one():
    """A card's suggested move (rank 0) is the likeliest click of all: every match's is
    drawn before any match's next best (rank 1), the newest first within a rank."""
    ahead = WorkAhead(quiet=0.05)
    jobs = Jobs(5)
    with ahead.drawing():
        ahead.start()
        ahead.later("match 1, suggested", jobs.job("match 1, suggested"))
        ahead.later("match 1, next best", jobs.job("match 1, next best"), rank=1)
        ahead.later("match 2, suggested", jobs.job("match 2, suggested"))
        ahead.later("match 2, next best", jobs.job("match 2, next best"), rank=1)
        ahead.later("match 2, third best", jobs.job("match 2, third best"), rank=2)
    assert jobs.all_ran.wait(WAIT)
    assert jobs.done == [
        "match 2, suggested",
        "match 1, suggested",
        "match 2, next best",
        "match 1, next best",
        "match 2, third best",
    ]


def test_past_its_limit_the_oldest_jobs_are_dropped():
    ahead = WorkAhead(quiet=0.05, pending=2)
    jobs = Jobs(2)
    with ahead.drawing():
        ahead.start()
        for number in range(5):
            ahead.later(number, jobs.job(number))
    assert jobs.all_ran.wait(WAIT)
    time.sleep(0.1)
    assert jobs.done == [4, 3]


def test_a_job_that_fails_is_logged_and_the_next_runs(caplog):
    ahead = WorkAhead(quiet=0.05)
    ran = threading.Event()

    def broken() -> None:
        raise ValueError("a drawing bug")

    with ahead.drawing():
        ahead.start()
        ahead.later("after", ran.set)
        ahead.later("broken", broken)  # the newest: runs first
    assert ran.wait(WAIT)
    assert "work done ahead failed" in caplog.text


def test_a_process_that_does_not_work_ahead_runs_nothing():
    ahead = WorkAhead(quiet=0.0)
    ran = threading.Event()
    ahead.later("opening", ran.set)
    ahead.start()  # started after: the job was never kept
    assert not ran.wait(0.3)
    assert not WorkAhead().running


def test_no_job_runs_while_the_bot_answers_clicks_nor_until_it_has_been_quiet():
    """A burst of clicks leaves a worker idle between two of their turns while the bot's event
    loop works on the others (loading, saving, answering): a job run then takes the machine's
    CPU from those clicks. The bot notes every click it begins and ends (`clicked`, in memory
    its workers share), and a job waits for the bot to have been quiet too."""
    clicks = idle.clicks()
    assert clicks is not None
    ahead = WorkAhead(quiet=0.1)
    ahead.start(clicks)
    ran = threading.Event()
    ran_at: list[float] = []

    def job() -> None:
        ran_at.append(time.monotonic())
        ran.set()

    ahead.later("next round", job)
    for _ in range(8):  # the bot answers clicks for 0.4 s; no turn is drawn in this process
        idle.clicked()
        assert not ran.wait(0.05)
    idle.clicked()
    ended = time.monotonic()
    assert ran.wait(WAIT)
    assert ran_at[0] - ended >= 0.1
