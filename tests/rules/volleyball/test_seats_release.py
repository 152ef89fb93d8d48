"""A manager who leaves (or deletes their data) hands the team back to the computer."""

import pytest

from rules.volleyball import VolleyballError, new_league, release_seat, take_over_seat


def test_a_released_team_is_managed_by_the_computer_and_keeps_its_players():
    state = new_league([], total_teams=4, seed=3)
    seat = state.league.teams[0].name
    managed = take_over_seat(state, seat, "42")
    released = release_seat(managed, seat)
    assert managed.league.team(seat).manager_id == "42"
    assert released.league.team(seat).manager_id is None
    assert [p.name for p in released.league.team(seat).players] == [
        p.name for p in managed.league.team(seat).players
    ]
    # the state given is not changed
    assert managed.league.team(seat).manager_id == "42"
    with pytest.raises(VolleyballError, match="no team called"):
        release_seat(managed, "Nobody United")
