"""A test-only extension: `/slowanswer` posts a message whose buttons answer with an image after
a wait given in their custom id, the way a game's click answers (its card redrawn in place,
through ui.replies.edit_clicked, or a private message with an image): what a click that waited
for a lock, a database or a busy event loop does once its answer is drawn. Loaded with
EXTRA_EXTENSIONS; never shipped.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

from render.common import GREEN, ORANGE, to_png
from ui.replies import edit_clicked

IMAGE_SIDE = 256


def _image() -> discord.File:
    image = Image.new("RGB", (IMAGE_SIDE, IMAGE_SIDE), ORANGE)
    image.paste(GREEN, (0, 0, IMAGE_SIDE // 2, IMAGE_SIDE))
    return discord.File(io.BytesIO(to_png(image)), filename="board.png")


def buttons(delay: float) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Redraw", custom_id=f"slowanswer:edit:{delay}"))
    view.add_item(discord.ui.Button(label="Show me", custom_id=f"slowanswer:send:{delay}"))
    return view


class SlowAnswerCog(commands.Cog):
    @app_commands.command(name="slowanswer", description="Test only: buttons answering late")
    async def post(self, interaction: discord.Interaction, delay: float) -> None:
        await interaction.response.send_message("Press a button", view=buttons(delay))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        custom_id = (interaction.data or {}).get("custom_id", "")
        found = re.fullmatch(r"slowanswer:(edit|send):([\d.]+)", str(custom_id))
        if found is None:
            return
        delay = float(found[2])
        await asyncio.sleep(delay)
        if found[1] == "edit":
            await edit_clicked(
                interaction, content="Redrawn", attachments=[_image()], view=buttons(delay)
            )
        else:
            await interaction.response.send_message("Yours", file=_image(), ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(SlowAnswerCog())
