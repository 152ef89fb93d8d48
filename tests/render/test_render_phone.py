"""Every image a game posts is readable on a 390-px phone (render/textsize.py).

Discord shows an image in a card's gallery 298 px wide on such a phone (the sandbox page's
layout at 390 px, measured by tests/sandbox/test_phone_fit.py), so a font of `size` px on an
image `width` px wide shows `size * 298 / width` px tall, whatever the file's width; the smallest
text of each image must show at least 11 px. Boards also fit a desktop window beside their buttons: at most 4:3.
The sizes are those Pillow really rasterised while drawing a seeded sample of each image
(render/catalogue.py), not a list kept by hand. bench/image_text_size.py prints the same figures
for every image, Volleyball's included.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.catalogue import image_types
from render.textsize import (
    BOARD_MAX_RATIO,
    MIN_SHOWN_TEXT,
    drawn_at_scale,
    recorded_text_sizes,
    shown_text,
    smallest_font,
)

HELD = [kind for kind in image_types() if kind.ours and not kind.printable and not kind.replaced_by]


@pytest.mark.parametrize("kind", HELD, ids=[kind.name for kind in HELD])
def test_the_smallest_text_shows_at_least_11_px_on_a_phone(kind):
    with recorded_text_sizes() as sizes:
        drawn = kind.draw()
    pages = drawn if isinstance(drawn, list) else [drawn]
    assert sizes, "the sample drew some text"
    for page in pages:
        width, height = Image.open(io.BytesIO(page)).size
        assert shown_text(min(sizes), width) >= MIN_SHOWN_TEXT, (
            f"{kind.name}: {min(sizes):.0f} px type on a {width} px image shows "
            f"{shown_text(min(sizes), width):.1f} px (needs {smallest_font(width)} px)"
        )
        if kind.board:
            assert height / width <= BOARD_MAX_RATIO + 0.01, f"{kind.name}: {width} x {height}"


def test_the_rule_is_measured_at_the_size_drawn_and_shown():
    """The measure itself, at the width the phone shows the image (not the file's): a 22 px
    font on a 596 px image shows 11 px, a 16 px font on a 480 px image 9.9 px (too small: 18 px
    is needed), on 800 px 6 px; an image narrower than the phone is not enlarged; a sprite's
    letter drawn at four times its size and shrunk counts at its shrunk size."""
    assert shown_text(22, 596) == pytest.approx(11.0)
    assert shown_text(16, 480) == pytest.approx(9.93, abs=0.01)
    assert shown_text(16, 800) == pytest.approx(5.96)
    assert shown_text(12, 290) == 12
    assert smallest_font(480) == 18 and smallest_font(700) == 26 and smallest_font(616) == 23
    from render.common import font

    with recorded_text_sizes() as sizes:
        font(40).getmask2("A", "L")
        with drawn_at_scale(0.25):
            font(80).getmask2("B", "L")
    assert sizes == [40, 20]


def test_every_image_a_game_posts_is_in_the_catalogue():
    """The phone rule covers what the cogs post: each public render function of the games'
    turn images and commands has a sample (a new image type needs one)."""
    names = {kind.name for kind in image_types()}
    for needed in (
        "Rocketball round GIF",
        "Rollerball board",
        "Rollerball movement GIF",
        "Rollerball II scoreboard",
        "Rollerball II roster",
        "Rollerball II box score pages",
        "Rollerball II player card",
        "Rollerball II FAC section",
        "Rollerball II standings",
    ):
        assert needed in names


# The catalogue's image of each render function Rollerball II's cogs may call.
RB2_IMAGES = {
    "render_scoreboard": "Rollerball II scoreboard",
    "render_roster": "Rollerball II roster",
    "render_box_score_pages": "Rollerball II box score pages",
    "render_fac_section": "Rollerball II FAC section",
    "render_player_card": "Rollerball II player card",
    "render_fac_phone": "Rollerball II FAC (phone)",
    "render_gamecard_pages": "Rollerball II game card pages",
    "render_standings": "Rollerball II standings",
    "render_card_sheets": "Rollerball II card sheet",
    "render_track": "Rollerball II track",
    "render_fac": "Rollerball II FAC (index card)",
    "render_gamecard": "Rollerball II game card (one image)",
}


def test_every_image_rollerball2_posts_is_held_to_the_phone_rule():
    """Each render function cogs/rollerball2 calls draws an image the rule above holds (or a
    sheet made to be printed): none of the older 800-px images is posted any more."""
    import re
    from pathlib import Path

    kinds = {kind.name: kind for kind in image_types()}
    folder = Path(__file__).resolve().parents[2] / "cogs" / "rollerball2"
    called = {
        name
        for path in folder.glob("*.py")
        for name in re.findall(r"\b(render_[a-z_]+)\b", path.read_text())
    }
    assert {"render_scoreboard", "render_fac_phone", "render_gamecard_pages"} <= called
    held = {kind.name for kind in HELD}
    for name in called:
        kind = kinds[RB2_IMAGES[name]]
        assert kind.name in held or kind.printable, f"{name} draws {kind.name}: not held to it"
