"""Rollerball II's images: card faces printed 0-9, the rolled row lit, gamecard, track, paged box
score, standings, and the FAC speed work (text masks drawn exactly as before)."""

from __future__ import annotations

import io
from typing import cast

from PIL import Image

from render.rollerball2.faces import card_face
from render.rollerball2.player_card import layout_card
from tests.render.rollerball2.test_render import JONATHAN

# The seed's "Sample Player Card", row by row as printed: D10, OFFENSE, DEFENSE.
SEED_SAMPLE_ROWS = [
    ("0", "Bkr", "LOSE"),
    ("1", "EVT", "Bkr"),
    ("2", "GOAL", "Att"),
    ("3", "GOAL", "LOSE"),
    ("4", "PASS", "Att"),
    ("5", "GOAL", "GOAL"),
    ("6", "GOAL", "EVT"),
    ("7", "Att", "Att"),
    ("8", "Bkr", "LOSE"),
    ("9", "GOAL", "Att"),
]


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_card_face_prints_rows_0_to_9_as_the_seeds_sample_card():
    layout = layout_card(card_face(JONATHAN))
    left_d10 = layout.d10_cells[:10]
    printed = []
    for d10_cell, offense_cell, defense_cell in zip(
        left_d10, layout.offense_cells, layout.defense_cells, strict=True
    ):
        [d10] = [t.text for t in layout.texts if t.box == d10_cell]
        [offense] = [t.text for t in layout.texts if t.box == offense_cell]
        [defense] = [t.text for t in layout.texts if t.box == defense_cell]
        printed.append((d10, offense, defense))
    assert printed == SEED_SAMPLE_ROWS


# --- the rolled row --------------------------------------------------------------------------


def test_the_rolled_row_is_lit_on_the_card_and_the_code_stays_dark():
    from render.rollerball2 import render_player_card
    from render.rollerball2.player_card import HIGHLIGHT_SHADE, highlighted_row

    image = decode(render_player_card(JONATHAN, ("offense", 4)))
    layout = layout_card(card_face(JONATHAN))
    row = highlighted_row(4)
    assert row == 4  # die face 4 is printed on row 4; face 10 (the die's 0) on row 0
    assert highlighted_row(10) == 0
    lit = layout.offense_cells[row]
    assert image.getpixel((lit[0] + 4, lit[1] + 5)) == HIGHLIGHT_SHADE
    other = layout.offense_cells[row + 1]
    assert image.getpixel((other[0] + 4, other[1] + 5)) != HIGHLIGHT_SHADE
    defense = layout.defense_cells[row]
    assert image.getpixel((defense[0] + 4, defense[1] + 5)) != HIGHLIGHT_SHADE
    [code] = [t for t in layout.texts if t.box == lit]
    assert code.text == "PASS"
    crop = image.crop(code.ink_bbox()).convert("L")
    darkest = crop.getextrema()[0]  # one band: (lowest, highest)
    assert isinstance(darkest, int | float) and darkest < 60


# --- text masks: the FAC speed work draws exactly what ImageDraw.text drew --------------------


def test_cached_text_masks_draw_the_same_pixels_as_imagedraw_text():
    from PIL import ImageChops, ImageDraw

    from render.rollerball2 import fac as fac_module
    from render.rollerball2.faces import fac_face
    from render.rollerball2.text import draw_texts
    from rules.rollerball2.content import load_content

    layout = fac_module.layout_fac(fac_face(load_content().fac(17)), "EVENT")
    by_masks = Image.new("RGB", (layout.width, layout.height), (250, 248, 240))
    draw_texts(ImageDraw.Draw(by_masks), layout.texts)
    draw_texts(ImageDraw.Draw(by_masks.copy()), layout.texts)  # a second time: from the cache
    again = Image.new("RGB", by_masks.size, (250, 248, 240))
    draw_texts(ImageDraw.Draw(again), layout.texts)
    by_pillow = Image.new("RGB", by_masks.size, (250, 248, 240))
    draw = ImageDraw.Draw(by_pillow)
    for item in layout.texts:
        draw.text((item.x, item.y), item.text, font=item.font, fill=item.fill)
    assert ImageChops.difference(by_masks, by_pillow).getbbox() is None
    assert ImageChops.difference(again, by_pillow).getbbox() is None


# --- pages: game card, box score, standings ---------------------------------------------------


def _inside(text, box) -> bool:
    left, top, right, bottom = text.ink_bbox()
    return left >= box[0] and right <= box[2] and top >= box[1] and bottom <= box[3]


def test_gamecard_holds_the_matrix_the_chart_rows_0_to_9_and_the_penalty_legend():
    from render.rollerball2 import render_gamecard
    from render.rollerball2.pages import gamecard_page
    from rules.rollerball2.content import load_content

    page = gamecard_page()
    shown = [t.text for t in page.texts]
    assert shown.count("GOAL") >= 4  # GOAL results on the matrix
    for heading in ("ACTION MATRIX", "RANDOM PLAYER CHART", "PENALTY LENGTHS"):
        assert any(text.startswith(heading) for text in shown)
    digits = [t.text for t in page.texts if t.text.isdigit() and t.bold and len(t.text) == 1]
    assert digits[:10] == [str(n) for n in range(10)]
    for legend in load_content().penalties.values():
        assert any(legend.label.split()[0] in text for text in shown)
    for text in page.texts:
        assert _inside(text, text.box), text.text
    image = decode(render_gamecard())
    assert image.size == (page.width, page.height)


def _played(seed):
    from rules.rollerball2 import auto_play, generate_roster, new_match, result

    state, _ = auto_play(
        new_match(seed, generate_roster(31, "Houston"), generate_roster(32, "Tokyo"))
    )
    return result(state)


def test_box_score_pages_are_each_under_150_kb_and_carry_the_summary():
    from render.rollerball2 import BOX_PAGE_LIMIT, render_box_score_pages
    from render.rollerball2.pages import box_summary_pages

    final = _played(1)
    pages = render_box_score_pages(final)
    assert len(pages) >= 3  # summary, visitors, home
    for png in pages:
        assert len(png) < BOX_PAGE_LIMIT
        width, height = decode(png).size
        assert width <= 840 and height <= 1400
    laid = box_summary_pages(final, "x")
    shown = [t.text for page in laid for t in page.texts]
    goals = [m for m in final.moments if m.kind == "goal"]
    assert len(goals) == final.home_score + final.away_score
    for moment in goals:
        assert moment.clock in shown and f"#{moment.number} {moment.name}" in " ".join(shown)
    penalties = [m for m in final.moments if m.kind == "penalty"]
    assert sum(line.penalty_minutes > 0 for s in (final.home, final.away) for line in s.players)
    for moment in penalties:
        assert moment.clock in shown
    assert any(text == "★★★" for text in shown)
    for page in laid:
        for text in page.texts:
            assert _inside(text, text.box), text.text


def test_the_goal_clock_is_the_card_it_was_scored_on():
    from rules.rollerball2 import apply, choose_action, generate_roster, new_match

    state = new_match(2, generate_roster(31, "Houston"), generate_roster(32, "Tokyo"))
    while not state.moments or state.moments[-1].kind != "goal":
        state, _ = apply(state, choose_action(state))
    goal = state.moments[-1]
    seconds = state.period_fac * 30
    assert goal.clock == f"P{state.period} {seconds // 60:02d}:{seconds % 60:02d}"
    assert goal.detail == f"{state.away.score}-{state.home.score}"


def test_standings_image_lists_teams_in_table_order():
    from render.rollerball2 import render_standings
    from render.rollerball2.pages import standings_page
    from rules.rollerball2.season import GameScore, standings

    rows = standings(["A", "B", "C"], [GameScore("C", "A", 4, 1), GameScore("B", "A", 2, 2)])
    [page] = standings_page("Season 1", rows)
    names = [t.text for t in page.texts if t.text in ("A", "B", "C")]
    assert names == ["C", "B", "A"]
    assert len(render_standings("Season 1", rows)) == 1


# --- the track -------------------------------------------------------------------------------


def test_track_shows_score_clock_ball_lineups_and_penalty_box():
    from render.rollerball2 import render_track
    from render.rollerball2.track import layout_track, track_face
    from rules.rollerball2 import HOME, generate_roster, new_match
    from rules.rollerball2.effects import penalty
    from rules.rollerball2.resolution import Resolution
    from rules.rollerball2.state import PHASE_ACTION

    state = new_match(3, generate_roster(31, "Houston"), generate_roster(32, "Tokyo"))
    state.phase, state.control, state.handler = PHASE_ACTION, HOME, "Skater1"
    state.fac_count = state.period_fac = 12
    penalised = state.away.lineup["Skater2"]
    assert penalised is not None
    penalty(Resolution(state), ("away", "Skater2"), "3min")
    state.fac_count = state.period_fac = 14
    face = track_face(state)
    assert face.period_line == "Period 1 · 07:00 · 16 FACs left"
    assert face.penalty_box == (
        ("away", f"#{penalised} {state.away.card(penalised).name}", "4 FACs left"),
    )
    layout = layout_track(face)
    shown = [t.text for t in layout.texts]
    handler = state.home.lineup["Skater1"]
    assert handler is not None
    assert f"#{handler} {state.home.card(handler).name}" in shown
    assert "man short (4 FACs)" in shown
    assert len(layout.handler_rows) == 1
    for text in layout.texts:
        assert _inside(text, text.box), text.text
    decode(render_track(state))


def test_track_hides_line_ups_until_both_are_handed_in():
    from render.rollerball2.track import layout_track, track_face
    from rules.rollerball2 import (
        AWAY,
        Settings,
        SubmitLineup,
        apply,
        default_lineup,
        generate_roster,
        new_match,
    )

    away = generate_roster(32, "Tokyo")
    state = new_match(3, generate_roster(31, "Houston"), away, Settings(private_lineups=True))
    state, _ = apply(state, SubmitLineup.of(AWAY, default_lineup(away)))
    shown = " ".join(t.text for t in layout_track(track_face(state)).texts)
    assert "line-up handed in" in shown and "waiting for the line-up" in shown
    assert not any(card.name in shown for card in away.players)


def test_a_card_events_section_key_picks_the_section_to_draw():
    from render.rollerball2 import render_fac, render_fac_section
    from rules.rollerball2 import apply, generate_roster, new_match
    from rules.rollerball2.content import load_content
    from rules.rollerball2.state import NextCard

    state = new_match(4, generate_roster(31, "Houston"), generate_roster(32, "Tokyo"))
    _, events = apply(state, NextCard())
    [card] = [event for event in events if event.kind == "card"]
    assert card.fac is not None
    fac = load_content().fac(card.fac)
    assert card.section == "ball_fires"
    assert render_fac_section(fac, card.section) == render_fac_section(fac, "The BALL FIRES...")
    assert render_fac(fac, card.section) == render_fac(fac, "The BALL FIRES...")


def test_the_palette_fac_is_the_rgb_card_to_within_a_sixteenth_on_text_edges():
    from PIL import ImageChops

    from render.rollerball2 import render_fac
    from render.rollerball2.fac import fac_image, layout_fac
    from render.rollerball2.faces import fac_face
    from rules.rollerball2.content import load_content

    for index, highlight in ((3, None), (41, "EVENT"), (58, "ATTACK (BIKER)")):
        fac = load_content().fac(index)
        png = render_fac(fac, highlight)
        assert Image.open(io.BytesIO(png)).mode == "P" and len(png) < 40 * 1024
        drawn = decode(png)
        reference = fac_image(fac_face(fac), highlight)
        difference = ImageChops.difference(drawn, reference)
        bands = cast(tuple[tuple[int, int], ...], difference.getextrema())  # RGB: one per band
        assert max(high for _, high in bands) <= 16
        # Only text differs (antialiased edges): blank every line's ink box, nothing is left.
        layout = layout_fac(fac_face(fac), highlight)
        outside_text = difference.copy()
        for text in layout.texts:
            left, top, right, bottom = text.ink_bbox()
            outside_text.paste((0, 0, 0), (left - 1, top - 1, right + 1, bottom + 1))
        assert outside_text.getbbox() is None
