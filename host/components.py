"""The host's buttons and its move form, one DynamicItem per action (RoboDanny's pattern).

A custom_id carries the match id (and, for a move, the version it was drawn for), so a click
after a restart finds its match and a stale click is recognised. The clicker is checked inside
the match's lock, after loading it, by the host: a check before the lock could race a move.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, cast

import discord

from ui.items import Control, written

ARG = r"[A-Za-z0-9_.-]{1,40}"
ACTION = r"[a-z-]{1,20}"


class Answers(Protocol):
    """What the controls ask of the match host (host/match_host.py `MatchHost`, whose entry points
    are written in the host's parts): typed here, so the controls, which the card draws, import
    nothing above them."""

    async def answer_challenge(
        self, interaction: discord.Interaction, game_id: int, answer: str
    ) -> None: ...

    async def on_move_button(
        self, interaction: discord.Interaction, button: MoveButton
    ) -> None: ...

    async def on_move_select(
        self, interaction: discord.Interaction, select: MoveSelect, values: list[str]
    ) -> None: ...

    async def on_panel_control(
        self,
        interaction: discord.Interaction,
        control: PanelButton | PanelSelect,
        values: list[str] | None,
    ) -> None: ...

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def claim_forfeit(
        self, interaction: discord.Interaction, game_id: int, version: int
    ) -> None: ...

    async def lobby_button(
        self, interaction: discord.Interaction, game_id: int, what: str
    ) -> None: ...

    async def show_private(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def take_back(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


def host_of(interaction: discord.Interaction[Any]) -> Answers:
    """The match host of the bot an interaction came to: discord.py types
    `interaction.client` as its base Client; every interaction comes to the bot whose
    `matches` is the host."""
    return cast(Any, interaction.client).matches


class AnswerButton(
    Control[discord.ui.Button],
    template=r"match:(?P<id>\d+):(?P<answer>accept|decline)",
):
    """Accept or Decline (or, for the challenger, withdraw) a challenge."""

    def __init__(self, game_id: int, answer: str) -> None:
        accept = answer == "accept"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=self.id_for(id=game_id, answer=answer),
            )
        )
        self.game_id, self.answer = game_id, answer

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> AnswerButton:
        return cls(int(match["id"]), match["answer"])

    async def act(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).answer_challenge(interaction, self.game_id, self.answer)


class MoveButton(
    Control[discord.ui.Button],
    template=rf"match:(?P<id>\d+):(?P<version>\d+):do:(?P<action>{ACTION})(?::(?P<arg>{ARG}))?",
):
    """A game action (roll, aim N, pass…), or the button that opens the move form."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        custom_id = self.id_for(id=game_id, version=version, action=action, arg=arg)
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id))
        self.game_id, self.version, self.action, self.arg = game_id, version, action, arg

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> MoveButton:
        return cls(int(match["id"]), int(match["version"]), match["action"], match["arg"])

    async def act(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).on_move_button(interaction, self)


class MoveSelect(
    Control[discord.ui.Select],
    template=rf"match:(?P<id>\d+):(?P<version>\d+):pick:(?P<action>{ACTION})(?::(?P<arg>{ARG}))?",
):
    """A select menu of picks from the engine's legal actions (a square, a card, cards to bid):
    the values chosen go to the game's `select_action`."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        arg: str | None = None,
        *,
        placeholder: str = "",
        options: tuple[tuple[str, str], ...] = (),
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        custom_id = self.id_for(id=game_id, version=version, action=action, arg=arg)
        choices = [
            discord.SelectOption(label=label[:100], value=value[:100]) for label, value in options
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                placeholder=placeholder[:150] or None,
                options=choices or [discord.SelectOption(label="-", value="-")],
                min_values=min(min_values, len(choices) or 1),
                max_values=max(1, min(max_values, len(choices) or 1)),
            )
        )
        self.game_id, self.version, self.action, self.arg = game_id, version, action, arg

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> MoveSelect:
        return cls(int(match["id"]), int(match["version"]), match["action"], match["arg"])

    async def act(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        await host_of(interaction).on_move_select(interaction, self, values)


class PanelButton(
    MoveButton,
    template=rf"match:(?P<id>\d+):(?P<version>\d+):pdo:(?P<action>{ACTION})(?::(?P<arg>{ARG}))?",
):
    """A choice on a player's private panel (host/panels.py): a MoveButton, except that a click
    on a panel whose choices are from an earlier turn redraws the panel as it is now."""

    async def act(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).on_panel_control(interaction, self, None)


class PanelSelect(
    MoveSelect,
    template=rf"match:(?P<id>\d+):(?P<version>\d+):ppick:(?P<action>{ACTION})(?::(?P<arg>{ARG}))?",
):
    """A menu on a player's private panel: a MoveSelect, redrawing a panel gone stale."""

    async def act(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        await host_of(interaction).on_panel_control(interaction, self, values)


class ResignButton(Control[discord.ui.Button], template=r"match:(?P<id>\d+):resign"):
    """The confirmation of /GAME resign."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Resign",
                style=discord.ButtonStyle.danger,
                custom_id=self.id_for(id=game_id),
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> ResignButton:
        return cls(int(match["id"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).confirm_resign(interaction, self.game_id)


class ClaimButton(Control[discord.ui.Button], template=r"match:(?P<id>\d+):(?P<version>\d+):claim"):
    """Claim a match the opponent abandoned (offered when the forfeit time has passed)."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Claim the win",
                style=discord.ButtonStyle.danger,
                custom_id=self.id_for(id=game_id, version=version),
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> ClaimButton:
        return cls(int(match["id"]), int(match["version"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).claim_forfeit(interaction, self.game_id, self.version)


LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "computer": ("Add computer", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class LobbyButton(
    Control[discord.ui.Button],
    template=r"match:(?P<id>\d+):lobby:(?P<what>join|leave|computer|start)",
):
    """Join, Leave, Add computer or Start, on a lobby's message (host/lobby.py)."""

    def __init__(self, game_id: int, what: str, *, disabled: bool = False) -> None:
        label, style = LOBBY_BUTTONS[what]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=self.id_for(id=game_id, what=what),
                disabled=disabled,
            )
        )
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["id"]), match["what"])

    async def act(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).lobby_button(interaction, self.game_id, self.what)


class SeatButton(
    Control[discord.ui.Button], template=r"match:(?P<id>\d+):(?P<what>private|takeback|rematch)"
):
    """A button about a player's own seat that carries no version (it works whoever's turn it
    is): "My hand" (a fresh private panel), "Take my seat back" (from the computer that stood
    in), "Rematch" (on a finished match: the same settings again, seats swapped)."""

    LOOKS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "private": ("My hand", discord.ButtonStyle.secondary),
        "takeback": ("Take my seat back", discord.ButtonStyle.success),
        "rematch": ("Rematch", discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, what: str, label: str | None = None) -> None:
        default, style = self.LOOKS[what]
        super().__init__(
            discord.ui.Button(
                label=(label or default)[:80],
                style=style,
                custom_id=self.id_for(id=game_id, what=what),
            )
        )
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> SeatButton:
        return cls(int(match["id"]), match["what"], item.label)

    async def act(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        if self.what == "private":
            await host.show_private(interaction, self.game_id)
        elif self.what == "takeback":
            await host.take_back(interaction, self.game_id)
        else:
            await host.rematch(interaction, self.game_id)


DYNAMIC_ITEMS = (
    AnswerButton,
    MoveButton,
    MoveSelect,
    PanelButton,
    PanelSelect,
    ResignButton,
    ClaimButton,
    LobbyButton,
    SeatButton,
)

MOVE_FORM_ID = re.compile(r"match:(?P<id>\d+):(?P<version>\d+):form")
MOVE_INPUT_LENGTH = 60


class MoveForm(discord.ui.Modal):
    """The typed move. Its submit is routed by custom_id (host/moves.py on_interaction), so a form
    opened before a restart still works after it."""

    def __init__(self, game_id: int, version: int, title: str, label: str, hint: str) -> None:
        super().__init__(
            title=title[:45],
            custom_id=written(MOVE_FORM_ID, {"id": game_id, "version": version}),
            timeout=None,
        )
        self.move: discord.ui.TextInput = discord.ui.TextInput(
            label=label[:45], placeholder=hint[:100] or None, max_length=MOVE_INPUT_LENGTH
        )
        self.add_item(self.move)


def text_inputs(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """Values of the text inputs in a modal submit, whatever the nesting Discord used."""
    values: list[str] = []
    for component in components:
        if "value" in component:
            values.append(str(component["value"]))
        values.extend(text_inputs(component.get("components", [])))
        if "component" in component:
            values.extend(text_inputs([component["component"]]))
    return values
