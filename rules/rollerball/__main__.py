"""`python -m rules.rollerball replay FILE` prints the final state as JSON;
`python -m rules.rollerball verify FILE` checks a revealed record and prints OK or what is wrong."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.record import replay, verify


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.rollerball")
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("replay", "verify"):
        commands.add_parser(name).add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as error:
        print(f"error: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    if args.command == "verify":
        problems = verify(text)
        for problem in problems:
            print(f"MISMATCH: {problem}")
        if not problems:
            print("OK")
        return 1 if problems else 0
    try:
        state = replay(text)
    except RollerballBoardError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(state.to_dict(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
