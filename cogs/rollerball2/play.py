"""The hosted match moved to rules/rollerball2/modes.py (its modes and hand-overs are game
rules); the names this package imports from here are re-exported."""

from rules.rollerball2.modes import (
    MAX_CARDS_AT_ONCE,
    MODES,
    SIDES,
    TYPED_FORMS,
    Deadline,
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

__all__ = [
    "MAX_CARDS_AT_ONCE",
    "MODES",
    "SIDES",
    "TYPED_FORMS",
    "Deadline",
    "HandOver",
    "PlayUntil",
    "Rb2Match",
    "SimulateRest",
    "acting_seats",
    "action_line",
    "default_action",
    "parse_typed",
    "play",
    "sides_of",
]
