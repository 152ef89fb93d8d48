"""A tournament's card and end through the fake Discord (docs/rules/tournaments.md "On
Discord"): the podium is posted exactly once, also when the bot could not post it when the
tournament ended (a crash between the two) and was restarted; the card's pictures (a knockout's
bracket, the standings); an eight-team Rollerball II cup to its winner, with a restart; a coach
of several teams choosing the one he enters; a cup's absence policies (a computer stand-in, both
lose)."""

from __future__ import annotations

import asyncio
import io
import json
import time

import pytest
from PIL import Image

from fakediscord.model import SEND_MESSAGES
from render.tournament import WIDTH, render_bracket
from rules.tournament import resolve, single_elimination
from tests.e2e.cards import current_card, is_result
from tests.e2e.stored import sql, until
from tests.e2e.test_tournament import (
    deadline_now,
    deadline_timer,
    finish_round,
    play_to_the_end,
    rounds_of,
    thread_of,
)

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
    podium is out. The bot stops, and the permission is given back while it is down (so no
    channel update tells it: a permission given back while it runs posts the podium at once,
    tests/e2e/test_tournament.py); once it starts again the podium is posted, and another
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

    await asyncio.to_thread(bot.stop)
    discord.deny_bot(general, 0)
    await asyncio.to_thread(bot.start)
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

    asked_before, refused_before = len(discord.fake.requests), len(discord.fake.errors)
    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "round_robin", ("val", "wes", "xia")
    )
    [table] = card.images
    assert table.width == WIDTH and card.attachments[0].filename == "standings.png"
    # the pictures ask Discord for a player's name once, not at every change of the card:
    # each player's two matches asked for it, the pictures once more. A request refused with a
    # 429 (a busy machine meets the global limit) and sent again by discord.py is one ask.
    asked = discord.fake.requests[asked_before:]
    retried = [route for route, status, _ in discord.fake.errors[refused_before:] if status == 429]
    for user_id in {seat for games_ in rounds.values() for seats, _, _ in games_ for seat in seats}:
        member = f"/members/{user_id}"
        answered = sum(r.endswith(member) for r in asked) - sum(r.endswith(member) for r in retried)
        assert answered <= 3


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


def cup_teams(bot, tournament_id: int) -> dict[int, str]:
    return dict(
        sql(
            bot,
            "SELECT e.user_id, t.name FROM tournament_teams e JOIN rollerball2_teams t"
            " ON t.id = e.team_id WHERE e.tournament_id = ?",
            tournament_id,
        )
    )


def hand_over(bot, team: str, coach) -> None:
    """The team changes coach (as an admin's hand-over would)."""
    sql(bot, "UPDATE rollerball2_teams SET owner_id = ? WHERE name = ?", coach.id, team)


async def test_a_coach_of_several_teams_chooses_the_team_he_enters_the_cup_with(
    discord, bot, owner, games
):
    """docs/rules/tournaments.md "A Rollerball II cup", Entrants: a coach of several teams
    presses Join and is asked, privately, which of his teams enters; his choice is checked when
    he makes it (a team he coaches now, not entered already by a coach it had before, and he is
    not in already), stored with his entry, and his team plays the cup's match."""
    mo, ned = discord.add_user("mo"), discord.add_user("ned")
    for name, colour in (("Cairo", "gold"), ("Delhi", "white"), ("Essen", "black")):
        await discord.slash("rollerball2 team create", user=mo, name=name, colour=colour)
    await discord.slash("rollerball2 team create", user=ned, name="Fargo", colour="navy")
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rollerball2",
        format="single_elimination",
    )
    [(tournament_id,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", games.id)

    asked = await discord.click(card, "Join", user=mo)
    assert asked.ephemeral and "You coach 3 teams: choose the one that plays cup" in asked.text
    [menu] = asked.selects
    assert [option.label for option in menu.options] == ["Cairo", "Delhi", "Essen"]
    assert sql(
        bot, "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?", tournament_id
    ) == [(0,)]
    again = await discord.click(card, "Join", user=mo)  # a second menu, chosen on later

    # Delhi goes to Ned before Mo chooses it: no longer his to enter
    hand_over(bot, "Delhi", ned)
    refused = await discord.select(asked, "Choose your team", ["Delhi"], user=mo)
    assert refused.ephemeral and "only with a team you coach" in refused.text
    assert cup_teams(bot, tournament_id) == {}
    # Ned now coaches two: he is asked too, and enters with Delhi
    theirs = await discord.click(card, "Join", user=ned)
    [menu] = theirs.selects
    assert [option.label for option in menu.options] == ["Delhi", "Fargo"]
    entered = await discord.select(theirs, "Choose your team", ["Delhi"], user=ned)
    assert f"You are in tournament #{tournament_id} with **Delhi**" in entered.text
    # the card shows Ned first: its edit, under the tournament's lock, waits on Discord's limit
    # of edits per channel; a click meanwhile is acknowledged and answered after it, and the
    # driver would take the card's edit for that click's answer
    await until(lambda: "1 of 64 players" in discord.message(card).text, timeout=20)
    # Delhi back with Mo: entered already (by Ned), so not his to enter again
    hand_over(bot, "Delhi", mo)
    taken = await discord.select(asked, "Choose your team", ["Delhi"], user=mo)
    assert taken.ephemeral and "Delhi is entered in this cup already" in taken.text
    assert cup_teams(bot, tournament_id) == {ned.id: "Delhi"}

    entered = await discord.select(asked, "Choose your team", ["Essen"], user=mo)
    assert f"You are in tournament #{tournament_id} with **Essen**" in entered.text
    await until(lambda: "2 of 64 players" in discord.message(card).text, timeout=20)
    # his other menu cannot swap his team, nor enter him twice
    twice = await discord.select(again, "Choose your team", ["Cairo"], user=mo)
    assert twice.ephemeral and "already in this tournament" in twice.text
    assert cup_teams(bot, tournament_id) == {ned.id: "Delhi", mo.id: "Essen"}
    pressed = await discord.click(card, "Join", user=mo)
    assert pressed.ephemeral and "already in this tournament" in pressed.text

    await discord.click(discord.message(card), "Start now", user=owner)
    await until(
        lambda: all(m for _, m, _ in rounds_of(bot, tournament_id).get(1, [([], None, None)])),
        timeout=30,
    )
    [(seats, match_id, _)] = rounds_of(bot, tournament_id)[1]
    [(home, away)] = sql(
        bot,
        "SELECT h.name, a.name FROM rollerball2_matches m JOIN rollerball2_teams h"
        " ON h.id = m.home_team_id JOIN rollerball2_teams a ON a.id = m.away_team_id"
        " WHERE m.game_id = ?",
        match_id,
    )
    team_of = {mo.id: "Essen", ned.id: "Delhi"}
    assert (home, away) == (team_of[seats[0]], team_of[seats[1]])


# ---- a cup's absence policies (docs/rules/tournaments.md "Absences", "Elimination") -----------


async def start_cup(discord, bot, owner, games, teams, absence: str):
    """A cup of `teams` (coach, team, colour) with the `absence` policy and rounds of an hour,
    started: its id, card and coaches, once round 1's matches are made."""
    coaches = [discord.add_user(name) for name, _, _ in teams]
    for coach, (_, team, colour) in zip(coaches, teams, strict=True):
        await discord.slash("rollerball2 team create", user=coach, name=team, colour=colour)
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rollerball2",
        format="single_elimination",
        round_hours=1,
        absence=absence,
    )
    [(tournament_id,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", games.id)
    for coach in coaches:
        card = await discord.click(card, "Join", user=coach)
    await discord.click(card, "Start now", user=owner)
    await until(
        lambda: all(m for _, m, _ in rounds_of(bot, tournament_id).get(1, [([], None, None)])),
        timeout=30,
    )
    return tournament_id, card, coaches


async def home_turns_a_card(discord, bot, match_id: int, home) -> None:
    """The home coach (the ball is loose: he acts first) turns the first card: he has moved,
    and the match goes on to whoever the card leaves to act."""

    def thread_id():
        return sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)[0][0]

    await until(lambda: any(t.id == thread_id() for t in discord.threads()), timeout=20)
    thread = thread_of(discord, bot, match_id)
    turn = await current_card(discord, bot, thread, match_id, timeout=30)
    [(version,)] = sql(bot, "SELECT version FROM games WHERE id = ?", match_id)
    await discord.click(turn, "Next card", user=home, timeout=30)
    await until(
        lambda: sql(bot, "SELECT version FROM games WHERE id = ?", match_id)[0][0] > version,
        timeout=20,
    )


def the_deadline_comes(bot, tournament_id: int) -> None:
    """The round's deadline passes now (its timer made due)."""
    sql(bot, "UPDATE tournaments SET round_deadline = ? WHERE id = ?", time.time(), tournament_id)
    deadline_now(bot, tournament_id)


def bracket_of(tournament_id: int, seeds: list[int], names: dict[int, str], winners=None):
    """The bracket a phone shows for a cup of `seeds` (best first) and these winners (match
    number -> user id), drawn as the rules say it stands."""
    bracket = single_elimination([str(user) for user in seeds])
    places = resolve(bracket, {n: str(user) for n, user in (winners or {}).items()})
    pages = render_bracket(
        f"Rollerball II #{tournament_id}",
        places,
        bracket.seeds,
        {str(user): name for user, name in names.items()},
    )
    return [Image.open(io.BytesIO(page)).convert("RGB").tobytes() for page in pages]


def shown_bracket(discord, card) -> list[bytes]:
    return [image.convert("RGB").tobytes() for image in discord.message(card).images]


async def test_a_computer_stands_in_for_an_absent_coach_in_a_cup(discord, bot, owner, games):
    """The computer policy in a Rollerball II cup: the home coach has moved, the match waits
    for a coach when the round's deadline passes; the default coach takes that coach's bench
    (said in the match's thread, with Take my seat back, and he has missed the round), the
    card still shows the match being played and the bracket nobody through yet, and the round
    waits one more period. The coach present hands his bench over too; the match is played
    to its end and its result, over the board, decides who goes through."""
    teams = (("ike", "Nairobi", "green"), ("jan", "Porto", "blue"))
    tournament_id, card, coaches = await start_cup(
        discord, bot, owner, games, teams, absence="computer"
    )
    assert "At the deadline: a computer plays for the absent." in discord.message(card).text
    by_id = {coach.id: coach for coach in coaches}
    [(seats, match_id, _)] = rounds_of(bot, tournament_id)[1]
    assert match_id is not None  # the round's match was made
    names = {coach.id: team for coach, (_, team, _) in zip(coaches, teams, strict=True)}
    undecided = bracket_of(tournament_id, seats, names)
    await until(lambda: shown_bracket(discord, card) == undecided, timeout=20)

    await home_turns_a_card(discord, bot, match_id, by_id[seats[0]])
    the_deadline_comes(bot, tournament_id)
    await until(
        lambda: json.loads(sql(bot, "SELECT state FROM games WHERE id = ?", match_id)[0][0])[
            "computers"
        ],
        timeout=20,
    )
    [(state,)] = sql(bot, "SELECT state FROM games WHERE id = ?", match_id)
    [absent_seat] = [int(seat) for seat in json.loads(state)["computers"]]
    absent, present = by_id[seats[absent_seat]], by_id[seats[1 - absent_seat]]
    # in the match: the absent coach is told the default coach plays his bench
    thread = thread_of(discord, bot, match_id)
    note = await discord.wait_for_message(
        thread, lambda m: "plays for them" in m.text, timeout=30, since=0
    )
    assert absent.mention in note.content and "Take my seat back" in note.button_labels
    missed = dict(
        sql(
            bot,
            "SELECT user_id, missed FROM tournament_entrants WHERE tournament_id = ?",
            tournament_id,
        )
    )
    assert missed == {absent.id: 1, present.id: 0}
    # the round waits one more period (an hour) for the match; the card and bracket say so
    await until(lambda: (deadline_timer(bot, tournament_id) or 0) > time.time() + 3000, timeout=20)
    await until(lambda: f"match #{match_id}" in discord.message(card).text, timeout=20)
    text = discord.message(card).text
    assert "**Round 1** of 1" in text and "**Finished**" not in text
    assert shown_bracket(discord, card) == undecided
    assert rounds_of(bot, tournament_id)[1][0][2] is None

    # the coach present hands his bench to the default coach too: played to the end
    asked = await discord.slash("rollerball2 match resign", user=present, channel=thread)
    await discord.click(asked, "Resign", user=present)
    await discord.wait_for_message(thread, is_result, since=0, timeout=90)
    await until(
        lambda: (
            sql(bot, "SELECT status FROM tournaments WHERE id = ?", tournament_id)
            == [("finished",)]
        ),
        timeout=30,
    )
    [(points, played)] = sql(
        bot, "SELECT points, played FROM tournament_games WHERE match_id = ?", match_id
    )
    points = json.loads(points)
    assert played == 1  # over the board, the computer's play included
    assert points in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])  # a draw: the better seed's
    winner = seats[0] if points[0] >= points[1] else seats[1]
    await until(lambda: f"🏆 <@{winner}> wins." in discord.message(card).text, timeout=20)
    await until(
        lambda: (
            shown_bracket(discord, card) == bracket_of(tournament_id, seats, names, {1: winner})
        ),
        timeout=20,
    )


async def test_both_lose_in_a_cup_sends_the_better_seed_through_and_frees_his_team(
    discord, bot, owner, games
):
    """The both-lose policy in a Rollerball II cup of four: on board 1 the home coach has
    moved and the match waits for one of the coaches at the deadline; nobody at the board
    scores, and as a knockout match cannot stay level the better seed goes through
    (docs/rules/tournaments.md "Elimination"); the bracket shows him through. Both coaches
    forfeit the match (told in its thread), which the default coach plays out, so his team
    is not held by it: round 2's cup match is made, and played."""
    teams = (
        ("kim", "Dakar", "orange"),
        ("lev", "Bergen", "sky blue"),
        ("max", "Turin", "green"),
        ("noa", "Cusco", "yellow"),
    )
    tournament_id, card, coaches = await start_cup(
        discord, bot, owner, games, teams, absence="both_lose"
    )
    assert "At the deadline: everyone at the board loses." in discord.message(card).text
    by_id = {coach.id: coach for coach in coaches}
    names = {coach.id: team for coach, (_, team, _) in zip(coaches, teams, strict=True)}
    (left, left_match, _), (right, right_match, _) = rounds_of(bot, tournament_id)[1]
    assert left_match is not None and right_match is not None
    await play_cup_match(discord, bot, right_match, right, by_id)  # board 2: played
    await home_turns_a_card(discord, bot, left_match, by_id[left[0]])
    the_deadline_comes(bot, tournament_id)
    await until(lambda: 2 in rounds_of(bot, tournament_id), timeout=30)
    [(points, how, played)] = sql(
        bot,
        "SELECT points, decided_how, played FROM tournament_games WHERE match_id = ?",
        left_match,
    )
    assert json.loads(points) == [0.0, 0.0] and how == "absent" and played == 0
    [(final_seats, final_match, _)] = rounds_of(bot, tournament_id)[2]
    assert left[0] in final_seats  # the better seed of board 1 went through
    missed = dict(
        sql(
            bot,
            "SELECT user_id, missed FROM tournament_entrants WHERE tournament_id = ?",
            tournament_id,
        )
    )
    # the coach the match waited for missed the round; the other was present
    assert sorted((missed[left[0]], missed[left[1]])) == [0, 1]
    # the bracket shows him through (seeds by rating, then id: all four are newcomers; board
    # 1 is seed 1 against seed 4, bracket match 1: rules/tournament/elimination.py)
    seeds = sorted(by_id, key=str)
    assert left == [seeds[0], seeds[3]]
    right_winner = next(seat for seat in final_seats if seat != left[0])
    after_round_1 = bracket_of(tournament_id, seeds, names, {1: left[0], 2: right_winner})
    await until(lambda: shown_bracket(discord, card) == after_round_1, timeout=20)
    await until(lambda: "**Round 2** of 2" in discord.message(card).text, timeout=20)
    # his team is free for the next round: its cup match is made and played
    await until(lambda: rounds_of(bot, tournament_id)[2][0][1] is not None, timeout=30)
    [(final_seats, final_match, _)] = rounds_of(bot, tournament_id)[2]
    assert final_match is not None
    # the match left behind was played out by the default coach (both benches forfeit), as
    # its thread tells both coaches
    [(status,)] = sql(bot, "SELECT status FROM games WHERE id = ?", left_match)
    assert status == "finished"
    thread = thread_of(discord, bot, left_match)
    told = await discord.wait_for_message(
        thread, lambda m: "ran out of the round's time and forfeit" in m.text, since=0
    )
    assert all(by_id[seat].mention in told.content for seat in left)
    await discord.wait_for_message(thread, is_result, since=0, timeout=30)
    assert json.loads(
        sql(bot, "SELECT points FROM tournament_games WHERE match_id = ?", left_match)[0][0]
    ) == [0.0, 0.0]  # its result changed nothing in the cup
    await play_cup_match(discord, bot, final_match, final_seats, by_id)
    await until(
        lambda: (
            sql(bot, "SELECT status FROM tournaments WHERE id = ?", tournament_id)
            == [("finished",)]
        ),
        timeout=30,
    )
