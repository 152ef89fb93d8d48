"""Rule 1 (a new team: at least six players, each level at least 1, ratio at most 2:1, at
most 24 points, the season's PP per age category, $750) and rule 6's talent scouts."""

import pytest

from rules.names import BadName, clean_name
from rules.volleyball.creation import PlayerDraft, create_team, new_team_problems, scout_talent
from rules.volleyball.models import AGE_TALENT, SeasonConfig
from rules.volleyball.orders import VolleyballError

CONFIG = SeasonConfig(player_points_by_age={"A": 20, "B": 24, "C": 32, "D": 24, "E": 20})


def good_players() -> list[PlayerDraft]:
    return [
        PlayerDraft("Anna", "A", 10, 10),  # A: 20
        PlayerDraft("Bert", "B", 12, 12),  # B: 24
        PlayerDraft("Cora", "C", 8, 8),
        PlayerDraft("Dirk", "C", 10, 6),  # C: 32
        PlayerDraft("Elsa", "D", 16, 8),  # D: 24 (2:1 exactly)
        PlayerDraft("Frits", "E", 7, 7),  # E: 14 of 20
    ]


def test_a_valid_team_starts_with_750_dollars_and_the_season_special_points():
    team = create_team("Red Rockets", good_players(), CONFIG, manager_id="123")
    assert team.money == 750
    assert team.special_points == CONFIG.special_points_per_season
    assert [p.name for p in team.players] == ["Anna", "Bert", "Cora", "Dirk", "Elsa", "Frits"]
    assert team.player("elsa").ol == 16 and team.manager_id == "123"


def test_fewer_than_six_players_is_refused():
    assert "A team needs at least 6 players; this one has 5." in new_team_problems(
        "Red", good_players()[:5], CONFIG
    )


@pytest.mark.parametrize(
    ("draft", "message"),
    [
        (PlayerDraft("Zero", "E", 0, 5), "Zero: each level needs at least 1 point (OL 0, DL 5)."),
        (
            PlayerDraft("Lop", "E", 13, 6),
            "Lop: OL 13 and DL 6 are further apart than 2:1; the higher level may be at most twice the lower.",
        ),
        (
            PlayerDraft("Old", "F", 5, 5),
            "Old: the age category must be one of A, B, C, D or E (got 'F').",
        ),
    ],
)
def test_each_player_rule(draft, message):
    players = [*good_players()[:5], draft]
    assert message in new_team_problems("Red", players, CONFIG)


def test_more_than_24_points_for_a_player_is_refused():
    config = SeasonConfig(player_points_by_age={"A": 100, "B": 0, "C": 0, "D": 0, "E": 0})
    players = [PlayerDraft(f"Player {c}", "A", 13, 12) for c in "ABCDEF"]
    problems = new_team_problems("Red", players, config)
    assert "Player A: 25 points is more than the 24 a player may have." in problems


def test_an_age_category_cannot_spend_more_than_its_points():
    players = good_players()
    players[0] = PlayerDraft("Anna", "A", 11, 10)
    assert new_team_problems("Red", players, CONFIG) == [
        "Age A players have 21 points in all; this season a new team has 20 points for Age A."
    ]


def test_every_problem_is_reported_at_once_and_no_team_is_made():
    players = [
        PlayerDraft("Anna", "A", 0, 1),
        PlayerDraft("anna", "A", 3, 9),
        PlayerDraft("", "B", 5, 5),
    ]
    with pytest.raises(VolleyballError) as raised:
        create_team("", players, CONFIG)
    problems = raised.value.problems
    assert "The team name cannot be empty: give 1 to 32 visible characters." in problems
    assert "A team needs at least 6 players; this one has 3." in problems
    assert "Two players are called 'anna'; each needs his own name." in problems
    assert "The player name cannot be empty: give 1 to 32 visible characters." in problems
    assert len(problems) >= 6


@pytest.mark.parametrize("bad", ["   ", "a\x00b", "bell\x07", "abc\u202edcba", "zero\u200bwidth"])
def test_team_and_player_names_go_through_the_one_name_validator(bad):
    """rules.names.clean_name: the same names refused, with the same message, as everywhere."""
    players = [*good_players()[:5], PlayerDraft(bad, "E", 7, 7)]
    problems = new_team_problems(bad, players, CONFIG)
    with pytest.raises(BadName) as caught:
        clean_name(bad, "The team name")
    assert str(caught.value) in problems
    assert any(p.startswith("The player name ") and "visible" in p for p in problems)


def test_a_name_is_stored_trimmed_and_folded():
    team = create_team("  Red   Rockets ", good_players(), CONFIG)
    assert team.name == "Red Rockets"


def test_team_names_are_unique_in_the_league():
    assert "There is already a team called 'Red' in this league." in new_team_problems(
        "Red", good_players(), CONFIG, taken_team_names=["red"]
    )


def test_names_may_not_end_in_a_digit_because_the_form_reads_numbers():
    players = [*good_players()[:5], PlayerDraft("Frits 2", "E", 7, 7)]
    assert "The player name 'Frits 2' must not start or end with a digit." in new_team_problems(
        "Red", players, CONFIG
    )


def test_three_talents_a_season_at_zero_levels():
    team = create_team("Red", good_players(), CONFIG)
    for name in ("Tim", "Tom", "Tess"):
        team = scout_talent(team, name, CONFIG)
    talents = [p for p in team.players if p.age == AGE_TALENT]
    assert [(p.name, p.ol, p.dl) for p in talents] == [("Tim", 0, 0), ("Tom", 0, 0), ("Tess", 0, 0)]
    with pytest.raises(VolleyballError) as raised:
        scout_talent(team, "Toby", CONFIG)
    assert raised.value.problems == [
        "Red has already scouted 3 talents this season; a team may scout 3."
    ]


def test_a_talent_needs_a_name_of_his_own():
    team = create_team("Red", good_players(), CONFIG)
    with pytest.raises(VolleyballError, match="Red already has a player called 'Anna'"):
        scout_talent(team, "anna", CONFIG)
    assert team.talents_scouted == 0


def test_the_smallest_legal_team_cannot_field_every_set_and_says_what_more_players_change():
    """Six players with all of the season's points tire out before set 4 (rule 2: 5 level
    points a set played, both levels at 1 or more to play); a seventh or eighth player, the
    same points spread over them, fields more."""
    from rules.volleyball.creation import spread_roster, squad_depth
    from rules.volleyball.lineups import plan_sets

    six = spread_roster(CONFIG, 6)
    assert six is not None and new_team_problems("Red Rockets", six, CONFIG) == []
    depth = squad_depth(six, CONFIG)
    team = create_team("Red Rockets", six, CONFIG)
    assert depth.sets == [bool(s) for s in plan_sets(team)].index(False) == 3
    assert depth.with_more == [(7, 4), (8, 5)]


def test_a_generated_roster_is_legal_fields_every_set_and_is_the_same_for_the_same_seed():
    from rules.volleyball.creation import generated_roster, generated_team_name, squad_depth

    first = generated_roster(CONFIG, 7)
    assert new_team_problems(generated_team_name(7, []), first, CONFIG) == []
    assert squad_depth(first, CONFIG).sets == 5 and squad_depth(first, CONFIG).with_more == []
    assert len(first) == 8  # the fewest that field five sets with this season's points
    assert len({p.name for p in first}) == len(first)
    assert generated_roster(CONFIG, 7) == first
    assert generated_roster(CONFIG, 8) != first
    assert generated_team_name(7, ["Harbour Herons"]) != "Harbour Herons"
