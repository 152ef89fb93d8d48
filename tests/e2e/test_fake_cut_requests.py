"""A request whose sender dies before its body has arrived (a shard killed mid-upload, a
dropped connection) is one Discord never received: nothing is stored, and it is no crash of
the fake. A body that is not JSON is answered as Discord answers it, 400 with code 50109."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

from fakediscord.server import FakeDiscord


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.fixtures_general = fake.add_channel("general")  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


def send_raw(fake: FakeDiscord, content_type: str, body: bytes, *, length: int) -> bytes:
    """Send a message-create request with a Content-Length of ``length`` and ``body``; when
    the body is shorter, close the socket before the rest, as a killed process does."""
    general = fake.fixtures_general  # type: ignore[attr-defined]
    api = urlparse(fake.api_base)
    head = (
        f"POST {api.path}/channels/{general.id}/messages HTTP/1.1\r\nHost: {api.hostname}\r\n"
        f"Authorization: Bot {fake.token}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {length}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection((api.hostname, api.port), timeout=5) as connection:
        connection.sendall(head + body)
        if len(body) < length:
            time.sleep(0.2)  # the fake has begun to read the body
            return b""
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        return answer


def settled(fake: FakeDiscord) -> tuple[list[str], int]:
    time.sleep(0.3)  # the fake notices the closed socket
    general = fake.fixtures_general  # type: ignore[attr-defined]
    return fake.call_sync(
        lambda: ([str(v) for v in fake.violations], len(fake.channel_messages[general.id]))
    )


@pytest.mark.parametrize(
    ("content_type", "partial"),
    [
        ("application/json", b'{"content": "hel'),
        (
            "multipart/form-data; boundary=cut",
            b'--cut\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"content":',
        ),
    ],
    ids=["json", "multipart"],
)
def test_a_request_cut_off_mid_body_is_never_received(
    fake: FakeDiscord, content_type: str, partial: bytes
) -> None:
    send_raw(fake, content_type, partial, length=1000)
    violations, stored = settled(fake)
    assert violations == [] and stored == 0
    assert fake.call_sync(lambda: len(fake.requests_cut_off)) == 1


def test_a_body_that_is_not_json_is_answered_as_discord_does(fake: FakeDiscord) -> None:
    body = b'{"content": "hel'
    answer = send_raw(fake, "application/json", body, length=len(body))
    assert answer.startswith(b"HTTP/1.1 400")
    assert b'"code": 50109' in answer or b'"code":50109' in answer
    violations, stored = settled(fake)
    assert stored == 0
    assert len(violations) == 1 and violations[0].startswith("invalid_json")
