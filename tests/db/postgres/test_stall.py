"""The stall fault (tests/support/postgres_server.py `PostgresServer.stall`) freezes every process of
the server and `resume` wakes each again. Seen in a chaos run: a session that ended between the
listing of the server's processes and its SIGSTOP made `stall` raise, after it had frozen the
postmaster, so nothing resumed it and the database stayed frozen for the rest of the run (the
checker's reads timed out). A process gone meanwhile is passed over."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.support.postgres_server import PostgresServer


def state_of(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def settled_state(pid: int, wanted: tuple[str, ...]) -> str:
    """The process's state once it is one of `wanted`, or after 2 s: a signal is delivered
    when the process is next scheduled, not when kill() returns (a loaded machine: "R")."""
    deadline = time.monotonic() + 2
    while (state := state_of(pid)) not in wanted and time.monotonic() < deadline:
        time.sleep(0.01)
    return state


def test_a_process_gone_before_its_sigstop_is_passed_over_and_the_rest_resume(monkeypatch):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: its pid names no process any more
    postmaster, session = (
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) for _ in range(2)
    )
    try:
        server = PostgresServer.__new__(PostgresServer)
        monkeypatch.setattr(server, "postmaster", lambda: postmaster.pid)
        monkeypatch.setattr(server, "_children", lambda pid: [gone.pid, session.pid])
        frozen = server.stall()
        assert frozen == [postmaster.pid, session.pid]
        assert [settled_state(pid, ("T",)) for pid in frozen] == ["T", "T"]
        server.resume(frozen)
        assert all(settled_state(pid, ("S", "R")) in ("S", "R") for pid in frozen)
    finally:
        for process in (postmaster, session):
            process.kill()
            process.wait()


def test_the_server_stops_forking_before_its_sessions_are_listed(monkeypatch):
    """A session the postmaster forked between a listing of its sessions and its own stop went
    on answering under a "stalled" server: a click's transaction got as far as its COMMIT."""
    postmaster = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    seen = []
    try:
        server = PostgresServer.__new__(PostgresServer)
        monkeypatch.setattr(server, "postmaster", lambda: postmaster.pid)
        monkeypatch.setattr(
            server, "_children", lambda pid: seen.append(settled_state(pid, ("T",))) or []
        )
        server.resume(server.stall())
        assert seen == ["T"]  # stopped when its sessions were listed
    finally:
        postmaster.kill()
        postmaster.wait()
