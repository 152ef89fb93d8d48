"""The frames of a replay, written where the rules cannot (rules/ never loads Pillow):

python -m render replay FILE DIR   verify the record (refused with the reason if it does not
                                   check out against its commitment), then write every
                                   step's image into DIR, drawn by the game's own renderer
                                   as the replay card shows it: the same bytes on any
                                   machine (render/replay.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from render.replay import replayable, write_frames
from rules.errors import PlayerError
from rules.replay import verified


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="write each step of a verified record as an image")
    replay.add_argument("file", type=Path)
    replay.add_argument("directory", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        print(f"error: cannot read {args.file}: {reason}", file=sys.stderr)
        return 1
    try:
        steps = verified(text, None)
    except PlayerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if not replayable(steps.game):
        print(f"error: {steps.title} replays are not drawn yet.", file=sys.stderr)
        return 1
    for position, path in zip(steps.positions, write_frames(steps, args.directory), strict=True):
        said = " ".join(position.texts) or "(the set-up)"
        print(f"{path.name}\t{position.move or '-'}\t{said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
