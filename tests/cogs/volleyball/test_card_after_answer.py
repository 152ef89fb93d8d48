"""The league card shown after a manager's orders were accepted (cogs/volleyball/card.py
`StatusCard.show`): the answer has been sent, so nothing that fails after it may reach the
error reporter, which would tell the manager "nothing was changed" about orders that are on
file. Seen in the hour-long chaos run: PostgreSQL went away between the answer and the card's
posting lock. The card is shown once the database answers; a shutdown leaves it to the next
refresh; neither is an error in the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import discord

from cogs.volleyball.card import Prepared, StatusCard
from db.database import DatabaseUnavailable
from host.locks import SHUTTING_DOWN, ShuttingDown


class Database:
    def __init__(self) -> None:
        self.callbacks: list[Any] = []

    def when_available(self, callback: Any) -> None:
        self.callbacks.append(callback)

    def forget_available(self, callback: Any) -> None:
        self.callbacks.remove(callback)


class Host:
    """The league host's parts the card uses: a posting lock that fails as told."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.db = Database()

    @contextlib.asynccontextmanager
    async def posting_lock(self, league_id: int) -> AsyncIterator[None]:
        if self.failures:
            raise self.failures.pop(0)
        yield


def card(host: Host, shown: list[int]) -> StatusCard:
    status = StatusCard(host, poster=None)  # type: ignore[arg-type]

    async def refresh(league_id: int) -> None:
        async with host.posting_lock(league_id):
            shown.append(league_id)

    async def _shown(prepared: Prepared, *, repost: bool) -> None:
        shown.append(prepared.stored.id)

    status.refresh = refresh
    status._shown = _shown
    return status


def prepared(league_id: int) -> Prepared:
    return Prepared(SimpleNamespace(id=league_id), discord.Embed())  # type: ignore[arg-type]


async def test_the_card_after_an_accepted_answer_waits_out_an_outage(caplog, monkeypatch):
    monkeypatch.setattr("host.background.FIRST_RETRY_SECONDS", 0.01)
    outage = DatabaseUnavailable("PostgreSQL: connection was closed in the middle of operation")
    host, shown = Host(outage, outage), []
    status = card(host, shown)
    with caplog.at_level(logging.INFO):
        await status.show(prepared(7))  # raises nothing: the answer was sent already
        for _ in range(200):
            if shown:
                break
            await asyncio.sleep(0.01)
    assert shown == [7]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_card_after_an_answer_during_a_shutdown_is_left_to_the_next_start(caplog):
    host, shown = Host(ShuttingDown(SHUTTING_DOWN)), []
    with caplog.at_level(logging.INFO):
        await card(host, shown).show(prepared(7))
        await asyncio.sleep(0.05)
    assert shown == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
