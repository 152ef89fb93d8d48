"""A Rocketball match against the computer played to its end by clicking in the sandbox page, in
a real headless Chromium 390 px wide (a phone): the d4 rolled as each turn begins, the ball
aimed with the card's buttons, every chip placed by picking its square in the card's menu and then what to do there,
never typing a move; the one card redrawn in place at every decision, and the result.

The moves are the medium computer's choices for the player (a seeded game, so the run is the
same every time); what the test checks is that each of them can be made with clicks and picks.
The page may talk to 127.0.0.1 only (tests/sandbox/test_browser.py's `page`).
"""

from __future__ import annotations

import random
import sqlite3

from cogs.rocketball.cog import LEVEL_LABELS
from cogs.rocketball.presenter import RocketballAdapter
from host import Match
from host.adapter import move_arg
from rules.rocketball import ENGINE, ai
from rules.rocketball.actions import Aim, Pass, Roll
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

MOST_DECISIONS = 60  # the player's own; a match to one goal against the easy computer is shorter


def stored(sandbox: SandboxProcess) -> tuple[int, str, Match]:
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        version, status, state = conn.execute(
            "SELECT version, status, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return version, status, Match.from_json(RocketballAdapter(), state)


def wait_past(page: Page, sandbox: SandboxProcess, version: int) -> None:
    """Until the move is stored and the computer's reply (a move of its own) too."""
    for _ in range(300):
        now, status, match = stored(sandbox)
        if now > version and (status != "active" or match.engine.to_move == "N"):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the match stayed at version {version}")


def test_a_rocketball_match_is_played_by_clicking_on_a_phone(
    page: Page, sandbox: SandboxProcess
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    act_as(page, "carol")
    open_channel(page, "# games")
    run_command(page, "/rocketball play-computer", level=LEVEL_LABELS["easy"], target="1")
    thread_link = page.locator("#channel-list .channel.thread").last
    expect(thread_link).to_be_attached(timeout=WAIT_MS)
    open_channel(page, thread_link.locator(".channel-name").inner_text())
    card = page.locator("#messages .message", has=page.locator("img.media")).last
    expect(card).to_contain_text("Rocketball #", timeout=WAIT_MS)
    card_id = card.get_attribute("data-id")

    rng = random.Random(7)
    placed = 0
    for _ in range(MOST_DECISIONS):
        version, status, match = stored(sandbox)
        if status != "active":
            break
        state = match.engine
        assert state.to_move == "N", "the card waits for the player after the computer's reply"
        action = ai.choose_action(state, "medium", rng)
        if isinstance(action, Roll):
            card.get_by_role("button", name="Roll the d4").click()
        elif isinstance(action, Aim):
            card.get_by_role("button", name=f"Aim {action.facing}").click()
        elif isinstance(action, Pass):
            card.get_by_role("button", name="Pass (no move possible)").click()
        else:
            # the square first, from the menu that lists it; then what to do there
            square = getattr(action, "square", None) or getattr(action, "from_square", None)
            assert square, action
            # the best moves come first as buttons; the square menus on request
            card.get_by_role("button", name="Other squares…").click()
            menu = card.locator("select.select", has=page.locator(f'option[value="{square}"]'))
            menu.select_option(square)
            wanted = card.locator(f'button[data-custom-id$=":{move_arg(ENGINE, action)}"]')
            expect(wanted).to_be_visible(timeout=WAIT_MS)
            expect(card).to_contain_text(f"Square {square}")
            wanted.click()
            placed += 1
        wait_past(page, sandbox, version)
        # the same card, redrawn in place (the thread gets no new card)
        expect(page.locator(f'#messages .message[data-id="{card_id}"]')).to_have_count(1)
    _, status, match = stored(sandbox)
    assert status == "finished", "the match was played to its end by clicks"
    assert placed > 0, "chips were placed through the menus"
    result = last_message(page, "Dice revealed")
    expect(result).to_be_visible(timeout=WAIT_MS)
    expect(card.get_by_role("button", name="Roll the d4")).to_have_count(0)
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at 390 px"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "rocketball-match-390.png"))
