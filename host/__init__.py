"""The shared match host: a game's cog gives it a GameAdapter and gets challenges, threads,
turns, buttons and forms that survive restarts, reminders, forfeits, resigning, records with
provably fair dice, and start-up repair. See core.py for how a move goes (docs/architecture.md walks one)."""

from host.adapter import FORM, ButtonSpec, FormSpec, GameAdapter, Step, TurnPost
from host.base import HostBot
from host.match import (
    COMPUTER_ID,
    DEFAULT_FORFEIT_MINUTES,
    DEFAULT_REMIND_MINUTES,
    DELETED_NAME,
    DELETED_USER_ID,
    Match,
    seat_of,
    seat_of_clicker,
)
from host.match_host import MatchHost

__all__ = [
    "COMPUTER_ID",
    "DEFAULT_FORFEIT_MINUTES",
    "DEFAULT_REMIND_MINUTES",
    "DELETED_NAME",
    "DELETED_USER_ID",
    "FORM",
    "ButtonSpec",
    "FormSpec",
    "GameAdapter",
    "HostBot",
    "Match",
    "MatchHost",
    "Step",
    "TurnPost",
    "seat_of",
    "seat_of_clicker",
]
