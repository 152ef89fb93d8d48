"""The names a tournament's pictures show (host/tournament_images.py): asked of Discord once per
player, however many cards are drawn at once."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from host import tournament_images


class Tournaments:
    def __init__(self) -> None:
        self.asked: list[int] = []

    async def name_of(self, guild: Any, user_id: int) -> str:
        self.asked.append(user_id)
        await asyncio.sleep(0.01)  # Discord's answer takes a moment
        return f"Player {user_id}"


async def test_two_cards_drawn_at_once_ask_for_a_name_once():
    """Two redraws of a card at once each found the name missing and both asked Discord (a
    CI run counted 4 member requests for a player where 3 were expected)."""
    tournament_images._NAMES.clear()
    tournament_images._ASKING.clear()
    tournaments = Tournaments()
    face = cast(Any, tournaments)
    names = await asyncio.gather(*(tournament_images._name(face, None, 7) for _ in range(2)))
    assert names == ["Player 7", "Player 7"]
    assert tournaments.asked == [7]
    assert await tournament_images._name(face, None, 7) == "Player 7"
    assert tournaments.asked == [7]
