"""Volleyball's modals and its button. Their custom_ids carry the league (and, for the orders
form, the round it was opened for), so a form opened before a restart is still handled after
it: the submits are routed by custom_id in a listener (cogs/volleyball/cog.py), and the button
is a DynamicItem.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.volleyball.forms import ROSTER_HINT, ROSTER_LIMIT, ModalBox
from ui import report_error

if TYPE_CHECKING:
    from cogs.volleyball.league import Leagues

ORDERS_FORM_ID = re.compile(r"vb:(?P<league>\d+):(?P<season>\d+):(?P<round>\d+):orders")
TEAM_FORM_ID = re.compile(r"vb:(?P<league>\d+):team(?::(?P<seat>\d+))?")


def leagues_of(interaction: discord.Interaction) -> Leagues:
    return interaction.client.volleyball  # type: ignore[attr-defined]


class OrdersForm(discord.ui.Modal):
    """The orders: one box per match of the round (the seed's form, compact) and one for the
    order lines. Its submit is handled by custom_id, not by this object."""

    def __init__(self, league_id: int, season: int, round_number: int, boxes: list[ModalBox]):
        super().__init__(
            title=f"Orders for round {round_number}"[:45],
            custom_id=f"vb:{league_id}:{season}:{round_number}:orders",
            timeout=None,
        )
        for box in boxes:
            self.add_item(
                discord.ui.TextInput(
                    label=box.label[:45],
                    custom_id=box.custom_id,
                    style=discord.TextStyle.paragraph,
                    default=box.value or None,
                    required=box.required,
                    max_length=4000,
                )
            )


class TeamForm(discord.ui.Modal):
    """A new team: its name and its players, one a line."""

    def __init__(self, league_id: int, seat: int | None, name: str = "", example: str = ""):
        suffix = f":{seat}" if seat is not None else ""
        super().__init__(
            title="Your Volleyball team", custom_id=f"vb:{league_id}:team{suffix}", timeout=None
        )
        self.add_item(
            discord.ui.TextInput(
                label="Team name", custom_id="name", default=name or None, max_length=32
            )
        )
        self.add_item(
            discord.ui.TextInput(
                label="Players: NAME AGE OL DL, one a line",
                custom_id="players",
                style=discord.TextStyle.paragraph,
                placeholder=ROSTER_HINT,
                default=example or None,
                max_length=ROSTER_LIMIT,
            )
        )


def modal_values(components: list[dict[str, Any]]) -> dict[str, str]:
    """custom_id -> text of a submitted modal, whatever nesting Discord used."""
    values: dict[str, str] = {}
    for component in components:
        if "value" in component and component.get("custom_id"):
            values[str(component["custom_id"])] = str(component["value"])
        values |= modal_values(component.get("components", []))
        if "component" in component:
            values |= modal_values([component["component"]])
    return values


class OrdersButton(discord.ui.DynamicItem[discord.ui.Button], template=r"vb:(?P<id>\d+):orders"):
    """ "Send orders" under a reminder: the orders form for the clicker's own team."""

    def __init__(self, league_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Send orders",
                style=discord.ButtonStyle.primary,
                custom_id=f"vb:{league_id}:orders",
            )
        )
        self.league_id = league_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> OrdersButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await leagues_of(interaction).open_orders_form(interaction, self.league_id)
        except Exception as error:  # buttons bypass the tree's error handler
            await report_error(interaction, error)


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
