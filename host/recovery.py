"""Start-up repair after a crash: every active match gets back the timers its position needs,
the computers' reply to a saved move is played if a crash came between, and a move that was
saved but never posted is posted (a match's finishing move too: its final card and news).

The repair reads and writes in a constant number of queries however many matches are open (the
games and their seats, the games that have timers, the unposted moves, one transaction writing
every lost timer: bench/database_backends.py counts them); only a match with a move to post or
a computers' reply to play costs more (its lock, a reload, Discord's calls). A database that is unavailable when the bot
becomes ready (a server restarting) does not end the repair: it is tried again, with back-off,
until it works (`until_done`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from db import games as game_store
from db.database import DatabaseUnavailable
from host.adapter import Step
from host.background import until_done
from host.locks import ShuttingDown
from host.match import COMPUTER_ID, Match

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from host.base import Core


async def crash_left(
    host: Core, stored_games: list[game_store.StoredGame] | None = None
) -> list[int]:
    """The matches a crash left: a move saved and never shown, a computers' reply never played,
    a finished match whose final card never went out. Read as the bot starts, before the
    gateway connects: a match a command of this process starts or plays once it is connected is
    that command's to show, not one a crash left (read after READY, a simulated match that a
    command had just created was taken for one, its reply played by the repair and its card
    shown without the stories of its periods). `stored_games`: the open matches, when read
    already."""
    db = host.bot.db
    if stored_games is None:
        stored_games = await game_store.open_games(db, tuple(host.adapters))
    left = []
    for stored in stored_games:
        try:
            adapter = host.adapters[stored.game]
            lost = stored.posted_version < stored.version or host.computers_to_act(
                adapter, Match.from_json(adapter, stored.state)
            )
        except Exception:
            log.exception("could not read match %s at start-up", stored.id)
            continue
        if lost:
            left.append(stored.id)
    left += [game.id for game in await game_store.unshown_finished(db, tuple(host.adapters))]
    return left


async def recover(host: Core, left: list[int] | None = None) -> None:
    """After a crash: every active match gets back the timers its position needs, and what
    the crash `left` (`crash_left`, read as the bot started; None: read now) is shown."""
    await host.bot.wait_until_ready()
    await until_done("start-up repair of the matches", host.bot.db, lambda: repair(host, left))


async def repair(host: Core, left: list[int] | None = None) -> None:
    db = host.bot.db
    stored_games = await game_store.open_games(db, tuple(host.adapters))
    timed = await game_store.games_with_timers(db)
    wanted = {}
    for stored in stored_games:
        if stored.id in timed:
            continue
        try:
            adapter = host.adapters[stored.game]
            specs = host.timers_for(stored, Match.from_json(adapter, stored.state), stored.version)
        except Exception:
            log.exception("could not repair match %s at start-up", stored.id)
            continue
        if specs:
            wanted[stored.id] = (stored.version, specs)
    for game_id in await game_store.restore_timers(db, wanted):
        log.info("match %s: restored its %d timers", game_id, len(wanted[game_id][1]))
    if wanted:
        host.bot.timers.wake()
    for game_id in await crash_left(host, stored_games) if left is None else left:
        try:
            await finish_lost_move(host, game_id)
        except (DatabaseUnavailable, ShuttingDown):
            raise  # the whole repair is tried again, or left to the next start
        except Exception:
            log.exception("could not repair match %s at start-up", game_id)


async def finish_lost_move(host: Core, game_id: int) -> None:
    """A move saved just before a crash: the computers' reply is played if it was lost, and
    what was never posted is posted now (under the match's lock, from the stored state)."""
    async with host.bot.game_locks(game_id):
        stored = await game_store.load_game(host.bot.db, game_id)
        if stored is None or stored.status not in ("active", "finished"):
            return
        adapter = host.adapters[stored.game]
        match = Match.from_json(adapter, stored.state)
        if host.computers_to_act(adapter, match):
            # A player's move was saved and the computers' reply was not (a crash between).
            steps = await host.computer_steps(adapter, match, stored)
            if steps:
                stored = await host.save(adapter, stored, match, COMPUTER_ID, "computer", steps)
                log.info("match %s: the computers' reply, lost in a crash, played", stored.id)
        if stored.posted_version >= stored.version:
            return
        moves = await game_store.list_moves(host.bot.db, stored.id)
        texts = [
            t for version, _, _, events in moves for t in events if version > stored.posted_version
        ]
        step = Step(match.engine, [], match.engine, texts=texts)
        log.info("match %s: posting version %s, lost in a crash", stored.id, stored.version)
        await host.post(adapter, stored, match, [step])
