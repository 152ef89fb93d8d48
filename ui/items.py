"""The base of every persistent control (button or select) the bot draws: a DynamicItem whose
custom_id carries what it acts on, so it works after a restart, and whose callback ends in the
one error reporter, so no control repeats that handling. A select acts only on values it
offered, so no control checks that itself. A control's custom_id is written once, as its
template: the id it is drawn with is made from the template (`Control.id_for`), the one it is
clicked with is read by it."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

import discord

from ui.replies import report_error, send_ephemeral

NOT_ON_OFFER = "That choice is not on offer: pick one of the menu's options. Nothing was changed."

BaseT = TypeVar("BaseT", bound=discord.ui.Item[Any], covariant=True)


class Control(discord.ui.DynamicItem[BaseT], template=re.compile(r"(?!)")):
    """Subclasses give a `template` and implement `act`; errors are reported, never raised
    (buttons and selects bypass the command tree's error handler)."""

    def __init_subclass__(cls, *, template: str | re.Pattern[str]) -> None:
        super().__init_subclass__(template=template)

    @classmethod
    def id_for(cls, **parts: object) -> str:
        """The custom_id this control is drawn with, acting on `parts` (a value for each
        named group of its template; an optional group whose values are None is left out).
        A value the template would not read back (a control nothing answers) is a bug,
        raised as ValueError when the control is drawn."""
        return written(cls.__discord_ui_compiled_template__, parts)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if not self.offered(interaction):
                await send_ephemeral(interaction, NOT_ON_OFFER)
                return
            await self.act(interaction)
        except Exception as error:
            await report_error(interaction, error)

    def offered(self, interaction: discord.Interaction[Any]) -> bool:
        """For a select: the submitted values are options of the menu the message showed, as
        many as it takes, each once. Discord's client offers nothing else, but the interaction
        carries the values as strings that a modified client can set to anything (Discord's
        Component Reference, "String Select Interaction Response Structure": values;
        https://discord.com/developers/docs/components/reference#string-select); `act` sees
        only what was offered. The menu is read from the message the interaction came from: a
        persistent control is rebuilt from its custom_id alone and does not know its options."""
        if not isinstance(self.item, discord.ui.Select):
            return True
        values = (interaction.data or {}).get("values")
        menu = next(
            (
                component
                for component in _walk(
                    interaction.message.components if interaction.message else []
                )
                if isinstance(component, discord.SelectMenu)
                and component.custom_id == self.custom_id
            ),
            None,
        )
        if menu is None or not isinstance(values, list):
            return False
        options = {option.value for option in menu.options}
        return (
            menu.min_values <= len(values) <= menu.max_values
            and len(set(values)) == len(values)
            and all(value in options for value in values)
        )

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


def written(template: re.Pattern[str], parts: Mapping[str, object]) -> str:
    """The text `template` matches whole with each named group `(?P<name>...)` holding
    `parts[name]` (a part the template has no group for is not used): the literal text
    around the groups kept (an escaped character as itself), an optional group `(?:...)?`
    kept when it has its values and left out when it has none.
    Templates are the controls' own: literals, named groups and optional groups, nothing
    else outside a group."""
    pieces, end = _pieces(template.pattern, 0)
    text = _filled(pieces, parts) if end == len(template.pattern) else None
    read = template.fullmatch(text) if text is not None else None
    given = {
        name: str(value)
        for name, value in parts.items()
        if value not in (None, "") and name in template.groupindex
    }
    if read is None or any(read[name] != value for name, value in given.items()):
        raise ValueError(f"{parts} make no custom_id that {template.pattern!r} reads back")
    return read.string


# A template read into its pieces: literal text, a named group's name (_Name), or a group of
# pieces (_Group) that may be left out. Read once per template (every card draws its
# controls' ids from a handful of templates).
class _Name(str):
    pass


_Group = tuple[tuple[Any, ...], bool]  # (pieces, optional)


def _filled(pieces: tuple[Any, ...], parts: Mapping[str, object]) -> str | None:
    """The text of `pieces` with `parts` in their names; None when a name has no value."""
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, _Name):
            value = parts.get(piece)
            if value is None or value == "":
                return None
            out.append(str(value))
        elif isinstance(piece, tuple):
            inner, optional = piece
            text = _filled(inner, parts)
            if text is not None:
                out.append(text)
            elif not optional:
                return None
        else:
            out.append(piece)
    return "".join(out)


@functools.cache
def _pieces(pattern: str, start: int) -> tuple[tuple[Any, ...], int]:
    """The pieces of `pattern` from `start` to the `)` closing the group it stands in (or the
    end), and where it stopped."""
    pieces: list[Any] = []
    index = start
    while index < len(pattern) and pattern[index] != ")":
        if pattern.startswith("(?P<", index):
            name_end = pattern.index(">", index)
            pieces.append(_Name(pattern[index + 4 : name_end]))
            index = _closing(pattern, name_end + 1) + 1
        elif pattern.startswith("(?:", index):
            inner, index = _pieces(pattern, index + 3)
            index += 1  # past the group's ")"
            optional = pattern.startswith("?", index)
            index += optional
            pieces.append((inner, optional))
        elif pattern[index] == "\\":
            pieces.append(pattern[index + 1])
            index += 2
        else:
            pieces.append(pattern[index])
            index += 1
    return tuple(pieces), index


def _closing(pattern: str, index: int) -> int:
    """Where the group whose inside starts at `index` closes (nested groups, escapes and
    character classes skipped)."""
    depth = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            index = pattern.index("]", index + 2 if pattern.startswith("[]", index) else index + 1)
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return index
            depth -= 1
        index += 1
    raise ValueError(f"unclosed group in {pattern!r}")


def _walk(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, depth first (action rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", None) or ())
        for key in ("accessory", "component"):
            inner = getattr(component, key, None)
            if inner is not None:
                yield from _walk([inner])


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A persistent view holding `items`. Where there may be none, the caller sends no view
    (the message has no controls)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
