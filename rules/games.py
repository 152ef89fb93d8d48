"""The games, each declared once: its name, its title and whether a server may switch it off.
Everything else that lists the games is built from GAMES (rules/face.py's engines, the help,
/settings server's game switch, /games, the rulebooks); docs/architecture.md "A new game" names
what a new game adds beside its entry here.

A game's name is the one it has everywhere: its command group, the games table's kind, its
records' [Game] header and its seed commitment. The order is the order players read them in
(/help, /settings server).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    name: str  # "rocketball"
    title: str  # "Rocketball": as players read it
    summary: str  # what the game is, in a sentence (/help's overview, its quick start)
    switchable: bool = True  # a server's admins may switch it off (/settings server)
    face: bool = False  # a turn-based game with an engine face (rules/face.py)
    # records without a face: its package's `record.RECORDS` reads, replays and verifies its
    # matches' records (rules/face.py engine_named)
    records: bool = False


GAMES: tuple[Game, ...] = (
    Game(
        "rollerball2",
        "Rollerball II",
        "A card-driven sports simulation: player cards with D10 columns, 60 Fast Action Cards, "
        "penalties and injuries that carry over.",
        face=True,
    ),
    Game(
        "rollerball",
        "Rollerball",
        "An abstract board game for 2-6 players on concentric rings: bases, workmen, diversion "
        "cards and balls that split.",
        face=True,
    ),
    Game(
        "volleyball",
        "Volleyball",
        "A season-long league: managers send orders each round and the bot is the game master.",
        records=True,
    ),
    Game(
        "rocketball",
        "Rocketball",
        "Two players steer a blazing ball with vortex chips and a d4; nine variants and a "
        "computer opponent.",
        face=True,
    ),
)


def game(name: str) -> Game:
    """The game called `name`. KeyError for a name that is not a game."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise KeyError(name)


def title_of(name: str) -> str:
    """A game's title as players read it; a name that is no game (any more) as it is."""
    try:
        return game(name).title
    except KeyError:
        return name


def switchable() -> frozenset[str]:
    """The games a server may switch off, by name."""
    return frozenset(entry.name for entry in GAMES if entry.switchable)
