"""Volleyball's dice, committed round by round, and its matches' records and replays
(docs/rules/volleyball.md ruling 57; rules/volleyball/fair.py, rules/volleyball/record.py,
render/volleyball/replay.py): a seeded league's round played, each match's record verified
against the commitment published before the round, replayed set by set and drawn; an altered
record refused with the reason, a round not played yet refused as still secret, and golden
hashes of the frames (look at `python -m render replay FILE DIR` before updating them)."""

from __future__ import annotations

import hashlib
import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image

from render.__main__ import main as render_main
from render.replay import frame, frame_name, write_frames
from render.textsize import recorded_text_sizes, smallest_font
from rules import records
from rules.__main__ import main as rules_main
from rules.records import RecordError
from rules.replay import IN_PLAY, REFUSED, verified
from rules.volleyball import new_league
from rules.volleyball.fair import match_rng, round_commitment, round_seed
from rules.volleyball.match import HOME, SETS_TO_WIN, set_is_over
from rules.volleyball.models import League
from rules.volleyball.record import match_record, round_records, verify
from rules.volleyball.rounds import play_round
from rules.volleyball.season import LeagueState

SECRET = "0123456789abcdef0123456789abcdef"
# (steps, the frames' hash) of the first record of the seeded round below
GOLDEN = (5, "6d5c0614d519a34f57976030d4e1cee515aa7ef27fa8ed2e181bd4cb6909bacc")


def played(seed: int = 11, secret: str | None = SECRET):
    state = new_league([], total_teams=4, seed=seed, secret=secret)
    after, report = play_round(state, {})
    return state, after, report


def first_record() -> str:
    _, after, report = played()
    return round_records(SECRET, report, after.league.results)[0][1]


def test_each_match_of_a_round_verifies_against_the_commitment_published_before_it():
    _, after, report = played()
    published = round_commitment(SECRET, 1, 1)
    found = round_records(SECRET, report, after.league.results)
    assert len(found) == len(report.matches) >= 2
    for fixture, text in found:
        assert fixture.round_number == 1
        record = records.read_record(text)
        assert record.commitment == published and record.seed == round_seed(SECRET, 1, 1)
        assert verify(text) == []
        replay = verified(text, "volleyball", published=published)
        sets = [step.after.sets[-1] for step in replay.positions[1:]]
        # rule 5: every set ends at 15 with two ahead (or is forfeited), the match at three
        assert all(s.forfeits or set_is_over(s.home_points, s.away_points) for s in sets)
        final = replay.positions[-1].after
        assert max(final.sets_won(HOME), final.sets_won("away")) == SETS_TO_WIN
        assert record.result == final.score_line
    # the public results are those of the records
    lines = {text.split("[Result ", 1)[1].split("]", 1)[0] for _, text in found}
    assert {f'"{m.score_line}"' for m in report.matches} == lines


def test_a_match_rolls_its_own_dice_from_the_rounds_seed():
    """Every rally's d100 is the match's generator's next roll: the record's rolls are the
    report's."""
    _, after, report = played()
    seed = round_seed(SECRET, 1, 1)
    for fixture, _ in round_records(SECRET, report, after.league.results):
        result = next(m for m in report.matches if (m.home, m.away) == (fixture.home, fixture.away))
        rng = match_rng(seed, fixture.match_number, fixture.home)
        rolls = [rally.roll for s in result.sets for rally in s.rallies]
        assert rolls == [rng.randint(1, 100) for _ in rolls]


def test_revealing_a_round_tells_nothing_of_the_next():
    """The next round's seed is not the revealed one's generator continued: it comes from the
    league's secret, which no record shows."""
    text = first_record()
    assert SECRET not in text
    revealed = round_seed(SECRET, 1, 1)
    continued = random.Random(revealed).getrandbits(256)
    assert round_seed(SECRET, 1, 2) not in (revealed, f"{continued:064x}")
    assert round_commitment(SECRET, 1, 2) != round_commitment(SECRET, 1, 1)


def test_an_altered_record_is_refused_with_the_reason():
    text = first_record()
    salt = records.read_record(text).salt
    with pytest.raises(RecordError) as refused:
        verified(text.replace(f'[Salt "{salt}"]', '[Salt "ffff"]'), "volleyball")
    assert str(refused.value).startswith(REFUSED) and "commitment" in str(refused.value)
    with pytest.raises(RecordError, match="not the one published"):
        verified(text, "volleyball", published=round_commitment(SECRET, 1, 2))
    # a rally's outcome flipped: the rolls no longer fit the score or any scoring chance
    flipped = re.sub(r"^(set 1 \S+ )([+-])", lambda m: m[1] + "-+"[m[2] == "-"], text, flags=re.M)
    problems = verify(flipped)
    assert problems and "Record line" in problems[0]
    with pytest.raises(RecordError):
        verified(flipped, "volleyball")
    # a set left out: the match no longer ends at three sets
    cut = "\n".join(line for line in text.splitlines() if not line.startswith("set 3 "))
    assert verify(cut)


def test_a_round_not_played_is_refused_as_still_secret():
    """Before the round its record has the commitment but no seed: there is nothing to replay."""
    _, after, report = played()
    result, fixture = report.matches[0], after.league.results[-len(report.matches)].fixture
    unplayed = match_record(result, fixture, season=1, secret=SECRET, reveal=False)
    assert "[Seed" not in unplayed and round_commitment(SECRET, 1, 1) in unplayed
    with pytest.raises(RecordError, match=re.escape(IN_PLAY[:40])):
        verified(unplayed.replace('[Result "', '[Result "*'), "volleyball")
    assert verify(unplayed) == [records.NOT_REVEALED]


def test_a_league_saved_before_keeps_its_generator_until_it_has_a_secret():
    """Ruling 57: a league saved without a secret plays its round on its one generator, and
    has no records for it; the seeded league's rounds are derived from its secret."""
    state = new_league([], total_teams=4, seed=11, secret=SECRET)
    data = state.to_dict()
    del data["league"]["secret"]
    old = LeagueState.from_dict(data)
    assert old.league.secret is None and "secret" not in old.to_dict()["league"]
    after, report = play_round(old, {})
    assert round_records(old.league.secret, report, after.league.results) == []
    # its rallies came from its stored generator: the same round played again is the same
    again = play_round(LeagueState.from_dict(data), {})[1]
    assert [m.score_line for m in again.matches] == [m.score_line for m in report.matches]
    assert League.from_dict({"secret": SECRET}).secret == SECRET


def test_the_frames_are_the_same_bytes_on_the_command_line(tmp_path: Path, capsys):
    text = first_record()
    file = tmp_path / "match.txt"
    file.write_text(text)
    assert rules_main(["verify", str(file)]) == 0
    assert "OK: Volleyball" in capsys.readouterr().out
    assert render_main(["replay", str(file), str(tmp_path / "frames")]) == 0
    replay = verified(text, "volleyball")
    expected = tmp_path / "expected"
    written = write_frames(replay, expected)
    drawn = sorted((tmp_path / "frames").iterdir())
    assert [p.name for p in drawn] == [p.name for p in written]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(drawn, written, strict=True))


def test_golden_frames():
    replay = verified(first_record(), "volleyball")
    digest = hashlib.sha256()
    for index in range(len(replay)):
        filename, image = frame(replay, index)
        digest.update(frame_name(index, filename).encode() + b"\0" + image)
    assert (len(replay), digest.hexdigest()) == GOLDEN


def test_a_frame_reads_on_a_phone():
    """The smallest text of every frame is at least 11 px as a 390-px phone shows the image
    (render/textsize.py)."""
    replay = verified(first_record(), "volleyball")
    with recorded_text_sizes() as sizes:
        images = [frame(replay, index)[1] for index in range(len(replay))]
    width = Image.open(io.BytesIO(images[0])).width
    assert sizes and min(sizes) >= smallest_font(width)
