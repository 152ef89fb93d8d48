"""The sandbox page in a real headless Chromium, as a newcomer uses it: /help, switching user, a
Rocketball challenge accepted, the d4 rolled as the turn begins, a chip placed through the move
form, the board image, an ephemeral refusal that only the wrong player sees, and the clock
moved a day so the reminder comes. Then the layout at a phone's and a desktop's width.

The page may talk to 127.0.0.1 only: every other request is refused and fails the test.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest

from cogs.rocketball.presenter import RocketballAdapter
from host import Match
from rules.rocketball import parse_command
from rules.rocketball.record import format_action
from tests.sandbox.conftest import SandboxProcess

try:
    from playwright.sync_api import Page, expect
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
except ImportError:
    if os.environ.get("CI") == "true":
        raise  # under CI a missing browser driver is a failure, never a skip
    pytest.skip(
        "Playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True
    )

SCREENSHOTS = Path(__file__).resolve().parents[2] / "bench" / "out" / "sandbox"
WAIT_MS = 20_000


# --- helpers ------------------------------------------------------------------------------------


def act_as(page: Page, name: str) -> None:
    """Switch user and wait until the page shows what they see."""
    user_id = page.select_option("#user-select", label=name.capitalize())[0]
    page.wait_for_selector(f'body[data-user="{user_id}"]')


def run_command(page: Page, command: str, **options: str) -> None:
    """Type the command, pick it from the completion list, fill its options, send."""
    box = page.locator("#composer-input")
    box.fill("")
    box.type(command)
    page.locator(f'#suggestions .suggestion[data-command="{command.lstrip("/")}"]').click()
    for name, value in options.items():
        field = page.locator(f"#opt-{name}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    page.locator("#send").click()
    expect(page.locator("#composer-error")).to_have_text("")


def open_channel(page: Page, label: str) -> None:
    """Open a channel from the list; on a phone the list slides in from the left first (a
    player waits for it to be in: so does the test, and taps again if it slid away)."""
    toggle = page.locator("#toggle-sidebar")
    sidebar = page.locator("#sidebar")
    for attempt in range(3):
        if toggle.is_visible() and "open" not in (sidebar.get_attribute("class") or ""):
            toggle.click()
            try:  # a tap a busy machine's page missed: tapped again
                expect(sidebar).to_have_class(re.compile(r"\bopen\b"), timeout=10_000)
            except AssertionError:
                if attempt == 2:
                    raise
                continue
        try:
            page.locator("#channel-list .channel", has_text=label).first.click(timeout=10_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
    expect(page.locator("#channel-title")).to_contain_text(label.lstrip("#↳ "))


def last_message(page: Page, text: str):
    return page.locator("#messages .message", has_text=text).last


def stored_version(sandbox) -> int:
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        return conn.execute("SELECT version FROM games ORDER BY id DESC LIMIT 1").fetchone()[0]


def stored_match(sandbox: SandboxProcess) -> tuple[int, Match]:
    with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
        game_id, state = conn.execute(
            "SELECT id, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return game_id, Match.from_json(RocketballAdapter(), state)


# --- the flow -----------------------------------------------------------------------------------


def test_a_newcomer_plays_rocketball_in_the_browser(page: Page, sandbox: SandboxProcess) -> None:
    expect(page.locator(".badge")).to_contain_text("not Discord")
    expect(page.locator("#bot-status")).to_have_text("Ballcourt is online")
    expect(page.locator("#user-select option:checked")).to_have_text("Alice")

    # /help from the completion list
    run_command(page, "/help")
    help_message = last_message(page, "ball games in chat")
    expect(help_message).to_be_visible(timeout=WAIT_MS)
    expect(help_message.locator(".invocation")).to_have_text("↳ Alice used /help")

    # Alice challenges Bob; Bob accepts from his side
    run_command(page, "/rocketball challenge", opponent="Bob")
    challenge = last_message(page, "challenges you")
    expect(challenge.get_by_role("button", name="Accept")).to_be_enabled(timeout=WAIT_MS)
    act_as(page, "bob")
    last_message(page, "challenges you").get_by_role("button", name="Accept").click()
    thread_link = page.locator("#channel-list .channel.thread").last
    expect(thread_link).to_be_visible(timeout=WAIT_MS)
    thread_name = thread_link.locator(".channel-name").inner_text()  # not its mention count
    open_channel(page, thread_name)
    turn = page.locator("#messages .message", has=page.get_by_role("button")).last
    expect(turn).to_be_visible(timeout=WAIT_MS)
    expect(turn.locator("img.media")).to_have_count(1)  # the board

    _, match = stored_match(sandbox)
    seats = {"N": "alice", "S": "bob"}
    mover = seats[match.engine.to_move]
    waiting = seats["S" if match.engine.to_move == "N" else "N"]

    # the wrong player clicks: a refusal only they can see
    act_as(page, waiting)
    page.get_by_role("button", name="Suggested: ").last.click()
    refusal = last_message(page, "not your turn")
    expect(refusal).to_be_visible(timeout=WAIT_MS)
    expect(refusal).to_contain_text("Only you can see this")
    act_as(page, mover)
    expect(page.locator("#messages .message", has_text="not your turn")).to_have_count(0)

    # the d4 was rolled as the turn began: the card shows it, and a chip is to be placed
    card = page.locator("#messages .message", has=page.locator("img.media")).last
    expect(card).to_contain_text("rolls d4 =")
    _, match = stored_match(sandbox)
    assert match.engine.phase == "place"
    act_as(page, seats[match.engine.to_move])
    # One click on the suggested move (the menus of squares are tested through the fake Discord)
    label = card.get_by_role("button", name="Suggested: ").first.inner_text(timeout=WAIT_MS)
    move = parse_command(label.removeprefix("Suggested: "))
    version = stored_version(sandbox)
    card.get_by_role("button", name=label).click()
    # The placing ends the round: told in words on the same card, redrawn in place.
    for _ in range(100):
        if stored_version(sandbox) > version:
            break
        page.wait_for_timeout(100)
    expect(card).to_contain_text(format_action(move).split()[-1], timeout=WAIT_MS)
    expect(card.get_by_role("button", name=label)).to_have_count(0, timeout=WAIT_MS)
    expect(card.locator("img.media")).to_have_count(1)
    _, after = stored_match(sandbox)
    assert after.engine.to_move != match.engine.to_move or after.engine.phase != "place"

    # a day later the player to move is reminded
    _, match = stored_match(sandbox)
    page.get_by_role("button", name="+1 day").click()
    reminder = last_message(page, "waiting for your move")
    expect(reminder).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#clock-now")).to_contain_text("+1 d")
    assert f"@{seats[match.engine.to_move].capitalize()}" in reminder.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "flow-1280.png"))


@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_fits_phones_and_desktops(page: Page, width: int) -> None:
    """No horizontal scroll, and every image scaled to fit its column."""
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
    page.wait_for_timeout(300)
    assert page.locator("#messages img.media").count() > 0, "the flow test left no board here"
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow} px of horizontal scroll at {width} px"
    misfits = page.evaluate(
        """() => [...document.querySelectorAll('#messages img.media')].filter(img => {
            const box = img.getBoundingClientRect();
            const column = document.getElementById('messages').getBoundingClientRect();
            return box.right > column.right + 0.5 || box.left < column.left - 0.5
                || (img.naturalWidth > column.width && box.width > column.width);
        }).map(img => img.src)"""
    )
    assert not misfits, f"images wider than the column at {width} px: {misfits}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"page-{width}.png"))


def test_option_completion_comes_live_from_the_bot(page: Page) -> None:
    """Typing into an option with autocomplete asks the bot (an AUTOCOMPLETE interaction) and
    offers its choices; picking one fills the option."""
    open_channel(page, "# games")
    box = page.locator("#composer-input")
    box.fill("")
    box.type("/rocketball chall")
    page.locator('#suggestions .suggestion[data-command="rocketball challenge"]').click()
    page.locator("#opt-variants").type("drif")
    choice = page.locator("#choices-variants button", has_text="drifting-winds")
    expect(choice).to_be_visible(timeout=WAIT_MS)
    choice.click()
    expect(page.locator("#opt-variants")).to_have_value("drifting-winds")
    box.press("Escape")
    expect(page.locator("#options-form")).to_be_hidden()


def test_a_message_with_discord_markdown_renders_as_on_discord(
    page: Page, sandbox: SandboxProcess
) -> None:
    """Bold, italics, code and a mention (shown as the member's name), typed as on Discord;
    HTML in a message stays text."""
    open_channel(page, "# league")
    bob = sandbox.user_id("bob")
    box = page.locator("#composer-input")
    box.fill(f"**well played** *really* `c4 N` <@{bob}> <b>not html</b>")
    page.locator("#send").click()
    message = last_message(page, "well played")
    expect(message).to_be_visible(timeout=WAIT_MS)
    content = message.locator(".content")
    expect(content.locator("strong")).to_have_text("well played")
    expect(content.locator("em")).to_have_text("really")
    expect(content.locator("code")).to_have_text("c4 N")
    expect(content.locator(".mention")).to_have_text("@Bob")
    expect(content).to_contain_text("<b>not html</b>")
    expect(content.locator("b")).to_have_count(0)
