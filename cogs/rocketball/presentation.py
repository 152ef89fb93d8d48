"""How a Rocketball match looks in Discord: the turn embed, the buttons for the phase, the rules
summary. Builds discord objects from engine state; no database, no interaction handling."""

from __future__ import annotations

import discord

from cogs.rocketball.match import COMPUTER_ID, Match, user_of
from rules.rocketball.actions import Pass
from rules.rocketball.engine import legal_actions
from rules.rocketball.events import Event
from rules.rocketball.state import (
    PHASE_AIM,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_ROLL,
    PLAYER_NAMES,
    GameState,
)

COLOUR = discord.Colour(0xD55E00)
MAX_EVENT_TEXT = 3500  # leave room in the 4096-character description for the prompt

RULES_SUMMARY = (
    "**Goal**: steer the rocketball into your opponent's goal. First to 2 points wins "
    "(a match can be set to another target).\n"
    "**A round**: the player holding the windbag rolls the d4 and the ball moves that many "
    "squares in its facing; then they place a vortex chip (square + facing) or rotate one a "
    "quarter turn; then the windbag passes.\n"
    "**Field**: columns a-g (West to East), rows 1-11 (North to South); the centre d6 never "
    "holds a chip. Goals are three squares wide over c, d and e beyond row 1 (North goal) and "
    "row 11 (South goal). North scores in the South goal and South in the North goal.\n"
    "**Moving**: entering a vortex turns the ball to the chip's facing at no cost. A step off "
    "the field (not into a goal) keeps the ball where it is, turns it to that edge's arrow and "
    "uses up the step.\n"
    "**Rotating**: not the chip under the ball, not the chip your opponent rotated on their last "
    "turn, never a bumper, twister, barricade or mogul. If you can neither place nor rotate, "
    "the turn passes.\n"
    "**After a goal** every chip goes back in the windbag and a new d4 roll sets the ball's "
    "facing and who holds the windbag (1 N/North, 2 E/North, 3 S/South, 4 W/South).\n"
    "**Typing moves**: `c4 N` places on c4 facing North; `rotate c4 cw` (or `ccw`); "
    "`drift c4 c5` with Drifting Winds; `aim E` with Moguls; `pass` when nothing else is "
    "possible.\n"
    "Every ruling, each variant and the computer levels: `docs/rules/rocketball.md`."
)


def player_label(match: Match, players: tuple[int, ...], seat: str) -> str:
    user_id = user_of(players, seat)
    if user_id == COMPUTER_ID:
        return f"{PLAYER_NAMES[seat]} (computer, {match.computer})"
    return f"{PLAYER_NAMES[seat]} (<@{user_id}>)"


def prompt(state: GameState, match: Match, players: tuple[int, ...]) -> str:
    """What happens next, in words."""
    if state.phase == PHASE_OVER:
        if state.winner is None:
            return "**The match is drawn.**"
        return f"**{player_label(match, players, state.winner)} wins!**"
    who = player_label(match, players, state.to_move)
    if state.phase == PHASE_ROLL:
        return f"**Next:** {who} rolls the d4."
    if state.phase == PHASE_AIM:
        return f"**Next:** {who} aims the ball on the centre square."
    drawn = f" (drew a {state.drawn} chip)" if state.drawn and state.drawn != "vortex" else ""
    return f"**Next:** {who} places or rotates a chip{drawn}."


def events_text(events: list[Event]) -> str:
    lines = [f"• {event.text}" for event in events if event.text]
    text = "\n".join(lines)
    if len(text) > MAX_EVENT_TEXT:
        text = text[: MAX_EVENT_TEXT - 30].rsplit("\n", 1)[0] + "\n• … (more in /rocketball record)"
    return text


def score_line(state: GameState) -> str:
    return f"North {state.score['N']} - {state.score['S']} South"


def turn_embed(
    game_id: int,
    match: Match,
    players: tuple[int, ...],
    state: GameState,
    events: list[Event],
    *,
    has_gif: bool,
) -> discord.Embed:
    """The turn message for `state` (the position after `events`)."""
    parts = [events_text(events), prompt(state, match, players)]
    embed = discord.Embed(
        title=f"Rocketball #{game_id}: {score_line(state)}",
        description="\n\n".join(part for part in parts if part),
        colour=COLOUR,
    )
    variants = ", ".join(name.replace("_", " ") for name in state.settings.variant_names())
    footer = f"First to {state.settings.target_score}"
    if variants:
        footer += f" · variants: {variants}"
    if has_gif:
        footer += " · the animation shows the ball's path"
    embed.set_footer(text=footer)
    embed.set_image(url="attachment://board.png")
    return embed


def turn_buttons(state: GameState) -> list[tuple[str, str, str | None, discord.ButtonStyle]]:
    """(label, action, argument, style) of the buttons for the phase; none once it is over."""
    primary = discord.ButtonStyle.primary
    if state.phase == PHASE_ROLL:
        return [("Roll the d4", "roll", None, primary)]
    if state.phase == PHASE_AIM:
        return [(f"Aim {d}", "aim", d, primary) for d in "NESW"]
    if state.phase == PHASE_PLACE:
        if legal_actions(state) == [Pass()]:
            return [("Pass (no move possible)", "pass", None, discord.ButtonStyle.secondary)]
        return [("Place or rotate a chip…", "move", None, primary)]
    return []
