"""One validator for every name a user gives, one escape for every name a message shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.names import MAX_NAME, BadName, clean_name, given_name
from ui.text import shown

# Every construct Discord renders in a message, in one name.
HOSTILE = (
    "[x](https://e.vil) @everyone @here **Bold** __u__ *i* ~~s~~ ||spoiler|| `code` ```block``` "
    "<t:1700000000:R> <#123> <@456> <@&789> <:emoji:1> <a:anim:2> # heading"
)


@pytest.mark.parametrize(
    "bad",
    [
        "   ",
        "",
        "\t\n",
        "a\x00b",
        "bell\x07",
        "esc\x1b[31m",
        "abc\u202edcba",
        "zero\u200bwidth",
        "\ufeffbom",
    ],
)
def test_invisible_or_empty_names_are_refused_with_what_is_allowed(bad):
    with pytest.raises(BadName) as caught:
        clean_name(bad, "The league name")
    message = str(caught.value)
    assert message.startswith("The league name")
    assert str(MAX_NAME) in message


def test_a_name_is_trimmed_folded_and_capped():
    assert clean_name("  Red   Sox \n") == "Red Sox"
    assert clean_name("x" * MAX_NAME) == "x" * MAX_NAME
    with pytest.raises(BadName, match="at most"):
        clean_name("x" * (MAX_NAME + 1))
    assert clean_name("Ünïcødé Ñame 東京") == "Ünïcødé Ñame 東京"


def test_a_shown_name_renders_nothing_but_text():
    text = shown(HOSTILE)
    assert "@everyone" not in text and "@here" not in text  # broken by a zero-width space
    assert "<" not in text.replace("\\<", "")  # no mention, channel, emoji or timestamp
    assert "](" not in text.replace("\\](", "")  # no masked link
    assert "https://" not in text  # no bare link either
    for mark in ("**", "__", "~~", "||", "`"):
        assert mark not in text.replace("\\" + mark[0], "")
    assert shown("# heading").startswith("\\#")
    assert shown("> quote").startswith("\\>")
    assert shown("- item").startswith("\\-")
    assert shown("1. item").startswith("1\\.")


def test_a_line_naming_two_hostile_names_renders_nothing_but_text():
    """A line of the bot's own words around two user names (a score line): markdown between
    two link-like names is escaped too (discord.py's escape_markdown takes everything from the
    first `[` to the last `)` as one link and leaves its inside as it is)."""
    line = shown("[x](https://e.vil) @everyone 1, **Bold** [click](https://e.vil) 0.")
    for mark in ("**", "__", "~~", "||", "`"):
        assert mark not in line.replace("\\" + mark[0], "")
    assert "](" not in line.replace("\\](", "") and "https://" not in line
    assert shown("*a [b] c*").count("\\*") == 2


def test_a_display_name_keeps_what_is_visible_of_it():
    """Discord's names are not refused (the user did not type them here) but held to the same
    rule: what clean_name would refuse is dropped."""
    assert given_name("\u202eRuth\u200b  Evil\u2066", "x") == "Ruth Evil"
    assert clean_name(given_name("\u202eRuth\u200b  Evil", "x")) == "Ruth Evil"
    assert given_name("\u200b\u200d \u202e", "the coach") == "the coach"


def test_every_display_name_from_discord_goes_through_the_one_cleaner():
    """A member's display name is read in ui.text.display_name only (a command parameter's
    display_name is the bot's own text)."""
    root = Path(__file__).resolve().parents[2]
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for folder in ("cogs", "host", "ui", "render", "db")
        for path in (root / folder).rglob("*.py")
        if path != root / "ui" / "text.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"(?<!\bp)\.(display_name|global_name|nick)\b", line)
    ]
    assert offenders == []
