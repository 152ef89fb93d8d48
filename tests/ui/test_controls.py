"""Every select the bot draws acts only on values its menu offered (ui.items.Control): a forged
value is answered privately with NOT_ON_OFFER and the select's own code never runs."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import typing
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from discord.components import _component_factory

import cogs
import host
import ui
from ui.items import NOT_ON_OFFER, Control


def _all_controls() -> list[type[Control]]:
    for package in (cogs, host, ui):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)
    found: list[type[Control]] = []
    stack = list(Control.__subclasses__())
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


SELECTS = [
    cls
    for cls in _all_controls()
    if any(
        discord.ui.Select in typing.get_args(base) for base in getattr(cls, "__orig_bases__", ())
    )
]


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str, *, ephemeral: bool = False, **_) -> None:
        self.sent.append((content, ephemeral))


def interaction(values: list[str]):
    """A select interaction from a message whose menu offers "a" and "b" (one value)."""
    row = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "menu",
                "options": [{"label": v, "value": v} for v in ("a", "b")],
                "min_values": 1,
                "max_values": 1,
            }
        ],
    }
    message = SimpleNamespace(components=[_component_factory(typing.cast(typing.Any, row))])
    data = {"custom_id": "menu", "component_type": 3, "values": values}
    return SimpleNamespace(data=data, message=message, response=Response(), user=None)


def test_every_select_class_is_found():
    names = {cls.__name__ for cls in SELECTS}
    assert {"SlotSelect", "PlayerSelect", "RulesTopicSelect"} <= names, names
    assert len(SELECTS) >= 6


@pytest.mark.parametrize("cls", SELECTS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
@pytest.mark.parametrize(
    "values", [["x" * 100], [""], ["c"], ["g99"], [], ["a", "b"], ["a", "a"]], ids=repr
)
async def test_a_value_the_menu_did_not_offer_is_refused_before_the_select_acts(
    cls, values, monkeypatch
):
    acted: list[object] = []

    async def act(self, interaction) -> None:
        acted.append(interaction)

    monkeypatch.setattr(cls, "act", act)
    control = cls.__new__(cls)
    discord.ui.Item.__init__(control)
    control.item = discord.ui.Select(custom_id="menu", options=[discord.SelectOption(label="a")])
    forged = interaction(values)
    await control.callback(forged)
    assert acted == [] and forged.response.sent == [(NOT_ON_OFFER, True)]
    offered = interaction(["b"])
    await control.callback(offered)
    assert acted == [offered] and offered.response.sent == []


def class_tree(control: type) -> ast.ClassDef:
    """The control's class as written, found through the file of a function it defines (its
    code's own file: inspect.getsource goes through sys.modules, which a test that imports a
    cog afresh may have changed)."""
    functions = [
        getattr(member, "__func__", member)
        for member in vars(control).values()
        if inspect.isfunction(getattr(member, "__func__", member))
    ]
    source = Path(functions[0].__code__.co_filename).read_text(encoding="utf-8")
    return next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and node.name == control.__name__
    )


@pytest.mark.parametrize("control", _all_controls(), ids=lambda cls: cls.__name__)
def test_a_control_s_custom_id_is_written_once_as_its_template(control: type[Control]) -> None:
    """The id a control is drawn with is made from the template it is read back with
    (Control.id_for): an id written a second time by hand can drift from its template, and a
    click on it would match no control."""
    tree = class_tree(control)
    by_hand = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword)
        and node.arg == "custom_id"
        and isinstance(node.value, ast.JoinedStr)
    ]
    assert not by_hand, f"{control.__name__} writes its custom_id by hand at lines {by_hand}"


def test_a_custom_id_is_made_from_its_template_and_read_back_by_it() -> None:
    class Move(
        Control[discord.ui.Button],
        template=r"t:(?P<id>\d+):(?P<act>[a-z]{1,5})(?::(?P<arg>[a-z0-9_]+))?",
    ):
        pass

    assert Move.id_for(id=12, act="place", arg="c4_n") == "t:12:place:c4_n"
    assert Move.id_for(id=12, act="roll", arg=None) == "t:12:roll"  # the optional part left out
    for wrong in ({"id": 12, "act": "Place"}, {"id": "1:2", "act": "roll"}, {"act": "roll"}):
        with pytest.raises(ValueError, match="reads back"):
            Move.id_for(**wrong)
