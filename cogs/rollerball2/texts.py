"""How a Rollerball II match reads in chat: who acts next, the condensed play-by-play of a
click (every card when it was one or two, else the cards' count and what mattered), the
highlights of a simulated match, the score (one order everywhere: rules.rollerball2.stats.
score_line, the visitors first and "at" the home team), a moment in time.

Team, player and coach names are user text: every line made here shows them through ui.shown
(the engine's own lines, which name players, are shown through it whole)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from host import Step
from rules.rollerball2 import (
    MODE_WORDS,
    OVERTIME_PERIOD,
    PHASE_ACTION,
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    PHASE_FIRE,
    SIDES,
    Event,
    MatchResult,
    MatchState,
    Moment,
    PlayerLine,
    Rb2Match,
    actors,
    describe,
    score_line,
)
from ui import shown
from ui.formats import plural, possessive

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
    team = shown(game.engine.team(side).roster.team)
    if game.mode == "coaches" and len(names) > SIDES.index(side):
        return f"{possessive(team)} coach ({shown(names[SIDES.index(side)])})"
    if game.mode == "solo" and names:
        return f"{possessive(team)} coach ({shown(names[0])})"
    return f"{possessive(team)} coach"


def seat_label(game: Rb2Match, names: Sequence[str], seat: int) -> str:
    """A host seat as players read it: the team and its coach in a coaches match, else the
    coach (or the bot)."""
    name = shown(names[seat]) if seat < len(names) else ""
    if game.mode == "coaches":
        team = shown(game.engine.team(SIDES[seat]).roster.team)
        return f"{team} ({name})" if name else team
    return name or "the bot"


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
    handler = (
        shown(describe(state, (state.control, state.handler)))
        if state.control and state.handler
        else "he"
    )
    if kind == "dice":
        return "roll the next die"
    if kind == "catcher_choice":
        return (
            f"{handler} has the ball: roll on his card, or draw a new FAC (ACTION); "
            "substitutions wait until he has chosen (the catch is one play)"
        )
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


def _verdict(home: str, home_goals: int, away: str, away_goals: int, overtime: bool) -> str:
    if home_goals == away_goals:
        return "A draw."
    winner = home if home_goals > away_goals else away
    return f"{shown(winner)} win{' in overtime' if overtime else ''}."


def verdict(res: MatchResult) -> str:
    """Who won a finished match: "Houston win in overtime." or "A draw."."""
    return _verdict(res.home.team, res.home_score, res.away.team, res.away_score, res.overtime)


def final_text(game: Rb2Match) -> str:
    state = game.engine
    home, away = state.home, state.away
    score = score_line(shown(away.roster.team), away.score, shown(home.roster.team), home.score)
    overtime = state.period == 5
    return (
        f"Final: {score}. "
        f"{_verdict(home.roster.team, home.score, away.roster.team, away.score, overtime)}"
    )


def stars_text(game: Rb2Match, stars: Sequence[tuple[str, PlayerLine]]) -> str:
    """The three stars, first star first: "Houston #7 Ann Lee, ..."."""
    return ", ".join(
        f"{shown(game.engine.team(side).roster.team)} #{line.number} {shown(line.name)}"
        for side, line in stars
    )


def clock_of(event: Event) -> str | None:
    found = CLOCK.match(event.text)
    return f"{found[1]} {found[2]}" if found else None


def condensed(events: Sequence[Event], *, highlights_only: bool = False) -> list[str]:
    """The lines of a click's play-by-play. Short clicks are shown whole; longer ones as the
    count of cards turned, every goal, penalty, injury, ban, substitution and period line, and
    the whole story of the last card. `highlights_only` (a simulated match): the key lines."""
    events = [e for e in events if e.kind != "final"]  # the result is said once, by the host
    if len(events) <= SHORT and not highlights_only:
        return [shown(e.text) for e in events]
    cards = [e for e in events if e.kind == "card"]
    last_card = max((i for i, e in enumerate(events) if e.kind == "card"), default=len(events))
    lines = []
    if cards:
        first, last = clock_of(cards[0]), clock_of(cards[-1])
        span = f" ({first} to {last})" if first and last and first != last else ""
        lines.append(f"*{plural(len(cards)):card} turned{span}.*")
    for index, event in enumerate(events):
        if event.kind in KEY_KINDS or (index >= last_card and not highlights_only):
            lines.append(shown(event.text))
    return lines


STORY_WORDS = {"goal": "GOAL", "penalty": "PENALTY", "injury": "INJURY", "ban": "BAN"}
MAX_STORY = 1900  # of a message's 2,000 characters


def period_of(moment: Moment) -> int:
    """The period of a moment's clock ("P2 07:30" is 2, "OT 01:00" overtime)."""
    return OVERTIME_PERIOD if moment.clock.startswith("OT") else int(moment.clock[1:].split()[0])


def story_line(state: MatchState, moment: Moment) -> str:
    """One line of a period's story: "P2 07:30 GOAL Houston #7 Ann Lee, assist #9 Bo Li
    (Tokyo 1 at Houston 2)", "P2 09:00 PENALTY Tokyo #12 Cy Wu: 3 minutes"."""
    who = f"{shown(state.team(moment.side).roster.team)} #{moment.number} {shown(moment.name)}"
    if moment.kind != "goal":
        return f"{moment.clock} {STORY_WORDS[moment.kind]} {who}: {shown(moment.detail)}"
    if moment.assist is not None:
        who += f", assist #{moment.assist} {shown(moment.assist_name)}"
    away_goals, home_goals = (int(goals) for goals in moment.detail.split("-"))
    home, away = shown(state.home.roster.team), shown(state.away.roster.team)
    return f"{moment.clock} GOAL {who} ({score_line(away, away_goals, home, home_goals)})"


def period_story(
    state: MatchState, period: int, *, kinds: Collection[str] = STORY_WORDS
) -> list[str]:
    """A period told once it is over: its score, then its goals, penalties, injuries and bans
    (`kinds` of them) with their clock, in order."""
    home, away = state.home, state.away
    score = score_line(
        shown(away.roster.team),
        sum(away.score_by_period[:period]),
        shown(home.roster.team),
        sum(home.score_by_period[:period]),
    )
    title = "overtime" if period == OVERTIME_PERIOD else f"period {period}"
    lines = [f"**End of {title}: {score}.**"]
    lines += [
        story_line(state, moment)
        for moment in state.moments
        if moment.kind in kinds and period_of(moment) == period
    ]
    return lines


def milestones(step: Step) -> list[str]:
    """The thread's message for a click (docs/rules/rollerball2.md "The live card"): the story
    of each period the click ended (a simulated match's too: its card tells only the end), and
    in any mode the notes on saved line-ups that had to change for the match
    (its first step), so the coach reads them after the card has moved on. Names are shown as
    text. A click that ends several periods ("Simulate the rest") tells the earlier ones
    shorter when the whole would not fit one message: their goals, then only their score."""
    if step.texts is not None:
        return []
    notes = [shown(e.text) for e in step.events if e.kind == "lineup"]
    game = step.after
    before, after = step.before.engine, game.engine
    ended = list(range(before.period, after.period))
    if after.over and not before.over:
        ended.append(after.period)
    if game.mode == "simulate" and after.over:  # played whole when it was made: every period
        ended = list(range(1, after.period + 1))
    if not ended:
        return notes
    last = period_story(after, ended[-1])
    for kinds in (STORY_WORDS, ("goal",), ()):
        earlier = [
            line for period in ended[:-1] for line in period_story(after, period, kinds=kinds)
        ]
        lines = notes + earlier + last
        if len("\n".join(lines)) <= MAX_STORY:
            break
    return lines


CARD_LINES = 3  # the play-by-play lines a card shows: with the rest, one phone screen
FINAL_CARD_LINES = 3  # on the last card, which also holds the three stars and the result


def card_lines(
    lines: Sequence[str], limit: int = CARD_LINES, keep: Callable[[str], bool] | None = None
) -> list[str]:
    """What of a click's play-by-play the live card shows: all of a short one; of a longer one
    the count of cards turned and the last lines (the last card's story), the rest said to be
    in the record (and the period's own message), `limit` lines in all, so the card stays one
    phone screen tall; a hidden line `keep` picks (the last) is shown instead of the earliest
    of the last lines."""
    if len(lines) <= limit:
        return list(lines)
    counted = lines[0].startswith("*") and " turned" in lines[0]  # condensed()'s first line
    head = [lines[0]] if counted else []
    tail = list(lines[len(lines) - max(1, limit - 1 - len(head)) :])
    # A line the reader must see (`keep`: a die the bot rolled for a coach) takes the place of
    # the earliest of the last lines when it would be hidden.
    hidden = lines[len(head) : len(lines) - len(tail)]
    kept = [line for line in hidden if keep is not None and keep(line)][-1:]
    if kept and len(tail) > 1:
        tail = [*kept, *tail[1:]]
    left = len(lines) - len(head) - len(tail)
    note = f"*… {plural(left):earlier line} in the record*"
    return [*head, note, *tail]


def score_text(game: Rb2Match) -> str:
    away, home = game.engine.away, game.engine.home
    return score_line(shown(away.roster.team), away.score, shown(home.roster.team), home.score)


def score_title(game: Rb2Match, game_id: int) -> str:
    return f"Rollerball II #{game_id}: {score_text(game)}"


def clock_footer(game: Rb2Match) -> str:
    state = game.engine
    if state.over:
        return f"{state.fac_count} FACs played · {MODE_WORDS[game.mode]}"
    period = "overtime" if state.period == 5 else f"period {state.period}"
    left = 30 - state.period_fac
    return f"{period} · {left} FACs left in it · {MODE_WORDS[game.mode]}"
