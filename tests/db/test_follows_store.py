"""db/follows.py on both backends: the limit of things a user follows holds, a milestone is
noted once per follower, a player or a team is followed on one server, and forgetting a user
deletes their follows and others' follows of them."""

from __future__ import annotations

import asyncio

import pytest

from db import follows as store

GUILD, OTHER = 10, 20


async def test_a_user_follows_at_most_the_limit_even_when_asked_at_once(db):
    await asyncio.gather(
        *(
            store.follow(db, 1, "match", str(n), GUILD, f"match #{n}")
            for n in range(store.FOLLOWS_AT_MOST - 1)
        )
    )
    assert await store.follow(db, 1, "match", "999", GUILD, "match #999")
    assert not await store.follow(db, 1, "match", "999", GUILD, "match #999")  # already
    with pytest.raises(store.TooManyFollows):
        await store.follow(db, 1, "player", "5", GUILD, "Bob")
    assert len(await store.follows_of(db, 1)) == store.FOLLOWS_AT_MOST
    assert await store.unfollow(db, 1, "match", "999")
    assert not await store.unfollow(db, 1, "match", "999")
    assert await store.follow(db, 1, "player", "5", GUILD, "Bob")


async def test_each_milestone_is_noted_once_per_follower(db):
    assert await store.record_news(db, [1, 2], "match:3:v4:0") == [1, 2]
    assert await store.record_news(db, [1, 2, 3], "match:3:v4:0") == [3]
    await store.hold_news(db, 2, "match:3:v4:0", "a goal")
    assert await store.take_waiting(db, 2) == ["a goal"]
    assert await store.take_waiting(db, 2) == []  # taken once


async def test_a_player_is_followed_on_one_server_and_forgetting_deletes_both_ways(db):
    await store.follow(db, 1, "player", "7", GUILD, "Gil")
    await store.follow(db, 2, "match", "3", GUILD, "match #3")
    await store.follow(db, 7, "match", "3", GUILD, "match #3")
    things = [("match", "3"), ("player", "7")]
    assert await store.followers(db, things, GUILD) == [1, 2, 7]
    assert await store.followers(db, [("player", "7")], OTHER) == []
    async with db.transaction() as conn:
        await store.forget_user(conn, 7)
    assert await store.followers(db, things, GUILD) == [2]
