"""Rollerball II statistics as database rows, on both backends: a finished match writes its
player and team rows and adds them to the totals of all time and of its season, once; matches
finished before the rows existed are counted once at start-up; the leaders, a player's and a
team's lines read back what the scoresheets say (rules.rollerball2.stats computes the same from
the scoresheets themselves)."""

from __future__ import annotations

import pytest

from db import rollerball2 as store
from db.database import Database
from db.games import create_game
from rules.rollerball2.coach import auto_play
from rules.rollerball2.engine import new_match, result
from rules.rollerball2.roster import generate_roster
from rules.rollerball2.stats import (
    LEADER_STATS,
    career_stats,
    leaders,
    lines_for,
    team_stats,
)

GUILD = 77


async def make_team(db: Database, name: str, seed: int) -> store.Team:
    return await store.create_team(
        db,
        guild_id=GUILD,
        owner_id=1,
        roster=generate_roster(seed, name),
        colour="#000000",
        colour2="#ffffff",
        seed=str(seed),
    )


async def finish(db: Database, home: store.Team, away: store.Team, seed: int, fixture=None):
    """A match between the two teams, played by the default coaches and recorded as the match
    host records a last move."""
    game_id = await create_game(
        db,
        game="rollerball2",
        guild_id=GUILD,
        channel_id=5,
        players=[0],
        state="{}",
        status="finished",
    )
    async with db.transaction() as conn:
        await store.add_match(
            conn,
            game_id=game_id,
            guild_id=GUILD,
            home_team_id=home.id,
            away_team_id=away.id,
            mode="simulate",
            fixture_id=fixture,
        )
    res = result(auto_play(new_match(seed, home.roster, away.roster))[0])
    async with db.transaction() as conn:
        await store.record_result(conn, game_id, res, {}, how="simulated")
    return game_id, res


async def test_a_finished_match_adds_its_rows_and_totals_once(db):
    houston, tokyo = await make_team(db, "Houston", 1), await make_team(db, "Tokyo", 2)
    played = []
    for seed in range(3):
        home, away = (houston, tokyo) if seed % 2 == 0 else (tokyo, houston)
        played.append(await finish(db, home, away, seed))
    results = [res for _, res in played]
    # The last move saved twice (a retry): nothing is counted again.
    async with db.transaction() as conn:
        await store.record_result(conn, played[0][0], results[0], {}, how="simulated")

    for team in (houston, tokyo):
        totals = await store.team_totals(db, GUILD, team.id)
        assert totals == team_stats(results, team.name)
        assert totals.played == 3
        for card in team.roster.players:
            mine = await store.player_totals(db, GUILD, team.id, card.number)
            assert mine == career_stats(lines_for(results, team.name, card.number))
    assert await store.matches_counted(db, GUILD) == 3
    for stat in LEADER_STATS:
        expected = [(x.team, x.number, x.value) for x in leaders(results, stat, 5)]
        got = [(x.team, x.number, x.value) for x in await store.leaders(db, GUILD, stat)]
        assert sorted(got, key=lambda x: -x[2]) == got  # ranked
        assert [x[2] for x in got] == [x[2] for x in expected]
    # All six tables in one query read the same as one at a time.
    tables = await store.leader_tables(db, GUILD, LEADER_STATS, count=5)
    for stat in LEADER_STATS:
        assert tables[stat] == await store.leaders(db, GUILD, stat)
    # Newest first, each with the score as played.
    history = await store.team_matches(db, houston.id)
    assert [m.game_id for m in history] == [game_id for game_id, _ in reversed(played)]
    newest = history[0]
    assert (newest.home_goals, newest.away_goals) == (results[2].home_score, results[2].away_score)
    assert newest.at_home and newest.opponent == "Tokyo"
    scorer = max(results[2].home.players, key=lambda line: line.goals)
    lines = await store.player_matches(db, houston.id, scorer.number, limit=2)
    assert [line.match.game_id for line in lines] == [played[2][0], played[1][0]]
    assert lines[0].stats.goals == scorer.goals
    # No season: nothing in a season's scope.
    assert await store.team_totals(db, GUILD, houston.id, scope=1) == store.TeamStats()


async def test_a_season_fixture_counts_in_its_season_and_all_time(db):
    houston, tokyo = await make_team(db, "Houston", 1), await make_team(db, "Tokyo", 2)
    season = await store.create_season(
        db,
        guild_id=GUILD,
        channel_id=5,
        name="Spring",
        created_by=1,
        starts_at=0.0,
        hours=24,
        schedule=[[(houston.id, tokyo.id)], [(tokyo.id, houston.id)]],
        rosters={houston.id: houston.roster, tokyo.id: tokyo.roster},
        timer_event="test_deadline",
    )
    fixture = (await store.fixtures_of(db, season.id, 1))[0]
    _, friendly = await finish(db, houston, tokyo, 10)
    league_id, league = await finish(db, houston, tokyo, 11, fixture=fixture.id)
    # A second match may not be stored as the fixture already played (it would keep its teams
    # busy for nothing): played as a friendly, it does not count in the season.
    with pytest.raises(store.FixtureTaken):
        await finish(db, houston, tokyo, 12, fixture=fixture.id)
    _, late = await finish(db, houston, tokyo, 12)

    in_season = await store.team_totals(db, GUILD, houston.id, scope=season.id)
    assert in_season == team_stats([league], "Houston")
    assert await store.team_totals(db, GUILD, houston.id) == team_stats(
        [friendly, league, late], "Houston"
    )
    assert await store.matches_counted(db, GUILD, season.id) == 1
    history = await store.team_matches(db, houston.id, season_id=season.id)
    assert [m.game_id for m in history] == [league_id]
    top = await store.leaders(db, GUILD, "goals", scope=season.id, count=50)
    assert sum(x.value for x in top) == league.home_score + league.away_score


async def test_matches_finished_before_the_rows_existed_are_counted_once(db):
    houston, tokyo = await make_team(db, "Houston", 1), await make_team(db, "Tokyo", 2)
    played = [await finish(db, houston, tokyo, seed) for seed in range(4)]
    results = [res for _, res in played]
    # As a database migrated from before: the results stored, no rows, nothing counted.
    async with db.transaction() as conn:
        for table in (
            "rollerball2_player_matches",
            "rollerball2_team_matches",
            "rollerball2_player_totals",
            "rollerball2_team_totals",
        ):
            await conn.execute(f"DELETE FROM {table}")
        await conn.execute("UPDATE rollerball2_matches SET counted = 0")
    assert await store.team_totals(db, GUILD, houston.id) == store.TeamStats()

    assert await store.count_old_matches(db, batch=3) == 4
    assert await store.count_old_matches(db) == 0  # the next start-up: nothing left
    assert await store.team_totals(db, GUILD, houston.id) == team_stats(results, "Houston")
    assert [m.game_id for m in await store.team_matches(db, tokyo.id)] == [
        game_id for game_id, _ in reversed(played)
    ]
