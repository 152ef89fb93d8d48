"""The one records module (rules/records.py) and the one command line (`python -m rules verify
FILE`, `python -m rules replay FILE`): every game's record read the same way, its game told
from its header, its seed checked against its commitment, and anything else answered with a
sentence, never a traceback."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import records
from rules.__main__ import main, verify
from rules.errors import PlayerError
from rules.face import GAMES, engines
from rules.rocketball import ENGINE as ROCKETBALL
from rules.rollerball import ENGINE as ROLLERBALL
from rules.rollerball2 import ENGINE as ROLLERBALL2
from rules.rollerball2 import default_lineup, generate_roster, roster_to_json

ROOT = Path(__file__).resolve().parents[2]
SALT = "0123456789abcdef0123456789abcdef"


def finished(engine, options: dict, seed: int = 77):
    """A match of `engine` played by its computer to the end."""
    import random

    state, _ = engine.new_state(seed, options)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = min(engine.actors(state))
        level = engine.levels[0]
        state, _ = engine.apply(state, seat, engine.computer_action(state, seat, level, rng))
    return state


def rollerball2_options() -> dict:
    home, away = generate_roster(5, "Houston"), generate_roster(6, "Tokyo")
    return {
        "mode": "simulate",
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": default_lineup(home),
        "away_lineup": default_lineup(away),
        "home_team_id": 1,
        "away_team_id": 2,
    }


@functools.cache
def revealed_records() -> dict[str, str]:
    """A finished, revealed record of each game."""
    options = {
        "rocketball": {},
        "rollerball": {"players": 2, "target": 2},
        "rollerball2": rollerball2_options(),
    }
    return {
        engine.name: engine.record(finished(engine, options[engine.name]), salt=SALT, reveal=True)
        for engine in engines()
    }


def test_every_record_has_the_same_header_and_its_game_is_read_from_it(revealed):
    for game, text in revealed.items():
        record = records.read_record(text)
        assert record.game == game
        assert record.seed == 77 and record.salt == SALT
        assert record.commitment == records.commitment(game, 77, SALT)
        assert record.result not in (None, records.LIVE_RESULT)
        assert record.actions and all(not line.startswith("[") for _, line in record.actions)
    # Rocketball has always written its name capitalised; it is the same game.
    assert '[Game "Rocketball"]' in revealed["rocketball"]


def test_the_commitment_is_a_hash_of_game_seed_and_salt():
    published = records.commitment("rollerball", 21, "aa")
    assert len(published) == 64 and published == records.commitment("rollerball", "21", "aa")
    assert records.verify_commitment("rollerball", 21, "aa", published.upper() + "\n")
    for other in (("rocketball", 21, "aa"), ("rollerball", 22, "aa"), ("rollerball", 21, "ab")):
        assert not records.verify_commitment(*other, published)


def test_one_command_line_verifies_every_game(revealed, tmp_path, capsys):
    for game, text in revealed.items():
        path = tmp_path / f"{game}.txt"
        path.write_text(text, encoding="utf-8")
        assert main(["verify", str(path)]) == 0
        said = capsys.readouterr().out
        assert said.startswith("OK: ") and "seed 77 matches the commitment" in said
        assert main(["replay", str(path)]) == 0
        assert isinstance(json.loads(capsys.readouterr().out), dict)


def test_verify_names_what_does_not_match(revealed):
    text = revealed["rollerball"]
    fair, lines = verify(text.replace(f'[Salt "{SALT}"]', '[Salt "ff"]'))
    assert not fair and lines[0].startswith("MISMATCH: The commitment does not match: seed 77")
    record = records.read_record(text)
    forged = text.replace(f'[Result "{record.result}"]', '[Result "Player 9"]')
    assert verify(forged) == (
        False,
        [f"MISMATCH: The [Result] says 'Player 9' but the actions replay to '{record.result}'."],
    )
    live = ROLLERBALL2.record(
        ROLLERBALL2.new_state(3, rollerball2_options())[0], salt=SALT, reveal=False
    )
    assert verify(live) == (False, [f"MISMATCH: {records.NOT_REVEALED}"])


def test_a_record_of_no_known_game_is_named_as_such(tmp_path, capsys):
    assert verify('[Game "basketball"]\n') == (
        False,
        [
            "MISMATCH: The record's [Game] header names no game I know (“basketball”); the "
            "games with records are rocketball, rollerball, rollerball2, volleyball."
        ],
    )
    assert verify("hello")[1][0].endswith(
        "names no game I know (none); the games with "
        "records are rocketball, rollerball, rollerball2, volleyball."
    )
    # Volleyball's matches have records (docs/rules/volleyball.md ruling 57), a bare one no seed
    assert verify('[Game "volleyball"]\n') == (False, [f"MISMATCH: {records.NOT_REVEALED}"])
    path = tmp_path / "missing.txt"
    assert main(["verify", str(path)]) == 1
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main(["replay", str(binary)]) == 1
    assert "not UTF-8" in capsys.readouterr().err


def test_a_game_s_own_command_line_refuses_another_game_s_record(revealed, tmp_path, capsys):
    path = tmp_path / "rocketball.txt"
    path.write_text(revealed["rocketball"], encoding="utf-8")
    assert main(["verify", str(path)], game="rollerball") == 1
    assert "a record of rocketball, not rollerball" in capsys.readouterr().out
    assert main(["verify", str(path)], game="rocketball") == 0


def test_the_per_game_command_lines_are_aliases(revealed, tmp_path):
    path = tmp_path / "rollerball2.txt"
    path.write_text(revealed["rollerball2"], encoding="utf-8")
    for command in (["rules"], ["rules.rollerball2"]):
        done = subprocess.run(
            [sys.executable, "-m", *command, "verify", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0 and done.stdout.startswith("OK: Rollerball II"), done.stderr


HEADER_LINES = st.sampled_from(
    [
        '[Game "rocketball"]',
        '[Game "rollerball"]',
        '[Game "rollerball2"]',
        '[Seed "7"]',
        '[Seed "x"]',
        "[Seed 7.5]",
        '[Salt "aa"]',
        '[Commitment "00"]',
        '[Settings "{}"]',
        "[Settings {}]",
        '[Players "x"]',
        "[Home {}]",
        "[HomeLineup []]",
        '[Result "*"]',
        "[Broken",
        "[Key not json]",
        "N roll",
        "P1 bid 0",
        "next",
        "P9 move a1 a2",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(HEADER_LINES | st.text(max_size=30), max_size=12))
def test_any_text_gets_an_answer_never_a_traceback(lines):
    """Bad input never breaks anything: whatever a file holds, verify answers in sentences."""
    _, said = verify("\n".join(lines))
    assert said and all(isinstance(line, str) and line for line in said)
    for engine in (ROCKETBALL, ROLLERBALL, ROLLERBALL2):
        assert all(isinstance(problem, str) for problem in engine.verify("\n".join(lines)))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_damaged_record_gets_an_answer_never_a_traceback(game, data):
    """Any header of a real record given any JSON value, or any line replaced by any text:
    verify and replay answer with sentences (a PlayerError), never anything else."""
    lines = revealed_records()[game].splitlines()
    headers = [number for number, line in enumerate(lines) if line.startswith("[")]
    if data.draw(st.booleans()):
        index = data.draw(st.sampled_from(headers))
    else:
        index = data.draw(st.integers(0, len(lines) - 1))
    if lines[index].startswith("["):
        key = lines[index][1:].split(" ", 1)[0]
        lines[index] = f"[{key} {json.dumps(data.draw(JSON_VALUES))}]"
    else:
        lines[index] = data.draw(st.text(max_size=20).filter(lambda text: "\n" not in text))
    text = "\n".join(lines) + "\n"
    _, said = verify(text)
    assert said and all(isinstance(line, str) for line in said)
    engine = {engine.name: engine for engine in engines()}[game]
    try:
        engine.replay(text)
    except PlayerError as error:
        assert str(error)


@pytest.fixture(scope="module")
def revealed() -> dict[str, str]:
    return revealed_records()
