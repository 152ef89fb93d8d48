"""What the host stores for a match: the engine's state plus what the engine does not know
(display names, computer seats, reminder times, the seed's commitment). Plain data, JSON in the
games table; the engine part is (de)serialised by the game's adapter.

Every click reads its match and writes it back, and the standard library's JSON was a tenth of
that on the event loop (a Rollerball II match is 36 KB with its rosters): orjson (discord.py's
own, for every gateway event) writes the same data, keys sorted, five times faster."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from rules.face import Engine

if TYPE_CHECKING:
    import discord

COMPUTER_ID = 0  # the user id that stands for a computer player in game_players
DELETED_USER_ID = 1  # what a user's id becomes in other players' games after /privacy delete
DELETED_NAME = "Deleted user"

# The text json.dumps(sort_keys=True) wrote, without its spaces: keys sorted, a number key as
# its digits (tests/rules/test_face.py checks every state of every game against it).
STORED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS

DEFAULT_REMIND_MINUTES = 24 * 60
DEFAULT_FORFEIT_MINUTES = 3 * 24 * 60


class HoldsEngine(Protocol):
    """What (de)serialising a match needs of its game: the engine face that reads and writes
    the engine's part (a GameAdapter is one; host/adapter.py builds on this module, not the
    other way round)."""

    @property
    def engine(self) -> Engine[Any, Any]: ...


@dataclass
class Match:
    engine: Any
    names: list[str]  # display names by seat, when the match was made (mentions use ids)
    salt: str  # secret until the match ends; with the seed it gives `commitment`
    commitment: str
    computers: dict[int, str] = field(default_factory=dict)  # seat -> level
    remind_minutes: int = DEFAULT_REMIND_MINUTES
    forfeit_minutes: int = DEFAULT_FORFEIT_MINUTES
    forfeited_by: int | None = None  # the seat that timed out, when the match ended so
    challenged_seat: int = 1  # who answers the challenge (a rematch swaps the seats)
    # After this long without a move a computer stands in for the absent player (who may take
    # the seat back); None: no stand-in, the others may claim a forfeit instead.
    takeover_minutes: int | None = None
    # When each seat last acted (seconds since the epoch): who is looking at the card now
    # needs no ping for their next decision.
    seen: dict[int, float] = field(default_factory=dict)
    # Seats whose routine actions (a die to roll) the bot takes; decisions stay theirs.
    auto: set[int] = field(default_factory=set)
    # What happens when a player's time runs out (computer | forfeit | wait; None: the game's
    # own) and the match's clock, if it has one (host/clocks.py, docs/async-play.md).
    on_timeout: str | None = None
    clock: dict[str, Any] | None = None
    # A lesson's progress (host/lessons.py): {"step": the script's next step}; None: a match.
    lesson: dict[str, Any] | None = None
    # Rated or casual, chosen at the challenge or table (rated by default): a rated match
    # between people moves their ratings when it ends (host/results.py `rate`).
    rated: bool = True

    def active_since(self, seat: int, since: float) -> bool:
        return self.seen.get(seat, 0.0) >= since

    def to_json(self, adapter: HoldsEngine) -> str:
        data = {
            "engine": adapter.engine.dump(self.engine),
            "names": self.names,
            "salt": self.salt,
            "commitment": self.commitment,
            "computers": {str(seat): level for seat, level in self.computers.items()},
            "remind_minutes": self.remind_minutes,
            "forfeit_minutes": self.forfeit_minutes,
            "forfeited_by": self.forfeited_by,
            "challenged_seat": self.challenged_seat,
            "takeover_minutes": self.takeover_minutes,
            "seen": {str(seat): at for seat, at in self.seen.items()},
            "auto": sorted(self.auto),
            "on_timeout": self.on_timeout,
            "clock": self.clock,
            "rated": self.rated,
        }
        if self.lesson is not None:  # only a lesson's match carries one
            data["lesson"] = self.lesson
        return orjson.dumps(data, option=STORED).decode()

    @classmethod
    def from_json(cls, adapter: HoldsEngine, text: str) -> Match:
        data = orjson.loads(text)
        return cls(
            engine=adapter.engine.load(data["engine"]),
            names=list(data["names"]),
            salt=data["salt"],
            commitment=data["commitment"],
            computers={int(seat): level for seat, level in data.get("computers", {}).items()},
            remind_minutes=data.get("remind_minutes", DEFAULT_REMIND_MINUTES),
            forfeit_minutes=data.get("forfeit_minutes", DEFAULT_FORFEIT_MINUTES),
            forfeited_by=data.get("forfeited_by"),
            challenged_seat=data.get("challenged_seat", 1),
            takeover_minutes=data.get("takeover_minutes"),
            seen={int(seat): float(at) for seat, at in data.get("seen", {}).items()},
            auto=set(data.get("auto", [])),
            on_timeout=data.get("on_timeout"),
            clock=data.get("clock"),
            lesson=data.get("lesson"),
            rated=data.get("rated", True),
        )


# The hex digits of a dice commitment a message shows: 64 bits of the SHA-256, one short line
# on a phone and still binding (another seed and salt with the same 64 bits would take some
# 2**64 hashes to find); the record (`/GAME record`) carries the whole hash.
COMMITMENT_SHOWN = 16


def dice_line(commitment: str, record_command: str) -> str:
    """The line that publishes a match's dice commitment before anyone moves (rules/records.py),
    short enough for one line of a phone."""
    return f"-# Dice commitment `{commitment[:COMMITMENT_SHOWN]}…` · whole in `{record_command}`"


def seat_of(players: tuple[int, ...], user_id: int) -> int | None:
    """The seat of a human user in a match, or None for a spectator."""
    if user_id in (COMPUTER_ID, DELETED_USER_ID):
        return None
    for seat, player in enumerate(players):
        if player == user_id:
            return seat
    return None


class Seated(Protocol):
    """A stored match, as far as its seats go (db.games.StoredGame)."""

    @property
    def players(self) -> tuple[int, ...]: ...


def seat_of_clicker(stored: Seated, interaction: discord.Interaction) -> int | None:
    """The seat of the user who clicked (or typed a command) in a stored match, or None for a
    spectator."""
    return seat_of(stored.players, interaction.user.id)


def human_seats(players: tuple[int, ...]) -> list[int]:
    return [seat for seat, user in enumerate(players) if user != COMPUTER_ID]


def pair_key(user_ids: list[int]) -> str:
    """Who may have only one open match together in a channel (order does not matter)."""
    return ":".join(str(user) for user in sorted(user_ids))


def seat_name(state_json: str, seat: int) -> str | None:
    """The name a stored match shows for `seat` (None: none)."""
    names = json.loads(state_json).get("names")
    if isinstance(names, list) and 0 <= seat < len(names) and isinstance(names[seat], str):
        return names[seat]
    return None


def without_name(state_json: str, seat: int) -> str:
    """A stored match with the name at `seat` replaced (a user deleted their data)."""
    data = json.loads(state_json)
    names = data.get("names")
    if isinstance(names, list) and 0 <= seat < len(names):
        names[seat] = DELETED_NAME
    return json.dumps(data, sort_keys=True)
