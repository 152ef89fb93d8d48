"""The public round summary labels the Galaxy Cup's matches, and only them (found in the cog's
first rounds: a league match whose home team also played at home in the cup was labelled a cup
match, because the label was decided by the home team's name)."""

from __future__ import annotations

from rules.volleyball import all_computer_orders, new_league, run_round


def test_only_the_cup_matches_are_labelled_galaxy_cup():
    state = new_league([], total_teams=4, seed=3)
    outcome = run_round(state, all_computer_orders(state))
    cup = [
        f for f in outcome.state.league.schedule if f.competition == "cup" and f.round_number == 1
    ]
    league = outcome.state.fixtures(1, "league")
    # the case that was mislabelled: a league pairing that is also a cup pairing this round
    assert {(f.home, f.away) for f in cup} & {(f.home, f.away) for f in league}
    text = "\n".join(outcome.public)
    labelled = [
        line
        for line in text.splitlines()
        if line.startswith("Galaxy Cup: ") and " reach " not in line
    ]
    assert len(labelled) == len(cup)
    for fixture in league:
        assert any(
            line.startswith(f"{fixture.home} ") and f" {fixture.away} (" in line
            for line in text.splitlines()
        ), fixture
