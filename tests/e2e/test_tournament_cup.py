"""A tournament's card and end through the fake Discord (docs/rules/tournaments.md "On
Discord"): the podium is posted exactly once, also when the bot could not post it when the
tournament ended (a crash between the two) and was restarted; the card's pictures (a knockout's
bracket, the standings); an eight-team Rollerball II cup to its winner, with a restart."""

from __future__ import annotations

import asyncio
import json

import pytest

from fakediscord.model import SEND_MESSAGES
from render.tournament import WIDTH
from tests.e2e.cards import is_result
from tests.e2e.stored import sql, until
from tests.e2e.test_tournament import deadline_now, finish_round, play_to_the_end, rounds_of

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "7"}


def podiums(discord, channel, tournament_id: int) -> list:
    header = f"tournament #{tournament_id} is over."
    return [m for m in discord.channel_messages(channel) if header in m.content]


async def test_the_podium_lost_between_the_end_and_its_post_is_posted_once_at_start_up(
    discord, bot, owner, general
):
    """The last result comes in while the bot cannot post in the channel (as if it had died
    between ending the tournament and posting the podium): the tournament is finished and no
    podium is out; once the bot restarts (and may post) the podium is posted, and another
    restart does not post it again."""
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=general,
        game="rocketball",
        format="single_elimination",
    )
    [(tournament_id,)] = sql(
        bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", general.id
    )
    users = [discord.add_user(name) for name in ("pia", "quo")]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    await discord.click(card, "Start now", user=owner)
    await until(
        lambda: all(m for _, m, _ in rounds_of(bot, tournament_id).get(1, [([], None, None)])),
        timeout=20,
    )
    discord.deny_bot(general, SEND_MESSAGES)
    await finish_round(discord, bot, tournament_id, 1, users)
    await until(
        lambda: (
            sql(bot, "SELECT status FROM tournaments WHERE id = ?", tournament_id)
            == [("finished",)]
        ),
        timeout=20,
    )
    await discord.fake.settle()
    assert podiums(discord, general, tournament_id) == []
    bot.take_errors()  # a refused post may be logged

    discord.deny_bot(general, 0)
    # the match host's look at the channel given back (CHANNEL_UPDATE) is over before the
    # restart: a restart in the middle of it is not what this test is about
    await discord.fake.settle()
    await asyncio.sleep(1)
    await bot.restart()
    await until(lambda: len(podiums(discord, general, tournament_id)) == 1, timeout=20)
    [podium] = podiums(discord, general, tournament_id)
    winner = rounds_of(bot, tournament_id)[1][0][0][1]  # the first seat resigned
    assert f"🥇 <@{winner}>" in podium.content

    await bot.restart()
    await asyncio.sleep(2)  # the start-up repair has run
    await discord.fake.settle()
    assert len(podiums(discord, general, tournament_id)) == 1


async def test_the_card_shows_a_knockouts_bracket_and_a_round_robins_standings(
    discord, bot, owner, general
):
    """Pictures made for a phone (render/tournament.py): a knockout's card shows its bracket
    from round 1 on; a round robin's shows its standings once a round is complete."""
    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "single_elimination", ("ria", "sam", "tia", "uma")
    )
    assert sorted(rounds) == [1, 2]
    [bracket] = card.images
    assert bracket.width == WIDTH and card.attachments[0].filename == "bracket-1.png"

    asked_before = len(discord.fake.requests)
    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "round_robin", ("val", "wes", "xia")
    )
    [table] = card.images
    assert table.width == WIDTH and card.attachments[0].filename == "standings.png"
    # the pictures ask Discord for a player's name once, not at every change of the card:
    # each player's two matches asked for it, the pictures once more
    asked = discord.fake.requests[asked_before:]
    for user_id in {seat for games_ in rounds.values() for seats, _, _ in games_ for seat in seats}:
        assert sum(route.endswith(f"/members/{user_id}") for route in asked) <= 3


# ---- a Rollerball II cup ------------------------------------------------------------------------

CUP_TEAMS = (  # coach, team, colour
    ("abe", "Lagos", "orange"),
    ("bea", "Oslo", "sky blue"),
    ("cy", "Rome", "green"),
    ("dee", "Lima", "yellow"),
    ("eli", "Kyiv", "blue"),
    ("flo", "Tokyo", "vermilion"),
    ("gil", "Madrid", "pink"),
    ("hal", "Quito", "red"),
)


def team_absences(bot, name: str) -> list[dict]:
    [(roster,)] = sql(bot, "SELECT roster FROM rollerball2_teams WHERE name = ?", name)
    return json.loads(roster).get("absences", [])


async def play_cup_match(discord, bot, match_id: int, seats, by_id) -> None:
    """Both coaches hand their bench to the default coach, who plays the match to its end."""

    def thread_id():
        return sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)[0][0]

    await until(lambda: any(t.id == thread_id() for t in discord.threads()), timeout=20)
    thread = next(t for t in discord.threads() if t.id == thread_id())
    for seat in seats:
        if sql(bot, "SELECT status FROM games WHERE id = ?", match_id) == [("finished",)]:
            break
        asked = await discord.slash("rollerball2 match resign", user=by_id[seat], channel=thread)
        await discord.click(asked, "Resign", user=by_id[seat])
    await discord.wait_for_message(thread, is_result, since=0, timeout=90)


async def test_an_eight_team_rollerball2_cup_is_played_to_a_winner_through_a_restart(
    discord, bot, owner, games
):
    """Eight coaches enter their teams; the best-rated coach (Glicko-2, coach against coach) is
    seed 1 and at home against seed 8; each round's matches are coach-against-coach Rollerball
    II matches between the teams, linked on the card; an injury is served in the cup as in a
    season; the bot restarts in the middle of round 2; after three rounds the cup has its
    winner, its bracket on the card and its podium naming the teams."""
    refused = await discord.slash(
        "tournament create", user=owner, channel=games, game="rollerball2", format="swiss"
    )
    assert refused.ephemeral and "knockout cup of teams" in refused.text
    coaches = [discord.add_user(name) for name, _, _ in CUP_TEAMS]
    for coach, (_, team, colour) in zip(coaches, CUP_TEAMS, strict=True):
        await discord.slash("rollerball2 team create", user=coach, name=team, colour=colour)
    # the last coach is the best rated: seed 1
    sql(
        bot,
        "INSERT INTO ratings (game, guild_id, user_id, rating, played, deviation, volatility,"
        " wins) VALUES ('rollerball2', ?, ?, 1800, 30, 60, 0.06, 25)",
        games.guild_id,
        coaches[-1].id,
    )
    # Lima's first skater is out for one match: he misses Lima's first cup match, no more
    [(roster,)] = sql(bot, "SELECT roster FROM rollerball2_teams WHERE name = 'Lima'")
    stored = json.loads(roster)
    number = stored["players"][0]["number"]
    injury = {"number": number, "kind": "injury", "length": "matches", "matches": 1}
    stored["absences"] = [{**injury, "reason": "knee"}]
    sql(bot, "UPDATE rollerball2_teams SET roster = ? WHERE name = 'Lima'", json.dumps(stored))

    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rollerball2",
        format="single_elimination",
        round_hours=24,
    )
    assert "Rollerball II tournament" in card.text
    [(tournament_id,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", games.id)
    teamless = discord.add_user("ivy")
    no_team = await discord.click(card, "Join", user=teamless)
    assert no_team.ephemeral and "you coach none" in no_team.text
    for coach in coaches:
        card = await discord.click(card, "Join", user=coach)
    assert "8 of 64 players" in card.text
    await discord.click(card, "Start now", user=owner)

    by_id = {coach.id: coach for coach in coaches}
    team_of = {coach.id: team for coach, (_, team, _) in zip(coaches, CUP_TEAMS, strict=True)}
    for round_number, boards in ((1, 4), (2, 2), (3, 1)):
        await until(
            lambda n=round_number, b=boards: (
                len(rounds_of(bot, tournament_id).get(n, [])) == b
                and all(m for _, m, _ in rounds_of(bot, tournament_id)[n])
            ),
            timeout=30,
        )
        played = rounds_of(bot, tournament_id)[round_number]
        if round_number == 1:
            assert played[0][0][0] == coaches[-1].id  # seed 1 at home on board 1
        for seats, match_id, _ in played:
            home, away = sql(
                bot,
                "SELECT home_team_id, away_team_id FROM rollerball2_matches WHERE game_id = ?",
                match_id,
            )[0]
            names = dict(sql(bot, "SELECT id, name FROM rollerball2_teams"))
            assert (names[home], names[away]) == (team_of[seats[0]], team_of[seats[1]])
        await until(
            lambda n=round_number: f"**Round {n}** of 3" in discord.message(card).text, timeout=20
        )
        assert discord.message(card).text.count("match #") == boards
        for index, (seats, match_id, _) in enumerate(played):
            assert match_id is not None
            await play_cup_match(discord, bot, match_id, seats, by_id)
            if round_number == 2 and index == 0:
                # mid-round: one result in (and looked at), one match still to play
                await until(
                    lambda: not sql(bot, "SELECT 1 FROM timers WHERE event = 'tournament_advance'"),
                    timeout=20,
                )
                await bot.restart()
        if round_number == 1:
            assert not [a for a in team_absences(bot, "Lima") if a["number"] == number]
    await until(
        lambda: (
            sql(bot, "SELECT status FROM tournaments WHERE id = ?", tournament_id)
            == [("finished",)]
        ),
        timeout=30,
    )
    final = rounds_of(bot, tournament_id)
    assert sorted(final) == [1, 2, 3]
    assert all(points is not None for games_ in final.values() for _, _, points in games_)
    [(results,)] = sql(
        bot,
        "SELECT COUNT(*) FROM rollerball2_matches m JOIN tournament_games t"
        " ON t.match_id = m.game_id WHERE t.tournament_id = ? AND m.result IS NOT NULL"
        " AND m.mode = 'coaches'",
        tournament_id,
    )
    assert results == 7
    await until(lambda: "**Finished**" in discord.message(card).text, timeout=20)
    text = discord.message(card).text
    assert "wins." in text
    [bracket] = discord.message(card).images
    assert bracket.width == WIDTH
    await until(lambda: len(podiums(discord, games, tournament_id)) == 1, timeout=20)
    [podium] = podiums(discord, games, tournament_id)
    assert sum(f"**{team}**" in podium.content for _, team, _ in CUP_TEAMS) == 3


async def test_a_cup_team_busy_in_another_match_is_decided_at_the_deadline(
    discord, bot, owner, games
):
    """docs/rules/tournaments.md "A Rollerball II cup": the two teams are playing a friendly
    when the cup is paired, so no cup match is made; at the round's deadline the absence
    policy (forfeit, nobody present) has both lose, and the better seed goes through."""
    jo, kai = discord.add_user("jo"), discord.add_user("kai")
    await discord.slash("rollerball2 team create", user=jo, name="Accra", colour="teal")
    await discord.slash("rollerball2 team create", user=kai, name="Perth", colour="navy")
    challenge = await discord.slash(
        "rollerball2 match start",
        user=jo,
        channel=games,
        home="Accra",
        away="Perth",
        mode="coaches",
    )
    await discord.click(challenge, "Accept", user=kai)
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rollerball2",
        format="single_elimination",
    )
    [(tournament_id,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", games.id)
    for coach in (kai, jo):
        card = await discord.click(card, "Join", user=coach)
    await discord.click(card, "Start now", user=owner)
    await until(lambda: 1 in rounds_of(bot, tournament_id), timeout=20)
    await until(lambda: "**Round 1** of 1" in discord.message(card).text, timeout=20)
    [(_, match_id, _)] = rounds_of(bot, tournament_id)[1]
    assert match_id is None  # both teams are busy: no cup match
    deadline_now(bot, tournament_id)
    await until(
        lambda: (
            sql(bot, "SELECT status FROM tournaments WHERE id = ?", tournament_id)
            == [("finished",)]
        ),
        timeout=20,
    )
    [(points, how)] = sql(
        bot,
        "SELECT points, decided_how FROM tournament_games WHERE tournament_id = ?",
        tournament_id,
    )
    assert json.loads(points) == [0.0, 0.0] and how == "absent"
    # equal ratings: the better seed is the first by id (rules/tournament/elimination.py)
    better = min((jo, kai), key=lambda user: str(user.id))
    await until(lambda: f"🏆 <@{better.id}> wins." in discord.message(card).text, timeout=20)
