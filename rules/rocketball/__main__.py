"""`python -m rules.rocketball replay FILE`: replay a game record, print the final state JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules.rocketball.errors import RocketballError
from rules.rocketball.record import replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.rocketball")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_command = commands.add_parser("replay", help="replay a record and print the state")
    replay_command.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        state = replay(args.file.read_text(encoding="utf-8"))
    except OSError as error:
        print(f"error: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    except RocketballError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(state.to_dict(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
