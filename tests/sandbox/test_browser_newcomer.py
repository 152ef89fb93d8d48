"""A newcomer's first minutes in the sandbox page, on a phone (390 × 844, a real headless
Chromium): a match played and finished is still reachable from the message it started from and
from the channel's thread list (its thread is archived, as Discord archives it); the "open" links
of /games open the match; text the bot escaped reads as Discord shows it; emoji are drawn in a
colour emoji font; every control is at least a touch target tall.

The page may talk to 127.0.0.1 only (tests/sandbox/conftest.py's `local_page`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from cogs.rocketball.cog import LEVEL_LABELS
from tests.sandbox.conftest import SandboxProcess, local_page

# Without Playwright this import skips the module (a failure under CI=true), as test_browser's.
from tests.sandbox.test_browser import (
    SCREENSHOTS,
    WAIT_MS,
    Page,
    act_as,
    expect,
    open_channel,
    run_command,
)
from ui.text import shown

# Apple's Human Interface Guidelines and Android's Material both ask for about 44 (iOS: 44 pt,
# Android: 48 dp) for anything a finger presses.
TOUCH_TARGET = 44


@pytest.fixture(scope="module")
def phone(chromium_path: str, sandbox: SandboxProcess, tmp_path_factory) -> Iterator[Page]:
    with local_page(
        chromium_path,
        tmp_path_factory.mktemp("chromium-profile"),
        sandbox.url,
        viewport={"width": 390, "height": 844},
    ) as page:
        yield page


def latest_game(sandbox: SandboxProcess) -> tuple[int, str, int | None, int | None]:
    """The newest match: its id, status, thread and live card (None until it is posted)."""
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        return conn.execute(
            "SELECT id, status, thread_id, turn_message_id FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()


def wait_until(page: Page, check, what: str) -> Any:
    for _ in range(300):
        found = check()
        if found:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"timed out waiting for {what}")


def say(page: Page, text: str, shows: str):
    """Type a message in the open channel; its element once shown (it shows `shows`)."""
    box = page.locator("#composer-input")
    box.fill(text)
    page.locator("#send").click()
    message = page.locator("#messages .message", has_text=shows).last
    expect(message).to_be_visible(timeout=WAIT_MS)
    return message


def test_a_finished_match_is_reachable_from_where_it_started(
    phone: Page, sandbox: SandboxProcess
) -> None:
    page = phone
    act_as(page, "alice")
    open_channel(page, "# games")
    run_command(page, "/rocketball play-computer", level=LEVEL_LABELS["easy"], target="1")
    # the thread is made before its card is posted: a /games between the two links the thread
    game_id, _, thread_id, card_id = wait_until(
        page, lambda: (g := latest_game(sandbox)) and g[2] and g[3] and g, "the match's card"
    )
    thread_entry = page.locator(f'#channel-list .channel[data-channel="{thread_id}"]')
    expect(thread_entry).to_be_attached(timeout=WAIT_MS)
    thread_name = thread_entry.locator(".channel-name").inner_text().lstrip("↳ ")

    # /games: its "open" link is a link, and it opens the match's card in its thread
    run_command(page, "/games")
    listing = page.locator("#messages .message", has_text=f"#{game_id}").last
    expect(listing).to_be_visible(timeout=WAIT_MS)
    link = listing.locator("a.link", has_text="open").first
    expect(link).to_have_attribute("href", re.compile(rf"/channels/\d+/{thread_id}/{card_id}$"))
    link.click()
    expect(page.locator("#channel-title")).to_contain_text(thread_name)
    expect(page.locator("#messages .message.jumped")).to_contain_text(f"#{game_id}")

    # the match ends (a resignation is the quickest end); its thread is archived
    run_command(page, "/rocketball resign")
    asked = page.locator("#messages .message.ephemeral", has_text="Resign Rocketball match").last
    asked.get_by_role("button", name="Resign").click()
    wait_until(page, lambda: latest_game(sandbox)[1] == "finished", "the match's end")
    expect(page.locator("#messages .message", has_text="Dice revealed")).to_be_visible(
        timeout=WAIT_MS
    )
    wait_until(
        page,
        lambda: next(c for c in sandbox.state()["channels"] if c["id"] == str(thread_id))[
            "archived"
        ],
        "the thread to be archived",
    )

    # from the message that started it, in #games: a link to the thread, archived or not
    open_channel(page, "# games")
    started = page.locator(f'#messages .message[data-id="{thread_id}"]')
    expect(started).to_be_visible(timeout=WAIT_MS)
    to_thread = started.locator(".thread-link")
    expect(to_thread).to_contain_text(thread_name)
    expect(to_thread).to_contain_text("archived")
    to_thread.click()
    expect(page.locator("#channel-title")).to_contain_text(thread_name)
    expect(page.locator("#messages .message", has_text="Dice revealed")).to_be_visible(
        timeout=WAIT_MS
    )
    expect(page.locator("#archived-note")).to_be_visible()

    # and from the channel's thread list, in its archived section, as Discord lists them
    open_channel(page, "# games")
    page.locator("#threads-button").click()
    panel = page.locator("#thread-panel")
    expect(panel).to_be_visible()
    archived = panel.locator(".thread-section.archived .thread-item", has_text=thread_name)
    expect(archived).to_have_count(1)
    expect(
        panel.locator(".thread-section.active .thread-item", has_text=thread_name)
    ).to_have_count(0)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "thread-list-390.png"))
    archived.click()
    expect(panel).to_be_hidden()
    expect(page.locator("#channel-title")).to_contain_text(thread_name)


def test_text_the_bot_escaped_reads_as_discord_shows_it(phone: Page) -> None:
    """The bot escapes user text through ui.shown; Discord shows the characters, not the
    backslashes, and formats nothing that was escaped. In code, a backslash stays."""
    page = phone
    act_as(page, "bob")
    open_channel(page, "# league")
    team = shown("**Bold** 🦄 <@everyone> _x_ Team")
    message = say(page, f"{team} {shown('[P1 00:30]')} a\\\\b `c\\*d`", "Team")
    content = message.locator(".content")
    expect(content).to_contain_text("**Bold** 🦄 <@\u200beveryone> _x_ Team [P1 00:30] a\\b c\\*d")
    expect(content.locator("strong, em, u")).to_have_count(0)
    expect(content.locator("code")).to_have_text("c\\*d")
    bold = say(page, "**real bold** \\*not italic\\*", "real bold")
    expect(bold.locator(".content strong")).to_have_text("real bold")
    expect(bold.locator(".content")).to_contain_text("*not italic*")


def test_emoji_are_drawn_in_a_colour_emoji_font(phone: Page) -> None:
    page = phone
    act_as(page, "carol")
    open_channel(page, "# league")
    message = say(page, "⏰⚽🎲", "⚽")
    content = message.locator(".content")
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    message_id = message.get_attribute("data-id")
    node = session.send(
        "DOM.querySelector",
        {"nodeId": root, "selector": f'.message[data-id="{message_id}"] .content'},
    )["nodeId"]
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    assert fonts and all("emoji" in font["familyName"].lower() for font in fonts), fonts
    expect(content).to_have_text("⏰⚽🎲")


def test_every_control_on_a_phone_is_a_touch_target(phone: Page, sandbox: SandboxProcess) -> None:
    """Buttons and menus in messages (a Rollerball table's, a match card's) and the page's own
    controls are at least 44 px tall at 390 px."""
    page = phone
    act_as(page, "alice")
    open_channel(page, "# general")
    run_command(page, "/rollerball new", players="2")
    table = page.locator("#messages .message", has=page.locator(".btn")).last
    expect(table.get_by_role("button", name="Join")).to_be_visible(timeout=WAIT_MS)
    small = page.evaluate(
        """(least) => [...document.querySelectorAll(
            '#messages .btn, #messages .select, #send, #toggle-sidebar, #threads-button,'
            + ' button.clock, #user-select')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.id || e.className, e.textContent.trim().slice(0, 30),
                       Math.round(e.getBoundingClientRect().height)])
          .filter(([, , height]) => height < least)""",
        TOUCH_TARGET,
    )
    assert small == [], f"controls shorter than {TOUCH_TARGET} px at 390 px: {small}"
    page.screenshot(path=str(SCREENSHOTS / "touch-targets-390.png"))
