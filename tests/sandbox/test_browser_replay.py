"""A replay in the sandbox page, in a real headless Chromium 390 px wide (a phone): a match
against the computer resigned, then a spectator clicks the final card's Replay button, steps
▶ one at a time to the end (and ◀ back and ▶ again), sees there the final card's image, then
opens the Highlights GIF; the card, its image and the GIF fit the phone's width.
The page may talk to 127.0.0.1 only (tests/sandbox/test_browser.py's `page`).
"""

from __future__ import annotations

import re

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


def test_a_spectator_replays_a_finished_match_on_a_phone(
    page: Page, sandbox: SandboxProcess
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    act_as(page, "carol")
    open_channel(page, "# games")
    run_command(page, "/rocketball play-computer", level=LEVEL_LABELS["easy"], target="1")
    thread_link = page.locator("#channel-list .channel.thread").last
    expect(thread_link).to_be_attached(timeout=WAIT_MS)
    open_channel(page, thread_link.locator(".channel-name").inner_text())
    run_command(page, "/rocketball resign")
    last_message(page, "resign").get_by_role("button", name="Resign").click()
    final = page.locator("#messages .message", has=page.get_by_role("button", name="Replay ▶"))
    expect(final.last).to_be_visible(timeout=WAIT_MS)

    act_as(page, "bob")  # a spectator
    final.last.get_by_role("button", name="Replay ▶").click()
    card = last_message(page, "Replay · Rocketball")
    expect(card).to_be_visible(timeout=WAIT_MS)
    expect(card).to_contain_text("step 0 of")
    expect(card).to_contain_text("Only you can see this")
    expect(card.locator("img.media")).to_have_count(1)
    found = re.search(r"step 0 of (\d+)", card.inner_text())
    assert found, card.inner_text()
    last = int(found[1])
    forward = card.get_by_role("button", name="▶", exact=True)
    for step in range(1, last + 1):  # ▶ one step at a time, the card redrawn in place
        forward.click()
        expect(card).to_contain_text(f"step {step} of {last}", timeout=WAIT_MS)
    card.get_by_role("button", name="◀", exact=True).click()
    expect(card).to_contain_text(f"step {last - 1} of {last}", timeout=WAIT_MS)
    forward.click()
    expect(card).to_contain_text(f"step {last} of {last}", timeout=WAIT_MS)
    expect(card).to_contain_text("resigns", timeout=WAIT_MS)
    expect(card.get_by_role("button", name="End ⏭")).to_be_disabled()
    expect(forward).to_be_disabled()
    # the final position: the image the final card shows, byte for byte
    shown = [
        page.request.get(where.evaluate("image => image.src")).body()
        for where in (card.locator("img.media"), final.last.locator("img").first)
    ]
    assert shown[0] == shown[1], "the replay's last step is not the final card's image"

    card.get_by_role("button", name="Highlights 🎞").click()
    posted = last_message(page, "Highlights · Rocketball")
    expect(posted).to_be_visible(timeout=WAIT_MS)
    expect(posted).to_contain_text("Only you can see this")
    gif = posted.locator("img")
    expect(gif).to_have_count(1)
    expect(gif).to_have_js_property("complete", True, timeout=WAIT_MS)
    assert gif.evaluate("image => image.naturalWidth") > 0, "the GIF did not load"
    assert page.request.get(gif.evaluate("image => image.src")).body()[:6] in (b"GIF87a", b"GIF89a")
    box = gif.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, "the GIF is wider than the phone"

    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 390 px"
    box = card.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, "the card is wider than the phone"
    image = card.locator("img.media").bounding_box()
    assert image is not None and image["x"] + image["width"] <= 390
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "replay-390.png"))
