"""A league's seats (docs/rules/volleyball.md, "Managers"): a manager joins with a new team or
takes a computer team as it is, and leaves when they delete their data; each change on the
league host, under the league's lock."""

from __future__ import annotations

from typing import Any

from cogs.volleyball.answers import TeamRefused, points_per_age
from cogs.volleyball.forms import parse_roster
from cogs.volleyball.league import Leagues
from cogs.volleyball.playing import decode, encode, round_key
from db import volleyball as store
from rules.volleyball import (
    LeagueState,
    Team,
    create_team,
    new_team_problems,
    release_seat,
    take_over_seat,
)
from ui import UserError, item, quote, shown
from ui.formats import plural


def free_seat(stored: store.StoredLeague, state: LeagueState, seat: str | None) -> Team:
    """The computer team whose seat a manager takes: the one named, or the first one."""
    if seat:
        team = state.league.team(seat)
        if team is None:
            raise UserError(f"There is no team called {quote(seat)} in {shown(stored.name)}.")
        if team.manager_id is not None:
            raise UserError(f"{shown(team.name)} has a manager; pick a computer team's seat.")
        return team
    for team in sorted(state.league.teams, key=lambda t: t.division):
        if team.manager_id is None:
            return team
    raise UserError(f"Every seat in {shown(stored.name)} has a manager.")


class Seats:
    """Managers joining and leaving a league."""

    def __init__(self, leagues: Leagues) -> None:
        self.leagues = leagues

    @property
    def db(self):
        return self.leagues.db

    async def release(self, league_id: int, user_id: int) -> str | None:
        """The user stops managing their team in the league (they deleted their data): the
        computer manages it from the next round; their orders on file go. Returns the team."""

        async def apply(stored: store.StoredLeague) -> str | None:
            team = await store.team_of(self.db, stored.id, user_id)
            if team is None:
                return None
            after = release_seat(decode(stored), team)

            async def drop(conn: Any) -> None:
                await store.remove_manager(conn, stored.id, user_id)

            await self.leagues.save(stored, state=encode(after), also=drop)
            return team

        team = await self.leagues.host.change(league_id, apply, shown=False)
        if team is not None:
            self.leagues.card.refresh_soon(league_id)
        return team

    async def join(
        self,
        league_id: int,
        user_id: int,
        *,
        seat: str | None,
        name: str | None = None,
        roster_text: str | None = None,
        form: bool = False,
    ) -> tuple[store.StoredLeague, str, str]:
        """A manager joins: with a roster, a new team (rule 1) in a computer team's seat;
        without, the computer team as it is (ruling 39). Returns the league, the team's name
        and the seat's old name. A team that breaks rule 1 raises TeamRefused listing every
        problem; with `form` (it came from the team form) its text is kept for Fix and send
        again."""
        roster = parse_roster(roster_text) if roster_text is not None else None

        async def apply(stored: store.StoredLeague) -> tuple[store.StoredLeague, str, str]:
            state = decode(stored)
            current = await store.team_of(self.db, stored.id, user_id)
            if current is not None:
                raise UserError(f"You manage {shown(current)} in {shown(stored.name)} already.")
            chosen = free_seat(stored, state, seat)
            new_team = None
            if roster is not None:
                config = state.league.config
                team_name = " ".join((name or roster.name or "").split())
                taken = [t.name for t in state.league.teams if t.name != chosen.name]
                problems = roster.problems + new_team_problems(
                    team_name, roster.players, config, taken
                )
                if problems:
                    if form:
                        season, number = round_key(state)
                        await store.keep_form(
                            self.db,
                            stored.id,
                            user_id,
                            "team",
                            season=season,
                            round_number=number,
                            fields={"name": name or "", "players": roster_text or ""},
                        )
                    raise TeamRefused(
                        "\n".join(
                            [
                                f"Your team was not created: {plural(len(problems)):problem}.",
                                *(item(p) for p in problems),
                                points_per_age(config.player_points_by_age),
                            ]
                        )
                    )
                new_team = create_team(
                    team_name,
                    roster.players,
                    config,
                    manager_id=str(user_id),
                    taken_team_names=taken,
                )
            after = take_over_seat(state, chosen.name, str(user_id), new_team)
            joined = new_team.name if new_team is not None else chosen.name

            async def add(conn: Any) -> None:
                await store.add_manager(conn, stored.id, user_id, joined)
                if joined != chosen.name:  # the seat plays under the new team's name now
                    await store.rename_opponent(
                        conn, stored.id, *round_key(state), chosen.name, joined
                    )

            try:
                stored = await self.leagues.save(stored, state=encode(after), also=add)
            except store.DuplicateManagerError:
                raise UserError(
                    f"You manage a team in {shown(stored.name)} already, or {shown(joined)} "
                    "has a manager."
                ) from None
            await store.drop_form(self.db, stored.id, user_id, "team")
            return stored, joined, chosen.name

        return await self.leagues.host.change(league_id, apply)
