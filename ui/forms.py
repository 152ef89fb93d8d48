"""Modals, written once for every game: what a submitted form holds, and one router that
sends a form's submit to its handler by custom_id (so a form opened before a restart is
still handled after it). Persistent views and controls are ui/items.py's.

A modal's submit arrives as an interaction whose components Discord nests in action rows
(or, for Components v2 labels, in a `component` key); `modal_values` reads any nesting.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from ui.replies import report_error

FormHandler = Callable[[discord.Interaction, re.Match[str], dict[str, str]], Awaitable[None]]


def modal_values(components: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """custom_id -> text of every input of a submitted modal, in the form's order."""
    values: dict[str, str] = {}
    for component in components:
        if "value" in component and component.get("custom_id") is not None:
            values[str(component["custom_id"])] = str(component["value"])
        values |= modal_values(component.get("components", []))
        if "component" in component:
            values |= modal_values([component["component"]])
    return values


def submitted_values(interaction: discord.Interaction) -> dict[str, str]:
    return modal_values((interaction.data or {}).get("components", []))


@dataclass(frozen=True)
class FormRoute:
    """A modal's custom_id pattern and the coroutine that handles its submit (given the
    match of the pattern and the form's values)."""

    pattern: re.Pattern[str]
    handler: FormHandler


async def route_form(interaction: discord.Interaction, routes: Iterable[FormRoute]) -> bool:
    """Hand a modal submit to the route whose pattern its custom_id matches; errors end in
    report_error (a listener is outside the command tree's error handler). Returns whether
    a route took it."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    for route in routes:
        found = route.pattern.fullmatch(custom_id)
        if found is None:
            continue
        try:
            await route.handler(interaction, found, submitted_values(interaction))
        except Exception as error:
            await report_error(interaction, error)
        return True
    return False
