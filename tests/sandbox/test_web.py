"""The page's routes against a fake Discord with no bot: what a player reads (state, messages,
the event stream) and the rules a bot broke, shown in the page."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from fakediscord import web
from fakediscord.clock import CLOCK
from fakediscord.server import FakeDiscord


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    fake = FakeDiscord(guild_name="Ballcourt Sandbox")
    fake.add_user("alice")
    fake.add_channel("general")
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    yield fake
    fake.stop()


def get(fake: FakeDiscord, path: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{fake.port}{path}", timeout=5) as answer:
        return json.load(answer)


def test_a_rule_the_bot_broke_is_shown_to_everyone(fake: FakeDiscord) -> None:
    fake.call_sync(
        lambda: fake.record_violation(
            "invalid_form_body", "content: Must be 2000 or fewer in length.", "POST /channels/1"
        )
    )
    state = get(fake, "/sandbox/state")
    assert state["me"]["username"] == "alice"  # a new page acts as the first member
    assert len(state["notices"]) == 1
    assert "Must be 2000 or fewer" in state["notices"][0]["text"]
    assert state["notices"][0]["text"].startswith("The bot broke Discord's rules")


def test_the_event_stream_sends_a_new_message_to_those_who_may_see_it(fake: FakeDiscord) -> None:
    alice = next(user for user in fake.users.values() if user.name == "alice")
    general = get(fake, "/sandbox/state")["channels"][0]["id"]
    stream = urllib.request.urlopen(
        f"http://127.0.0.1:{fake.port}/sandbox/events?user={alice.id}", timeout=5
    )
    assert stream.readline().decode().strip() == "event: hello"
    stream.readline(), stream.readline()

    async def post() -> None:
        message = fake.compose_message(int(general), {"content": f"**hi** <@{alice.id}>"}, {})
        await fake.store_message(message)

    fake.call_sync_coroutine(post)
    lines = [stream.readline().decode().strip() for _ in range(2)]
    stream.close()
    assert lines[0] == "event: message"
    data = json.loads(lines[1].removeprefix("data: "))
    assert data["content"] == f"**hi** <@{alice.id}>" and data["channel_id"] == general
    assert not data["sandbox_ephemeral"]


def test_another_sites_form_cannot_act_in_the_sandbox(fake: FakeDiscord) -> None:
    """A plain form post (what any web page may send cross-site without asking) is refused."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{fake.port}/sandbox/act",
        data=b"user=1&action=message&content=hi",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    refused.value.close()  # the refusal holds the answer's socket open until closed
    assert refused.value.code == 415


def test_an_ephemeral_message_is_its_owners_and_gone_after_fifteen_minutes(
    fake: FakeDiscord,
) -> None:
    alice = next(user for user in fake.users.values() if user.name == "alice")
    owner = fake.owner
    general = get(fake, "/sandbox/state")["channels"][0]["id"]

    async def post() -> None:
        message = fake.compose_message(int(general), {"content": "only for alice"}, {})
        await fake.store_message(message, ephemeral_for=alice.id)

    fake.call_sync_coroutine(post)
    seen = get(fake, f"/sandbox/messages?channel={general}&user={alice.id}")["messages"]
    assert [m["content"] for m in seen] == ["only for alice"] and seen[0]["sandbox_ephemeral"]
    assert get(fake, f"/sandbox/messages?channel={general}&user={owner.id}")["messages"] == []
    try:
        CLOCK.offset = 16 * 60
        later = get(fake, f"/sandbox/messages?channel={general}&user={alice.id}")["messages"]
    finally:
        CLOCK.offset = 0.0
    assert later == []


def test_a_moved_clock_reaches_every_open_page(fake: FakeDiscord) -> None:
    """Another tab (or player) sees the new sandbox time without reloading."""
    stream = urllib.request.urlopen(f"http://127.0.0.1:{fake.port}/sandbox/events", timeout=5)
    assert stream.readline().decode().strip() == "event: hello"
    stream.readline(), stream.readline()
    try:
        CLOCK.offset = 3600

        fake.call_sync(fake.notify)
        lines = [stream.readline().decode().strip() for _ in range(2)]
    finally:
        CLOCK.offset = 0.0
        stream.close()
    assert lines[0] == "event: status"
    assert json.loads(lines[1].removeprefix("data: "))["clock"]["offset"] == 3600


def test_a_deleted_message_leaves_every_open_page(fake: FakeDiscord) -> None:
    general = get(fake, "/sandbox/state")["channels"][0]["id"]

    async def post() -> str:
        message = fake.compose_message(int(general), {"content": "soon gone"}, {})
        await fake.store_message(message)
        return message["id"]

    message_id = fake.call_sync_coroutine(post)
    stream = urllib.request.urlopen(f"http://127.0.0.1:{fake.port}/sandbox/events", timeout=5)
    assert stream.readline().decode().strip() == "event: hello"
    stream.readline(), stream.readline()
    request = urllib.request.Request(
        f"{fake.api_base}/channels/{general}/messages/{message_id}",
        method="DELETE",
        headers={"Authorization": f"Bot {fake.token}"},
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        assert answer.status == 204
    lines = [stream.readline().decode().strip() for _ in range(2)]
    stream.close()
    assert lines == ["event: delete", f'data: {{"id": "{message_id}"}}']


def test_the_page_forbids_the_browser_to_load_anything_from_outside(fake: FakeDiscord) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{fake.port}/", timeout=5) as answer:
        policy = answer.headers["Content-Security-Policy"]
        assert "Ballcourt sandbox" in answer.read().decode()
    rules = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert rules["default-src"] == "'self'"
    assert rules["img-src"] == "'self' data:" and rules["connect-src"] == "'self'"


def test_the_sandbox_stops_at_once_with_a_page_still_open() -> None:
    """Ctrl-C with a tab still open: the page's event stream is ended as the server stops, not
    waited for until its next keep-alive (which held every stop for 10 s and left the server's
    thread behind)."""
    fake = FakeDiscord(guild_name="Ballcourt Sandbox")
    fake.add_channel("general")
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    stream = urllib.request.urlopen(f"http://127.0.0.1:{fake.port}/sandbox/events", timeout=5)
    try:
        assert stream.readline().decode().strip() == "event: hello"
        thread = fake._thread
        assert thread is not None
        began = time.monotonic()
        fake.stop()
        took = time.monotonic() - began
        assert not thread.is_alive(), "the server's thread is still running"
        assert took < 3.0, f"the stop took {took:.1f} s"
        # the rest of the hello, then the end of the stream (the page reconnects on its own)
        assert stream.read() == b'data: {"ok": true}\n\n'
    finally:
        stream.close()
