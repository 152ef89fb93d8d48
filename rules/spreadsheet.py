"""Every CSV the bot writes and reads back: cells a spreadsheet would run as a formula are
neutralised, and read back as they were.

A spreadsheet treats a cell that starts with = + - @ (or a tab or carriage return before one)
as a formula: a player named `=HYPERLINK(...)` or `+cmd|' /C calc'!A0` would run in the
spreadsheet of whoever opens an exported roster (OWASP, "CSV Injection"). Such a cell is
written with a leading apostrophe, which spreadsheets read as "this is text" and do not show;
reading drops it again, so a name round-trips exactly. A cell that already starts with
apostrophes before such a character gets one more, so it reads back with all of its own.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def _needs_mark(cell: str) -> bool:
    return cell.lstrip(TEXT_MARK).startswith(FORMULA_STARTS)


def neutralised(cell: object) -> str:
    """The cell as it is written: never the start of a formula."""
    text = str(cell)
    return TEXT_MARK + text if _needs_mark(text) else text


def restored(cell: str) -> str:
    """A cell as it was before `neutralised` (a cell the bot did not mark stays as it is)."""
    return cell[1:] if cell.startswith(TEXT_MARK) and _needs_mark(cell) else cell


def write_csv(rows: Iterable[Iterable[object]]) -> str:
    """The rows as CSV text, every cell neutralised."""
    out = io.StringIO(newline="")
    # RFC 4180's line break, as spreadsheets write it; with it the writer also quotes a cell
    # holding a lone carriage return (with "\n" alone it would split the row when read).
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([neutralised(cell) for cell in row])
    return out.getvalue()


def read_csv(text: str, delimiter: str = ",") -> list[list[str]]:
    """The rows of CSV text, every cell restored (csv.Error when it is not readable CSV)."""
    return [
        [restored(cell) for cell in row]
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    ]
