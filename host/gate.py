"""The one door every interaction comes in by (a slash command, an autocomplete, a click, a
form's submit), closed when a restart's drain begins.

discord.py hands an INTERACTION_CREATE from the gateway to its command tree, to its views and to
the `interaction` listeners from one parser (ConnectionState.parse_interaction_create); each of
them starts its work as a task of its own. The gate wraps that parser:

- while the bot runs, it lets the interaction through and keeps the tasks it started, so the
  drain can wait for a slash command in progress too (a command takes no match lock, so
  GameLocks.drain alone would not wait for it);
- every interaction it lets in gets a response that cannot miss Discord's 3 seconds
  (ui/timely.py): if its handler has sent nothing 2 s after it was created (1.5 s on a busy
  event loop; it waited for a lock, for a database with a queue in front of it, for an event
  loop busy drawing other players' cards), it is acknowledged, and the handler's answer follows by the route Discord
  allows after that; an answer that begins late itself (with an image to upload, after 1 s)
  is acknowledged first and follows the same way;
- it notes when each interaction begins and ends (render/idle.py `clicked`): a drawing worker
  does no work ahead for later turns while clicks are being answered;
- once the drain has begun (`GameLocks.closing`), it answers the interaction itself with
  SHUTTING_DOWN, privately, and nothing else sees it: no handler starts work that the closing
  HTTP session and database would cut in half.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import aiohttp
import discord

from host.locks import SHUTTING_DOWN, GameLocks
from render import idle
from ui.replies import send_ephemeral
from ui.timely import answer_in_time

log = logging.getLogger(__name__)


class InteractionGate:
    def __init__(self, state: Any, locks: GameLocks) -> None:
        """`state`: the bot's ConnectionState (discord.py's `Client._connection`), whose
        `parsers` table the gateway reads each event's handler from."""
        self._state = state
        self._locks = locks
        self._admit: Callable[[Any], None] = state.parsers["INTERACTION_CREATE"]
        self._working: set[asyncio.Future[Any]] = set()
        state.parsers["INTERACTION_CREATE"] = self._interaction_create
        # discord.py's parser makes the Interaction and hands it to `dispatch("interaction")`
        # after it has scheduled (not yet run) its handlers' tasks: the one place to give it
        # its timely response before any handler reads `interaction.response`.
        self._dispatch: Callable[..., None] = state.dispatch
        state.dispatch = self._dispatch_event

    def _dispatch_event(self, event: str, *args: Any, **kwargs: Any) -> None:
        if event == "interaction":
            answer_in_time(args[0])
        self._dispatch(event, *args, **kwargs)

    def _interaction_create(self, data: Any) -> None:
        if self._locks.closing:
            interaction = discord.Interaction(data=data, state=self._state)
            self._keep({asyncio.create_task(refuse(interaction), name="refused-interaction")})
            return
        idle.clicked()  # no drawing ahead while clicks are being answered (render/idle.py)
        # What discord.py starts for this interaction (its handlers are tasks of their own),
        # noted as each is made: comparing `asyncio.all_tasks()` before and after cost a walk
        # over every task of the bot, twice per interaction (13 % of the event loop at 50
        # clicks at once, bench/README.md).
        loop = asyncio.get_running_loop()
        factory = loop.get_task_factory()
        started: list[asyncio.Future[Any]] = []

        def noted(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
            if factory is None:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            else:
                task = factory(loop, coro, **kwargs)
            started.append(task)
            return task

        loop.set_task_factory(noted)
        try:
            self._admit(data)
        finally:
            loop.set_task_factory(factory)
        self._keep(started)

    def _keep(self, tasks: Iterable[asyncio.Future[Any]]) -> None:
        for task in tasks:
            self._working.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        self._working.discard(task)
        idle.clicked()

    async def wait(self, deadline: float) -> None:
        """Until every interaction let in (and every refusal) is answered, or `deadline`
        (time.monotonic()) passes."""
        while self._working:
            left = deadline - time.monotonic()
            if left <= 0:
                log.warning("shutting down with %d interactions unanswered", len(self._working))
                return
            await asyncio.wait(set(self._working), timeout=left)


async def refuse(interaction: discord.Interaction) -> None:
    """SHUTTING_DOWN, privately (an autocomplete can show no text: it gets no choices). An
    answer the closing HTTP session can no longer carry is logged: Discord tells the player the
    bot did not respond."""
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await send_ephemeral(interaction, SHUTTING_DOWN)
    except (discord.HTTPException, aiohttp.ClientError, RuntimeError) as error:
        log.info("could not tell user %s the bot is restarting (%s)", interaction.user.id, error)
