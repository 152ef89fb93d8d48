"""Core commands: /help (paginated, survives restarts), /roll (dice notation), /about."""

from __future__ import annotations

import platform
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from rules import dice
from ui import UserError

if TYPE_CHECKING:
    from bot import Ballcourt

EMBED_COLOUR = discord.Colour(0x0072B2)


@dataclass(frozen=True)
class GameInfo:
    group: str  # the slash-command group, e.g. "rocketball"
    title: str
    summary: str


GAMES = (
    GameInfo(
        "rollerball2",
        "Rollerball II",
        "A card-driven sports simulation: player cards with D10 columns, 60 Fast Action Cards, "
        "penalties and injuries that carry over.",
    ),
    GameInfo(
        "rollerball",
        "Rollerball",
        "An abstract board game for 2-6 players on concentric rings: bases, workmen, diversion "
        "cards and balls that split.",
    ),
    GameInfo(
        "volleyball",
        "Volleyball",
        "A season-long league: managers send orders each round and the bot is the game master.",
    ),
    GameInfo(
        "rocketball",
        "Rocketball",
        "Two players steer a blazing ball with vortex chips and a d4; nine variants and a "
        "computer opponent.",
    ),
)

CORE_COMMANDS = (
    ("/help [game]", "This help: the games, their commands, where the rules are."),
    ("/roll notation", "Roll dice, e.g. `2d10`, `d4`, `3d6+2`; every die is shown."),
    ("/about", "Version, uptime, servers and database size."),
)


def _command_lines(group: app_commands.Group) -> list[str]:
    lines: list[str] = []
    for command in group.walk_commands():
        if isinstance(command, app_commands.Command):
            required = [p.display_name for p in command.parameters if p.required]
            optional = [f"[{p.display_name}]" for p in command.parameters if not p.required]
            if len(optional) > 3:  # a long list of variant switches reads better as a count
                optional = [f"[+{len(optional)} options]"]
            options = " ".join(required + optional)
            usage = f"/{command.qualified_name}" + (f" {options}" if options else "")
            lines.append(f"`{usage}`: {command.description}")
    return lines


def help_pages(tree: app_commands.CommandTree) -> list[discord.Embed]:
    """Page 0 is the overview; then one page per game whose commands are loaded."""
    groups = {
        command.name: command
        for command in tree.get_commands()
        if isinstance(command, app_commands.Group)
    }
    overview = discord.Embed(
        title="Ballcourt: ball games in chat",
        description=(
            "Play with slash commands and buttons; the bot draws the cards, rolls the dice "
            "(every roll shown) and keeps the score. Use the buttons below for each game's "
            "commands, or `/help game:<name>`."
        ),
        colour=EMBED_COLOUR,
    )
    for game in GAMES:
        status = f"`/{game.group}`" if game.group in groups else "coming soon"
        overview.add_field(
            name=f"{game.title} ({status})",
            value=game.summary,
            inline=False,
        )
    overview.add_field(
        name="Everywhere",
        value="\n".join(f"`{usage}`: {text}" for usage, text in CORE_COMMANDS),
        inline=False,
    )
    pages = [overview]
    for game in GAMES:
        group = groups.get(game.group)
        if group is None:
            continue
        page = discord.Embed(title=f"{game.title}: commands", colour=EMBED_COLOUR)
        lines = _command_lines(group)
        # Keep within Discord's 4096-character description; the rest goes to a second field.
        description, overflow = "", []
        for line in lines:
            if len(description) + len(line) + 1 <= 3900 and not overflow:
                description += line + "\n"
            else:
                overflow.append(line)
        has_rules = any(command.name == "rules" for command in group.commands)
        rules = f"\nRules and every ruling: `/{game.group} rules`." if has_rules else ""
        page.description = f"{game.summary}\n\n{description}{rules}"
        if overflow:
            page.add_field(name="More", value="\n".join(overflow)[:1024], inline=False)
        pages.append(page)
    for number, page in enumerate(pages, start=1):
        page.set_footer(text=f"Page {number} of {len(pages)}")
    return pages


class HelpPageButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"help:page:(?P<page>\d+):(?P<label>\w+)"
):
    """Previous/next buttons; the page number lives in the custom_id, so the buttons keep
    working after a restart."""

    def __init__(self, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label.title(),
                style=discord.ButtonStyle.secondary,
                custom_id=f"help:page:{page}:{label}",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> HelpPageButton:
        return cls(int(match["page"]), match["label"])

    async def callback(self, interaction: discord.Interaction) -> None:
        pages = help_pages(interaction.client.tree)
        page = min(self.page, len(pages) - 1)
        await interaction.response.edit_message(embed=pages[page], view=help_view(page, len(pages)))


def help_view(page: int, count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HelpPageButton(max(page - 1, 0), "previous", disabled=page == 0))
    view.add_item(HelpPageButton(min(page + 1, count - 1), "next", disabled=page >= count - 1))
    return view


def format_roll(user: discord.abc.User, result: dice.Roll) -> str:
    return f"🎲 {user.mention} rolled `{result.notation}`: {result.describe()} → **{result.total}**"


class Core(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        # Player-facing rolls use the operating system's randomness: nothing to seed, nothing
        # to predict. Game engines keep their own seeded RNGs.
        self.rng = random.SystemRandom()

    @app_commands.command(name="help", description="The games, their commands and their rules.")
    @app_commands.describe(game="Jump to one game's commands")
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=g.group) for g in GAMES],
    )
    async def help(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        pages = help_pages(self.bot.tree)
        page = 0
        if game is not None:
            titles = [p.title or "" for p in pages]
            wanted = next(g.title for g in GAMES if g.group == game.value)
            if f"{wanted}: commands" not in titles:
                raise UserError(f"{wanted} is not playable on this bot yet. `/help` lists what is.")
            page = titles.index(f"{wanted}: commands")
        await interaction.response.send_message(
            embed=pages[page], view=help_view(page, len(pages)), ephemeral=True
        )

    @app_commands.command(name="roll", description="Roll dice: d4, 2d10, 3d6+2 ...")
    @app_commands.describe(notation="Dice notation such as 2d10, d4 or 3d6+2")
    async def roll(self, interaction: discord.Interaction, notation: str) -> None:
        try:
            result = dice.roll(notation, self.rng)
        except dice.DiceError as error:
            raise UserError(str(error)) from error
        await interaction.response.send_message(format_roll(interaction.user, result))

    @app_commands.command(name="about", description="Version, uptime, servers, database size.")
    async def about(self, interaction: discord.Interaction) -> None:
        uptime = int(time.monotonic() - self.bot.started_at)
        hours, rest = divmod(uptime, 3600)
        minutes, seconds = divmod(rest, 60)
        embed = discord.Embed(title="Ballcourt", colour=EMBED_COLOUR)
        embed.add_field(name="Version", value=self.bot.version)
        embed.add_field(name="Uptime", value=f"{hours}h {minutes:02d}m {seconds:02d}s")
        embed.add_field(name="Servers", value=str(len(self.bot.guilds)))
        embed.add_field(name="Database", value=f"{await self.bot.db.size() / 1024:.0f} KiB")
        embed.add_field(
            name="Running on",
            value=f"Python {platform.python_version()}, discord.py {discord.__version__}",
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(HelpPageButton)
    await bot.add_cog(Core(bot))
