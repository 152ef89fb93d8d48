"""The standings as the bot reads them (db/tournaments.py `standings`: the running totals stored
with each result) equal the standings counted from every stored game, on both backends: a
seeded random tournament of 14 players over 6 rounds (two-player games and tables, byes,
forfeits, double losses, shared points, late joiners, withdrawals), its results stored in a
shuffled order, read after every result and after every round; and again once a player is
forgotten (/privacy), and for a tournament made before the totals were kept; the first places
alone (`top`) are the whole list's first places."""

from __future__ import annotations

from dataclasses import replace

import pytest

from db import tournaments as store
from rules.tournament import Entrant, Game, standings
from tests.support.tournament_events import tournament

pytestmark = pytest.mark.asyncio

ROUNDS = 6


async def stored_view(db, tournament_id: int):
    t = await store.load(db, tournament_id)
    assert t is not None
    entrants = [
        Entrant(str(row.user_id), row.rating, row.joined_round, row.withdrawn_from)
        for row in await store.entrants(db, tournament_id)
    ]
    games = [
        Game(row.round, tuple(map(str, row.seats)), row.points, row.played)
        for row in await store.games(db, tournament_id)
        if row.points is not None and row.round <= t.complete
    ]
    return t, entrants, games


async def assert_read_equals_recount(db, tournament_id: int) -> None:
    t, entrants, games = await stored_view(db, tournament_id)
    read = await store.standings(db, t, entrants)
    counted = standings(entrants, games, t.complete)
    assert [s.entrant.id for s in read] == [s.entrant.id for s in counted]
    for got, expected in zip(read, counted, strict=True):
        assert got.score == pytest.approx(expected.score)
        assert got.buchholz == pytest.approx(expected.buchholz)
        assert got.sonneborn_berger == pytest.approx(expected.sonneborn_berger)
        assert got.games == expected.games
        assert (got.head_to_head is None) == (expected.head_to_head is None)
    # the first places alone (the card's, the podium's), ranked among those whose score
    # reaches the cut's, are the whole list's first places
    for top in range(1, len(entrants) + 1):
        first = await store.standings(db, t, entrants, top=top)
        assert first == read[:top], top


async def play(db, seed: int) -> int:
    entrants, by_round = tournament(seed, 14, ROUNDS)
    ids = {e.id: 1000 + int(e.id[1:]) for e in entrants}
    tournament_id = await store.create(
        db,
        guild_id=1,
        channel_id=2,
        game="rocketball",
        format="swiss",
        rounds=ROUNDS,
        round_minutes=60,
        rated=True,
        cap=64,
        signup_until=0.0,
        created_by=3,
        close_timer="test_close",
    )
    t = await store.load(db, tournament_id)
    assert t is not None
    for e in entrants:
        await store.join(db, t, ids[e.id], e.rating, e.joined)
        if e.withdrawn_from is not None:
            await store.withdraw(db, tournament_id, ids[e.id], e.withdrawn_from)
    for number, games in enumerate(by_round, start=1):
        t = await store.load(db, tournament_id)
        assert t is not None
        tables = [tuple(ids[s] for s in g.seats) for g in games if len(g.seats) > 1]
        byes = [(ids[g.seats[0]], 1.0) for g in games if len(g.seats) == 1]
        assert await store.start_round(db, t, number, tables, byes, 1e12, "test_deadline")
        await assert_read_equals_recount(db, tournament_id)
        rows = {(row.round, row.seats): row for row in await store.games(db, tournament_id)}
        for game in games:
            if len(game.seats) == 1:
                continue
            row = rows[number, tuple(ids[s] for s in game.seats)]
            assert game.points is not None
            async with db.transaction() as conn:
                assert await store.decide(conn, row.id, game.points, played=game.played)
                # a result stored twice counts once (the first stands)
                assert not await store.decide(conn, row.id, game.points, played=True)
            await assert_read_equals_recount(db, tournament_id)
    t = await store.load(db, tournament_id)
    assert t is not None and await store.finish(db, t)
    await assert_read_equals_recount(db, tournament_id)
    return tournament_id


@pytest.mark.parametrize("seed", [3, 11])
async def test_the_stored_totals_give_the_standings_counted_from_every_game(db, seed):
    await play(db, seed)


async def test_the_totals_are_counted_again_when_a_player_is_forgotten(db):
    tournament_id = await play(db, 5)
    async with db.transaction() as conn:
        await store.forget_user(conn, 1003, 999)
    await assert_read_equals_recount(db, tournament_id)
    rows = await db.fetch_all(
        "SELECT 1 FROM tournament_totals WHERE user_id = 1003 UNION ALL"
        " SELECT 1 FROM tournament_meetings WHERE user_id = 1003 OR opponent_id = 1003"
    )
    assert rows == []


async def test_a_tournament_from_before_the_totals_is_counted_when_first_read(db):
    tournament_id = await play(db, 7)
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM tournament_totals WHERE tournament_id = ?", (tournament_id,)
        )
        await conn.execute(
            "DELETE FROM tournament_meetings WHERE tournament_id = ?", (tournament_id,)
        )
        await conn.execute("UPDATE tournaments SET totals_built = 0 WHERE id = ?", (tournament_id,))
    await assert_read_equals_recount(db, tournament_id)
    t = await store.load(db, tournament_id)
    assert t is not None and t.totals_built


async def test_the_first_places_are_read_from_the_top_of_the_index_by_score(db):
    """The card's read (`standings(top=...)`, migration 029) reads the totals by the index by
    score, the cut from its top and those who reach it by a range of it: no statement scans
    every player's totals nor sorts them (SQLite's plan; PostgreSQL plans by its statistics).
    Both for a finished tournament (its final scores) and a running one (those of the rounds
    complete)."""
    tournament_id = await play(db, 3)
    if db.backend != "sqlite":
        pytest.skip("SQLite's query plan")
    finished = await store.load(db, tournament_id)
    assert finished is not None
    running = replace(finished, status="running")
    for kept, index in (
        (finished, "tournament_totals_by_score"),
        (running, "tournament_totals_by_done_score"),
    ):
        entrants = [
            Entrant(str(row.user_id), row.rating, row.joined_round, row.withdrawn_from)
            for row in await store.entrants(db, tournament_id)
        ]
        statements: list[tuple[str, tuple]] = []
        fetch_one, fetch_all = db.fetch_one, db.fetch_all

        async def one(sql, parameters=(), fetch=fetch_one, seen=statements):
            seen.append((sql, tuple(parameters)))
            return await fetch(sql, parameters)

        async def every(sql, parameters=(), fetch=fetch_all, seen=statements):
            seen.append((sql, tuple(parameters)))
            return await fetch(sql, parameters)

        db.fetch_one, db.fetch_all = one, every
        try:
            first = await store.standings(db, kept, entrants, top=3)
        finally:
            db.fetch_one, db.fetch_all = fetch_one, fetch_all
        assert first == (await store.standings(db, kept, entrants))[:3]
        totals = [(sql, p) for sql, p in statements if "FROM tournament_totals" in sql]
        assert len(totals) == 2, statements  # the cut, then those who reach it
        for sql, parameters in totals:
            plan = [
                row["detail"] for row in await db.fetch_all("EXPLAIN QUERY PLAN " + sql, parameters)
            ]
            assert any(index in step for step in plan), plan
            assert not any(step.startswith("SCAN") or "TEMP B-TREE" in step for step in plan), plan
