"""The volleyball images (render/volleyball): sizes follow the state, zones and winners are
where the table and the cup say, and the images stay phone-sized."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.common import GREEN, INK, VERMILION
from render.textsize import shown_text
from render.volleyball import bracket, cup_bracket_pages, standings, standings_png
from render.volleyball.results import division_results, results_png
from rules.volleyball.managers import all_computer_orders, new_computer_league
from rules.volleyball.reports import cup_bracket
from rules.volleyball.rounds import play_round


def png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def played():
    state = new_computer_league(10, seed=8, divisions=[6, 4])
    for _ in range(3):
        state, _report = play_round(state, all_computer_orders(state))
    return state


def bar_pixel(image: Image.Image, row: int) -> tuple[int, int, int]:
    pixel = image.getpixel(
        (standings.MARGIN + 4, standings.row_top(row) + standings.ROW_HEIGHT // 2)
    )
    assert isinstance(pixel, tuple) and len(pixel) == 3, pixel  # an RGB image's
    return pixel


def test_the_table_has_a_row_per_team_and_colours_the_zones(played) -> None:
    first = png(standings_png(played, 1))
    assert first.size == (standings.WIDTH, standings.image_height(6))
    assert bar_pixel(first, 5) == VERMILION and bar_pixel(first, 4) == VERMILION
    assert bar_pixel(first, 3) != VERMILION and bar_pixel(first, 0) != GREEN
    second = png(standings_png(played, 2))
    assert second.size[1] == standings.image_height(4)
    assert bar_pixel(second, 0) == GREEN and bar_pixel(second, 1) == GREEN
    assert bar_pixel(second, 3) not in (GREEN, VERMILION)


def test_a_single_division_has_no_zones() -> None:
    state = new_computer_league(4, seed=2)
    image = png(standings_png(state))
    assert all(bar_pixel(image, row) not in (GREEN, VERMILION) for row in range(4))


def test_the_points_column_is_drawn_for_every_row(played) -> None:
    image = png(standings_png(played, 1))
    right = standings.COLUMNS[-1][1]
    for row in range(6):
        top = standings.row_top(row)
        cells = [
            image.getpixel((x, y))
            for x in range(right - 40, right)
            for y in range(top + 10, top + standings.ROW_HEIGHT - 10)
        ]
        assert INK in cells


def test_the_bracket_marks_each_played_winner(played) -> None:
    pages = [png(page) for page in cup_bracket_pages(played)]
    assert len(pages) == 1
    image = pages[0]
    sections = bracket.page_sections(cup_bracket(played))
    assert [heading for heading, _ in sections[0]] == ["Quarter-finals", "Semi-finals", "Final"]
    height, boxes = bracket.layout(sections[0])
    assert image.size == (bracket.WIDTH, height) == (480, height)
    played_any = False
    for (_heading, matches), corners in zip(sections[0], boxes, strict=True):
        for (x, y), match in zip(corners, matches, strict=True):
            for line, team in enumerate((match.home, match.away)):
                pixel = image.getpixel((x + 5, y + line * bracket.LINE_HEIGHT + 15))
                assert (pixel == GREEN) == (match.winner == team and team != "")
                played_any |= pixel == GREEN
    assert played_any


def fits_a_phone_screen(image: Image.Image) -> bool:
    """Portrait and at most one 390 x 844 phone screen tall as Discord shows it in a card."""
    return image.height > image.width and shown_text(image.height, image.width) <= 844


def test_a_big_cup_round_is_drawn_as_its_draw_in_pages() -> None:
    state = new_computer_league(32, seed=3, divisions=[16, 16])
    rounds = cup_bracket(state)
    assert len(rounds[0]) == 32
    pages = [png(page) for page in cup_bracket_pages(state)]
    sections = bracket.page_sections(rounds)
    assert len(pages) == len(sections) == 2  # one page a half of the draw
    assert [s[0][0] for s in sections] == [
        "Last 64: matches 1-16 of 32",
        "Last 64: matches 17-32 of 32",
    ]
    assert [m for page in sections for _heading, ms in page for m in ms] == rounds[0]
    for image, page in zip(pages, sections, strict=True):
        height, boxes = bracket.layout(page)
        assert image.size == (bracket.WIDTH, height) and fits_a_phone_screen(image)
        # No match is played yet: no winner mark anywhere.
        marks = [
            image.getpixel((x + 5, y + line * bracket.LINE_HEIGHT + 15))
            for x, y in boxes[0]
            for line in (0, 1)
        ]
        assert GREEN not in marks


def test_once_the_big_rounds_are_played_the_bracket_is_one_page() -> None:
    state = new_computer_league(32, seed=3, divisions=[16, 16])
    while len(state.cup.entrants) > 16:
        state, _report = play_round(state, all_computer_orders(state))
    rounds = cup_bracket(state)
    assert len(rounds[bracket.current_round(rounds)]) == 8
    pages = [png(page) for page in cup_bracket_pages(state)]
    assert len(pages) == 1 and fits_a_phone_screen(pages[0])
    headings = [heading for heading, _ in bracket.page_sections(rounds)[0]]
    assert headings == ["Last 16", "Quarter-finals", "Semi-finals"]


def test_the_results_image_shows_each_division_match(played) -> None:
    round_number = played.league.round_number - 1
    for division in (1, 2):
        results = division_results(played, division, round_number)
        members = set(played.team_names(division))
        assert results and all(r.fixture.home in members for r in results)
        assert all(r.home_players and r.away_players for r in results)
        image = png(results_png(played, division, round_number))
        assert image.width == standings.WIDTH and image.height > 100 * len(results)


def test_the_results_image_is_grey_scale_and_as_wide_as_the_table(played) -> None:
    round_number = played.league.round_number - 1
    data = results_png(played, 1, round_number)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "L" and image.width == standings.WIDTH
