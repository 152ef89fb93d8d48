"""Rollerball's engine face (rules/face.py): the match host's calls, forwarded to the engine
through the hosted Table (table.py: resignations, ruling D1 of docs/rules/rollerball.md).

Seats are the lobby's order (seat 0 opened the table); the engine calls them "Player 1".. . A
seat sees only its own hand and secret bid (`view_for`); the computer reads only its seat's
view. A typed move may be short: the step completes it (`complete`: `d3` while moving is
`move d3`), and it must be what the game waits for now.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.face import Engine, Outcome
from rules.games import title_of
from rules.records import Played
from rules.rollerball.actions import (
    Bank,
    Bid,
    BlowUp,
    Build,
    Discard,
    Keep,
    Move,
    Pass,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    PlaceWorkman,
    Replace,
    Take,
    format_action,
    parse_command,
)
from rules.rollerball.ai import LEVELS, choose_action
from rules.rollerball.engine import (
    actors,
    describe_next_step,
    legal_actions,
    new_game,
    next_step,
    view_for,
)
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.events import Event
from rules.rollerball.record import GAME, plays, to_record, verify_record
from rules.rollerball.record import replay as replay_record
from rules.rollerball.state import Settings
from rules.rollerball.table import Play, Resign, Table, play

Action = Play | Resign

# The actions each step accepts (next_step(state).kind).
ACCEPTED: dict[str, tuple[type, ...]] = {
    "bid": (Bid,),
    "rebid": (Bid, Pass),
    "base": (PlaceBase,),
    "workman": (PlaceWorkman,),
    "ball": (PlaceBall,),
    "card": (PlaceCard, Pass),
    "move": (Move,),
    "action": (Build, BlowUp, Replace, Pass),
    "score": (Bank, Keep),
    "take": (Take, Pass),
    "discard": (Discard,),
}
VERBS = frozenset(
    {"bid", "pass", "base", "workman", "ball", "place", "move", "stay", "build", "blow-up"}
    | {"blowup", "replace", "bank", "keep", "take", "discard"}
)
# The command a bare answer means at each step: "c1" while placing bases is `base c1`.
DEFAULT_VERB = {
    "base": "base",
    "workman": "workman",
    "ball": "ball",
    "card": "place",
    "move": "move",
    "action": "build",
    "take": "take",
    "discard": "discard",
}


def complete(kind: str, text: str) -> str:
    """A short answer made into the command it means at this step: `c3 d3` while moving is
    `move c3 d3`, `up-move energiser` in the secret bid is `bid 2 up-move energiser`."""
    words = text.strip().lower().replace("blow up", "blow-up").split()
    if not words or words[0] in VERBS:
        return " ".join(words)
    if kind in ("bid", "rebid"):
        if words[0] in ("none", "nothing", "no"):
            return "bid 0"
        if words[0].isdigit():
            return " ".join(["bid", *words])
        return " ".join(["bid", str(len(words)), *words])
    verb = DEFAULT_VERB.get(kind)
    return " ".join([verb, *words]) if verb else " ".join(words)


class RollerballEngine:
    name = GAME
    title = title_of(GAME)
    levels = LEVELS  # ("sensible", "random"): a lobby's computers play sensibly
    min_seats = 2
    max_seats = 6

    def new_state(self, seed: int, options: Mapping[str, Any]) -> tuple[Table, list[Event]]:
        """options: players (2-6), board (9, or 11 for 5-6 players), edition, target (victory
        points), human_seats (the seats of people; default all)."""
        players = int(options.get("players", 2))
        board = int(options.get("board", 9))
        if board == 11 and players < 5:
            raise RollerballBoardError(
                f"The 11 by 11 board is for 5 or 6 players, and {players} are seated: add "
                "players or computers, or open a table without big_board."
            )
        settings = Settings(
            edition=options.get("edition", "later"),
            players=players,
            board=board,
            target_vp=int(options.get("target", 5)),
        )
        game, events = new_game(seed, settings)
        humans = tuple(options.get("human_seats", range(players)))
        return Table(game, humans), events

    def opening_events(self, state: Table) -> list[Event]:
        return new_game(self.seed_of(state), state.game.settings)[1]

    def rematch_options(self, state: Table) -> dict[str, Any]:
        return {}  # a table is opened in a lobby, seat by seat: there is no rematch

    def dump(self, state: Table) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> Table:
        return Table.from_dict(dict(data))

    def seed_of(self, state: Table) -> int:
        seed = state.game.seed
        assert seed is not None, "a view has no seed"
        return seed

    def actors(self, state: Table) -> frozenset[int]:
        return frozenset() if state.over else actors(state.game)

    def simultaneous(self, state: Table) -> bool:
        return not state.over and next_step(state.game).kind == "bid"

    def is_over(self, state: Table) -> bool:
        return state.over

    def outcome(self, state: Table) -> tuple[Outcome, ...]:
        winners = state.final_winners
        result: list[Outcome] = []
        for seat in range(state.game.players):
            if seat in state.resigned or seat not in winners:
                result.append("loss")
            else:
                result.append("win" if len(winners) == 1 else "draw")
        return tuple(result)

    def legal_actions(self, state: Table, seat: int) -> list[Action]:
        if state.over:
            return []
        size = state.game.settings.board
        return [Play(action, size) for action in legal_actions(state.game, seat)]

    def apply(self, state: Table, seat: int, action: Action) -> tuple[Table, list[Event]]:
        return play(state, seat, action)

    def auto_action(self, state: Table, seat: int) -> Action | None:
        return None  # every bid and move is the player's own

    def resign_action(self, state: Table, seat: int) -> Action:
        return Resign()

    def computer_action(self, state: Table, seat: int, level: str, rng: random.Random) -> Action:
        """The computer sees only what its seat may see."""
        view = view_for(state.game, seat)
        return Play(choose_action(view, rng, level), state.game.settings.board)

    def computer_rating(self, level: str) -> float | None:
        return None  # the levels have no measured rating: games against them are not rated

    def parse_action(self, state: Table, seat: int, text: str) -> Action:
        """A typed command, completed for the step, checked to be what the game waits for."""
        game = state.game
        kind = next_step(game).kind
        if not text.strip():
            raise RollerballBoardError("Type your move.")
        workman = game.workmen[seat] if game.workmen else None
        action = parse_command(complete(kind, text), game.settings.board, workman)
        if not isinstance(action, ACCEPTED.get(kind, ())):
            raise RollerballBoardError(
                f"That is not what the game waits for: {describe_next_step(game)}"
            )
        return Play(action, game.settings.board)

    def format_action(self, action: Action) -> str:
        if isinstance(action, Resign):
            return "resign"
        if isinstance(action.action, Bid):
            return "bid"  # the cards of a secret bid stay out of the move list
        return format_action(action.action, action.size)

    def view_for(self, state: Table, seat: int | None) -> Table:
        return replace(state, game=view_for(state.game, seat))

    def record(self, state: Table, *, salt: str, reveal: bool, names: Sequence[str] = ()) -> str:
        """The board's record with the Table's resignations as lines where they happened (the
        resigned seats' later moves, made by the computer, follow) and the result they gave."""
        return to_record(
            state.game,
            salt=salt,
            reveal=reveal,
            names=names,
            resignations=state.resignations,
            winners=state.winners,
        )

    def verify(self, text: str) -> list[str]:
        return verify_record(text)

    def replay(self, text: str) -> dict[str, Any]:
        return replay_record(text).to_dict()

    def plays(self, text: str) -> Iterator[Played]:
        """The board (the engine's GameState, not the Table) after each line."""
        for seat, command, state, events in plays(text):
            yield Played(seat, command, state, events)


ENGINE: Engine[Table, Action] = RollerballEngine()
