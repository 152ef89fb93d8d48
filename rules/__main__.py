"""The one command line for every game's records (rules/records.py):

    python -m rules verify FILE    check a finished match's record: the revealed seed and salt
                                   against the commitment published when it began, every action
                                   replayed from the seed, the result. Prints OK, or each thing
                                   that does not match (exit 1).
    python -m rules replay FILE    replay a revealed record and print the final position as JSON.

Its frames, drawn with Pillow, come from render/'s command line: `python -m render replay FILE
DIR` (rules/ never draws).

The game is read from the record's [Game] header; `python -m rules.GAME verify|replay FILE`
does the same for one game.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from rules import records
from rules.errors import PlayerError
from rules.face import engine_of_record


def verify(text: str, game: str | None = None) -> tuple[bool, list[str]]:
    """(fair, the lines to print) for a record's text."""
    try:
        engine = engine_of_record(text, game)
    except PlayerError as error:
        return False, [f"MISMATCH: {error}"]
    problems = engine.verify(text)
    if problems:
        return False, [f"MISMATCH: {problem}" for problem in problems]
    record = records.read_record(text)
    return True, [
        f"OK: {engine.title}, seed {record.seed} matches the commitment {record.commitment}; "
        f"{len(record.actions)} actions replay to the result {record.result!r}."
    ]


def main(argv: Sequence[str] | None = None, *, game: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m rules{'.' + game if game else ''}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("verify", help="check a finished record's dice are fair").add_argument(
        "file", type=Path
    )
    replay = commands.add_parser("replay", help="replay a record and print the final state")
    replay.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        print(f"error: cannot read {args.file}: {reason}", file=sys.stderr)
        return 1
    if args.command == "verify":
        fair, lines = verify(text, game)
        print("\n".join(lines))
        return 0 if fair else 1
    try:
        position = engine_of_record(text, game).replay(text)
    except PlayerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(position, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
