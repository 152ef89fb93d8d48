"""A small animated-GIF writer for the Rocketball round image (render/rocketball/round.py) and
the Rollerball movement GIF: `write_gif`.

Pillow's GIF writer always starts the LZW codes at 9 bits (it writes a minimum code size of 8,
for 256 colours), whatever the palette. The round GIF has 16 colours, so its codes can start at
5 bits and its code table holds 240 more useful entries before it is reset. Written here with
Pillow's own LZW coder at the palette's code size, the same frames take about 4 % fewer bytes
on a whole board and about 10 % fewer on the small frames of the ball's path (measured with
bench/rocketball_render.py), and decode to the same pixels
(tests/render/rocketball/test_render_gif_writer.py).

Like Pillow's writer with `disposal=1`: a frame after the first is stored as the rectangle where
it differs from the frame before (left in place), and a frame identical to the one before is
dropped, its time added to that frame's. Unlike it, a rectangle most of whose pixels did not
change is written with those pixels transparent (about 0.2 KB less a round).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageChops

Box = tuple[int, int, int, int]


def _u16(value: int) -> bytes:
    return value.to_bytes(2, "little")


def _code_size(colours: int) -> int:
    """Bits per colour index: the colour table holds 2**bits entries; LZW needs at least 2."""
    return max(2, (colours - 1).bit_length())


def _header(size: tuple[int, int], palette: list[int], bits: int, loop: int | None) -> bytes:
    entries = 1 << bits
    table = bytes(palette[: 3 * entries]).ljust(3 * entries, b"\0")
    flags = 0x80 | ((bits - 1) << 4) | (bits - 1)  # global colour table of 2**bits entries
    screen = b"GIF89a" + _u16(size[0]) + _u16(size[1]) + bytes([flags, 0, 0])
    if loop is None:  # no looping block: a viewer plays the frames once (GIF89a)
        return screen + table
    looping = b"!\xff\x0bNETSCAPE2.0\x03\x01" + _u16(loop) + b"\0"
    return screen + table + looping


def _frame(
    data: bytes, box: Box, duration_ms: int, bits: int, transparent: int | None = None
) -> bytes:
    """One frame: graphic control (leave in place, delay, transparent index), image descriptor,
    LZW data (`data`: the length-prefixed sub-blocks)."""
    left, top, right, bottom = box
    flags = 1 << 2 | (0 if transparent is None else 1)
    control = b"!\xf9\x04" + bytes([flags]) + _u16(round(duration_ms / 10))
    control += bytes([transparent or 0]) + b"\0"
    descriptor = b"," + _u16(left) + _u16(top) + _u16(right - left) + _u16(bottom - top) + b"\0"
    return control + descriptor + bytes([bits]) + data + b"\0"


# A changed rectangle is written with its unchanged pixels transparent when at least this share
# of them did not change: below it the transparent version saves next to nothing (measured over
# the rounds of four seeded Rocketball games: 22.09 KB a round against 22.07 KB when both are
# written and the smaller kept), and writing one version instead of two takes a fifth off the
# round GIF's time.
HOLES_FROM = 0.7


@dataclass(frozen=True)
class _Change:
    """Where a frame differs from the frame before: the rectangle `box`, the frame's pixels
    there (`crop`) and the difference to the frame before there (`difference`, 0 where
    unchanged). Cropped once, and used for the colour check, the holes and the written data."""

    box: Box
    crop: Image.Image
    difference: Image.Image


def _delta(change: _Change, duration: int, bits: int) -> bytes:
    """The frame as the rectangle `change.box`: as it is, or, when most of it did not change,
    with the pixels that did not change made transparent (a colour index the rectangle does not
    use), which pays when the ball leaves a square but the square stays the same around it."""
    crop, box = change.crop, change.box
    unchanged_count = change.difference.histogram()[0]  # a difference of 0: unchanged
    if unchanged_count >= HOLES_FROM * crop.width * crop.height:
        used = {index for _, index in crop.getcolors(1 << bits) or []}
        free = [index for index in range(1 << bits) if index not in used]
        if free:
            # a mask of 255 where unchanged, 0 elsewhere: one C call (Image.point rounds its
            # table in Python first)
            difference = change.difference
            unchanged = Image.frombytes(
                "L", difference.size, difference.tobytes().translate(_UNCHANGED)
            )
            holes = crop.copy()
            holes.paste(free[-1], mask=unchanged)
            return _frame(holes.tobytes("gif", "P", bits), box, duration, bits, free[-1])
    return _frame(crop.tobytes("gif", "P", bits), box, duration, bits)


_UNCHANGED = bytes([255] + [0] * 255)  # a difference of 0 -> in the mask


def write_gif(
    images: list[Image.Image],
    durations_ms: list[int],
    *,
    loop: int | None = None,
    boxes: list[Box | None] | None = None,
    indices_known: bool = False,
    first: bytes | None = None,
) -> bytes:
    """The frames as one animated GIF: `images` are "P" images of one size sharing the first
    one's palette (at most 256 colours, the indices below the palette's length); each shows
    for its duration. By default it plays once and stays on its last frame: a move's
    animation ends on, and stays on, the position as it is now (a loop showed the position
    before the move most of the time); `loop=0` repeats forever. `boxes[i]`, when given, is a rectangle holding
    every pixel where images[i] differs from images[i - 1] (None: anywhere), so the writer
    compares only there. `indices_known`: the caller drew every frame with the palette's own
    indices only (render/rocketball/paint.py's PalettePainter draws nothing else), so the
    writer does not look for an index outside the colour table (on the whole first frame that
    look took a twentieth of the round GIF's time). `first`: `compress(images[0])`, when the
    caller kept it from before (the whole first frame's codes are the GIF's largest cost)."""
    if not images or len(images) != len(durations_ms):
        raise ValueError("one duration per frame, and at least one frame")
    palette = images[0].getpalette() or []
    bits = _code_size(len(palette) // 3)
    size = images[0].size
    first_ms = durations_ms[0]
    hints = boxes or [None] * len(images)
    kept: list[tuple[_Change, int]] = []  # where each written frame changed, its time
    for previous, image, duration, hint in zip(
        images, images[1:], durations_ms[1:], hints[1:], strict=False
    ):
        if image.mode != "P" or image.size != size:
            raise ValueError("every frame is a palette image of the first frame's size")
        change = _changed(previous, image, hint)
        if change is not None:
            kept.append((change, duration))
        elif kept:
            kept[-1] = (kept[-1][0], kept[-1][1] + duration)
        else:
            first_ms += duration
    # Every index must be in the colour table: the first frame whole, the others where they
    # changed (what is written of them).
    checked = [images[0], *(change.crop for change, _ in kept)]
    if not indices_known and any(_highest_index(image) >= 1 << bits for image in checked):
        raise ValueError("a frame uses a colour index outside the palette")
    codes = first if first is not None else images[0].tobytes("gif", "P", bits)
    opening = _frame(codes, (0, 0, *size), first_ms, bits)
    deltas = [_delta(change, ms, bits) for change, ms in kept]
    return _header(size, palette, bits, loop) + opening + b"".join(deltas) + b";"


def compress(image: Image.Image) -> bytes:
    """A whole palette frame's LZW data as `write_gif` writes it: what its `first` takes."""
    return image.tobytes("gif", "P", _code_size(len(image.getpalette() or []) // 3))


def _highest_index(image: Image.Image) -> int:
    """The highest colour index a palette frame uses."""
    _, highest = image.getextrema()
    if not isinstance(highest, int):  # one band: (min, max)
        raise TypeError("a GIF frame is a palette image")
    return highest


def _changed(previous: Image.Image, image: Image.Image, hint: Box | None) -> _Change | None:
    """Where `image` differs from `previous`, looked for inside `hint` when given."""
    left, top, right, bottom = hint or (0, 0, *image.size)
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, image.width), min(bottom, image.height)
    if left >= right or top >= bottom:
        return None
    region = (left, top, right, bottom)
    if region == (0, 0, *image.size):  # the whole frame: a crop would be a copy of it
        crop, difference = image, ImageChops.difference(previous, image)
    else:
        crop = image.crop(region)
        difference = ImageChops.difference(previous.crop(region), crop)
    inner = difference.getbbox()
    if inner is None:
        return None
    box = (left + inner[0], top + inner[1], left + inner[2], top + inner[3])
    if inner != (0, 0, *crop.size):
        crop, difference = crop.crop(inner), difference.crop(inner)
    return _Change(box, crop, difference)
