"""A click answered at once by the computer is a batch of steps (the player's move, then the
computer's reply), shown on one card: every step told in words, the images of the last one
only (host/core.py draw_card). Drawing the steps before it cost each such click a whole image
that nobody saw."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import discord

from cogs.rocketball.presenter import RocketballAdapter
from db.games import StoredGame
from host import Match, Step
from host.core import MatchCore
from rules.rocketball import ai
from rules.rocketball.engine import apply, new_game


def batch() -> list[Step]:
    """A seeded match's click against the computer: North's chip placed, then South's roll and
    move (one step for all the computer plays, as MatchCore.computer_steps makes it)."""
    state, _ = new_game(5)
    rng = random.Random(5)
    while not (state.phase == "place" and state.to_move == "N" and state.history):
        state, _ = apply(state, ai.choose_action(state, "easy", rng))
    before = state
    state, events = apply(state, ai.choose_action(state, "easy", rng))
    placed = Step(before, events, state)
    before, events = state, []
    while not (state.phase == "roll" and state.to_move == "N"):
        state, new = apply(state, ai.choose_action(state, "easy", rng))
        events += new
    return [placed, Step(before, events, state)]


def played(steps: list[Step], **kwargs: Any) -> Match:
    names = ["Alice", "Computer (easy)"]
    return Match(engine=steps[-1].after, names=names, salt="s", commitment="c", **kwargs)


class Counted(RocketballAdapter):
    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[Step] = []

    def draw_turn(self, match: Match, step: Step, **kwargs: Any):
        self.drawn.append(step)
        return super().draw_turn(match, step, **kwargs)


async def card_of(adapter: Counted, steps: list[Step]) -> tuple[discord.ui.LayoutView, list]:
    async def inline(call):  # the drawing as the workers do it, here in the test's process
        return call()

    core: Any = object.__new__(MatchCore)
    core.drawing, core.adapters = inline, {"rocketball": adapter}
    core.bot = SimpleNamespace()
    match = played(steps, computers={1: "easy"})
    stored = StoredGame(1, "rocketball", 1, 2, 3, "active", "{}", 4, (7, 0), timers=())
    return await MatchCore.draw_card(core, adapter, stored, match, steps)


def test_a_batch_draws_its_last_step_and_tells_every_step_in_words() -> None:
    steps = batch()
    adapter = Counted()
    view, files = asyncio.run(card_of(adapter, steps))
    assert adapter.drawn == [steps[-1]]  # one image drawn, the one shown
    assert [file.filename for file in files] == ["round.gif"]
    text = "\n".join(
        item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)
    )
    # every event of both steps, as the engine says it, in the order played: the player's
    # chip first, then the computer's roll and move
    said = [event.text for step in steps for event in step.events if event.text]
    assert said[0].startswith("North") and any(line.startswith("South") for line in said)
    at = 0
    for line in said:
        assert line in text[at:], (line, text)
        at = text.index(line, at) + len(line)
