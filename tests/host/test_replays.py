"""Replays and highlights of every game with a replay, from seeded finished records
(render/catalogue.py `finished_record`): each step drawn as the game's live card drew it, the
last frame the final card's image, an altered record refused with the reason, and golden
hashes of the frames and of the highlight, so a renderer change that alters a replay is seen
(look at the frames `python -m render replay FILE DIR` writes, then update the hashes)."""

from __future__ import annotations

import hashlib
import io
import json

import discord
import pytest
from PIL import Image

from cogs.rocketball.presenter import RocketballAdapter
from cogs.rollerball.presenter import RollerballAdapter
from cogs.rollerball2.presenter import Rollerball2Adapter
from host import Match, Step
from host.replays import Prepared, draw, moments, of_match, plain, prepare
from render.catalogue import REPLAY_NAMES, REPLAY_SALT, finished_record
from render.replay import HIGHLIGHT_MOMENTS, HIGHLIGHT_MS, frame, frame_name, highlight
from rules import records
from rules.records import RecordError
from rules.replay import REFUSED, Replay, verified

ADAPTERS = {
    "rocketball": RocketballAdapter(),
    "rollerball": RollerballAdapter(),
    "rollerball2": Rollerball2Adapter(),
}
# Every FRAME_EVERY-th frame and the last are hashed (a Rollerball II match has hundreds).
FRAME_EVERY = 10
GOLDEN = {
    # game: (steps, the frames' hash, the highlight's hash)
    "rocketball": (
        30,
        "d684c0e57a5233ac236d15808c269206aa0d8e535fbb7677268a9bfc3d53609b",
        "77dad2cd1a6f65f06c77d2b30a88aaae1a331accbdf058a5c376c73fb0d63c17",
    ),
    "rollerball": (
        18,
        "d8a5b0bbfd85ac5f8d11944b76af205d4afd8c9e6590e011894f4cb9cff1ee83",
        "018d53646cd3cbe8c2fee166ff09ff72dfa1e0ec118479f3c009295117055e94",
    ),
    "rollerball2": (
        336,
        "5185ed78671b4f9b8451fd7af405aaca13f382b1f4b0dcf8c08b857a5cd22d82",
        "18ea474d76fdb0710346513756ee3119fef80ad32702a354d81a0cdd306fb3e8",
    ),
}


def match_of(game: str) -> tuple[Match, Replay]:
    text, published, state = finished_record(game)
    players = len(ADAPTERS[game].engine.outcome(state))
    match = Match(state, list(REPLAY_NAMES[:players]), REPLAY_SALT, published)
    return match, verified(text, game, published=published)


def prepared(game: str) -> Prepared:
    match, _ = match_of(game)
    return prepare(of_match(ADAPTERS[game], match, 1, finished_record(game)[0], []))


def highlight_of(game: str) -> bytes:
    ready = prepared(game)
    chosen = [(i, plain(text)) for i, text in moments(ready)]
    return highlight(ready.replay, chosen)


def frames_hash(replay: Replay) -> str:
    digest = hashlib.sha256()
    last = len(replay) - 1
    for index in [*range(0, last, FRAME_EVERY), last]:
        filename, image = frame(replay, index)
        digest.update(frame_name(index, filename).encode() + b"\0" + image)
    return digest.hexdigest()


@pytest.mark.parametrize("game", ["rollerball", "rollerball2"])
def test_the_last_frame_is_the_final_cards_image(game):
    adapter, (match, replay) = ADAPTERS[game], match_of(game)
    last = replay.positions[-1]
    final = finished_record(game)[2]
    post = adapter.draw_turn(match, Step(last.before, last.events, final), game_id=1, final=True)
    assert frame(replay, len(replay) - 1) == post.images[0]
    assert adapter.engine.is_over(final) and replay.result != "*"


@pytest.mark.parametrize("game", ["rollerball", "rollerball2"])
def test_an_altered_record_is_refused_with_the_reason(game):
    text = finished_record(game)[0]
    with pytest.raises(RecordError) as refused:
        verified(text.replace(f'[Salt "{REPLAY_SALT}"]', '[Salt "ffff"]'), game)
    assert str(refused.value).startswith(REFUSED) and "commitment" in str(refused.value)
    with pytest.raises(RecordError, match="not the one published"):
        verified(text, game, published="0" * 64)


def test_rollerball2_is_told_period_by_period():
    """Next milestone leads from a period's end to the next: the box score's periods."""
    ready = prepared("rollerball2")
    told = [" ".join(lines) for _, lines in ready.milestones]
    assert sum("period" in line.lower() for line in told) >= 2, told


@pytest.mark.parametrize("game", list(GOLDEN))
def test_the_highlight_shows_each_moment_a_few_seconds_under_its_caption(game):
    image = highlight_of(game)
    ready = prepared(game)
    with Image.open(io.BytesIO(image)) as shown:
        durations = []
        for index in range(getattr(shown, "n_frames", 1)):
            shown.seek(index)
            durations.append(shown.info["duration"])
    assert 2 <= len(durations) <= HIGHLIGHT_MOMENTS
    assert len(durations) == min(
        HIGHLIGHT_MOMENTS,
        2
        + len(ready.milestones)
        - (ready.milestones[-1][0] == len(ready.replay) - 1 if ready.milestones else 0),
    )
    assert all(ms == HIGHLIGHT_MS for ms in durations)


@pytest.mark.parametrize("game", list(GOLDEN))
def test_replay_frames_and_highlight_are_the_golden_ones(game):
    steps, frames, highlighted = GOLDEN[game]
    _, replay = match_of(game)
    assert len(replay) == steps
    assert frames_hash(replay) == frames
    assert hashlib.sha256(highlight_of(game)).hexdigest() == highlighted


def said(view: discord.ui.LayoutView) -> str:
    """The words of a card, as a player reads them."""
    texts = view.walk_children()
    return " ".join(item.content for item in texts if isinstance(item, discord.ui.TextDisplay))


@pytest.mark.parametrize("game", list(GOLDEN))
def test_the_first_card_needs_no_line_replayed_and_the_next_waits_for_the_whole_check(game):
    """The replay card of the set-up is sent after the seed is checked against the
    commitment alone; any later step (a click, Next milestone) only once every line replayed:
    an altered line is refused with the reason on the first click past the set-up."""
    adapter, (match, _) = ADAPTERS[game], match_of(game)
    text = finished_record(game)[0]
    result = records.read_record(text).result
    altered = text.replace(f"[Result {json.dumps(result)}]", '[Result "Nobody wins"]')
    assert altered != text  # the lines no longer lead where the record says they do
    game_id = 700 + list(GOLDEN).index(game)
    ready, view, (filename, _) = draw(of_match(adapter, match, game_id, altered, []), 0)
    assert not ready.replay.checked and filename
    shown = said(view)
    assert "step 0 of" in shown and "checked to replay" in shown
    for step, mark in ((1, False), (0, True)):
        with pytest.raises(RecordError) as refused:
            draw(of_match(adapter, match, game_id, altered, []), step, mark)
        assert str(refused.value).startswith(REFUSED) and "[Result]" in str(refused.value)
    # the honest record: every step after the check, and the card says it was checked
    ready, view, _ = draw(of_match(adapter, match, game_id, text, []), 0, True)
    assert ready.replay.checked
    shown = said(view)
    assert "every step replays from it" in shown
