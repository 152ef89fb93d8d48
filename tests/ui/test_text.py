"""ui.text: escaping user text costs time in proportion to its length, whatever it holds (it
runs on the event loop: a pattern that backtracks over a long run would stall every server)."""

from __future__ import annotations

import time

import pytest

from ui.text import FENCE, Markup, bold, item, packed, shown

# Inputs that make a backtracking pattern retry from every position: long runs of what a
# pattern's repeated part accepts, with nothing after them that lets it match.
RUNS = {
    "one long word": "a",
    "blank lines": "\n",
    "indented blank lines": " \n",
    "spaces": " ",
    "digits": "1",
    "scheme-like": "a:",
    "slashes": ":/",
    "brackets": "[",
    "angles": "<",
    "mentions": "@",
}


def cost(text: str) -> float:
    """CPU seconds of shown(text), the least of a few tries (less sensitive to other load on
    the machine than one wall-clock reading)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(5):
            shown(text)
        best = min(best, time.process_time() - start)
    return max(best, 1e-6)


@pytest.mark.parametrize("unit", RUNS.values(), ids=RUNS.keys())
def test_escaping_is_linear_in_the_input(unit):
    """Four times the text costs about four times the time (a quadratic pattern: sixteen); the
    margin is wide so load on the machine cannot fail it."""
    small = unit * (8000 // len(unit))
    ratio = cost(small * 4) / cost(small)
    assert ratio < 8, f"4x the text took {ratio:.1f}x the time"


def test_lines_are_packed_into_messages_a_code_block_closed_and_reopened_at_a_cut() -> None:
    fence = Markup(FENCE)  # the bot's own code block; a fence a user typed is shown as text
    lines = ["Standings", fence] + [f"row {i:03d} " + "x" * 40 for i in range(100)] + [fence]
    messages = packed(lines, 500)
    assert len(messages) > 1
    assert all(len(m) <= 500 for m in messages)
    for message in messages:
        assert message.count("```") == 2
    assert "\n".join(messages).count("row ") == 100  # every line, none cut
    assert packed(["", fence, fence, " "]) == []  # nothing but blanks and fences: no message


# A name a user typed that would be markdown, a mention, a link and a list if shown raw.
TYPED = "**Boss** <@123> @everyone [x](https://e.vil) `code`"


def shows_as_text(message: str) -> None:
    """Nothing of TYPED in `message` is markdown, a mention or a link."""
    assert "<" not in message.replace("\\<", "") and "@everyone" not in message  # no mention
    assert "](" not in message.replace("\\](", "") and "https://" not in message  # no link
    for mark in ("**", "`"):
        assert mark not in message.replace("\\" + mark[0], "")


def test_a_typed_name_is_text_through_the_one_path_the_bots_markup_as_it_is() -> None:
    """Every way the toolkit puts a name in a message (shown, a bold heading, a list item, the
    packed lines of an answer) shows it through one escape; the bot's own markdown around it
    (Markup) is kept, and a name shown twice is escaped once."""
    name = shown(TYPED)
    assert shown(name) == name
    heading = bold(TYPED)
    assert heading == f"**{name}**"
    assert item(TYPED) == f"- {name}"
    [message] = packed([heading, TYPED, item(TYPED), Markup("Send `/volleyball orders send`.")])
    assert message.split("\n") == [
        f"**{name}**",
        name,
        f"- {name}",
        "Send `/volleyball orders send`.",
    ]
    shows_as_text(message.replace(f"**{name}**", name).replace("`/volleyball orders send`", ""))
