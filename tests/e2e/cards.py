"""Reading a match's live card in the e2e tests: the one Components v2 message a match keeps in
its thread, redrawn in place as the match goes on."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.stored import connect


def is_card(message) -> bool:
    """The match's live card: a Components v2 message holding a container."""
    return any(component.get("type") == 17 for component in message.components)


def is_result(message) -> bool:
    """The message that ends a match: the result, every player pinged, the seed revealed."""
    return "Dice revealed" in message.content


def card_version(card) -> int | None:
    """The version the card's move controls were drawn for (None: it has none)."""
    ids = [b.custom_id for b in card.buttons] + [s.custom_id for s in card.selects]
    for custom_id in ids:
        parts = (custom_id or "").split(":")
        if len(parts) > 3 and parts[0] == "match" and parts[3] in ("do", "pick"):
            return int(parts[2])
    return None


def card_game_id(card) -> int:
    """The match a card belongs to, read from its controls' custom_ids."""
    ids = [b.custom_id for b in card.buttons] + [s.custom_id for s in card.selects]
    for custom_id in ids:
        parts = (custom_id or "").split(":")
        if len(parts) > 1 and parts[0] == "match":
            return int(parts[1])
    raise AssertionError(f"no match control on this card: {card.text[:200]}")


def stored_row(bot, sql: str, *parameters) -> Any:
    """One row of the bot's database: its SQLite file, or the PostgreSQL server its
    DATABASE_URL names (a cluster's shard processes; `?` placeholders either way)."""
    with connect(bot) as conn:
        return conn.execute(sql, parameters).fetchone()


def stored_version(bot, game_id: int) -> tuple[int, str]:
    version, status = stored_row(bot, "SELECT version, status FROM games WHERE id = ?", game_id)
    return version, status


async def current_card(discord, bot, thread, game_id: int, *, timeout: float = 15.0):
    """The live card once it shows the stored position: its controls drawn for the stored
    version, or, the match over, no move controls left."""
    card = await discord.wait_for_message(thread, is_card, timeout=timeout, since=0)
    version = None
    for _ in range(int(timeout / 0.05)):
        card = discord.message(card)
        version, status = stored_version(bot, game_id)
        shown = card_version(card)
        if shown == version or (status != "active" and shown is None):
            return card
        await asyncio.sleep(0.05)
    raise AssertionError(f"the card did not show version {version}: {card.text[:300]}")


async def posted(bot, game_id: int, *, timeout: float = 15.0) -> None:
    """Until the bot has noted the match's stored version as posted: the last thing it does for
    a move, after the card, the milestones, the ping and the players' open panels. What the
    players see a moment after a click; stopping the bot now interrupts nothing."""
    for _ in range(int(timeout / 0.025)):
        with connect(bot) as conn:
            version, shown = conn.execute(
                "SELECT version, posted_version FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if shown >= version:
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"game {game_id}'s version {version} was never posted")
