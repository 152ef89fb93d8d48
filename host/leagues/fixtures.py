"""A league's fixture whose match is open on the match host when its deadline settles it
(docs/architecture.md, "A league's deadline"): a challenge nobody accepted is withdrawn, a match
being played is finished by the bot's move, said why in its thread. What a fixture never
started becomes (simulated, forfeited) is the league's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from host.starting import expire_challenge, force_action

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.base import Core
    from host.match import Match


async def settle_open_match(
    host: Core,
    game_id: int,
    status: str,
    *,
    finish: Callable[[GameAdapter, Match], tuple[int, Any]],
    first: str,
    why: str,
) -> bool:
    """The fixture's open match `game_id` (its `status`, "pending" or "active") at the
    deadline: a challenge is withdrawn, saying `first`; a match being played gets the bot's
    move `finish` (seat, action), after a message saying `why`. Returns whether that settled
    the fixture (the match played to its end); False: the league settles it as one never
    started (a challenge withdrawn, or a match no longer active)."""
    if status == "pending":
        await expire_challenge(host, game_id, first)
        return False
    return await force_action(host, game_id, finish, why=why)
