"""The worst uploads the size limit lets through (100 KB of one word, 100 KB on one line) are
refused at once, with what they repeat of the file cut short, and the bot answers everyone
else meanwhile: the refusal is built and escaped in time proportional to the file (ui.text,
rules.errors.echoed), never by retrying a pattern over the whole text on the event loop.
"""

from __future__ import annotations

import asyncio

import pytest

from fakediscord import Upload
from ui.uploads import MAX_UPLOAD_BYTES

pytestmark = pytest.mark.e2e

WORD = "a" * (MAX_UPLOAD_BYTES - 100)  # one long word: every pattern's worst case
BUDGET = 10  # seconds: the driver's default wait, and well below an interaction's 15 minutes
ROSTER = "\n".join(
    f"{name} {levels}"
    for name, levels in zip(
        ["Ann Ek", "Bo Lund", "Cid Berg", "Dan Holm", "Eva Sand", "Fay Dahl", "Gus Falk"],
        ["A 12 8", "B 6 6", "B 5 3", "C 7 7", "C 11 7", "D 9 15", "E 3 6"],
        strict=True,
    )
)


def everything(reply) -> str:
    """What the user gets: every message's text and every text attachment."""
    texts = [reply.text, *(m.text for m in reply.followups)]
    for message in (reply, *reply.followups):
        texts += [a.data.decode() for a in message.attachments if a.filename.endswith(".txt")]
    return "\n".join(texts)


def assert_echo_capped(reply) -> None:
    text = everything(reply)
    assert "a" * 100 not in text, f"the refusal repeats {text.count('a')} letters of the file"
    assert len(text) < 4000, len(text)


async def test_a_one_word_roster_header_is_refused_at_once(discord, carol, dave):
    upload = discord.slash(
        "rollerball2 team import",
        user=carol,
        name="Longword",
        file=Upload("long.csv", WORD.encode(), "text/csv"),
        timeout=BUDGET,
    )
    refused, other = await asyncio.gather(
        upload, discord.slash("roll", user=dave, settle=False, timeout=BUDGET, notation="d4")
    )
    assert refused.ephemeral and "The roster was not imported" in refused.text
    assert "unknown column(s) 'aaaa" in refused.text  # the start of what was sent
    assert_echo_capped(refused)
    assert other.response_type in (4, 5)  # answered meanwhile


async def test_a_one_line_orders_file_is_refused_at_once(discord, alice, bob, owner, general):
    await discord.slash("volleyball league create", user=owner, name="Long", teams=2)
    form = await discord.slash("volleyball team create", user=alice)
    await discord.submit_modal(form, {"name": "Red Rockets", "players": ROSTER}, user=alice)
    await discord.slash("volleyball league start", user=owner)
    for line in (WORD, "Set 1\n" + WORD, "TRAINING\n" + WORD):
        refused = await discord.slash(
            "volleyball orders upload",
            user=alice,
            file=Upload("orders.txt", line.encode()),
            timeout=BUDGET,
        )
        assert refused.ephemeral and "refused" in refused.text, refused.text[:300]
        assert_echo_capped(refused)
