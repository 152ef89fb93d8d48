"""A Rollerball match ended by a resignation is replayed like any finished match (docs/rules/
rollerball.md, ruling D1): its record writes the resignation as a line where it happened and
the [Result] the resignation gave, so it verifies and replays to the end, and a resignation
written where none happened, or a result it did not give, is refused."""

from __future__ import annotations

import random

import pytest

from rules.records import RecordError
from rules.replay import REFUSED, verified
from rules.rollerball import ENGINE, Resign
from rules.rollerball.table import Table

SALT = "0123456789abcdef0123456789abcdef"


def played(players: int, moves: int, seed: int = 3, humans: tuple[int, ...] | None = None):
    state, _ = ENGINE.new_state(
        seed, {"players": players, "human_seats": humans or tuple(range(players))}
    )
    rng = random.Random(seed)
    for _ in range(moves):
        seat = min(ENGINE.actors(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat, "sensible", rng))
    return state


def resigned(state: Table, seat: int) -> Table:
    state, _ = ENGINE.apply(state, seat, Resign())
    return state


def test_a_two_player_match_ended_by_a_resignation_replays_to_the_resignation():
    state = resigned(played(2, 8), 0)
    assert ENGINE.is_over(state)
    text = ENGINE.record(state, salt=SALT, reveal=True, names=["Ann", "Ben"])
    assert '[Result "Player 2"]' in text and "\nP1 resign\n" in text
    assert ENGINE.verify(text) == []
    replay = verified(text)
    last = replay.positions[-1]
    assert last.seat == 0 and last.move == "resign"
    assert last.texts == ["Player 1 resigns.", "The game ends: Player 2 wins."]
    assert replay.result == "Player 2"


def test_a_resigned_seat_played_on_by_the_computer_replays_in_order():
    """With three people, the resigned seat's moves are the computer's, each a line after the
    resignation; the game then ends on the board (or by a later resignation)."""
    state = resigned(played(3, 12), 2)
    assert not ENGINE.is_over(state)
    rng = random.Random(9)
    for _ in range(40):
        seat = min(ENGINE.actors(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat, "sensible", rng))
    state = resigned(state, 0)  # one seat is left in the game: it ends
    assert ENGINE.is_over(state)
    text = ENGINE.record(state, salt=SALT, reveal=True)
    assert ENGINE.verify(text) == []
    replay = verified(text)
    moves = [(p.seat, p.move) for p in replay.positions[1:]]
    assert moves.count((2, "resign")) == 1 and moves[-1] == (0, "resign")
    assert moves.index((2, "resign")) < len(moves) - 20  # where it happened, not at the end
    assert replay.result == "Player 2"


def test_the_last_person_resigning_ends_the_game_among_the_computers():
    state = resigned(played(3, 8, humans=(0,)), 0)
    assert ENGINE.is_over(state) and state.final_winners == (1, 2)
    text = ENGINE.record(state, salt=SALT, reveal=True)
    replay = verified(text)
    assert replay.result == "Player 2, Player 3"
    assert replay.positions[-1].texts[-1] == "The game ends: Player 2 and Player 3 share the win."


def test_a_resignation_or_result_written_where_none_was_is_refused():
    state = resigned(played(2, 8), 0)
    text = ENGINE.record(state, salt=SALT, reveal=True)
    with pytest.raises(RecordError) as refused:
        verified(text.replace("P1 resign", "P2 resign"))
    assert str(refused.value).startswith(REFUSED) and "[Result]" in str(refused.value)
    with pytest.raises(RecordError, match="resign"):
        verified(text.replace("P1 resign\n", "P1 resign\nP2 resign\n"))
