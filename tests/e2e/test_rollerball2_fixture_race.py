"""A Rollerball II season fixture between a coach's match start and its matchday's deadline
(docs/rules/rollerball2.md, "Seasons", rulings D7 and D14), each interleaving made to happen
every time by holding one side in the middle (tests/e2e/season_gate_cog.py):

- a start that read the fixture before the deadline settled it and stores its match after: the
  match is no season match (the fixture counts once, its simulated result), and it is said;
- a start made while the deadline settles the matchday waits for it: the fixture is simulated
  and counts, the start is a friendly;
- a matchday whose fixture cannot be settled at its deadline (a team is busy in another match)
  stays open and is tried again, never passed with the fixture unplayed;
- a crash between a deadline's settling and its results post: the post comes once after the
  restart.

Time passes as in tests/e2e/test_rollerball2_seasons.py: a season's timer is made due, and
fires within 0.2 s.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakediscord.server import FakeDiscord
from tests.e2e.conftest import fake_with_rooms
from tests.e2e.stored import connect, fired, sql, until
from tests.e2e.test_rollerball2_seasons import season_timers, teams

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

ROOMS = ("read", "settle", "crash")


@pytest.fixture(scope="module")
def fake_discord(database_backend: str) -> Iterator[FakeDiscord]:
    """The usual fixtures plus a channel per season (one per backend)."""
    yield from fake_with_rooms(ROOMS)


@pytest.fixture(scope="module")
def bot_extensions() -> list[str]:
    return ["tests.e2e.season_gate_cog"]


@pytest.fixture(scope="module")
def gates(bot) -> Path:
    """The folder the gate cog reads (beside the bot's DATABASE_PATH, on either backend)."""
    folder = Path(bot.database_path).parent / "season-gates"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # Timers made due by a test fire within 0.2 s; the matches' seeds are reproducible.
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "1515"}


# ---- the season, its fixtures and its timer as stored ----------------------------------------


async def new_season(discord, bot, owner, channel, name: str, team_list: str) -> int:
    created = await discord.slash(
        "rollerball2 season create",
        user=owner,
        channel=channel,
        name=name,
        teams=team_list,
        hours=24,
    )
    assert not created.ephemeral and name in created.text, created.text
    ((season_id,),) = sql(bot, "SELECT id FROM rollerball2_seasons WHERE name = ?", name)
    return season_id


def fixture_of(bot, season_id: int, matchday: int) -> tuple[int, str, str]:
    """(id, home team, away team) of the matchday's one fixture."""
    ((found),) = sql(
        bot,
        "SELECT f.id, h.name, a.name FROM rollerball2_fixtures f"
        " JOIN rollerball2_teams h ON h.id = f.home_team_id"
        " JOIN rollerball2_teams a ON a.id = f.away_team_id"
        " WHERE f.season_id = ? AND f.matchday = ?",
        season_id,
        matchday,
    )
    return found


def result_of(bot, fixture_id: int) -> tuple[str | None, int | None]:
    """(how, game id) of the fixture's result: (None, None) while unplayed."""
    ((how, game_id),) = sql(
        bot, "SELECT how, game_id FROM rollerball2_fixtures WHERE id = ?", fixture_id
    )
    return how, game_id


def matches_of(bot, fixture_id: int) -> list[int]:
    """Every match stored as the fixture (there must be one at most that is not finished)."""
    return [
        game_id
        for (game_id,) in sql(
            bot,
            "SELECT game_id FROM rollerball2_matches WHERE fixture_id = ? ORDER BY game_id",
            fixture_id,
        )
    ]


def current_matchday(bot, season_id: int) -> int:
    ((matchday,),) = sql(
        bot, "SELECT current_matchday FROM rollerball2_seasons WHERE id = ?", season_id
    )
    return matchday


def make_due(bot, season_id: int) -> int:
    """The season's timer fires now, its matchday's deadline come; the timer's id."""
    ((timer_id, matchday, _),) = season_timers(bot, season_id)
    now = time.time()
    with connect(bot) as conn:
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (now - 1, timer_id))
        conn.execute(
            # as the waiting would have left it: the deadline set and the one in force passed
            "UPDATE rollerball2_fixtures SET deadline = ?, set_deadline = ?"
            " WHERE season_id = ? AND matchday = ? AND deadline > ?",
            (now - 120, now - 120, season_id, matchday, now - 120),
        )
    return timer_id


def results_posts(discord, channel, name: str, matchday: int) -> list:
    """The matchday's results posts in the season's channel (there must be one)."""
    return [
        m
        for m in discord.channel_messages(channel)
        if f"{name}, matchday {matchday}**: the deadline has passed" in m.text
    ]


async def posted(discord, channel, name: str, matchday: int, timeout: float = 30):
    return await discord.wait_for_message(
        channel,
        lambda m: f"{name}, matchday {matchday}**: the deadline has passed" in m.text,
        timeout=timeout,
    )


def challenge_for(discord, coach, room, home: str, away: str):
    """The coach challenges the other team's coach to a match of the two teams, without
    waiting for the bot to be idle (its deadline may be held at a gate)."""
    return discord.slash(
        "rollerball2 match start",
        user=coach,
        channel=room,
        home=home,
        away=away,
        mode="coaches",
        settle=False,
    )


# ---- the gates --------------------------------------------------------------------------------


def hold(gates: Path, point: str) -> None:
    (gates / f"{point}.hold").touch()


def reached(gates: Path, point: str) -> bool:
    return (gates / f"{point}.reached").exists()


def go(gates: Path, point: str) -> None:
    (gates / f"{point}.reached").unlink()
    (gates / f"{point}.go").touch()


# ---- the tests ----------------------------------------------------------------------------------


async def test_a_start_that_read_the_fixture_before_the_deadline_settled_it_is_no_season_match(
    discord, bot, fake_discord, gates, alice, bob, owner
):
    """The interleaving of the chaos run: the coach's start has read the fixture, the deadline
    simulates it, then the start stores its match. That match is a friendly (the fixture counts
    once, simulated); and since it keeps both teams busy at the next deadline, that matchday
    stays open until the teams are free, then is settled."""
    room, name = fake_discord.rooms["read"], "Read Cup"
    await teams(discord, (alice, "Kobe"), (bob, "Lima"))
    season_id = await new_season(discord, bot, owner, room, name, "Kobe, Lima")
    fixture_id, home, away = fixture_of(bot, season_id, 1)
    coach = alice if home == "Kobe" else bob

    hold(gates, "fixture-read")
    start = asyncio.create_task(challenge_for(discord, coach, room, home, away))
    await until(lambda: reached(gates, "fixture-read"))
    make_due(bot, season_id)
    await until(lambda: result_of(bot, fixture_id)[0] is not None, timeout=20)
    go(gates, "fixture-read")
    challenge = await start

    # The coach's match is a challenge, and no season match: the fixture is the simulated one.
    assert "challenges you to" in challenge.text, challenge.text
    assert "a season match" not in challenge.text
    how, game_id = result_of(bot, fixture_id)
    assert how == "simulated"
    assert matches_of(bot, fixture_id) == [game_id]
    post = await posted(discord, room, name, 1)
    assert f"match #{game_id}" in post.text and "(simulated)" in post.text

    # Matchday 2's deadline: its fixture's teams are busy with that challenge, so it cannot be
    # simulated. The matchday stays open (its timer again a few minutes on), nothing posted.
    second, _, _ = fixture_of(bot, season_id, 2)
    timer_id = make_due(bot, season_id)
    await fired(bot, timer_id, timeout=20)
    assert current_matchday(bot, season_id) == 2
    assert result_of(bot, second) == (None, None)
    ((_, matchday, due),) = season_timers(bot, season_id)
    assert matchday == 2 and due > time.time() + 60
    assert not results_posts(discord, room, name, 2)
    shown = await discord.slash("rollerball2 season standings", user=coach, season=name)
    assert "Matchday 2 of 2 is due" in shown.text and "It stays open until" in shown.text

    # The challenged coach declines; tried again, the matchday is settled and posted.
    other = bob if coach is alice else alice
    await discord.click(challenge, label="Decline", user=other)
    make_due(bot, season_id)
    post = await posted(discord, room, name, 2)
    how, game_id = result_of(bot, second)
    assert how == "simulated" and f"match #{game_id}" in post.text
    assert current_matchday(bot, season_id) == 3  # the season is over


async def test_a_start_made_while_the_deadline_settles_the_matchday_waits_for_it(
    discord, bot, fake_discord, gates, carol, dave, owner
):
    """The other interleaving: the deadline has looked for a match being played for the fixture
    (none) and is about to simulate it when a coach starts the fixture. The start waits for the
    deadline (the season's lock): the fixture is simulated and counts, the matchday is posted
    with it, and the coach's challenge is a friendly."""
    room, name = fake_discord.rooms["settle"], "Settle Cup"
    await teams(discord, (carol, "Oslo"), (dave, "Pisa"))
    season_id = await new_season(discord, bot, owner, room, name, "Oslo, Pisa")
    fixture_id, home, away = fixture_of(bot, season_id, 1)
    coach = carol if home == "Oslo" else dave

    hold(gates, "settle-check")
    make_due(bot, season_id)
    await until(lambda: reached(gates, "settle-check"), timeout=20)
    start = asyncio.create_task(challenge_for(discord, coach, room, home, away))
    # The start stores its match at once unless it waits for the deadline: let it get there.
    await asyncio.wait({start}, timeout=1.0)
    go(gates, "settle-check")
    post = await posted(discord, room, name, 1)
    await start

    how, game_id = result_of(bot, fixture_id)
    assert how == "simulated" and f"match #{game_id}" in post.text
    assert matches_of(bot, fixture_id) == [game_id]
    assert current_matchday(bot, season_id) == 2
    (challenge,) = [m for m in discord.channel_messages(room) if "challenges you to" in m.text]
    assert "a season match" not in challenge.text


async def test_a_crash_between_a_matchday_and_its_results_post_posts_them_once_after_the_restart(
    discord, bot, fake_discord, gates, alice, carol, owner
):
    """The bot dies (SIGKILL) right after a deadline settled matchday 1 and before its results
    were posted: started again, it posts them, once; the matchday is not played again."""
    room, name = fake_discord.rooms["crash"], "Crash Cup"
    await teams(discord, (alice, "Bonn"), (carol, "Cork"))
    season_id = await new_season(discord, bot, owner, room, name, "Bonn, Cork")
    fixture_id, _, _ = fixture_of(bot, season_id, 1)

    (gates / "post.kill").touch()
    make_due(bot, season_id)
    await until(lambda: bot.crashed, timeout=20)
    assert current_matchday(bot, season_id) == 2  # settled and saved before the crash
    assert not results_posts(discord, room, name, 1)

    await bot.restart()
    post = await posted(discord, room, name, 1)
    how, game_id = result_of(bot, fixture_id)
    assert how == "simulated" and f"match #{game_id}" in post.text
    await asyncio.sleep(2)  # a second post would come now
    await discord.fake.settle()
    assert len(results_posts(discord, room, name, 1)) == 1
    assert matches_of(bot, fixture_id) == [game_id]
