"""The UI toolkit pieces Volleyball brought to ui/ (one of each for every game): plural and
human_join (ui/formats.py), the upload reader with its one size limit (ui/uploads.py), and the
modal reader and form router (ui/forms.py)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import discord
import pytest

from ui import UserError
from ui.formats import human_join, plural
from ui.forms import FormRoute, modal_values, route_form
from ui.uploads import MAX_UPLOAD_BYTES, read_upload


def test_plural_words_a_count_and_human_join_lists():
    assert f"{plural(1):team}" == "1 team" and f"{plural(2):team}" == "2 teams"
    assert f"{plural(0):match|matches}" == "0 matches"
    assert f"{plural(1):match|matches!}" == "match" and f"{plural(-2):set!}" == "sets"
    assert human_join([]) == "" and human_join(["a"]) == "a"
    assert human_join(["a", "b"]) == "a or b"
    assert human_join(["a", "b", "c"], final="and") == "a, b and c"


class Attachment:
    def __init__(self, data: bytes, filename: str = "orders.txt", size: int | None = None):
        self.data, self.filename = data, filename
        self.size = len(data) if size is None else size
        self.reads = 0

    async def read(self) -> bytes:
        self.reads += 1
        return self.data


async def test_an_upload_is_refused_before_it_is_read_when_too_big():
    big = Attachment(b"", size=MAX_UPLOAD_BYTES + 1)
    with pytest.raises(UserError, match="at most 100 KB") as refused:
        await read_upload(big, what="order forms")  # type: ignore[arg-type]
    assert big.reads == 0 and "order forms fit in a few KB" in str(refused.value)


async def test_an_upload_is_decoded_and_a_wrong_one_told_what_to_send():
    assert await read_upload(Attachment("\ufeffSPONSOR: Cola".encode())) == "SPONSOR: Cola"  # type: ignore[arg-type]
    with pytest.raises(UserError, match="not plain text"):
        await read_upload(Attachment(b"\xff\xfe\x00bad"))  # type: ignore[arg-type]
    with pytest.raises(UserError, match=r"not a \.csv or \.txt file"):
        await read_upload(Attachment(b"x", "a.png"), suffixes=(".csv", ".txt"))  # type: ignore[arg-type]
    with pytest.raises(UserError, match="at most 1 KB"):
        await read_upload(Attachment(b"x" * 2000), max_bytes=1024)  # type: ignore[arg-type]


def test_a_modal_is_read_whatever_the_nesting():
    components = [
        {"type": 1, "components": [{"type": 4, "custom_id": "name", "value": "Red"}]},
        {"type": 18, "component": {"type": 4, "custom_id": "players", "value": "Anna A 8 8"}},
    ]
    assert modal_values(components) == {"name": "Red", "players": "Anna A 8 8"}


async def test_a_form_submit_goes_to_its_route_and_errors_end_in_one_place():
    seen = []

    async def orders(interaction, found, values):
        seen.append((found["league"], values))

    async def broken(interaction, found, values):
        raise UserError("Bad orders.")

    answers = []

    async def send_message(content, **kwargs):
        answers.append(content)

    def interaction(custom_id: str):
        return SimpleNamespace(
            type=discord.InteractionType.modal_submit,
            data={"custom_id": custom_id, "components": [{"custom_id": "lines", "value": "x"}]},
            response=SimpleNamespace(is_done=lambda: False, send_message=send_message),
            user=SimpleNamespace(id=1),
        )

    routes = [
        FormRoute(re.compile(r"vb:(?P<league>\d+):orders"), orders),
        FormRoute(re.compile(r"vb:(?P<league>\d+):broken"), broken),
    ]
    assert await route_form(interaction("vb:7:orders"), routes)  # type: ignore[arg-type]
    assert seen == [("7", {"lines": "x"})]
    assert await route_form(interaction("vb:7:broken"), routes)  # type: ignore[arg-type]
    assert answers == ["Bad orders."]
    assert not await route_form(interaction("match:1:2:form"), routes)  # type: ignore[arg-type]
