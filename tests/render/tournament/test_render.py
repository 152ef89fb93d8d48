"""A tournament's pictures (render/tournament.py, docs/rules/tournaments.md "On Discord"): the
knockout's bracket, a part an image, and the standings table. The seeded samples are the
catalogue's (render/catalogue.py), which tests/render/test_render_phone.py also holds to the
phone's 11 px; here their pixels are the golden ones, and what they show follows the results."""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image

from render.catalogue import image_types
from render.tournament import STANDINGS_ROWS, bracket_columns, render_standings
from rules.tournament import Entrant, Game, Knockout, resolve, standings

GOLDEN = {
    "Tournament bracket (single elimination)": [
        "c8b6ab08c278db7f55af770bf60500c78e5561875bf979322d2ee38a4bf96b0e"
    ],
    "Tournament bracket (double elimination)": [
        "52f95d1aeb7b539ede28a90b8997daf2bc2650f06545073f17bab105c1362852",
        "a2319f3ae7f41bb522b81c983772447f3fba9ddbede25a5d8ac416b0041f1b4b",
        "9ff7f594b1a23b2bff242913d37779318eaca3b0b5e07564f533ed61932889f0",
    ],
    "Tournament standings": ["817dbcdcd26a4b2cadec79ace5605a370e6c64fbc59cf39523798ea6b48d329c"],
}


@pytest.mark.parametrize("name", list(GOLDEN))
def test_the_samples_are_the_golden_images(name):
    kind = next(kind for kind in image_types() if kind.name == name)
    drawn = kind.draw()
    pages = drawn if isinstance(drawn, list) else [drawn]
    assert [hashlib.sha256(page).hexdigest() for page in pages] == GOLDEN[name]


def test_a_bracket_has_a_column_a_round_and_a_double_one_an_image_a_part():
    """Eight players: quarter-finals, semi-finals and final; a double elimination's winners'
    bracket, losers' bracket (four rounds) and grand final with its reset."""
    entrants = [Entrant(f"p{n}", 1500 + n) for n in range(8)]
    single = bracket_columns(resolve(Knockout().bracket(entrants), {}))
    assert [column.title for column in single["winners"]] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    assert [len(column.places) for column in single["winners"]] == [4, 2, 1]
    double = bracket_columns(resolve(Knockout(double=True).bracket(entrants), {}))
    assert list(double) == ["winners", "losers", "final"]
    assert [len(column.places) for column in double["losers"]] == [2, 2, 1, 1]
    assert [column.title for column in double["final"]] == ["Final", "Reset"]


def test_a_bye_is_not_drawn_as_a_match():
    """Six players in a bracket of eight: seeds 1 and 2 go through the first round without a
    match, so it shows two."""
    entrants = [Entrant(f"p{n}", 1500 + n) for n in range(6)]
    columns = bracket_columns(resolve(Knockout().bracket(entrants), {}))
    assert [len(column.places) for column in columns["winners"]] == [2, 2, 1]


def test_the_standings_show_twenty_lines_and_say_how_many_more():
    def height(count: int) -> int:
        entrants = [Entrant(f"p{n}", 1500 + n) for n in range(count)]
        games = [Game(1, (f"p{n}", f"p{n + 1}"), (1.0, 0.0)) for n in range(0, count - 1, 2)]
        order = standings(entrants, games, 1)
        names = {entrant.id: entrant.id for entrant in entrants}
        png = render_standings("Standings", order, names, tie_breaks="Buchholz")
        return Image.open(io.BytesIO(png)).height

    assert height(STANDINGS_ROWS) < height(STANDINGS_ROWS + 1) == height(STANDINGS_ROWS + 30)
    assert height(4) < height(5)
