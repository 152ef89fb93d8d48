"""`python bot.py --sandbox` without a browser: the URL line, Ctrl-C, a world that survives a
restart (a challenge made before it can be accepted after it), --reset, --no-bot, and the
page's actions refused where Discord's client would refuse them."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from config import NO_TOKEN_MESSAGE
from fakediscord.clock import find_libfaketime
from tests.sandbox.conftest import SandboxProcess


def post(sandbox: SandboxProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{sandbox.url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def messages(sandbox: SandboxProcess, channel: str, user: str) -> list[dict[str, Any]]:
    url = f"{sandbox.url}/sandbox/messages?channel={channel}&user={user}"
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)["messages"]


def channel_id(sandbox: SandboxProcess, name: str) -> str:
    return next(c["id"] for c in sandbox.state()["channels"] if c["name"] == name)


def wait_for(check, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_the_no_token_how_to_points_at_the_sandbox() -> None:
    assert "python bot.py --sandbox" in NO_TOKEN_MESSAGE


def test_it_prints_one_line_with_the_url_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    sandbox = SandboxProcess(tmp_path)
    sandbox.start()
    assert sandbox.first_line == f"Ballcourt sandbox: open http://127.0.0.1:{sandbox.port}"
    with urllib.request.urlopen(sandbox.url, timeout=5) as page:
        assert "Ballcourt sandbox" in page.read().decode()
    out = sandbox.stop()
    assert sandbox.process is not None and sandbox.process.returncode == 0
    assert out.strip().endswith("Ballcourt sandbox stopped.")
    log = (tmp_path / "sandbox-discord" / "bot.log").read_text()
    assert "Ballcourt stopped" in log  # the bot was stopped cleanly too, not killed
    assert (tmp_path / "sandbox.db").exists()


def test_a_challenge_made_before_a_restart_is_accepted_after_it(tmp_path: Path) -> None:
    first = SandboxProcess(tmp_path)
    first.start()
    alice, bob = first.user_id("alice"), first.user_id("bob")
    general = channel_id(first, "general")
    made = post(
        first,
        "/sandbox/act",
        {
            "user": alice,
            "channel": general,
            "action": "command",
            "command": "rocketball challenge",
            "options": {"opponent": bob},
        },
    )
    assert made["ok"], made
    challenge = wait_for(
        lambda: [m for m in messages(first, general, bob) if "challenges you" in m["content"]]
    )[-1]
    first.stop()

    again = SandboxProcess(tmp_path)
    again.start()
    try:
        assert again.user_id("bob") == bob and channel_id(again, "general") == general
        kept = [m["id"] for m in messages(again, general, bob)]
        assert challenge["id"] in kept
        custom_id = challenge["components"][0]["components"][0]["custom_id"]
        accepted = post(
            again,
            "/sandbox/act",
            {"user": bob, "action": "click", "message": challenge["id"], "custom_id": custom_id},
        )
        assert accepted["ok"], accepted
        threads = wait_for(lambda: [c for c in again.state(bob)["channels"] if c["type"] == 11])
        assert threads[0]["parent_id"] == general
    finally:
        again.stop()


def test_reset_starts_over_and_no_bot_serves_the_page_alone(tmp_path: Path) -> None:
    first = SandboxProcess(tmp_path)
    first.start()
    alice = first.user_id("alice")
    general = channel_id(first, "general")
    assert post(
        first,
        "/sandbox/act",
        {"user": alice, "channel": general, "action": "message", "content": "hello"},
    )["ok"]
    first.stop()

    fresh = SandboxProcess(tmp_path, extra_args=("--reset", "--no-bot"))
    fresh.start(wait_for_bot=False)
    try:
        state = wait_for(lambda: fresh.state())
        assert not state["bot_connected"] and not state["clock"]["enabled"]
        assert "no bot" in state["clock"]["note"]
        new_general = channel_id(fresh, "general")
        assert new_general != general
        assert messages(fresh, new_general, state["me"]["id"]) == []
        refused = post(fresh, "/sandbox/clock", {"advance": 3600})
        assert not refused["ok"]
    finally:
        fresh.stop()
    assert not (tmp_path / "sandbox-discord" / "bot.log").exists()


@pytest.mark.usefixtures("sandbox")
class TestActionsAreRefusedAsDiscordWould:
    def test_a_disabled_button_cannot_be_clicked(self, sandbox: SandboxProcess) -> None:
        alice, bob = sandbox.user_id("alice"), sandbox.user_id("bob")
        games = channel_id(sandbox, "games")
        post(
            sandbox,
            "/sandbox/act",
            {
                "user": bob,
                "channel": games,
                "action": "command",
                "command": "rocketball challenge",
                "options": {"opponent": alice},
            },
        )
        challenge = wait_for(
            lambda: [m for m in messages(sandbox, games, alice) if "challenges you" in m["content"]]
        )[-1]
        decline = challenge["components"][0]["components"][1]
        assert post(
            sandbox,
            "/sandbox/act",
            {
                "user": alice,
                "action": "click",
                "message": challenge["id"],
                "custom_id": decline["custom_id"],
            },
        )["ok"]
        declined = wait_for(
            lambda: [
                m
                for m in messages(sandbox, games, alice)
                if m["id"] == challenge["id"] and "declined" in m["content"]
            ]
        )[0]
        assert not declined["components"]  # nothing left to click
        again = post(
            sandbox,
            "/sandbox/act",
            {
                "user": alice,
                "action": "click",
                "message": challenge["id"],
                "custom_id": decline["custom_id"],
            },
        )
        assert not again["ok"] and "no button" in again["error"].lower()

    def test_the_page_cannot_act_as_the_bot_or_skip_a_required_option(
        self, sandbox: SandboxProcess
    ) -> None:
        bot_id = sandbox.state()["bot"]["id"]
        general = channel_id(sandbox, "general")
        with pytest.raises(urllib.error.HTTPError) as refused:
            post(
                sandbox,
                "/sandbox/act",
                {"user": bot_id, "channel": general, "action": "message", "content": "hi"},
            )
        refused.value.close()  # the refusal holds the answer's socket open until closed
        assert refused.value.code == 400
        missing = post(
            sandbox,
            "/sandbox/act",
            {
                "user": sandbox.user_id("carol"),
                "channel": general,
                "action": "command",
                "command": "rocketball challenge",
                "options": {},
            },
        )
        assert not missing["ok"] and re.search(r"needs the option 'opponent'", missing["error"])

    def test_someone_elses_ephemeral_message_is_not_in_their_view(
        self, sandbox: SandboxProcess
    ) -> None:
        carol, alice = sandbox.user_id("carol"), sandbox.user_id("alice")
        league = channel_id(sandbox, "league")
        answer = post(
            sandbox,
            "/sandbox/act",
            {
                "user": carol,
                "channel": league,
                "action": "command",
                "command": "rocketball challenge",
                "options": {"opponent": carol},
            },
        )
        assert answer["ok"]
        mine = wait_for(
            lambda: [
                m for m in messages(sandbox, league, carol) if "challenge yourself" in m["content"]
            ]
        )
        assert mine[-1]["sandbox_ephemeral"]
        assert not [m for m in messages(sandbox, league, alice) if m["id"] == mine[-1]["id"]]


def test_the_sandbox_clock_stays_where_it_was_moved_across_a_restart(tmp_path: Path) -> None:
    """Deadlines the bot stored in sandbox time must not jump back when the sandbox restarts."""
    if find_libfaketime() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the sandbox's clock control needs libfaketime (.ci/run installs it)")
        pytest.skip("no libfaketime (Debian: apt-get install libfaketime)")
    first = SandboxProcess(tmp_path)
    first.start()
    moved = post(first, "/sandbox/clock", {"advance": 7200})
    assert moved["ok"] and moved["clock"]["offset"] == 7200
    first.stop()
    again = SandboxProcess(tmp_path)
    again.start()
    try:
        assert again.state()["clock"]["offset"] == 7200
        assert (tmp_path / "sandbox-discord" / "faketime").read_text() == "+7200\n"
    finally:
        again.stop()


def test_only_the_owner_is_offered_the_admin_commands(sandbox: SandboxProcess) -> None:
    def offered(name: str) -> set[str]:
        return {c["name"] for c in sandbox.state(sandbox.user_id(name))["commands"]}

    assert "admin" in offered("owner")
    assert "admin" not in offered("alice") and "help" in offered("alice")
