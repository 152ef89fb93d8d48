"""The shared match host, through the fake Discord, played with Rocketball (its first game).

Each test here was written against a defect seen in the host before it was shared:
predictable dice, duplicate matches from simultaneous commands, replies too long for Discord,
matches created in DMs, spectators pinging players, a resignation without confirmation, a
withdrawn challenge answered with the generic error, spent buttons left live, lost timers and
missing turn messages after a crash, and no way for a user to see or delete their data.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3

import pytest

from rules.records import verify_commitment
from rules.rocketball import apply, format_action, legal_actions
from tests.e2e.stored import connect

pytestmark = pytest.mark.e2e

# The commitment as a message shows it: its first 16 hex digits (host/match.py dice_line); the
# record carries it whole.
HASH = re.compile(r"`([0-9a-f]{16})…`")


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "9090"}


def games_row(bot, game_id: int) -> dict:
    with connect(bot) as conn:
        conn.row_factory = sqlite3.Row
        return dict(conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone())


def game_count(bot, where: str = "1 = 1", parameters: tuple = ()) -> int:
    with connect(bot) as conn:
        return conn.execute(f"SELECT COUNT(*) FROM games WHERE {where}", parameters).fetchone()[0]


def latest_game_id(bot) -> int:
    with connect(bot) as conn:
        return conn.execute("SELECT MAX(id) FROM games").fetchone()[0] or 0


def engine_state(bot, game_id: int) -> dict:
    return json.loads(games_row(bot, game_id)["state"])["engine"]


def is_turn(message) -> bool:
    """The match's live card (a Components v2 container)."""
    return any(component.get("type") == 17 for component in message.components)


def is_result(message) -> bool:
    """The message that ends a match: the result, every player pinged, the seed revealed."""
    return "Dice revealed" in message.content


async def answer_of(discord, reply):
    """What a deferred command finally says in its own (ephemeral) response."""
    record = discord.fake.interactions[reply.interaction_id]
    for _ in range(300):
        message = discord.message(record.original_message_id)
        if not message.loading:
            return message
        await asyncio.sleep(0.05)
    raise AssertionError("the command's response stayed 'thinking'")


async def start_match(discord, challenger, opponent, channel):
    # Both press the d4 themselves (/settings me): the roll is these tests' simplest move.
    for player in (challenger, opponent):
        await discord.slash("settings me", user=player, channel=channel, dice="myself")
    reply = await discord.slash(
        "rocketball challenge", user=challenger, channel=channel, opponent=opponent
    )
    await discord.click(reply, "Accept", user=opponent)
    thread = await discord.wait_for_thread(channel)
    first = await discord.wait_for_message(thread, is_turn, timeout=15)
    return reply, thread, first


async def resign(discord, user, channel):
    """Resign through the command and its confirmation button."""
    asked = await discord.slash("rocketball resign", user=user, channel=channel)
    assert asked.ephemeral and "Resign" in asked.button_labels, asked.text
    return await discord.click(asked, "Resign", user=user)


def record_text(reply) -> str:
    return reply.attachments[0].data.decode()


# --- 1. provably fair dice ----------------------------------------------------------------------


@pytest.mark.both_backends
async def test_the_seed_is_committed_at_the_start_secret_in_play_and_revealed_at_the_end(
    discord, bot, general
):
    ann, ben, spectator = (discord.add_user(n) for n in ("ann", "ben", "sam"))
    reply, thread, first = await start_match(discord, ann, ben, general)
    game_id = latest_game_id(bot)
    published = HASH.search(discord.message(reply).text + first.text)
    assert published, "the first messages publish the seed's commitment"

    summary = await discord.slash("rocketball history", user=spectator, match_id=game_id)
    assert summary.ephemeral and "Now:" in summary.text and "d4" in summary.text
    assert "d4" in summary.attachments[0].data.decode()
    live = await discord.slash("rocketball record", user=spectator, match_id=game_id)
    text = record_text(live)
    assert "[Seed" not in text and "[Salt" not in text
    assert f'[Commitment "{published.group(1)}' in text
    assert str(engine_state(bot, game_id)["seed"]) not in text

    await resign(discord, ann, thread)
    end = await discord.wait_for_message(thread, lambda m: "wins" in m.text, timeout=15)
    seed = engine_state(bot, game_id)["seed"]
    assert str(seed) in end.text, "the final message reveals the seed"
    finished = record_text(await discord.slash("rocketball record", user=ann, match_id=game_id))
    headers = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', finished, re.M))
    assert int(headers["Seed"]) == seed
    assert headers["Commitment"].startswith(published.group(1))
    assert verify_commitment("rocketball", seed, headers["Salt"], headers["Commitment"])


# --- 4. one active match per pair per channel, enforced by the database -------------------------


@pytest.mark.both_backends
async def test_twenty_simultaneous_challenges_make_one_match(discord, bot, games):
    cleo, dan = discord.add_user("cleo"), discord.add_user("dan")
    replies = await asyncio.gather(
        *(
            discord.slash("rocketball challenge", user=cleo, channel=games, opponent=dan)
            for _ in range(20)
        )
    )
    assert sum(not r.ephemeral for r in replies) == 1
    assert all("already have Rocketball match" in r.content for r in replies if r.ephemeral)
    assert game_count(bot, "status = 'pending' AND channel_id = ?", (games.id,)) == 1
    refused = [r for r in replies if r.ephemeral]
    assert len(refused) == 19


async def test_twenty_simultaneous_computer_matches_make_one_match_and_one_thread(
    discord, bot, games
):
    eve = discord.add_user("eve")
    threads_before = len(discord.threads(games))
    before = latest_game_id(bot)
    await asyncio.gather(
        *(
            discord.slash("rocketball play-computer", user=eve, channel=games, level="easy")
            for _ in range(20)
        ),
        return_exceptions=True,
    )
    await asyncio.sleep(0.5)
    assert game_count(bot, "id > ?", (before,)) == 1
    assert len(discord.threads(games)) == threads_before + 1


# --- 6. long input never breaks the reply ---------------------------------------------------------


async def test_the_longest_allowed_input_gets_a_short_ephemeral_answer(discord, bot, general):
    fay, gus = discord.add_user("fay"), discord.add_user("gus")
    command = next(c for c in discord.commands() if c["name"] == "rocketball")
    challenge = next(o for o in command["options"] if o["name"] == "challenge")
    variants = next(o for o in challenge["options"] if o["name"] == "variants")
    longest = variants.get("max_length", 4000)
    assert longest <= 200, "string options carry a max_length"
    reply = await discord.slash(
        "rocketball challenge", user=fay, channel=general, opponent=gus, variants="x" * longest
    )
    assert reply.ephemeral and len(reply.content) <= 2000
    assert "is not a Rocketball variant" in reply.content


# --- 7. DMs -------------------------------------------------------------------------------------


async def test_no_match_is_created_in_a_dm(discord, bot):
    """discord.py ignores guild_only() on subcommands: the group itself is guild-only now, so
    Discord does not offer the command in DMs at all (the fake refuses it as the client would)."""
    from fakediscord.model import DriverError

    hal = discord.add_user("hal")
    before = game_count(bot)
    with pytest.raises(DriverError, match="not available in DMs"):
        await discord.slash(
            "rocketball play-computer", user=hal, channel=discord.open_dm(hal), level="easy"
        )
    command = next(c for c in discord.commands() if c["name"] == "rocketball")
    assert command.get("contexts") == [0] or command.get("dm_permission") is False
    assert game_count(bot) == before


# --- 5. permissions ------------------------------------------------------------------------------


async def test_a_channel_whose_threads_the_bot_cannot_write_in_is_refused_up_front(discord, bot):
    from fakediscord.model import SEND_MESSAGES_IN_THREADS

    ida, jon = discord.add_user("ida"), discord.add_user("jon")
    channel = discord.add_channel("no-thread-posts", deny_bot=SEND_MESSAGES_IN_THREADS)
    before = game_count(bot)
    reply = await discord.slash("rocketball challenge", user=ida, channel=channel, opponent=jon)
    assert reply.ephemeral and "Send Messages in Threads" in reply.content
    assert game_count(bot) == before


# --- 9. the smaller defects -----------------------------------------------------------------------


async def test_a_spectator_showing_the_board_pings_nobody(discord, bot, general):
    kim, lee, max_ = (discord.add_user(n) for n in ("kim", "lee", "max"))
    _, thread, _ = await start_match(discord, kim, lee, general)
    shown = await answer_of(
        discord, await discord.slash("rocketball board", user=max_, channel=thread)
    )
    assert shown.ephemeral and "live card" in shown.content
    posted = await discord.wait_for_message(thread, is_turn, timeout=15)
    assert kim.mention not in posted.text and lee.mention not in posted.text
    assert posted.buttons  # the fresh card is the one to play on
    # Nothing but the new card was posted: the spectator pinged nobody.
    assert not [m for m in discord.channel_messages(thread) if m.id > posted.id]
    await resign(discord, kim, thread)


async def test_resigning_asks_first_and_the_end_names_who_resigned(discord, bot, general):
    ned, ola = discord.add_user("ned"), discord.add_user("ola")
    _, thread, _ = await start_match(discord, ned, ola, general)
    game_id = latest_game_id(bot)
    asked = await discord.slash("rocketball resign", user=ned, channel=thread)
    assert asked.ephemeral and games_row(bot, game_id)["status"] == "active"
    resigned = await discord.click(asked, "Resign", user=ned)
    # The confirmation's button is spent with it.
    assert not resigned.buttons and "Resign" not in discord.message(asked).button_labels
    end = await discord.wait_for_message(thread, is_result, timeout=15)
    assert "resign" in end.text and "0-0!" not in end.text
    assert ola.mention in end.content and ned.mention in end.content
    assert end.text.count("wins") == 1
    assert games_row(bot, game_id)["status"] == "finished"


async def test_accepting_a_withdrawn_challenge_says_it_was_withdrawn(discord, bot, general):
    pia, quin = discord.add_user("pia"), discord.add_user("quin")
    reply = await discord.slash("rocketball challenge", user=pia, channel=general, opponent=quin)
    game_id = latest_game_id(bot)
    withdrawn, late = await asyncio.gather(
        discord.click(reply, "Decline", user=pia), discord.click(reply, "Accept", user=quin)
    )
    if games_row(bot, game_id)["status"] == "cancelled":
        assert late.ephemeral and late.content == "That challenge was already withdrawn."
    else:  # the accept got there first: the withdrawal is the one refused
        assert withdrawn.ephemeral and "already accepted" in withdrawn.content
        await resign(discord, pia, await discord.wait_for_thread(general))


async def test_a_move_typed_as_a_command_redraws_the_card(discord, bot, general):
    ray, sue = discord.add_user("ray"), discord.add_user("sue")
    _, thread, first = await start_match(discord, ray, sue, general)
    game_id = latest_game_id(bot)
    mover = {"N": ray, "S": sue}[engine_state(bot, game_id)["to_move"]]
    placing = await discord.click(first, "Roll the d4", user=mover)
    assert placing.response_type == 7 and placing.id == first.id  # the card, in place
    assert "Type a move…" in placing.button_labels
    from rules.rocketball import GameState

    state = GameState.from_dict(engine_state(bot, game_id))
    move = next(a for a in legal_actions(state) if type(a).__name__ in ("Place", "Rotate", "Pass"))
    apply(state, move)  # the move is legal
    version = games_row(bot, game_id)["version"]
    done = await answer_of(
        discord,
        await discord.slash(
            "rocketball move", user=mover, channel=thread, move=format_action(move)
        ),
    )
    assert done.ephemeral and "card shows your move" in done.text
    assert games_row(bot, game_id)["version"] > version
    card = await discord.wait_for_edit(placing, timeout=15)
    assert f":{version}:" not in " ".join(b.custom_id or "" for b in card.buttons), (
        "the spent controls are gone"
    )
    await resign(discord, ray, thread)


# --- 2. timers and turn messages survive a crash ---------------------------------------------------


@pytest.mark.both_backends
async def test_missing_timers_and_a_missing_turn_message_are_restored_at_start_up(
    discord, bot, general
):
    tom, uma = discord.add_user("tom"), discord.add_user("uma")
    _, thread, first = await start_match(discord, tom, uma, general)
    game_id = latest_game_id(bot)
    bot.stop()
    # As if the bot died right after saving a roll: the move is stored, its timers and its turn
    # message are not.
    from rules.rocketball import GameState, Roll

    row = games_row(bot, game_id)
    envelope = json.loads(row["state"])
    after, events = apply(GameState.from_dict(envelope["engine"]), Roll())
    envelope["engine"] = after.to_dict()
    with connect(bot) as conn:
        conn.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
            (json.dumps(envelope), game_id),
        )
        conn.execute(
            "INSERT INTO game_moves (game_id, version, actor_id, action, events, created_at)"
            " VALUES (?, ?, ?, 'roll', ?, CURRENT_TIMESTAMP)",
            (game_id, row["version"] + 1, tom.id, json.dumps([e.text for e in events])),
        )
        conn.execute("DELETE FROM timers")
    bot.start()
    turn = await discord.wait_for_edit(first, lambda m: "rolls d4" in m.text, timeout=15)
    assert "Type a move…" in turn.button_labels or "Pass" in " ".join(turn.button_labels)
    with connect(bot) as conn:
        events = {e for (e,) in conn.execute("SELECT event FROM timers")}
    assert {"match_remind", "match_forfeit"} <= events
    await resign(discord, tom, thread)


# --- 11. a user's data ------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_privacy_shows_and_deletes_a_users_data(discord, bot, general):
    vic, wes = discord.add_user("vic"), discord.add_user("wes")
    _, thread, _ = await start_match(discord, vic, wes, general)
    game_id = latest_game_id(bot)
    await resign(discord, vic, thread)
    await discord.wait_for_message(thread, lambda m: "wins" in m.text, timeout=15)
    shown = await discord.slash("privacy", user=vic)
    assert shown.ephemeral and "1 finished match" in shown.text
    asked = await discord.click(shown, "Delete my data", user=vic)
    assert asked.ephemeral
    with connect(bot) as conn:
        players = [u for (u,) in conn.execute("SELECT user_id FROM game_players")]
        names = conn.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    assert vic.id not in players and wes.id in players
    assert "vic" not in names.lower()
    stats = await discord.slash("rocketball stats", user=wes)
    assert "Played" in stats.text


# --- 5. a move saved but not posted ----------------------------------------------------------------


async def ephemeral_text_for(fake, user, needle: str, timeout: float = 10.0) -> str:
    """The newest ephemeral message `user` got that contains `needle` (read off the fake)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        for message_id, meta in list(fake.message_meta.items()):
            content = fake.messages.get(message_id, {}).get("content") or ""
            if meta.ephemeral_for == user.id and needle in content:
                return content
        await asyncio.sleep(0.05)
    raise AssertionError(f"{user.name} was not told {needle!r}")


async def test_a_move_saved_but_not_posted_says_so_and_board_posts_it_later(
    discord, bot, fake_discord
):
    """With a permission removed mid-match a roll was saved and its buttons
    removed, yet the player was told "Nothing was changed"."""
    from fakediscord.model import ATTACH_FILES

    xia, yan = discord.add_user("xia"), discord.add_user("yan")
    channel = discord.add_channel("permissions-later")
    _, thread, first = await start_match(discord, xia, yan, channel)
    game_id = latest_game_id(bot)
    version = games_row(bot, game_id)["version"]
    mover = {"N": xia, "S": yan}[engine_state(bot, game_id)["to_move"]]
    discord.deny_bot(channel, ATTACH_FILES)
    await discord.click(first, "Roll the d4", user=mover, wait_followup=False)
    told = await ephemeral_text_for(fake_discord, mover, "is saved")
    assert "Nothing was changed" not in told and "/rocketball board" in told
    assert "I'm missing the Attach Files permission in the match's thread" in told
    assert games_row(bot, game_id)["version"] == version + 1
    discord.take_violations()  # the refused upload was the point

    discord.deny_bot(channel, 0)
    shown = await answer_of(
        discord, await discord.slash("rocketball board", user=mover, channel=thread)
    )
    assert shown.ephemeral and "live card" in shown.content
    posted = await discord.wait_for_message(thread, is_turn, since=first, timeout=15)
    assert "Roll the d4" not in posted.button_labels and posted.buttons
    await resign(discord, xia, thread)


# --- rematch and ratings -------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_rematch_swaps_the_seats_and_results_move_the_leaderboard(discord, bot, general):
    zed, amy = discord.add_user("zed"), discord.add_user("amy")
    _, thread, _ = await start_match(discord, zed, amy, general)
    first_id = latest_game_id(bot)
    await resign(discord, zed, thread)
    await discord.wait_for_message(thread, is_result, timeout=15)
    end = await discord.wait_for_message(thread, is_turn, since=0)
    assert end.button_labels == ["Rematch", "Replay ▶", "Why?"]
    spectator = await discord.click(end, "Rematch", user=discord.add_user("bea"))
    assert spectator.ephemeral and "Only the players" in spectator.content
    asked = await discord.click(end, "Rematch", user=zed)
    assert asked.ephemeral and general.mention in asked.content
    offer = await discord.wait_for_message(general, lambda m: "rematch" in m.content)
    assert amy.mention in offer.content and "seats swapped" in offer.content
    second_id = latest_game_id(bot)
    assert second_id == first_id + 1
    refused = await discord.click(offer, "Accept", user=zed)
    assert refused.ephemeral and f"Only {amy.mention} can answer" in refused.content
    await discord.click(offer, "Accept", user=amy)
    second_thread = await discord.wait_for_thread(general)
    # the match's card in its thread: the match is stored with the thread by then (the thread
    # shows a moment before the bot has noted it, and the resign below looks the match up by it)
    await discord.wait_for_message(second_thread, is_turn, since=0, timeout=15)
    first_names = json.loads(games_row(bot, first_id)["state"])["names"]
    second_names = json.loads(games_row(bot, second_id)["state"])["names"]
    assert second_names == list(reversed(first_names))
    assert engine_state(bot, second_id)["settings"] == engine_state(bot, first_id)["settings"]

    # Glicko-2 between two newcomers (1500, deviation 350): the winner 1662, the loser 1338,
    # both provisional after one rated game, each counted once, here and across servers.
    for everywhere in (False, True):
        board = await discord.slash(
            "rocketball leaderboard", user=zed, channel=general, everywhere=everywhere
        )
        lines = [  # earlier tests' players may be listed too
            line for line in board.text.splitlines() if amy.mention in line or zed.mention in line
        ]
        assert amy.mention in lines[0] and "**1662?** ▲162 · 1 game, 1 win" in lines[0]
        assert zed.mention in lines[1] and "**1338?** ▼162 · 1 game, 0 wins" in lines[1]
        assert ("across every server" in board.text) == everywhere
    await resign(discord, amy, second_thread)


async def test_a_move_is_answered_only_once_it_is_saved(discord, bot, general):
    """A form submission used to be acknowledged (the form closed, as if taken) before its move
    was saved, so a crash in between lost the move without a word. Now the answer comes only
    after the save: at the very moment the player's form closes, the move is stored."""
    from rules.rocketball import GameState

    gil, hal = discord.add_user("gil"), discord.add_user("hal")
    _, thread, card = await start_match(discord, gil, hal, general)
    game_id = latest_game_id(bot)
    mover = {"N": gil, "S": hal}[engine_state(bot, game_id)["to_move"]]
    card = await discord.click(card, "Roll the d4", user=mover)
    state = GameState.from_dict(engine_state(bot, game_id))
    if state.phase != "place":
        pytest.skip("this seed scored on the first roll")  # pragma: no cover - seed guard
    move = next(a for a in legal_actions(state) if type(a).__name__ == "Place")
    version = games_row(bot, game_id)["version"]
    form = await discord.click(card, "Type a move…", user=mover)
    field = form.modal_inputs[0]["custom_id"]
    answer = await discord.submit_modal(
        form, {field: format_action(move)}, user=mover, wait_followup=False
    )
    assert answer.response_type in (6, 7)  # the form closed: the player sees it taken...
    assert games_row(bot, game_id)["version"] == version + 1  # ...and it is already stored
    await resign(discord, gil, thread)


async def test_a_name_full_of_markdown_is_shown_as_text(discord, bot, general):
    """Names are user input: on the card, in the pings and at the table they read as typed,
    never as a link, a mention, bold text or a heading in the bot's own voice."""
    hostile = discord.add_user("[x](https://e.vil) @everyone **B** ||s|| <t:1:R> # h")
    ivy = discord.add_user("ivy")
    _, thread, card = await start_match(discord, hostile, ivy, general)
    game_id = latest_game_id(bot)
    lobby = await discord.slash("rollerball new", user=hostile, channel=general, players=2)
    assert "](https://" not in lobby.text and "\\*\\*b\\*\\*" in lobby.text.lower()
    await discord.click(lobby, "Leave", user=hostile)
    await resign(discord, hostile, thread)  # the result names both players
    await discord.wait_for_message(thread, is_result, timeout=15, since=0)
    texts = [discord.message(card).text] + [m.text for m in discord.channel_messages(thread)]
    for text in texts:
        assert "](https://" not in text and "@everyone" not in text and "**b**" not in text.lower()
        assert "||s||" not in text and "<t:1:R>" not in text
    assert any("\\[x\\]" in text for text in texts)  # the name is there, escaped
    assert games_row(bot, game_id)["status"] == "finished"


# --- a late interaction ------------------------------------------------------------------------


async def test_a_click_answered_too_late_is_still_saved_and_drawn(discord, bot, fake_discord):
    """The bot's process stood still (a stopped shard) while a click waited: when it goes on, the
    click is past Discord's 3 seconds and its answer gets 10062. The move is saved, so the card
    still shows it and the match goes on."""
    import os
    import signal

    from fakediscord import DiscordViolation

    ivo, jak = discord.add_user("ivo"), discord.add_user("jak")
    channel = discord.add_channel("late-clicks")
    _, thread, first = await start_match(discord, ivo, jak, channel)
    game_id = latest_game_id(bot)
    version = games_row(bot, game_id)["version"]
    mover = {"N": ivo, "S": jak}[engine_state(bot, game_id)["to_move"]]
    assert bot.process is not None
    os.kill(bot.process.pid, signal.SIGSTOP)
    try:
        click = asyncio.create_task(
            discord.click(first, "Roll the d4", user=mover, settle=False, timeout=8)
        )
        await asyncio.sleep(4)  # past Discord's 3 s
    finally:
        os.kill(bot.process.pid, signal.SIGCONT)
    with pytest.raises(DiscordViolation):
        await click  # no answer came in time: that is the point
    discord.take_violations()
    for _ in range(200):
        row = games_row(bot, game_id)
        if row["version"] > version and row["posted_version"] == row["version"]:
            break
        await asyncio.sleep(0.05)
    row = games_row(bot, game_id)
    assert row["version"] == version + 1, "the move was saved"
    assert row["posted_version"] == row["version"], "the saved move was drawn"
    card = await discord.wait_for_edit(
        first, lambda m: m.buttons and "Roll the d4" not in m.button_labels, timeout=10
    )
    assert "rolls" in card.text
    await resign(discord, ivo, thread)


# --- rated or casual (last: its matches draw seeds the tests above do not expect) ------------


@pytest.mark.both_backends
async def test_a_casual_match_moves_no_rating_and_challenges_show_the_ratings(
    discord, bot, general
):
    """The challenge says rated or casual with each player's rating here, /games shows them
    beside the opponent, and a casual match ends without moving either rating."""
    uri, viv = discord.add_user("uri"), discord.add_user("viv")
    for player in (uri, viv):
        await discord.slash("settings me", user=player, channel=general, dice="myself")
    casual = await discord.slash(
        "rocketball challenge", user=uri, channel=general, opponent=viv, rated=False
    )
    assert (
        "; casual)" in casual.text and "North (Uri) · 1500? vs South (Viv) · 1500?" in casual.text
    )
    listed = await discord.slash("games", user=viv, channel=general)
    assert "vs Uri, casual" in listed.text  # a casual match shows no ratings
    await discord.click(casual, "Accept", user=viv)
    thread = await discord.wait_for_thread(general)
    await discord.wait_for_message(thread, is_turn, timeout=15)
    await resign(discord, uri, thread)
    await discord.wait_for_message(thread, is_result, timeout=15)
    board = await discord.slash("rocketball leaderboard", user=uri, channel=general)
    assert uri.mention not in board.text and viv.mention not in board.text

    rated = await discord.slash("rocketball challenge", user=uri, channel=general, opponent=viv)
    assert "; rated)" in rated.text
    listed = await discord.slash("games", user=viv, channel=general)
    assert "vs Uri · 1500?, rated (you: 1500?)" in listed.text
    await discord.click(rated, "Decline", user=viv)
