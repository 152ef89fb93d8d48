"""The line-up editor without Discord: who is offered for a slot, the two steps when more than
25 players fit, swaps, and picks a stale menu would make."""

from __future__ import annotations

import pytest

from cogs.rollerball2.lineup import candidates, current_lineup, groups, pick_message, place
from db.rollerball2 import Team
from rules.rollerball2 import Absence, RollerballError, generate_roster, import_roster


def team_of(roster, lineup=None) -> Team:
    return Team(1, 1, 1, roster.team, "#000000", "#ffffff", "1", roster, lineup, 0)


def test_an_injured_player_is_never_offered_and_cannot_be_picked():
    roster = generate_roster(3, "Houston")
    lineup = current_lineup(team_of(roster))
    hurt = lineup["Skater1"]
    assert hurt is not None
    roster.absences.append(Absence(hurt, "injury", "matches", 2, "broken jaw"))
    team = team_of(roster, lineup)
    assert hurt not in candidates(team, "Skater2")
    with pytest.raises(RollerballError, match="injured \\(2 matches\\)"):
        place(team, "Skater2", hurt)


def test_a_player_moved_from_another_slot_swaps_with_the_one_he_replaces():
    roster = generate_roster(3, "Houston")
    team = team_of(roster)
    lineup = current_lineup(team)
    first, second = lineup["Skater1"], lineup["Skater2"]
    assert second is not None
    assert first is not None
    new, note = place(team, "Skater1", second)
    assert new["Skater1"] == second and new["Skater2"] == first
    assert "Skater2" in note
    with pytest.raises(RollerballError, match="cannot play Biker1"):
        place(team, "Biker1", first)


def test_more_than_25_players_for_a_slot_are_offered_in_two_steps():
    # An imported roster may hold up to 40 players: here 30 skaters and 3 bikers.
    rows = [f"Skater {n},{n},skater,veteran" for n in range(1, 31)]
    rows += [f"Biker {n},{n},biker,rookie" for n in range(31, 34)]
    roster = import_roster("name,number,position,experience\n" + "\n".join(rows), "Big", 1)
    team = team_of(roster)
    fits = candidates(team, "Skater1")
    assert len(fits) > 25
    assert [len(chunk) for chunk in groups(fits)] == [25, len(fits) - 25]
    first = pick_message(team, "Skater1", None)
    options = first["view"].children[0].item.options
    assert [option.value for option in options] == ["g0", "g1"]
    second = pick_message(team, "Skater1", 1)
    assert [int(o.value) for o in second["view"].children[0].item.options] == fits[25:]
