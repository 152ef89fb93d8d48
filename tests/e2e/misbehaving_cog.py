"""A deliberately misbehaving, test-only cog: each /misbehave subcommand breaks one of
Discord's rules (or exercises one response path), so test_harness.py can prove the fake
Discord catches what real Discord would refuse. Loaded with EXTRA_EXTENSIONS; never shipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import time

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import MultipartParameters, Route
from PIL import Image

from render.common import GREEN, ORANGE, to_png


def _board_png(width: int = 64, height: int = 48) -> bytes:
    image = Image.new("RGB", (width, height), ORANGE)
    image.paste(GREEN, (0, 0, width // 2, height))
    return to_png(image)


async def _raw_channel_message(interaction: discord.Interaction, payload: dict) -> None:
    """Post a message payload as is: discord.py's View would refuse to build some of the
    broken layouts we need, and a real bot can still send them through raw calls."""
    params = MultipartParameters(payload=payload, multipart=None, files=None)
    assert interaction.channel_id is not None
    await interaction.client.http.send_message(interaction.channel_id, params=params)


class AskModal(discord.ui.Modal, title="Name your team"):
    team = discord.ui.TextInput(label="Team name", custom_id="team", max_length=30)
    motto = discord.ui.TextInput(
        label="Motto", custom_id="motto", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Team {self.team.value} registered. Motto: {self.motto.value or '(none)'}"
        )


class DeferringModal(discord.ui.Modal, title="Your bid"):
    bid = discord.ui.TextInput(label="Bid", custom_id="bid", max_length=3)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        # defer() on a modal submit is a deferred update (type 6), then a private followup
        await interaction.response.defer()
        await interaction.followup.send(f"Bid {self.bid.value} sealed", ephemeral=True)


class TooLongTitleModal(discord.ui.Modal, title="x" * 46):
    answer = discord.ui.TextInput(label="Answer", custom_id="answer")


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="misbehave:pick",
        placeholder="Pick a facing",
        options=[discord.SelectOption(label=name, value=name[0]) for name in ("North", "East")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)

    @discord.ui.select(
        cls=discord.ui.UserSelect, custom_id="misbehave:player", placeholder="Pick a player", row=1
    )
    async def player(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
        chosen = select.values[0]
        await interaction.response.send_message(f"You chose {chosen.display_name}", ephemeral=True)

    @discord.ui.button(label="Ask", custom_id="misbehave:ask", row=2)
    async def ask(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(AskModal())

    @discord.ui.button(label="Count", custom_id="misbehave:count", row=2)
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        # deferred update, then edit the clicked message: the common "slow move" pattern
        await interaction.response.defer()
        await asyncio.sleep(0.1)
        clicks = int((interaction.message.content or "0").split()[-1]) + 1
        await interaction.message.edit(content=f"Clicks: {clicks}")


class ScoreLayout(discord.ui.LayoutView):
    """Components V2: a container with a text display and a button row."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        row: discord.ui.ActionRow = discord.ui.ActionRow()
        button: discord.ui.Button = discord.ui.Button(label="Next", custom_id="layout:next")
        button.callback = self.next_clicked
        row.add_item(button)
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("Score 1-0"), row))

    async def next_clicked(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Next period", ephemeral=True)


def _card_files() -> list[discord.File]:
    return [
        discord.File(io.BytesIO(_board_png(80, 60)), "board.png"),
        discord.File(io.BytesIO(_board_png(32, 32)), "crest.png"),
        discord.File(io.BytesIO(b"1. c4 N\n2. d5 E\n"), "moves.txt"),
    ]


class MatchCard(discord.ui.LayoutView):
    """Components V2 the way a live match card is built: a coloured container holding a
    section (text beside a thumbnail), a gallery, a file, a separator, a section with a
    button beside it, and a row with a select; every image and file an upload referenced by
    attachment://NAME. A click or a pick redraws the card in place."""

    def __init__(self, score: str = "0-0", picked: str = "none") -> None:
        super().__init__(timeout=None)
        pick: discord.ui.Select = discord.ui.Select(
            custom_id="card:pick",
            placeholder="Pick a square",
            options=[discord.SelectOption(label=f"Square {n}", value=f"s{n}") for n in (1, 2, 3)],
        )
        pick.callback = self.picked
        goal: discord.ui.Button = discord.ui.Button(label="Goal", custom_id="card:goal")
        goal.callback = self.goal
        row: discord.ui.ActionRow = discord.ui.ActionRow(pick)
        self.add_item(
            discord.ui.Container(
                discord.ui.Section(
                    discord.ui.TextDisplay(f"## Score {score}"),
                    discord.ui.TextDisplay(f"Picked: {picked}"),
                    accessory=discord.ui.Thumbnail("attachment://crest.png"),
                ),
                discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
                discord.ui.File("attachment://moves.txt"),
                discord.ui.Separator(),
                discord.ui.Section(discord.ui.TextDisplay("Score a goal"), accessory=goal),
                row,
                accent_colour=discord.Colour(0x2E86DE),
            )
        )

    async def goal(self, interaction: discord.Interaction) -> None:
        # type 7: the card redrawn through the interaction response, its files kept
        await interaction.response.edit_message(view=MatchCard("1-0"))

    async def picked(self, interaction: discord.Interaction) -> None:
        # deferred update, then an edit of the original response (PATCH .../@original)
        await interaction.response.defer()
        choice = interaction.data["values"][0]  # type: ignore[index,typeddict-item]
        await interaction.edit_original_response(view=MatchCard("0-0", choice))
        note = discord.ui.LayoutView()
        note.add_item(discord.ui.TextDisplay(f"{interaction.user.name} picked {choice}"))
        await interaction.followup.send(view=note)  # a v2 followup (POST /webhooks/...)


FACINGS = ["North", "East", "South", "West"]


class Misbehave(commands.Cog):
    misbehave = app_commands.Group(name="misbehave", description="Test-only: break the rules")
    # Components V2 messages (a group of their own: a group holds at most 25 subcommands)
    cards = app_commands.Group(name="cards", description="Test-only: components-v2 messages")
    deep = app_commands.Group(name="deep", description="A subcommand group", parent=misbehave)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.heard: str | None = None

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.bot.user:
            self.heard = message.content

    @misbehave.command(name="heard", description="What the last user message said")
    async def heard_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"heard={self.heard!r}", ephemeral=True)

    @misbehave.command(name="long", description="Reply with 2001 characters")
    async def long(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    @misbehave.command(name="late", description="Reply after Discord's 3 seconds")
    async def late(self, interaction: discord.Interaction) -> None:
        # The bot's gate acknowledges whatever waits (ui/timely.py), and an answer begun late
        # follows an acknowledgement; this command misbehaves on purpose, past both (discord.py's
        # own response, not the gate's), to show the fake refuses a first response after
        # Discord's 3 s.
        response = interaction.response
        watch = getattr(response, "_watch", None)
        if watch is not None:
            watch.cancel()
        await asyncio.sleep(3.3)
        await discord.InteractionResponse.send_message(response, "Sorry, I was busy")

    @misbehave.command(name="twice", description="Respond twice to one interaction")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        # discord.py itself refuses a second response; forget the first to reach Discord
        interaction.response._response_type = None
        await interaction.response.send_message("second")

    @misbehave.command(name="custom-id", description="A button whose custom_id is 101 chars")
    async def custom_id(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Too long", custom_id="g" * 101))
        await interaction.response.send_message("Click me", view=view)

    @misbehave.command(name="embeds", description="Embeds over 6000 characters in all")
    async def embeds(self, interaction: discord.Interaction) -> None:
        embeds = [discord.Embed(title=f"Part {n}", description="y" * 4000) for n in range(2)]
        await interaction.response.send_message(embeds=embeds)

    @misbehave.command(name="wide-row", description="Six buttons in one action row")
    async def wide_row(self, interaction: discord.Interaction) -> None:
        buttons = [
            {"type": 2, "style": 1, "label": str(n), "custom_id": f"wide:{n}"} for n in range(6)
        ]
        await _raw_channel_message(
            interaction, {"content": "Too wide", "components": [{"type": 1, "components": buttons}]}
        )
        await interaction.response.send_message("posted", ephemeral=True)

    @misbehave.command(name="bad-modal", description="Open a modal with a 46-character title")
    async def bad_modal(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(TooLongTitleModal())

    @misbehave.command(name="files", description="Attach eleven files")
    async def files(self, interaction: discord.Interaction) -> None:
        files = [discord.File(io.BytesIO(b"x"), filename=f"f{n}.txt") for n in range(11)]
        await interaction.response.send_message("files", files=files)

    @misbehave.command(name="big-upload", description="Upload 26 MiB")
    async def big_upload(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        data = io.BytesIO(b"\0" * (26 * 1024 * 1024))
        await interaction.followup.send("big", file=discord.File(data, filename="big.bin"))

    @misbehave.command(name="silent-defer", description="Defer and never follow up")
    async def silent_defer(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)

    @misbehave.command(name="unknown-route", description="Call a route the fake lacks")
    async def unknown_route(self, interaction: discord.Interaction) -> None:
        route = Route("GET", "/guilds/{guild_id}/bans", guild_id=interaction.guild_id)
        with contextlib.suppress(discord.NotFound):
            await interaction.client.http.request(route)
        await interaction.response.send_message("asked", ephemeral=True)

    @misbehave.command(name="die", description="Answer, then end the process")
    async def die(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("goodbye")
        os._exit(3)  # a hard crash: no cleanup, no log line

    @deep.command(name="countdown", description="Answer, then edit the answer later")
    async def countdown(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Kick-off in 2")
        await asyncio.sleep(0.3)
        await interaction.edit_original_response(content="Kick-off in 1")
        await asyncio.sleep(0.3)
        await interaction.edit_original_response(content="Kick-off!")

    @misbehave.command(name="crash", description="Raise an unexpected error")
    async def crash(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("the misbehaving cog crashed on purpose")

    # --- well-behaved paths the harness must support ------------------------------------------

    @misbehave.command(name="deferred", description="Defer, then follow up")
    async def deferred(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await asyncio.sleep(0.2)
        await interaction.followup.send("Done thinking")

    @app_commands.command(name="parts", description="An answer in two messages, busy between")
    async def parts(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your team sheet", ephemeral=True)
        # what a bot on a busy machine is between its two sends: its event loop held, as by
        # the work of building the second (time.sleep, not asyncio.sleep, on purpose)
        time.sleep(0.3)
        await interaction.followup.send("Its menus", ephemeral=True)

    @app_commands.command(
        name="deferred-busy", description="Defer, post elsewhere meanwhile, then follow up"
    )
    async def deferred_busy(self, interaction: discord.Interaction) -> None:
        # another match finishing in the same channel while this command thinks
        await interaction.response.defer(thinking=True)
        await interaction.channel.send("Another match ended meanwhile")  # type: ignore[union-attr]
        await asyncio.sleep(0.2)
        await interaction.followup.send("Your match starts")

    @misbehave.command(name="deferred-edit", description="Defer, then edit the original")
    async def deferred_edit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.2)
        await interaction.edit_original_response(
            content="Here is the board",
            attachments=[discord.File(io.BytesIO(_board_png()), "board.png")],
        )

    @misbehave.command(name="image", description="Reply with a PNG in an embed")
    async def image(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(_board_png(80, 60)), "board.png")
        )

    @misbehave.command(name="widgets", description="A select and buttons")
    async def widgets(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Clicks: 0", view=PickView())

    @misbehave.command(name="layout", description="A components-v2 message")
    async def layout(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=ScoreLayout())

    @cards.command(name="card", description="A components-v2 match card with files")
    async def card(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=MatchCard(), files=_card_files())

    @cards.command(name="post", description="A components-v2 card posted, then edited")
    async def card_post(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        message = await channel.send(view=MatchCard(), files=_card_files())
        await message.edit(view=MatchCard("2-1"))

    @cards.command(name="long", description="Text displays over 4000 in all")
    async def long_card(self, interaction: discord.Interaction) -> None:
        view = discord.ui.LayoutView()
        for _ in range(3):
            view.add_item(discord.ui.TextDisplay("x" * 1500))
        await interaction.response.send_message(view=view)

    @cards.command(name="lost-file", description="A gallery naming a file never uploaded")
    async def lost_file(self, interaction: discord.Interaction) -> None:
        view = discord.ui.LayoutView()
        view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://gone.png")))
        await interaction.response.send_message(view=view)

    @misbehave.command(name="echo", description="Echo typed options back")
    @app_commands.describe(
        player="Someone", count="A number", where="A channel", flag="A flag", picture="A file"
    )
    async def echo(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        count: app_commands.Range[int, 1, 10],
        where: discord.TextChannel | None = None,
        flag: bool = False,
        picture: discord.Attachment | None = None,
    ) -> None:
        size = ""
        if picture is not None:
            image = Image.open(io.BytesIO(await picture.read()))
            size = f" picture={image.width}x{image.height}"
        await interaction.response.send_message(
            f"player={player.display_name} count={count} "
            f"where={where.name if where else None} flag={flag}{size}"
        )

    @misbehave.command(name="ask", description="Open a modal from a slash command")
    async def ask(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(DeferringModal())

    @misbehave.command(name="facing", description="Autocomplete a facing")
    async def facing(self, interaction: discord.Interaction, facing: str) -> None:
        await interaction.response.send_message(f"Facing {facing}")

    @facing.autocomplete("facing")
    async def facing_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if current == "many":  # too many suggestions: Discord allows 25
            return [app_commands.Choice(name=f"c{n}", value=f"c{n}") for n in range(26)]
        return [
            app_commands.Choice(name=name, value=name)
            for name in FACINGS
            if name.lower().startswith(current.lower())
        ]

    @misbehave.command(name="perms", description="What may the bot do here?")
    async def perms(self, interaction: discord.Interaction) -> None:
        granted = interaction.app_permissions
        cached = interaction.channel.permissions_for(interaction.guild.me)
        await interaction.response.send_message(
            f"app attach_files={granted.attach_files} send={granted.send_messages}; "
            f"cached attach_files={cached.attach_files}"
        )

    @deep.command(name="lookup", description="Fetch a user, a member, a channel, the commands")
    async def lookup(self, interaction: discord.Interaction, player: discord.User) -> None:
        user = await self.bot.fetch_user(player.id)
        member = await interaction.guild.fetch_member(player.id)
        assert interaction.channel_id is not None
        channel = await self.bot.fetch_channel(interaction.channel_id)
        synced = await self.bot.tree.fetch_commands()
        await interaction.response.send_message(
            f"user={user.name} member={member.display_name} channel={getattr(channel, 'name', None)} "
            f"commands={sorted(command.name for command in synced)}"
        )

    @misbehave.command(name="thread", description="Open a match thread and DM the user")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Match starting")
        message = await interaction.original_response()
        thread = await message.create_thread(name="Match 1")
        await thread.add_user(interaction.user)
        turn = await thread.send("Turn 1: your move")
        await turn.add_reaction("🏁")
        await interaction.user.send("Your hand: 3 cards")


async def setup(bot: commands.Bot) -> None:
    bot.add_view(PickView())
    await bot.add_cog(Misbehave(bot))
