"""Per-player totals kept up to date as matches finish (migration 022): a statistics command
reads one row, however long a player's history is.

A game's results module records its result rows and adds each player's share of the match to
their totals in the same transaction (`record`), once per match: results already recorded for
the game (the rows' primary key forbids a second set) leave the totals as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from db.database import Connection


async def record(
    conn: Connection,
    *,
    results: str,
    totals: str,
    game_id: int,
    rows: Sequence[tuple[object, ...]],
    insert: str,
    shares: Mapping[int, Mapping[str, int]],
    highest: tuple[str, ...] = (),
) -> None:
    """Inside the caller's transaction: `insert` (an INSERT into `results`) for each of
    `rows`, then each user's `shares` (column -> amount) added to their row of `totals`, or
    for the `highest` columns kept if larger; nothing if `game_id` already has results."""
    cursor = await conn.execute(f"SELECT 1 FROM {results} WHERE game_id = ? LIMIT 1", (game_id,))
    if await cursor.fetchone() is not None:
        return
    await conn.executemany(insert, list(rows))
    for user_id, share in shares.items():
        columns = list(share)
        updates = ", ".join(
            f"{c} = CASE WHEN excluded.{c} > {totals}.{c} THEN excluded.{c} ELSE {totals}.{c} END"
            if c in highest
            else f"{c} = {totals}.{c} + excluded.{c}"
            for c in columns
        )
        await conn.execute(
            f"INSERT INTO {totals} (user_id, {', '.join(columns)})"
            f" VALUES (?, {', '.join('?' for _ in columns)})"
            f" ON CONFLICT (user_id) DO UPDATE SET {updates}",
            (user_id, *share.values()),
        )
