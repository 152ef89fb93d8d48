"""The bare-edit floor of bench/busy_matches.py: loaded into the bot only by that benchmark
(EXTRA_EXTENSIONS=bench.bare_edit), never shipped, no command or setting reaches it.

A click on a match's move button ("Roll the d4"; Rollerball's "Pass"; Rollerball II's "Next
card") is answered by editing its card to the same layout read back from the message, plus the
line "rolls d4", with images of the usual size for the game (bench/fixed_turn_image.py): what any bot on discord.py
pays to answer a click with a new v2 card of these bytes (the interaction's parse, the layout,
the upload, the response), and nothing of the match: no lock, load, engine, save or drawing. The
matches are started by the real bot, so the cards clicked are real ones.

A Rollerball table is clicked through its set-up with the same buttons before it is measured,
so with BENCH_BARE_MARK set (a file's path) a click is answered bare only while that file exists:
the benchmark makes it for the timed clicks alone, and the set-up's moves are the real bot's.
"""

from __future__ import annotations

import io
import os
from typing import Any

import discord


async def setup(bot: Any) -> None:
    from bench.fixed_turn_image import typical_files
    from host.components import MoveButton

    files = typical_files()
    real = MoveButton.act
    mark = os.environ.get("BENCH_BARE_MARK")

    async def bare_edit(self: MoveButton, interaction: discord.Interaction[Any]) -> None:
        if mark and not os.path.exists(mark):  # a set-up's click, not a timed one
            await real(self, interaction)
            return
        assert interaction.message is not None
        view = discord.ui.LayoutView.from_message(interaction.message)
        view.add_item(discord.ui.TextDisplay("rolls d4"))
        await interaction.response.edit_message(
            view=view,
            attachments=[discord.File(io.BytesIO(data), filename=name) for data, name in files],
        )

    MoveButton.act = bare_edit
