"""A permission given back (a channel's or a role's, or the bot invited again) posts the cards a
missing permission held back (host/posting.py), then tells the leagues, whose posts it held
back too; a database unavailable at that moment (a PostgreSQL restart) does not lose them, nor
break the listener: they are posted once it answers. Seen in the hour-long chaos run:
on_guild_channel_update raised DatabaseUnavailable."""

from types import SimpleNamespace

import pytest

from db.database import DatabaseUnavailable
from host import posting


async def test_a_permission_given_back_during_an_outage_posts_once_the_database_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tries: list[tuple[int, int | None]] = []

    async def post_unposted(host, *, guild_id: int, channel_id: int | None = None) -> None:
        tries.append((guild_id, channel_id))
        if len(tries) == 1:
            raise DatabaseUnavailable("PostgreSQL: the database system is shutting down")

    monkeypatch.setattr(posting, "post_unposted", post_unposted)
    monkeypatch.setattr("host.background.FIRST_RETRY_SECONDS", 0.01)
    told: list[int] = []

    async def league_told(guild_id: int) -> None:
        told.append(guild_id)

    host = SimpleNamespace(
        bot=SimpleNamespace(
            db=SimpleNamespace(when_available=lambda _: None, forget_available=lambda _: None)
        ),
        permission_listeners=[league_told],
    )
    before = SimpleNamespace(overwrites={"everyone": "no"})
    after = SimpleNamespace(overwrites={}, guild=SimpleNamespace(id=7), id=70)

    await posting.on_guild_channel_update(host, before, after)  # type: ignore[arg-type]

    assert tries == [(7, 70), (7, 70)]
    assert told == [7]  # the leagues of that server, once the cards are out
