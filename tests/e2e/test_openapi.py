"""The fake checks every request against Discord's OpenAPI description (fakediscord/openapi.py):
a body the description rejects is answered 400 50035 and fails the test; a route it does not
describe is refused; a missing description turns the check off with one log line, except under
CI=true, where it is an error."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakediscord import openapi
from fakediscord.server import FakeDiscord

SPEC = openapi.find_spec()
needs_spec = pytest.mark.skipif(
    SPEC is None or not SPEC.is_file(), reason="no OpenAPI description beside the repository"
)


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.fixtures_general = fake.add_channel("general")  # type: ignore[attr-defined]
    fake.fixtures_alice = fake.add_user("alice")  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


def call(fake: FakeDiscord, method: str, path: str, payload: object) -> tuple[int, dict]:
    request = urllib.request.Request(
        fake.api_base + path,
        data=json.dumps(payload).encode(),
        method=method,
        headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def take(fake: FakeDiscord) -> list[str]:
    def run() -> list[str]:
        taken = [str(v) for v in fake.violations if not v.consumed]
        for violation in fake.violations:
            violation.consumed = True
        return taken

    return fake.call_sync(run)


@needs_spec
def test_a_body_the_description_rejects_fails_like_discord(fake: FakeDiscord) -> None:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    # the fake's own limits allow an allowed_mentions parse list of anything; the spec does not
    status, body = call(
        fake,
        "POST",
        f"/channels/{general.id}/messages",
        {"content": "hi", "allowed_mentions": {"parse": ["everybody"]}},
    )
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    leaf = body["errors"]["allowed_mentions"]["parse"]["0"]["_errors"][0]
    assert leaf["code"] == "BASE_TYPE_CHOICES"
    [violation] = take(fake)
    assert "Discord's OpenAPI description rejects the request" in violation
    assert "allowed_mentions.parse.0" in violation
    assert fake.spec_violations[-1][0] == f"POST /channels/{general.id}/messages"
    assert fake.channel_messages[general.id] == []  # nothing was stored


@needs_spec
def test_a_limit_both_know_reads_as_discord_words_it(fake: FakeDiscord) -> None:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "x"}]}]
    status, body = call(
        fake,
        "POST",
        f"/channels/{general.id}/messages",
        {"content": "hi", "components": rows * 6},
    )
    assert status == 400
    assert body["errors"]["components"]["_errors"][0] == {
        "code": "BASE_TYPE_MAX_LENGTH",
        "message": "Must be 5 or fewer in length.",
    }
    take(fake)


@needs_spec
def test_snowflakes_may_be_integers_as_discord_accepts(fake: FakeDiscord) -> None:
    """discord.py sends ids as integers (recipient_id, an upload's attachment id 0); Discord
    accepts them though the description says strings (openapi.SPEC_CORRECTIONS)."""
    alice = fake.fixtures_alice  # type: ignore[attr-defined]
    status, channel = call(fake, "POST", "/users/@me/channels", {"recipient_id": alice.id})
    assert status == 200 and channel["type"] == 1
    assert take(fake) == []


@needs_spec
def test_a_route_the_description_does_not_know_is_refused(fake: FakeDiscord) -> None:
    assert fake.spec_check is not None
    [error] = fake.spec_check.check("POST", "/channels/1/not-a-route", {}, has_body=True)
    assert error.message == "the description has no operation POST /channels/1/not-a-route"
    assert fake.spec_check.template_of("GET", "/users/@me") == "/users/@me"  # not {user_id}
    status, _ = call(fake, "POST", "/channels/1/not-a-route", {})
    assert status == 404 and len(take(fake)) == 1


@needs_spec
def test_a_known_deviation_is_let_through_only_where_listed(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    payload = {"content": "hi", "allowed_mentions": {"parse": ["everybody"]}}
    allowance = openapi.Allowance(
        route="POST /channels/{channel_id}/messages",
        path="allowed_mentions.parse",
        message="must be one of",
        why="a test of the list itself",
    )
    monkeypatch.setattr(openapi, "KNOWN_BOT_DEVIATIONS", [allowance])
    status, _ = call(fake, "POST", f"/channels/{general.id}/messages", payload)
    assert status == 200 and take(fake) == []
    # the same error on another route is not covered
    status, _ = call(
        fake,
        "PATCH",
        f"/channels/{general.id}/messages/{fake.channel_messages[general.id][-1]}",
        payload,
    )
    assert status == 400
    take(fake)


@needs_spec
def test_one_validator_per_route_compiled_once(fake: FakeDiscord) -> None:
    check = fake.spec_check
    assert check is not None
    general = fake.fixtures_general  # type: ignore[attr-defined]
    for text in ("one", "two"):
        call(fake, "POST", f"/channels/{general.id}/messages", {"content": text})
    key = ("POST", "/channels/{channel_id}/messages")
    compiled = check._validators[key]
    call(fake, "POST", f"/channels/{general.id}/messages", {"content": "three"})
    assert check._validators[key] is compiled
    # every fake in the process shares the compiled validators
    assert openapi.load() is check
    take(fake)


def test_without_the_description_the_check_is_off_with_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    monkeypatch.setenv(openapi.SPEC_ENV, str(tmp_path / "missing.json"))
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(openapi, "_ANNOUNCED_MISSING", False)
    with caplog.at_level(logging.WARNING, logger="fakediscord.openapi"):
        assert FakeDiscord().spec_check is None
        assert FakeDiscord().spec_check is None
    lines = [r.getMessage() for r in caplog.records if r.name == "fakediscord.openapi"]
    assert len(lines) == 1 and "does not check requests against it" in lines[0]


def test_under_ci_the_description_is_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(openapi.SPEC_ENV, str(tmp_path / "missing.json"))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(openapi.SpecUnavailable, match="required under CI=true"):
        FakeDiscord()


@needs_spec
def test_a_compiled_validator_is_kept_for_the_next_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert SPEC is not None
    spec = json.loads(SPEC.read_text())
    route = ("PATCH", "/channels/{channel_id}")
    first = openapi.SpecCheck(spec)
    first.warm([route])
    [kept] = list((tmp_path / "ballcourt" / "openapi-validators").iterdir())
    second = openapi.SpecCheck(spec)
    second.warm([route])  # loaded from the file, not compiled again
    assert kept.stat().st_mtime_ns == next(kept.parent.iterdir()).stat().st_mtime_ns
    assert second.check("PATCH", "/channels/1", {"name": 5}, has_body=True)
    assert second.check("PATCH", "/channels/1", {"name": "league"}, has_body=True) == []
