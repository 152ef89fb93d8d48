"""How a Rollerball II match reads in chat: who acts next, the condensed play-by-play of a
click (every card when it was one or two, else the cards' count and what mattered), the
highlights of a simulated match."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogs.rollerball2.play import SIDES, Rb2Match
from rules.rollerball2 import (
    AWAY,
    HOME,
    PHASE_ACTION,
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    PHASE_FIRE,
    Event,
    actors,
    describe,
)
from rules.rollerball2.modes import MODE_WORDS

MAX_EVENT_TEXT = 3300  # of the embed's 4,096 characters: the rest is the prompt and headers
KEY_KINDS = frozenset({"goal", "penalty", "injury", "ban", "period", "final", "sub", "lineup"})
SHORT = 14  # a click with at most this many events is shown whole
SECTION_OF_PHASE = {
    PHASE_FIRE: "The BALL FIRES...",
    PHASE_ACTION: "ACTION",
    PHASE_ATTACK: "ATTACK",
    PHASE_EVENT: "EVENT",
    PHASE_BIKER_ID: "BIKER ID",
}
CLOCK = re.compile(r"^\[(P\d|OT) (\d\d:\d\d)\]")


def coach_label(game: Rb2Match, names: Sequence[str], side: str) -> str:
    team = game.engine.team(side).roster.team
    if game.mode == "coaches" and len(names) > SIDES.index(side):
        return f"{team}'s coach ({names[SIDES.index(side)]})"
    if game.mode == "solo" and names:
        return f"{team}'s coach ({names[0]})"
    return f"{team}'s coach"


def what_next(game: Rb2Match) -> str:
    """What the match waits for, without the who: "roll the die for ...", "turn the next card"."""
    state = game.engine
    pending = state.pending
    if pending is None:
        section = SECTION_OF_PHASE.get(state.phase, state.phase)
        if state.control is None:
            return f"turn the next card ({section}: the ball is loose, nobody may substitute)"
        return f"turn the next card ({section}) or substitute first"
    kind = pending["kind"]
    handler = describe(state, (state.control, state.handler)) if state.handler else "he"
    if kind == "dice":
        return "roll the next die"
    if kind == "catcher_choice":
        return f"{handler} has the ball: roll on his card, or draw a new FAC (ACTION)"
    if kind == "defensive_biker":
        return "pick the biker who answers the shot"
    if kind == "assist_biker":
        return "pick the biker who gets the assist"
    if kind == "pass_scorer":
        return "pick the skater the pass finds"
    return kind.replace("_", " ")


def next_text(game: Rb2Match, names: Sequence[str]) -> str:
    if game.over:
        return final_text(game)
    sides = sorted(actors(game.engine), key=SIDES.index)
    who = " and ".join(coach_label(game, names, side) for side in sides) or "Nobody"
    return f"{who}: {what_next(game)}."


def final_text(game: Rb2Match) -> str:
    state = game.engine
    home, away = state.home, state.away
    score = f"{home.roster.team} {home.score}, {away.roster.team} {away.score}"
    if home.score == away.score:
        return f"Final: {score}. A draw."
    winner = home if home.score > away.score else away
    extra = " in overtime" if state.period == 5 else ""
    return f"Final: {score}. {winner.roster.team} win{extra}."


def clock_of(event: Event) -> str | None:
    found = CLOCK.match(event.text)
    return f"{found[1]} {found[2]}" if found else None


def condensed(events: Sequence[Event], *, highlights_only: bool = False) -> list[str]:
    """The lines of a click's play-by-play. Short clicks are shown whole; longer ones as the
    count of cards turned, every goal, penalty, injury, ban, substitution and period line, and
    the whole story of the last card. `highlights_only` (a simulated match): the key lines."""
    events = [e for e in events if e.kind != "final"]  # the result is said once, by the host
    if len(events) <= SHORT and not highlights_only:
        return [e.text for e in events]
    cards = [e for e in events if e.kind == "card"]
    last_card = max((i for i, e in enumerate(events) if e.kind == "card"), default=len(events))
    lines = []
    if cards:
        first, last = clock_of(cards[0]), clock_of(cards[-1])
        span = f" ({first} to {last})" if first and last and first != last else ""
        lines.append(f"*{len(cards)} card{'s' if len(cards) != 1 else ''} turned{span}.*")
    for index, event in enumerate(events):
        if event.kind in KEY_KINDS or (index >= last_card and not highlights_only):
            lines.append(event.text)
    return lines


def bullet_block(lines: Sequence[str]) -> str:
    text = "\n".join(f"• {line}" for line in lines if line)
    if len(text) > MAX_EVENT_TEXT:
        text = text[: MAX_EVENT_TEXT - 40].rsplit("\n", 1)[0] + "\n• … (the rest is in the record)"
    return text


def score_title(game: Rb2Match, game_id: int) -> str:
    state = game.engine
    away, home = state.away, state.home
    return (
        f"Rollerball II #{game_id}: {away.roster.team} {away.score} – "
        f"{home.score} {home.roster.team}"
    )


def clock_footer(game: Rb2Match) -> str:
    state = game.engine
    if state.over:
        return f"{state.fac_count} FACs played · {MODE_WORDS[game.mode]}"
    period = "overtime" if state.period == 5 else f"period {state.period}"
    left = 30 - state.period_fac
    return (
        f"{period} · {left} FACs left in it · {MODE_WORDS[game.mode]} · visitors first, "
        "as on the scoresheet"
    )


SIDE_NAME = {HOME: "home", AWAY: "visitors"}
