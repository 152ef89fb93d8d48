"""The seed's own form layout, filled in as a manager would: two labels on
a row (TACTICAL CONCEPT | HOME ADV. Pts.), bare "4 4" points as OL DL, "Set 1:" with a
colon, label typos, "(captain)" after a name, the nearest player name for a typo, and every
problem listed at once with its line."""

from __future__ import annotations

import pytest

from rules.volleyball.orderform import parse_order_form
from rules.volleyball.orders import Concept, LevelPoints, Position, VolleyballError
from tests.rules.volleyball.test_orderform import make_team

SET_ROWS = """\
Set {n}:            Startlevels  Position  Endlevels
PLAYER              OL   DL      Code      OL   DL
Cees Jan (captain)  14    9      1         17    7
Fenna               13    8      2
Ann de Vries        12   10      2
Ids                 12   12      2
Dirk                 9   14      5
Gijs                 8   13      4
TACTICAL CONCEPT                 HOME ADV. Pts.   {ha}
Concept code   2                 DEVOTION Pts.    {dp}
RISK FACTOR    8                 SPECIAL Pts.     0 0
TOTAL LEVELS   80  70
"""

HEADER = """\
VOLLEYBALL
HOMEPLAY                         DIVISION NO. 1
MATCH NO. 2
TEAM : Red Rockets               AGAINST: Blue Whales
"""


def seed_form(*, first_set: str | None = None) -> str:
    sets = [SET_ROWS.format(n=n, ha="4 4" if n == 1 else "0 0", dp="3 0") for n in range(1, 6)]
    if first_set is not None:
        sets[0] = first_set
    return (
        HEADER
        + "\n".join(sets)
        + """
TOTAL USED DEVOTION POINTS (Whole match)   15
TOTAL USED SPECIAL POINTS (Whole match)    0
TRAINING            OL    OL     DL    DL
PLAYER              OLD   NEW    OLD   NEW
Bob                 10    11     12    12
SPYING ORDER        TEAM Green Geckos      AGAINST Yellow Yaks
"""
    )


def test_the_seeds_layout_with_two_labels_a_row_is_read() -> None:
    form = parse_order_form(seed_form(), make_team())
    assert (form.team, form.opponent, form.home, form.match_number, form.division) == (
        "Red Rockets",
        "Blue Whales",
        True,
        2,
        1,
    )
    first = form.match_orders.sets[0]
    assert first.player_names == ["Cees Jan", "Fenna", "Ann de Vries", "Ids", "Dirk", "Gijs"]
    assert first.slots[0].position == Position.SETTER
    assert (first.concept, first.risk) == (Concept.OFFENSIVE, 8)
    assert first.home_advantage == LevelPoints(4, 4)
    assert first.devotion == LevelPoints(3, 0)
    assert form.match_orders.sets[1].home_advantage == LevelPoints(0, 0)
    assert [(t.player, t.ol_gain, t.dl_gain) for t in form.training] == [("Bob", 1, 0)]
    assert (form.spy.target_team, form.spy.against) == ("Green Geckos", "Yellow Yaks")


def test_label_typos_are_read_as_the_labels_not_as_players() -> None:
    text = (
        seed_form()
        .replace("RISK FACTOR    8", "RISC FACTOR    8", 1)
        .replace("DEVOTION Pts.    3 0", "DEVOTOIN Pts.    3 0", 1)
        .replace("TACTICAL CONCEPT ", "TACTICAL CONSEPT ", 1)
    )
    form = parse_order_form(text, make_team())
    first = form.match_orders.sets[0]
    assert len(first.slots) == 6
    assert (first.concept, first.risk, first.devotion) == (
        Concept.OFFENSIVE,
        8,
        LevelPoints(3, 0),
    )


def test_a_misspelt_player_gets_the_nearest_name_and_every_problem_its_line() -> None:
    text = seed_form().replace("Fenna    ", "Fena     ", 1).replace("Gijs ", "Gyjs ", 1)
    text = text.replace("RISK FACTOR    8", "RISK FACTOR    eight", 1)
    with pytest.raises(VolleyballError) as raised:
        parse_order_form(text, make_team())
    problems = raised.value.problems
    lines = text.splitlines()
    fena = next(i for i, line in enumerate(lines, start=1) if line.startswith("Fena "))
    gyjs = next(i for i, line in enumerate(lines, start=1) if line.startswith("Gyjs "))
    risk = next(i for i, line in enumerate(lines, start=1) if "eight" in line)
    assert any(p.startswith(f"Line {fena}:") and "Did you mean Fenna?" in p for p in problems)
    assert any(p.startswith(f"Line {gyjs}:") and "Did you mean Gijs?" in p for p in problems)
    assert any(p.startswith(f"Line {risk}:") and "risk factor" in p.lower() for p in problems)
    assert len(problems) == 3, problems
