"""Rollerball, the abstract board game for 2-6 players, in its later and its earlier
edition (docs/rules/rollerball.md).

Pure engine: no Discord, no images, no database, no clock, no global random. Shuffles come from
the seed kept in the state (rng.py); the seed, the deck order, other hands and open bids never
leave through view_for, the record or the events.

Public API (cogs import only from `rules.rollerball`)
    Settings(edition="later"|"earlier", players=2..6, board=9|11 (11: 5-6 players),
             target_vp=5, turn_limit=0 = 400 turns, 800 in the earlier edition)
    new_game(seed: int, settings) -> (GameState, list[Event])
    actors(state) -> frozenset[int]          seats 0..n-1 that may act now (several in the bid)
    legal_actions(state, seat) -> list[Action]
    apply(state, action, seat) -> (GameState, list[Event])
        raises RollerballBoardError(what is allowed), a rules.errors.PlayerError;
        `state` is never changed
    next_step(state) -> NextStep(kind, seats)   kind: bid rebid base workman ball card move
                                                action score take discard over
    describe_next_step(state, names=None) -> str   "Player 2: move your workman ..."
    view_for(state, seat | None) -> GameState   what that seat (None: a spectator) may see
    choose_action(view, rng, level="sensible"|"random") -> Action   computer seat; reads the view
    to_json(state) -> str / from_json(text) -> GameState            lossless
    to_record(state, *, salt=None, reveal) -> str   [Commitment] with a salt; seed and salt
        only when reveal (rules/records.py: the header format, the commitment, the checks)
    parse_record(text) / replay(text) -> GameState / verify_record(text) -> list[str] (empty: OK)
    parse_command(text, size=9, workman=None) -> Action   "move c3 d3", "build up-move e2-e3",
        "bid 2 up-move energiser", "pass", "bank" ...; format_action(action, size) -> str
    Actions: Bid(kinds), Pass(), PlaceBase(sq), PlaceWorkman(sq), PlaceBall(sq),
        PlaceCard(kind, first, second), Move(start, end), Build(kind, first, second),
        BlowUp(discard), Replace(kind, first, second), Bank(), Keep(), Take(sq), Discard(kind)
        (squares are ints, geometry(size).name(sq) -> "c3"; a splitter's `first` is its Y)
    Events: Event(text); BallsMoved(text, frames) with one tuple of BallFrame(ball, square,
        state) per space, for the movement GIF.
    Table(game, humans, resigned, winners); play(table, seat, Play(action, size) | Resign())
        the game as hosted: resignations (ruling D1), table.py
    ENGINE                                    the engine face (rules/face.py), over a Table
    python -m rules replay FILE | verify FILE (python -m rules.rollerball: the same)

Seats are 0-based; players read them as "Player 1".."Player n". The rulings the engine follows
are in docs/rules/rollerball.md.
"""

from rules.rollerball.actions import (
    Action,
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
from rules.rollerball.cards import SPLITTERS, card_name, kind_of
from rules.rollerball.engine import (
    NextStep,
    actors,
    apply,
    describe_next_step,
    legal_actions,
    new_game,
    next_step,
    view_for,
)
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.events import BallFrame, BallsMoved, Event
from rules.rollerball.face import ENGINE
from rules.rollerball.geometry import geometry
from rules.rollerball.record import parse_record, replay, to_record, verify_record
from rules.rollerball.state import GameState, Settings, from_json, to_json
from rules.rollerball.table import Play, Resign, Table, play

__all__ = [
    "ENGINE",
    "LEVELS",
    "SPLITTERS",
    "Action",
    "BallFrame",
    "BallsMoved",
    "Bank",
    "Bid",
    "BlowUp",
    "Build",
    "Discard",
    "Event",
    "GameState",
    "Keep",
    "Move",
    "NextStep",
    "Pass",
    "PlaceBall",
    "PlaceBase",
    "PlaceCard",
    "PlaceWorkman",
    "Play",
    "Replace",
    "Resign",
    "RollerballBoardError",
    "Settings",
    "Table",
    "Take",
    "actors",
    "apply",
    "card_name",
    "choose_action",
    "describe_next_step",
    "format_action",
    "from_json",
    "geometry",
    "kind_of",
    "legal_actions",
    "new_game",
    "next_step",
    "parse_command",
    "parse_record",
    "play",
    "replay",
    "to_json",
    "to_record",
    "verify_record",
    "view_for",
]
