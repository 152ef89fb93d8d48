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
from collections.abc import Callable, Mapping, Sequence
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
class Figure:
    """One figure of a player's statistics: what one of their result rows adds to it (`share`),
    or, for a best (`highest`), the largest share kept."""

    share: Callable[[Any], int]
    highest: bool = False


PLAYED = Figure(lambda row: 1)


def counted(result: str) -> Figure:
    """The player's rows with `result` (win, loss or draw)."""
    return Figure(lambda row: int(row.result == result))


def summed(column: str) -> Figure:
    return Figure(lambda row: int(getattr(row, column)))


def best(column: str) -> Figure:
    return Figure(lambda row: int(getattr(row, column)), highest=True)


@dataclass(frozen=True)
class ResultsStore(Generic[Row]):
    """One game's results table, and its table of each player's totals.

    A statistics command reads one row of totals however many matches a player has finished:
    the totals are counted as each match's rows are written, in the same transaction
    (`record`), and filled from the rows already there by the migration that creates them.
    `totals` names each figure (a column of `totals_table`) and how a row counts in it;
    `opponents` names the columns that hold another user's id, which /privacy makes the
    deleted-user label so the opponents' statistics stay whole."""

    table: str
    row: type[Row]
    totals_table: str
    totals: Mapping[str, Figure]
    opponents: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [self.table, self.totals_table, *self.columns, *self.totals, *self.opponents]
        bad = [name for name in names if not NAME.fullmatch(name)]
        if bad or self.columns[:1] != ("user_id",):
            raise ValueError(f"results table {self.table}: bad names {bad} or no leading user_id")

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(field.name for field in fields(self.row))

    async def record(self, conn: Connection, game_id: int, rows: Sequence[Row]) -> None:
        """Write the rows inside the caller's transaction (the one that saves the last move),
        so a finished match and its statistics are stored together or not at all, and add each
        player's share to their totals. A retry writes nothing twice; the computer (user id 0)
        keeps no row, and a person in two seats counts once (their first)."""
        cursor = await conn.execute(
            f"SELECT 1 FROM {self.table} WHERE game_id = ? LIMIT 1", (game_id,)
        )
        if await cursor.fetchone() is not None:
            return
        people = {row.user_id: row for row in reversed(rows) if row.user_id != 0}
        columns = ("game_id", *self.columns)
        marks = ", ".join("?" for _ in columns)
        await conn.executemany(
            f"INSERT INTO {self.table} ({', '.join(columns)}) VALUES ({marks})",
            [
                (game_id, *(_stored(getattr(row, name)) for name in self.columns))
                for row in people.values()
            ],
        )
        figures = list(self.totals)
        updates = ", ".join(
            f"{name} = CASE WHEN excluded.{name} > {self.totals_table}.{name} "
            f"THEN excluded.{name} ELSE {self.totals_table}.{name} END"
            if self.totals[name].highest
            else f"{name} = {self.totals_table}.{name} + excluded.{name}"
            for name in figures
        )
        for user_id, row in people.items():
            await conn.execute(
                f"INSERT INTO {self.totals_table} (user_id, {', '.join(figures)})"
                f" VALUES (?, {', '.join('?' for _ in figures)})"
                f" ON CONFLICT (user_id) DO UPDATE SET {updates}",
                (user_id, *(self.totals[name].share(row) for name in figures)),
            )

    async def totals_of(self, db: Database, user_id: int) -> dict[str, int]:
        """The user's totals: one row, however many matches they finished (all 0 without)."""
        row = await db.fetch_one(f"SELECT * FROM {self.totals_table} WHERE user_id = ?", (user_id,))
        return {name: int(row[name]) if row is not None else 0 for name in self.totals}

    async def forget(self, conn: Connection, user_id: int, anonymous: int) -> None:
        """/privacy: the user's own rows and totals go; where another's row names them
        (`opponents`), it names `anonymous` instead."""
        await conn.execute(f"DELETE FROM {self.table} WHERE user_id = ?", (user_id,))
        await conn.execute(f"DELETE FROM {self.totals_table} WHERE user_id = ?", (user_id,))
        for column in self.opponents:
            await conn.execute(
                f"UPDATE {self.table} SET {column} = ? WHERE {column} = ?", (anonymous, user_id)
            )


def _stored(value: object) -> object:
    """A row's value as its column holds it: a flag is 0 or 1 (both backends' INTEGER)."""
    return int(value) if isinstance(value, bool) else value
