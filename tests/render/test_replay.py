"""A finished match replayed from its verified record (rules/replay.py), drawn frame by frame by
the game's own renderer (render/replay.py), and the command line that writes the frames
(`python -m render replay FILE DIR`): a record that does not check out is refused with
the reason, a live one as still being played, and the frames are the same bytes every time.

The golden hashes below are of a seeded record: a renderer change that alters a replay changes
them (look at the frames `python -m render replay FILE DIR` writes, then update them)."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from pathlib import Path

import pytest

from render.replay import frame, frame_name, replayable
from rules import records
from rules.records import RecordError
from rules.replay import IN_PLAY, REFUSED, opened, verified
from rules.rocketball import ENGINE as ROCKETBALL
from rules.rocketball import Settings

ROOT = Path(__file__).resolve().parents[2]
SALT = "0123456789abcdef0123456789abcdef"
NAMES = ["Alice", "Bob"]

# The seeded Rocketball match: seed 7, first to 1, the computer's first level on both sides.
ROCKETBALL_SEED = 7
ROCKETBALL_STEPS = 30  # the set-up and 29 lines
ROCKETBALL_FRAMES = "2c9d66049e2c29c1df49555785c4cbbae8d3c6e47d709fc74e49f65c57884fda"


def rocketball_match(seed: int = ROCKETBALL_SEED):
    state, _ = ROCKETBALL.new_state(seed, {"settings": Settings(target_score=1)})
    rng = random.Random(seed)
    while not ROCKETBALL.is_over(state):
        seat = min(ROCKETBALL.actors(state))
        action = ROCKETBALL.computer_action(state, seat, ROCKETBALL.levels[0], rng)
        state, _ = ROCKETBALL.apply(state, seat, action)
    return state


def rocketball_record(*, reveal: bool = True) -> str:
    return ROCKETBALL.record(rocketball_match(), salt=SALT, reveal=reveal, names=NAMES)


def frames_hash(text: str) -> str:
    replay = verified(text)
    digest = hashlib.sha256()
    for index in range(len(replay)):
        filename, image = frame(replay, index)
        digest.update(frame_name(index, filename).encode() + b"\0" + image)
    return digest.hexdigest()


def test_a_finished_record_replays_from_the_set_up_to_the_final_position():
    text = rocketball_record()
    replay = verified(text)
    assert replay.game == "rocketball" and replay.names == tuple(NAMES)
    assert len(replay) == ROCKETBALL_STEPS == len(records.read_record(text).actions) + 1
    first, last = replay.positions[0], replay.positions[-1]
    assert first.number == 0 and first.seat is None and first.move == ""
    assert ROCKETBALL.dump(last.after) == ROCKETBALL.replay(text)
    assert ROCKETBALL.is_over(last.after) and not ROCKETBALL.is_over(replay.positions[-2].after)
    # each step starts where the one before ended, and says in words what happened
    for before, after in zip(replay.positions, replay.positions[1:], strict=False):
        assert after.before is before.after
        assert after.move and after.texts
    assert "GOAL" in " ".join(last.texts)


def test_the_seat_of_each_step_is_the_one_its_line_names():
    replay = verified(rocketball_record())
    lines = [line for _, line in records.read_record(rocketball_record()).actions]
    for position, line in zip(replay.positions[1:], lines, strict=True):
        assert ("N", "S")[position.seat or 0] == line.split()[0]
        assert line.endswith(position.move)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda text: text.replace(f'[Salt "{SALT}"]', '[Salt "ffff"]'), "commitment"),
        (lambda text: text.replace('[Seed "7"]', '[Seed "8"]'), "commitment"),
        (lambda text: text.rstrip("\n").rsplit("\n", 1)[0] + "\n", "[Result]"),
        (lambda text: text.replace("S wins", "N wins"), "[Result]"),
    ],
    ids=["salt", "seed", "last-line-dropped", "result"],
)
def test_an_altered_record_is_refused_with_the_reason(change, reason):
    altered = change(rocketball_record())
    assert altered != rocketball_record()
    with pytest.raises(RecordError) as refused:
        verified(altered)
    assert str(refused.value).startswith(REFUSED) and reason in str(refused.value)


def test_a_record_rewritten_with_another_salt_is_refused_against_the_published_commitment():
    """A record written again from a changed salt carries a [Commitment] of its own that
    matches it: only the commitment published when the match began tells."""
    published = records.commitment("rocketball", ROCKETBALL_SEED, SALT)
    rewritten = ROCKETBALL.record(rocketball_match(), salt="f" * 32, reveal=True, names=NAMES)
    assert verified(rewritten).result  # consistent in itself
    with pytest.raises(RecordError, match="not the one published") as refused:
        verified(rewritten, published=published)
    assert published in str(refused.value)
    assert verified(rocketball_record(), published=published.upper()).result


def test_a_record_whose_lines_do_not_replay_is_refused_naming_the_line():
    text = rocketball_record()
    lines = text.split("\n")
    first_move = next(i for i, line in enumerate(lines) if line.startswith(("N ", "S ")))
    lines[first_move] = lines[first_move].split()[0] + " rotate a1 cw"
    with pytest.raises(RecordError, match="do not replay") as refused:
        verified("\n".join(lines))
    assert "Move 1" in str(refused.value)


def test_a_live_record_is_refused_as_still_being_played():
    state, _ = ROCKETBALL.new_state(3, {})
    live = ROCKETBALL.record(state, salt=SALT, reveal=False, names=NAMES)
    with pytest.raises(RecordError, match="still being played") as refused:
        verified(live)
    assert str(refused.value) == IN_PLAY
    # nor does a finished match's record written without its seed open a replay
    with pytest.raises(RecordError, match="still being played"):
        verified(rocketball_record(reveal=False))


def test_the_last_frame_is_the_image_the_final_card_drew():
    """The live card draws a round with render_round(before, events, after, names)
    (cogs/rocketball/presenter.py): the replay's last step is that round."""
    from render.rocketball import render_round

    replay = verified(rocketball_record())
    last = replay.positions[-1]
    image, filename = render_round(
        last.before, last.events, last.after, dict(zip("NS", NAMES, strict=True))
    )
    assert frame(replay, len(replay) - 1) == (filename, image)


def test_rocketball_frames_are_the_golden_ones():
    assert replayable("rocketball")
    assert frames_hash(rocketball_record()) == ROCKETBALL_FRAMES


def test_the_command_line_writes_the_same_frames_and_refuses_an_altered_record(tmp_path):
    text = rocketball_record()
    record = tmp_path / "match.txt"
    record.write_text(text, encoding="utf-8")
    frames = tmp_path / "frames"
    ran = subprocess.run(
        [sys.executable, "-m", "render", "replay", str(record), str(frames)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    written = sorted(frames.iterdir())
    assert len(written) == ROCKETBALL_STEPS == len(ran.stdout.splitlines())
    replay = verified(text)
    for index, path in enumerate(written):
        filename, image = frame(replay, index)
        assert path.name == frame_name(index, filename) and path.read_bytes() == image
    assert "GOAL" in ran.stdout.splitlines()[-1]

    record.write_text(text.replace('[Seed "7"]', '[Seed "8"]'), encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "render", "replay", str(record), str(tmp_path / "no")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 1 and "commitment does not match" in refused.stderr
    assert not (tmp_path / "no").exists()


def test_the_set_up_opens_on_the_commitment_alone_and_a_later_step_after_the_whole_check():
    """The set-up is what the seed deals, so the seed's hash against the commitment is all its
    card needs (the first frame costs a turn, not a replay of the record: bench/replay.py);
    a line that does not replay is refused, naming it, before any later step is shown."""
    text = rocketball_record()
    lines = text.split("\n")
    last_move = max(i for i, line in enumerate(lines) if line.startswith(("N ", "S ")))
    lines[last_move] = lines[last_move].split()[0] + " rotate a1 cw"
    altered = "\n".join(lines)
    replay = opened(altered, "rocketball")
    assert not replay.checked
    assert frame(replay, 0) == frame(verified(text), 0)
    with pytest.raises(RecordError, match="do not replay") as refused:
        replay.check()
    assert str(refused.value).startswith(REFUSED) and "Move 29" in str(refused.value)
    with pytest.raises(RecordError, match="do not replay"):
        replay.check()  # asked again: the same answer, from the first check
    # a changed salt is refused before anything is drawn
    with pytest.raises(RecordError, match="commitment"):
        opened(text.replace(f'[Salt "{SALT}"]', '[Salt "ffff"]'))


def test_an_unreadable_line_is_refused_as_a_record_that_does_not_replay_even_at_the_set_up():
    """Rocketball reads every line before dealing the set-up: a line that is no move is the
    refusal with its reason, not the engine's own error."""
    text = rocketball_record().rstrip("\n") + "x\n"
    with pytest.raises(RecordError, match="do not replay") as refused:
        frame(opened(text), 0)
    assert str(refused.value).startswith(REFUSED) and "Line" in str(refused.value)
