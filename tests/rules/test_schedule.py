"""The one round robin both leagues play (rules/schedule.py): every pair once (twice, home and
away, when asked), each team at most once a matchday, home and away balanced and alternating,
and both leagues' schedules made from it."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise, permutations

import pytest

from rules.rollerball2.errors import RollerballError
from rules.rollerball2.season import double_round_robin as rollerball2_season
from rules.schedule import double_round_robin, round_robin
from rules.volleyball.managers import new_computer_league
from rules.volleyball.models import Fixture
from rules.volleyball.season import LeagueState
from rules.volleyball.season import double_round_robin as volleyball_season

COUNTS = range(2, 17)


def teams(count: int) -> list[str]:
    return [f"T{number}" for number in range(1, count + 1)]


def home_away_patterns(days: list[list[tuple[str, str]]]) -> dict[str, str]:
    """Each team's matches in order as a string of H and A (rest days left out)."""
    letters: dict[str, str] = {}
    for day in days:
        for home, away in day:
            letters[home] = letters.get(home, "") + "H"
            letters[away] = letters.get(away, "") + "A"
    return letters


def breaks(pattern: str) -> int:
    """Two home or two away matches in a row."""
    return sum(1 for first, second in pairwise(pattern) if first == second)


@pytest.mark.parametrize("count", COUNTS)
def test_a_round_robin_meets_every_pair_once_each_team_once_a_matchday(count):
    names = teams(count)
    days = round_robin(names)
    assert len(days) == count - 1 + count % 2
    fixtures = [fixture for day in days for fixture in day]
    assert Counter(frozenset(f) for f in fixtures) == Counter(
        frozenset(pair) for pair in combinations(names, 2)
    )
    for day in days:
        playing = [team for fixture in day for team in fixture]
        assert len(playing) == len(set(playing))
        assert len(day) == count // 2  # everyone plays but the one who rests (odd count)


@pytest.mark.parametrize("count", COUNTS)
def test_a_round_robin_balances_home_and_away_with_the_fewest_breaks(count):
    """Every team is at home half its matches (one more or fewer with an even count), and home
    and away alternate: n-2 breaks in all for an even n (the fewest possible), none for odd."""
    patterns = home_away_patterns(round_robin(teams(count)))
    homes = [pattern.count("H") for pattern in patterns.values()]
    assert max(homes) - min(homes) <= (1 if count % 2 == 0 else 0)
    assert sum(homes) == count * (count - 1) // 2
    assert sum(breaks(pattern) for pattern in patterns.values()) == (
        count - 2 if count % 2 == 0 else 0
    )
    assert all(breaks(pattern) <= 1 for pattern in patterns.values())


@pytest.mark.parametrize("count", COUNTS)
def test_a_double_round_robin_meets_every_pair_home_and_away(count):
    names = teams(count)
    days = double_round_robin(names)
    fixtures = [fixture for day in days for fixture in day]
    assert Counter(fixtures) == Counter(permutations(names, 2))  # every ordered pair once
    homes = Counter(home for home, _ in fixtures)
    assert set(homes.values()) == {count - 1}
    half = len(days) // 2
    assert days[half:] == [[(away, home) for home, away in day] for day in days[:half]]


def test_the_same_teams_give_the_same_schedule_and_any_hashable_team_will_do():
    assert round_robin(teams(9)) == round_robin(teams(9))
    assert round_robin([3, 1, 2]) == [[(1, 2)], [(2, 3)], [(3, 1)]]  # each at home once
    assert round_robin([]) == [] and round_robin(["solo"]) == []
    with pytest.raises(ValueError, match="listed twice"):
        round_robin(["A", "B", "A"])


@pytest.mark.parametrize("count", [2, 5, 8, 12])
def test_both_leagues_play_the_shared_schedule(count):
    names = teams(count)
    shared = double_round_robin(names)
    assert rollerball2_season(names) == shared
    fixtures = volleyball_season(names, matches_per_round=2)
    by_matchday = [
        [(f.home, f.away) for f in fixtures if (f.round_number, f.match_number) == key]
        for key in dict.fromkeys((f.round_number, f.match_number) for f in fixtures)
    ]
    assert by_matchday == shared


def test_the_leagues_keep_their_own_limits():
    with pytest.raises(RollerballError, match="only once"):
        rollerball2_season(["A", "A"])
    with pytest.raises(RollerballError, match="2 to 20 teams"):
        rollerball2_season(["A"])
    with pytest.raises(ValueError, match="at least one match"):
        volleyball_season(["A", "B"], matches_per_round=0)


def test_a_stored_volleyball_schedule_is_kept_not_made_again():
    """A league saved with another schedule (one made before the shared scheduler) loads and
    plays that schedule: a stored schedule is never rebuilt from the team list."""
    state = new_computer_league(4, seed=3)
    stored = state.to_dict()
    names = [team.name for team in state.league.teams]
    older = [
        Fixture(round_number, 1, home, away, "league")
        for round_number, (home, away) in enumerate(
            [(a, b) for a in names for b in names if a != b], start=1
        )
    ]
    stored["league"]["schedule"] = [fixture.to_dict() for fixture in older]
    loaded = LeagueState.from_dict(stored)
    assert loaded.league.schedule == older != state.league.schedule
    assert loaded.fixtures(1) == [older[0]] and loaded.total_rounds == len(older)
