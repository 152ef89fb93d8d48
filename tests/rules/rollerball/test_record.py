"""JSON round trip, records, replay and verify (rules/records.py: commitment, seed, salt)."""

from __future__ import annotations

import random

import pytest

from rules.records import commitment
from rules.rollerball import (
    GameState,
    RollerballBoardError,
    Settings,
    actors,
    apply,
    choose_action,
    format_action,
    from_json,
    new_game,
    parse_command,
    replay,
    to_json,
    to_record,
    verify_record,
    view_for,
)
from rules.rollerball.__main__ import main
from rules.rollerball.actions import Build, Move


def played(seed: int, edition: str = "later", players: int = 3, limit: int = 100000) -> GameState:
    state, _ = new_game(seed, Settings(edition=edition, players=players))
    rng = random.Random(seed)
    for _ in range(limit):
        if state.over:
            break
        seat = min(actors(state))
        state, _ = apply(state, choose_action(view_for(state, seat), rng, "random"), seat)
    return state


def test_state_round_trips_through_json_mid_game_and_at_the_end():
    for limit in (7, 60, 100000):
        state = played(4, limit=limit)
        assert from_json(to_json(state)) == state


def test_every_command_reads_back_as_the_action_it_was_written_from():
    state = played(8, edition="earlier", limit=400)
    for _seat, command in state.log:
        action = parse_command(command, 9)
        assert format_action(action, 9) == command


def test_a_revealed_record_replays_to_the_same_game_and_verifies(tmp_path, capsys):
    state = played(21)
    salt = "5a17"
    record = to_record(state, salt=salt, reveal=True)
    assert f'[Commitment "{commitment("rollerball", 21, salt)}"]' in record
    assert replay(record) == state
    assert verify_record(record) == []
    path = tmp_path / "game.txt"
    path.write_text(record)
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK: Rollerball, seed 21 matches the commitment")


def test_verify_says_what_does_not_match(tmp_path, capsys):
    state = played(21)
    record = to_record(state, salt="aa", reveal=True)
    forged = record.replace('[Salt "aa"]', '[Salt "ab"]')
    assert verify_record(forged) == [
        f"The commitment does not match: seed 21 with the revealed salt hashes to "
        f"{commitment('rollerball', 21, 'ab')}, the record published "
        f"{commitment('rollerball', 21, 'aa')}."
    ]
    wrong_result = record.replace('[Result "', '[Result "Player 9, ')
    assert verify_record(wrong_result)[0].startswith("The [Result] says 'Player 9, ")
    path = tmp_path / "forged.txt"
    path.write_text(forged)
    assert main(["verify", str(path)]) == 1 and "MISMATCH" in capsys.readouterr().out


def test_a_live_record_has_the_commitment_but_no_seed_and_cannot_be_replayed():
    state = played(30, limit=40)
    record = to_record(state, salt="ff", reveal=False)
    assert "[Commitment" in record and "[Seed" not in record and "[Salt" not in record
    assert '[Result "*"]' in record
    with pytest.raises(RollerballBoardError, match="no seed: the match is still being played"):
        replay(record)


def test_parse_command_short_forms_and_bad_input():
    assert parse_command("move d3", 9, workman=20) == Move(start=20, end=21)
    assert parse_command("stay", 9, workman=20) == Move(start=20, end=20)
    # the Y square stays first; others: ascending
    assert parse_command("build split-up e3-e2") == Build("split-up", first=22, second=13)
    assert parse_command("build up-move e3-e2") == Build("up-move", first=13, second=22)
    with pytest.raises(RollerballBoardError, match="not a square"):
        parse_command("move z9 a1")
    with pytest.raises(RollerballBoardError, match="name each card"):
        parse_command("bid 3")
    with pytest.raises(RollerballBoardError, match="not a card"):
        parse_command("build teleporter e2-e3")


def test_the_engine_error_is_a_player_error_the_host_shows():
    from rules.errors import PlayerError

    assert issubclass(RollerballBoardError, PlayerError)
