"""Start-up repair after a crash: every active match gets back the timers its position needs,
and a move that was saved but never posted is posted."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from db import games as game_store
from db import timers as timer_store
from host.adapter import Step
from host.match import COMPUTER_ID, Match

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from host.service import MatchHost


async def recover(host: MatchHost) -> None:
    """After a crash: every active match gets back the timers its position needs, and a
    move that was saved but never posted is posted now."""
    await host.bot.wait_until_ready()
    for stored in await game_store.open_games(host.bot.db, tuple(host.adapters)):
        try:
            await recover_one(host, stored)
        except Exception:
            log.exception("could not repair match %s at start-up", stored.id)


async def recover_one(host: MatchHost, stored: game_store.StoredGame) -> None:
    adapter = host.adapters[stored.game]
    async with host.bot.game_locks(stored.id):
        stored = await game_store.load_game(host.bot.db, stored.id) or stored
        match = Match.from_json(adapter, stored.state)
        if not await timer_store.timers_for_game(host.bot.db, stored.id):
            wanted = host.timers_for(stored, match, stored.version)
            if wanted:
                await game_store.set_timers(host.bot.db, stored.id, wanted)
                host.bot.timers.wake()
                log.info("match %s: restored its %d timers", stored.id, len(wanted))
        steps: list[Step] = []
        if stored.status == "active" and host.computers_to_act(adapter, match):
            # A player's move was saved and the computers' reply was not (a crash between).
            steps = await host.computer_steps(adapter, match, stored)
            if steps:
                stored = await host.save(adapter, stored, match, COMPUTER_ID, "computer", steps)
                log.info("match %s: the computers' reply, lost in a crash, played", stored.id)
        if stored.posted_version < stored.version:
            moves = await game_store.list_moves(host.bot.db, stored.id)
            texts = [
                t
                for version, _, _, events in moves
                for t in events
                if version > stored.posted_version
            ]
            step = Step(match.engine, [], match.engine, texts=texts)
            log.info("match %s: posting version %s, lost in a crash", stored.id, stored.version)
            await host.post(adapter, stored, match, [step])
