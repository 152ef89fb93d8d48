"""`/rocketball rules`: the rules page (docs/rules/rocketball.md) shown in Discord as topics, so
the page and what players read in Discord come from one source and never drift apart.

Each `## ` section is a topic; the rulings table is split into one topic per variant (the rows
whose clause names it) plus the general rulings; a table row reads "**clause**: ruling".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "rocketball.md"
PAGE_LIMIT = 3900  # an embed description holds 4,096 characters
VARIANT_TOPICS = (
    ("Bumpers", ("bumper",)),
    ("Twisters", ("twister",)),
    ("Gusts", ("gust",)),
    ("Barricades", ("barricade",)),
    ("Moguls", ("mogul",)),
    ("Djinns", ("djinn",)),
    ("Tug-of-War", ("tug-of-war",)),
    ("Assault!", ("assault",)),
    ("Drifting Winds", ("drifting winds",)),
)


@dataclass(frozen=True)
class Topic:
    name: str
    pages: tuple[str, ...]


def _table_row(line: str) -> str | None:
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) != 2 or set(cells[0]) <= {"-", " "} or cells[0] == "Clause":
        return None
    return f"**{cells[0]}**: {cells[1]}"


LINE_STARTS = ("- ", "* ", "|", "#", *(f"{n}." for n in range(1, 10)))


def unwrap(text: str) -> str:
    """Join the page's hard-wrapped lines into paragraphs: Discord keeps every line break, which
    reads badly on a phone. List items and bold labels still start their own line."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        label = line.startswith("**") and lines and lines[-1].endswith((".", ":"))
        continues = lines and lines[-1] and line and not line.startswith(LINE_STARTS) and not label
        if continues and not lines[-1].startswith("|"):
            lines[-1] += " " + line
        else:
            lines.append(line)
    return "\n".join(lines)


def _pages(text: str) -> tuple[str, ...]:
    """Cut a topic into embed-sized pages at line ends."""
    pages, current = [], ""
    for line in unwrap(text).strip().splitlines():
        if current and len(current) + len(line) + 1 > PAGE_LIMIT:
            pages.append(current.rstrip())
            current = ""
        current += line[:PAGE_LIMIT] + "\n"
    if current.strip():
        pages.append(current.rstrip())
    return tuple(pages)


def parse_topics(markdown: str) -> list[Topic]:
    sections = re.split(r"^## ", markdown, flags=re.M)
    intro, rest = sections[0], sections[1:]
    topics = [Topic("Overview", _pages(re.sub(r"^# .*\n", "", intro)))]
    variant_text: dict[str, str] = {}  # a variant's description, from the Variants section
    for section in rest:
        title, _, body = section.partition("\n")
        if title.strip() == "Variants":
            intro, *parts = re.split(r"^### ", body, flags=re.M)
            topics.append(Topic("Variants", _pages(intro)))
            for part in parts:
                name, _, text = part.partition("\n")
                variant_text[name.strip()] = text.strip()
            continue
        rows = [row for row in map(_table_row, body.splitlines()) if row]
        if not rows:
            topics.append(Topic(title.strip(), _pages(body)))
            continue
        general = []
        by_variant: dict[str, list[str]] = {name: [] for name, _ in VARIANT_TOPICS}
        for row in rows:
            clause = row.split("**:", 1)[0].lower()
            owners = [name for name, words in VARIANT_TOPICS if any(w in clause for w in words)]
            for owner in owners:
                by_variant[owner].append(row)
            if not owners:
                general.append(row)
        topics.append(Topic("Rulings", _pages("\n".join(general))))
        topics += [
            Topic(
                f"Variant: {name}",
                _pages("\n\n".join([variant_text.get(name, ""), "**Rulings**", *lines])),
            )
            for name, lines in by_variant.items()
            if lines or variant_text.get(name)
        ]
    return [topic for topic in topics if topic.pages]


@cache
def topics() -> tuple[Topic, ...]:
    return tuple(parse_topics(RULES_PAGE.read_text(encoding="utf-8")))


def find(name: str | None) -> Topic:
    """The topic whose name starts with or contains `name` (the overview when none is asked)."""
    if not name:
        return topics()[0]
    wanted = name.strip().lower()
    for topic in topics():
        if topic.name.lower() == wanted:
            return topic
    for topic in topics():
        if wanted in topic.name.lower():
            return topic
    return topics()[0]
