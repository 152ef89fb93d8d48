"""A Rollerball secret bid played by clicking in the sandbox page, in a real headless Chromium 390
px wide (a phone): a table opened and joined, each player's hand opened with My hand on the live
card, the bid picked from the cards in the panel's menu (Alice two cards, Bob nothing), the
panel redrawn in place, seen only by its player, and the bids revealed on the same card.

The page may talk to 127.0.0.1 only (tests/sandbox/test_browser.py's `page`).
"""

from __future__ import annotations

import sqlite3

from cogs.rollerball.presenter import RollerballAdapter
from host import Match
from tests.sandbox.conftest import SandboxProcess

# Without Playwright this import skips the module (a failure under CI=true), as test_browser's.
from tests.sandbox.test_browser import (
    SCREENSHOTS,
    WAIT_MS,
    Page,
    act_as,
    expect,
    last_message,
    open_channel,
    run_command,
)


def stored_game(sandbox: SandboxProcess) -> tuple[int, str, Match | None]:
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        version, status, state = conn.execute(
            "SELECT version, status, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    match = Match.from_json(RollerballAdapter(), state) if status == "active" else None
    return version, status, match


def wait_for_version(page: Page, sandbox: SandboxProcess, above: int) -> None:
    for _ in range(200):
        if stored_game(sandbox)[0] > above:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the game never went past version {above}")


def test_a_rollerball_bid_is_clicked_on_a_phone(page: Page, sandbox: SandboxProcess) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    act_as(page, "alice")
    open_channel(page, "# general")
    run_command(page, "/rollerball new", players="2")
    table = last_message(page, "Rollerball table")
    expect(table.get_by_role("button", name="Join")).to_be_enabled(timeout=WAIT_MS)
    act_as(page, "bob")
    last_message(page, "Rollerball table").get_by_role("button", name="Join").click()
    act_as(page, "alice")
    start = last_message(page, "Rollerball table").get_by_role("button", name="Start")
    expect(start).to_be_enabled(timeout=WAIT_MS)
    start.click()
    thread_link = page.locator("#channel-list .channel.thread").last
    expect(thread_link).to_be_attached(timeout=WAIT_MS)
    open_channel(page, thread_link.locator(".channel-name").inner_text())
    card = page.locator("#messages .message", has=page.get_by_role("button", name="My hand")).last
    expect(card.locator("img.media")).to_have_count(1, timeout=WAIT_MS)  # the board

    # Alice opens her hand and picks two cards from the menu: only she sees the panel.
    _, _, match = stored_game(sandbox)
    assert match is not None
    hand = match.engine.game.hands[0]
    version = stored_game(sandbox)[0]
    card.get_by_role("button", name="My hand").click()
    panel = page.locator("#messages .message.ephemeral", has_text="Your hand").last
    expect(panel).to_contain_text("Only you can see this", timeout=WAIT_MS)
    expect(panel.locator("img.media")).to_have_count(1)  # the hand image
    panel.get_by_role("button", name="Pick the cards to bid").click()  # opens its sheet
    sheet = page.get_by_role("dialog", name="Pick the cards to bid")
    options = sheet.get_by_role("option")
    expect(options).to_have_count(len(hand))
    assert len(hand) == 5
    options.nth(0).click()
    options.nth(1).click()
    sheet.get_by_role("button", name="Close").click()  # closing the sheet sends the picks
    wait_for_version(page, sandbox, version)
    expect(panel).to_contain_text("Your secret bid: 2 cards", timeout=WAIT_MS)
    expect(panel.locator(".select")).to_have_count(0)  # no second bid to make
    expect(card).to_contain_text("Alice has bid.", timeout=WAIT_MS)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "rollerball-bid-390.png"))

    # Bob sees the card, not Alice's panel; he bids nothing with one click on his own.
    act_as(page, "bob")
    expect(page.locator("#messages .message.ephemeral", has_text="Alice, player 1")).to_have_count(
        0
    )
    version = stored_game(sandbox)[0]
    card.get_by_role("button", name="My hand").click()
    theirs = page.locator("#messages .message.ephemeral", has_text="Bob, player 2").last
    expect(theirs.get_by_role("button", name="Bid nothing (0 cards)")).to_be_visible(
        timeout=WAIT_MS
    )
    theirs.get_by_role("button", name="Bid nothing (0 cards)").click()
    wait_for_version(page, sandbox, version)
    expect(card).to_contain_text("Bids: Alice 2, Bob 0.", timeout=WAIT_MS)
    expect(card).to_contain_text("Alice wins the bid")

    # The phone shows it all without sideways scrolling, images scaled to the column.
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 390 px"
    widths = page.evaluate(
        """() => [...document.querySelectorAll('#messages img.media')].map(img =>
            [img.getBoundingClientRect().right,
             document.getElementById('messages').getBoundingClientRect().right])"""
    )
    assert widths and all(right <= column + 0.5 for right, column in widths)
    page.screenshot(path=str(SCREENSHOTS / "rollerball-bid-revealed-390.png"))
