"""A refactoring check for the Rollerball II engine: play many seeded matches and fingerprint
everything a player or a record could see, so two versions of the engine can be compared byte
for byte.

    python -m tests.support.rollerball2_replay write FILE [--matches N]   # before a change
    python -m tests.support.rollerball2_replay check FILE                 # after it: same bytes?

Each match is played from a seed with generated teams and one of the settings below (the plain
match, coach dice, private line-ups, no overtime, all of them), by the default coach or by a
seeded random coach that picks any legal action (so substitutions, odd choices and every
decision are exercised). A match's fingerprint is the SHA-256 of its revealed game record, every
event (kind, text, FAC, section, dice) in order, and the final state as JSON. Only the public
API is used (new_match, legal_actions, apply, choose_action, to_record, to_json), so the check
runs unchanged on both sides of an internal change.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

from rules.rollerball2 import (
    NextCard,
    Settings,
    apply,
    choose_action,
    event_to_json,
    generate_roster,
    legal_actions,
    new_match,
    to_json,
    to_record,
)

SALT = "00112233445566778899aabbccddeeff"
SETTINGS = (
    Settings(),
    Settings(coach_dice=True),
    Settings(private_lineups=True),
    Settings(overtime=False),
    Settings(overtime=True, private_lineups=True, coach_dice=True),
)
MAX_ACTIONS = 20_000  # a match ends long before (at most 150 cards and their decisions)


def play(index: int) -> str:
    """The fingerprint of seeded match number `index`."""
    settings = SETTINGS[index % len(SETTINGS)]
    random_coach = index % 2 == 1
    home = generate_roster(f"replay-home-{index}", "Houston")
    away = generate_roster(f"replay-away-{index}", "Tokyo")
    state = new_match(f"replay-{index}", home, away, settings)
    rng = random.Random(f"replay-coach-{index}")
    digest = hashlib.sha256()
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        action = choose_action(state)
        if random_coach:
            options = legal_actions(state)
            # Mostly the next card (a coach who substitutes at every chance never ends the
            # match), sometimes any legal action: substitutions and odd decisions.
            if rng.random() < 0.3 or NextCard() not in options:
                action = rng.choice(options)
        state, events = apply(state, action)
        for event in events:
            digest.update(json.dumps(event_to_json(event), sort_keys=True).encode())
            digest.update(b"\n")
    digest.update(to_record(state, reveal=True, salt=SALT).encode())
    digest.update(json.dumps(to_json(state), sort_keys=True).encode())
    return digest.hexdigest()


def fingerprints(matches: int) -> list[str]:
    return [f"{index} {play(index)}" for index in range(matches)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.rollerball2_replay")
    parser.add_argument("command", choices=("write", "check"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args(argv)
    if args.command == "write":
        lines = fingerprints(args.matches)
        args.file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {len(lines)} match fingerprints to {args.file}")
        return 0
    expected = args.file.read_text(encoding="utf-8").split()
    wanted = len(expected) // 2
    actual = " ".join(fingerprints(wanted)).split()
    differ = [expected[i] for i in range(0, len(expected), 2) if expected[i + 1] != actual[i + 1]]
    if differ:
        print(f"{len(differ)} of {wanted} matches differ: {' '.join(differ[:20])}")
        return 1
    print(f"all {wanted} matches identical (record, events, final state)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
