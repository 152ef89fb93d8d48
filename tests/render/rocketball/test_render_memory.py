"""The board's caches hold what many matches share, not images per pair of players: with a
thousand matches in play every pair of names is different, and the bot's memory grew with the
number of players (bench/memory.py measures it with distinct players).

Sizes are bytes of the images alive in the process, never times."""

from __future__ import annotations

import gc
import io

import pytest
from PIL import Image

from render.rocketball import board, paint, render_board
from rules.rocketball.engine import new_game
from rules.rocketball.state import Settings

MIB = 1024 * 1024


def _live_image_bytes() -> int:
    gc.collect()
    return sum(len(item.tobytes()) for item in gc.get_objects() if isinstance(item, Image.Image))


@pytest.mark.parametrize("assault", [False, True])
def test_board_caches_do_not_grow_with_distinct_players(assault: bool) -> None:
    """One static field per board layout, whatever the players are called (in Assault the
    legend names each ball's owner), and a bounded amount of text: 400 matches' boards leave
    less cached than a handful of boards would weigh."""
    state, _ = new_game(1, Settings(assault=assault))
    for cached in (board.static_rgb, board.static_palette, paint.rgb_block, paint.palette_block):
        cached.cache_clear()
    render_board(state, names={"N": "Player XXXn", "S": "Player XXXs"})  # the same length
    layouts = board.static_palette.cache_info().currsize
    # what earlier tests of the run left cached is theirs: only the growth counts
    before = _live_image_bytes()
    for index in range(400):
        png = render_board(state, names={"N": f"Player {index:03d}n", "S": f"Player {index:03d}s"})
        assert Image.open(io.BytesIO(png)).width == 700
    assert board.static_palette.cache_info().currsize == layouts
    held = _live_image_bytes() - before
    assert held < 8 * MIB, f"{held / MIB:.1f} MiB of images held after 400 pairs of players"
