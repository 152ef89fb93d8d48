"""A Rocketball Swiss tournament through the fake Discord (docs/rules/tournaments.md "On
Discord"): an admin opens the sign-up, seven players join with the card's button, the admin
starts it, and three rounds are played as the match host's own matches (each finished by a
resignation in its thread); one player has the bye in round 1, one withdraws during round 1
and is paired no more, nobody turns up for one match of round 3 (decided at the deadline), and
the card shows the round's pairings, the deadline and the standings, and at the end the winner.
Then absences, check-in and the admins' commands."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from fakediscord.model import SEND_MESSAGES
from tests.e2e.stored import sql, until

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "7"}


def rounds_of(bot, tournament_id: int) -> dict[int, list[tuple[list[int], int | None, str | None]]]:
    found: dict[int, list[tuple[list[int], int | None, str | None]]] = {}
    for round_number, seats, match_id, points in sql(
        bot,
        "SELECT round, seats, match_id, points FROM tournament_games"
        " WHERE tournament_id = ? ORDER BY round, board",
        tournament_id,
    ):
        found.setdefault(round_number, []).append((json.loads(seats), match_id, points))
    return found


def deadline_timer(bot, tournament_id: int) -> float | None:
    """When the tournament's deadline timer is due (None: it has none)."""
    due = [
        due_at
        for due_at, payload in sql(
            bot, "SELECT due_at, payload FROM timers WHERE event = 'tournament_deadline'"
        )
        if json.loads(payload)["tournament"] == tournament_id
    ]
    return due[0] if due else None


def deadline_now(bot, tournament_id: int) -> None:
    """The tournament's round deadline comes now: its timer is made due."""
    for timer_id, payload in sql(
        bot, "SELECT id, payload FROM timers WHERE event = 'tournament_deadline'"
    ):
        if json.loads(payload)["tournament"] == tournament_id:
            sql(bot, "UPDATE timers SET due_at = 0 WHERE id = ?", timer_id)


async def finish_round(
    discord, bot, tournament_id: int, round_number: int, users, *, no_show: int | None = None
) -> None:
    """Every match of the round ends: the first seat resigns in the match's thread (but the
    match `no_show`, which nobody plays)."""
    by_id = {user.id: user for user in users}
    for seats, match_id, _ in rounds_of(bot, tournament_id)[round_number]:
        if match_id is None or match_id == no_show:
            continue

        def thread_id(match_id=match_id):
            return sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)[0][0]

        await until(lambda: any(t.id == thread_id() for t in discord.threads()), timeout=20)
        thread = next(t for t in discord.threads() if t.id == thread_id())
        asked = await discord.slash("rocketball resign", user=by_id[seats[0]], channel=thread)
        await discord.click(asked, "Resign", user=by_id[seats[0]])


async def test_a_seven_player_swiss_of_three_rounds(discord, bot, owner, alice, bob, general):
    refused = await discord.slash(
        "tournament create", user=alice, channel=general, game="rocketball", format="swiss"
    )
    assert refused.ephemeral and "Only server admins" in refused.text

    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=general,
        game="rocketball",
        format="swiss",
        rounds=3,
        round_hours=24,
    )
    assert "Rocketball tournament #1" in card.text and "Swiss, 3 rounds" in card.text
    assert "Join" in card.button_labels
    users = [alice, bob] + [
        discord.add_user(name) for name in ("carol2", "dave2", "erin", "fay", "gus")
    ]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    assert "7 of 64 players" in card.text
    again = await discord.click(card, "Join", user=alice)
    assert again.ephemeral and "already in" in again.text

    not_admin = await discord.click(card, "Start now", user=bob)
    assert not_admin.ephemeral and "Only server admins" in not_admin.text
    await discord.click(card, "Start now", user=owner)
    await until(lambda: len(rounds_of(bot, 1).get(1, [])) == 4)
    first = rounds_of(bot, 1)[1]
    byes = [seats for seats, match_id, _ in first if len(seats) == 1]
    # everyone is rated 1500: the lowest-ranked is the last by id (rules/tournament/swiss.py)
    assert len(byes) == 1 and byes[0][0] == int(max(str(user.id) for user in users))
    await until(lambda: "Round 1** of 3" in discord.message(card).text, timeout=20)
    card = discord.message(card)
    assert "Bye:" in card.text and card.text.count("match #") == 3 and "deadline <t:" in card.text

    # during round 1 a player who is playing withdraws: round 2 does not pair them
    leaver_id = next(seats for seats, _, _ in first if len(seats) == 2)[1]
    leaver = next(user for user in users if user.id == leaver_id)
    gone = await discord.click(card, "Withdraw", user=leaver)
    assert not gone.ephemeral and "(withdrew)" in gone.text
    await until(
        lambda: (
            "You withdrew from tournament #1 from round 2 on."
            in [message.text for message in discord.ephemerals(leaver)]
        )
    )

    # in round 3 nobody turns up for one match (a no-show): at the deadline, by the default
    # policy (forfeit), with nobody present, both lose and each has missed a round
    no_show = None
    for round_number in (1, 2, 3):
        if round_number == 3:
            no_show = next(m for s, m, _ in rounds_of(bot, 1)[3] if len(s) == 2)
        await finish_round(discord, bot, 1, round_number, users, no_show=no_show)
        if round_number == 3:
            deadline_now(bot, 1)
        if round_number < 3:
            await until(lambda n=round_number: n + 1 in rounds_of(bot, 1), timeout=20)
            await until(
                lambda n=round_number: all(
                    m for s, m, _ in rounds_of(bot, 1)[n + 1] if len(s) == 2
                ),
                timeout=20,
            )
    await until(lambda: sql(bot, "SELECT status FROM tournaments WHERE id = 1") == [("finished",)])

    played = rounds_of(bot, 1)
    meetings = [
        frozenset(seats) for games in played.values() for seats, _, _ in games if len(seats) == 2
    ]
    assert len(meetings) == len(set(meetings)), "nobody meets the same opponent twice"
    [(absent_seats, points, how)] = sql(
        bot, "SELECT seats, points, decided_how FROM tournament_games WHERE match_id = ?", no_show
    )
    assert json.loads(points) == [0.0, 0.0] and how == "absent"
    missed = dict(sql(bot, "SELECT user_id, missed FROM tournament_entrants"))
    assert [missed[seat] for seat in json.loads(absent_seats)] == [1, 1]
    for round_number in (2, 3):
        seated = {seat for seats, _, _ in played[round_number] for seat in seats}
        assert leaver_id not in seated
        assert len(seated) == 6 and all(len(seats) == 2 for seats, _, _ in played[round_number])
    await until(lambda: "**Finished**" in discord.message(card).text)
    final = discord.message(card)
    assert "**Finished** after 3 rounds." in final.text and "wins." in final.text
    assert "Buchholz" in final.text and "(withdrew)" in final.text
    assert not final.button_labels


async def test_a_round_deadline_decides_the_unfinished_game_after_a_restart(
    discord, bot, owner, games
):
    """The sign-up closes at its time; round 1 of a 4-player Swiss: one match ends, the other is not played; the bot restarts
    mid-round, and at the round's deadline (its timer made due) the unplayed game is lost by
    both (docs/rules/tournaments.md "On Discord") and round 2 is paired."""
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rocketball",
        format="swiss",
        rounds=2,
        round_hours=1,
    )
    [(tournament_id,)] = sql(bot, "SELECT id FROM tournaments WHERE channel_id = ?", games.id)
    users = [discord.add_user(name) for name in ("hana", "ivo", "jun", "kit")]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    # the sign-up closes at its time (its timer made due): round 1 begins without an admin
    sql(bot, "UPDATE timers SET due_at = 0 WHERE event = 'tournament_signup_close'")
    await until(
        lambda: (
            len(rounds_of(bot, tournament_id).get(1, [])) == 2
            and all(match for _, match, _ in rounds_of(bot, tournament_id)[1])
        ),
        timeout=20,
    )
    (seats, match_id, _), (idle_seats, _, _) = rounds_of(bot, tournament_id)[1]
    by_id = {user.id: user for user in users}
    await until(lambda: sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)[0][0])
    [(thread_id,)] = sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)
    thread = next(t for t in discord.threads() if t.id == thread_id)
    asked = await discord.slash("rocketball resign", user=by_id[seats[0]], channel=thread)
    await discord.click(asked, "Resign", user=by_id[seats[0]])
    await until(lambda: rounds_of(bot, tournament_id)[1][0][2] == "[0.0, 1.0]")

    # a late joiner comes in during round 1, for round 2, with no points
    late = discord.add_user("lee")
    card = discord.message(card)
    joined = await discord.click(card, "Join", user=late)
    assert not joined.ephemeral and f"<@{late.id}>" in joined.text
    await until(
        lambda: any(
            "from round 2 on, with no points yet" in message.text
            for message in discord.ephemerals(late)
        )
    )

    # a crash lost the round's deadline timer: the league host's start-up repair writes it
    # again, at the deadline the round had
    due = deadline_timer(bot, tournament_id)
    assert due is not None
    sql(bot, "DELETE FROM timers WHERE event = 'tournament_deadline'")
    await bot.restart()
    await until(lambda: deadline_timer(bot, tournament_id) is not None, timeout=20)
    assert deadline_timer(bot, tournament_id) == pytest.approx(due, abs=1)
    deadline_now(bot, tournament_id)
    await until(lambda: 2 in rounds_of(bot, tournament_id), timeout=20)
    [(points, played)] = sql(
        bot,
        "SELECT points, played FROM tournament_games WHERE tournament_id = ? AND round = 1"
        " AND match_id IS NOT NULL AND seats = ?",
        tournament_id,
        json.dumps(idle_seats),
    )
    assert json.loads(points) == [0.0, 0.0] and played == 0
    await until(lambda: "**Round 2** of 2" in discord.message(card).text, timeout=20)
    text = discord.message(card).text
    # the winner of the played game leads on 1 point; the two who did not play have none
    assert f"1. <@{seats[1]}>: **1**" in text
    second = rounds_of(bot, tournament_id)[2]
    assert late.id in {seat for seats_, _, _ in second for seat in seats_}
    assert len(second) == 3  # five players: two boards and a bye


async def play_to_the_end(discord, bot, owner, channel, fmt: str, names: tuple[str, ...]):
    """A tournament of `fmt` with these new players, each match resigned by its first seat;
    its rounds and its card once finished."""
    card = await discord.slash(
        "tournament create", user=owner, channel=channel, game="rocketball", format=fmt
    )
    [(tournament_id,)] = sql(
        bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", channel.id
    )
    users = [discord.add_user(name) for name in names]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    await discord.click(card, "Start now", user=owner)
    for round_number in range(1, 8):
        await until(
            lambda n=round_number: (
                sql(bot, "SELECT status FROM tournaments WHERE id = ?", tournament_id)
                == [("finished",)]
                or (
                    n in rounds_of(bot, tournament_id)
                    and all(m for s, m, _ in rounds_of(bot, tournament_id)[n] if len(s) == 2)
                )
            ),
            timeout=20,
        )
        if round_number not in rounds_of(bot, tournament_id):
            break
        await finish_round(discord, bot, tournament_id, round_number, users)
    await until(lambda: "**Finished**" in discord.message(card).text)
    return rounds_of(bot, tournament_id), discord.message(card)


async def test_a_single_elimination_of_four_is_won_in_two_rounds(discord, bot, owner, general):
    """Seeds 1-4 (ratings equal: by id), 1 v 4 and 2 v 3; the second seat of each match wins
    (the first resigns), and the final's winner wins the knockout."""
    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "single_elimination", ("mo", "nia", "oz", "pam")
    )
    assert sorted(rounds) == [1, 2]
    assert len(rounds[1]) == 2 and len(rounds[2]) == 1
    winners = {seats[1] for seats, _, _ in rounds[1]}
    final_seats = rounds[2][0][0]
    assert set(final_seats) == winners
    assert f"🏆 <@{final_seats[1]}> wins." in card.text


async def test_a_podium_a_missing_permission_refused_is_posted_when_it_is_back(discord, bot, owner):
    """The podium waited for the next restart when Discord refused it; it is posted as soon as
    the permission is given back, once."""
    room = discord.add_channel("podium-held")
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=room,
        game="rocketball",
        format="single_elimination",
    )
    [(tournament_id,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", room.id)
    users = [discord.add_user(name) for name in ("uma", "vic")]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    await discord.click(card, "Start now", user=owner)
    await until(lambda: all(m for _, m, _ in rounds_of(bot, tournament_id).get(1, [(0, None, 0)])))
    discord.deny_bot(room, SEND_MESSAGES)  # the card is edited; a new post is refused
    await finish_round(discord, bot, tournament_id, 1, users)
    await until(lambda: "podium was refused" in bot.log_text())
    assert not any("is over." in m.content for m in discord.channel_messages(room))

    discord.deny_bot(room, 0)
    await until(lambda: any("is over." in m.content for m in discord.channel_messages(room)))
    await asyncio.sleep(0.5)  # a second podium would come now
    assert sum("is over." in m.content for m in discord.channel_messages(room)) == 1


async def test_a_round_robin_of_three_meets_everyone_once(discord, bot, owner, general):
    """Three players, three rounds: each round one match and one player resting (no bye
    points), every pair once."""
    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "round_robin", ("quin", "rae", "sol")
    )
    assert sorted(rounds) == [1, 2, 3]
    pairs = [frozenset(seats) for games in rounds.values() for seats, _, _ in games]
    assert all(len(pair) == 2 for pair in pairs) and len(set(pairs)) == 3
    assert "**Finished** after 3 rounds." in card.text


async def test_a_double_elimination_of_four_ends_with_everyone_but_the_winner_out_twice(
    discord, bot, owner, general
):
    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "double_elimination", ("tam", "uma", "vic", "wes")
    )
    losses: dict[int, int] = {}
    for games in rounds.values():
        for seats, _, points in games:
            assert points is not None, "every game of the tournament was played"
            loser = seats[0] if json.loads(points)[0] == 0.0 else seats[1]
            losses[loser] = losses.get(loser, 0) + 1
    winner = next(
        seat
        for seats, _, _ in rounds[max(rounds)]
        for seat in seats
        if seat not in losses or losses[seat] < 2
    )
    assert all(count == 2 for seat, count in losses.items() if seat != winner)
    assert len(losses) == 4 and f"🏆 <@{winner}> wins." in card.text


def thread_of(discord, bot, match_id: int):
    [(thread_id,)] = sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)
    return next(t for t in discord.threads() if t.id == thread_id)


async def move_once(discord, bot, match_id: int, users) -> int:
    """The player the match waits for moves (typed with `/rocketball move`), again while the
    match still waits for them, until it waits for their opponent; their id."""
    from rules.rocketball import ENGINE

    seats = [
        user
        for (user,) in sql(
            bot, "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", match_id
        )
    ]
    await until(lambda: sql(bot, "SELECT thread_id FROM games WHERE id = ?", match_id)[0][0])
    mover = None
    for _ in range(10):
        [(state, version)] = sql(bot, "SELECT state, version FROM games WHERE id = ?", match_id)
        engine = ENGINE.load(json.loads(state)["engine"])
        seat = min(ENGINE.actors(engine))
        if mover is not None and seats[seat] != mover.id:
            return mover.id
        mover = next(user for user in users if user.id == seats[seat])
        text = ENGINE.format_action(ENGINE.legal_actions(engine, seat)[0])
        if text == "roll":  # the bot rolls for the holder itself (docs/rules/rocketball.md R18)
            await until(
                lambda v=version: (
                    sql(bot, "SELECT version FROM games WHERE id = ?", match_id)[0][0] > v
                )
            )
            continue
        done = await discord.slash(
            "rocketball move", user=mover, channel=thread_of(discord, bot, match_id), move=text
        )
        assert "shows your move" in done.text, done.text
        await until(
            lambda v=version: sql(bot, "SELECT version FROM games WHERE id = ?", match_id)[0][0] > v
        )
    raise AssertionError("the match kept waiting for the same player")


async def test_absences_check_in_and_what_an_admin_can_do(discord, bot, owner, alice, games):
    """A Swiss of 3 rounds with check-in and the forfeit policy (docs/rules/tournaments.md
    "Absences", "What an admin can do"): who did not check in does not play; at round 1's
    deadline a match where one player moved and the other never answered is won by the one
    who moved, and a match nobody started is lost by both; an admin pauses (the deadline waits),
    resumes, extends, decides a board and removes a player; a player absent twice is withdrawn."""
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rocketball",
        format="swiss",
        rounds=3,
        round_hours=1,
        absence="forfeit",
        checkin_minutes=60,
    )
    [(tid,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", games.id)
    assert "Check-in now" in card.text and "the absent lose, the others win" in card.text
    users = [discord.add_user(name) for name in ("ada", "ben", "cy", "dot", "eli")]
    for user in users[:4]:
        card = await discord.click(card, "Join", user=user)
    assert "Check in" in card.button_labels
    again = await discord.click(card, "Check in", user=users[0])
    assert again.ephemeral and "already checked in" in again.text  # joining is checking in
    # dot joined before the check-in opened (made so here), and never checks in
    sql(bot, "UPDATE tournament_entrants SET checked_in = 0 WHERE user_id = ?", users[3].id)
    card = await discord.click(card, "Join", user=users[4])
    stranger = await discord.click(card, "Check in", user=alice)
    assert stranger.ephemeral and "not in this tournament" in stranger.text
    await discord.click(card, "Start now", user=owner)
    await until(
        lambda: any(
            "without 1 player who did not check in" in m.text for m in discord.ephemerals(owner)
        ),
        timeout=30,
    )
    await until(
        lambda: (
            len(rounds_of(bot, tid).get(1, [])) == 2
            and all(m for _, m, _ in rounds_of(bot, tid)[1])
        ),
        timeout=20,
    )
    seated = {seat for seats, _, _ in rounds_of(bot, tid)[1] for seat in seats}
    assert users[3].id not in seated and len(seated) == 4

    # round 1: on board 1 the player to move moves once, then waits for an opponent who never
    # comes; board 2 is never started. The deadline comes.
    (moved_seats, moved_match, _), (idle_seats, _, _) = rounds_of(bot, tid)[1]
    assert moved_match is not None
    mover = await move_once(discord, bot, moved_match, users)
    [(waits_for,)] = [(seat,) for seat in moved_seats if seat != mover]
    deadline_now(bot, tid)
    await until(lambda: 2 in rounds_of(bot, tid), timeout=20)
    board1, board2 = rounds_of(bot, tid)[1]
    assert board1[2] is not None and board2[2] is not None, "the deadline decided both boards"
    assert json.loads(board1[2]) == [1.0 if seat == mover else 0.0 for seat in moved_seats]
    assert json.loads(board2[2]) == [0.0, 0.0]
    missed = dict(
        sql(bot, "SELECT user_id, missed FROM tournament_entrants WHERE tournament_id = ?", tid)
    )
    assert missed[mover] == 0 and missed[waits_for] == 1
    assert all(missed[seat] == 1 for seat in idle_seats)
    # the forfeit ends the match itself, as the host's own forfeit does
    await until(
        lambda: sql(bot, "SELECT status FROM games WHERE id = ?", moved_match) == [("finished",)]
    )
    # round 2's card: each player's rating beside them
    await until(lambda: "**Round 2** of 3" in discord.message(card).text, timeout=40)
    assert "> (1500) vs <@" in discord.message(card).text

    # round 2: an admin pauses; the deadline's timer is gone while paused
    refused = await discord.slash(
        "tournament pause", user=alice, channel=games, tournament=str(tid)
    )
    assert refused.ephemeral and "Only server admins" in refused.text
    paused = await discord.slash("tournament pause", user=owner, channel=games, tournament=str(tid))
    assert not paused.ephemeral and "is paused" in paused.text
    assert deadline_timer(bot, tid) is None
    await until(lambda: "**paused** by an admin" in discord.message(card).text)
    twice = await discord.slash("tournament pause", user=owner, channel=games, tournament=f"#{tid}")
    assert twice.ephemeral and "already paused" in twice.text
    unknown = await discord.slash("tournament pause", user=owner, channel=games, tournament="999")
    assert unknown.ephemeral and "no tournament #999" in unknown.text
    resumed = await discord.slash(
        "tournament resume", user=owner, channel=games, tournament=str(tid)
    )
    assert "is resumed" in resumed.text
    [(deadline,)] = sql(bot, "SELECT round_deadline FROM tournaments WHERE id = ?", tid)
    extended = await discord.slash(
        "tournament extend", user=owner, channel=games, tournament=str(tid), hours=2
    )
    assert "2 hours more" in extended.text
    [(later,)] = sql(bot, "SELECT round_deadline FROM tournaments WHERE id = ?", tid)
    assert later == pytest.approx(deadline + 7200)
    assert deadline_timer(bot, tid) == pytest.approx(later)

    # the admin decides board 1 and removes a player of board 2: the round is complete
    (first_seats, _, _), (second_seats, _, _) = rounds_of(bot, tid)[2]
    wrong = await discord.slash(
        "tournament decide", user=owner, channel=games, tournament=str(tid), board=9
    )
    assert wrong.ephemeral and "has no board 9" in wrong.text
    by_id = {user.id: user for user in users}
    decided = await discord.slash(
        "tournament decide",
        user=owner,
        channel=games,
        tournament=str(tid),
        board=1,
        winner=by_id[first_seats[1]],
    )
    assert "decided by an admin" in decided.text
    removed = await discord.slash(
        "tournament remove",
        user=owner,
        channel=games,
        tournament=str(tid),
        player=by_id[second_seats[0]],
    )
    assert "is out of tournament" in removed.text
    await until(lambda: 3 in rounds_of(bot, tid), timeout=20)
    board1, board2 = rounds_of(bot, tid)[2]
    assert board1[2] is not None and board2[2] is not None
    assert json.loads(board1[2]) == [0.0, 1.0] and json.loads(board2[2]) == [0.0, 1.0]
    third = {seat for seats, _, _ in rounds_of(bot, tid)[3] for seat in seats}
    assert second_seats[0] not in third

    # round 3: nobody plays; whoever is absent a second time is withdrawn
    await until(lambda: all(m for s, m, _ in rounds_of(bot, tid)[3] if len(s) == 2), timeout=20)
    deadline_now(bot, tid)
    await until(
        lambda: sql(bot, "SELECT status FROM tournaments WHERE id = ?", tid) == [("finished",)],
        timeout=20,
    )
    boards = [seats for seats, _, _ in rounds_of(bot, tid)[3] if len(seats) == 2]
    expected = {
        user.id: (user.id in idle_seats or user.id == waits_for)
        + any(user.id in seats for seats in boards)
        for user in users[:3] + users[4:]
    }
    entrants = sql(
        bot,
        "SELECT user_id, missed, withdrawn_from FROM tournament_entrants WHERE tournament_id = ?",
        tid,
    )
    assert {user_id: missed_now for user_id, missed_now, _ in entrants} == expected
    for user_id, missed_now, withdrawn in entrants:
        if user_id == second_seats[0]:
            assert withdrawn == 3  # removed by the admin
        else:
            assert withdrawn == (4 if missed_now >= 2 else None)
    assert any(count >= 2 for count in expected.values())


async def test_a_rollerball_tournament_of_nine_in_tables_of_three(discord, bot, owner, general):
    """Nine players, tables of 3, two rounds (docs/rules/tournaments.md "Tables of N"): each
    round three tables, cut from the standings by score then rating; at each table the first
    two seats resign and the last one wins the point. Round 2 seats the three winners of round
    1 at the top table."""
    refused = await discord.slash(
        "tournament create",
        user=owner,
        channel=general,
        game="rocketball",
        format="tables",
        table_size=3,
    )
    assert refused.ephemeral and "seats at most 2" in refused.text
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=general,
        game="rollerball",
        format="tables",
        rounds=2,
        table_size=3,
    )
    assert "Rollerball tournament" in card.text and "Tables of 3, 2 rounds" in card.text
    [(tid,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", general.id)
    users = [discord.add_user(f"table{n}") for n in range(9)]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    await discord.click(card, "Start now", user=owner)
    by_id = {user.id: user for user in users}
    for round_number in (1, 2):
        await until(
            lambda n=round_number: (
                len(rounds_of(bot, tid).get(n, [])) == 3
                and all(m for _, m, _ in rounds_of(bot, tid)[n])
            ),
            timeout=30,
        )
        for seats, match_id, _ in rounds_of(bot, tid)[round_number]:
            assert len(seats) == 3 and match_id is not None
            await until(
                lambda m=match_id: sql(bot, "SELECT thread_id FROM games WHERE id = ?", m)[0][0]
            )
            thread = thread_of(discord, bot, match_id)
            for seat in seats[:2]:
                asked = await discord.slash("rollerball resign", user=by_id[seat], channel=thread)
                await discord.click(asked, "Resign", user=by_id[seat])
        await until(lambda n=round_number: all(p for _, _, p in rounds_of(bot, tid)[n]), timeout=30)
    await until(lambda: "**Finished**" in discord.message(card).text, timeout=30)
    played = rounds_of(bot, tid)
    for games_ in played.values():
        for _, _, points in games_:
            assert points is not None and json.loads(points) == [0.0, 0.0, 1.0]
    winners = {seats[2] for seats, _, _ in played[1]}
    top = played[2][0][0]
    assert set(top) == winners  # the top table: the three on one point
    assert len({seat for seats, _, _ in played[2] for seat in seats}) == 9
    final = discord.message(card)
    assert f"🏆 <@{top[2]}> wins." in final.text

    # the podium, posted below the card (after its last edit), mentions the three on it
    def podiums():
        return [
            m for m in discord.channel_messages(general) if f"tournament #{tid} is over" in m.text
        ]

    await until(lambda: podiums(), timeout=20)
    [podium] = podiums()
    assert f"🥇 <@{top[2]}> (2)" in podium.text and "🥈" in podium.text and "🥉" in podium.text


async def test_a_computer_stands_in_for_the_absent_at_the_deadline(discord, bot, owner, games):
    """The computer policy (docs/rules/tournaments.md "Absences"): at the deadline a computer
    takes the seat of the player the match waits for, the round waits one more period for that
    game, and its result, reached over the board, counts."""
    card = await discord.slash(
        "tournament create",
        user=owner,
        channel=games,
        game="rocketball",
        format="swiss",
        rounds=1,
        round_hours=1,
        absence="computer",
        rated=False,
    )
    assert "Swiss, 1 round, casual" in card.text
    assert "a computer plays for the absent" in card.text
    [(tid,)] = sql(bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", games.id)
    users = [discord.add_user(name) for name in ("zed", "yve")]
    for user in users:
        card = await discord.click(card, "Join", user=user)
    await discord.click(card, "Start now", user=owner)
    await until(
        lambda: all(m for _, m, _ in rounds_of(bot, tid).get(1, [(0, None, 0)])), timeout=30
    )
    [(seats, match_id, _)] = rounds_of(bot, tid)[1]
    assert match_id is not None
    mover = await move_once(discord, bot, match_id, users)
    [(state,)] = sql(bot, "SELECT state FROM games WHERE id = ?", match_id)
    assert json.loads(state)["rated"] is False  # a casual tournament's matches are casual
    # the round's deadline comes (made so here): the round gets one more period (an hour)
    sql(bot, "UPDATE tournaments SET round_deadline = ? WHERE id = ?", time.time(), tid)
    deadline_now(bot, tid)
    await until(
        lambda: (
            sql(bot, "SELECT round_deadline FROM tournaments WHERE id = ?", tid)[0][0]
            > time.time() + 3000
        ),
        timeout=20,
    )
    assert deadline_timer(bot, tid) > time.time() + 3000
    [(state,)] = sql(bot, "SELECT state FROM games WHERE id = ?", match_id)
    absent_seat = next(seat for seat, user in enumerate(seats) if user != mover)
    assert list(json.loads(state)["computers"]) == [str(absent_seat)]
    missed = dict(
        sql(bot, "SELECT user_id, missed FROM tournament_entrants WHERE tournament_id = ?", tid)
    )
    assert missed == {mover: 0, seats[absent_seat]: 1}
    assert rounds_of(bot, tid)[1][0][2] is None  # the round waits for the game
    # the player present resigns against the computer: the result counts, over the board
    thread = thread_of(discord, bot, match_id)
    by_id = {user.id: user for user in users}
    asked = await discord.slash("rocketball resign", user=by_id[mover], channel=thread)
    await discord.click(asked, "Resign", user=by_id[mover])
    await until(
        lambda: sql(bot, "SELECT status FROM tournaments WHERE id = ?", tid) == [("finished",)],
        timeout=20,
    )
    [(points, played)] = sql(
        bot, "SELECT points, played FROM tournament_games WHERE match_id = ?", match_id
    )
    assert json.loads(points) == [1.0 if seat == absent_seat else 0.0 for seat in range(2)]
    assert played == 1


async def test_a_vacation_puts_the_round_off_and_games_lists_the_tournament(
    discord, bot, owner, general
):
    """A tournament made with vacations:True (docs/rules/tournaments.md "Vacations"): a player
    whose game has no result goes on vacation for two days, and the round's deadline (its
    timer and the card) is two days later; back early, it comes back. /games lists the
    tournament with the player's board and the round's deadline; a tournament made without
    vacations keeps its deadline."""
    day = 24 * 3600
    ids = []
    cards = []
    players = [discord.add_user(name) for name in ("vic", "wes", "xan", "yul")]
    for vacations in (True, False):
        card = await discord.slash(
            "tournament create",
            user=owner,
            channel=general,
            game="rocketball",
            format="swiss",
            rounds=2,
            round_hours=1,
            vacations=vacations,
        )
        [(tournament_id,)] = sql(
            bot, "SELECT MAX(id) FROM tournaments WHERE channel_id = ?", general.id
        )
        for user in players:
            card = await discord.click(card, "Join", user=user)
        await discord.click(card, "Start now", user=owner)
        await until(
            lambda t=tournament_id: (
                len(rounds_of(bot, t).get(1, [])) == 2
                and all(match for _, match, _ in rounds_of(bot, t)[1])
            ),
            timeout=20,
        )
        ids.append(tournament_id)
        cards.append(card)
    counted, kept = ids
    before: dict[int, float] = {}
    for tournament_id in ids:
        due = deadline_timer(bot, tournament_id)
        assert due, f"tournament {tournament_id} has its deadline timer"
        before[tournament_id] = due

    (seats, _, _), _ = rounds_of(bot, counted)[1]
    away = next(user for user in players if user.id == seats[0])
    listed = await discord.slash("games", user=away, channel=discord.open_dm(away))
    line = next(line for line in listed.text.splitlines() if f"tournament #{counted}**" in line)
    assert "Rocketball tournament" in line and "round 1, board 1: your match to play" in line
    assert f"<t:{int(before[counted])}:R>" in line and f"/{general.id}/" in line

    dm = discord.open_dm(away)
    went = await discord.slash("settings vacation", user=away, channel=dm, days=2)
    assert "Enjoy" in went.text
    await until(lambda: (deadline_timer(bot, counted) or 0) > before[counted] + day, timeout=20)
    assert deadline_timer(bot, counted) == pytest.approx(before[counted] + 2 * day, abs=30)
    assert deadline_timer(bot, kept) == before[kept]  # made without vacations: played as set
    [(in_force, set_deadline)] = sql(
        bot, "SELECT round_deadline, round_set_deadline FROM tournaments WHERE id = ?", counted
    )
    assert set_deadline == pytest.approx(before[counted]) and in_force > set_deadline + day
    await until(lambda: f"<t:{int(in_force)}:R>" in discord.message(cards[0]).text, timeout=20)

    back = await discord.slash("settings vacation", user=away, channel=dm, end=True)
    assert "Welcome back" in back.text
    await until(lambda: (deadline_timer(bot, counted) or 0) < before[counted] + day, timeout=20)
    assert deadline_timer(bot, counted) == pytest.approx(before[counted], abs=60)
