"""A hosted Rollerball II match: the engine's state, the mode it is played in, its teams (and
season fixture), and the coaches who handed their bench to the default coach. The engine face
(face.py) drives an Rb2Match.

Modes (docs/rules/rollerball2.md, "On Discord"):
- solo: one user coaches both teams (one seat that acts whenever anyone must);
- coaches: seat 0 coaches the home team, seat 1 the visitors; each rolls his own die
  (Settings(coach_dice=True)) and makes his own decisions;
- simulate: the bot's default coach plays both benches at once.

Besides the engine's actions (NextCard, Substitute, CatcherChoice, ChooseBiker, ChooseScorer,
RollDie) a coach may ask for `PlayUntil("event")` (turn cards until a goal, a penalty, a
decision, the end of a period; in coaches mode also until the other coach is to act, so he may
substitute first), `PlayUntil("period")` (to the end of the period or a decision),
`SimulateRest()` (solo: the default coach plays both benches to the final whistle),
`HandOver(side)` (resigning: the default coach plays that side to the end; the match counts)
and, for the system only, `Deadline()` (a season deadline passed: played out, any mode).
Every card and die of these goes through the engine, so the game record replays them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.prose import possessive
from rules.rollerball2.coach import auto_play, choose_action
from rules.rollerball2.engine import apply
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.state import (
    AWAY,
    HOME,
    Event,
    MatchState,
    NextCard,
    from_json,
    parse_action,
    record_line,
    to_json,
)
from rules.rollerball2.turns import actors

MODES = ("solo", "coaches", "simulate")
MODE_WORDS = {
    "solo": "solo: one coach runs both benches",
    "coaches": "coach against coach, each rolling his own die",
    "simulate": "simulated by the bot",
}
SIDES = (HOME, AWAY)  # seat 0 is home, seat 1 the visitors (coaches mode)
MAX_CARDS_AT_ONCE = 150  # a safety net: a match has at most 150 cards (overtime included)


@dataclass(frozen=True)
class PlayUntil:
    """Turn cards until something happens ("event") or until the period ends ("period")."""

    what: str


@dataclass(frozen=True)
class SimulateRest:
    """The default coach plays both benches to the end."""


@dataclass(frozen=True)
class Deadline:
    """A season deadline passed: the default coaches play the match to the end, any mode."""


@dataclass(frozen=True)
class HandOver:
    """Resigning: the default coach plays `side` to the end of the match."""

    side: str


@dataclass(frozen=True)
class Hosted:
    """A line the hosted match writes itself (a hand-over, a stop, a season's deadline), which
    the engine's record does not keep: what it said, the rulings that decided it, and the record
    line it is told with (`line`: 0 the set-up; `first`: before that line's events, else after),
    so the card's Why? words it with the cards and dice it came with."""

    line: int
    text: str
    rulings: tuple[str, ...]
    first: bool = True

    def event(self) -> Event:
        return Event("info", self.text, rulings=self.rulings)


@dataclass(frozen=True)
class Rb2Match:
    engine: MatchState
    mode: str
    home_team_id: int
    away_team_id: int
    fixture_id: int | None = None
    handed_over: tuple[str, ...] = ()
    # What the match changed in the coaches' saved line-ups (ruling D1a), said when it opens.
    lineup_notes: tuple[str, ...] = ()
    hosted: tuple[Hosted, ...] = ()  # the match's own lines so far, in order

    @property
    def over(self) -> bool:
        return self.engine.over

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": to_json(self.engine),
            "mode": self.mode,
            "home_team_id": self.home_team_id,
            "away_team_id": self.away_team_id,
            "fixture_id": self.fixture_id,
            "handed_over": list(self.handed_over),
            "lineup_notes": list(self.lineup_notes),
            "hosted": [
                {"line": h.line, "text": h.text, "rulings": list(h.rulings), "first": h.first}
                for h in self.hosted
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rb2Match:
        return cls(
            engine=from_json(data["engine"]),
            mode=data["mode"],
            home_team_id=data["home_team_id"],
            away_team_id=data["away_team_id"],
            fixture_id=data.get("fixture_id"),
            handed_over=tuple(data.get("handed_over", ())),
            lineup_notes=tuple(data.get("lineup_notes", ())),
            hosted=tuple(
                Hosted(h["line"], h["text"], tuple(h["rulings"]), h["first"])
                for h in data.get("hosted", ())
            ),
        )


def acting_seats(game: Rb2Match) -> frozenset[int]:
    """The host's seats that may act now: the one seat in solo and simulate, else the seat of
    each side the engine waits for."""
    sides = actors(game.engine) - set(game.handed_over)
    if not sides:
        return frozenset()
    if game.mode == "coaches":
        return frozenset(SIDES.index(side) for side in sides)
    return frozenset({0})


def sides_of(game: Rb2Match, seat: int) -> tuple[str, ...]:
    return (SIDES[seat],) if game.mode == "coaches" else SIDES


def _play_until(game: Rb2Match, what: str) -> tuple[MatchState, list[Event], list[Event]]:
    """Cards, nothing else, until: a goal or a penalty ("event" only), a coach decision, the end
    of a period or the match; in coaches mode also when the other coach is to act. The events,
    and the match's own line saying why "period" stopped early (none when it did not)."""
    state, events = game.engine, []
    start_period, start_actors = state.period, actors(state)
    for _ in range(MAX_CARDS_AT_ONCE):
        state, new = apply(state, NextCard())
        events += new
        if (
            state.over
            or state.pending is not None
            or state.period != start_period
            or (what == "event" and any(e.kind in ("goal", "penalty") for e in new))
            or (game.mode == "coaches" and actors(state) != start_actors)
        ):
            break
    if what == "period" and not state.over and state.period == start_period:
        # A coaches match also stops for the other coach, who may substitute (ruling D3).
        rulings = ("D3",) if game.mode == "coaches" else ()
        return state, events, [Event("info", _why_stopped(state), rulings=rulings)]
    return state, events, []


def _why_stopped(state: MatchState) -> str:
    """Why "Play to period end" stopped before the period's end (docs/rules/rollerball2.md,
    "On Discord": it stops for a coach's decision, and in a coaches match for the other coach)."""
    head = "Stopped before the end of the period:"
    pending = state.pending
    if pending is None:
        team = state.team(state.control).roster.team if state.control else "the other team"
        return f"{head} {team} has the ball, and its coach may substitute before the next card."
    team = state.team(pending["team"]).roster.team
    if pending["kind"] == "dice":
        return f"{head} {possessive(team)} coach must roll the next die."
    if pending["kind"] == "catcher_choice":
        return f"{head} {possessive(team)} coach must decide: roll on the catcher's card or draw a new FAC."
    return f"{head} {possessive(team)} coach must decide ({pending['kind'].replace('_', ' ')})."


def _default_coach_plays(game: Rb2Match) -> tuple[MatchState, list[Event]]:
    """The default coach acts for every handed-over side while only such sides are waited for."""
    state, events = game.engine, []
    out = set(game.handed_over)
    while not state.over and actors(state) and actors(state) <= out:
        if out >= set(SIDES):
            return auto_play(state)
        state, new = apply(state, choose_action(state))
        events += new
    return state, events


def _check_turn(game: Rb2Match, seat: int, action: Any) -> None:
    """RollerballError unless `seat` may act now, for its own team."""
    if getattr(action, "team", None) not in (None, *sides_of(game, seat)):
        raise RollerballError("You can only act for your own team.")
    if seat not in acting_seats(game):
        waiting = " and ".join(
            game.engine.team(side).roster.team
            for side in SIDES
            if side in actors(game.engine) and side not in game.handed_over
        )
        raise RollerballError(f"It is not your turn: {waiting or 'nobody'} must act first.")


def play(game: Rb2Match, seat: int, action: Any) -> tuple[Rb2Match, list[Event]]:
    """Apply one action for `seat` (RollerballError if illegal; `game` is never changed).
    Only a seat that may act now acts (handing over is always open, a deadline is the
    system's): the other coach cannot turn the card before the coach in possession has
    substituted (docs/rules/rollerball2.md "Whose turn it is"). The lines the hosted match
    writes itself (a hand-over, a stop, a deadline) are kept in its `hosted`."""
    if game.over:
        raise RollerballError("The match is over.")
    if not isinstance(action, HandOver | Deadline):
        _check_turn(game, seat, action)
    lines = len(game.engine.record)
    first: list[Event] = []  # the match's own lines told before the cards they bring
    last: list[Event] = []  # and after them
    if isinstance(action, HandOver):
        if action.side not in sides_of(game, seat):
            raise RollerballError("You can only hand over your own team.")
        sides = sides_of(game, seat)  # solo: both benches go to the default coach
        game = replace(game, handed_over=tuple(sorted({*game.handed_over, *sides})))
        team = game.engine.team(action.side).roster.team
        first.append(
            Event(
                "info",
                f"{possessive(team)} coach hands the bench to the default coach.",
                rulings=("D4",),
            )
        )
        state, events = _default_coach_plays(game)
    elif isinstance(action, Deadline):
        state, events = auto_play(game.engine)
        # A season settles its matchday at the deadline or when an admin plays it (D7, D8).
        settled = "The season settles this matchday: the default coaches play the match to its end."
        first.append(Event("info", settled, rulings=("D7", "D8")))
    elif isinstance(action, SimulateRest):
        if game.mode == "coaches":
            raise RollerballError(
                "In a coaches match each coach decides for his own team: both must agree by "
                "handing over (`/rollerball2 match resign`)."
            )
        state, events = auto_play(game.engine)
    elif isinstance(action, PlayUntil):
        if game.engine.pending is not None:
            raise RollerballError("A coach must decide first: use the buttons for the decision.")
        state, events, stopped = _play_until(game, action.what)
        last += stopped
    else:
        state, events = apply(game.engine, action)
    game = replace(game, engine=state)
    if game.handed_over and not game.over:
        state, more = _default_coach_plays(game)
        game, events = replace(game, engine=state), events + more
    made = len(game.engine.record) > lines  # the record's lines this action brought
    hosted = [Hosted(lines + 1, e.text, e.rulings) if made else _after(lines, e) for e in first]
    hosted += [_after(len(game.engine.record), e) for e in last]
    return replace(game, hosted=game.hosted + tuple(hosted)), [*first, *events, *last]


def _after(line: int, event: Event) -> Hosted:
    """A match's own line told after the record's line `line` (0: the set-up)."""
    return Hosted(line, event.text, event.rulings, first=False)


def default_action(game: Rb2Match) -> Any:
    """What the default coach does now: in simulate mode the whole match, else one decision."""
    if game.mode == "simulate":
        return SimulateRest()
    return choose_action(game.engine)


def action_line(action: Any) -> str:
    """An action as stored with the move (the engine's record line for its own actions)."""
    if isinstance(action, PlayUntil):
        return f"until {action.what}"
    if isinstance(action, SimulateRest):
        return "simulate"
    if isinstance(action, Deadline):
        return "deadline"
    if isinstance(action, HandOver):
        return f"hand over {action.side}"
    return record_line(action)


TYPED_FORMS = (
    "`next`, `until` (until something happens), `period` (to the end of the period), "
    "`simulate` (solo), `sub home Skater2 31`, `catcher home roll` / `draw`, "
    "`biker away Biker3`, `scorer home Skater1`, `roll home`"
)


def parse_typed(text: str) -> Any:
    """A typed move; also every line `action_line` writes for a coach's move ("until event")."""
    words = text.strip().lower().split()
    if words in (["until"], ["until", "event"]):
        return PlayUntil("event")
    if words in (["period"], ["until", "period"]):
        return PlayUntil("period")
    if words == ["simulate"]:
        return SimulateRest()
    try:
        # Slots are written as the engine spells them (Skater2): restore their capital.
        line = " ".join(
            w.capitalize() if w[:1].isalpha() and w[-1:].isdigit() else w for w in words
        )
        return parse_action(line)
    except RollerballError:
        raise RollerballError(
            f"That is not a Rollerball II move. You can type: {TYPED_FORMS}."
        ) from None
