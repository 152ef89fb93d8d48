"""The sandbox page feels like Discord's, with the real bot (`python bot.py --sandbox`): a new
sandbox opens on the bot's welcome in #general; typing `/` lists every command the user may run (not the first 25),
grouped by game, the arrow keys move the highlight and Enter or Tab takes it; in an option
with autocomplete, Enter or Tab takes the highlighted choice, never the half-typed text."""

from __future__ import annotations

import os
import re

import pytest

from tests.sandbox.conftest import SandboxProcess

try:
    from playwright.sync_api import Page, expect
except ImportError:
    if os.environ.get("CI") == "true":
        raise  # under CI a missing browser driver is a failure, never a skip
    pytest.skip(
        "Playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True
    )

WAIT_MS = 20_000


def leaf_commands(commands: list[dict]) -> list[str]:
    """Every runnable command path ("volleyball league create"), as Discord lists them."""
    paths: list[str] = []

    def visit(prefix: str, node: dict) -> None:
        children = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        if not children:
            paths.append(prefix)
        for child in children:
            visit(f"{prefix} {child['name']}", child)

    for command in commands:
        visit(command["name"], command)
    return paths


def test_a_new_sandbox_opens_with_the_bots_welcome_in_general(page: Page) -> None:
    """A new sandbox is a server the bot was just invited to: #general, where the page opens,
    shows the bot's one welcome with a first command per game."""
    expect(page.locator("#channel-title")).to_contain_text("general")
    welcome = page.locator("#messages .message", has_text="I'm Ballcourt")
    expect(welcome).to_have_count(1, timeout=WAIT_MS)
    for first in ("/rocketball challenge", "/rollerball new", "/volleyball league create", "/help"):
        expect(welcome).to_contain_text(first)


def test_slash_lists_every_command_grouped_by_game(page: Page, sandbox: SandboxProcess) -> None:
    state = sandbox.state(sandbox.user_id("alice"))
    expected = leaf_commands(state["commands"])
    assert len(expected) > 25 and any(p.startswith("volleyball ") for p in expected)
    box = page.locator("#composer-input")
    box.fill("")
    box.type("/")
    suggestions = page.locator("#suggestions .suggestion")
    expect(suggestions).to_have_count(len(expected))
    listed = suggestions.evaluate_all("items => items.map(i => i.dataset.command)")
    assert sorted(listed) == sorted(expected)
    groups = page.locator("#suggestions .suggestion-group")
    titles = groups.evaluate_all("items => items.map(i => i.firstChild.textContent)")
    for game in ("/rocketball", "/rollerball", "/rollerball2", "/volleyball"):
        assert game in titles
    assert titles[0] == "Ballcourt"  # the bot's own commands (help, about, ...) first
    # each command sits under its game's heading
    order = page.locator("#suggestions > *").evaluate_all(
        "items => items.map(i => i.dataset.group ? '#' + i.dataset.group : i.dataset.command)"
    )
    heading = None
    for item in order:
        if item.startswith("#"):
            heading = item[1:]
        elif " " in item:
            assert item.split(" ")[0] == heading, f"{item} listed under {heading}"
    box.press("Escape")


def test_arrow_keys_and_enter_pick_a_command(page: Page) -> None:
    box = page.locator("#composer-input")
    box.fill("")
    box.type("/volleyball")
    first = page.locator("#suggestions .suggestion").first
    expect(first).to_have_class(re.compile(r"\bactive\b"))
    names = page.locator("#suggestions .suggestion").evaluate_all(
        "items => items.map(i => i.dataset.command)"
    )
    assert len(names) >= 3 and all(name.startswith("volleyball") for name in names)
    box.press("ArrowDown")
    box.press("ArrowDown")
    active = page.locator("#suggestions .suggestion.active")
    expect(active).to_have_count(1)
    expect(active).to_have_attribute("data-command", names[2])
    box.press("ArrowUp")
    expect(active).to_have_attribute("data-command", names[1])
    box.press("ArrowUp")
    box.press("ArrowUp")  # wraps round to the last
    expect(active).to_have_attribute("data-command", names[-1])
    box.press("ArrowDown")  # and back to the first
    box.press("Enter")
    expect(page.locator("#suggestions")).to_be_hidden()
    expect(box).to_have_value(f"/{names[0]}")
    box.press("Escape")
    # Tab takes the highlight too
    box.fill("")
    box.type("/hel")
    box.press("Tab")
    expect(box).to_have_value("/help")
    box.press("Escape")


def test_enter_or_tab_takes_the_highlighted_autocomplete_choice(page: Page) -> None:
    """Typing "bump" shows "bumpers": Enter takes "bumpers" (it used to send "bump")."""
    box = page.locator("#composer-input")
    box.fill("")
    box.type("/rocketball chall")
    box.press("Enter")
    expect(page.locator("#options-form")).to_be_visible()
    page.locator("#opt-opponent").select_option(label="Bob")
    variants = page.locator("#opt-variants")
    variants.click()
    variants.type("bump")
    variants.press("Enter")  # at once, before the choices have come: it waits for them
    expect(variants).to_have_value("bumpers", timeout=WAIT_MS)
    expect(page.locator("#options-form")).to_be_visible()  # taken, not sent
    variants.fill("")
    variants.type("drif")
    choice = page.locator("#choices-variants button").first
    expect(choice).to_have_text("drifting-winds", timeout=WAIT_MS)
    expect(choice).to_have_class(re.compile(r"\bactive\b"))
    variants.press("Tab")
    expect(variants).to_have_value("drifting-winds")
    # Enter now sends the command with the value taken
    variants.focus()
    before = page.locator("#messages .message").count()
    variants.press("Enter")
    challenge = page.locator("#messages .message", has_text="challenges you").last
    expect(challenge).to_be_visible(timeout=WAIT_MS)
    assert page.locator("#messages .message").count() > before
    expect(page.locator("#composer-error")).to_have_text("")
