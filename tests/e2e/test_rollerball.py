"""Rollerball (the board game) through the fake Discord, as players use it: a table opened,
joined and started with a computer seat, the secret bid, a game played to a win, the hand only
its owner sees, a restart mid-game, an absent player replaced by a computer (and back), and bad
input answered ephemerally with nothing changed.

The people's choices come from the engine's own computer player on their seat's view (seeded),
sent the way a player sends them: the turn message's buttons, the move form, `/rollerball move`.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from cogs.rollerball.presenter import RollerballAdapter
from fakediscord import DriverError
from host import Match
from rules.rollerball import (
    Bank,
    Keep,
    Move,
    Pass,
    Play,
    actors,
    card_name,
    choose_action,
    format_action,
    kind_of,
    next_step,
    verify_record,
    view_for,
)
from tests.e2e.cards import current_card, is_card, is_result, posted
from tests.e2e.rollerball_clicks import CARD_PASS, ClickingTable, spent_controls, stored_match
from tests.e2e.stored import connect

pytestmark = pytest.mark.e2e

# The commitment as a message shows it: its first 16 hex digits (host/match.py dice_line); the
# record carries it whole.
HASH = re.compile(r"`([0-9a-f]{16})…`")
FORM = "Type a move…"  # the card's button that opens the move form, at every step
CARD_NAMES = (
    "Up Move",
    "Down Move",
    "Splitter Up",
    "Splitter Down",
    "Replacer",
    "Energiser",
    "Rubberiser",
    "Derubberiser",
)


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # New games get their seeds from a fixed sequence: the same run gives the same games.
    return {"GAME_SEED": "13013"}


# --- reading what the bot stored ----------------------------------------------------------------


def stored(bot, game_id: int) -> tuple[int, str, Match | None, tuple[int, ...]]:
    """(version, status, match (None while a table waits for players), seats' user ids)."""
    with connect(bot) as conn:
        version, status, state = conn.execute(
            "SELECT version, status, state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        players = tuple(
            user
            for (user,) in conn.execute(
                "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        )
    started = status in ("active", "finished")
    return (
        version,
        status,
        Match.from_json(RollerballAdapter(), state) if started else None,
        players,
    )


def latest_game_id(bot) -> int:
    with connect(bot) as conn:
        return conn.execute("SELECT MAX(id) FROM games").fetchone()[0] or 0


SEEN_IMAGES: set[str] = set()  # every image a card showed in this module's games


def hand_names(match: Match, seat: int) -> list[str]:
    return sorted(card_name(kind_of(card)) for card in match.engine.game.hands[seat])


# --- acting as players ----------------------------------------------------------------------------


async def open_table(discord, bot, creator, channel, *, joiners=(), computers=0, **options):
    """A table opened, joined and started; returns (game id, thread, first turn message)."""
    lobby = await discord.slash("rollerball new", user=creator, channel=channel, **options)
    assert not lobby.ephemeral, lobby.text
    game_id = latest_game_id(bot)
    for user in joiners:
        await discord.click(lobby, "Join", user=user)
    for _ in range(computers):
        await discord.click(lobby, "Add computer", user=creator)
    started = await discord.click(lobby, "Start", user=creator)
    assert "has started" in started.text, started.text
    thread = await discord.wait_for_thread(channel)
    first = await current_card(discord, bot, thread, game_id)
    return game_id, thread, first


async def send(discord, thread, message, user, kind: str, action, size: int, *, typed=False):
    """Send `action` the way a player would: a button where there is one, else the form (or,
    with `typed`, /rollerball move). Returns the bot's answer to the interaction."""
    if isinstance(action, Bank):
        return await discord.click(message, "Bank it (victory point)", user=user)
    if isinstance(action, Keep):
        return await discord.click(message, "Keep it in hand", user=user)
    if isinstance(action, Pass):
        return await discord.click(message, CARD_PASS[kind], user=user)
    if isinstance(action, Move) and action.start == action.end:
        return await discord.click(message, "Stay", user=user)
    text = format_action(action, size)
    if typed:
        return await discord.slash("rollerball move", user=user, channel=thread, move=text)
    form = await discord.click(message, FORM, user=user)
    assert form.response_type == 9, form.text
    field = form.modal_inputs[0]["custom_id"]
    return await discord.submit_modal(form, {field: text}, user=user)


async def play_one(discord, bot, game_id, thread, message, seats, rng, *, typed=False):
    """The first person the game waits for plays their seat's computer choice (random level,
    from their own view). Returns the next turn message."""
    _, _, match, _ = stored(bot, game_id)
    game = match.engine.game
    seat = min(s for s in actors(game) if s in seats)
    action = choose_action(view_for(game, seat), rng, "random")
    kind = next_step(game).kind
    answer = await send(
        discord, thread, message, seats[seat], kind, action, game.settings.board, typed=typed
    )
    assert not answer.ephemeral or answer.response_type == 5, (kind, action, answer.text)
    card = await current_card(discord, bot, thread, game_id)
    SEEN_IMAGES.update(a.filename for a in card.attachments)
    return card


async def resign(discord, user, channel):
    """Resign through the command and its confirmation."""
    asked = await discord.slash("rollerball resign", user=user, channel=channel)
    assert asked.ephemeral and "Resign" in asked.button_labels, asked.text
    return await discord.click(asked, "Resign", user=user)


# --- a whole game -----------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_table_with_two_people_and_a_computer_is_played_to_a_win(
    discord, bot, alice, bob, general
):
    lobby = await discord.slash("rollerball new", user=alice, players=3, target=1)
    assert not lobby.ephemeral
    assert "**Rollerball table #" in lobby.text and "1 of 3 seats taken" in lobby.text
    assert lobby.button_labels == ["Join", "Leave", "Add computer", "Start"]
    published = HASH.search(lobby.text)
    assert published, "the dice commitment is published when the table opens"
    game_id = latest_game_id(bot)

    joined = await discord.click(lobby, "Join", user=bob)
    assert joined.response_type == 7 and "2 of 3 seats taken" in joined.text
    added = await discord.click(lobby, "Add computer", user=alice)
    assert "3 of 3 seats taken" in added.text and "3. Computer 1" in added.text
    assert stored(bot, game_id)[3] == (alice.id, bob.id, 0)

    await discord.click(lobby, "Start", user=alice)
    announcement = discord.message(lobby)
    assert "has started" in announcement.text and not announcement.buttons
    thread = await discord.wait_for_thread(general)
    assert thread.name == f"Rollerball #{game_id}"
    first = await current_card(discord, bot, thread, game_id)
    # The computer has bid at once; the people are asked, with the board as a picture.
    assert "Computer 1 has bid." in first.text
    assert first.button_labels == [FORM, "My hand", "Follow", "Why?"]
    ping = await discord.wait_for_message(thread, lambda m: not is_card(m), since=0)
    assert alice.mention in ping.content and bob.mention in ping.content
    assert first.images[0].width >= 600

    seats = {0: alice, 1: bob}
    rng = random.Random(7)
    message = first
    for count in range(200):
        _, status, match, _ = stored(bot, game_id)
        if status == "finished":
            break
        message = await play_one(
            discord, bot, game_id, thread, message, seats, rng, typed=count % 5 == 4
        )
    else:
        raise AssertionError("the game did not end in 200 actions")

    _, _, match, _ = stored(bot, game_id)
    table = match.engine
    winner = table.final_winners[0]
    assert len(table.final_winners) == 1 and len(table.game.victory[winner]) == 1
    name = ("Alice", "Bob", "Computer 1")[winner]
    assert f"{name} wins with 1 victory point!" in message.text
    # the card of a finished game offers no move: only its replay and Why?
    assert message.button_labels == ["Replay ▶", "Why?"] and not message.selects
    end = await discord.wait_for_message(thread, is_result, since=0)
    assert f"**{name} wins with 1 victory point!**" in end.text
    assert end.text.count(" wins ") == 1
    seed = table.game.seed
    assert str(seed) in end.text, "the end reveals the seed"

    # Every move was animated where balls moved, and the record verifies.
    assert "move.gif" in SEEN_IMAGES
    record = await discord.slash("rollerball record", user=bob, match_id=game_id)
    text = record.attachments[0].data.decode()
    assert f'[Commitment "{published.group(1)}' in text and f'[Seed "{seed}"]' in text
    assert verify_record(text) == []

    loser = bob if winner == 0 else alice
    stats = await discord.slash("rollerball stats", user=loser)
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert fields["Played"] == "1" and fields["Lost"] == "1" and fields["Won"] == "0"
    with connect(bot) as conn:
        rows = conn.execute(
            "SELECT user_id, result FROM rollerball_results WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
    expected = ["win" if seat == winner else "loss" for seat in (0, 1)]
    assert rows == [(alice.id, expected[0]), (bob.id, expected[1])]

    # The people are rated by their places among themselves; the computer's seat is left out:
    # a person's win puts them at 1611 and the other at 1389, the computer's leaves them tied.
    board = await discord.slash("rollerball leaderboard", user=alice)
    lines = [
        line for line in board.text.splitlines() if alice.mention in line or bob.mention in line
    ]
    assert len(lines) == 2 and all("· 1 game," in line for line in lines)
    if winner == 2:
        assert all("**1500?**" in line for line in lines)
    else:
        first, second = (alice, bob) if winner == 0 else (bob, alice)
        assert first.mention in lines[0] and "**1611?** ▲111 · 1 game, 1 win" in lines[0]
        assert second.mention in lines[1] and "**1389?** ▼111 · 1 game, 0 wins" in lines[1]


# --- the secret bid -------------------------------------------------------------------------------


async def test_the_secret_bid_is_seen_by_nobody_until_everyone_has_bid(
    discord, bot, carol, dave, games
):
    game_id, thread, first = await open_table(discord, bot, carol, games, joiners=[dave])
    _, _, match, _ = stored(bot, game_id)
    # Dave opens his bid form now and sends it only after Carol has bid: it still counts.
    dave_form = await discord.click(first, FORM, user=dave)
    assert dave_form.response_type == 9 and dave_form.modal_title == "Your secret bid"

    carol_cards = [kind_of(card) for card in match.engine.game.hands[0]][:2]
    form = await discord.click(first, FORM, user=carol)
    await discord.submit_modal(form, {form.modal_inputs[0]["custom_id"]: " ".join(carol_cards)})
    after_carol = await current_card(discord, bot, thread, game_id)
    assert "Carol has bid." in after_carol.text
    assert "Bids:" not in after_carol.text and not any(
        name in after_carol.text for name in CARD_NAMES
    )
    # Carol may not bid twice; Dave's view shows his own hand, not her bid.
    again = await discord.click(after_carol, FORM, user=carol)
    assert again.ephemeral and "not your turn" in again.content
    dave_view = await discord.click(after_carol, "My hand", user=dave)
    assert dave_view.ephemeral and dave_view.ephemeral_for == dave.id
    # Dave's panel shows his own cards only (what others see of Carol's bid, text and
    # images, is held the same whatever she bid: tests/e2e/test_rollerball_hidden.py)
    assert "Carol" not in dave_view.text and "Your secret bid: not made yet" in dave_view.text
    live = await discord.slash("rollerball record", user=dave, match_id=game_id)
    live_text = live.attachments[0].data.decode()
    assert "bid" not in live_text.split("\n\n", 1)[1] and "[Seed" not in live_text

    # Dave's form was drawn before Carol's bid; it is not stale for a seat still bidding.
    await discord.submit_modal(dave_form, {dave_form.modal_inputs[0]["custom_id"]: "0"})
    revealed = await current_card(discord, bot, thread, game_id)
    assert "Bids: Carol 2, Dave 0." in revealed.text
    assert "Carol wins the bid" in revealed.text
    await resign(discord, dave, thread)


# --- hidden hands -----------------------------------------------------------------------------------


async def test_a_hand_is_shown_only_to_its_owner(discord, bot, alice, carol, dave, general):
    erin = discord.add_user("erin")
    game_id, thread, first = await open_table(discord, bot, erin, general, joiners=[carol])
    _, _, match, _ = stored(bot, game_id)
    mine = await discord.click(first, "My hand", user=erin)
    assert mine.ephemeral and mine.ephemeral_for == erin.id
    shown = re.search(r"\*\*Your hand\*\* \(Erin, player 1\): (.*) \(5 cards", mine.text)
    assert shown, mine.text
    expected = match.engine.game.hands[0]
    from cogs.rollerball.texts import cards_text

    assert shown.group(1) == cards_text(expected)
    theirs = await discord.slash("rollerball hand", user=carol, channel=thread)
    assert theirs.ephemeral and theirs.ephemeral_for == carol.id
    assert "(Carol, player 2)" in theirs.text and "Erin" not in theirs.text
    assert [a.filename for a in theirs.attachments] == ["hand.png"]
    # Nobody else gets a hand: a spectator is told so, and no public message shows one.
    watching = await discord.click(first, "My hand", user=dave)
    assert watching.ephemeral and "only its players have a hand" in watching.content
    assert not any("Your hand" in m.text for m in discord.channel_messages(thread))
    await resign(discord, erin, thread)


# --- tables: who may join, leave and start ------------------------------------------------------------


async def test_tables_refuse_what_they_cannot_do(discord, bot, alice, bob, carol, dave, games):
    fay = discord.add_user("fay")
    lobby = await discord.slash("rollerball new", user=fay, channel=games, players=2)
    game_id = latest_game_id(bot)
    alone = await discord.click(lobby, "Start", user=fay)
    assert alone.ephemeral and "At least 2 players" in alone.content
    twice = await discord.click(lobby, "Join", user=fay)
    assert twice.ephemeral and "already at" in twice.content
    await discord.click(lobby, "Join", user=alice)
    # A full table offers no seat: Join and Add computer are disabled.
    full = discord.message(lobby)
    assert {b.label for b in full.buttons if b.disabled} == {"Join", "Add computer"}
    not_host = await discord.click(lobby, "Start", user=alice)
    assert not_host.ephemeral and "Only Fay" in not_host.content
    second = await discord.slash("rollerball new", user=fay, channel=games)
    assert second.ephemeral and f"already have Rollerball table #{game_id}" in second.content
    left = await discord.click(lobby, "Leave", user=alice)
    assert "1 of 2 seats taken" in left.text and stored(bot, game_id)[3] == (fay.id,)
    closed = await discord.click(lobby, "Leave", user=fay)
    assert "was closed" in closed.text and stored(bot, game_id)[1] == "cancelled"

    # A full table of six: the seventh player is refused; a started game takes nobody.
    six = await discord.slash("rollerball new", user=fay, channel=games, players=6)
    big_id = latest_game_id(bot)
    for user in (alice, bob, carol, dave):
        await discord.click(six, "Join", user=user)
    # `/rollerball resign` at a table leaves it and posts the table again, with its buttons.
    reposted = await discord.slash("rollerball resign", user=carol, channel=games)
    assert "Carol leaves" in reposted.text and "4 of 6 seats taken" in reposted.text
    await discord.click(reposted, "Join", user=carol)
    await discord.click(six, "Add computer", user=fay)
    assert "Join" in [b.label for b in discord.message(six).buttons if b.disabled]
    seventh = await discord.click(reposted, "Join", user=discord.add_user("gus"))
    assert seventh.ephemeral and "is for at most 6 players" in seventh.content
    assert len(stored(bot, big_id)[3]) == 6
    await discord.click(six, "Start", user=fay)
    thread = await discord.wait_for_thread(games)
    await current_card(discord, bot, thread, big_id)
    late = await discord.click(reposted, "Join", user=discord.add_user("hal"))
    assert late.ephemeral and "has already started" in late.content
    assert len(stored(bot, big_id)[3]) == 6
    await resign(discord, fay, thread)


# --- bad input ---------------------------------------------------------------------------------------


async def test_bad_input_is_refused_ephemerally_and_nothing_changes(discord, bot, games):
    ida, jon, kim = (discord.add_user(n) for n in ("ida", "jon", "kim"))
    game_id, thread, _ = await open_table(discord, bot, ida, games, joiners=[jon])
    version, _, match, _ = stored(bot, game_id)
    hand = [kind_of(card) for card in match.engine.game.hands[0]]

    too_many = await discord.slash(
        "rollerball move", user=ida, channel=thread, move="bid 6 " + " ".join(hand + hand[:1])
    )
    assert too_many.ephemeral and "You do not hold those cards; you hold:" in too_many.content
    miscounted = await discord.slash("rollerball move", user=ida, channel=thread, move="bid 3 x")
    assert miscounted.ephemeral and "is not a card" in miscounted.content
    nonsense = await discord.slash("rollerball move", user=ida, channel=thread, move="fly away")
    assert nonsense.ephemeral and "`bid 2 up-move energiser`" in nonsense.content
    watcher = await discord.slash("rollerball move", user=kim, channel=thread, move="bid 0")
    assert watcher.ephemeral and "no Rollerball match of yours here" in watcher.content
    assert stored(bot, game_id)[0] == version

    # Both bid nothing, so they re-bid openly; the first to drop out leaves the bid to the
    # other (docs/rules/rollerball.md ruling 4).
    await discord.slash("rollerball move", user=ida, channel=thread, move="bid 0")
    await discord.slash("rollerball move", user=jon, channel=thread, move="0")
    turn = await current_card(discord, bot, thread, game_id)
    assert "Drop out" in turn.button_labels
    assert "A draw at 0" in turn.text
    users = (ida, jon)
    current = stored(bot, game_id)[2].engine.game.current
    await discord.click(turn, "Drop out", user=users[current])
    turn = await current_card(discord, bot, thread, game_id)
    assert "drops out of the re-bid" in turn.text and "wins the bid" in turn.text
    assert any(menu.placeholder.startswith("Your base on") for menu in turn.selects)
    version, _, match, _ = stored(bot, game_id)
    placer = match.engine.game.current
    mover, other = users[placer], users[1 - placer]
    out_of_turn = await discord.click(turn, FORM, user=other)
    assert out_of_turn.ephemeral and "It's not your turn" in out_of_turn.content
    not_a_corner = await discord.slash("rollerball move", user=mover, channel=thread, move="e2")
    assert not_a_corner.ephemeral and "corner square" in not_a_corner.content
    wrong_step = await discord.slash(
        "rollerball move", user=mover, channel=thread, move="build up-move e2-e3"
    )
    assert wrong_step.ephemeral and "not what the game waits for" in wrong_step.content
    assert "`base c3`" in wrong_step.content
    assert stored(bot, game_id)[0] == version
    await resign(discord, ida, thread)


# --- restarts and absent players ----------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_game_and_its_buttons_survive_a_restart(discord, bot, general):
    lea, max_ = discord.add_user("lea"), discord.add_user("max")
    game_id, thread, first = await open_table(discord, bot, lea, general, joiners=[max_])
    version, _, _, _ = stored(bot, game_id)
    await posted(bot, game_id)
    await bot.restart()
    # The buttons drawn before the restart still work: the game is loaded from the database.
    form = await discord.click(first, FORM, user=max_)
    await discord.submit_modal(form, {form.modal_inputs[0]["custom_id"]: "0"})
    after = await current_card(discord, bot, thread, game_id)
    assert "Max has bid." in after.text and stored(bot, game_id)[0] == version + 1
    mine = await discord.click(after, "My hand", user=lea)
    assert mine.ephemeral and "Your secret bid: not made yet" in mine.text
    await resign(discord, lea, thread)


@pytest.mark.both_backends
async def test_an_absent_player_is_replaced_by_a_computer_and_takes_the_seat_back(
    discord, bot, games
):
    ned, ola = discord.add_user("ned"), discord.add_user("ola")
    game_id, thread, first = await open_table(discord, bot, ned, games, joiners=[ola])
    form = await discord.click(first, FORM, user=ola)
    await discord.submit_modal(form, {form.modal_inputs[0]["custom_id"]: "0"})
    await current_card(discord, bot, thread, game_id)
    with connect(bot) as conn:
        events = {
            e for (e,) in conn.execute("SELECT event FROM timers WHERE game_id = ?", (game_id,))
        }
    assert events == {"match_remind", "match_takeover"}
    await posted(bot, game_id)
    bot.stop()
    # The day passes while the bot is down: the takeover is overdue when it comes back.
    with connect(bot) as conn:
        conn.execute(
            "UPDATE timers SET due_at = ? WHERE game_id = ? AND event = 'match_takeover'",
            (time.time() - 5, game_id),
        )
    bot.start()
    notice = await discord.wait_for_message(
        thread, lambda m: "Take my seat back" in m.button_labels, since=0, timeout=15
    )
    assert (
        notice.content.startswith(ned.mention)
        and "a computer (sensible) now plays Ned" in notice.text
    )
    _, _, match, _ = stored(bot, game_id)
    assert match.computers == {0: "sensible"} and match.engine.game.phase != "bid"
    refused = await discord.click(notice, "Take my seat back", user=ola)
    assert refused.ephemeral and "playing your seat yourself" in refused.content
    back = await discord.click(notice, "Take my seat back", user=ned)
    assert "Ned takes their seat back" in back.text
    assert back.id == notice.id and not back.buttons  # the spent button goes with the answer
    _, _, match, _ = stored(bot, game_id)
    assert match.computers == {}
    await resign(discord, ned, thread)


@pytest.mark.both_backends
async def test_simultaneous_clicks_never_overfill_a_table_or_open_two(discord, bot, general):
    import asyncio

    pat, quin, rex, sid = (discord.add_user(n) for n in ("pat", "quin", "rex", "sid"))
    before = latest_game_id(bot)
    opened = await asyncio.gather(
        *(discord.slash("rollerball new", user=pat, channel=general, players=2) for _ in range(5))
    )
    assert sum(not reply.ephemeral for reply in opened) == 1
    assert all("already have Rollerball table" in r.content for r in opened if r.ephemeral)
    assert latest_game_id(bot) == before + 1
    lobby = next(reply for reply in opened if not reply.ephemeral)
    answers = await asyncio.gather(
        *(discord.click(lobby, "Join", user=user) for user in (quin, rex, sid))
    )
    refused = [a for a in answers if a.ephemeral]
    assert len(refused) == 2 and all("This table is full" in a.content for a in refused)
    seats = stored(bot, before + 1)[3]
    assert len(seats) == 2 and seats[0] == pat.id
    await discord.click(lobby, "Leave", user=pat)
    assert stored(bot, before + 1)[1] == "cancelled"


async def test_the_rules_page_can_be_read_in_discord_topic_by_topic(discord, alice):
    page = await discord.slash("rollerball rules", user=alice, topic="Typing moves")
    assert page.ephemeral and "Rollerball rules: Typing moves" in page.text
    assert "`move c3 d3`" in page.text
    topics = [option.label for option in page.selects[0].options]
    assert {"Overview", "Rulings", "Typing moves"} <= set(topics)


async def test_a_bid_is_picked_from_the_hand_on_the_private_panel(discord, bot, general):
    uma, vic = discord.add_user("uma"), discord.add_user("vic")
    game_id, thread, first = await open_table(discord, bot, uma, general, joiners=[vic])
    _, _, match, _ = stored(bot, game_id)
    panel = await discord.click(first, "My hand", user=uma)
    assert panel.ephemeral and panel.ephemeral_for == uma.id
    menu = panel.select("Pick the cards to bid")
    hand = [kind_of(card) for card in match.engine.game.hands[0]]
    assert [option.value.rsplit(".", 1)[0] for option in menu.options] == hand
    chosen = [option.value for option in menu.options[:2]]
    picked = await discord.select(panel, menu.custom_id, chosen, user=uma)
    # The panel is redrawn in place: the bid made, no menu left to bid twice with.
    assert picked.response_type == 7 and picked.ephemeral and not picked.selects
    card = await current_card(discord, bot, thread, game_id)
    assert "Uma has bid." in card.text
    assert not any(name in card.text for name in CARD_NAMES), "the bid stays secret"
    # Vic bids nothing with one click; the bids are revealed on the card.
    theirs = await discord.click(card, "My hand", user=vic)
    assert "Pick the cards to bid" in [s.placeholder for s in theirs.selects]
    await discord.click(theirs, "Bid nothing (0 cards)", user=vic)
    revealed = await current_card(discord, bot, thread, game_id)
    assert "Bids: Uma 2, Vic 0." in revealed.text
    await resign(discord, uma, thread)


async def test_a_bid_made_on_the_panel_while_a_permission_is_away_is_kept_and_shown_later(
    discord, bot, general
):
    """A moderator takes Attach Files away while a player's panel is open: the bid picked
    there is saved, but its panel (the hand drawn) and the card cannot be redrawn (403 50013).
    The player hears privately that the bid is saved and which permission is missing (never
    "nothing was changed", no unhandled error), and the card shows the bid once the permission
    is back."""
    from fakediscord.model import ATTACH_FILES

    wes, xan = discord.add_user("wes"), discord.add_user("xan")
    game_id, thread, first = await open_table(discord, bot, wes, general, joiners=[xan])
    version, _, _, _ = stored(bot, game_id)
    panel = await discord.click(first, "My hand", user=wes)
    menu = panel.select("Pick the cards to bid")
    discord.deny_bot(general, ATTACH_FILES)
    chosen = [option.value for option in menu.options[:2]]
    told = await discord.select(panel, menu.custom_id, chosen, user=wes)
    assert told.ephemeral and "is saved" in told.text, told.text
    assert "the Attach Files permission" in told.text and "Nothing was changed" not in told.text
    assert stored(bot, game_id)[0] == version + 1
    discord.take_violations()  # the refused uploads were the point

    discord.deny_bot(general, 0)  # given back: the saved bid is drawn by itself
    card = await current_card(discord, bot, thread, game_id)
    assert "Wes has bid." in card.text
    await resign(discord, wes, thread)


# --- moves picked, not typed ------------------------------------------------------------------------


def panel_news(panel_text: str) -> str:
    """The panel's line naming the cards that arrived since its player last used it."""
    return next((line for line in panel_text.splitlines() if line.startswith("New since")), "")


@pytest.mark.both_backends
async def test_a_whole_game_is_played_with_clicks_and_menus_only(discord, bot, general):
    """Every decision picked on the card or the panel, never typed; the card updated in place;
    each panel redrawn by the bot when a card arrives (marked new) and when a decision comes;
    and at every step no message anyone sees offers a control that acts on nothing."""
    wes, xan = discord.add_user("wes"), discord.add_user("xan")
    game_id, thread, _ = await open_table(
        discord, bot, wes, general, joiners=[xan], computers=1, players=3, target=2
    )
    table = ClickingTable(discord, bot, thread, game_id, {0: wes, 1: xan})
    rng = random.Random(11)
    steps_seen, redrawn_for_a_decision, shown_new = set(), 0, 0
    for _ in range(400):
        _, status, match = stored_match(bot, game_id)
        if status == "finished":
            break
        game = match.engine.game
        hands = {seat: list(game.hands[seat]) for seat in table.users}
        seat = min(s for s in actors(game) if s in table.users)
        kind = next_step(game).kind
        steps_seen.add(kind)
        if kind in ("card", "action", "discard") and seat in table.panels:
            # the open panel was redrawn for this decision: its choices are there already
            panel = discord.message(table.panels[seat])
            redrawn_for_a_decision += bool(panel.selects or panel.buttons)
        play = Play(choose_action(view_for(game, seat), rng, "random"), game.settings.board)
        await table.play(seat, play)
        _, _, after = stored_match(bot, game_id)
        for someone, panel in table.panels.items():
            arrived = [c for c in after.engine.game.hands[someone] if c not in hands[someone]]
            if arrived and not after.engine.over:
                news = panel_news(discord.message(panel).text)
                assert all(card_name(kind_of(card)) in news for card in arrived), (
                    someone,
                    seat,
                    play,
                    discord.message(panel).text,
                )
                shown_new += 1
        seen = [
            *discord.channel_messages(thread),
            *discord.channel_messages(general),
            *table.all_panels,
        ]
        assert spent_controls(discord, bot, game_id, seen) == []
    else:
        raise AssertionError("the game did not end in 400 decisions")

    assert {"bid", "base", "workman", "ball", "card", "move", "action"} <= steps_seen
    assert redrawn_for_a_decision > 0 and shown_new > 0
    assert len(table.card_ids) == 1, "one live card, redrawn in place"
    card = discord.message(next(iter(table.card_ids)))
    assert "wins with 2 victory points" in card.text and not card.selects
    assert card.button_labels == ["Replay ▶", "Why?"]  # no move: its replay and Why? only
    # Nobody typed: the move form was never opened, no /rollerball move was used.
    with connect(bot) as conn:
        moves = conn.execute(
            "SELECT COUNT(*) FROM game_moves WHERE game_id = ? AND actor_id IN (?, ?)"
            " AND action NOT IN ('join', 'computer', 'start')",
            (game_id, wes.id, xan.id),
        ).fetchone()[0]
    assert moves == table.decisions
    assert table.interactions <= 3 * table.decisions
    # The panels are the players' own: the other player cannot use or see them.
    other = {0: xan, 1: wes}
    for seat, panel in table.panels.items():
        assert panel.ephemeral_for == table.users[seat].id
        with pytest.raises(DriverError, match="cannot see that ephemeral message"):
            await discord.click(panel, "x", user=other[seat])


async def test_a_players_panel_is_redrawn_in_place_when_they_draw(discord, bot, games):
    """Bob keeps his panel open; Ann's last decision of her turn starts his, where he draws:
    his panel shows the card at once, marked NEW, through the token of the interaction that
    drew it; nobody else sees it."""
    ann, ben = discord.add_user("ann"), discord.add_user("ben")
    game_id, thread, _ = await open_table(discord, bot, ann, games, joiners=[ben])
    table = ClickingTable(discord, bot, thread, game_id, {0: ann, 1: ben})
    rng = random.Random(3)
    for _ in range(300):
        _, _, match = stored_match(bot, game_id)
        game = match.engine.game
        seat = min(actors(game))
        if game.phase == "turn" and game.turn_step == "action" and len(game.hands[1 - seat]) < 4:
            break
        await table.play(seat, Play(choose_action(view_for(game, seat), rng, "random"), 9))
    else:
        raise AssertionError("no turn ended with the next player holding fewer than 4 cards")
    waiting = 1 - seat
    opened = await table.open_panel(waiting)
    before = list(game.hands[waiting])
    assert "Nothing to pick here now" in opened.text and not panel_news(opened.text)
    await table.play(seat, Play(Pass(), 9))  # Ann ends her turn: Ben's starts with a draw
    _, _, match = stored_match(bot, game_id)
    drawn = [c for c in match.engine.game.hands[waiting] if c not in before]
    assert drawn, "Ben drew a card"
    now = discord.message(opened)
    assert now.id == opened.id and now.ephemeral_for == table.users[waiting].id
    assert card_name(kind_of(drawn[0])) in panel_news(now.text)
    assert now.attachments[0].data != opened.attachments[0].data  # the hand image, redrawn
    assert not any("Your hand" in m.text for m in discord.channel_messages(thread))
    await resign(discord, ann, thread)


@pytest.mark.both_backends
async def test_a_panel_gone_stale_is_redrawn_when_clicked(discord, bot, general):
    """A panel the bot could not redraw (its process restarted) keeps old choices; a click on
    one redraws the panel as it is now instead of refusing."""
    cy, di = discord.add_user("cy"), discord.add_user("di")
    game_id, thread, _ = await open_table(discord, bot, cy, general, joiners=[di])
    await discord.slash("rollerball move", user=cy, channel=thread, move="bid 0")
    await discord.slash("rollerball move", user=di, channel=thread, move="bid 0")
    card = await current_card(discord, bot, thread, game_id)
    _, _, match = stored_match(bot, game_id)
    deciding = {0: cy, 1: di}[match.engine.game.current]
    panel = await discord.click(card, "My hand", user=deciding)
    assert "Pick at least 1 card to raise with" in [s.placeholder for s in panel.selects]
    await posted(bot, game_id)
    await bot.restart()
    await discord.click(card, "Drop out", user=deciding)  # the panel is not redrawn: it is stale
    stale = discord.message(panel)
    menu = stale.select("Pick at least 1 card to raise with")
    redrawn = await discord.select(stale, menu.custom_id, [menu.options[0].value], user=deciding)
    assert redrawn.response_type == 7 and redrawn.id == panel.id
    assert "That choice was from an earlier turn" in redrawn.text and not redrawn.selects
    assert "earlier turn. Use the newest message" not in redrawn.text
    await resign(discord, cy, thread)


# --- ratings ---------------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_rated_table_of_three_moves_all_three_ratings_once(discord, bot, general):
    """A table is rated unless its opener says casual; it shows each seat's rating. Two of
    three resign, the last wins (ruling D1), and the multiplayer rating (Plackett-Luce) moves
    all three once: the winner up, the two who lost down alike; a casual table moves nobody."""
    pia, rod, sol = (discord.add_user(name) for name in ("pia", "rod", "sol"))
    lobby = await discord.slash("rollerball new", user=pia, channel=general, players=3)
    assert "; rated)" in lobby.text and "1. Pia · 1500?" in lobby.text
    await discord.click(lobby, "Join", user=rod)
    seated = await discord.click(lobby, "Join", user=sol)
    assert "2. Rod · 1500?" in seated.text and "3. Sol · 1500?" in seated.text
    game_id = latest_game_id(bot)
    await discord.click(lobby, "Start", user=pia)
    thread = await discord.wait_for_thread(general)
    await current_card(discord, bot, thread, game_id)
    await resign(discord, rod, thread)
    await resign(discord, sol, thread)
    for _ in range(100):
        if stored(bot, game_id)[1] == "finished":
            break
        time.sleep(0.05)
    assert stored(bot, game_id)[1] == "finished"

    # Earlier tests' players are on the board too: a player below its top 10 sees their own
    # line under it.
    lines = []
    for user in (pia, rod, sol):
        board = await discord.slash("rollerball leaderboard", user=user, channel=general)
        assert "OpenSkill (Plackett-Luce)" in board.text
        lines += [line for line in board.text.splitlines() if user.mention in line]
    assert len(lines) == 3
    assert "**1621?** ▲121 · 1 game, 1 win" in lines[0]
    for line in lines[1:]:
        assert "**1440?** ▼60 · 1 game, 0 wins" in line

    casual = await discord.slash(
        "rollerball new", user=pia, channel=general, players=2, rated=False
    )
    assert "; casual)" in casual.text
    await discord.click(casual, "Join", user=rod)
    casual_id = latest_game_id(bot)
    await discord.click(casual, "Start", user=pia)
    await resign(discord, rod, await discord.wait_for_thread(general))
    for _ in range(100):
        if stored(bot, casual_id)[1] == "finished":
            break
        time.sleep(0.05)
    again = []
    for user in (pia, rod, sol):
        board = await discord.slash("rollerball leaderboard", user=user, channel=general)
        again += [line for line in board.text.splitlines() if user.mention in line]
    assert [line.split("<@")[1] for line in again] == [line.split("<@")[1] for line in lines]
