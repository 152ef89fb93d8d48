"""The Rollerball secret bid, tested the strong way (docs/rules/rollerball.md "Hidden information
and fair dice"): the same seeded table is played twice through the fake Discord, the two runs
differing only in how many cards Alice bids. Until the bids are revealed, everything every other
seat and a spectator can see is identical in both runs, byte for byte: the messages in the
channel and the thread (the live card as it is redrawn, its board image), their own panels with
their hand images, every answer they get (a refusal, the record, a fresh card).

Two things differ between the runs whatever the bid, and are put aside: Discord's ids (they
carry the moment they were made) and the dice commitment (a hash with a random salt, published
before anyone bids).
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from tests.e2e.cards import current_card, posted

pytestmark = pytest.mark.e2e

SNOWFLAKE = re.compile(r"\b\d{15,21}\b")
# the whole hash, or its first 16 digits where a message gives the short line ("abcd…")
COMMITMENT = re.compile(r"\b[0-9a-f]{64}\b|\b[0-9a-f]{16}(?=\\u2026|…)")
TIMESTAMP = re.compile(r"<t:\d+(:[tTdDfFR])?>")


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "2020"}


def seen(message) -> dict:
    """A message as a user sees it: its text, its controls, its files."""
    return {
        "text": message.text,
        "flags": message.flags,
        "controls": [(b.label, b.custom_id, b.disabled, b.style) for b in message.buttons]
        + [
            (s.placeholder, s.custom_id, [(o.label, o.value) for o in s.options])
            for s in message.selects
        ],
        # images by their bytes; a text file (the record) by its text, whose commitment is
        # put aside like the messages'
        "files": [
            (
                a.filename,
                a.data.decode()
                if a.filename.endswith(".txt")
                else hashlib.blake2b(a.data, digest_size=20).hexdigest(),
            )
            for a in message.attachments
        ],
    }


class Observer:
    """What one user has seen, step by step: every message of the channels watched that they
    can see (the public ones and their own ephemeral ones), as they are at each step."""

    def __init__(self, discord, user, marker: int) -> None:
        self.discord, self.user, self.marker = discord, user, marker
        self.steps: list[list[dict]] = []

    def look(self, channels) -> None:
        fake = self.discord.fake

        def ids() -> list[int]:
            return [
                message_id
                for channel in channels
                for message_id in fake.channel_messages.get(channel.id, [])
                if message_id > self.marker
                and not fake.message_meta[message_id].deleted
                and fake.message_meta[message_id].ephemeral_for in (None, self.user.id)
            ]

        self.steps.append([seen(self.discord.message(i)) for i in fake.call_sync(ids)])

    def normalised(self) -> str:
        """The steps, with ids renamed in order of appearance and the commitment put aside."""
        text = COMMITMENT.sub("<commitment>", json.dumps(self.steps, sort_keys=True))
        text = TIMESTAMP.sub("<t>", text)
        names: dict[str, str] = {}
        return SNOWFLAKE.sub(lambda m: names.setdefault(m[0], f"<id{len(names)}>"), text)


async def until_the_reveal(discord, bot, users, general, alice_bids: int) -> dict[str, str]:
    """A table of Alice, Bob, Carol and a computer, until just before the last bid; Dave
    watches. Returns what each saw."""
    alice, bob, carol, dave = users
    existing = discord.channel_messages(general)
    marker = existing[-1].id if existing else 0
    watchers = {u.name: Observer(discord, u, marker) for u in (alice, bob, carol, dave)}
    channels = [general]

    game_id = 0

    async def look() -> None:
        """Once the bot has shown everything of the last action (tests/e2e/cards.py `posted`)."""
        if game_id:
            await posted(bot, game_id)
        for watcher in watchers.values():
            watcher.look(channels)

    lobby = await discord.slash("rollerball new", user=alice, channel=general, players=4)
    await discord.click(lobby, "Join", user=bob)
    await discord.click(lobby, "Join", user=carol)
    await discord.click(lobby, "Add computer", user=alice)
    await discord.click(lobby, "Start", user=alice)
    thread = await discord.wait_for_thread(general)
    channels.append(thread)
    game_id = int(thread.name.split("#")[1])
    card = await current_card(discord, bot, thread, game_id)
    await look()
    bob_panel = await discord.click(card, "My hand", user=bob)
    await look()

    # Alice bids in secret on her panel: the only difference between the runs.
    panel = await discord.click(card, "My hand", user=alice)
    menu = panel.select("Pick the cards to bid")
    chosen = [option.value for option in menu.options[:alice_bids]]
    await discord.select(panel, menu.custom_id, chosen, user=alice)
    card = await current_card(discord, bot, thread, game_id)
    await look()

    # The others look at everything they can: the card, their panels, a spectator's commands.
    second = await discord.click(card, "My hand", user=bob)
    # his first panel gives up its controls to the new one (an edit after the answer)
    await discord.wait_for_edit(bob_panel, lambda m: "moved to a newer message" in m.text)
    await look()
    await discord.slash("rollerball hand", user=carol, channel=thread)
    await look()
    refused = await discord.click(card, "My hand", user=dave)
    assert refused.ephemeral and "only its players have a hand" in refused.text
    await discord.slash("rollerball record", user=dave, channel=thread, match_id=game_id)
    await discord.slash("rollerball board", user=dave, channel=thread)
    card = await current_card(discord, bot, thread, game_id)
    await look()
    # Bob bids two cards on a new panel (the one before, retired, points to it); Carol's bid
    # would reveal them all.
    newest = await discord.click(card, "My hand", user=bob)
    await discord.wait_for_edit(second, lambda m: "moved to a newer message" in m.text)
    menu = newest.select("Pick the cards to bid")
    await discord.select(newest, menu.custom_id, [o.value for o in menu.options[:2]], user=bob)
    card = await current_card(discord, bot, thread, game_id)
    await look()
    assert "Bob has bid." in card.text and "Bids:" not in card.text
    return {name: watcher.normalised() for name, watcher in watchers.items()}


async def test_what_the_others_see_is_the_same_whatever_one_players_secret_bid(
    discord, bot, alice, bob, carol, dave, general
):
    users = (alice, bob, carol, dave)
    one = await until_the_reveal(discord, bot, users, general, alice_bids=1)
    # the same table again from scratch: a new database, the same seed
    bot.start_afresh()
    three = await until_the_reveal(discord, bot, users, general, alice_bids=3)
    # the bids did differ: Alice's own panel says so
    assert (
        "Your secret bid: 1 card" in one["alice"] and "Your secret bid: 3 cards" in three["alice"]
    )
    for name in ("bob", "carol", "dave"):
        assert one[name] == three[name], f"{name} could tell how many cards Alice bid"
    assert "hand.png" in one["bob"] and "board.png" in one["dave"]
