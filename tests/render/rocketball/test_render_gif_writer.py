"""The round GIF's writer (render/rocketball/gif.py): the same pictures as Pillow's GIF writer
gives, with LZW codes sized for the 16-colour palette, so in fewer bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from render.rocketball import render_round
from render.rocketball.gif import write_gif
from render.rocketball.round import round_palette
from tests.support.rocketball_rounds import nth_round


def a_round_gif(seed: int) -> bytes:
    """The round image of a seeded random game's 5th round."""
    data, filename = render_round(*nth_round(seed, 5))
    assert filename == "round.gif"
    return data


def decoded(data: bytes) -> list[tuple[bytes, int]]:
    """Each frame as shown (RGB bytes of the whole board) and how long it shows."""
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append((image.convert("RGB").tobytes(), image.info["duration"]))
    return frames


def palette_frames(data: bytes) -> list[Image.Image]:
    """A round GIF's frames as whole palette images in the round's 16 colours."""
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        rgb = image.convert("RGB")
        frames.append(rgb.quantize(palette=round_palette(), dither=Image.Dither.NONE))
    return frames


def pillow_gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        optimize=False,
    )
    return buffer.getvalue()


def test_the_writer_shows_the_same_frames_as_pillows_in_fewer_bytes():
    """Also where a frame leaves its unchanged pixels transparent (seed 3 has such frames)."""
    transparent_frames = 0
    for seed in (2, 3, 7):
        frames = palette_frames(a_round_gif(seed))
        durations = [550] * (len(frames) - 1) + [2500]
        ours, theirs = write_gif(frames, durations), pillow_gif(frames, durations)
        assert decoded(ours) == decoded(theirs)
        assert [duration for _, duration in decoded(ours)] == durations
        assert len(ours) < len(theirs), (len(ours), len(theirs))
        transparent_frames += ours.count(b"!\xf9\x04\x05")  # leave in place + transparency
    assert transparent_frames > 0


def test_codes_start_at_the_palettes_size():
    """16 colours: a GIF minimum code size of 4 (Pillow's writer always puts 8)."""
    frames = palette_frames(a_round_gif(2))
    data = write_gif(frames, [100] * len(frames))
    assert data[10] & 0x07 == 3  # a global colour table of 2**4 entries
    descriptor = data.index(b"\x00\x00,")  # end of the first graphic control block
    assert data[descriptor + 2 + 10] == 4


def test_a_repeated_frame_is_dropped_and_its_time_added():
    frames = palette_frames(a_round_gif(7))[:2]
    data = write_gif([frames[0], frames[1], frames[1].copy()], [100, 200, 300])
    assert [duration for _, duration in decoded(data)] == [100, 500]


def test_the_first_frame_covers_the_whole_board():
    """Nothing of the first frame is left out (a viewer would show its background there)."""
    frames = palette_frames(a_round_gif(2))
    data = write_gif(frames, [100] * len(frames))
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    assert image.tile[0][1] == (0, 0, *frames[0].size)


def test_an_index_outside_the_colour_table_is_refused():
    """16 colours: index 20 would be written as an LZW code past the table (a broken image)."""
    frames = palette_frames(a_round_gif(2))[:2]
    stray = frames[1].copy()
    stray.putpixel((5, 5), 20)
    with pytest.raises(ValueError, match="outside the palette"):
        write_gif([frames[0], stray], [100, 100])
    first = frames[0].copy()
    first.putpixel((5, 5), 20)
    with pytest.raises(ValueError, match="outside the palette"):
        write_gif([first, frames[1]], [100, 100])
