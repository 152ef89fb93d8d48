"""The one command line for every game's records (rules/records.py):

    python -m rules verify FILE    check a finished match's record: the revealed seed and salt
                                   against the commitment published when it began, every action
                                   replayed from the seed, the result. Prints OK, or each thing
                                   that does not match (exit 1).
    python -m rules replay FILE    replay a revealed record and print the final position as JSON.
    python -m rules replay FILE --render DIR
                                   verify the record (refused with the reason if it does not
                                   check out), then write every step's image into DIR, drawn
                                   by the game's own renderer as the replay card shows it:
                                   the same bytes on any machine (render/replay.py).

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
from rules.replay import verified


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


def render(text: str, directory: Path, game: str | None = None) -> int:
    """`replay FILE --render DIR`: the frames of a verified record, one line each."""
    try:
        replay = verified(text, game)
    except PlayerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    # Pillow only here, when frames are asked for: the engines (and `verify`) never load it.
    from render.replay import replayable, write_frames

    if not replayable(replay.game):
        print(f"error: {replay.title} replays are not drawn yet.", file=sys.stderr)
        return 1
    for position, path in zip(replay.positions, write_frames(replay, directory), strict=True):
        said = " ".join(position.texts) or "(the set-up)"
        print(f"{path.name}\t{position.move or '-'}\t{said}")
    return 0


def main(argv: Sequence[str] | None = None, *, game: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m rules{'.' + game if game else ''}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("verify", help="check a finished record's dice are fair").add_argument(
        "file", type=Path
    )
    replay = commands.add_parser("replay", help="replay a record and print the final state")
    replay.add_argument("file", type=Path)
    replay.add_argument(
        "--render", type=Path, metavar="DIR", help="write each step's image into DIR instead"
    )
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
    if args.render is not None:
        return render(text, args.render, game)
    try:
        position = engine_of_record(text, game).replay(text)
    except PlayerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(position, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
