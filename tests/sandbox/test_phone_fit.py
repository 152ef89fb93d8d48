"""A newcomer's phone, 390 x 844, in the sandbox page (a real headless Chromium):

- an image is shown as wide as render/textsize.py's phone rule says: SHOWN_WIDTH in a card's
  gallery, ATTACHMENT_WIDTH as a plain attachment, whatever the file's own width;
- each game's live card, with its text and its controls, fits one screen: the cards a seeded
  match draws (tests/sandbox/phone.py: the opening, the first cards of each set of images, the
  result), as the bot sends them.

No bot.py here: the cards are posted through the fake's REST API, as the bot posts them.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from fakediscord import web
from fakediscord.server import FakeDiscord
from render.textsize import ATTACHMENT_WIDTH, SHOWN_WIDTH
from tests.e2e.test_components_v2 import call
from tests.sandbox.conftest import local_page
from tests.sandbox.phone import (
    FLAG_IS_COMPONENTS_V2,
    GAMES,
    HEIGHT_JS,
    IMAGES_LOADED_JS,
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
)

try:
    from playwright.sync_api import Page
except ImportError:
    if os.environ.get("CI") == "true":
        raise  # under CI a missing browser driver is a failure, never a skip
    pytest.skip(
        "Playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True
    )


def png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (240, 140, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[FakeDiscord, Any, Any]]:
    # Rate limits off: the test posts a match's every card to one channel in seconds, which
    # measures the page's layout, not the bot's pace (it never posts that fast).
    fake = FakeDiscord(guild_name="Ballcourt Sandbox", rate_limits=False)
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    yield fake, alice, general
    fake.stop()


@pytest.fixture(scope="module")
def page(chromium_path: str, world, tmp_path_factory) -> Iterator[Page]:
    fake, alice, general = world
    with local_page(
        chromium_path,
        tmp_path_factory.mktemp("chromium-profile"),
        f"http://127.0.0.1:{fake.port}/?user={alice.id}&channel={general.id}",
        viewport={"width": SCREEN_WIDTH, "height": SCREEN_HEIGHT},
    ) as page:
        yield page


def shown(page: Page, fake: FakeDiscord, channel_id: int, payload: dict, files: dict) -> str:
    """Post the message; its id once the page shows it with every image loaded."""
    status, posted = call(fake, "POST", f"/channels/{channel_id}/messages", payload, files=files)
    assert status == 200, posted
    page.wait_for_function(IMAGES_LOADED_JS, arg=posted["id"], timeout=20_000)
    page.wait_for_function(f"() => ({HEIGHT_JS})('{posted['id']}') > 0")
    return posted["id"]


def test_an_image_is_shown_as_wide_as_the_phone_rule_says(page: Page, world) -> None:
    """A 1,000-px image shows 298 px wide in a card's gallery and 330 px as an attachment:
    the widths render/textsize.py measures text at, not the file's."""
    fake, _, general = world
    card = {
        "flags": FLAG_IS_COMPONENTS_V2,
        "components": [
            {
                "type": 17,
                "components": [
                    {"type": 10, "content": "### A card"},
                    {"type": 12, "items": [{"media": {"url": "attachment://wide.png"}}]},
                ],
            }
        ],
    }
    in_card = shown(page, fake, general.id, card, {"wide.png": png(1000, 600)})
    plain = shown(page, fake, general.id, {"content": "a file"}, {"wide.png": png(1000, 600)})
    widths = page.evaluate(
        """ids => ids.map(id => document.querySelector(
            `#messages .message[data-id="${id}"] img.media`).getBoundingClientRect().width)""",
        [in_card, plain],
    )
    assert widths == [pytest.approx(SHOWN_WIDTH, abs=0.5), pytest.approx(ATTACHMENT_WIDTH, abs=0.5)]


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_card_with_its_controls_fits_one_phone_screen(
    page: Page, world, game: str
) -> None:
    """The board, what happened, what's next and the controls, seen together without
    scrolling: every sampled card of a seeded match is at most one 844-px screen tall."""
    fake, _, general = world
    too_tall = []
    for card in GAMES[game]():
        message = shown(page, fake, general.id, card.payload, card.files)
        height = page.evaluate(HEIGHT_JS, message)
        if height > SCREEN_HEIGHT:
            too_tall.append(f"{card.moment}: {height:.0f} px")
    assert not too_tall, f"{game} cards taller than {SCREEN_HEIGHT} px: {too_tall}"
