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


def cpu_seconds(*pids: int) -> float:
    """User + system CPU time so far of processes and their descendants (every thread, the
    drawing's too, the render worker processes when RENDER_PROCESSES is set, a PostgreSQL
    server's sessions), from /proc, with that of descendants that have ended (a process's
    children's times once it has waited for them: a PostgreSQL session closed meanwhile)."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        times[int(entry.name)] = sum(int(f) for f in fields[11:15]) / TICKS
    total, pending = 0.0, list(pids)
    while pending:
        current = pending.pop()
        total += times.get(current, 0.0)
        pending += children.get(current, [])
    return total


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
