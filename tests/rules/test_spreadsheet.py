"""Every CSV the bot writes goes through rules.spreadsheet, which never starts a cell with a
formula (OWASP, "CSV Injection") and reads its cells back as they were."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.spreadsheet import FORMULA_STARTS, read_csv, write_csv

ROOT = Path(__file__).resolve().parents[2]
CELLS = [
    '=HYPERLINK("http://e.vil","x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-1+1",
    "\t=1",
    "\r=1",
    "'=x",
    "''+x",
    "'Tis",
    "plain",
    "",
]


@pytest.mark.parametrize("cell", CELLS)
def test_a_cell_is_never_a_formula_and_reads_back_as_it_was(cell):
    text = write_csv([[cell, 7]])
    (row,) = read_csv(text)
    assert row == [cell, "7"]
    written = text.split(",")[0].strip('"')
    assert not written.startswith(FORMULA_STARTS), written


def test_every_csv_the_bot_writes_goes_through_the_one_writer():
    writers = re.compile(r"csv\.(writer|DictWriter)\b")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("bot.py", "cogs", "host", "ui", "rules", "render", "db")
        for path in ([ROOT / folder] if folder.endswith(".py") else (ROOT / folder).rglob("*.py"))
        if writers.search(path.read_text(encoding="utf-8"))
        and path != ROOT / "rules" / "spreadsheet.py"
    ]
    assert offenders == []
