"""The lesson's card (docs/rules/volleyball.md "Learn by playing"; cogs/volleyball/lesson.py runs
the lesson): a lesson league's status card is the league's real card with the lesson's step above
it, its real buttons (Edit with menus, My team, Why?) and the lesson's Play the round; at the end
the way to a real league. `checked` is what every control of a lesson league asks before it
changes anything: is this the click the lesson's step waits for?
"""

from __future__ import annotations

import re

import discord

from cogs.volleyball.components import LeagueButton, controls_of
from db import volleyball as store
from rules.volleyball import SetOrder, lesson_script, mismatch
from ui import UserError
from ui.items import Control
from ui.replies import send_ephemeral

NOTHING_CHANGED = "(Nothing changed.)"
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
        "as it is. Then **Edit with menus** on its card gives each round's orders, as here.",
    ),
}


def is_lesson(stored: store.StoredLeague) -> bool:
    return stored.lesson_of is not None


def done(stored: store.StoredLeague) -> bool:
    return stored.lesson_step >= len(lesson_script().steps)


def refusal(stored: store.StoredLeague, user_id: int) -> str | None:
    """Only a lesson's learner acts in it (and reads it: it is nobody else's league). The
    league host asks this of every load for a user (league.py `Leagues.refusal`)."""
    if stored.lesson_of is not None and stored.lesson_of != user_id:
        return "This is someone's lesson: `/volleyball learn` starts your own."
    return None


def card_text(stored: store.StoredLeague) -> str:
    """The lesson's step, above the league's real card: what to do and why, and the clause."""
    script = lesson_script()
    step = script.step(stored.lesson_step)
    learner = f"<@{stored.lesson_of}>'s lesson"
    if step is None:
        return f"📘 **Lesson done!** ({learner}) {script.done}"
    return (
        f"📘 **Volleyball lesson {stored.lesson_step + 1}/{len(script.steps)}** ({learner}): "
        f"{step.say}\n-# 📖 The rules: *{step.rule}* (`/volleyball rules`)"
    )


def card_items(stored: store.StoredLeague) -> list[discord.ui.Item]:
    """The lesson card's buttons: the league card's own (Edit with menus, My team, Why?) and
    the lesson's Play the round; at the end, the way to a real league."""
    if done(stored):
        return [*(LessonNext(kind) for kind in NEXT), LeagueButton(stored.id, "why")]
    return [
        LeagueButton(stored.id, "edit"),
        LeagueButton(stored.id, "sheet"),
        LessonPlay(stored.id),
        LeagueButton(stored.id, "why"),
    ]


def mismatch_of(
    stored: store.StoredLeague,
    control: str,
    order: SetOrder | None = None,
    pick: str | None = None,
) -> str:
    """The step's hint for a click on `control` (empty: the click is the step's)."""
    return mismatch(lesson_script(), stored.lesson_step, control, order, pick)


def checked(
    stored: store.StoredLeague,
    control: str,
    order: SetOrder | None = None,
    pick: str | None = None,
) -> None:
    """Raise the step's hint (UserError) unless `control` (with the set as it would be after
    the click, or the pick of one of My team's menus) is what the lesson's step waits for;
    nothing is saved before this passes."""
    hint = mismatch_of(stored, control, order, pick)
    if hint:
        raise UserError(f"Not quite. {hint} {NOTHING_CHANGED}")


class LessonPlay(Control[discord.ui.Button], template=r"vblearn:(?P<id>\d+):play"):
    """The lesson's Play the round: the round played now, not at a deadline."""

    def __init__(self, league_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play the round",
                style=discord.ButtonStyle.success,
                custom_id=self.id_for(id=league_id),
            )
        )
        self.league_id = league_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LessonPlay:
        return cls(int(match["id"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).play_lesson(interaction, self.league_id)


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


class OldLessonCard(Control[discord.ui.Button], template=r"vblearn:(?:\d+:\d+:\d+|why)"):
    """A button of the lesson's card before it was played on a real league: it says where the
    lesson is now."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id="vblearn:why"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> OldLessonCard:
        return cls()

    async def act(self, interaction: discord.Interaction) -> None:
        raise UserError(
            "This lesson card is from an older version: `/volleyball learn` starts the lesson "
            "on a real league's card."
        )


LESSON_ITEMS = (LessonPlay, LessonNext, OldLessonCard)
