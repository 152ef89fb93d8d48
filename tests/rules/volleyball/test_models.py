"""The league's data: JSON round trips, the seeded generator kept in the league, and the
season configuration's documented defaults."""

import json

from rules.volleyball.models import (
    AGE_CONTRACT,
    AGE_TALENT,
    Fixture,
    FixtureResult,
    League,
    Player,
    SeasonConfig,
    Sponsor,
    Team,
)
from rules.volleyball.orders import Concept, PlayerSlot, Position, SetOrder


def sample_league() -> League:
    red = Team(
        "Red",
        [
            Player("Ann", "A", 12, 10, trained_ol=2),
            Player("Tim", AGE_TALENT, 0, 0, talent_matches=3),
            Player(
                "Kasper", AGE_CONTRACT, 18, 10, contract_pay_per_round=150, contract_last_round=6
            ),
            Player("Lou", "D", 9, 9, lack_of_devotion=True),
        ],
        manager_id="4242",
        money=-250,
        special_points=120,
        sponsor="Champion Cola",
        last_lineup=[SetOrder([PlayerSlot("Ann", Position.BLOCKER)], Concept.WALL, 2)],
        below_credit_since_round=3,
    )
    config = SeasonConfig(sponsors=[Sponsor("Only", per_round=10)], special_points_per_season=99)
    fixture = Fixture(1, 2, "Red", "Blue")
    return League(
        config=config,
        teams=[red, Team("Blue")],
        season=2,
        round_number=4,
        schedule=[fixture, Fixture(2, 1, "Blue", "Red", "cup")],
        results=[FixtureResult(fixture, 3, 1, [(15, 10), (13, 15), (15, 4), (16, 14)])],
        seed=77,
    )


def test_a_league_survives_json_exactly():
    league = sample_league()
    rng = league.rng()
    rng.random()
    league.store_rng(rng)
    copy = League.from_dict(json.loads(json.dumps(league.to_dict())))
    assert copy == league
    assert copy.results[0].winner == "Red"


def test_the_generator_continues_where_the_stored_state_left_it():
    league = sample_league()
    rng = league.rng()
    first = [rng.randint(1, 100) for _ in range(5)]
    league.store_rng(rng)
    later = [rng.randint(1, 100) for _ in range(5)]
    restored = League.from_dict(json.loads(json.dumps(league.to_dict())))
    resumed = restored.rng()
    assert [resumed.randint(1, 100) for _ in range(5)] == later
    # And a fresh league with the same seed replays the same first draws.
    fresh = League(seed=77)
    assert [fresh.rng().randint(1, 100) for _ in range(1)] == first[:1]


def test_default_season_configuration():
    config = SeasonConfig()
    assert config.starting_money == 750
    assert config.max_points_per_player == 24
    assert config.min_players == 6
    assert config.talent_scouts_per_season == 3
    assert config.player_points_total == 120
    # Rule 4: 24 home-advantage points at the start, growing during the season.
    assert config.home_advantage_points(1) == 24
    assert config.home_advantage_points(5) == 24 + 4 * config.home_advantage_growth_per_round
    assert SeasonConfig.from_dict({}) == config
    assert SeasonConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config


def test_names_are_found_case_insensitively():
    league = sample_league()
    assert league.team("red").name == "Red"
    assert league.team("red").player(" ANN ").name == "Ann"
    assert league.team("green") is None
