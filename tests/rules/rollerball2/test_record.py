"""Provably fair records (rules/records.py): the commitment always, the seed and salt only once
revealed, and `python -m rules.rollerball2 verify FILE`."""

from __future__ import annotations

import pytest

from rules.records import commitment
from rules.rollerball2.__main__ import main
from rules.rollerball2.coach import auto_play, choose_action
from rules.rollerball2.engine import apply, new_match
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.record import NO_SEED, replay, result_text, to_record, verify_record
from rules.rollerball2.roster import default_lineup, generate_roster
from rules.rollerball2.state import AWAY, Settings, SubmitLineup

SALT = "5be1c0ffee0ddba11ad5eed5a1700001"


@pytest.fixture(scope="module")
def finished():
    home, away = generate_roster(41, "Houston"), generate_roster(42, "Tokyo")
    state, _ = auto_play(new_match(987654321, home, away))
    return state


def test_a_live_record_commits_to_the_seed_but_does_not_reveal_it():
    home, away = generate_roster(41, "Houston"), generate_roster(42, "Tokyo")
    state = new_match(987654321, home, away)
    for _ in range(20):
        state, _ = apply(state, choose_action(state))
    text = to_record(state, reveal=False, salt=SALT)
    assert f'[Commitment "{commitment("rollerball2", 987654321, SALT)}"]' in text
    assert "987654321" not in text and SALT not in text
    assert "[Seed" not in text and "[Salt" not in text
    assert '[Result "*"]' in text
    with pytest.raises(RollerballError, match="no seed"):
        replay(text)
    assert verify_record(text) == [
        "The record has no [Seed] or [Salt]: they are revealed when the match ends."
    ]
    assert NO_SEED.startswith("This record has no seed")


def test_a_revealed_record_verifies_and_replays_card_for_card(finished):
    text = to_record(finished, reveal=True, salt=SALT)
    assert '[Seed "987654321"]' in text and f'[Salt "{SALT}"]' in text
    assert verify_record(text) == []
    again = replay(text)
    assert result_text(again) == result_text(finished) != "*"
    assert again.record == finished.record


def test_verify_names_a_wrong_seed_a_wrong_result_and_an_action_that_does_not_replay(finished):
    text = to_record(finished, reveal=True, salt=SALT)
    wrong_seed = text.replace('[Seed "987654321"]', '[Seed "987654322"]')
    problems = verify_record(wrong_seed)
    assert problems[0].startswith("The commitment does not match: seed 987654322")
    wrong_result = text.replace(
        f'[Result "{result_text(finished)}"]', '[Result "Houston 99, Tokyo 0"]'
    )
    [problem] = verify_record(wrong_result)
    assert "Houston 99, Tokyo 0" in problem and result_text(finished) in problem
    lines = text.splitlines()
    first_catch = next(i for i, line in enumerate(lines) if line.startswith("catcher "))
    lines.insert(first_catch, "biker home Biker1")
    [problem] = verify_record("\n".join(lines) + "\n")
    assert problem.startswith("The actions do not replay: Action")
    assert verify_record(text.replace(f'[Salt "{SALT}"]\n', "")) != []


def test_private_line_ups_stay_out_of_a_live_record_until_both_are_in():
    home, away = generate_roster(41, "Houston"), generate_roster(42, "Tokyo")
    state = new_match(5, home, away, Settings(private_lineups=True))
    state, _ = apply(state, SubmitLineup.of(AWAY, default_lineup(away)))
    text = to_record(state, reveal=False, salt=SALT)
    assert "\nlineup " not in text


def test_cli_verify_prints_ok_or_the_problem(finished, tmp_path, capsys):
    good = tmp_path / "good.rb2"
    good.write_text(to_record(finished, reveal=True, salt=SALT), encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.startswith("OK")
    bad = tmp_path / "bad.rb2"
    bad.write_text(
        to_record(finished, reveal=True, salt=SALT).replace(SALT, "00" * 16), encoding="utf-8"
    )
    assert main(["verify", str(bad)]) == 1
    assert "commitment does not match" in capsys.readouterr().out
