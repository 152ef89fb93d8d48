"""A league's deadline that meets a database outage (host/leagues/league_host.py on_deadline, which
runs Volleyball's deadlines), without Discord: tried again later, and logged as the fault it
is."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from cogs.volleyball.league import DEADLINE_EVENT, Leagues
from db import timers as timer_store
from db.database import DatabaseUnavailable
from host.leagues.league_host import LeagueHost


async def test_a_deadline_during_a_database_outage_is_retried_and_logged_without_a_traceback(
    caplog,
):
    """Seen in the chaos run with SQLite's disk full: the round's posting failed to save, and
    the deadline logged a full traceback as an unexpected error, although it is the outage
    db.database reports once and the deadline is tried again."""
    caplog.set_level(logging.INFO)
    retried = []

    async def advance(league_id, *, expected):
        raise DatabaseUnavailable("SQLite ballcourt.db: SQLite: database or disk is full")

    async def retry_later(league_id, expected, seconds):
        retried.append((league_id, expected))

    leagues = SimpleNamespace(
        timer_target=lambda payload: Leagues.timer_target(None, payload),  # type: ignore[arg-type]
        retry_seconds=600,
    )
    database = SimpleNamespace(
        when_available=lambda callback: None, forget_available=lambda callback: None
    )
    service = SimpleNamespace(
        adapter=leagues, advance=advance, retry_later=retry_later, db=database
    )
    timer = timer_store.Timer(
        id=1, event=DEADLINE_EVENT, due_at=0.0, payload={"league_id": 3, "season": 1, "round": 4}
    )
    await LeagueHost.on_deadline(service, timer)  # type: ignore[arg-type]
    assert retried == [(3, (1, 4))]
    (record,) = [r for r in caplog.records if r.name == "host.leagues.league_host"]
    assert record.exc_info is None and "database or disk is full" in record.getMessage()
    assert "retrying" in record.getMessage()
