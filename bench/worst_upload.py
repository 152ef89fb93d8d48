"""The worst text an upload can carry (100 KB, the upload limit), escaped and refused.

    python bench/worst_upload.py

For each adversarial shape (one long word, blank lines, a long run of what a pattern repeats),
the CPU time of ui.text.shown over 100 KB, and of the whole refusal of a one-word roster CSV
and a one-line orders file (parsed, its problems escaped). Both run on the event loop, so every
other server waits for them. Goal: 50 ms each (a fraction of Discord's 3-second window to
answer an interaction). The echo column: characters of the refusal (its capped repetition of
the file, not the file).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rollerball2.teams import RosterImportError, parse_roster_csv
from rules.volleyball.orderform import parse_order_forms
from rules.volleyball.orders import VolleyballError
from ui.text import shown
from ui.uploads import MAX_UPLOAD_BYTES

GOAL_MS = 50.0
SHAPES = {
    "one long word": "a",
    "blank lines": "\n",
    "indented blank lines": " \n",
    "scheme-like": "a:",
    "digits": "1",
    "spaces": " ",
}


def cpu_ms(work) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best * 1000


def roster_refusal(text: str) -> str:
    try:
        parse_roster_csv(text, "Team", 1)
    except RosterImportError as error:
        return "\n".join(shown(problem) for problem in error.problems)
    return ""


def orders_refusal(text: str) -> str:
    try:
        parse_order_forms(text)
    except VolleyballError as error:
        return "\n".join(shown(problem) for problem in error.args[0])
    return ""


def main() -> int:
    print(f"{'what (100 KB)':<34}{'CPU ms':>8}{'goal':>7}{'echo':>7}")
    worst = 0.0
    for name, unit in SHAPES.items():
        text = unit * (MAX_UPLOAD_BYTES // len(unit))
        ms = cpu_ms(lambda text=text: shown(text))
        worst = max(worst, ms)
        print(f"{'shown: ' + name:<34}{ms:>8.1f}{GOAL_MS:>7.0f}{'':>7}")
    word = "a" * MAX_UPLOAD_BYTES
    echo = roster_refusal(word)
    ms = cpu_ms(lambda: roster_refusal(word))
    worst = max(worst, ms)
    print(f"{'roster CSV, one-word header':<34}{ms:>8.1f}{GOAL_MS:>7.0f}{len(echo):>7}")
    for name, text in (("orders, one line", word), ("orders, one set line", "Set 1\n" + word)):
        echo = orders_refusal(text)
        ms = cpu_ms(lambda text=text: orders_refusal(text))
        worst = max(worst, ms)
        print(f"{name:<34}{ms:>8.1f}{GOAL_MS:>7.0f}{len(echo):>7}")
    print(f"worst {worst:.1f} ms against the goal {GOAL_MS:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
