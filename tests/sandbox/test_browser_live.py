"""/live in the sandbox page, in a real headless Chromium 390 px wide (a phone): a match against
the computer started, then `/live` in the server's channel lists it (its number, its seats, the
score, whose turn, the last move as a timestamp, the link to its card) and the list fits the
phone's width. The page may talk to 127.0.0.1 only (tests/sandbox/test_browser.py's `page`).
"""

from __future__ import annotations

import sqlite3

from cogs.rocketball.cog import LEVEL_LABELS
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


def test_live_lists_the_match_in_play_on_a_phone(page: Page, sandbox: SandboxProcess) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    act_as(page, "carol")
    open_channel(page, "# games")
    run_command(page, "/rocketball play-computer", level=LEVEL_LABELS["easy"], target="1")
    thread_link = page.locator("#channel-list .channel.thread").last
    expect(thread_link).to_be_attached(timeout=WAIT_MS)
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        (game_id,) = conn.execute("SELECT MAX(id) FROM games").fetchone()

    act_as(page, "bob")  # a spectator: not in this match
    open_channel(page, "# games")
    run_command(page, "/live")
    listed = last_message(page, "in play")
    expect(listed).to_be_visible(timeout=WAIT_MS)
    expect(listed).to_contain_text(f"Rocketball #{game_id}")
    expect(listed).to_contain_text("North (Carol)")
    expect(listed).to_contain_text("North 0-0 South")
    expect(listed).to_contain_text("last move")
    expect(listed.get_by_role("link", name="card")).to_have_count(1)
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 390 px"
    box = listed.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, "the list is wider than the phone"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "live-390.png"))
