"""The rules in Discord: one embed per topic page, a select to change topic and buttons to turn
pages, all persistent (DynamicItems) so an old rules message keeps working after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from cogs.common import report_error
from cogs.rocketball import rules_pages
from cogs.rocketball.adapter import COLOUR


def rules_message(topic_name: str, page: int) -> dict[str, Any]:
    topics = rules_pages.topics()
    topic = rules_pages.find(topic_name)
    index = topics.index(topic)
    page = max(0, min(page, len(topic.pages) - 1))
    embed = discord.Embed(
        title=f"Rocketball rules: {topic.name}", description=topic.pages[page], colour=COLOUR
    )
    footer = "Pick a topic below: the base game, each variant, the rulings."
    if len(topic.pages) > 1:
        footer = f"Page {page + 1} of {len(topic.pages)} · " + footer
    embed.set_footer(text=footer)
    view = discord.ui.View(timeout=None)
    view.add_item(RulesTopicSelect(index))
    if len(topic.pages) > 1:
        view.add_item(RulesPageButton(index, page - 1, "Previous", disabled=page == 0))
        view.add_item(
            RulesPageButton(index, page + 1, "Next", disabled=page == len(topic.pages) - 1)
        )
    return {"embed": embed, "view": view}


class RulesTopicSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"rkt-rules:topic"):
    def __init__(self, current: int = 0) -> None:
        topics = rules_pages.topics()[:25]
        super().__init__(
            discord.ui.Select(
                custom_id="rkt-rules:topic",
                placeholder="Choose a topic",
                options=[
                    discord.SelectOption(label=t.name[:100], value=str(i), default=i == current)
                    for i, t in enumerate(topics)
                ],
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            index = int((interaction.data or {}).get("values", ["0"])[0])
            topics = rules_pages.topics()
            name = topics[index].name if 0 <= index < len(topics) else ""
            await interaction.response.edit_message(**rules_message(name, 0))
        except Exception as error:
            await report_error(interaction, error)


class RulesPageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rkt-rules:(?P<topic>\d+):(?P<page>-?\d+)",
):
    def __init__(self, topic: int, page: int, label: str = "Page", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"rkt-rules:{topic}:{page}",
                disabled=disabled,
            )
        )
        self.topic, self.page = topic, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["topic"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            topics = rules_pages.topics()
            name = topics[self.topic].name if 0 <= self.topic < len(topics) else ""
            await interaction.response.edit_message(**rules_message(name, self.page))
        except Exception as error:
            await report_error(interaction, error)


async def rules_topic_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    wanted = current.strip().lower()
    return [
        app_commands.Choice(name=t.name[:100], value=t.name[:100])
        for t in rules_pages.topics()
        if wanted in t.name.lower()
    ][:25]
