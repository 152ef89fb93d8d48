"""A game's finished-match results, one row per person per finished match, for its `/GAME
stats`: the one store every game's results table goes through (db/rocketball.py and
db/rollerball.py declare theirs with it; a new game declares its own the same way, beside the
migration that creates its table).

A game's table holds `game_id` (the games table's id, the row deleted with it) and `user_id`,
keyed on both, then the columns of the game's row (a frozen dataclass whose fields, after
`user_id`, are named as the columns). The computer (user id 0) keeps no row.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from db.database import Connection, Database

# The table and column names are the code's own, never a user's: they are written into the SQL,
# so each is checked against this when the store is declared.
NAME = re.compile(r"[a-z_][a-z0-9_]*")


class ResultRow(Protocol):
    """A game's result row: a dataclass whose first field is `user_id`."""

    @property
    def user_id(self) -> int: ...

    __dataclass_fields__: ClassVar[dict[str, Any]]


Row = TypeVar("Row", bound=ResultRow)


@dataclass(frozen=True)
class ResultsStore(Generic[Row]):
    """One game's results table.

    `totals` names each figure of a player's statistics and the SQL aggregate over their rows
    that computes it (a figure counted nowhere is 0, never NULL); `opponents` names the columns
    that hold another user's id, which /privacy makes the deleted-user label so the opponents'
    statistics stay whole."""

    table: str
    row: type[Row]
    totals: Mapping[str, str]
    opponents: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [self.table, *self.columns, *self.totals, *self.opponents]
        bad = [name for name in names if not NAME.fullmatch(name)]
        if bad or self.columns[:1] != ("user_id",):
            raise ValueError(f"results table {self.table}: bad names {bad} or no leading user_id")

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(field.name for field in fields(self.row))

    async def record(self, conn: Connection, game_id: int, rows: Sequence[Row]) -> None:
        """Write the rows inside the caller's transaction (the one that saves the last move),
        so a finished match and its statistics are stored together or not at all. A retry
        writes nothing twice."""
        columns = ("game_id", *self.columns)
        marks = ", ".join("?" for _ in columns)
        await conn.executemany(
            f"INSERT INTO {self.table} ({', '.join(columns)}) VALUES ({marks})"
            " ON CONFLICT (game_id, user_id) DO NOTHING",
            [
                (game_id, *(_stored(getattr(row, name)) for name in self.columns))
                for row in rows
                if row.user_id != 0
            ],
        )

    async def totals_of(self, db: Database, user_id: int) -> dict[str, int]:
        """Each of `totals` over the user's rows (all 0 for a user without one)."""
        figures = ", ".join(f"COALESCE({sql}, 0) AS {name}" for name, sql in self.totals.items())
        row = await db.fetch_one(
            f"SELECT {figures} FROM {self.table} WHERE user_id = ?", (user_id,)
        )
        assert row is not None  # an aggregate always gives one row
        return {name: int(row[name]) for name in self.totals}

    async def forget(self, conn: Connection, user_id: int, anonymous: int) -> None:
        """/privacy: the user's own rows go; where another's row names them (`opponents`), it
        names `anonymous` instead."""
        await conn.execute(f"DELETE FROM {self.table} WHERE user_id = ?", (user_id,))
        for column in self.opponents:
            await conn.execute(
                f"UPDATE {self.table} SET {column} = ? WHERE {column} = ?", (anonymous, user_id)
            )


def _stored(value: object) -> object:
    """A row's value as its column holds it: a flag is 0 or 1 (both backends' INTEGER)."""
    return int(value) if isinstance(value, bool) else value


def counted(result: str) -> str:
    """The SQL aggregate that counts a player's rows with `result` (win, loss or draw)."""
    return f"SUM(CASE WHEN result = '{result}' THEN 1 ELSE 0 END)"
