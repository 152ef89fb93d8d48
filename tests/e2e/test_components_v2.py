"""Components V2 as the fake Discord checks them (fakediscord/limits.py, Discord's Component
reference): the largest layout Discord accepts passes, one step past a limit is refused with
Discord's 400 50035, on every route a message travels (create, edit, interaction responses 4
and 7, followups and edits of the original response)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from fakediscord import limits
from fakediscord.driver import DiscordDriver
from fakediscord.interactions import APPLICATION_COMMAND, MESSAGE_COMPONENT
from fakediscord.server import FakeDiscord

V2 = limits.FLAG_IS_COMPONENTS_V2


def text(content: str = "Score 1-0") -> dict:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "Go") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*children: dict) -> dict:
    return {"type": 1, "components": list(children)}


def section(*texts: dict, accessory: dict | None = None) -> dict:
    result: dict[str, Any] = {"type": 9, "components": list(texts)}
    if accessory is not None:
        result["accessory"] = accessory
    return result


def thumbnail(url: str = "attachment://crest.png") -> dict:
    return {"type": 11, "media": {"url": url}}


def gallery(*urls: str) -> dict:
    return {"type": 12, "items": [{"media": {"url": url}} for url in urls]}


def container(*children: dict, **extra: Any) -> dict:
    return {"type": 17, "components": list(children), **extra}


def errors_of(components: list[dict], names: set[str] | None = None, **message: Any) -> list[str]:
    draft = {"flags": V2, "components": components, **message}
    return [
        error.describe()
        for error in limits.check_message(draft, [], attachment_names=names or set())
    ]


# --- the rules, at their edges -----------------------------------------------------------------


def test_a_full_card_discord_accepts_passes():
    card = container(
        section(text("## Score"), text("Alice to move"), text("-# round 3"), accessory=thumbnail()),
        gallery(*[f"attachment://board{n}.png" for n in range(10)]),
        {"type": 13, "file": {"url": "attachment://moves.txt"}},
        {"type": 14, "divider": True, "spacing": 2},
        section(text("Roll"), accessory=button("roll")),
        row(*[button(f"b{n}") for n in range(5)]),
        row({"type": 3, "custom_id": "pick", "options": [{"label": "A", "value": "a"}]}),
        accent_color=0xFFFFFF,
    )
    names = {"crest.png", "moves.txt", *(f"board{n}.png" for n in range(10))}
    assert errors_of([card, text("x" * (4000 - 35))], names) == []  # 4000 in all


@pytest.mark.parametrize(
    ("components", "refusal"),
    [
        (
            [container(*[text() for _ in range(39)]), text()],  # 41 counted at every depth
            "components: Must be 40 or fewer in length.",
        ),
        (
            [container(row(*[button(f"b{n}") for n in range(5)]), *[text() for _ in range(34)])],
            "components: Must be 40 or fewer in length.",  # a row's buttons count too
        ),
        (
            [text("x" * 2000), container(text("x" * 2001))],
            "components: The text displays of a message must be 4000 or fewer characters "
            "in all (4001)",
        ),
        ([text("")], "components.0.content: Must be between 1 and 4000 in length."),
        ([gallery()], "components.0.items: Must be between 1 and 10 in length."),
        (
            [gallery(*["https://example.com/a.png"] * 11)],
            "components.0.items: Must be between 1 and 10 in length.",
        ),
        (
            [gallery("attachment://gone.png")],
            "components.0.items.0.media.url: attachment://gone.png names no file of this "
            "message (it has ['crest.png'])",
        ),
        (
            [{"type": 13, "file": {"url": "https://example.com/a.txt"}}],
            "components.0.file.url: A file component only takes attachment://<filename> references",
        ),
        (
            [section(text(), accessory={"type": 11, "media": {"url": "ftp://x/a.png"}})],
            "components.0.accessory.media.url: Scheme must be one of ('http', 'https').",
        ),
        (
            [section(text(), text(), text(), text(), accessory=thumbnail())],
            "components.0.components: Must be between 1 and 3 in length.",
        ),
        ([section(text())], "components.0.accessory: This field is required"),
        (
            [section(text(), accessory=text())],
            "components.0.accessory.type: Component type 10 is not allowed as a section's "
            "accessory (allowed: [2, 11])",
        ),
        (
            [section(button("b"), accessory=thumbnail())],
            "components.0.components.0.type: Component type 2 is not allowed in a section's "
            "text (allowed: [10])",
        ),
        (
            [container(container(text()))],
            "components.0.components.0.type: Component type 17 is not allowed in a "
            "container (allowed: [1, 9, 10, 12, 13, 14])",
        ),
        (
            [button("loose")],
            "components.0.type: Component type 2 is not allowed at the top of a message "
            "(allowed: [1, 9, 10, 12, 13, 14, 17])",
        ),
        (
            [thumbnail()],
            "components.0.type: Component type 11 is not allowed at the top of a message "
            "(allowed: [1, 9, 10, 12, 13, 14, 17])",
        ),
        ([container()], "components.0.components: Must be between 1 and 40 in length."),
        (
            [container(text(), accent_color=0x1000000)],
            "components.0.accent_color: Must be between 0 and 16777215.",
        ),
        (
            [container(row(button("same")), section(text(), accessory=button("same")))],
            "components.0.components.1.accessory.custom_id: Component custom id cannot be "
            "duplicated ('same')",
        ),
        (
            [{**text(), "id": 7}, {**text(), "id": 7}],
            "components.1.id: Component id 7 is already used in this message",
        ),
        (
            [
                row(
                    button("a"),
                    {"type": 3, "custom_id": "s", "options": [{"label": "A", "value": "a"}]},
                )
            ],
            "components.0.components: A select menu must be alone in its action row",
        ),
        ([{"type": 14, "spacing": 3}], "components.0.spacing: Value must be one of (1, 2)."),
    ],
)
def test_v2_limits(components, refusal):
    assert refusal in errors_of(components, {"crest.png"})


def test_no_content_embeds_poll_or_stickers_beside_the_flag():
    refused = errors_of(
        [text()], content="hi", embeds=[{"title": "t"}], poll={"question": {"text": "?"}}
    )
    for key in ("content", "embeds", "poll"):
        assert (
            f"{key}: The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"
            in refused
        )


# --- through the REST routes -------------------------------------------------------------------


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    # These tests call the REST routes themselves, dozens of posts in one channel within a
    # second, to check what the fake accepts: Discord's limits (5 posts in 5 s) would refuse
    # them for their pace, not their content; tests/e2e/test_rate_limits.py checks the limits.
    fake = FakeDiscord(rate_limits=False)
    fake.fixtures_alice = fake.add_user("alice")  # type: ignore[attr-defined]
    fake.fixtures_general = fake.add_channel("general")  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


def call(
    fake: FakeDiscord,
    method: str,
    path: str,
    payload: Any = None,
    files: dict[str, bytes] | None = None,
) -> tuple[int, Any]:
    """A REST call as the bot makes it (JSON, or multipart with payload_json and files[n])."""
    headers = {"Authorization": f"Bot {fake.token}"}
    if files:
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n'
            f"Content-Type: application/json\r\n\r\n{json.dumps(payload)}\r\n".encode()
        ]
        for index, (name, data) in enumerate(files.items()):
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="files[{index}]"; '
                f'filename="{name}"\r\nContent-Type: image/png\r\n\r\n'.encode()
                + data
                + b"\r\n"
            )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    else:
        body = json.dumps(payload).encode() if payload is not None else None
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(
        fake.api_base + path, data=body, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x08\x08\x02\x00\x00\x00"
    b"\x00\x00\x00\x00"
)
CARD = {"flags": V2, "components": [container(section(text(), accessory=thumbnail()))]}
TOO_LONG = {"flags": V2, "components": [text("x" * 4000), text("y")]}


def leaf_codes(body: dict) -> list[str]:
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.extend(error["code"] for error in node.get("_errors", []))
            for key, value in node.items():
                if key != "_errors":
                    walk(value)

    walk(body.get("errors"))
    return found


def take(fake: FakeDiscord) -> list[str]:
    def run() -> list[str]:
        kinds = [v.kind for v in fake.violations if not v.consumed]
        for violation in fake.violations:
            violation.consumed = True
        return kinds

    return fake.call_sync(run)


def test_create_and_edit_a_v2_message_with_its_file(fake: FakeDiscord) -> None:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    status, message = call(
        fake, "POST", f"/channels/{general.id}/messages", CARD, files={"crest.png": PNG}
    )
    assert status == 200, message
    media = message["components"][0]["components"][0]["accessory"]["media"]
    assert media["url"].endswith("/crest.png") and media["attachment_id"]
    assert (media["width"], media["height"]) == (16, 8)
    # an edit keeps the file and its reference; the flag cannot be dropped
    status, edited = call(fake, "PATCH", f"/channels/{general.id}/messages/{message['id']}", CARD)
    assert status == 200 and edited["flags"] & V2
    status, refused = call(
        fake, "PATCH", f"/channels/{general.id}/messages/{message['id']}", TOO_LONG
    )
    assert status == 400 and refused["code"] == 50035
    assert leaf_codes(refused) == ["MESSAGE_TEXT_DISPLAY_TOTAL_TOO_LONG"]
    # a reference to no file of the message, on create
    status, refused = call(fake, "POST", f"/channels/{general.id}/messages", CARD)
    assert status == 400 and leaf_codes(refused) == ["UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"]
    assert take(fake) == ["invalid_form_body", "invalid_form_body"]


def _interaction(fake: FakeDiscord, kind: int, message: dict | None = None):
    alice = fake.fixtures_alice  # type: ignore[attr-defined]
    general = fake.fixtures_general  # type: ignore[attr-defined]
    return fake.call_sync(
        lambda: fake.new_interaction(
            kind=kind,
            user=alice,
            channel_id=general.id,
            data={"custom_id": "go", "component_type": 2} if message else {"name": "x"},
            message=message,
        )
    )


@pytest.mark.parametrize("callback", [4, 7])
def test_interaction_responses_are_checked(fake: FakeDiscord, callback: int) -> None:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    _, clicked_on = call(
        fake, "POST", f"/channels/{general.id}/messages", {"flags": V2, "components": [text()]}
    )
    kind = APPLICATION_COMMAND if callback == 4 else MESSAGE_COMPONENT
    record = _interaction(fake, kind, clicked_on if callback == 7 else None)
    path = f"/interactions/{record.id}/{record.token}/callback"
    status, refused = call(fake, "POST", path, {"type": callback, "data": TOO_LONG})
    assert status == 400 and leaf_codes(refused) == ["MESSAGE_TEXT_DISPLAY_TOTAL_TOO_LONG"]
    assert "data" in refused["errors"]  # Discord nests the errors under data
    status, _ = call(fake, "POST", path, {"type": callback, "data": CARD}, files={"crest.png": PNG})
    assert status == 204
    assert record.original_message_id is not None
    stored = fake.messages[record.original_message_id]
    assert stored["flags"] & V2 and stored["components"][0]["type"] == 17
    assert take(fake) == ["invalid_form_body"]


def test_followups_and_edits_of_the_original_response_are_checked(fake: FakeDiscord) -> None:
    record = _interaction(fake, APPLICATION_COMMAND)
    status, _ = call(
        fake, "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 5}
    )
    assert status == 204
    hook = f"/webhooks/{fake.application_id}/{record.token}"
    status, refused = call(fake, "PATCH", f"{hook}/messages/@original", TOO_LONG)
    assert status == 400 and leaf_codes(refused) == ["MESSAGE_TEXT_DISPLAY_TOTAL_TOO_LONG"]
    status, original = call(
        fake, "PATCH", f"{hook}/messages/@original", CARD, files={"crest.png": PNG}
    )
    assert status == 200 and original["components"][0]["type"] == 17
    status, refused = call(fake, "POST", f"{hook}?wait=true", {**CARD, "flags": V2})
    assert status == 400 and leaf_codes(refused) == ["UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"]
    status, followup = call(
        fake, "POST", f"{hook}?wait=true", {"flags": V2, "components": [text("Next")]}
    )
    assert status == 200 and followup["flags"] & V2
    status, _ = call(fake, "PATCH", f"{hook}/messages/{followup['id']}", TOO_LONG)
    assert status == 400
    assert take(fake) == ["invalid_form_body"] * 3


def test_a_text_display_mentions_as_content_does(fake: FakeDiscord) -> None:
    """Discord pings whom a v2 message's text displays mention (there is no content)."""
    general = fake.fixtures_general  # type: ignore[attr-defined]
    alice = fake.fixtures_alice  # type: ignore[attr-defined]
    payload = {"flags": V2, "components": [container(text(f"{alice.mention}, your move"))]}
    status, message = call(fake, "POST", f"/channels/{general.id}/messages", payload)
    assert status == 200 and [user["id"] for user in message["mentions"]] == [str(alice.id)]


def test_the_driver_reads_and_clicks_inside_containers(fake: FakeDiscord) -> None:
    general = fake.fixtures_general  # type: ignore[attr-defined]
    card = container(
        section(text("## Score 2-1"), accessory=button("card:goal", "Goal")),
        row({"type": 3, "custom_id": "card:pick", "options": [{"label": "A", "value": "a"}]}),
    )
    _, posted = call(
        fake, "POST", f"/channels/{general.id}/messages", {"flags": V2, "components": [card]}
    )
    driver = DiscordDriver(fake, general)
    message = driver.message(int(posted["id"]))
    assert message.is_v2 and message.text_displays == ["## Score 2-1"]
    assert "Score 2-1" in message.text
    assert message.button_labelled("Goal").custom_id == "card:goal"
    assert message.button_with_id("card:goal").label == "Goal"
    assert message.select("card:pick").options[0].label == "A"
    assert [c["type"] for c in message.components_of_type(9)] == [9]
