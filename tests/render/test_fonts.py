"""Names in any script are drawn with a font that has their glyphs (render.common.font: DejaVu
Sans, falling back per character to the shipped Droid Sans Fallback), never as .notdef boxes,
in every game image that draws a name."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

import render.catalogue as catalogue
from render.common import FONT_DIR, font
from render.glyphs import code_points

NAMES = ["山田太郎", "김민준", "Ｗｉｌｌ"]
OTHERS = ["Ann", "Bo", "Cy", "Di"]
CHARACTERS = set("".join(NAMES))


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, str]]:
    """(font file, text) of every run of text FreeType rasterises."""
    seen: list[tuple[str, str]] = []
    original = ImageFont.FreeTypeFont.getmask2

    def getmask2(self, text, *args, **kwargs):
        seen.append((str(self.path), str(text)))
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", getmask2)
    return seen


def _rocketball() -> None:
    catalogue._rocketball_board()
    catalogue._rocketball_round()


def _rollerball() -> None:
    catalogue._rollerball_board()
    catalogue._rollerball_hand()
    catalogue._rollerball_movement()


def _rollerball2() -> None:
    from render.rollerball2 import render_standings
    from rules.rollerball2.season import GameScore, standings

    teams = [*NAMES, *OTHERS[:1]]
    games = [GameScore(teams[0], teams[1], 2, 1), GameScore(teams[2], teams[3], 0, 0)]
    render_standings("Season one", standings(teams, games))


@pytest.mark.parametrize(
    ("draw", "names"),
    [(_rocketball, NAMES[:2]), (_rollerball, NAMES), (_rollerball2, NAMES)],
    ids=["rocketball", "rollerball", "rollerball2"],
)
def test_every_glyph_of_a_name_in_any_script_is_drawn(draw, names, drawn, monkeypatch):
    monkeypatch.setattr(catalogue, "ROCKETBALL_NAMES", {"N": NAMES[0], "S": NAMES[1]})
    monkeypatch.setattr(catalogue, "ROLLERBALL_NAMES", dict(enumerate([*NAMES, *OTHERS[:3]])))
    draw()
    missing = [
        (character, path.rsplit("/", 1)[-1])
        for path, text in drawn
        for character in text
        if character in CHARACTERS and ord(character) not in code_points(path)
    ]
    assert missing == [], f"drawn as .notdef boxes: {missing}"
    shown = {character for _, text in drawn for character in text}
    assert set("".join(names)) <= shown, "every name was drawn"


@pytest.mark.parametrize("name", NAMES)
def test_a_name_draws_glyphs_not_boxes(name):
    """The pixels: each character differs from the box DejaVu draws for what it lacks."""

    def pixels(text: str) -> bytes:
        image = Image.new("L", (60, 40))
        ImageDraw.Draw(image).text((5, 5), text, font=font(24), fill=255)
        return image.tobytes()

    box = pixels("\U0010fffd")
    assert all(pixels(character) != box for character in name)
    assert all(ord(c) in code_points(str(FONT_DIR / "DroidSansFallback.ttf")) for c in name)


def test_text_the_first_font_covers_is_drawn_as_before():
    plain = ImageFont.truetype(str(FONT_DIR / "DejaVuSans.ttf"), 18)
    text = "North (Alice) 2–1 · Ünïcødé"
    assert font(18).getlength(text) == plain.getlength(text)
    assert font(18).getbbox(text, anchor="mm") == plain.getbbox(text, anchor="mm")
