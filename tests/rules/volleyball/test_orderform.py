"""The seed's text order form: a printed form reads back to the same orders, a form typed
by hand in the seed's layout is understood, and malformed forms are refused with every
problem named by its line."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.volleyball.match import default_match_orders
from rules.volleyball.models import Fixture, Player, Team
from rules.volleyball.orderform import (
    format_order_form,
    format_round_forms,
    parse_order_form,
    parse_order_forms,
    round_orders_from_forms,
)
from rules.volleyball.orders import (
    Concept,
    LevelPoints,
    PlayerSlot,
    Position,
    RoundOrders,
    SetOrder,
    SpyOrder,
    TrainingOrder,
    VolleyballError,
)


def make_team() -> Team:
    levels = [
        ("Ann de Vries", 12, 10),
        ("Bob", 10, 12),
        ("Cees Jan", 14, 9),
        ("Dirk", 9, 14),
        ("Eva", 11, 11),
        ("Fenna", 13, 8),
        ("Gijs", 8, 13),
        ("Hanna", 10, 10),
        ("Ids", 12, 12),
    ]
    return Team("Red Rockets", [Player(n, "B", o, d) for n, o, d in levels], special_points=60)


def filled_orders(team: Team):
    orders = default_match_orders(team, opponent="Blue Whales", home=True, match_number=2)
    first = orders.sets[0]
    first.slots = [
        PlayerSlot("Cees Jan", Position.SETTER),
        PlayerSlot("Fenna", Position.ATTACKER),
        PlayerSlot("Ann de Vries", Position.ATTACKER, tired_from_ol=4),
        PlayerSlot("Ids", Position.ATTACKER),
        PlayerSlot("Dirk", Position.BLOCKER),
        PlayerSlot("Gijs", Position.DEFENDER),
    ]
    first.concept, first.risk = Concept.OFFENSIVE, 8
    first.home_advantage = LevelPoints(10, 4)
    first.devotion = LevelPoints(6, 0)
    orders.sets[2].special = LevelPoints(0, 12)
    orders.sets[3].risk = 9
    return orders


def test_a_filled_form_reads_back_to_the_same_orders():
    team = make_team()
    orders = filled_orders(team)
    text = format_order_form(
        team,
        orders=orders,
        training=[TrainingOrder("Bob", 1, 0), TrainingOrder("Ids", 1, 1)],
        spy=SpyOrder("Green Geckos", 2, True, "Yellow Yaks"),
    )
    for reader_team in (team, None):  # with or without the roster to match names
        form = parse_order_form(text, reader_team)
        assert form.match_orders == orders
        assert (form.team, form.opponent, form.home, form.match_number) == (
            "Red Rockets",
            "Blue Whales",
            True,
            2,
        )
        assert form.training == [TrainingOrder("Bob", 1, 0), TrainingOrder("Ids", 1, 1)]
        assert form.spy == SpyOrder("Green Geckos", 2, True, "Yellow Yaks")


def test_the_printed_form_shows_the_bots_levels_and_totals():
    team = make_team()
    text = format_order_form(team, orders=filled_orders(team))
    lines = text.splitlines()
    # Cees Jan 14/9 as setter: OL 14 + 20 % (2.8 -> 3) = 17, DL 9 - 2 = 7.
    cees = next(line for line in lines if line.startswith("Cees Jan"))
    assert cees.split()[2:] == ["14", "9", "1", "17", "7"]
    assert "TOTAL USED DEVOTION POINTS (Whole match): 6" in lines
    assert "TOTAL USED SPECIAL POINTS (Whole match): 12" in lines
    assert lines[1] == "HOMEPLAY" and "AGAINST: Blue Whales" in lines


def test_a_hand_typed_form_in_the_seed_layout_is_understood():
    text = """
    VOLLEYBALL
    OUTBOUND
    DIVISION NO. 1
    MATCH NO. 1
    TEAM : Red Rockets
    AGAINST: Blue Whales
    SET 1
    PLAYER  OL DL Code OL DL
    cees jan 1
    Fenna 2
    Ann de Vries 12 10 2 13 9
    Ids   attacker
    Dirk  5
    Gijs  4
    TACTICAL CONCEPT   Concept code: OC
    RISK FACTOR 7
    DEVOTION Pts. OL: 5
    SET 2
    """
    for number in range(2, 6):
        if number > 2:
            text += f"SET {number}\n"
        text += "Bob 3\nEva 3\nHanna 3\nIds 3\nFenna 3\nAnn de Vries 3\n"
    form = parse_order_form(text, make_team())
    first = form.match_orders.sets[0]
    assert form.home is False
    assert [(s.player, s.position) for s in first.slots] == [
        ("Cees Jan", Position.SETTER),
        ("Fenna", Position.ATTACKER),
        ("Ann de Vries", Position.ATTACKER),
        ("Ids", Position.ATTACKER),
        ("Dirk", Position.BLOCKER),
        ("Gijs", Position.DEFENDER),
    ]
    assert (first.concept, first.risk, first.devotion) == (Concept.OFFENSIVE, 7, LevelPoints(5, 0))
    assert form.match_orders.sets[1].concept == Concept.NEUTRAL
    assert form.match_orders.sets[1].risk is None  # the lowest risk of Neutral, 3
    assert form.match_orders.sets[1].effective_risk == 3


def test_a_blank_form_lists_the_roster_and_reads_as_five_empty_sets():
    team = make_team()
    text = format_order_form(team, opponent="Blue Whales", home=False, match_number=1)
    assert "# Roster (OL/DL): Ann de Vries 12/10, Bob 10/12" in text
    assert "OUTBOUND" in text.splitlines()
    # The seed's codes and rule 3's risk ranges, printed for the manager filling it in.
    assert {
        "# Position codes: Setter = 1  Attacker = 2  Allround = 3  Defender = 4  Blocker = 5",
        "# Tactical concept codes: AC = 1  OC = 2  NC = 3  DC = 4  WC = 5",
        "# Risk: AC 9-12, OC 6-9, NC 3-9, DC 3-6, WC 0-3 (blank = the lowest).",
    } <= set(text.splitlines())
    form = parse_order_form(text, team)
    assert form.match_orders.sets == [SetOrder() for _ in range(5)]
    assert form.training == [] and form.spy is None


def test_malformed_lines_are_all_reported_with_their_line_numbers():
    text = "\n".join(
        [
            "VOLLEYBALL",  # 1
            "HOMEPLAY or OUTBOUND",  # 2
            "MATCH NO.: one",  # 3
            "TEAM: Red Rockets",  # 4
            "AGAINST: Blue Whales",  # 5
            "SET 1",  # 6
            "Ann de Vries 7",  # 7
            "Bob 1 2",  # 8 -> three values would be fine, two are ambiguous once Bob is known
            "TACTICAL CONCEPT Concept code: 9",  # 9
            "RISK FACTOR: high",  # 10
            "DEVOTION Pts. 5",  # 11
            "SET 7",  # 12
            "SET 1",  # 13
            "TRAINING",  # 14
            "Bob 11 12 12 12",  # 15
            "Eva 11 10 11 11",  # 16
            "TOTAL USED DEVOTION POINTS (Whole match): 4",  # 17
            "What is this?",  # 18
        ]
    )
    with pytest.raises(VolleyballError) as raised:
        parse_order_form(text, make_team())
    problems = raised.value.problems
    expected = [
        "Line 2: write either HOMEPLAY or OUTBOUND, not both.",
        "Line 3: MATCH NO. must be a whole number, not 'one'.",
        "Line 7: Ann de Vries' position code must be 1 (Setter), 2 (Attacker), 3 (Allround), "
        "4 (Defender) or 5 (Blocker), not '7'.",
        "Line 9: the concept code must be 1 (AC), 2 (OC), 3 (NC), 4 (DC) or 5 (WC), not '9'.",
        "Line 10: The risk factor must be a whole number, not 'high'.",
        "Line 11: write DEVOTION points as two numbers, OL then DL (like '4 0'); '5' is not.",
        "Line 12: there is no SET 7; a match has sets 1 to 5.",
        "Line 13: SET 1 appears twice.",
        "Line 15: the form says Bob is 11/12, but his levels are 10/12.",
        "Line 16: Eva's NEW levels cannot be lower than his OLD ones.",
        "Write HOMEPLAY or OUTBOUND at the top of the form.",
        "The form has no MATCH NO.",
        "The form has no SET 2, 3, 4, 5; every form has SET 1 to SET 5.",
        "TOTAL USED DEVOTION POINTS says 4, but the sets add up to 0.",
    ]
    for message in expected:
        assert message in problems
    assert any(p.startswith("Line 8: write the player's name") for p in problems)
    assert any(p.startswith("Line 18: I don't understand 'What is this?'") for p in problems)


def test_a_form_for_another_team_is_refused():
    team = make_team()
    text = format_order_form(team, opponent="Blue Whales")
    other = Team("Blue Whales", team.players)
    with pytest.raises(
        VolleyballError, match="This form is for Red Rockets, but your team is Blue Whales"
    ):
        parse_order_form(text, other)


def test_empty_text_is_refused():
    with pytest.raises(VolleyballError, match="The form is empty"):
        parse_order_form("   \n\n")


def test_two_forms_in_one_message_for_the_two_matches_of_a_round():
    team = make_team()
    first = filled_orders(team)
    second = default_match_orders(team, opponent="Green Geckos", home=False, match_number=1)
    text = format_order_form(team, orders=first) + "\n" + format_order_form(team, orders=second)
    forms = parse_order_forms(text, team)
    assert [f.match_orders for f in forms] == [first, second]
    broken = text.replace("MATCH NO.: 1", "MATCH NO.: x")
    with pytest.raises(VolleyballError) as raised:
        parse_order_forms(broken, team)
    assert any(p.startswith("Form 2: Line") for p in raised.value.problems)


def test_label_variants_people_type_are_understood():
    team = make_team()
    text = format_order_form(team, orders=filled_orders(team))
    text = text.replace("MATCH NO.: 2", "Match no 2").replace("DIVISION NO.: 1", "division: 1")
    text = text.replace(
        "TOTAL USED DEVOTION POINTS (Whole match): 6", "total used devotion points 6"
    )
    text = text.replace("RISK FACTOR: 8", "Risk 8").replace("Concept code: 2", "OC")
    form = parse_order_form(text, team)
    assert form.match_number == 2
    assert form.match_orders == filled_orders(team)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_no_form_however_mangled_breaks_the_reader(data):
    """Whatever a manager pastes, the reader either understands it or explains why."""
    team = make_team()
    lines = format_order_form(team, orders=filled_orders(team)).splitlines()
    for _ in range(data.draw(st.integers(0, 6))):
        index = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "garble", "duplicate", "insert"]))
        if action == "drop":
            lines.pop(index)
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif action == "garble":
            lines[index] = data.draw(st.text(max_size=40))
        else:
            lines.insert(index, data.draw(st.text(max_size=40)))
        if not lines:
            lines = [""]
    text = "\n".join(lines)
    for reader_team in (team, None):
        try:
            form = parse_order_form(text, reader_team)
        except VolleyballError as error:
            assert error.problems and all(isinstance(p, str) and p for p in error.problems)
        else:
            assert len(form.match_orders.sets) == 5


def round_fixtures() -> list[Fixture]:
    return [
        Fixture(3, 1, "Blue Whales", "Red Rockets"),
        Fixture(3, 1, "Green Geckos", "Yellow Yaks"),
        Fixture(3, 2, "Red Rockets", "Green Geckos"),
        Fixture(3, 2, "Yellow Yaks", "Blue Whales"),
    ]


def test_a_rounds_forms_print_and_read_back_as_the_rounds_orders():
    team = make_team()
    away = default_match_orders(team, opponent="Blue Whales", home=False, match_number=1)
    home = filled_orders(team)
    home.opponent = "Green Geckos"
    orders = RoundOrders(
        team="Red Rockets",
        matches=[away, home],
        training=[TrainingOrder("Eva", 0, 1)],
        spies=[SpyOrder("Yellow Yaks", 1, False, "Blue Whales")],
    )
    text = format_round_forms(team, round_fixtures(), orders)
    assert text.count("VOLLEYBALL") == 2
    forms = parse_order_forms(text, team)
    assert [len(f.training) for f in forms] == [1, 0]  # the training goes on one form only
    assert [(f.home, f.opponent, f.match_number) for f in forms] == [
        (False, "Blue Whales", 1),
        (True, "Green Geckos", 2),
    ]
    back = round_orders_from_forms(team.name, forms, round_fixtures())
    # The spy on Yellow Yaks against Blue Whales is about match 2, whatever form it was on.
    assert back.spies == [SpyOrder("Yellow Yaks", 2, False, "Blue Whales")]
    assert back.matches == [away, home] and back.training == orders.training


def test_blank_round_forms_name_each_opponent():
    text = format_round_forms(make_team(), round_fixtures())
    assert (
        "OUTBOUND\nDIVISION NO.: 1\nMATCH NO.: 1\nTEAM: Red Rockets\nAGAINST: Blue Whales" in text
    )
    assert (
        "HOMEPLAY\nDIVISION NO.: 1\nMATCH NO.: 2\nTEAM: Red Rockets\nAGAINST: Green Geckos" in text
    )


def test_round_forms_that_contradict_each_other_are_refused():
    team = make_team()
    orders = RoundOrders(
        team="Red Rockets",
        matches=[filled_orders(team), filled_orders(team)],
        training=[TrainingOrder("Eva", 0, 1)],
    )
    text = format_order_form(team, orders=orders.matches[0], training=orders.training)
    text += format_order_form(
        team,
        orders=orders.matches[1],
        training=orders.training,
        spy=SpyOrder("Green Geckos", 1, False, "Red Rockets"),
    )
    forms = parse_order_forms(text, team)
    with pytest.raises(VolleyballError) as raised:
        round_orders_from_forms(team.name, forms, round_fixtures())
    assert raised.value.problems == [
        "There are 2 forms for match 2; send one.",
        "Training is written on more than one form; write the round's training on one form.",
    ]
    forms[1].spy = SpyOrder("Green Geckos", 1, False, "Blue Whales")
    forms[1].match_number = 1
    forms[1].training = []
    with pytest.raises(VolleyballError) as raised:
        round_orders_from_forms(team.name, forms, round_fixtures())
    assert raised.value.problems == [
        "The spying order names Green Geckos against Blue Whales, but they do not play each "
        "other this round."
    ]
