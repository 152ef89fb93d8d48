"""`python -m rules.rocketball replay FILE`: replay a game record, print the final state JSON.
`python -m rules.rocketball verify FILE`: check a finished match's record (notes/fairness.md):
the revealed seed and salt against the published commitment, every move, the result. Prints
OK, or each thing that does not match and exits 1."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules.rocketball.errors import RocketballError
from rules.rocketball.record import parse_record, replay, verify_record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.rocketball")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_command = commands.add_parser("replay", help="replay a record and print the state")
    replay_command.add_argument("file", type=Path)
    verify_command = commands.add_parser("verify", help="check a record's dice are fair")
    verify_command.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as error:
        print(f"error: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    if args.command == "verify":
        problems = verify_record(text)
        if problems:
            print("\n".join(f"MISMATCH: {problem}" for problem in problems))
            return 1
        record = parse_record(text)
        print(
            f"OK: seed {record.seed} matches the commitment {record.commitment}; "
            f"{len(record.moves)} moves replay to the result {record.result}."
        )
        return 0
    try:
        state = replay(text)
    except RocketballError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(state.to_dict(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
