"""What the benchmarks that time many clicks share: percentiles and a process tree's CPU time."""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK")


def percentile(samples: list[float], p: float) -> float:
    """The median for p = 0.5, else the sample below which a fraction p of them lie."""
    if p == 0.5:
        return statistics.median(samples)
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


class Processes:
    """One reading of /proc: each process's parent, state and CPU time so far. Processes that
    end while it is read are left out."""

    def __init__(self) -> None:
        self.children: dict[int, list[int]] = {}
        self.states: dict[int, str] = {}
        self.times: dict[int, float] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:  # the name, in brackets, may hold spaces: the fields are after its last ")"
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            pid = int(entry.name)
            self.children.setdefault(int(fields[1]), []).append(pid)
            self.states[pid] = fields[0]
            # utime, stime, and the times of children it has waited for
            self.times[pid] = sum(int(f) for f in fields[11:15]) / TICKS

    def descendants(self, *pids: int) -> list[int]:
        """Every process below `pids` (not `pids` themselves)."""
        found, pending = [], [child for pid in pids for child in self.children.get(pid, [])]
        while pending:
            current = pending.pop()
            found.append(current)
            pending += self.children.get(current, [])
        return found

    def ended(self, pid: int) -> bool:
        """Gone, or a zombie waiting for its parent to read its exit."""
        return self.states.get(pid, "Z") == "Z"


def cpu_seconds(*pids: int) -> float:
    """User + system CPU time so far of processes and their descendants (every thread, the
    drawing's too, the drawing worker processes, a PostgreSQL server's sessions), with that of
    descendants that have ended (a process's children's times once it has waited for them: a
    PostgreSQL session closed meanwhile)."""
    processes = Processes()
    return sum(processes.times.get(pid, 0.0) for pid in (*pids, *processes.descendants(*pids)))


def cpu_by_part(pid: int) -> dict[str, float]:
    """User + system CPU time so far of a bot's parts: its event loop (the process's main
    thread), its other threads (SQLite's, the drawing pool's, the gateway's heartbeat) and the
    processes below it (the drawing workers and their fork server)."""
    parts = {"event loop": 0.0, "other threads": 0.0, "drawing workers": 0.0}
    for process in (pid, *Processes().descendants(pid)):
        try:
            threads = list(Path(f"/proc/{process}/task").iterdir())
        except OSError:  # ended meanwhile
            continue
        for thread in threads:
            try:
                fields = (thread / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if process != pid:
                part = "drawing workers"
            else:
                part = "event loop" if int(thread.name) == pid else "other threads"
            parts[part] += (int(fields[11]) + int(fields[12])) / TICKS
    return parts


@contextmanager
def own_postgres(*, durable: bool = False) -> Iterator[Any]:
    """A throw-away PostgreSQL server of the benchmark's own, started as the test suite starts
    one (tests/support/postgres_server.py `PostgresServer`; `durable`: every commit flushed), stopped
    after; None, said in a line, when PostgreSQL is not installed here."""
    from tests.support.postgres_server import PostgresServer, find_binaries

    binaries = find_binaries()
    if binaries is None:
        print("PostgreSQL: not installed here (apt-get install postgresql), or give --postgres-url")
        yield None
        return
    server = PostgresServer(binaries)
    server.start(durable=durable)
    try:
        yield server
    finally:
        server.stop()
