"""A test-only extension: holds a Rollerball II season's work at a named point until the test
lets it go, or kills the bot there, so an interleaving that a chaos run meets only by chance
happens every time. Loaded with EXTRA_EXTENSIONS; never shipped.

The test talks to it through files in the folder `season-gates` beside the bot's
DATABASE_PATH (the bot is another process; that folder is the test's bot's own, on either
backend): `<point>.hold` arms the point once, the bot writes `<point>.reached` when it gets
there and waits for `<point>.go`; `<point>.kill` kills the bot there (SIGKILL: no clean-up, as
a crash). The points:
- `fixture-read`: a match's start has read which season fixture it is (`open_fixture`);
- `settle-check`: a deadline has looked for a match being played for a fixture
  (`open_game_of_fixture`), before it simulates one;
- `post`: a matchday's results are about to be posted (`announce_text`).
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cogs.rollerball2 import season_posts
from db import rollerball2 as store


class Gates:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    async def at(self, point: str) -> None:
        kill = self.folder / f"{point}.kill"
        if kill.exists():
            kill.unlink()
            os.kill(os.getpid(), signal.SIGKILL)
        hold = self.folder / f"{point}.hold"
        if not hold.exists():
            return
        hold.unlink()
        (self.folder / f"{point}.reached").touch()
        go = self.folder / f"{point}.go"
        for _ in range(600):  # at most a minute: a test that forgets its gate fails, not hangs
            if go.exists():
                go.unlink()
                return
            await asyncio.sleep(0.05)

    def after(self, point: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        @functools.wraps(call)
        async def gated(*args: Any, **kwargs: Any) -> Any:
            found = await call(*args, **kwargs)
            await self.at(point)
            return found

        return gated

    def before(self, point: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        @functools.wraps(call)
        async def gated(*args: Any, **kwargs: Any) -> Any:
            await self.at(point)
            return await call(*args, **kwargs)

        return gated


async def setup(bot: Any) -> None:
    folder = Path(os.environ["DATABASE_PATH"]).parent / "season-gates"
    folder.mkdir(exist_ok=True)
    gates = Gates(folder)
    # The cogs look these up on their modules at each call, so the wrapped ones are used.
    store.open_fixture = gates.after("fixture-read", store.open_fixture)
    store.open_game_of_fixture = gates.after("settle-check", store.open_game_of_fixture)
    season_posts.announce_text = gates.before("post", season_posts.announce_text)
