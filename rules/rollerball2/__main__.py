"""Command line: simulate many matches, watch a demo match, or replay or verify a record.

python -m rules.rollerball2 replay FILE          final state as JSON
python -m rules.rollerball2 verify FILE          OK, or exactly what does not match (exit 1)
    (both are python -m rules replay|verify FILE: rules/__main__.py)
python -m rules.rollerball2 sim --matches N --seed S
python -m rules.rollerball2 demo --seed S [--record FILE [--salt HEX]]
"""

from __future__ import annotations

import argparse
import sys

from rules.__main__ import main as records_main
from rules.rollerball2.coach import auto_play
from rules.rollerball2.engine import new_match
from rules.rollerball2.record import to_record
from rules.rollerball2.roster import generate_roster
from rules.rollerball2.sim import format_summary, simulate


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] in (["replay"], ["verify"]):
        return records_main(arguments, game="rollerball2")
    parser = argparse.ArgumentParser(prog="python -m rules.rollerball2")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("replay", help="replay a game record, print the final state")
    commands.add_parser("verify", help="check a finished record's seed and replay it")
    sim_parser = commands.add_parser("sim", help="auto-play many matches and summarise them")
    sim_parser.add_argument("--matches", type=int, default=100)
    sim_parser.add_argument("--seed", default="1")
    demo_parser = commands.add_parser("demo", help="auto-play one match, print the play-by-play")
    demo_parser.add_argument("--seed", default="1")
    demo_parser.add_argument("--record", help="also write the game record to this file")
    demo_parser.add_argument("--salt", help="commit the record's seed with this salt")
    args = parser.parse_args(arguments)

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
            handle.write(to_record(state, salt=args.salt, reveal=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
