"""The Rollerball II images drawn from the project's real content and engine: every authored
FAC fits its index card, a generated roster prints cleanly, and the box score of an
auto-played match agrees with the score."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.rollerball2 import render_card_sheets, render_fac, render_scoresheet
from render.rollerball2.fac import FAC_HEIGHT, FAC_WIDTH, TEXT_SIZES, layout_fac
from render.rollerball2.faces import box_score, card_face, fac_face
from render.rollerball2.player_card import CARD_HEIGHT, CARD_WIDTH, layout_card
from render.rollerball2.scoresheet import layout_scoresheet
from rules.rollerball2.coach import auto_play
from rules.rollerball2.content import load_content
from rules.rollerball2.engine import new_match, result
from rules.rollerball2.roster import generate_roster


def inside(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def test_every_authored_fac_fits_its_index_card():
    facs = load_content().facs
    assert len(facs) == 60
    for fac in facs:
        layout = layout_fac(fac_face(fac))
        # No authored card is so wordy that it needs the taller fallback.
        assert (layout.width, layout.height) == (FAC_WIDTH, FAC_HEIGHT), f"FAC {fac.index}"
        assert layout.text_size > TEXT_SIZES[-1], f"FAC {fac.index} is set at the floor size"
        for text in layout.texts:
            assert inside(text.ink_bbox(), text.box), f"FAC {fac.index}: {text.text!r}"
    image = Image.open(io.BytesIO(render_fac(facs[0], highlight="The BALL FIRES...")))
    assert image.size == (FAC_WIDTH, FAC_HEIGHT)


def test_a_generated_roster_prints_on_three_clean_sheets():
    roster = generate_roster(11, "Houston")
    assert len(roster.players) == 25
    sheets = render_card_sheets(roster.players)
    assert len(sheets) == 3
    for card in roster.players:
        layout = layout_card(card_face(card))
        shown = [text.text for text in layout.texts]
        assert card.name in " ".join(shown), "the whole name is printed"
        assert not any("…" in text for text in shown), "nothing on a real card is cut short"
        for text in layout.texts:
            assert inside(text.ink_bbox(), text.box)
            assert inside(text.ink_bbox(), (0, 0, CARD_WIDTH, CARD_HEIGHT))


@pytest.mark.parametrize("seed", [3, 8])
def test_box_score_of_an_auto_played_match_matches_the_score(seed):
    home, away = generate_roster(seed, "Houston"), generate_roster(seed + 100, "Madrid")
    final, _ = auto_play(new_match(seed, home, away))
    match = result(final)
    score = box_score(match)
    assert score.visitors.total == match.away_score and score.home.total == match.home_score
    # Each team's goals column adds up to its score: a spectator can check the sheet.
    for team in (score.visitors, score.home):
        assert sum(line.goals for line in team.players) == team.total
    layout = layout_scoresheet(score)
    texts = [text.text for text in layout.texts]
    assert f"VISITORS: Madrid {match.away_score}" in texts
    assert f"HOME: Houston {match.home_score}" in texts
    for text in layout.texts:
        assert inside(text.ink_bbox(), text.box), text.text
    image = Image.open(io.BytesIO(render_scoresheet(match)))
    assert image.size == (layout.width, layout.height)
