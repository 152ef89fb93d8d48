"""Command line: replay a record, simulate many matches, or watch a demo match.

python -m rules.rollerball2 replay FILE          final state as JSON
python -m rules.rollerball2 verify FILE          OK, or exactly what does not match (exit 1)
python -m rules.rollerball2 sim --matches N --seed S
python -m rules.rollerball2 demo --seed S [--record FILE [--salt HEX]]
"""

from __future__ import annotations

import argparse
import json
import sys

from rules.rollerball2.coach import auto_play
from rules.rollerball2.engine import new_match
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.record import replay, to_record, verify_record
from rules.rollerball2.roster import generate_roster
from rules.rollerball2.sim import format_summary, simulate
from rules.rollerball2.state import to_json


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.rollerball2")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser(
        "replay", help="replay a game record, print the final state"
    )
    replay_parser.add_argument("file")
    verify_parser = commands.add_parser(
        "verify", help="check a finished record's seed against its commitment and replay it"
    )
    verify_parser.add_argument("file")
    sim_parser = commands.add_parser("sim", help="auto-play many matches and summarise them")
    sim_parser.add_argument("--matches", type=int, default=100)
    sim_parser.add_argument("--seed", default="1")
    demo_parser = commands.add_parser("demo", help="auto-play one match, print the play-by-play")
    demo_parser.add_argument("--seed", default="1")
    demo_parser.add_argument("--record", help="also write the game record to this file")
    demo_parser.add_argument("--salt", help="commit the record's seed with this salt")
    args = parser.parse_args(argv)

    if args.command == "replay":
        try:
            with open(args.file, encoding="utf-8") as handle:
                state = replay(handle.read())
        except (OSError, RollerballError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        print(json.dumps(to_json(state)))
        return 0
    if args.command == "verify":
        try:
            with open(args.file, encoding="utf-8") as handle:
                problems = verify_record(handle.read())
        except OSError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        if problems:
            for problem in problems:
                print(problem)
            return 1
        print("OK: the seed matches the commitment and every action replays.")
        return 0
    if args.command == "sim":
        summary = simulate(args.matches, args.seed)
        fair = simulate(args.matches, args.seed, random_lineups=True)
        print(format_summary(summary, args.seed, fair))
        return 0
    home = generate_roster(args.seed, "Houston")
    away = generate_roster(args.seed, "Tokyo")
    state, events = auto_play(new_match(args.seed, home, away))
    for event in events:
        print(event.text)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as handle:
            handle.write(to_record(state, salt=args.salt))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
