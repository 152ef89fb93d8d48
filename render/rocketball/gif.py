"""A small animated-GIF writer for the round image (round.py): `write_gif`.

Pillow's GIF writer always starts the LZW codes at 9 bits (it writes a minimum code size of 8,
for 256 colours), whatever the palette. The round GIF has 16 colours, so its codes can start at
5 bits and its code table holds 240 more useful entries before it is reset. Written here with
Pillow's own LZW coder at the palette's code size, the same frames take about 4 % fewer bytes
on a whole board and about 10 % fewer on the small frames of the ball's path (measured with
bench/rocketball_render.py), and decode to the same pixels (tests/rocketball/test_render_gif_writer.py).

Like Pillow's writer with `disposal=1`: a frame after the first is stored as the rectangle where
it differs from the frame before (left in place), and a frame identical to the one before is
dropped, its time added to that frame's.
"""

from __future__ import annotations

from PIL import Image, ImageChops

Box = tuple[int, int, int, int]


def _u16(value: int) -> bytes:
    return value.to_bytes(2, "little")


def _code_size(colours: int) -> int:
    """Bits per colour index: the colour table holds 2**bits entries; LZW needs at least 2."""
    return max(2, (colours - 1).bit_length())


def _header(size: tuple[int, int], palette: list[int], bits: int, loop: int) -> bytes:
    entries = 1 << bits
    table = bytes(palette[: 3 * entries]).ljust(3 * entries, b"\0")
    flags = 0x80 | ((bits - 1) << 4) | (bits - 1)  # global colour table of 2**bits entries
    screen = b"GIF89a" + _u16(size[0]) + _u16(size[1]) + bytes([flags, 0, 0])
    looping = b"!\xff\x0bNETSCAPE2.0\x03\x01" + _u16(loop) + b"\0"
    return screen + table + looping


def _frame(image: Image.Image, box: Box, duration_ms: int, bits: int) -> bytes:
    """One frame: graphic control (leave in place, delay), image descriptor, LZW data."""
    left, top, right, bottom = box
    control = b"!\xf9\x04" + bytes([1 << 2]) + _u16(round(duration_ms / 10)) + b"\0\0"
    descriptor = b"," + _u16(left) + _u16(top) + _u16(right - left) + _u16(bottom - top) + b"\0"
    data = image.crop(box).tobytes("gif", "P", bits)  # length-prefixed sub-blocks
    return control + descriptor + bytes([bits]) + data + b"\0"


def write_gif(images: list[Image.Image], durations_ms: list[int], *, loop: int = 0) -> bytes:
    """The frames as one animated GIF: `images` are "P" images of one size sharing the first
    one's palette (at most 256 colours, the indices below the palette's length); each shows
    for its duration; `loop=0` repeats forever."""
    if not images or len(images) != len(durations_ms):
        raise ValueError("one duration per frame, and at least one frame")
    palette = images[0].getpalette() or []
    bits = _code_size(len(palette) // 3)
    size = images[0].size
    kept: list[tuple[Image.Image, Box, int]] = [(images[0], (0, 0, *size), durations_ms[0])]
    for previous, image, duration in zip(images, images[1:], durations_ms[1:], strict=False):
        if image.mode != "P" or image.size != size:
            raise ValueError("every frame is a palette image of the first frame's size")
        box = ImageChops.difference(previous, image).getbbox()
        if box is None:
            frame, old_box, old_duration = kept[-1]
            kept[-1] = (frame, old_box, old_duration + duration)
        else:
            kept.append((image, box, duration))
    for image, _, _ in kept:
        if image.getextrema()[1] >= 1 << bits:
            raise ValueError("a frame uses a colour index outside the palette")
    frames = b"".join(_frame(image, box, duration, bits) for image, box, duration in kept)
    return _header(size, palette, bits, loop) + frames + b";"
