"""Discord's limits as the fake enforces them (fakediscord/limits.py), at the edges:
the largest thing Discord accepts passes, one more is refused with Discord's error."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from fakediscord import limits
from fakediscord.server import FakeDiscord


def _described(errors: list[limits.FieldError]) -> list[str]:
    return [error.describe() for error in errors]


def _button(custom_id: str, label: str = "Go") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


@pytest.mark.parametrize(
    ("message", "refusal"),
    [
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer in length."),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title: Must be 256 or fewer in length."),
        (
            {"embeds": [{"description": "d" * 4097}]},
            "embeds.0.description: Must be 4096 or fewer in length.",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
            "embeds.0.fields: Must be 25 or fewer in length.",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
            "embeds.0.fields.0.value: Must be 1024 or fewer in length.",
        ),
        (
            {"embeds": [{"fields": [{"name": "", "value": "v"}]}]},
            "embeds.0.fields.0.name: Must be between 1 and 256 in length.",
        ),
        (
            {"embeds": [{"footer": {"text": "f" * 2049}}]},
            "embeds.0.footer.text: Must be 2048 or fewer in length.",
        ),
        (
            {"embeds": [{"author": {"name": "a" * 257}}]},
            "embeds.0.author.name: Must be 256 or fewer in length.",
        ),
        ({"embeds": [{"title": "t"}] * 11}, "embeds: Must be 10 or fewer in length."),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            "embeds: Embed size exceeds maximum size of 6000",
        ),
        (
            {"components": [_row(_button(f"b{n}")) for n in range(6)]},
            "components: Must be 5 or fewer in length.",
        ),
        (
            {"components": [_row(*[_button(f"b{n}") for n in range(6)])]},
            "components.0.components: Must be 5 or fewer in length.",
        ),
        (
            {"components": [_row(_button("c" * 101))]},
            "components.0.components.0.custom_id: Must be 100 or fewer in length.",
        ),
        (
            {"components": [_row(_button("same"), _button("same"))]},
            "components.0.components.1.custom_id: Component custom id cannot be duplicated ('same')",
        ),
        (
            {"components": [_row(_button("b", label="l" * 81))]},
            "components.0.components.0.label: Must be 80 or fewer in length.",
        ),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "pick",
                            "options": [{"label": str(n), "value": str(n)} for n in range(26)],
                        }
                    )
                ]
            },
            "components.0.components.0.options: Must be between 1 and 25 in length.",
        ),
        (
            {
                "components": [
                    _row(
                        {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]},
                        _button("b"),
                    )
                ]
            },
            "components.0.components: A select menu must be alone in its action row",
        ),
        (
            {"attachments": [{"id": n} for n in range(11)]},
            "attachments: Must be 10 or fewer in length.",
        ),
    ],
)
def test_message_limits(message, refusal):
    assert refusal in _described(limits.check_message(message, []))


def test_the_largest_message_discord_accepts_passes():
    fields = [{"name": "n" * 20, "value": "v" * 40}] * 25  # 1500 characters
    message = {
        "content": "x" * 2000,
        "embeds": [
            {"title": "t" * 256, "description": "d" * 4000, "fields": fields[:2]},
            {"footer": {"text": "f" * (6000 - 256 - 4000 - 120)}},
        ],
        "components": [
            _row(*[_button(f"{row}:{n}" + "c" * 90, label="l" * 80) for n in range(5)])
            for row in range(5)
        ],
        "attachments": [{"id": n} for n in range(10)],
    }
    assert limits.embed_size(message["embeds"][0]) + limits.embed_size(message["embeds"][1]) == 6000
    assert limits.check_message(message, [1] * 10) == []


def test_components_v2_limits():
    v2 = 1 << 15
    text = {"type": 10, "content": "Score 1-0"}
    assert limits.check_message({"flags": v2, "components": [text]}, []) == []
    with_content = limits.check_message({"flags": v2, "content": "hi", "components": [text]}, [])
    assert any(
        "cannot be used when using MessageFlags.IS_COMPONENTS_V2" in e.message for e in with_content
    )
    container = {"type": 17, "components": [dict(text) for _ in range(40)]}  # 41 in all
    assert "components: Must be 40 or fewer in length." in _described(
        limits.check_message({"flags": v2, "components": [container]}, [])
    )
    # without the flag, layout components are not allowed at the top
    assert "components.0.type: Top-level message components must be action rows" in "\n".join(
        _described(limits.check_message({"components": [text]}, []))
    )


def test_empty_message_is_recognised():
    assert limits.is_empty_message({"content": "", "embeds": [], "components": []})
    assert not limits.is_empty_message({"content": "", "attachments": [{"id": 0}]})


def test_modal_limits():
    text_input = {"type": 4, "custom_id": "answer", "style": 1, "label": "Answer"}
    good = {"title": "t" * 45, "custom_id": "m", "components": [_row(text_input)]}
    assert limits.check_modal(good) == []
    too_long = {**good, "title": "t" * 46}
    assert "data.title: Must be 45 or fewer in length." in _described(limits.check_modal(too_long))
    six_rows = {
        **good,
        "components": [_row({**text_input, "custom_id": f"a{n}"}) for n in range(6)],
    }
    assert "data.components: Must be between 1 and 5 in length." in _described(
        limits.check_modal(six_rows)
    )
    labelled = {
        "title": "t",
        "custom_id": "m",
        "components": [{"type": 18, "label": "L" * 46, "component": {**text_input}}],
    }
    assert "data.components.0.label: Must be 45 or fewer in length." in _described(
        limits.check_modal(labelled)
    )


def _command(**overrides) -> dict:
    command = {"name": "game", "description": "A game", "type": 1, "options": []}
    command.update(overrides)
    return command


def _option(name: str, required: bool = False, kind: int = 3, **extra) -> dict:
    return {"name": name, "description": "An option", "type": kind, "required": required, **extra}


@pytest.mark.parametrize(
    ("commands", "refusal"),
    [
        ([_command(name="Game")], "0.name: Command name is invalid ('Game'"),
        ([_command(name="g" * 33)], "0.name: Must be between 1 and 32 in length."),
        ([_command(name="two words")], "0.name: Command name is invalid ('two words'"),
        ([_command(description="")], "0.description: Must be between 1 and 100 in length."),
        ([_command(description="d" * 101)], "0.description: Must be 100 or fewer in length."),
        (
            [_command(options=[_option(f"o{n}") for n in range(26)])],
            "0.options: Must be 25 or fewer in length.",
        ),
        (
            [_command(options=[_option("later"), _option("first", required=True)])],
            "0.options.1.required: Required options must be placed before non-required options",
        ),
        (
            [
                _command(
                    options=[
                        _option(
                            "pick",
                            choices=[{"name": str(n), "value": str(n)} for n in range(26)],
                        )
                    ]
                )
            ],
            "0.options.0.choices: Must be 25 or fewer in length.",
        ),
        (
            [_command(options=[_option("sub", kind=1), _option("plain")])],
            "0.options: Sub-commands and sub-command groups cannot be mixed",
        ),
        ([_command(), _command()], "1.name: Application command name 'game' is already used"),
        (
            [_command(options=[_option(f"o{n}", description="d" * 100) for n in range(25)] * 2)],
            "0: Command exceeds maximum size (4000)",
        ),
    ],
)
def test_command_tree_limits(commands, refusal):
    described = _described(limits.check_command_tree(commands, is_global=True))
    assert any(line.startswith(refusal) for line in described), described


def test_a_valid_tree_with_groups_passes():
    sub = _option("challenge", kind=1, options=[_option("opponent", required=True, kind=6)])
    group = _option("admin", kind=2, options=[_option("sync", kind=1)])
    assert limits.check_command_tree([_command(options=[sub, group])], is_global=True) == []


def test_fake_answers_a_bad_sync_with_discords_error_body():
    """PUT /applications/{id}/commands with a bad tree: 400 50035 with nested errors, the
    tree is not stored, and the violation is recorded."""
    fake = FakeDiscord()
    fake.start()
    try:
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        body = json.dumps([_command(name="Bad")]).encode()
        request = urllib.request.Request(
            url,
            data=body,
            method="PUT",
            headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request)
        assert caught.value.code == 400
        answer = json.loads(caught.value.read())
        assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
        leaf = answer["errors"]["0"]["name"]["_errors"][0]
        assert leaf["code"] == "APPLICATION_COMMAND_INVALID_NAME"
        assert fake.commands[None] == []
        assert [v.kind for v in fake.violations] == ["invalid_form_body"]
    finally:
        fake.stop()
