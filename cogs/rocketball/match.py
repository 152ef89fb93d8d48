"""What the Rocketball cog stores for a match: the engine state plus the few facts about the
Discord side the engine does not know (who is the computer, reminder times). Plain data, JSON
in the games table."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from rules.rocketball.state import GameState

COMPUTER_ID = 0  # the user id that stands for the computer in game_players
COMPUTER_LEVELS = ("easy", "medium", "strong")  # rules.rocketball.ai.LEVELS
SEATS = ("N", "S")  # players[0] plays North (the challenger), players[1] South

DEFAULT_REMIND_MINUTES = 24 * 60
DEFAULT_FORFEIT_MINUTES = 3 * 24 * 60


@dataclass
class Match:
    engine: GameState
    computer: str | None = None  # the computer's level when South is the computer
    remind_minutes: int = DEFAULT_REMIND_MINUTES
    forfeit_minutes: int = DEFAULT_FORFEIT_MINUTES
    forfeited_by: str | None = None  # the seat that timed out, when the match ended so
    # The players' display names when the match was made (the bot has no member list to ask
    # later), for the board image; mentions in messages use the user ids.
    names: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(
            {
                "engine": self.engine.to_dict(),
                "computer": self.computer,
                "remind_minutes": self.remind_minutes,
                "forfeit_minutes": self.forfeit_minutes,
                "forfeited_by": self.forfeited_by,
                "names": self.names,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> Match:
        data = json.loads(text)
        return cls(
            engine=GameState.from_dict(data["engine"]),
            computer=data.get("computer"),
            remind_minutes=data.get("remind_minutes", DEFAULT_REMIND_MINUTES),
            forfeit_minutes=data.get("forfeit_minutes", DEFAULT_FORFEIT_MINUTES),
            forfeited_by=data.get("forfeited_by"),
            names=data.get("names", {}),
        )


def seat_of(players: tuple[int, ...], user_id: int) -> str | None:
    """The seat ("N"/"S") of a user in a match, or None for a spectator."""
    for seat, player in zip(SEATS, players, strict=False):
        if player == user_id and player != COMPUTER_ID:
            return seat
    return None


def user_of(players: tuple[int, ...], seat: str) -> int:
    return players[SEATS.index(seat)]
