"""Volleyball's modals and buttons. Their custom_ids carry the league (and, for the orders
form, the round it was opened for), so a form opened before a restart is still handled after
it: the submits are routed by custom_id (ui.forms.route_form, in cogs/volleyball/cog.py), and
the buttons are ui.items.Controls (DynamicItems whose errors end in the one reporter).

Buttons: Send orders (the orders form), Edit with menus (the orders editor), Repeat last
orders, My team (the sheet), on the league's status card and under reminders, and the card's
Why? (its latest round's); Fix and send again under a refused form (the form again, with the
text that was sent); under a public post, the details it keeps one tap away (DETAILS), its
round's Why? among them.

What a button opens (the forms, the editor, the answers) stands above this module: a click is
handed to the Volleyball cog, found through discord.py's cog registry (`Bot.get_cog`), as the
`LeagueControls` it implements.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import discord

from cogs import bot_of
from cogs.volleyball.forms import ROSTER_LIMIT, ModalBox
from rules.volleyball import players_for_every_set
from ui import UserError
from ui.items import Control, written

if TYPE_CHECKING:
    from rules.volleyball import SeasonConfig, Team

ORDERS_FORM_ID = re.compile(r"vb:(?P<league>\d+):(?P<season>\d+):(?P<round>\d+):orders")
TEAM_FORM_ID = re.compile(r"vb:(?P<league>\d+):team(?::(?P<seat>\d+))?")


class RoundDetails(Protocol):
    """What a public post's details button asks of a manager's answers (cogs/volleyball/
    orders.py `Orders`)."""

    async def show_details(
        self,
        interaction: discord.Interaction,
        league_id: int,
        season: int,
        round_number: int,
        what: str,
    ) -> None:
        """A public post's details (DETAILS), to the clicker only."""
        ...


@runtime_checkable
class LeagueControls(Protocol):
    """What a click on a league's button asks of the Volleyball cog (cogs/volleyball/cog.py)."""

    @property
    def orders(self) -> RoundDetails:
        """The managers' orders and answers, which show a public post's details."""
        ...

    async def press_league_button(
        self, interaction: discord.Interaction, league_id: int, action: str
    ) -> None:
        """A card's or a reminder's button (CARD_ACTIONS): for the clicker's own team, or the
        latest round's Why?."""
        ...

    async def press_team_order(
        self, interaction: discord.Interaction, league_id: int, what: str, player: str
    ) -> None:
        """My team's Train OL / Train DL / Sell menus (TEAM_ORDERS): the order line it stands
        for, sent as `/volleyball sell` sends one."""
        ...

    async def play_lesson(self, interaction: discord.Interaction, league_id: int) -> None:
        """A lesson's Play the round (cogs/volleyball/lesson.py `play`)."""
        ...

    async def press_retry(
        self, interaction: discord.Interaction, league_id: int, kind: str
    ) -> None:
        """Fix and send again: the refused form ("orders" or "team") again, with its text."""
        ...

    async def explain_round(
        self, interaction: discord.Interaction, league_id: int, season: int, round_number: int
    ) -> None:
        """A round's Why? (a results post's button), to the clicker only."""
        ...


def controls_of(interaction: discord.Interaction) -> LeagueControls:
    """The Volleyball cog, whose league the button is (the bot itself knows no game)."""
    cog = bot_of(interaction).get_cog("Volleyball")
    if not isinstance(cog, LeagueControls):
        raise RuntimeError("the Volleyball cog, whose league this is, is not loaded")
    return cog


class OrdersForm(discord.ui.Modal):
    """The orders: one box per match of the round (the seed's form, compact) and one for the
    order lines. Its submit is handled by custom_id, not by this object."""

    def __init__(
        self,
        league_id: int,
        season: int,
        round_number: int,
        boxes: list[ModalBox],
        *,
        kept: bool = False,
    ):
        title = f"Orders for round {round_number}" + (" (your text)" if kept else "")
        super().__init__(
            title=title[:45],
            custom_id=written(
                ORDERS_FORM_ID, {"league": league_id, "season": season, "round": round_number}
            ),
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


def roster_hint(config: SeasonConfig) -> str:
    """The players box's placeholder: the line's form, the points per age (rule 1) and how
    many players it takes to field all five sets (rules.volleyball.players_for_every_set)."""
    points = ", ".join(f"{age} {n}" for age, n in config.player_points_by_age.items())
    players, every_set = players_for_every_set(config)
    depth = f" {players}+ play all 5 sets." if every_set else ""
    return f"Like Anna Visser A 8 8. Points: {points}.{depth}"[:100]


class TeamForm(discord.ui.Modal):
    """A new team: its name and its players, one a line."""

    def __init__(
        self,
        league_id: int,
        seat: int | None,
        config: SeasonConfig,
        name: str = "",
        players: str = "",
        *,
        made: bool = False,
    ):
        super().__init__(
            title="Your team (made for you: edit or send)" if made else "Your Volleyball team",
            custom_id=written(TEAM_FORM_ID, {"league": league_id, "seat": seat}),
            timeout=None,
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
                placeholder=roster_hint(config),
                default=players or None,
                max_length=ROSTER_LIMIT,
            )
        )


# What a card button does, its label and style (the custom_id is vb:<league>:<action>).
CARD_ACTIONS = {
    "orders": ("Send orders", discord.ButtonStyle.primary),
    "edit": ("Edit with menus", discord.ButtonStyle.secondary),
    "repeat": ("Repeat last orders", discord.ButtonStyle.success),
    "sheet": ("My team", discord.ButtonStyle.secondary),
    "why": ("Why?", discord.ButtonStyle.secondary),
}


class LeagueButton(
    Control[discord.ui.Button],
    template=r"vb:(?P<id>\d+):(?P<action>orders|edit|repeat|sheet|why)",
):
    """A button of a league's card (and reminders): the clicker's own team, or Why?."""

    def __init__(self, league_id: int, action: str) -> None:
        label, style = CARD_ACTIONS[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=self.id_for(id=league_id, action=action)
            )
        )
        self.league_id, self.action = league_id, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LeagueButton:
        return cls(int(match["id"]), match["action"])

    async def act(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).press_league_button(interaction, self.league_id, self.action)


def card_buttons(league_id: int) -> list[LeagueButton]:
    """The card's buttons for the clicker's own team (its Why? comes after its Follow)."""
    return [LeagueButton(league_id, action) for action in CARD_ACTIONS if action != "why"]


class RetryButton(
    Control[discord.ui.Button],
    template=r"vb:(?P<id>\d+):retry:(?P<kind>orders|team)",
):
    """ "Fix and send again" under a refused form: the form again, with the text sent."""

    def __init__(self, league_id: int, kind: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Fix and send again",
                style=discord.ButtonStyle.primary,
                custom_id=self.id_for(id=league_id, kind=kind),
            )
        )
        self.league_id, self.kind = league_id, kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> RetryButton:
        return cls(int(match["id"]), match["kind"])

    async def act(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).press_retry(interaction, self.league_id, self.kind)


# My team's menus: each picks one player for one order line (docs/rules/volleyball.md, rule 6's
# training and rule 8's transfer list), its placeholder and the line it sends. The line goes the
# way of a typed one (cogs/volleyball/cog.py `press_team_order`), so the engine refuses a pick
# as it refuses the line.
TEAM_ORDERS = {
    "train_ol": ("Train a player's OL (+1, one training point)", "TRAIN: {player} OL"),
    "train_dl": ("Train a player's DL (+1, one training point)", "TRAIN: {player} DL"),
    "sell": ("Put a player on the transfer list (sell)", "SELL: {player}"),
}
MENU_OPTIONS = 25  # Discord's most options in a select


class TeamOrderSelect(
    Control[discord.ui.Select],
    template=r"vb:(?P<id>\d+):(?P<what>train_ol|train_dl|sell)",
):
    """A menu of My team's answer: the player to train (on OL or on DL) or to offer for sale;
    the pick is the order line TEAM_ORDERS names, added to the orders on file."""

    def __init__(self, league_id: int, what: str, players: list[str] | None = None) -> None:
        names = players if players else ["?"]
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(id=league_id, what=what),
                placeholder=TEAM_ORDERS[what][0],
                options=[discord.SelectOption(label=n, value=n) for n in names[:MENU_OPTIONS]],
                disabled=not players,
            )
        )
        self.league_id, self.what = league_id, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> TeamOrderSelect:
        return cls(int(match["id"]), match["what"])

    async def act(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        if len(values) != 1:
            raise UserError("Pick one player from the menu.")
        await controls_of(interaction).press_team_order(
            interaction, self.league_id, self.what, values[0]
        )


def team_order_selects(league_id: int, team: Team) -> list[discord.ui.Item]:
    """My team's menus, each listing the team's own players: a contract player can be neither
    trained (rule 7) nor sold (rule 8)."""
    own = [p.name for p in team.players if not p.is_contract]
    return [TeamOrderSelect(league_id, what, own) for what in TEAM_ORDERS]


# What a public post keeps one tap away (its first screen says what matters), its button's
# label; the answer only the clicker sees (custom_id vb:<league>:details:<season>:<round>:<what>).
DETAILS = {
    "sets": "Every set",
    "table": "Table",
    "cup": "Galaxy Cup",
    "season": "Season details",
    "why": "Why?",
}


class DetailsButton(
    Control[discord.ui.Button],
    template=r"vb:(?P<id>\d+):details:(?P<season>\d+):(?P<round>\d+):(?P<what>sets|table|cup|season|why)",
):
    """A button under a public post: the details it leaves out (a round's every set, the
    table, the cup's bracket, the season's publication, the round's Why?), shown privately to
    whoever asks."""

    def __init__(self, league_id: int, season: int, round_number: int, what: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=DETAILS[what],
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(id=league_id, season=season, round=round_number, what=what),
            )
        )
        self.league_id, self.season, self.round_number, self.what = (
            league_id,
            season,
            round_number,
            what,
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> DetailsButton:
        return cls(int(match["id"]), int(match["season"]), int(match["round"]), match["what"])

    async def act(self, interaction: discord.Interaction) -> None:
        controls = controls_of(interaction)
        if self.what == "why":
            await controls.explain_round(
                interaction, self.league_id, self.season, self.round_number
            )
            return
        await controls.orders.show_details(
            interaction, self.league_id, self.season, self.round_number, self.what
        )


DYNAMIC_ITEMS = (LeagueButton, RetryButton, DetailsButton, TeamOrderSelect)
