"""Core commands: /help (a quick start per game behind its button, the commands page by page;
the buttons survive restarts), /roll (dice notation), /about, and the welcome the bot posts once
when it joins a server."""

from __future__ import annotations

import logging
import platform
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import bot_of
from db import settings as settings_store
from host import starting
from host.lessons import STARTERS
from rules import dice
from rules import games as registry
from rules.games import Game
from rules.lessons import has_lesson
from ui import UserError
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour(0x0072B2)


@dataclass(frozen=True)
class QuickStart:
    """A game's quick start on /help: it names the game's slash commands, so it is said here
    and not in rules/games.py (which says what the game is and its title)."""

    first: str = ""  # the first command to try (the welcome, the quick start)
    start: str = ""  # how a match starts
    turn: str = ""  # how a turn goes


QUICK_STARTS = {
    "rollerball2": QuickStart(
        first="/rollerball2 team create",
        start="New to it? `/rollerball2 match learn` shows a match in seven decisions. Found a "
        "team with `/rollerball2 team create` (25 players are generated), then "
        "`/rollerball2 match start` with a home and an away team: `solo` (you coach both), "
        "`coaches` (the other team's coach presses Accept) or `simulate` (the bot plays it).",
        turn="The bot plays the action card by card and die by die, and shows every roll. A "
        "coach answers with the buttons when the match needs a decision (a substitute, a "
        "line-up); `/rollerball2 team lineup` sets your line-up before the match.",
    ),
    "rollerball": QuickStart(
        first="/rollerball new",
        start="New to it? `/rollerball learn` teaches it in ten moves on a real card. "
        "`/rollerball new` opens a table; players press **Join**, **Add computer** fills "
        "a seat, and whoever opened it presses **Start** once two or more are seated. The game "
        "is played in a thread under the table.",
        turn="Everyone first bids in secret. Then on your turn the balls roll, you draw, move "
        "your workman and build, blow up or replace a card, with the buttons or the move form; "
        "**My hand** shows your cards (only to you).",
    ),
    "volleyball": QuickStart(
        first="/volleyball league create",
        start="New to it? `/volleyball learn` teaches a manager's first round in eleven clicks, "
        "on a real league's card: a set's orders with the menu editor, the round played and its "
        "Why?, then a player trained and one put on the transfer list from My team. A server admin runs `/volleyball league "
        "create` and then `/volleyball league start`; managers bring a team with `/volleyball team create` or take a computer's "
        "team with `/volleyball take-seat`.",
        turn="Each round, send your orders before the deadline: `/volleyball orders edit` "
        "builds them with menus, `/volleyball orders send` takes them typed. At the deadline "
        "the bot plays the round and posts the results; your team sheet comes by DM.",
    ),
    "rocketball": QuickStart(
        first="/rocketball challenge",
        start="New to it? `/rocketball learn` teaches it in eight moves on a real card. Then "
        "`/rocketball challenge opponent:@someone` (they press **Accept**), or "
        "`/rocketball play-computer` against the computer (easy to master). The match is "
        "played in a thread under the challenge.",
        turn="Whoever holds the windbag rolls the d4 and the ball moves; then you place, turn "
        "or drift a vortex chip to steer it, with the buttons or the move form (`/rocketball "
        "move c4 N` types it). First to two goals wins.",
    ),
}


def quick_start_of(game: Game) -> QuickStart:
    """A game's quick start; a game without one yet (only its entry in rules/games.py) has
    none, and /help shows what it is."""
    return QUICK_STARTS.get(game.name, QuickStart())


CORE_COMMANDS = (
    ("/help [game]", "This help: the games, their commands, where the rules are."),
    ("/games", "Your matches and leagues on every server: whose turn, deadlines (also in DMs)."),
    ("/settings me", "How and when you are pinged; `/settings vacation` pauses your clocks."),
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
            "(every roll shown) and keeps the score. Press a game's button below for its quick "
            "start (how to begin, how a turn goes, where the rules are); Previous and Next page "
            "through every command. `/help game:<name>` jumps to a game's commands."
        ),
        colour=EMBED_COLOUR,
    )
    for game in registry.GAMES:
        status = f"`/{game.name}`" if game.name in groups else "coming soon"
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
    for game in registry.GAMES:
        group = groups.get(game.name)
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
        rules = f"\nRules and every ruling: `/{game.name} rules`." if has_rules else ""
        page.description = f"{game.summary}\n\n{description}{rules}"
        if overflow:
            page.add_field(name="More", value="\n".join(overflow)[:1024], inline=False)
        pages.append(page)
    for number, page in enumerate(pages, start=1):
        page.set_footer(text=f"Page {number} of {len(pages)}")
    return pages


class HelpPageButton(
    Control[discord.ui.Button], template=r"help:page:(?P<page>\d+):(?P<label>\w+)"
):
    """Previous/next buttons; the page number lives in the custom_id, so the buttons keep
    working after a restart."""

    def __init__(self, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label.title(),
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(page=page, label=label),
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> HelpPageButton:
        return cls(int(match["page"]), match["label"])

    async def act(self, interaction: discord.Interaction) -> None:
        pages = help_pages(bot_of(interaction).tree)
        page = min(self.page, len(pages) - 1)
        await interaction.response.edit_message(embed=pages[page], view=help_view(page, len(pages)))


class QuickStartButton(Control[discord.ui.Button], template=r"help:start:(?P<game>[a-z0-9]{1,20})"):
    """A game's button on the help overview: opens that game's quick start in place."""

    def __init__(self, game: str, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.primary, custom_id=self.id_for(game=game)
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> QuickStartButton:
        return cls(match["game"], item.label or match["game"])

    async def act(self, interaction: discord.Interaction) -> None:
        pages = help_pages(bot_of(interaction).tree)
        info = next((g for g in registry.GAMES if g.name == self.game), None)
        if info is None:  # a game this bot no longer has: back to the overview
            await interaction.response.edit_message(embed=pages[0], view=help_view(0, len(pages)))
            return
        titles = [p.title or "" for p in pages]
        wanted = f"{info.title}: commands"
        commands_page = titles.index(wanted) if wanted in titles else None
        await interaction.response.edit_message(
            embed=quick_start(info, playable=commands_page is not None),
            view=quick_start_view(self.game, commands_page, len(pages)),
        )


def quick_start(info: Game, *, playable: bool) -> discord.Embed:
    """A game's quick start: how a match starts, how a turn goes, where the rules are."""
    embed = discord.Embed(title=f"{info.title}: quick start", colour=EMBED_COLOUR)
    embed.description = info.summary
    if not playable:
        embed.description += "\n\nNot playable on this bot yet."
        return embed
    quick = quick_start_of(info)
    if quick.start:  # a game without a quick start yet has only its rules
        embed.add_field(name="Start", value=quick.start, inline=False)
        embed.add_field(name="A turn", value=quick.turn, inline=False)
    embed.add_field(
        name="Rules",
        value=f"`/{info.name} rules`: how the bot plays it, topic by topic, with every ruling.",
        inline=False,
    )
    embed.add_field(
        name="Your games",
        value="`/games` lists your matches on every server; `/settings me` says how you are "
        "pinged.",
        inline=False,
    )
    return embed


def quick_start_view(game: str, commands_page: int | None, count: int) -> discord.ui.View:
    """Back to the overview, or on to the game's commands; a game with a lesson offers it."""
    view = discord.ui.View(timeout=None)
    if commands_page is not None and has_lesson(game):
        view.add_item(LearnButton(game))
    view.add_item(HelpPageButton(0, "overview"))
    if commands_page is not None:
        view.add_item(HelpPageButton(commands_page, "commands"))
    return view


class LearnButton(Control[discord.ui.Button], template=r"help:learn:(?P<game>[a-z0-9]{1,20})"):
    """A game's quick start: its lesson (`/GAME learn`), started here with one click."""

    def __init__(self, game: str, label: str = "Learn by playing") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="📘",
                style=discord.ButtonStyle.success,
                custom_id=self.id_for(game=game),
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> LearnButton:
        return cls(match["game"])

    async def act(self, interaction: discord.Interaction) -> None:
        host = bot_of(interaction).matches
        adapter = host.adapters.get(self.game)
        if adapter is None and self.game in STARTERS:  # a game run by rounds: its own lesson
            await STARTERS[self.game](interaction)
            return
        if adapter is None:
            raise UserError(f"{registry.title_of(self.game)} is not playable on this bot now.")
        await starting.learn(host, interaction, adapter)


def help_view(page: int, count: int, *, games: bool = True) -> discord.ui.View:
    """Previous/Next; on the overview also a button per game (its quick start)."""
    view = discord.ui.View(timeout=None)
    view.add_item(HelpPageButton(max(page - 1, 0), "previous", disabled=page == 0))
    view.add_item(HelpPageButton(min(page + 1, count - 1), "next", disabled=page >= count - 1))
    if page == 0 and games:
        for info in registry.GAMES:
            view.add_item(QuickStartButton(info.name, info.title))
    return view


def welcome_text(tree: app_commands.CommandTree) -> str:
    """What the bot says once when it joins a server: what it is and a first command per game."""
    loaded = {command.name for command in tree.get_commands()}
    firsts = [
        f"**{info.title}**: `{quick_start_of(info).first}`"
        for info in registry.GAMES
        if info.name in loaded and quick_start_of(info).first
    ]
    learn = (
        " New to a game? **Learn** below plays a guided match of a few minutes with you."
        if learnable(tree)
        else ""
    )
    return (
        "Hello! I'm **Ballcourt**: four ball games played right here, with slash commands and "
        "buttons, over minutes or days. To start: "
        + "; ".join(firsts)
        + ". `/help` explains each game, `/games` lists your matches on every server."
        + learn
    )


def learnable(tree: app_commands.CommandTree) -> list[registry.Game]:
    """The loaded games with a lesson (data/lessons/GAME.json), in the players' order."""
    loaded = {command.name for command in tree.get_commands()}
    return [g for g in registry.GAMES if g.name in loaded and has_lesson(g.name)]


def welcome_view(tree: app_commands.CommandTree) -> discord.ui.View:
    """The welcome's buttons: each game's lesson, started by whoever clicks (LearnButton)."""
    view = discord.ui.View(timeout=None)
    for info in learnable(tree):
        view.add_item(LearnButton(info.name, f"Learn {info.title}"))
    return view


def welcome_channel(guild: discord.Guild) -> discord.TextChannel | None:
    """Where the welcome may go: the server's system channel if the bot may post there, else
    the first text channel (in the server's order) where it may."""
    me = guild.me
    candidates = [guild.system_channel] if guild.system_channel is not None else []
    candidates += sorted(guild.text_channels, key=lambda c: (c.position, c.id))
    for channel in candidates:
        if me is None:  # the bot's member is not known yet: try, Discord will say
            return channel
        granted = channel.permissions_for(me)
        if granted.view_channel and granted.send_messages:
            return channel
    return None


def format_roll(user: discord.abc.User, result: dice.Roll) -> str:
    working = f"{result.working} = " if result.working else ""
    return f"🎲 {user.mention} rolled `{result.notation}`: {working}**{result.total}**"


class Core(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        # Player-facing rolls use the operating system's randomness: nothing to seed, nothing
        # to predict. Game engines keep their own seeded RNGs.
        self.rng = random.SystemRandom()

    @app_commands.command(name="help", description="The games, their commands and their rules.")
    @app_commands.describe(game="Jump to one game's commands")
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=g.name) for g in registry.GAMES],
    )
    async def help(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        pages = help_pages(self.bot.tree)
        page = 0
        if game is not None:
            titles = [p.title or "" for p in pages]
            wanted = registry.title_of(game.value)
            if f"{wanted}: commands" not in titles:
                raise UserError(f"{wanted} is not playable on this bot yet. `/help` lists what is.")
            page = titles.index(f"{wanted}: commands")
        await interaction.response.send_message(
            embed=pages[page], view=help_view(page, len(pages)), ephemeral=True
        )

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Joined a server: say once what Ballcourt is and how to start, where it may post."""
        channel = welcome_channel(guild)
        if channel is None:
            log.info("joined server %s: no channel to welcome it in", guild.id)
            return
        if not await settings_store.claim_welcome(self.bot.db, guild.id):
            return  # welcomed before (a re-invite, or another process of the cluster)
        try:
            await channel.send(
                welcome_text(self.bot.tree),
                view=welcome_view(self.bot.tree),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.info("could not welcome server %s: %s", guild.id, error)

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
    bot.add_dynamic_items(HelpPageButton, QuickStartButton, LearnButton)
    await bot.add_cog(Core(bot))
