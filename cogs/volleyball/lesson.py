"""`/volleyball learn`: Volleyball's lesson (rules/volleyball/lesson.py, docs/rules/volleyball.md
"Learn by playing") on a card of its own in the channel, played by its buttons only.

The card is the lesson's progress: each button names the learner, the step it belongs to and
its option (a DynamicItem, so a card keeps working after a restart, and a learner who leaves
finds it where it was). The right option draws the next step in place; any other is answered
privately with the step's hint (and the engine's own reason where it refuses the option), and
the card is left as it was. Only the learner's clicks count. It is a set played from the
lesson's seed, never a league: nothing of it is rated or in a league's tables.
"""

from __future__ import annotations

import re

import discord

from cogs.volleyball.why import COMMAND, RULEBOOK
from host.why import send_worded, worded
from rules.volleyball import Lesson, answer_of, lesson_script, match_events, options_of, refusal
from ui import UserError
from ui.items import Control
from ui.replies import send_ephemeral
from ui.text import shown

GAME = "volleyball"
NEXT = {
    "league": (
        "Start a real league",
        "A server admin starts one with `/volleyball league create` and then `/volleyball "
        "league start`; every seat is a computer team until a manager comes.",
    ),
    "team": (
        "Join a league",
        "`/volleyball team create` brings your team to a league of this server (**Make me a "
        "team** fills the form for you), or `/volleyball take-seat` manages a computer's team "
        "as it is. Then `/volleyball orders edit` gives each round's orders with menus, as here.",
    ),
}


def step_text(script: Lesson, index: int) -> str:
    """The card at step `index`: what to do and why, the clause, and the set as it stands."""
    team, other = script.team, script.opponent
    lines: list[str] = []
    if index >= len(script.steps):
        lines.append(f"📘 **Lesson done!** {script.done}")
    else:
        step = script.steps[index]
        lines.append(f"📘 **Volleyball lesson {index + 1}/{len(script.steps)}:** {step.say}")
        lines.append(f"-# 📖 The rules: *{step.rule}* (`/volleyball rules`)")
    order = script.set_order(min(index, len(script.steps)))
    opponent = script.opponent_set
    lines.append(
        f"**{shown(team.name)}** (your team) v **{shown(other.name)}** "
        f"({opponent.concept.label} {opponent.concept.abbreviation}, risk {opponent.effective_risk})"
    )
    if not order.slots:
        squad = ", ".join(f"{shown(p.name)} {p.ol}/{p.dl}" for p in team.players)
        lines.append(f"Your squad (OL/DL): {squad}")
    else:
        six = ", ".join(
            shown(slot.player) + (f" ({slot.position.label})" if slot.position != 3 else "")
            for slot in order.slots
        )
        concept = (
            f" · {order.concept.label} ({order.concept.abbreviation}), risk {order.risk}"
            if order.risk is not None
            else ""
        )
        lines.append(f"Set 1: {six}{concept}")
    done = {s.kind: s for s in script.steps[:index]}
    if "training" in done:
        lines.append(f"Training: {shown(done['training'].answer)} ✓")
    if "transfer" in done:
        listed = done["transfer"].options[done["transfer"].answer]
        lines.append(f"Transfer list: {', '.join(shown(name) for name in listed)} ✓")
    if "play" in done:
        lines.append("**Your report:**")
        lines += [f"> {line.strip()}" for line in script.report()]
    return "\n".join(lines)


def step_view(script: Lesson, user_id: int, index: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if index >= len(script.steps):
        for kind, (label, _) in NEXT.items():
            view.add_item(LessonNext(kind, label))
        view.add_item(LessonWhy())
        return view
    for number, label in enumerate(options_of(script, index)):
        view.add_item(LessonChoice(user_id, index, number, label))
    if any(step.kind == "play" for step in script.steps[:index]):
        view.add_item(LessonWhy())
    return view


def card(user_id: int, index: int) -> dict:
    script = lesson_script()
    return {"content": step_text(script, index), "view": step_view(script, user_id, index)}


async def start(interaction: discord.Interaction) -> None:
    """`/volleyball learn` (and a Learn button): the lesson's first step, in the channel."""
    if interaction.guild_id is None:
        raise UserError("The Volleyball lesson is played in a server channel, not in DMs.")
    await interaction.response.send_message(**card(interaction.user.id, 0))


class LessonChoice(
    Control[discord.ui.Button],
    template=r"vblearn:(?P<user>\d+):(?P<step>\d+):(?P<option>\d+)",
):
    """One option of a lesson's step, for its learner only."""

    def __init__(self, user_id: int, step: int, option: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] or "?",
                style=discord.ButtonStyle.primary,
                custom_id=self.id_for(user=user_id, step=step, option=option),
            )
        )
        self.user_id, self.step, self.option = user_id, step, option

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LessonChoice:
        return cls(int(match["user"]), int(match["step"]), int(match["option"]))

    async def act(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise UserError("This is someone else's lesson: `/volleyball learn` starts yours.")
        script = lesson_script()
        options = options_of(script, self.step) if self.step < len(script.steps) else []
        if not 0 <= self.option < len(options):
            raise UserError("That lesson's step has changed: use the card's buttons as they are.")
        label = options[self.option]
        if label != answer_of(script, self.step):
            why = refusal(script, self.step, label)
            said = f"Not quite: {why}\n" if why else "Not quite. "
            raise UserError(f"{said}{script.steps[self.step].hint} (Nothing changed.)")
        await interaction.response.edit_message(**card(self.user_id, self.step + 1))


class LessonNext(Control[discord.ui.Button], template=r"vblearn:next:(?P<kind>[a-z]+)"):
    """The lesson's end: the way to a real league, privately to whoever clicks."""

    def __init__(self, kind: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or NEXT.get(kind, ("Next", ""))[0],
                style=discord.ButtonStyle.success,
                custom_id=self.id_for(kind=kind),
            )
        )
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LessonNext:
        return cls(match["kind"])

    async def act(self, interaction: discord.Interaction) -> None:
        if self.kind not in NEXT:
            raise UserError("That button is no longer offered.")
        await send_ephemeral(interaction, NEXT[self.kind][1])


class LessonWhy(Control[discord.ui.Button], template=r"vblearn:why"):
    """Why? on the lesson's set report: what decided the set, each ruling of the rules page it
    names (rules/volleyball/why.py) worded from the page, privately to whoever asks."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(
                label="Why?", style=discord.ButtonStyle.secondary, custom_id=self.id_for()
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LessonWhy:
        return cls()

    async def act(self, interaction: discord.Interaction) -> None:
        result = lesson_script().result()
        told = [(shown(event.text), event.rules) for event in match_events(result)]
        text, topics = worded(RULEBOOK, [("**The lesson's set**", told)], COMMAND)
        await send_worded(interaction, RULEBOOK, "Why? The lesson's set", text, topics)


LESSON_ITEMS = (LessonChoice, LessonNext, LessonWhy)
