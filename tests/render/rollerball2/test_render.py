"""Tests for the Rollerball II images (render/rollerball2): shapes, what a player can read on
them, and that no text ever leaves its box, measured with the font's own textbbox."""

from __future__ import annotations

import io
import itertools
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render.common import BLUE, INK, ORANGE, YELLOW
from render.rollerball2 import (
    render_card_sheet,
    render_card_sheets,
    render_fac,
    render_fac_section,
    render_player_card,
    render_scoresheet,
)
from render.rollerball2.fac import (
    FAC_HEIGHT,
    FAC_WIDTH,
    TEXT_SIZES,
    fac_section_png,
    layout_fac,
    layout_fac_section,
)
from render.rollerball2.faces import (
    CODE_MEANINGS,
    FAC_SECTIONS,
    box_score,
    card_face,
    fac_face,
    result_line,
)
from render.rollerball2.player_card import (
    CARD_HEIGHT,
    CARD_WIDTH,
    SHEET_HEIGHT,
    SHEET_WIDTH,
    card_image,
    layout_card,
    sheet_caption_texts,
    sheet_slot,
)
from render.rollerball2.png import encode_png
from render.rollerball2.scoresheet import SIDE_COLOURS, layout_scoresheet
from render.rollerball2.text import PlacedText, text_width, wrap
from rules.rollerball2.cards import Effect, FastActionCard, Flow, PlayerCard, Section
from rules.rollerball2.scoresheet import Absence, MatchResult, PlayerLine, TeamSheet

# The seed's sample player card in the engine's order, D10 faces 1-10 (the die's 0 is 10).
JONATHAN = PlayerCard(
    number=6,
    name="JONATHAN E.",
    position="skater",
    experience="star",
    team="Houston",
    offense=("EVT", "GOAL", "GOAL", "PASS", "GOAL", "GOAL", "Att", "Bkr", "GOAL", "Bkr"),
    defense=("Bkr", "Att", "LOSE", "Att", "GOAL", "EVT", "Att", "LOSE", "Att", "LOSE"),
)

SAMPLE_FAC_TEXTS = (
    "STAR Skater4 in Control (roll on Skater's card vs opponent). If no STAR in Skater4, "
    "defensive team now in control (pick new action).",
    "Biker3",
    "Veteran attacker penalized three minutes for smashing player in face. Player out for "
    "remainder of match. If Star or Rookie attacker, hit knocks ball loose and it rolls into gutter.",
    "Attacking Biker throws spiked glove at opponent biker's tire causing puncture. Three minute "
    "penalty. Opposing biker out until next new ball for repairs.",
    "If Visiting team has a third catcher, he scoops up the ball. Otherwise, the Home Catcher1 "
    "has control.",
    "Any random visiting player (including bikers) cripples least experienced home player with "
    "dirty hit. Home players and fans attack visitor. Each coach must roll D10 and the result is "
    "number of matches their player must miss. If '0' is rolled, the player is killed.",
)


def make_fac(index: int, texts: tuple[str, ...]) -> FastActionCard:
    effect = Effect(ops=(), flow=Flow("retain"))
    sections = [Section(text, effect) for text in texts]
    return FastActionCard(index, *sections)


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def luminance(pixel: float | tuple[int, ...] | None) -> float:
    """Of an RGB image's pixel (as Pillow gives it)."""
    assert isinstance(pixel, tuple) and len(pixel) == 3, pixel
    red, green, blue = pixel
    return 0.299 * red + 0.587 * green + 0.114 * blue


def darkest_in(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    return min(luminance(p) for p in image.crop(box).get_flattened_data())


def assert_inside(text: PlacedText, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = text.ink_bbox()
    assert box[0] <= left and right <= box[2], f"{text.text!r} spills sideways out of {box}"
    assert box[1] <= top and bottom <= box[3], f"{text.text!r} spills out of {box} vertically"


# --- Player card -------------------------------------------------------------------------------


def test_player_card_is_business_card_shaped():
    image = decode(render_player_card(JONATHAN))
    assert image.size == (CARD_WIDTH, CARD_HEIGHT)
    assert image.width / image.height == pytest.approx(3.5 / 2, rel=0.01)


def test_card_shows_identity_and_the_d10_table_as_printed():
    layout = layout_card(card_face(JONATHAN))
    shown = [t.text for t in layout.texts]
    for expected in ("6", "JONATHAN E.", "SKATER", "★ STAR", "Team: Houston", "OFFENSE", "DEFENSE"):
        assert expected in shown
    # Rows are printed 0-9, as on the rules' sample card; row 0 is the engine's 10
    # (docs/rules/rollerball2.md, the ruling on "DICE").
    printed = [JONATHAN.offense[9], *JONATHAN.offense[:9]]
    for row, (cell, code) in enumerate(zip(layout.offense_cells, printed, strict=True)):
        in_cell = [t.text for t in layout.texts if t.box == cell]
        assert in_cell == [code], f"offense row {row}"
    printed = [JONATHAN.defense[9], *JONATHAN.defense[:9]]
    for row, (cell, code) in enumerate(zip(layout.defense_cells, printed, strict=True)):
        assert [t.text for t in layout.texts if t.box == cell] == [code], f"defense row {row}"
    # The D10 column reads 0 to 9 top to bottom, once on each side of the table.
    d10 = [t.text for t in layout.texts if t.box in layout.d10_cells]
    assert d10 == [str(face) for face in range(10) for _side in ("left", "right")]


def test_card_prints_no_numeric_rating():
    layout = layout_card(card_face(JONATHAN))
    numbers = {t.text for t in layout.texts if any(ch.isdigit() for ch in t.text)} - {"D10"}
    # Only the uniform number and the D10 faces carry digits (seed, design objective 7).
    assert numbers == {str(face) for face in range(10)} | {"6"}


def test_card_cells_are_dark_ink_on_light_ground():
    face = card_face(JONATHAN)
    image = decode(render_player_card(JONATHAN))
    layout = layout_card(face)
    assert len(layout.offense_cells) == len(layout.defense_cells) == 10  # one per D10 face
    for cell in layout.offense_cells + layout.defense_cells:
        text = next(t for t in layout.texts if t.box == cell)
        assert darkest_in(image, text.ink_bbox()) < 60, "the code is printed in dark ink"
        ground = image.getpixel((cell[0] + 3, cell[1] + 3))
        assert luminance(ground) > 200, "on a light cell"


def test_card_legend_explains_every_code():
    layout = layout_card(card_face(JONATHAN))
    in_legend = [t.text for t in layout.texts if t.box[1] >= layout.legend_box[1]]
    for code, meaning in CODE_MEANINGS:
        assert code in in_legend and meaning in in_legend


def test_star_badge_colour_differs_from_veteran_and_rookie():
    colours = {}
    for experience in ("star", "veteran", "rookie"):
        card = PlayerCard(**{**JONATHAN.__dict__, "experience": experience})
        image = decode(render_player_card(card))
        badge = layout_card(card_face(card)).badge_box
        colours[experience] = image.getpixel((badge[0] + 10, badge[1] + 4))
    assert colours["star"] == ORANGE
    assert len(set(colours.values())) == 3


def test_long_name_and_team_wrap_inside_the_card():
    card = PlayerCard(
        **{
            **JONATHAN.__dict__,
            "number": 99,
            "name": "Bartholomew-Alexander Montgomery-Featherstonehaugh the Third of Houston",
            "team": "Madrid Metropolitan Energy Corporation Tigers of the Southern Track",
        }
    )
    layout = layout_card(card_face(card))
    name_lines = [
        t for t in layout.texts if t.size >= 18 and t.bold and t.box[0] == 20 and t.box[1] > 100
    ]
    assert len(name_lines) >= 2, "a long name wraps onto more lines"
    for text in layout.texts:
        assert_inside(text, text.box)
        assert_inside(text, (0, 0, CARD_WIDTH, CARD_HEIGHT))
        if text.box[1] < layout.legend_box[1] and text.box[2] <= layout.legend_box[2]:
            # Name and team never run into the legend below them (the left panel's).
            assert text.ink_bbox()[3] <= layout.legend_box[1] - 6


# --- Fast Action Card --------------------------------------------------------------------------


def test_fac_is_index_card_shaped_with_six_sections_in_seed_order():
    fac = make_fac(41, SAMPLE_FAC_TEXTS)
    image = decode(render_fac(fac))
    assert image.size == (FAC_WIDTH, FAC_HEIGHT)
    assert image.width / image.height == pytest.approx(5 / 3, rel=0.01)
    layout = layout_fac(fac_face(fac))
    assert "No. 41" in [t.text for t in layout.texts]
    for index, heading in enumerate(FAC_SECTIONS):
        cell = layout.label_cells[index]
        printed = " ".join(
            t.text
            for t in layout.texts
            if t.box[1] >= cell[1] and t.box[3] <= cell[3] and t.box[0] < cell[2]
        )
        assert printed.replace("/ ", "/") == heading  # a heading may break after its slash
        words = " ".join(
            t.text
            for t in layout.texts
            if t.box[0] >= layout.text_cells[index][0]
            and t.box[1] >= cell[1]
            and t.box[3] <= cell[3]
        )
        assert words == " ".join(SAMPLE_FAC_TEXTS[index].split()), "every word is printed, in order"


def test_sample_fac_is_set_in_phone_readable_type():
    layout = layout_fac(fac_face(make_fac(41, SAMPLE_FAC_TEXTS)))
    # The seed's sample, as wordy as a card gets, is set above the 14 px floor.
    assert layout.text_size >= 16
    for text in layout.texts:
        assert_inside(text, text.box)


def test_overlong_fac_grows_taller_and_never_overflows():
    rng = random.Random(5)
    words = [
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 12)))
        for _ in range(700)
    ]
    texts = tuple(" ".join(words[i * 110 : (i + 1) * 110]) for i in range(6))
    texts = (
        texts[0] + " Supercalifragilisticexpialidocious-Featherstonehaugh-Montgomery-Smythe",
        *texts[1:],
    )
    fac = make_fac(60, texts)
    layout = layout_fac(fac_face(fac))
    assert layout.text_size == TEXT_SIZES[-1]
    assert layout.height > FAC_HEIGHT
    image = decode(render_fac(fac))
    assert image.size == (layout.width, layout.height)
    for text in layout.texts:
        assert_inside(text, text.box)
        assert_inside(text, (0, 0, layout.width, layout.height))
    rows = [c for c in layout.text_cells]
    assert all(a[3] == b[1] for a, b in itertools.pairwise(rows)), "rows never overlap"


def test_fac_highlights_the_section_being_read():
    fac = make_fac(12, SAMPLE_FAC_TEXTS)
    image = decode(render_fac(fac, highlight="EVENT"))
    layout = layout_fac(fac_face(fac), highlight="EVENT")
    label_colours = [image.getpixel((cell[2] - 5, cell[1] + 8)) for cell in layout.label_cells]
    assert label_colours[5] == YELLOW
    assert all(colour != YELLOW for colour in label_colours[:5])
    with pytest.raises(ValueError, match="no section called"):
        render_fac(fac, highlight="PENALTY")


# --- Card sheet --------------------------------------------------------------------------------


def lineup(count: int) -> list[PlayerCard]:
    rng = random.Random(count)
    cards = []
    for number in range(1, count + 1):
        position = ("skater", "biker", "catcher")[number % 3]
        offense = (*tuple(rng.choice(("GOAL", "PASS", "LOSE", "Att")) for _ in range(9)), "EVT")
        defense = (*tuple(rng.choice(("GOAL", "LOSE", "Att")) for _ in range(9)), "EVT")
        cards.append(
            PlayerCard(
                number,
                f"PLAYER {number}",
                position,
                ("star", "veteran", "rookie")[number % 3],
                "Houston",
                offense,
                defense,
            )
        )
    return cards


def card_outline_is_ink(image: Image.Image, slot: tuple[int, int]) -> bool:
    x, y = slot
    samples = [
        (x + CARD_WIDTH // 2, y + 1),  # top edge
        (x + CARD_WIDTH // 2, y + CARD_HEIGHT - 2),  # bottom edge
        (x + 1, y + CARD_HEIGHT // 2),  # left edge
        (x + CARD_WIDTH - 2, y + CARD_HEIGHT // 2),  # right edge
    ]
    return all(image.getpixel(point) == INK for point in samples)


def test_sheet_holds_ten_cards_in_two_columns_and_five_rows():
    image = decode(render_card_sheet(lineup(10)))
    assert image.size == (SHEET_WIDTH, SHEET_HEIGHT)
    assert image.width / image.height == pytest.approx(8.5 / 11, rel=0.01)
    slots = [sheet_slot(index) for index in range(10)]
    assert sorted({x for x, _ in slots}) == [150, 150 + CARD_WIDTH]
    assert len({y for _, y in slots}) == 5
    for slot in slots:
        assert card_outline_is_ink(image, slot)
    # Each card's number tile sits in its own slot: card 7 is row 4, column 1.
    x, y = sheet_slot(6)
    assert luminance(image.getpixel((x + 25, y + 30))) < 60


def test_roster_of_25_prints_on_three_sheets_and_empty_slots_stay_blank():
    sheets = [decode(png) for png in render_card_sheets(lineup(25))]
    assert len(sheets) == 3
    last = sheets[2]
    assert [card_outline_is_ink(last, sheet_slot(i)) for i in range(10)] == [True] * 5 + [False] * 5
    with pytest.raises(ValueError, match="holds 10 cards"):
        render_card_sheet(lineup(11))


# --- Scoresheet --------------------------------------------------------------------------------


def team_sheet(name: str, side: str) -> TeamSheet:
    players = []
    for number in range(1, 26):
        position = "skater" if number <= 11 else ("biker" if number <= 18 else "catcher")
        players.append(
            PlayerLine(
                number,
                f"PLAYER {number}",
                position,
                "veteran",
                on_track=number in (1, 2, 3, 4, 5, 12, 13, 14, 19, 20),
            )
        )
    players[0].goals, players[0].goal_order, players[0].assists = 2, [1, 3], 0
    players[1].goals, players[1].assists = 1, 2
    players[3].penalty_minutes = 6
    players[18].catches = 5
    players[11].casualties = [4]
    players[4].injury, players[4].exit = "broken jaw, misses 3 matches", True
    return TeamSheet(name, side, players, [1, 0, 2, 0])


def sample_result() -> MatchResult:
    return MatchResult(
        home=team_sheet("Houston", "home"),
        away=team_sheet("Madrid", "away"),
        winner=None,
        overtime=False,
        facs_played=120,
        carry_over={"home": [Absence(5, "injury", "matches", 3, "broken jaw")], "away": []},
    )


def test_scoresheet_separates_visitors_above_home():
    result = sample_result()
    layout = layout_scoresheet(box_score(result))
    visitors, home = layout.team_blocks["VISITORS"], layout.team_blocks["HOME"]
    assert visitors[3] < home[1], "visitors first, then home, with a gap between"
    image = decode(render_scoresheet(result))
    assert image.size == (layout.width, layout.height)
    assert image.getpixel((visitors[0] + 10, visitors[1] + 10)) == BLUE
    assert image.getpixel((home[0] + 10, home[1] + 10)) == ORANGE
    assert SIDE_COLOURS["VISITORS"][0] != SIDE_COLOURS["HOME"][0]


def test_scoresheet_lists_who_played_with_their_stats():
    result = sample_result()
    layout = layout_scoresheet(box_score(result))
    home = layout.team_blocks["HOME"]
    home_texts = [t for t in layout.texts if home[1] <= t.y < home[3]]
    names = [t.text for t in home_texts if t.text.startswith("PLAYER")]
    assert names == [f"PLAYER {n}" for n in (1, 2, 3, 4, 5, 12, 13, 14, 19, 20)], (
        "only players on track"
    )

    def row_of(name: str) -> list[str]:
        anchor = next(t for t in home_texts if t.text == name)
        return [t.text for t in home_texts if t.box[1] == anchor.box[1]]

    assert row_of("PLAYER 1")[:5] == [
        "1",
        "PLAYER 1",
        "Skater · Veteran",
        "scored goal #1, #3",
        "2",
    ]
    assert "6" in row_of("PLAYER 4")
    assert "5" in row_of("PLAYER 19")
    assert "4" in row_of("PLAYER 12")  # knocked out number 4
    injured = row_of("PLAYER 5")
    assert injured[0] == "X" and "broken jaw, misses 3 matches" in " ".join(injured)
    totals = row_of("Team totals")
    assert totals == ["Team totals", "3", "2", "6", "5", "1"]
    assert any(
        "broken jaw, misses 3 matches" in t.text
        for t in home_texts
        if t.text.startswith("Carries over")
    )


def test_scoresheet_score_by_period_and_overtime_column():
    result = sample_result()
    result.home.score_by_period.append(1)
    result.away.score_by_period.append(0)
    result.winner, result.overtime = "home", True
    score = box_score(result)
    assert score.period_labels == ("1", "2", "3", "4", "OT")
    assert score.result_line == "Houston win 4-3 after overtime"
    texts = [t.text for t in layout_scoresheet(score).texts]
    assert texts[
        texts.index("Houston", texts.index("HOME")) : texts.index("Houston", texts.index("HOME"))
        + 7
    ] == [
        "Houston",
        "1",
        "0",
        "2",
        "0",
        "1",
        "4",
    ]


def test_scoresheet_text_never_overflows_with_long_names_and_injuries():
    result = sample_result()
    result.away.team = "Madrid Metropolitan Energy Corporation Tigers of the Southern Track"
    result.away.players[0].name = "Bartholomew-Alexander Montgomery-Featherstonehaugh III"
    result.away.players[4].injury = (
        "crushed under a biker's wheel after a fight with the crowd, out for the season " * 2
    )
    layout = layout_scoresheet(box_score(result))
    for text in layout.texts:
        assert_inside(text, text.box)
        assert_inside(text, (0, 0, layout.width, layout.height))


# --- Wrapping ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.text(alphabet=string.ascii_letters + "-/'.", min_size=1, max_size=30),
        min_size=1,
        max_size=40,
    ),
    width=st.integers(min_value=60, max_value=700),
    size=st.sampled_from([15, 20, 28]),
)
def test_wrapped_lines_fit_and_keep_every_character(words, width, size):
    text = " ".join(words)
    lines = wrap(text, width, size, bold=True)
    assert all(text_width(line, size, bold=True) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


# --- One FAC section ---------------------------------------------------------------------------


def test_fac_section_shows_only_the_section_read_in_larger_type():
    fac = make_fac(41, SAMPLE_FAC_TEXTS)
    layout = layout_fac_section(fac_face(fac), "event")
    texts = [t.text for t in layout.texts]
    assert texts[:2] == ["FAST ACTION CARD No. 41", "EVENT"]
    body = [t for t in layout.texts if t.box == layout.body_box]
    assert " ".join(t.text for t in body) == " ".join(SAMPLE_FAC_TEXTS[5].split())
    assert all(t.size > layout_fac(fac_face(fac)).text_size for t in body)
    assert not any("Biker3" in text for text in texts), "the other sections stay off"
    for text in layout.texts:
        assert_inside(text, text.box)
    image = decode(render_fac_section(fac, "EVENT"))
    assert image.size == (layout.width, layout.height)
    with pytest.raises(ValueError, match="no section called"):
        render_fac_section(fac, "ACTION!")


def test_a_fac_section_read_again_is_the_same_bytes_not_drawn_again():
    """Two of three clicks of a match show a FAC section, sixty cards' sections read over and
    over: kept, 256 of them at most (about 2.4 MB)."""
    from render import rollerball2 as module

    fac = make_fac(42, SAMPLE_FAC_TEXTS)
    module._fac_section_png.cache_clear()
    first = render_fac_section(fac, "EVENT")
    assert render_fac_section(fac, "event") == first == fac_section_png(fac_face(fac), "EVENT")
    assert module._fac_section_png.cache_info().hits == 1
    assert module._fac_section_png.cache_info().maxsize == 256


def test_images_are_pure_functions_of_their_input():
    # The same card, FAC and result always give the same bytes, so a re-post never flickers.
    assert render_player_card(JONATHAN) == render_player_card(JONATHAN)
    result = sample_result()
    assert render_scoresheet(result) == render_scoresheet(sample_result())
    fac = make_fac(41, SAMPLE_FAC_TEXTS)
    assert render_fac(fac, "EVENT") == render_fac(make_fac(41, SAMPLE_FAC_TEXTS), "event".upper())


def test_png_encoder_is_lossless():
    face = card_face(JONATHAN)
    original = card_image(face)
    decoded = decode(encode_png(original))
    assert decoded.tobytes() == original.tobytes()
    # A palette image is converted, not misread.
    palette = Image.new("P", (30, 20), 3)
    palette.putpalette([0, 0, 0, 10, 20, 30, 40, 50, 60, 213, 94, 0])
    assert decode(encode_png(palette)).getpixel((29, 19)) == (213, 94, 0)


def test_headline_says_who_won_drew_or_leads():
    result = sample_result()
    assert result_line(result) == "Draw 3-3"
    result.winner = "away"
    result.away.score_by_period[3] = 2
    assert result_line(result) == "Madrid win 5-3"
    # A match still being played has no winner yet: the sheet says who leads, and when.
    result.winner, result.facs_played = None, 57
    assert result_line(result) == "Madrid lead 5-3 after 57 FACs"
    result.home.score_by_period[3] = 2
    assert result_line(result) == "Level at 5-5 after 57 FACs"
    # Level in sudden-death overtime is still being played; level after all of it is a draw.
    result.overtime, result.home.score_by_period = True, [*result.home.score_by_period, 0]
    result.away.score_by_period.append(0)
    result.facs_played = 125
    assert result_line(result) == "Level at 5-5 after 125 FACs"
    result.facs_played = 150
    assert result_line(result) == "Draw 5-5 after overtime"


def test_sheet_caption_names_team_and_page_in_the_top_margin():
    texts = sheet_caption_texts("Houston · Rollerball II player cards · sheet 2 of 3")
    assert [t.text for t in texts] == ["Houston · Rollerball II player cards · sheet 2 of 3"]
    for text in texts:
        assert_inside(text, (0, 0, SHEET_WIDTH, sheet_slot(0)[1]))  # above the first card
    image = decode(render_card_sheets(lineup(12))[1])
    caption_band = image.crop((0, 0, SHEET_WIDTH, sheet_slot(0)[1]))
    assert min(luminance(p) for p in caption_band.get_flattened_data()) < 60, "caption printed"
    long = sheet_caption_texts("The Madrid Metropolitan Energy Corporation Tigers " * 4)
    assert len(long) == 1 and long[0].text.endswith("…")
    assert_inside(long[0], (0, 0, SHEET_WIDTH, sheet_slot(0)[1]))
