"""The sandbox page renders what the bot sends as Discord's client does, on a phone (390 px):

- a Components V2 message: the container with its accent bar, a section's text with the
  thumbnail beside it, the gallery, the file, the separator and the button; a click on the
  button sends the interaction, and the card the bot redraws (an update through the interaction
  response) is shown in place, not appended;
- Discord timestamps in the viewer's own time zone (the browser's, here New York);
- a mention of the one using the page highlighted, and counted on its channel until read;
- a menu of several picks closed, one row tall as a menu of one, until a tap opens its sheet;
  closing the sheet sends the picks.

No bot.py here: a few lines of gateway client stand in for the bot (IDENTIFY, heartbeats, and an
UPDATE_MESSAGE answer to each click and pick), so the tests are about the page and the fake only.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import threading
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from PIL import Image

from fakediscord import limits, web
from fakediscord.server import FakeDiscord
from tests.e2e.test_components_v2 import call
from tests.sandbox.conftest import local_page
from tests.sandbox.test_browser import SCREENSHOTS

try:
    from playwright.sync_api import Page, expect
except ImportError:
    if os.environ.get("CI") == "true":
        raise  # under CI a missing browser driver is a failure, never a skip
    pytest.skip(
        "Playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True
    )

WAIT_MS = 10_000
ACCENT = 0x2E86DE


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def card(score: str, note: str) -> dict[str, Any]:
    text = lambda content: {"type": 10, "content": content}  # noqa: E731
    return {
        "flags": limits.FLAG_IS_COMPONENTS_V2,
        "components": [
            {
                "type": 17,
                "accent_color": ACCENT,
                "components": [
                    {
                        "type": 9,
                        "components": [text(f"## Score {score}"), text(note)],
                        "accessory": {"type": 11, "media": {"url": "attachment://crest.png"}},
                    },
                    {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                    {"type": 14, "divider": True, "spacing": 1},
                    {"type": 13, "file": {"url": "attachment://moves.txt"}},
                    {
                        "type": 9,
                        "components": [text("Score a **goal**")],
                        "accessory": {
                            "type": 2,
                            "style": 1,
                            "label": "Goal",
                            "custom_id": "card:goal",
                        },
                    },
                ],
            }
        ],
    }


class StandInBot:
    """Connects to the fake's gateway as a bot would and answers each click on the card with
    an update of the card (interaction response type 7)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.stopping: asyncio.Event | None = None
        self.running: Any = None

    def start(self) -> None:
        self.thread.start()
        self.running = asyncio.run_coroutine_threadsafe(self._run(), self.loop)

    def stop(self) -> None:
        if self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)
        self.running.result(5)  # the websocket closed, the session ended
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    async def _run(self) -> None:
        self.stopping = asyncio.Event()
        async with aiohttp.ClientSession() as http, http.ws_connect(self.fake.gateway_url) as ws:
            await ws.receive_json()  # HELLO
            identify = {"token": self.fake.token, "intents": 0, "properties": {}}
            await ws.send_json({"op": 2, "d": identify})
            receiving = asyncio.ensure_future(self._receive(http, ws))
            await self.stopping.wait()
            receiving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receiving

    async def _receive(self, http: aiohttp.ClientSession, ws: Any) -> None:
        sequence = None
        async for message in ws:
            payload = json.loads(message.data)
            sequence = payload.get("s") or sequence
            if payload["op"] == 1:  # the fake asks for a heartbeat
                await ws.send_json({"op": 1, "d": sequence})
            elif payload.get("t") == "INTERACTION_CREATE":
                data = payload["d"]
                name = data["member"]["user"]["global_name"]
                url = f"{self.fake.api_base}/interactions/{data['id']}/{data['token']}/callback"
                picked = data["data"].get("values")
                if picked is None:
                    body = {"type": 7, "data": card("1-0", f"Goal by {name}")}
                else:  # a menu's picks
                    body = {"type": 7, "data": {"content": f"{name} picked {', '.join(picked)}"}}
                async with http.post(url, json=body) as answer:
                    assert answer.status == 204, await answer.text()


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[FakeDiscord, Any, Any]]:
    fake = FakeDiscord(guild_name="Ballcourt Sandbox")
    alice = fake.add_user("alice")
    fake.add_user("bob")
    general = fake.add_channel("general")
    fake.add_channel("games")
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    bot = StandInBot(fake)
    bot.start()
    fake.call_sync_coroutine(lambda: fake.wait_until(lambda: fake.bot_connected, 5))
    yield fake, alice, general
    bot.stop()
    fake.stop()


@pytest.fixture(scope="module")
def page(chromium_path: str, world, tmp_path_factory) -> Iterator[Page]:
    fake, alice, general = world
    with local_page(
        chromium_path,
        tmp_path_factory.mktemp("chromium-profile"),
        f"http://127.0.0.1:{fake.port}/?user={alice.id}&channel={general.id}",
        viewport={"width": 390, "height": 844},
        timezone_id="America/New_York",
        locale="en-US",
    ) as page:
        yield page


def test_a_v2_card_posted_by_rest_renders_and_its_button_sends_the_click(page: Page, world):
    fake, alice, general = world
    status, posted = call(
        fake,
        "POST",
        f"/channels/{general.id}/messages",
        card("0-0", "Alice to move"),
        files={
            "crest.png": png(64, 64, (46, 134, 222)),
            "board.png": png(800, 480, (240, 140, 40)),
            "moves.txt": b"1. c4 N\n",
        },
    )
    assert status == 200, posted
    message = page.locator(f'#messages .message[data-id="{posted["id"]}"]')
    expect(message).to_be_visible(timeout=WAIT_MS)
    container = message.locator(".v2-container")
    expect(container).to_have_attribute("data-accent", "#2e86de")
    expect(container.locator("h2")).to_have_text("Score 0-0")  # markdown, as everywhere
    expect(container).to_contain_text("Alice to move")
    expect(container.locator(".v2-file")).to_contain_text("moves.txt")
    expect(container.locator(".v2-separator.divider")).to_have_count(1)
    expect(container.locator("strong")).to_have_text("goal")
    # the images are the uploads, loaded from this server: the thumbnail beside the text,
    # the board scaled to the phone's column; no attachment shown twice
    thumbnail = container.locator(".v2-section .v2-accessory img")
    board = container.locator(".v2-gallery img")
    for image in (thumbnail, board):
        expect(image).to_be_visible()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
        )
    expect(message.locator("img")).to_have_count(2)
    text_box = container.locator(".v2-section-text").first.bounding_box()
    thumb_box = thumbnail.bounding_box()
    assert text_box and thumb_box and thumb_box["x"] >= text_box["x"] + text_box["width"] - 1
    column = page.locator("#messages").bounding_box()
    board_box = board.bounding_box()
    assert (
        column
        and board_box
        and board_box["x"] + board_box["width"] <= column["x"] + column["width"]
    )
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 390 px"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "components-v2-390.png"))

    # the click goes to the bot as an interaction; its update is shown in place
    goal = container.get_by_role("button", name="Goal")
    expect(goal).to_be_enabled()
    goal.click()
    expect(message.locator(".v2-container")).to_contain_text("Goal by Alice", timeout=WAIT_MS)
    expect(message.locator(".v2-container h2")).to_have_text("Score 1-0")
    expect(page.locator(f'#messages .message[data-id="{posted["id"]}"]')).to_have_count(1)
    expect(page.locator("#messages .message")).to_have_count(1)
    clicks = [
        record
        for record in fake.interactions.values()
        if record.payload["data"].get("custom_id") == "card:goal"
    ]
    assert len(clicks) == 1 and clicks[0].user.id == alice.id
    assert clicks[0].message_id == int(posted["id"])
    expect(message.locator(".edited")).to_be_visible()  # Discord marks the edit
    assert [v for v in fake.violations if not v.consumed] == []
    # on a desktop the card keeps a readable width, the board scaled within it
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(200)
    width = message.locator(".v2-container").bounding_box()["width"]
    assert 300 <= width <= 560, width
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 1280 px"
    page.screenshot(path=str(SCREENSHOTS / "components-v2-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})


def post(fake: FakeDiscord, channel_id: int, content: str) -> dict:
    status, message = call(fake, "POST", f"/channels/{channel_id}/messages", {"content": content})
    assert status == 200, message
    return message


def test_timestamps_show_in_the_viewers_time_zone(page: Page, world) -> None:
    """2026-01-01 00:00 UTC is New Year's Eve, 7 PM, for a reader in New York."""
    fake, _, general = world
    message = post(
        fake, general.id, "Deadline <t:1767225600:F>, at <t:1767225600:t> (<t:1767225600:d>)"
    )
    times = page.locator(f'#messages .message[data-id="{message["id"]}"] time.timestamp')
    expect(times).to_have_count(3, timeout=WAIT_MS)
    expect(times.nth(0)).to_have_text("Wednesday, December 31, 2025 at 7:00 PM")
    expect(times.nth(1)).to_have_text("7:00 PM")
    expect(times.nth(2)).to_have_text("12/31/2025")
    expect(times.nth(0)).to_have_attribute("datetime", "2026-01-01T00:00:00.000Z")


def test_a_mention_of_me_is_highlighted_and_counted_on_its_channel(page: Page, world) -> None:
    fake, alice, general = world
    games = next(c for c in fake.channels.values() if c.get("name") == "games")
    bob = next(u for u in fake.users.values() if u.name == "bob")
    games_button = page.locator(f'#channel-list .channel[data-channel="{games["id"]}"]')
    expect(page.locator("#channel-title")).to_have_text("#general")
    post(fake, int(games["id"]), f"{alice.mention}, your move")
    expect(games_button.locator(".mention-count")).to_have_text("1", timeout=WAIT_MS)
    post(fake, int(games["id"]), f"{bob.mention}, your move")  # not me: not counted
    post(fake, int(games["id"]), f"Good game {alice.mention}")
    expect(games_button.locator(".mention-count")).to_have_text("2", timeout=WAIT_MS)
    expect(games_button).to_have_class(re.compile(r"\bunread\b"))
    # in the channel I read, a mention of me is highlighted at once (and not counted)
    mine = post(fake, general.id, f"{alice.mention} look at #games")
    message = page.locator(f'#messages .message[data-id="{mine["id"]}"]')
    expect(message).to_have_class(re.compile(r"\bmentions-me\b"), timeout=WAIT_MS)
    expect(message.locator(".mention.me")).to_have_text("@Alice")
    # opening the channel reads it: the count goes, the mentions of me stand out
    # on a phone the channel list is a drawer: its button carries the count too
    expect(page.locator("#toggle-sidebar .mention-count")).to_have_text("2")
    page.locator("#toggle-sidebar").click()
    expect(page.locator("#sidebar")).to_have_class(re.compile(r"\bopen\b"))
    games_button.click()
    expect(page.locator("#channel-title")).to_have_text("#games")
    expect(games_button.locator(".mention-count")).to_have_count(0)
    expect(page.locator("#toggle-sidebar .mention-count")).to_have_count(0)
    expect(page.locator("#messages .message.mentions-me")).to_have_count(2)
    expect(page.locator("#messages .message:not(.mentions-me) .mention")).to_have_text("@Bob")


def menus() -> dict[str, Any]:
    """A message with a menu of one pick and a menu of up to six, as the Volleyball orders
    editor sends them."""
    players = [{"label": f"Player {n} (B) OL 10 DL 10", "value": f"p{n}"} for n in range(1, 9)]
    concepts = [{"label": f"Concept {n}", "value": f"c{n}"} for n in range(1, 6)]
    select = lambda custom_id, placeholder, options, most: {  # noqa: E731
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": custom_id,
                "placeholder": placeholder,
                "options": options,
                "min_values": 0 if most > 1 else 1,
                "max_values": most,
            }
        ],
    }
    return {
        "content": "Pick the set",
        "components": [
            select("menu:players", "Players of set 1 (pick six)", players, 6),
            select("menu:concept", "Concept and risk", concepts, 1),
        ],
    }


def test_a_menu_of_many_picks_is_one_row_until_opened_and_sends_when_closed(
    page: Page, world
) -> None:
    """Discord draws every select closed, one row tall, whatever its max_values: tapping it
    opens a half-sheet of its options on a phone, and closing the sheet sends the picks
    (Discord's developer docs, Message Components, "Select Menus")."""
    fake, alice, general = world
    page.goto(f"http://127.0.0.1:{fake.port}/?user={alice.id}&channel={general.id}")
    status, posted = call(fake, "POST", f"/channels/{general.id}/messages", menus())
    assert status == 200, posted
    message = page.locator(f'#messages .message[data-id="{posted["id"]}"]')
    expect(message).to_contain_text("Pick the set", timeout=WAIT_MS)
    many = message.get_by_role("button", name="Players of set 1 (pick six)")
    one = message.get_by_role("combobox", name="Concept and risk")
    heights = [many.bounding_box()["height"], one.bounding_box()["height"]]
    assert heights[0] == pytest.approx(heights[1], abs=1) and heights[0] <= 48, heights
    expect(message.get_by_role("option", name="Player 1 (B) OL 10 DL 10")).to_have_count(0)

    many.click()
    sheet = page.get_by_role("dialog", name="Players of set 1 (pick six)")
    expect(sheet).to_be_visible()
    sheet.get_by_role("option", name="Player 2 (B) OL 10 DL 10").click()
    sheet.get_by_role("option", name="Player 5 (B) OL 10 DL 10").click()
    expect(sheet.get_by_role("option", selected=True)).to_have_count(2)
    assert not [r for r in fake.interactions.values() if r.message_id == int(posted["id"])]
    sheet.get_by_role("button", name="Close").click()
    expect(sheet).to_be_hidden()
    expect(message).to_contain_text("Alice picked p2, p5", timeout=WAIT_MS)
    picks = [r for r in fake.interactions.values() if r.message_id == int(posted["id"])]
    assert len(picks) == 1 and picks[0].user.id == alice.id
    assert picks[0].payload["data"]["custom_id"] == "menu:players"
    assert picks[0].payload["data"]["values"] == ["p2", "p5"]
