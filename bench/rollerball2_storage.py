"""Rollerball II: the bytes a finished match keeps in the database's `games.state`.

    .venv/bin/python bench/rollerball2_storage.py [--matches 200]

Seeded matches between generated teams, auto-played to their end by the engine (the coach's
choices), each stored as the bot stores it (host/match.py `Match.to_json` around the match's
Rb2Match); prints the median bytes of the stored state and of its largest parts, the figure at
100,000 finished matches, and checks that each stored match reads back to the same final
score, statistics sheets and record (its record replayed verifies against its commitment).
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cogs.rollerball2.presenter import Rollerball2Adapter  # noqa: E402
from host.match import Match  # noqa: E402
from rules import records  # noqa: E402
from rules.rollerball2 import auto_play, generate_roster, new_match  # noqa: E402
from rules.rollerball2.modes import Rb2Match  # noqa: E402
from rules.rollerball2.record import GAME, to_record, verify_record  # noqa: E402

ADAPTER = Rollerball2Adapter()
MIB = 1024 * 1024


def stored(index: int) -> tuple[str, Rb2Match, str]:
    """A finished match's stored state, the match it was, and its revealed record."""
    final, _ = auto_play(
        new_match(index, generate_roster(index, "Houston"), generate_roster(index, "Tokyo"))
    )
    game = Rb2Match(engine=final, mode="coaches", home_team_id=1, away_team_id=2)
    salt = secrets.token_hex(16)
    match = Match(
        engine=game,
        names=["Alice", "Bob"],
        salt=salt,
        commitment=records.commitment(GAME, final.seed, salt),
    )
    record = to_record(final, salt=salt, reveal=True, names=match.names)
    return match.to_json(ADAPTER), game, record


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    sizes: list[int] = []
    parts: dict[str, list[int]] = {}
    for index in range(args.matches):
        text, game, record = stored(index)
        sizes.append(len(text.encode()))
        engine = json.loads(text)["engine"]["engine"]
        for key in ("setup", "home", "away", "rng", "moments", "record"):
            parts.setdefault(key, []).append(len(json.dumps(engine.get(key)).encode()))
        back = Match.from_json(ADAPTER, text).engine.engine
        same = (
            back.home.score == game.engine.home.score
            and back.away.score == game.engine.away.score
            and back.home.sheet == game.engine.home.sheet
            and back.away.sheet == game.engine.away.sheet
            and back.home.roster == game.engine.home.roster
            and back.record == game.engine.record
        )
        if not same or verify_record(to_record(back, salt=json.loads(text)["salt"], reveal=True)):
            raise SystemExit(f"match {index}: the stored match does not read back the same")
        if verify_record(record):
            raise SystemExit(f"match {index}: its record does not verify")
    median = statistics.median(sizes)
    print(
        f"{args.matches} finished matches: stored state median {median / 1000:.1f} KB"
        f" (min {min(sizes) / 1000:.1f}, max {max(sizes) / 1000:.1f});"
        f" at 100,000 finished matches {median * 100_000 / MIB / 1024:.2f} GiB of states"
    )
    print(
        "  parts of the engine's state, median KB: "
        + ", ".join(
            f"{key} {statistics.median(values) / 1000:.1f}" for key, values in parts.items()
        )
    )
    print(
        "  every stored match read back to the same score, sheets, roster and record; every record verified"
    )


if __name__ == "__main__":
    main()
