"""The Rocketball lesson in the sandbox page, in a real headless Chromium 390 px wide (a phone),
as a newcomer finds it: `/help`, the game's quick start, **Learn by playing**, then every step of
the lesson by clicks on the one live card (the roll, the suggested move where the card offers the
lesson's, else its square from the menu and then what to do there) to **Lesson done!** and the
**Play a real match** button; the card and its board fit the phone's width at every step.
The page may talk to 127.0.0.1 only (tests/sandbox/test_browser.py's `page`).
"""

from __future__ import annotations

import sqlite3

from cogs.rocketball.presenter import RocketballAdapter
from host import Match
from host.adapter import move_arg
from rules.lessons import LEARNER, lesson_of
from rules.rocketball import ENGINE
from rules.rocketball.actions import Roll
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

LESSON = lesson_of("rocketball")
assert LESSON is not None
SAYS = [step for step in LESSON.steps if step.seat == LEARNER]


def stored(sandbox: SandboxProcess) -> tuple[int, str, Match]:
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        version, status, state = conn.execute(
            "SELECT version, status, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return version, status, Match.from_json(RocketballAdapter(), state)


def wait_past(page: Page, sandbox: SandboxProcess, version: int) -> None:
    """Until the learner's move is stored (and the tutor's reply, a move of its own)."""
    for _ in range(300):
        now, status, match = stored(sandbox)
        if now > version and (status != "active" or match.engine.to_move == "N"):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the lesson stayed at version {version}")


def fits(page: Page, card) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 390 px"
    box = card.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, "the card is wider than the phone"


def test_the_rocketball_lesson_from_help_to_its_end_on_a_phone(
    page: Page, sandbox: SandboxProcess
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    act_as(page, "carol")
    open_channel(page, "# games")
    run_command(page, "/help")
    overview = last_message(page, "ball games in chat")
    expect(overview).to_be_visible(timeout=WAIT_MS)
    overview.get_by_role("button", name="Rocketball").click()
    start = last_message(page, "Rocketball: quick start")
    expect(start).to_be_visible(timeout=WAIT_MS)
    start.get_by_role("button", name="Learn by playing").click()
    thread_link = page.locator("#channel-list .channel.thread").last
    expect(thread_link).to_be_attached(timeout=WAIT_MS)
    open_channel(page, thread_link.locator(".channel-name").inner_text())
    card = page.locator("#messages .message", has=page.locator("img.media")).last
    expect(card).to_contain_text(f"Lesson 1/{len(SAYS)}:", timeout=WAIT_MS)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lesson-start-390.png"))

    for number, step in enumerate(SAYS, 1):
        expect(card).to_contain_text(f"Lesson {number}/{len(SAYS)}:", timeout=WAIT_MS)
        expect(card).to_contain_text(step.say[:50])
        fits(page, card)
        version, status, match = stored(sandbox)
        assert status == "active"
        action = ENGINE.parse_action(match.engine, 0, step.move)
        if isinstance(action, Roll):
            card.get_by_role("button", name="Roll the d4").click()
        else:
            suggested = card.get_by_role(
                "button", name=f"Suggested: {ENGINE.format_action(action)}"
            )
            if suggested.count():
                suggested.click()
            else:
                square = getattr(action, "square", None) or getattr(action, "from_square", None)
                assert square, action
                if not card.locator("select.select").count():
                    card.get_by_role("button", name="Other squares…").click()
                menu = card.locator("select.select", has=page.locator(f'option[value="{square}"]'))
                menu.select_option(square)
                wanted = card.locator(f'button[data-custom-id$=":{move_arg(ENGINE, action)}"]')
                expect(wanted).to_be_visible(timeout=WAIT_MS)
                wanted.click()
        wait_past(page, sandbox, version)

    _, status, match = stored(sandbox)
    assert status == "finished" and match.engine.winner == "N"
    expect(card).to_contain_text("Lesson done!", timeout=WAIT_MS)
    expect(card.get_by_role("button", name="Play a real match")).to_be_visible()
    fits(page, card)
    page.screenshot(path=str(SCREENSHOTS / "lesson-done-390.png"))
