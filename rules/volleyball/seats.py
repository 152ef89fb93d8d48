"""A user joins a running league by taking over a computer team's seat (ruling 39).

The league's schedule is fixed for the season, so a new team cannot simply be added: it
takes a computer team's seat, its fixtures, its results so far (the table row carries over:
ruling, docs/rules/volleyball.md) and its place in the Galaxy Cup. The user either manages
the computer team as it is, or brings a new team (creation.create_team) which replaces the
seat's roster, money and points under its own name.
"""

from __future__ import annotations

from dataclasses import replace

from rules.volleyball.models import Fixture, FixtureResult, Team
from rules.volleyball.orders import VolleyballError
from rules.volleyball.season import LeagueState


def _renamed(fixture: Fixture, old: str, new: str) -> Fixture:
    if old not in (fixture.home, fixture.away):
        return fixture
    return replace(
        fixture,
        home=new if fixture.home == old else fixture.home,
        away=new if fixture.away == old else fixture.away,
    )


def rename_team(state: LeagueState, old: str, new: str) -> None:
    """Every mention of team `old` in the state becomes `new` (schedule, results, cup,
    transfer list); past seasons keep the name the team had then."""
    league = state.league
    league.schedule = [_renamed(f, old, new) for f in league.schedule]
    league.results = [
        r
        if old not in (r.fixture.home, r.fixture.away)
        else FixtureResult(_renamed(r.fixture, old, new), r.home_sets, r.away_sets, r.set_scores)
        for r in league.results
    ]
    state.cup.entrants = [new if n == old else n for n in state.cup.entrants]
    if state.cup.winner == old:
        state.cup.winner = new
    state.transfer_list = [
        replace(t, seller=new) if t.seller == old else t for t in state.transfer_list
    ]


def take_over_seat(
    state: LeagueState, seat: str, manager_id: str, team: Team | None = None
) -> LeagueState:
    """The state with computer team `seat` managed by `manager_id`; with `team`, that team
    replaces the seat's (name, roster, money, points). `state` is not changed. Raises
    VolleyballError when the seat is not a computer team or the new name is taken."""
    current = state.league.team(seat)
    if current is None:
        raise VolleyballError(f"There is no team called {seat} in this league.")
    if current.manager_id is not None:
        raise VolleyballError(
            f"{current.name} is managed by someone already; only a computer team's seat can be "
            "taken over."
        )
    if team is not None:
        clash = state.league.team(team.name)
        if clash is not None and clash is not current:
            raise VolleyballError(f"There is already a team called {team.name} in this league.")
    working = state.copy()
    index = next(i for i, t in enumerate(working.league.teams) if t.name == current.name)
    if team is None:
        working.league.teams[index].manager_id = manager_id
        return working
    joining = Team.from_dict(team.to_dict())
    joining.manager_id = manager_id
    joining.last_lineup = []
    working.league.teams[index] = joining
    if joining.name != current.name:
        rename_team(working, current.name, joining.name)
    return working


def release_seat(state: LeagueState, team_name: str) -> LeagueState:
    """The state with `team_name` managed by the computer again (its manager left the league or
    deleted their data); the team keeps its players, money and results. `state` is not changed.
    Raises VolleyballError for an unknown team."""
    current = state.league.team(team_name)
    if current is None:
        raise VolleyballError(f"There is no team called {team_name} in this league.")
    working = state.copy()
    index = next(i for i, t in enumerate(working.league.teams) if t.name == current.name)
    working.league.teams[index].manager_id = None
    return working
