"""Rocketball through the fake Discord, as players use it: a challenge played to a win by two
users, a match against the computer, a restart mid-match, reminders and forfeits, and every kind
of bad input answered ephemerally with nothing changed.

The players' choices come from the engine's own strong computer player (seeded), so the matches
are purposeful and short; what the test checks is what the players see and what is stored.
"""

from __future__ import annotations

import random
import time

import pytest

from cogs.rocketball.presenter import RocketballAdapter
from host import Match
from rules.rocketball import ENGINE, ai
from rules.rocketball.actions import Roll
from rules.rocketball.record import replay
from tests.e2e.rocketball_clicks import click_action
from tests.e2e.stored import connect

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # New games get their seeds from a fixed sequence: the same run gives the same matches.
    return {"GAME_SEED": "20261122"}


MOVE_INPUT = "Move (square + facing, or rotate)"
TYPE_A_MOVE = "Type a move…"
OTHER_SQUARES = "Other squares…"


# --- helpers ------------------------------------------------------------------------------------


def stored_game(bot, game_id: int) -> tuple[int, str, Match, int | None]:
    """(version, status, match, thread id) as the bot stored them."""
    with connect(bot) as conn:
        version, status, state, thread_id = conn.execute(
            "SELECT version, status, state, thread_id FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return version, status, Match.from_json(RocketballAdapter(), state), thread_id


def latest_game_id(bot) -> int:
    with connect(bot) as conn:
        return conn.execute("SELECT MAX(id) FROM games").fetchone()[0]


def is_card(message) -> bool:
    """The match's live card: a Components v2 message holding a container."""
    return any(component.get("type") == 17 for component in message.components)


def card_version(card) -> int | None:
    """The version the card's controls were drawn for (None: no move controls)."""
    for custom_id in [b.custom_id for b in card.buttons] + [s.custom_id for s in card.selects]:
        parts = (custom_id or "").split(":")
        if len(parts) > 3 and parts[0] == "match" and parts[3] in ("do", "pick"):
            return int(parts[2])
    return None


async def new_thread(discord, channel, known: int):
    """The thread the bot opens after an answer (it comes right after the interaction's reply)."""
    import asyncio

    for _ in range(200):
        threads = discord.threads(channel)
        if len(threads) > known:
            return threads[-1]
        await asyncio.sleep(0.05)
    raise AssertionError("the bot opened no thread")


async def resign(discord, user, channel):
    """Resign through the command and its confirmation (a pending challenge goes at once)."""
    asked = await discord.slash("rocketball resign", user=user, channel=channel)
    if "Resign" in asked.button_labels:
        return await discord.click(asked, "Resign", user=user)
    return asked


async def current_card(discord, bot, thread, game_id: int | None = None):
    """The live card once it shows the stored position: its controls drawn for the stored
    version, or the match over."""
    import asyncio

    card = await discord.wait_for_message(thread, is_card, timeout=15, since=0)
    for _ in range(300):
        card = discord.message(card)
        if game_id is None:
            return card
        version, status, _, _ = stored_game(bot, game_id)
        if card_version(card) == version or (status != "active" and not card_version(card)):
            return card
        await asyncio.sleep(0.05)
    raise AssertionError(f"the card did not show version {version}: {card.text[:200]}")


async def play(discord, bot, thread, game_id, seats, action, card):
    """Make `action` for the player to move, by clicking and picking on the live card (never
    typing): a chip is placed by picking its square, then what to do there."""
    _, _, match, _ = stored_game(bot, game_id)
    user = seats[match.engine.to_move]
    await click_action(discord, discord.message(card), user, action)
    return await current_card(discord, bot, thread, game_id)


def suggested(card) -> str:
    """The label of the card's suggested move."""
    return next(label for label in card.button_labels if label.startswith("Suggested: "))


async def play_to_the_end(
    discord, bot, thread, game_id, seats, message, *, rng, limit=400, levels=None
):
    """Click the match to its end, each side choosing as the computer would at its level in
    `levels` (by side; "strong" for both by default)."""
    for _ in range(limit):
        _, status, match, _ = stored_game(bot, game_id)
        if status == "finished":
            return message
        level = (levels or {}).get(match.engine.to_move, "strong")
        action = ai.choose_action(match.engine, level, rng)
        message = await play(discord, bot, thread, game_id, seats, action, message)
    raise AssertionError("the match did not end")


async def start_challenge(discord, bot, challenger, opponent, channel, **options):
    reply = await discord.slash(
        "rocketball challenge", user=challenger, channel=channel, opponent=opponent, **options
    )
    game_id = latest_game_id(bot)
    known = len(discord.threads(channel))
    accepted = await discord.click(reply, "Accept", user=opponent)
    thread = await new_thread(discord, channel, known)
    first = await current_card(discord, bot, thread, game_id)
    return reply, accepted, game_id, thread, first


# --- a whole match between two users ----------------------------------------------------------


@pytest.mark.both_backends
async def test_a_challenge_is_played_to_a_win_in_a_thread(discord, bot, alice, bob, general):
    reply = await discord.slash("rocketball challenge", user=alice, opponent=bob, target=1)
    assert not reply.ephemeral
    assert f"{bob.mention}, {alice.mention} challenges you to Rocketball" in reply.content
    assert reply.button_labels == ["Accept", "Decline"]
    game_id = latest_game_id(bot)

    # Only the challenged player may accept.
    refused = await discord.click(reply, "Accept", user=alice)
    assert refused.ephemeral and f"Only {bob.mention} can answer" in refused.content
    assert stored_game(bot, game_id)[1] == "pending"

    known = len(discord.threads(general))
    await discord.click(reply, "Accept", user=bob)
    announcement = discord.message(reply)
    assert "Play in the thread below" in announcement.content and not announcement.buttons
    thread = await new_thread(discord, general, known)
    assert thread.name == f"Rocketball #{game_id}"

    first = await current_card(discord, bot, thread, game_id)
    _version, status, match, thread_id = stored_game(bot, game_id)
    assert status == "active" and thread_id == thread.id
    # The opening d4 is shown, and the board is a picture.
    assert "d4" in first.text
    board = first.images[0]
    assert board.width >= 400 and board.height >= 700
    seats = {"N": alice, "S": bob}
    # The board names the players (kept with the match: the bot has no member list).
    assert match.names == ["Alice", "Bob"]
    holder = seats[match.engine.to_move]
    ping = await discord.wait_for_message(thread, lambda m: not is_card(m), since=0)
    assert ping.content.startswith(f"{holder.mention}, your move: ")
    # The dice commitment is one short line (its first 16 hex digits, 64 bits of the hash),
    # not 64 characters over four lines of a phone; the record has it whole.
    for message in (reply, ping):
        line = next(x for x in discord.message(message).content.splitlines() if "Dice" in x)
        assert f"`{match.commitment[:16]}…`" in line and match.commitment not in line
        assert len(line) <= 70, line
    assert f'[Commitment "{match.commitment}"]' in (
        (await discord.slash("rocketball record", user=alice, match_id=game_id))
        .attachments[0]
        .data.decode()
    )

    # the strong side against the easy one: the goal that wins comes sooner
    quick = {"N": "strong", "S": "easy"}
    last = await play_to_the_end(
        discord, bot, thread, game_id, seats, first, rng=random.Random(3), levels=quick
    )
    _, status, match, _ = stored_game(bot, game_id)
    winner = seats[match.engine.winner]
    assert status == "finished"
    assert f"({winner.name.capitalize()}) wins" in last.text
    # the only controls left: the match is over (a rematch, the replay)
    assert last.button_labels == ["Rematch", "Replay ▶", "Why?"]
    result = await discord.wait_for_message(thread, lambda m: "Dice revealed" in m.content, since=0)
    assert winner.mention in result.content and f"({winner.name.capitalize()}) wins" in result.text
    # One live card for the whole match: every other message is a ping or a milestone.
    messages = discord.channel_messages(thread)
    assert sum(is_card(m) for m in messages) == 1
    # a goal's milestone keeps a link to the card, however much spectators talk below it
    (card,) = [m for m in messages if is_card(m)]
    goals = [m for m in messages if m.content.startswith("⚽")]
    assert goals and all("[Jump to the card](" in m.content for m in goals)
    assert all(m.content.rstrip(")").endswith(f"/{thread.id}/{card.id}") for m in goals)
    # Every move was stored with its events, the play-by-play.
    with connect(bot) as conn:
        moves = conn.execute(
            "SELECT COUNT(*) FROM game_moves WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    assert moves >= 3

    stats = await discord.slash("rocketball stats", user=winner)
    assert "Won" in stats.text and "1 for" in stats.text

    # The record replays to the stored final position.
    record = await discord.slash("rocketball record", user=alice, match_id=game_id)
    assert record.ephemeral
    text = record.attachments[0].data.decode()
    assert replay(text).to_dict() == match.engine.to_dict()


async def test_a_turn_begins_with_its_roll_made_and_shown_as_an_animation(
    discord, bot, carol, dave, games
):
    """The d4 has no choice in it: it is rolled as the turn begins (docs/rules/rocketball.md
    "The roll is made for you"), and the card shows the roll and the ball's path at once."""
    _, _, game_id, thread, first = await start_challenge(discord, bot, carol, dave, games)
    _, _, match, _ = stored_game(bot, game_id)
    assert match.engine.phase == "place" and match.auto == {0, 1}
    # One image for the round: the ball's path, ending on the board.
    names = [attachment.filename for attachment in first.attachments]
    assert names == ["round.gif"]
    gif = first.attachments[0].image()
    assert gif.format == "GIF" and gif.n_frames >= 2
    assert "rolls d4 =" in first.text
    assert "Roll the d4" not in first.button_labels  # nothing to press for a roll
    # The best moves come first as buttons; the square menus only when asked for.
    assert not first.selects and OTHER_SQUARES in first.button_labels
    assert TYPE_A_MOVE in first.button_labels
    assert any(label.startswith("Suggested: ") for label in first.button_labels)
    # The roll is an action of the record like any other: the record verifies.
    record = ENGINE.record(match.engine, salt=match.salt, reveal=True)
    assert ENGINE.verify(record) == [] and "roll" in record
    await resign(discord, dave, thread)


async def test_a_chip_placed_is_answered_by_the_card_with_the_next_roll_at_once(
    discord, bot, carol, dave, games
):
    """The next player's d4, left to the bot, is no computer's search: the click that places
    a chip is answered by the card itself, the roll made (one response, "update message"),
    not acknowledged first and edited after (docs/rules/rocketball.md "On Discord")."""
    _, _, game_id, thread, first = await start_challenge(discord, bot, carol, dave, games)
    _, _, match, _ = stored_game(bot, game_id)
    mover = {"N": carol, "S": dave}[match.engine.to_move]
    answered = await discord.click(first, suggested(first), user=mover)
    assert answered.id == first.id and answered.response_type == 7  # UPDATE_MESSAGE
    card = await current_card(discord, bot, thread, game_id)
    assert card.text.count("rolls d4 =") == 1
    assert [attachment.filename for attachment in card.attachments] == ["round.gif"]
    await resign(discord, dave, thread)


async def test_a_player_who_presses_the_roll_themselves_gets_the_button(discord, bot, games):
    """/settings me dice: myself keeps the Roll button for that player's new matches."""
    fay = discord.add_user("fay")
    saved = await discord.slash("settings me", user=fay, channel=games, dice="myself")
    assert saved.ephemeral and "you press Roll yourself" in saved.text
    known = len(discord.threads(games))
    await discord.slash("rocketball play-computer", user=fay, channel=games, level="easy")
    game_id = latest_game_id(bot)
    thread = await new_thread(discord, games, known)
    card = await current_card(discord, bot, thread, game_id)
    _, _, match, _ = stored_game(bot, game_id)
    assert match.auto == set() and match.engine.phase == "roll"
    assert "Roll the d4" in card.button_labels
    after = await play(discord, bot, thread, game_id, {"N": fay}, Roll(), card)
    assert after.id == card.id and "rolls d4 =" in after.text
    assert "Roll the d4" not in after.button_labels
    await resign(discord, fay, thread)


async def test_the_best_moves_are_buttons_and_a_picked_square_is_marked_on_the_board(
    discord, bot, carol, dave, games
):
    """Three best moves are one click each (the suggestion first), so the menus of every
    square are rarely needed; a square picked from them is marked on the board image."""
    from render.rocketball import square_centre
    from render.rocketball.board import HIGHLIGHT

    _, _, game_id, thread, first = await start_challenge(discord, bot, carol, dave, games)
    _, _, match, _ = stored_game(bot, game_id)
    mover = {"N": carol, "S": dave}[match.engine.to_move]
    moves = [b for b in first.buttons if (b.custom_id or "").split(":")[4:5] == ["do"]]
    assert len(moves) == 3 and moves[0].label.startswith("Suggested: ")
    assert all(" · Place" in b.label or " · Rotate" in b.label for b in moves[1:])
    # The menus of every open square come on request, in place of the best moves.
    assert not first.selects
    menus = await discord.click(first, OTHER_SQUARES, user=mover)
    assert menus.id == first.id and all(s.placeholder.startswith("Squares") for s in menus.selects)
    assert "Back" in menus.button_labels
    # A square with no chip on it, from the menus: the board now marks it.
    square = next(
        option.value
        for menu in menus.selects
        for option in menu.options
        if option.value not in match.engine.chips
    )
    menu = next(s for s in menus.selects if square in [o.value for o in s.options])
    picked = await discord.select(menus, menu.custom_id, [square], user=mover)
    assert f"Square {square} (marked on the board)" in picked.text
    card = discord.message(first)
    assert [a.filename for a in card.attachments] == ["board.png"]
    board = card.attachments[0].image().convert("RGB")
    x, y = square_centre(square)
    assert board.getpixel((x - 20, y - 20)) == HIGHLIGHT
    back = await discord.click(card, "Back", user=mover)
    assert "marked" not in back.text and OTHER_SQUARES in discord.message(first).button_labels
    await resign(discord, dave, thread)


async def test_the_card_says_when_the_time_for_a_move_is_up_and_what_follows(
    discord, bot, carol, dave, games
):
    """The live card gives the deadline of the move as a Discord timestamp (each viewer reads
    it in their own time zone) and what happens then: between people, the forfeit offer."""
    _, _, game_id, thread, first = await start_challenge(
        discord, bot, carol, dave, games, forfeit_hours=30
    )
    with connect(bot) as conn:
        (due,) = conn.execute(
            "SELECT due_at FROM timers WHERE game_id = ? AND event = 'match_forfeit'", (game_id,)
        ).fetchone()
    assert f"⏰ Move <t:{int(due)}:R>: then the opponent may claim the match." in first.text
    assert abs(due - time.time() - 30 * 3600) < 120
    await resign(discord, dave, thread)
    card = await current_card(discord, bot, thread, game_id)
    assert "⏰" not in card.text  # a finished match waits for nobody


# --- against the computer -----------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_match_against_the_computer_to_the_end(discord, bot, games):
    erin = discord.add_user("erin")
    known = len(discord.threads(games))
    reply = await discord.slash(
        "rocketball play-computer", user=erin, channel=games, level="easy", target=1
    )
    assert "takes on the computer (easy)" in reply.text
    game_id = latest_game_id(bot)
    thread = await new_thread(discord, games, known)
    message = await current_card(discord, bot, thread, game_id)
    _, status, match, _ = stored_game(bot, game_id)
    assert status == "active" and match.computers == {1: "easy"}
    # Whoever began, it is now the human's turn (the computer moved at once if it began).
    assert match.engine.to_move == "N"
    last = await play_to_the_end(
        discord, bot, thread, game_id, {"N": erin}, message, rng=random.Random(11)
    )
    _, _, match, _ = stored_game(bot, game_id)
    assert match.engine.phase == "over"
    # A match against the computer is not rated: Erin is not on the leaderboard (nor in the
    # ratings across servers); the levels' ratings are there for comparison.
    for everywhere in (False, True):
        board = await discord.slash(
            "rocketball leaderboard", user=erin, channel=games, everywhere=everywhere
        )
        assert "easy: 1000" in board.text and "master: 2310" in board.text
        assert erin.mention not in board.text
    stats = await discord.slash("rocketball stats", user=erin)
    if match.engine.winner == "N":
        assert "(Erin) wins" in last.text
        assert "1 won of 1" in stats.text
    else:
        assert "(Computer (easy)) wins" in last.text
        assert "0 won of 1" in stats.text


def stored_events(bot, game_id: int, since_version: int) -> list[str]:
    """The event texts of every move saved after `since_version`, in order."""
    import json

    with connect(bot) as conn:
        rows = conn.execute(
            "SELECT events FROM game_moves WHERE game_id = ? AND version > ? ORDER BY version",
            (game_id, since_version),
        ).fetchall()
    return [text for (events,) in rows for text in json.loads(events) if text]


async def test_the_card_shows_the_players_own_move_and_the_computers_reply(discord, bot, games):
    """A click the computer answers at once is two moves; the card says both in words, the
    player's first (docs/rules/rocketball.md "On Discord": every roll, step and goal in words),
    not only the computer's."""
    gus = discord.add_user("gus")
    known = len(discord.threads(games))
    await discord.slash("rocketball play-computer", user=gus, channel=games, level="medium")
    game_id = latest_game_id(bot)
    thread = await new_thread(discord, games, known)
    card = await current_card(discord, bot, thread, game_id)
    for _ in range(6):
        version, status, _, _ = stored_game(bot, game_id)
        if status != "active":
            break
        await discord.click(card, suggested(card), user=gus)
        card = await current_card(discord, bot, thread, game_id)
        if stored_game(bot, game_id)[1] != "active":
            break
        said = stored_events(bot, game_id, version)
        assert said[0].startswith("North "), said  # the player's own move, first
        assert any(text.startswith("South ") for text in said)  # the computer's reply
        for text in said:
            assert text in card.text, (text, card.text)
        assert card.text.index(said[0]) < card.text.index("Next:")
    await resign(discord, gus, thread)


# --- restarts -------------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_match_and_its_buttons_survive_a_restart(discord, bot, alice, carol, general):
    _, _, game_id, thread, first = await start_challenge(discord, bot, alice, carol, general)
    version_before, _, _match, _ = stored_game(bot, game_id)
    await bot.restart()
    seats = {"N": alice, "S": carol}
    # The button drawn before the restart still works: the game is loaded from the database.
    mover = seats[_match.engine.to_move]
    await discord.click(first, suggested(first), user=mover)
    after = await current_card(discord, bot, thread, game_id)
    version_after, _, match_after, _ = stored_game(bot, game_id)
    assert version_after > version_before
    assert match_after.engine.phase in ("place", "aim", "over")
    assert "rolls d4 =" in after.text
    await resign(discord, alice, thread)


@pytest.mark.both_backends
async def test_an_overdue_reminder_and_forfeit_fire_after_a_restart(discord, bot, bob, dave, games):
    _, _, game_id, thread, first = await start_challenge(discord, bot, bob, dave, games)
    _version, _, match, _ = stored_game(bot, game_id)
    waiting = {"N": bob, "S": dave}[match.engine.to_move]
    other_player = dave if waiting is bob else bob
    bot.stop()
    # Time passes while the bot is down: both timers are overdue when it comes back.
    with connect(bot) as conn:
        conn.execute(
            "UPDATE timers SET due_at = ? WHERE payload LIKE ?",
            (time.time() - 5, f'%"game_id": {game_id},%'),
        )
        assert conn.total_changes == 2
    bot.start()
    reminder = await discord.wait_for_message(
        thread, lambda m: "waiting for your move" in m.text, since=first
    )
    assert reminder.content.startswith(waiting.mention)
    offer = await discord.wait_for_message(
        thread, lambda m: "claim the match" in m.text, since=first
    )
    assert offer.content.startswith(other_player.mention)
    # Only the waiting player may claim; the absent one is refused.
    refused = await discord.click(offer, "Claim the win", user=waiting)
    assert refused.ephemeral and "Only the player who is waiting" in refused.content
    claimed = await discord.click(offer, "Claim the win", user=other_player)
    assert not discord.message(offer).buttons  # the spent Claim button is gone
    assert not claimed.ephemeral
    end = await discord.wait_for_message(thread, lambda m: "Dice revealed" in m.content, since=0)
    _, status, match, _ = stored_game(bot, game_id)
    assert (
        status == "finished" and match.forfeited_by == match.engine.to_move
    ) or status == "finished"
    assert (
        other_player.mention in end.content
        and f"({other_player.name.capitalize()}) wins" in end.text
    )
    # The timers fired once and are gone.
    with connect(bot) as conn:
        assert (
            conn.execute(
                "SELECT COUNT(*) FROM timers WHERE payload LIKE ?", (f'%"game_id": {game_id},%',)
            ).fetchone()[0]
            == 0
        )


# --- bad input --------------------------------------------------------------------------------------


async def test_bad_challenges_are_refused_and_nothing_is_stored(
    discord, bot, alice, bob, carol, general
):
    before = latest_game_id(bot)
    to_self = await discord.slash("rocketball challenge", user=alice, opponent=alice)
    assert to_self.ephemeral and "can't challenge yourself" in to_self.content
    to_bot = await discord.slash("rocketball challenge", user=alice, opponent=discord.fake.bot_user)
    assert to_bot.ephemeral and "Bots can't play" in to_bot.content
    assert latest_game_id(bot) == before

    first = await discord.slash("rocketball challenge", user=bob, opponent=carol)
    assert not first.ephemeral
    again = await discord.slash("rocketball challenge", user=carol, opponent=bob)
    assert again.ephemeral and "already have Rocketball match" in again.content
    assert latest_game_id(bot) == before + 1
    declined = await discord.click(first, "Decline", user=carol)
    assert "declined" in discord.message(first).content and not discord.message(first).buttons
    assert declined.response_type == 7


async def test_illegal_moves_and_wrong_players_get_ephemeral_answers(
    discord, bot, alice, bob, carol, games
):
    dana = discord.add_user("dana")
    _, _, game_id, thread, first = await start_challenge(discord, bot, alice, dana, games)
    version, _, match, _ = stored_game(bot, game_id)
    seats = {"N": alice, "S": dana}
    mover, waiting = seats[match.engine.to_move], seats["S" if match.engine.to_move == "N" else "N"]

    out_of_turn = await discord.click(first, suggested(first), user=waiting)
    assert out_of_turn.ephemeral and "It's not your turn" in out_of_turn.content
    spectator = await discord.click(first, suggested(first), user=carol)
    assert spectator.ephemeral and "only its players can act" in spectator.content
    # a spectator hears who may act now, in the card's own words
    mover_name = "Alice" if mover is alice else "Dana"
    assert f"({mover_name}) places a chip." in spectator.content  # the roll was made for them
    assert stored_game(bot, game_id)[0] == version
    placing = first

    bad_inputs = {
        "d6 N": "centre",
        "c4 Q": "I don't understand `Q`",
        "z9 N": "not a square",
        "rotate c4": "Rotate like this",
        "": "Type a move",
    }
    for text, says in bad_inputs.items():
        form = await discord.click(placing, TYPE_A_MOVE, user=mover)
        if not text:
            answer = await discord.slash("rocketball move", user=mover, channel=thread, move="   ")
        else:
            answer = await discord.submit_modal(form, {MOVE_INPUT: text}, user=mover)
        assert answer.ephemeral, text
        assert says in answer.content, (text, answer.content)
    assert stored_game(bot, game_id)[0] == version

    typed_by_spectator = await discord.slash(
        "rocketball move", user=carol, channel=thread, move="c4 N"
    )
    assert (
        typed_by_spectator.ephemeral
        and "no Rocketball match of yours here" in typed_by_spectator.content
    )
    assert stored_game(bot, game_id)[0] == version
    await resign(discord, mover, thread)
    _, status, match, _ = stored_game(bot, game_id)
    assert status == "finished" and match.engine.end_reason == "resign"


@pytest.mark.both_backends
async def test_double_click_applies_the_move_once(discord, bot, bob, carol, general):
    import asyncio

    _, _, game_id, thread, first = await start_challenge(discord, bot, carol, bob, general)
    _, _, match, _ = stored_game(bot, game_id)
    mover = {"N": carol, "S": bob}[match.engine.to_move]
    seen = discord.message(first)  # both clicks are on the card as the player's client shows it
    results = await asyncio.gather(
        discord.click(seen, suggested(seen), user=mover, as_read=True),
        discord.click(seen, suggested(seen), user=mover, as_read=True),
    )
    await current_card(discord, bot, thread, game_id)
    # One move (and the other player's roll, made as their turn begins), not two.
    _, _, after, _ = stored_game(bot, game_id)
    assert len(after.engine.history) == len(match.engine.history) + 2
    # and both clicks answered: the other one privately, as made on an earlier card
    refused = [
        r
        for r in results
        if r.ephemeral and ("earlier turn" in r.content or "not your turn" in r.content)
    ]
    assert len(refused) == 1, [r.content for r in results]
    await resign(discord, bob, thread)


async def test_a_click_on_the_card_as_the_player_saw_it_is_answered_after_it_moved_on(
    discord, bot, bob, carol, general
):
    """A player's client can show a card the bot has redrawn since (another click came first),
    and Discord delivers a click made on it with the card as it was: the player is told it is
    from an earlier turn, privately, and nothing changes."""
    _, _, game_id, thread, first = await start_challenge(discord, bot, carol, bob, general)
    _, _, match, _ = stored_game(bot, game_id)
    mover = {"N": carol, "S": bob}[match.engine.to_move]
    seen = discord.message(first)
    await discord.click(first, suggested(seen), user=mover)
    moved = await current_card(discord, bot, thread, game_id)
    version = stored_game(bot, game_id)[0]
    late = await discord.click(seen, suggested(seen), user=mover, as_read=True)
    assert late.ephemeral and ("earlier turn" in late.content or "not your turn" in late.content)
    assert stored_game(bot, game_id)[0] == version
    assert discord.message(moved).text == moved.text  # the card stays as it was redrawn
    await resign(discord, bob, thread)


async def test_missing_permissions_are_explained_not_failed(discord, bot, alice, bob):
    from fakediscord.model import ATTACH_FILES

    no_files = discord.add_channel("no-files", deny_bot=ATTACH_FILES)
    before = latest_game_id(bot)
    reply = await discord.slash("rocketball challenge", user=alice, channel=no_files, opponent=bob)
    assert reply.ephemeral
    assert "missing the Attach Files permission" in reply.content
    assert latest_game_id(bot) == before


async def test_a_pick_refused_for_a_missing_permission_names_it_and_the_move_follows(
    discord, bot, games
):
    """A moderator takes Attach Files away mid-match: a pick on the card (its redraw marks the
    board, an upload) is refused with 403 50013. The player hears privately which permission
    is missing and that nothing was changed (no unhandled error: the harness fails on one);
    a move made meanwhile is saved and told so, and the card shows it once the permission is
    back."""
    from fakediscord.model import ATTACH_FILES

    ivy, jon = discord.add_user("ivy"), discord.add_user("jon")
    _, _, game_id, thread, first = await start_challenge(discord, bot, ivy, jon, games)
    version, _, match, _ = stored_game(bot, game_id)
    mover = {"N": ivy, "S": jon}[match.engine.to_move]
    discord.deny_bot(games, ATTACH_FILES)

    refused = await discord.click(first, OTHER_SQUARES, user=mover)
    assert refused.ephemeral
    assert "I'm missing the Attach Files permission in this thread" in refused.text
    assert "Nothing was changed" in refused.text and "Something went wrong" not in refused.text
    assert stored_game(bot, game_id)[0] == version
    assert OTHER_SQUARES in discord.message(first).button_labels  # the card as it was

    moved = await discord.click(first, suggested(first), user=mover)
    assert "is saved" in moved.text and "Nothing was changed" not in moved.text
    assert "Attach Files" in moved.text
    assert stored_game(bot, game_id)[0] > version
    discord.take_violations()  # the refused uploads were the point

    discord.deny_bot(games, 0)  # given back: the saved move is drawn by itself
    card = await current_card(discord, bot, thread, game_id)
    assert card_version(card) == stored_game(bot, game_id)[0]
    await resign(discord, ivy, thread)


async def test_a_match_ended_while_a_permission_is_away_shows_its_end_once_it_is_back(
    discord, bot, games
):
    """The finishing move meets a refusal too (Send Messages in Threads taken away: the end is
    announced in the thread): the match is over and stored so, its end not shown, and the end
    follows by itself once the permission is back, as an open match's saved move does
    (docs/operations.md, "Faults over days"), though the match is no longer open."""
    import asyncio

    from fakediscord.model import SEND_MESSAGES_IN_THREADS

    def shown_version() -> int:
        with connect(bot) as conn:
            return conn.execute(
                "SELECT posted_version FROM games WHERE id = ?", (game_id,)
            ).fetchone()[0]

    async def until(check, what: str) -> None:
        for _ in range(300):
            if check():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(what)

    # the bot's start-up repair (at READY) would show the end too: it is behind us first
    await until(lambda: "Ballcourt ready" in bot.log_text(), "the bot was never ready")
    kim, lou = discord.add_user("kim"), discord.add_user("lou")
    _, _, game_id, thread, _ = await start_challenge(discord, bot, kim, lou, games)
    discord.deny_bot(games, SEND_MESSAGES_IN_THREADS)
    await resign(discord, kim, thread)
    version, status, match, _ = stored_game(bot, game_id)
    assert status == "finished" and match.engine.end_reason == "resign"
    refusal = f"match {game_id} version {version} is saved but not shown"
    await until(lambda: refusal in bot.log_text(), "the end was not refused")
    assert shown_version() < version
    discord.take_violations()  # the refused posts were the point

    discord.deny_bot(games, 0)  # given back: the end follows by itself
    await until(lambda: shown_version() == version, "the end was not shown once it was back")
    ended = await discord.wait_for_message(thread, lambda m: "resigned" in m.text, since=0)
    assert ended.text.count("resigned") >= 1
    card = await current_card(discord, bot, thread, game_id)
    assert card_version(card) is None  # no move controls on a finished match's card


async def test_reminder_times_must_make_sense(discord, bot, alice, dave):
    before = latest_game_id(bot)
    reply = await discord.slash(
        "rocketball challenge", user=alice, opponent=dave, remind_hours=48, forfeit_hours=24
    )
    assert reply.ephemeral and "forfeit_hours must be longer than remind_hours" in reply.content
    assert latest_game_id(bot) == before


async def test_variants_are_chosen_by_name_with_suggestions(discord, bot, carol, games):
    frank = discord.add_user("frank")
    suggestions = await discord.autocomplete(
        "rocketball challenge", "variants", "bumpers mo", user=carol, channel=games
    )
    assert [c["value"] for c in suggestions] == ["bumpers moguls"]
    everything = await discord.autocomplete(
        "rocketball challenge", "variants", "", user=carol, channel=games
    )
    assert len(everything) == 9 and everything[0]["value"] == "bumpers"

    unknown = await discord.slash(
        "rocketball challenge", user=carol, channel=games, opponent=frank, variants="lasers"
    )
    assert unknown.ephemeral and "`lasers` is not a Rocketball variant" in unknown.content
    clash = await discord.slash(
        "rocketball challenge", user=carol, channel=games, opponent=frank, variants="tug assault"
    )
    assert clash.ephemeral and "don't mix" in clash.content

    reply = await discord.slash(
        "rocketball challenge",
        user=carol,
        channel=games,
        opponent=frank,
        variants="bumpers, moguls",
        target=3,
    )
    assert "first to 3; variants: bumpers, moguls" in reply.content
    game_id = latest_game_id(bot)
    settings = stored_game(bot, game_id)[2].engine.settings
    assert settings.bumpers > 0 and settings.moguls and not settings.assault
    await discord.click(reply, "Decline", user=frank)


async def test_the_rules_variants_and_rulings_can_be_read_in_discord(discord, alice):
    """The rules were a file path; now every topic of the rules page is a page here."""
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs/rules/rocketball.md").read_text()
    overview = await discord.slash("rocketball rules", user=alice)
    assert overview.ephemeral and "docs/rules" not in overview.text
    assert "Rocketball rules: Overview" in overview.text
    topics = [option.label for option in overview.selects[0].options]
    assert {"Setup", "Variant: Bumpers", "Variant: Assault!", "Rulings", "Typing moves"} <= set(
        topics
    )
    bumpers = await discord.select(
        overview, "Choose a topic", [str(topics.index("Variant: Bumpers"))], user=alice
    )
    assert "Rocketball rules: Variant: Bumpers" in bumpers.text
    assert "1-2 it turns a quarter clockwise" in bumpers.text and "6, 7 or 8" in bumpers.text
    # The page and Discord say the same: the text comes from the rules page itself.
    assert "1-2 it turns a quarter clockwise" in " ".join(page.split())
    suggestions = await discord.autocomplete("rocketball rules", "topic", "assa", user=alice)
    assert [c["value"] for c in suggestions] == ["Variant: Assault!"]
    assault = await discord.slash("rocketball rules", user=alice, topic="Variant: Assault!")
    assert "collide" in assault.text
    help_page = await discord.slash("help", user=alice, game="rocketball")
    assert "/rocketball challenge" in help_page.text and "/rocketball rules" in help_page.text


async def test_special_chip_counts_and_a_tug_of_war_that_never_swaps(discord, bot, games):
    hana, ivo = discord.add_user("hana"), discord.add_user("ivo")
    reply = await discord.slash(
        "rocketball challenge",
        user=hana,
        channel=games,
        opponent=ivo,
        variants="bumpers gusts tug",
        special_chips=6,
        tug_rounds=0,
    )
    settings = stored_game(bot, latest_game_id(bot))[2].engine.settings
    assert (settings.bumpers, settings.gusts, settings.twisters) == (6, 6, 0)
    assert settings.tug_of_war and settings.tug_swap_rounds == 0
    await discord.click(reply, "Decline", user=ivo)


async def test_a_mistyped_move_is_answered_with_every_form_a_move_takes(discord, bot, games):
    jo, kai = discord.add_user("jo"), discord.add_user("kai")
    _, _, game_id, thread, _first = await start_challenge(discord, bot, jo, kai, games)
    mover = {"N": jo, "S": kai}[stored_game(bot, game_id)[2].engine.to_move]
    answer = await discord.slash("rocketball move", user=mover, channel=thread, move="banana")
    assert answer.ephemeral and "`banana`" in answer.content
    assert "rotate c4 cw" in answer.content and "drift c4 c5" in answer.content
    await resign(discord, jo, thread)


async def test_a_challenger_may_withdraw_before_an_answer(discord, bot, dave, games):
    gina = discord.add_user("gina")
    reply = await discord.slash("rocketball challenge", user=dave, channel=games, opponent=gina)
    game_id = latest_game_id(bot)
    await discord.click(reply, "Decline", user=dave)
    assert discord.message(reply).content == f"Rocketball challenge #{game_id} was withdrawn."
    assert stored_game(bot, game_id)[1] == "cancelled"
    again = await discord.slash("rocketball challenge", user=dave, channel=games, opponent=gina)
    await resign(discord, dave, games)
    assert stored_game(bot, latest_game_id(bot))[1] == "cancelled"
    assert not again.ephemeral
