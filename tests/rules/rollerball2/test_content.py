"""The authored content: it loads, obeys the seed's constraints, and bad content is refused."""

from __future__ import annotations

import copy
import json

import pytest

from rules.rollerball2.cards import (
    BIKER,
    BKR,
    EVT,
    EXPERIENCES,
    PASS,
    POSITIONS,
    FastActionCard,
)
from rules.rollerball2.content import (
    DATA_DIR,
    EMPTY,
    ContentError,
    load_content,
    parse_facs,
    parse_matrix,
    parse_player_tables,
    parse_random_player_chart,
)
from rules.rollerball2.roster import generate_roster

SIX_HEADINGS = [
    "ACTION",
    "BIKER ID",
    "ATTACK (SKATER/CATCHER)",
    "ATTACK (BIKER)",
    "The BALL FIRES...",
    "EVENT",
]


def raw_facs() -> dict:
    return json.loads((DATA_DIR / "facs.json").read_text(encoding="utf-8"))


def raw_matrix() -> list:
    return json.loads((DATA_DIR / "charts.json").read_text(encoding="utf-8"))["action_matrix"]


def test_deck_has_sixty_cards_each_with_six_sections_of_text_and_effect():
    content = load_content()
    assert [fac.index for fac in content.facs] == list(range(1, 61))
    for fac in content.facs:
        assert isinstance(fac, FastActionCard)
        sections = fac.sections()
        assert [heading for heading, _ in sections] == SIX_HEADINGS
        for _, section in sections:
            assert section.text.strip() and section.effect.flow.kind


def test_deck_covers_the_seed_kinds_of_result():
    """Experience-dependent control, penalties of several lengths, every injury length, bans,
    forced rest, gutter balls and catches appear somewhere in the deck."""
    ops, flows = set(), set()

    def walk(effect):
        while effect is not None:
            ops.update((op.kind, op.length) for op in effect.ops)
            flows.add(effect.flow.kind)
            effect = effect.otherwise

    for fac in load_content().facs:
        for _, section in fac.sections():
            walk(section.effect)
    for length in ("3min", "5min", "10min", "match"):
        assert ("penalty", length) in ops
    for length in ("new_ball", "period", "match", "matches", "d10_matches", "killed"):
        assert ("injury", length) in ops
    for length in ("matches", "season", "lifetime"):
        assert ("ban", length) in ops
    assert ("rest", "new_ball") in ops and ("goal", "") in ops
    assert flows == {"control", "retain", "turnover", "fire", "catch", "tow"}


def test_matrix_covers_every_pair_exactly_once_as_the_seed_prints_it():
    content = load_content()
    assert len(content.matrix) == 18
    assert content.matrix_lookup[("GOAL", "GOAL")].description == (
        "Goal is scored by the Skater or Catcher."
    )
    assert content.matrix_lookup[("PASS", EMPTY)].outcome == "pass_goal"
    assert content.matrix_lookup[("Bkr", "Bkr")].outcome == "biker_duel"


def test_penalty_legend_three_minutes_is_six_cards():
    legend = load_content().penalties
    assert (legend["3min"].minutes, legend["3min"].facs) == (3, 6)


def test_generated_cards_obey_the_seed_constraints():
    for seed in range(5):
        for card in generate_roster(seed, "Houston").players:
            assert card.offense.count(EVT) == 1 and card.defense.count(EVT) == 1
            assert PASS not in card.defense
            if card.position == BIKER:
                assert BKR not in card.offense and BKR not in card.defense
            assert len(card.offense) == len(card.defense) == 10


def test_player_tables_favour_stars_and_catchers_pass_more_than_they_score():
    content = load_content()

    def mean(position, experience, result, column="offense"):
        tables = content.offense_tables if column == "offense" else content.defense_tables
        rows = tables[position][experience]
        return sum(row.get(result, 0) for row in rows) / len(rows)

    for position in POSITIONS:
        goals = [mean(position, experience, "GOAL") for experience in EXPERIENCES]
        assert goals[0] > goals[1] > goals[2], position
        conceded = [mean(position, e, "GOAL", "defense") for e in EXPERIENCES]
        assert conceded[0] < conceded[1] < conceded[2], position
    for experience in EXPERIENCES:
        assert mean("catcher", experience, "PASS") > mean("catcher", experience, "GOAL")


def mutate(change) -> dict:
    raw = copy.deepcopy(raw_facs())
    change(raw["cards"])
    return raw


def test_loader_accepts_the_shipped_deck():
    assert len(parse_facs(raw_facs())) == 60


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda cards: cards[4].pop("event"), "missing 'event'"),
        (lambda cards: cards.pop(), "must hold 60 cards"),
        (
            lambda cards: cards[0]["event"]["effect"].update(
                ops=[{"kind": "explode", "who": "handler"}]
            ),
            "unknown effect type 'explode'",
        ),
        (
            lambda cards: (
                cards[0]["action"]["effect"].update(
                    flow={"kind": "control", "who": "offense.Skater9"}, when=None
                )
                or cards[0]["action"]["effect"].pop("when")
                or cards[0]["action"]["effect"].pop("otherwise")
            ),
            "bad slot 'Skater9'",
        ),
        (
            lambda cards: cards[0]["ball_fires"].update(
                effect={"ops": [], "flow": {"kind": "retain"}}
            ),
            "flow 'retain' is not allowed in the ball_fires section",
        ),
        (
            lambda cards: cards[0]["ball_fires"].update(
                effect={"ops": [], "flow": {"kind": "catch", "who": "offense.Catcher1"}}
            ),
            "team 'offense' cannot be named",
        ),
        (
            lambda cards: cards[0]["event"].update(
                effect={
                    "ops": [{"kind": "goal", "who": "offense.Biker1"}],
                    "flow": {"kind": "fire"},
                }
            ),
            "a biker cannot score",
        ),
        (
            lambda cards: cards[0]["event"].update(
                effect={
                    "ops": [{"kind": "goal", "who": "offense.random_player"}],
                    "flow": {"kind": "fire"},
                }
            ),
            "a biker cannot score",
        ),
        (
            lambda cards: cards[0]["action"].update(
                effect={"ops": [], "flow": {"kind": "control", "who": "defense.random_player"}}
            ),
            "a biker never handles the ball",
        ),
        (
            lambda cards: cards[0]["event"].update(
                effect={
                    "ops": [{"kind": "penalty", "who": "handler", "length": "7min"}],
                    "flow": {"kind": "fire"},
                }
            ),
            "unknown penalty length '7min'",
        ),
        (
            lambda cards: cards[0]["event"].update(
                effect={"ops": [{"kind": "goal", "who": "handler"}], "flow": {"kind": "retain"}}
            ),
            "after a goal the ball must fire again",
        ),
        (
            lambda cards: cards[0]["event"].update(
                effect={"ops": [], "flow": {"kind": "fire"}, "when": {"who": "handler"}}
            ),
            "a 'when' needs an 'otherwise'",
        ),
        (lambda cards: cards[7]["action"].update(text="  "), "empty text"),
        (
            lambda cards: cards[0]["action"].update(
                effect={
                    "ops": [],
                    "flow": {"kind": "control", "who": "handler", "defender": "offense.Biker1"},
                }
            ),
            "the defender must be a defense player",
        ),
        (lambda cards: cards[2].update(index=99), "card 3 is numbered 99"),
        (
            lambda cards: cards[0]["attack_biker"].update(
                effect={
                    "ops": [{"kind": "injury", "who": "victim", "length": "forever"}],
                    "flow": {"kind": "fire"},
                }
            ),
            "unknown injury length 'forever'",
        ),
        (
            lambda cards: cards[0]["event"].update(
                effect={
                    "ops": [{"kind": "rest", "who": "attacker", "length": "new_ball"}],
                    "flow": {"kind": "fire"},
                }
            ),
            "unknown place 'attacker' in the event section",
        ),
    ],
)
def test_loader_rejects_bad_cards_with_a_clear_message(change, message):
    with pytest.raises(ContentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_facs(mutate(change))


def test_matrix_loader_rejects_a_missing_pair_and_a_duplicate():
    lines = raw_matrix()
    with pytest.raises(ContentError, match="no line for GOAL vs GOAL"):
        parse_matrix(lines[1:])
    with pytest.raises(ContentError, match="already on the matrix"):
        parse_matrix([*lines, lines[0]])
    bad = copy.deepcopy(lines)
    bad[0]["outcome"] = "celebrate"
    with pytest.raises(ContentError, match="unknown outcome 'celebrate'"):
        parse_matrix(bad)


def raw_tables() -> dict:
    return json.loads((DATA_DIR / "player_tables.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("column", "position", "row", "message"),
    [
        ("offense", "skater", {"GOAL": 5, "Att": 2, "Bkr": 1, "LOSE": 1, "EVT": 1, "PASS": 1},
         "10 results"),
        ("defense", "skater", {"GOAL": 3, "Att": 3, "Bkr": 2, "LOSE": 0, "EVT": 2},
         "exactly one EVT"),
        ("defense", "catcher", {"GOAL": 3, "Att": 3, "PASS": 1, "LOSE": 2, "EVT": 1},
         "unknown field"),
        ("offense", "biker", {"GOAL": 3, "Att": 3, "Bkr": 1, "LOSE": 2, "EVT": 1},
         "Bkr never appears on a biker's card"),
        ("offense", "skater", {"GOAL": "3", "Att": 3, "Bkr": 1, "LOSE": 1, "EVT": 1, "PASS": 1},
         "counts must be whole numbers"),
    ],
)  # fmt: skip
def test_player_table_loader_rejects_rows_that_break_the_card_rules(column, position, row, message):
    raw = raw_tables()
    raw[column][position]["star"] = [row]
    with pytest.raises(ContentError, match=message):
        parse_player_tables(raw)


def test_random_player_chart_loader_rejects_a_biker_in_the_skater_catcher_column():
    chart = json.loads((DATA_DIR / "charts.json").read_text(encoding="utf-8"))["random_player"]
    assert parse_random_player_chart(chart)[0][0] == "Biker1"
    chart["skater_catcher"][0] = "Biker1"
    with pytest.raises(ContentError, match="no bikers"):
        parse_random_player_chart(chart)
    chart["skater_catcher"] = chart["skater_catcher"][:9]
    with pytest.raises(ContentError, match="one entry per D10 face"):
        parse_random_player_chart(chart)
