"""The round GIF decodes to the same frames (pixels and durations) for every round of seeded
games as it did before the writer and the frame drawing were made faster (round.py, gif.py,
animation.py): a fingerprint of each game's decoded frames, computed from the earlier code, is
held here. A change that moves one pixel or one duration of one frame changes it.

Since then every round GIF opens with two frames more (the board as it stood, then the panel
with the roll: round.py): the fingerprint is of the frames after them, and the two are checked
on their own (test_render_round.py)."""

from __future__ import annotations

import hashlib
import io
from itertools import islice
from typing import Any

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from render.catalogue import ROCKETBALL_NAMES, rocketball_rounds
from render.rocketball import render_round
from rules.rocketball.state import Settings
from tests.support.rocketball_rounds import random_rounds

OPENING_FRAMES = 2  # the board before the roll, then the panel with the roll


def decoded_fingerprint(data: bytes, digest: Any) -> int:
    """Feed each decoded frame after the opening ones (the whole board as shown, RGB) and its
    duration to `digest`; return how many frames that was."""
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    for index in range(OPENING_FRAMES, image.n_frames):
        image.seek(index)
        digest.update(image.convert("RGB").tobytes())
        digest.update(str(image.info["duration"]).encode())
    return image.n_frames - OPENING_FRAMES


ROUNDS = 40  # of each game of random actions


GAMES = {
    # name: (rounds, frames, fingerprint of their decoded frames)
    "strong against easy, seed 3": (
        lambda: rocketball_rounds(3, 41),
        224,
        "e324134746d9d3e097d1e4af8901d9aea83ac64b557b129f970911a7833fa5eb",
    ),
    "every chip variant and tug-of-war, seed 5": (
        lambda: islice(
            random_rounds(
                5,
                Settings.with_variants(
                    ["bumpers", "twisters", "gusts", "barricades", "moguls", "tug_of_war"],
                    target_score=9,
                ),
            ),
            ROUNDS,
        ),
        214,
        "cd25aa7e3d129584a41c6141cabc0e7dfa28e6d83405e9e994d221cc29e0b687",
    ),
    "assault with moguls and barricades, seed 11": (
        lambda: islice(
            random_rounds(
                11, Settings.with_variants(["assault", "moguls", "barricades"], target_score=9)
            ),
            ROUNDS,
        ),
        141,
        "060dbfa674462e52c9c39ab3ce3bb0b1d1d6d75c47f03ca0da04b87b89a4588d",
    ),
}


@pytest.mark.parametrize("game", GAMES)
def test_every_round_decodes_to_the_same_frames(game: str):
    rounds, frames_expected, expected = GAMES[game]
    digest = hashlib.sha256()
    frames = 0
    for before, events, after in rounds():
        data, filename = render_round(before, events, after, ROCKETBALL_NAMES)
        digest.update(filename.encode())
        if filename == "round.gif":
            frames += decoded_fingerprint(data, digest)
        else:
            digest.update(data)
    assert (frames, digest.hexdigest()) == (frames_expected, expected)
