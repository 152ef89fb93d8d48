"""/privacy: a deleted user taken out of the free text the bot stored, the texts it said in a
match (a move's events) and in a league (a round's reports): their mentions and every name they
were shown with become a neutral label. The columns are listed here (FREE_TEXT); the e2e test
of /privacy searches every column of the whole database, so a text column added without being
listed here fails it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from db.database import Connection

# (table, its key, a column holding a JSON list of texts the bot posted)
FREE_TEXT = (
    ("game_moves", "id", "events"),
    ("volleyball_reports", "id", "messages"),
)
# (table, its key's columns, a column holding one text): a followed milestone waiting for its
# follower's digest (db/follows.py; a sent one keeps no text)
PLAIN_TEXT = (("follow_news", ("user_id", "news_key"), "text"),)


def scrubbed(text: str, user_id: int, names: Iterable[str], label: str) -> str:
    """`text` with the user's mentions and each of `names` (as a whole word) made `label`."""
    out = re.sub(rf"<@!?{user_id}>", label, text)
    for name in sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True):
        out = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", label, out)
    return out


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


async def _holding(
    conn: Connection, table: str, keys: tuple[str, ...], column: str, needles: list[str]
) -> list[Any]:
    """The rows of `table` whose `column` holds any of `needles` (their keys and the column)."""
    found = " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for _ in needles)
    cursor = await conn.execute(
        f"SELECT {', '.join(keys)}, {column} FROM {table} WHERE {found}",
        [_like(n) for n in needles],
    )
    return list(await cursor.fetchall())


async def scrub_free_text(conn: Connection, user_id: int, names: Iterable[str], label: str) -> int:
    """Inside the deletion's transaction: every stored text that mentions the user or shows one
    of `names` says `label` instead. Returns how many rows changed."""
    names = sorted({n.strip() for n in names if n and n.strip()})
    # what a row holds: the texts JSON-encoded (a name outside ASCII is escaped there)
    needles = [f"<@{user_id}>", f"<@!{user_id}>"] + [
        form for name in names for form in {name, json.dumps(name)[1:-1]}
    ]
    changed = 0
    for table, key, column in FREE_TEXT:
        for row in await _holding(conn, table, (key,), column, needles):
            texts = json.loads(row[column])
            new = [scrubbed(t, user_id, names, label) if isinstance(t, str) else t for t in texts]
            if new != texts:
                await conn.execute(
                    f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (json.dumps(new), row[key])
                )
                changed += 1
    for table, keys, column in PLAIN_TEXT:
        for row in await _holding(conn, table, keys, column, needles):
            new = scrubbed(row[column], user_id, names, label)
            if new != row[column]:
                where = " AND ".join(f"{key} = ?" for key in keys)
                await conn.execute(
                    f"UPDATE {table} SET {column} = ? WHERE {where}",
                    (new, *(row[key] for key in keys)),
                )
                changed += 1
    return changed
