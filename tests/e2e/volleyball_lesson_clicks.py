"""The click each step of Volleyball's lesson waits for, made as a newcomer makes it: the real
card's buttons, the real orders editor's menus and Save orders (rules/volleyball/lesson.py
CONTROLS). For the benchmark (bench/lesson.py), which plays the lesson to its end."""

from __future__ import annotations

from typing import Any

from rules.volleyball import Concept, Position
from rules.volleyball.lesson import Step

MENUS = {  # the editor's menus by their placeholders (cogs/volleyball/editor.py PLACEHOLDERS)
    "players": "Players of set 1 (pick six)",
    "positions": "Positions (the others play Allround)",
    "concept": "Concept and risk",
}
CARD = {"edit": "Edit with menus", "play": "Play the round", "why": "Why?"}
# My team's menus by their placeholders (cogs/volleyball/components.py TEAM_ORDERS)
TEAM_MENUS = {
    "OL": "Train a player's OL (+1, one training point)",
    "DL": "Train a player's DL (+1, one training point)",
    "sell": "Put a player on the transfer list (sell)",
}


async def sheet_menus(discord: Any, sheet: Any) -> Any:
    """The message of a team sheet (`/volleyball team show`, My team) that carries its menus:
    its last, which on a busy machine comes after the driver returned at the first."""

    def last(reply: Any) -> Any:
        return reply.followups[-1] if reply.followups else reply

    return last(await discord.whole(sheet, until=lambda reply: bool(last(reply).selects)))


def picked(step: Step) -> list[str]:
    """The options a set's step expects, as its menu labels them."""
    if step.control == "players":
        return [str(name) for name in step.expect]
    if step.control == "positions":
        return [f"{name}: {Position(int(code)).label}" for name, code in step.expect.items()]
    concept, risk = Concept(int(step.expect[0])), int(step.expect[1])
    return [f"{concept.abbreviation} ({concept.label}), risk {risk}"]


async def right_click(discord: Any, step: Step, card: Any, editor: Any, user: Any) -> Any:
    """The step's click: on the card, in the editor (None until Edit with menus opens it), or
    in the answer of the card's My team (a reading click, then the step's pick)."""
    if step.control in ("train", "sell"):
        menus = await sheet_menus(discord, await discord.click(card, "My team", user=user))
        player, _, level = str(step.expect).rpartition(" ")
        if step.control == "sell":
            player, level = str(step.expect), "sell"
        return await discord.select(menus, TEAM_MENUS[level], [player], user=user)
    if step.control in MENUS:
        return await discord.select(editor, MENUS[step.control], picked(step), user=user)
    if step.control == "save":
        return await discord.click(editor, "Save orders", user=user)
    return await discord.click(card, CARD[step.control], user=user)
