"""`/GAME rules`: a game's rules page (docs/rules/GAME.md) shown in Discord, topic by topic, so
the page and what players read in Discord come from one source and never drift apart.

Each `## ` section is a topic (`### ` subsections become topics of their own, named after the
section's `label`, e.g. "Variant: Bumpers"); a Markdown table's row reads "**clause**: ruling".
A game can hand the rows of a rulings table to the subsections they are about (`groups`: a
subsection's name and the words in a clause that name it), so a variant's page carries its own
rulings. The message has a topic menu and page buttons, both DynamicItems, so an old rules
message keeps working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from rules.games import title_of
from ui.items import Control

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
PAGE_LIMIT = 3900  # an embed description holds 4,096 characters
MAX_TOPICS = 25  # a select menu's options
LINE_STARTS = ("- ", "* ", "|", "#")
NUMBERED = re.compile(r"\d+\. ")  # a numbered list's item, 1. to 99.
# A row of a page's Rulings table that has an id an engine's events can name: "| R7. clause | …".
# An item of a page's numbered Rulings list: "7. **clause** what the bot does".
RULING_ITEM = re.compile(r"^(?P<n>\d+)\. \*\*(?P<clause>.+?)\*\*[\s:;,.-]*(?P<text>.*)$")
RULING_ROW = re.compile(r"^\|\s*(?P<id>R\d+)\.\s*(?P<clause>.*?)\s*\|\s*(?P<text>.*?)\s*\|\s*$")
# A ruling named in a section's text, as Rollerball II's page writes them: "*Ruling D7:* text" or
# "*Ruling D1a (the clause):* text", up to the next such ruling or the item's end.
RULING_NAMED = re.compile(
    r"\*Ruling (?P<id>[A-Z]\d+[a-z]?)(?: \((?P<clause>[^)]*)\))?:\*\s*(?P<text>.*?)(?=\s*\*Ruling |$)"
)


@dataclass(frozen=True)
class Topic:
    name: str
    pages: tuple[str, ...]


def unwrap(text: str) -> str:
    """Join the page's hard-wrapped lines into paragraphs: Discord keeps every line break, which
    reads badly on a phone. List items and bold labels still start their own line."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        label = line.startswith("**") and lines and lines[-1].endswith((".", ":"))
        starts = line.startswith(LINE_STARTS) or NUMBERED.match(line)
        continues = lines and lines[-1] and line and not starts and not label
        if continues and not lines[-1].startswith("|"):
            lines[-1] += " " + line
        else:
            lines.append(line)
    return "\n".join(lines)


def pages_of(text: str) -> tuple[str, ...]:
    """Cut a topic into embed-sized pages at line ends; table rows become "**clause**: text"."""
    pages, current = [], ""
    for raw in unwrap(text).strip().splitlines():
        line = table_row(raw) if raw.startswith("|") else raw
        if line is None:
            continue
        if current and len(current) + len(line) + 1 > PAGE_LIMIT:
            pages.append(current.rstrip())
            current = ""
        current += line[:PAGE_LIMIT] + "\n"
    if current.strip():
        pages.append(current.rstrip())
    return tuple(pages)


def table_row(line: str) -> str | None:
    """A Markdown table row as a line; None for the header and the |---| rule."""
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if all(set(cell) <= {"-", ":", " "} for cell in cells):
        return None
    if len(cells) == 2:
        return f"**{cells[0]}**: {cells[1]}"
    return " · ".join(cells)


@dataclass(frozen=True)
class Rulebook:
    game: str  # the game's name in rules/games.py, e.g. "rocketball"
    colour: int = 0x0072B2
    label: dict[str, str] = field(default_factory=dict)  # section -> its subsections' prefix
    # subsection -> the words in a clause of the "Rulings" table that name it
    groups: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def title(self) -> str:
        return title_of(self.game)

    @property
    def path(self) -> Path:
        return DOCS / f"{self.game}.md"

    @cached_property
    def topics(self) -> tuple[Topic, ...]:
        return tuple(self.parse(self.path.read_text(encoding="utf-8"))[:MAX_TOPICS])

    def parse(self, markdown: str) -> list[Topic]:
        intro, *sections = re.split(r"^## ", markdown, flags=re.M)
        owned: dict[str, list[str]] = {name: [] for name, _ in self.groups}
        parsed: list[tuple[str, str, list[tuple[str, str]]]] = []  # title, text, subsections
        for section in sections:
            title, _, body = section.partition("\n")
            lead, *subsections = re.split(r"^### ", body, flags=re.M)
            if not (subsections and title.strip() in self.label):
                lead, subsections = body, []
            kept = []
            rulings = title.strip().startswith("Rulings")
            for line in lead.splitlines():
                owners = self._owners(line) if rulings and line.startswith("|") else []
                for owner in owners:
                    owned[owner].append(line)
                if not owners:
                    kept.append(line)
            subs = [(head, text) for head, _, text in (p.partition("\n") for p in subsections)]
            parsed.append((title.strip(), "\n".join(kept), subs))
        # A topic's name is its heading without a trailing "(...)": menus are narrow.
        topics = [Topic("Overview", pages_of(re.sub(r"^# .*\n", "", intro)))]
        for title, text, subs in parsed:
            topics.append(Topic(re.sub(r"\s*\(.*\)$", "", title), pages_of(text)))
            for name, sub_text in subs:
                parts = [sub_text.strip()]
                if owned.get(name.strip()):
                    parts += ["**Rulings**", "\n".join(owned[name.strip()])]
                topics.append(
                    Topic(f"{self.label[title]}: {name.strip()}", pages_of("\n\n".join(parts)))
                )
        return [topic for topic in topics if topic.pages]

    @cached_property
    def rulings(self) -> dict[str, tuple[str, str]]:
        """The page's rulings an engine's events name, by id: "R7" is the row "R7." of a Rulings
        table, or item 7 of a numbered Rulings list; "D7" a "*Ruling D7 (clause):*" in any
        section's text (without a clause in parentheses, its section's title is the clause);
        each as the clause it reads and what the bot does."""
        markdown = self.path.read_text(encoding="utf-8")
        found: dict[str, tuple[str, str]] = {}
        for line in markdown.split("\n"):
            if row := RULING_ROW.match(line):
                found[row["id"]] = (row["clause"], row["text"])
        for section in re.split(r"^## ", markdown, flags=re.M):
            title = re.sub(r"\s*\(.*\)$", "", section.partition("\n")[0].strip())
            for line in unwrap(section).splitlines():
                if section.startswith("Rulings") and (item := RULING_ITEM.match(line)):
                    found[f"R{item['n']}"] = (item["clause"], item["text"])
                for named in RULING_NAMED.finditer(line):
                    found[named["id"]] = (named["clause"] or title, named["text"])
        return found

    def topic_index(self, name: str) -> int | None:
        """Where the topic called exactly `name` is in the topic menu (None: no such topic)."""
        return next((i for i, topic in enumerate(self.topics) if topic.name == name), None)

    def _owners(self, row: str) -> list[str]:
        """The subsections a rulings-table row is about (by the words in its clause)."""
        clause = row.strip("| ").split("|", 1)[0].lower()
        return [name for name, words in self.groups if any(w in clause for w in words)]

    def find(self, name: str | None) -> Topic:
        """The topic called `name`, or the first whose name contains it (else the overview)."""
        wanted = (name or "").strip().lower()
        if wanted:
            for topic in self.topics:
                if topic.name.lower() == wanted:
                    return topic
            for topic in self.topics:
                if wanted in topic.name.lower():
                    return topic
        return self.topics[0]

    def message(self, topic_name: str | None, page: int = 0) -> dict[str, Any]:
        """The embed for one page of a topic, with the topic menu and page buttons."""
        topic = self.find(topic_name)
        index = self.topics.index(topic)
        page = max(0, min(page, len(topic.pages) - 1))
        embed = discord.Embed(
            title=f"{self.title} rules: {topic.name}",
            description=topic.pages[page],
            colour=discord.Colour(self.colour),
        )
        footer = "Pick a topic below."
        if len(topic.pages) > 1:
            footer = f"Page {page + 1} of {len(topic.pages)} · " + footer
        embed.set_footer(text=footer)
        view = discord.ui.View(timeout=None)
        view.add_item(RulesTopicSelect(self.game, index))
        if len(topic.pages) > 1:
            view.add_item(RulesPageButton(self.game, index, page - 1, "Previous", page == 0))
            last = page == len(topic.pages) - 1
            view.add_item(RulesPageButton(self.game, index, page + 1, "Next", last))
        return {"embed": embed, "view": view}

    def command(self, description: str, example: str) -> app_commands.Command[Any, ..., Any]:
        """The game's `rules` command: this rulebook, privately, at the topic asked for (`example`
        names two topics in the option's help)."""

        async def rules(
            interaction: discord.Interaction, topic: app_commands.Range[str, 0, 60] = ""
        ) -> None:
            await interaction.response.send_message(**self.message(topic), ephemeral=True)

        app_commands.describe(topic=f"A topic, e.g. {example} (default: the overview)")(rules)
        app_commands.autocomplete(topic=self.autocomplete)(rules)
        return app_commands.Command(name="rules", description=description, callback=rules)

    async def autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().lower()
        return [
            app_commands.Choice(name=t.name[:100], value=t.name[:100])
            for t in self.topics
            if wanted in t.name.lower()
        ][:25]


RULEBOOKS: dict[str, Rulebook] = {}


def register(rulebook: Rulebook) -> Rulebook:
    """A game's cog registers its rulebook when it loads (the menus find it by game)."""
    RULEBOOKS[rulebook.game] = rulebook
    return rulebook


def topic_name(game: str, index: int) -> str:
    topics = RULEBOOKS[game].topics
    return topics[index].name if 0 <= index < len(topics) else ""


class RulesTopicSelect(Control[discord.ui.Select], template=r"rules:(?P<game>[a-z0-9]+):topic"):
    def __init__(self, game: str, current: int = 0) -> None:
        topics = RULEBOOKS[game].topics if game in RULEBOOKS else ()
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(game=game),
                placeholder="Choose a topic",
                options=[
                    discord.SelectOption(label=t.name[:100], value=str(i), default=i == current)
                    for i, t in enumerate(topics)
                ]
                or [discord.SelectOption(label="Overview", value="0")],
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(match["game"])

    async def act(self, interaction: discord.Interaction) -> None:
        value = (interaction.data or {}).get("values", ["0"])[0]
        index = int(value) if value.isdigit() else 0
        rulebook = RULEBOOKS[self.game]
        await interaction.response.edit_message(**rulebook.message(topic_name(self.game, index)))


class RulesPageButton(
    Control[discord.ui.Button],
    template=r"rules:(?P<game>[a-z0-9]+):(?P<topic>\d+):(?P<page>-?\d+)",
):
    def __init__(
        self, game: str, topic: int, page: int, label: str = "Page", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(game=game, topic=topic, page=page),
                disabled=disabled,
            )
        )
        self.game, self.topic, self.page = game, topic, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(match["game"], int(match["topic"]), int(match["page"]))

    async def act(self, interaction: discord.Interaction) -> None:
        rulebook = RULEBOOKS[self.game]
        await interaction.response.edit_message(
            **rulebook.message(topic_name(self.game, self.topic), self.page)
        )


DYNAMIC_ITEMS = (RulesTopicSelect, RulesPageButton)
