"""Rollerball II's engine face (rules/face.py): the match host's calls, forwarded to the hosted
match (modes.py: solo, coaches, simulate; handing over) and through it to the engine.

Seats (docs/rules/rollerball2.md "On Discord"): solo and simulate have one (the coach, or the
bot), coaches mode two (home = 0, away = 1). Hidden while a match is played: the seed, the
generator and the order of the FAC piles (they would predict every card and die), and a coach's
private line-up until both are in.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.face import Engine, Outcome
from rules.games import title_of
from rules.records import Played
from rules.rollerball2.engine import legal_actions, new_match
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.modes import (
    MODE_WORDS,
    MODES,
    SIDES,
    HandOver,
    PlayUntil,
    Rb2Match,
    SimulateRest,
    acting_seats,
    action_line,
    default_action,
    parse_typed,
    play,
    sides_of,
)
from rules.rollerball2.record import GAME, plays, replay, to_record, verify_record
from rules.rollerball2.roster import Roster, generate_roster, match_lineup
from rules.rollerball2.state import (
    PHASE_SETUP,
    Event,
    MatchState,
    RollDie,
    Settings,
    clone,
    roster_from_json,
    to_json,
)
from rules.rollerball2.teams import lineup_change_notes

DEFAULT_COACH = "default coach"  # the one computer level: the engine's default coach
HIDDEN_SEED = ""  # what a view shows for the secret seed


def match_view(state: MatchState, sides: tuple[str, ...]) -> MatchState:
    """What the coach of `sides` (none: a spectator) may see of `state`: no seed, no generator,
    no order of the FAC piles (only how many are left), and of the other side's line-up, while
    the line-ups are handed in privately, only that it is in."""
    view = clone(state)
    view.seed = HIDDEN_SEED
    view.setup = {**state.setup, "seed": HIDDEN_SEED}
    view.rng = random.Random(HIDDEN_SEED)
    view.deck = [0] * len(state.deck)
    view.submitted = {
        side: dict(lineup) if side in sides else {} for side, lineup in state.submitted.items()
    }
    return view


def _roster(options: Mapping[str, Any], side: str) -> Roster:
    """A side's roster: as given (JSON), or generated from a seed and a team name."""
    generated = options.get(f"{side}_generated")
    if generated is not None:
        seed, team = generated
        return generate_roster(int(seed), str(team))
    return roster_from_json(options[side])


class Rollerball2Engine:
    name = GAME
    title = title_of(GAME)
    levels = (DEFAULT_COACH,)
    min_seats = 1
    max_seats = 2

    def new_state(self, seed: int, options: Mapping[str, Any]) -> tuple[Rb2Match, list[Event]]:
        """options: mode (solo, coaches, simulate), home/away (roster JSON) or home_generated/
        away_generated ([seed, team name]: a roster generated as `team create` makes one, for
        a lesson's teams), home_lineup/away_lineup (the coaches' saved line-ups; None: the
        default one), home_team_id/away_team_id (0: a team kept nowhere), fixture_id (a season
        match). A saved player who may not play is replaced by the default replacement, and
        the match's opening says so (ruling D1a)."""
        mode = options["mode"]
        if mode not in MODES:
            raise RollerballError(f"A match is played {', '.join(MODES)}, not {mode}.")
        home, away = _roster(options, "home"), _roster(options, "away")
        home_lineup, home_changes = match_lineup(home, options.get("home_lineup"))
        away_lineup, away_changes = match_lineup(away, options.get("away_lineup"))
        state = new_match(
            seed,
            home,
            away,
            Settings(coach_dice=mode == "coaches"),
            home_lineup=home_lineup,
            away_lineup=away_lineup,
        )
        game = Rb2Match(
            engine=state,
            mode=mode,
            home_team_id=options.get("home_team_id", 0),
            away_team_id=options.get("away_team_id", 0),
            fixture_id=options.get("fixture_id"),
            lineup_notes=tuple(
                lineup_change_notes(home, home_changes) + lineup_change_notes(away, away_changes)
            ),
        )
        return game, self.opening_events(game)

    def opening_events(self, state: Rb2Match) -> list[Event]:
        """Who plays whom, in which mode, and what the match changed in a saved line-up."""
        home, away = state.engine.home.roster.team, state.engine.away.roster.team
        text = f"{away} (visitors) at {home} (home), {MODE_WORDS[state.mode]}."
        if state.fixture_id is not None:
            text += " A season match: it counts in the table."
        # The line-ups saved beforehand are the match's (ruling D1); one that changed, the
        # default replacement's (ruling D1a).
        return [
            Event("info", text, rulings=("D1",)),
            *(Event("lineup", note, rulings=("D1a",)) for note in state.lineup_notes),
        ]

    def rematch_options(self, state: Rb2Match) -> dict[str, Any]:
        return {}  # a match is started from the teams as they are now (/rollerball2 match start)

    def dump(self, state: Rb2Match) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> Rb2Match:
        return Rb2Match.from_dict(dict(data))

    def seed_of(self, state: Rb2Match) -> int:
        return int(state.engine.seed)

    def actors(self, state: Rb2Match) -> frozenset[int]:
        return acting_seats(state)

    def simultaneous(self, state: Rb2Match) -> bool:
        return False

    def is_over(self, state: Rb2Match) -> bool:
        return state.over

    def outcome(self, state: Rb2Match) -> tuple[Outcome, ...]:
        engine = state.engine
        if state.mode != "coaches":
            return ("draw",)
        if engine.home.score == engine.away.score:
            return ("draw", "draw")
        home_won = engine.home.score > engine.away.score
        return ("win", "loss") if home_won else ("loss", "win")

    def legal_actions(self, state: Rb2Match, seat: int) -> list[Any]:
        """The engine's actions for the seat's own side(s), and, between decisions, playing
        on until something happens or to the end of the period, and (not coach against coach)
        handing the rest to the default coach."""
        if seat not in acting_seats(state):
            return []
        sides = sides_of(state, seat)
        engine = state.engine
        actions: list[Any] = [
            action
            for action in legal_actions(engine)
            if getattr(action, "team", None) in (None, *sides)
        ]
        if engine.pending is None and engine.phase != PHASE_SETUP:
            actions += [PlayUntil("event"), PlayUntil("period")]
        if state.mode != "coaches":
            actions.append(SimulateRest())
        return actions

    def apply(self, state: Rb2Match, seat: int, action: Any) -> tuple[Rb2Match, list[Event]]:
        return play(state, seat, action)

    def auto_action(self, state: Rb2Match, seat: int) -> Any:
        """Coaches decide, the bot rolls (docs/rules/rollerball2.md "On Discord"): in a coaches'
        match a coach may leave his die to the bot; his decisions stay his."""
        pending = state.engine.pending
        if state.mode != "coaches" or pending is None or pending["kind"] != "dice":
            return None
        return RollDie(pending["team"]) if pending["team"] == SIDES[seat] else None

    def resign_action(self, state: Rb2Match, seat: int) -> Any:
        return HandOver(SIDES[seat] if state.mode == "coaches" else SIDES[0])

    def computer_action(self, state: Rb2Match, seat: int, level: str, rng: random.Random) -> Any:
        """The default coach: it reads the cards and the match as any coach may."""
        return default_action(state)

    def computer_rating(self, level: str) -> float | None:
        return None

    def parse_action(self, state: Rb2Match, seat: int, text: str) -> Any:
        return parse_typed(text)

    def format_action(self, action: Any) -> str:
        return action_line(action)

    def view_for(self, state: Rb2Match, seat: int | None) -> Rb2Match:
        sides = () if seat is None else sides_of(state, seat)
        return replace(state, engine=match_view(state.engine, sides))

    def record(self, state: Rb2Match, *, salt: str, reveal: bool, names: Sequence[str] = ()) -> str:
        return to_record(state.engine, salt=salt, reveal=reveal, names=names)

    def verify(self, text: str) -> list[str]:
        return verify_record(text)

    def replay(self, text: str) -> dict[str, Any]:
        return to_json(replay(text))

    def hosted(self, state: Rb2Match) -> list[tuple[int, bool, Event]]:
        """The match's own lines, which its record does not keep (rules.face.with_hosted): the
        opening (rulings D1, D1a) before the set-up's events, then each hand-over, stop and
        deadline with the record's line it came with."""
        opening = [(0, True, event) for event in self.opening_events(state)]
        return opening + [(h.line, h.first, h.event()) for h in state.hosted]

    def plays(self, text: str) -> Iterator[Played]:
        """The match (the engine's, MatchState) after each action line; the lines name the
        side they act for, not a seat, so none is given."""
        for line, state, events in plays(text):
            yield Played(None, line, state, events)


ENGINE: Engine[Rb2Match, Any] = Rollerball2Engine()
