"""Replays through the fake Discord (host/replays.py): anyone in the server watches a finished
match again step by step, privately, from the final card's Replay button or `/GAME replay`;
each step is drawn from the record verified against its dice commitment, so the last step is
the final card's image; an altered record is refused with the reason, and a match still being
played has no replay."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from PIL import Image

from tests.e2e.stored import connect
from tests.e2e.test_rocketball import (
    current_card,
    latest_game_id,
    new_thread,
    play_to_the_end,
    stored_game,
)

pytestmark = pytest.mark.e2e

REPLAY = "Replay ▶"
HIGHLIGHTS = "Highlights 🎞"
STEP = re.compile(r"step (\d+) of (\d+)")


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # New games get their seeds from a fixed sequence: the same run gives the same matches.
    return {"GAME_SEED": "20261129"}


def step_of(card) -> tuple[int, int]:
    found = STEP.search(card.text)
    assert found, card.text[:300]
    return int(found[1]), int(found[2])


async def challenge(discord, bot, challenger, opponent, channel):
    reply = await discord.slash(
        "rocketball challenge", user=challenger, channel=channel, opponent=opponent, target=1
    )
    game_id = latest_game_id(bot)
    known = len(discord.threads(channel))
    await discord.click(reply, "Accept", user=opponent)
    thread = await new_thread(discord, channel, known)
    return game_id, thread, await current_card(discord, bot, thread, game_id)


async def test_a_spectator_steps_through_a_finished_match_to_its_final_card(
    discord, bot, alice, bob, carol, dave, general
):
    game_id, thread, first = await challenge(discord, bot, alice, bob, general)
    seats = {"N": alice, "S": bob}
    # the strong side against the easy one: a goal comes sooner, and every step is stepped
    levels = {"N": "strong", "S": "easy"}
    await play_to_the_end(
        discord, bot, thread, game_id, seats, first, rng=random.Random(5), levels=levels
    )
    final = await current_card(discord, bot, thread, game_id)
    assert REPLAY in final.button_labels

    # carol played no part in it: the replay is hers alone, at the set-up
    opened = await discord.click(final, REPLAY, user=carol)
    assert opened.ephemeral and opened.is_v2
    assert step_of(opened)[0] == 0 and "The set-up" in opened.text
    assert "Verified" in opened.text and len(opened.images) == 1
    last = step_of(opened)[1]
    assert last >= 3
    labels = opened.button_labels
    assert labels == ["⏮ Start", "◀", "▶", "Next milestone", "End ⏭", HIGHLIGHTS]
    assert [b.disabled for b in opened.buttons] == [True, True, False, False, False, False]
    assert "🕒" in opened.text and "the match began" in opened.text
    assert discord.message(final).button_labels == final.button_labels  # the card is untouched

    # ▶ from the first position to the last, one step at a time, each in words
    card = opened
    for expected in range(1, last + 1):
        card = await discord.click(card, "▶", user=carol)
        assert step_of(card) == (expected, last)
        assert card.ephemeral and "•" in card.text and card.images
        assert "into the match" in card.text  # the clock of the match at each step
    assert "wins" in card.text
    assert [b.disabled for b in card.buttons] == [False, False, True, True, True, False]
    # the last step is the final card's image, byte for byte
    assert card.attachments[0].data == discord.message(final).attachments[0].data

    # back, the start, the next milestone (the goal that won it) and the end
    back = await discord.click(card, "◀", user=carol)
    assert step_of(back) == (last - 1, last)
    end = await discord.click(back, "End ⏭", user=carol)
    assert step_of(end) == (last, last)
    assert end.attachments[0].data == card.attachments[0].data
    start = await discord.click(end, "⏮ Start", user=carol)
    assert step_of(start)[0] == 0
    goal = await discord.click(start, "Next milestone", user=carol)
    assert "GOAL" in goal.text and step_of(goal)[0] > 0

    # the command opens the same replay for anyone in the server
    asked = await discord.slash("rocketball replay", user=dave, match=game_id)
    assert asked.ephemeral and step_of(asked) == (0, last)
    assert asked.attachments[0].data == opened.attachments[0].data
    # a player's own latest finished match, by default
    mine = await discord.slash("rocketball replay", user=alice)
    assert step_of(mine) == (0, last) and f"#{game_id}" in mine.text

    # the highlights: a GIF of the set-up, the goals and the end, a few seconds each, privately
    posted = await discord.click(mine, HIGHLIGHTS, user=alice)
    assert posted.ephemeral and "Highlights" in posted.text
    (gif,) = posted.attachments
    assert gif.filename.endswith(".gif") and len(gif.data) < 10 * 1024 * 1024
    with Image.open(io.BytesIO(gif.data)) as shown:
        durations = []
        for index in range(getattr(shown, "n_frames", 1)):
            shown.seek(index)
            durations.append(shown.info["duration"])
    goals = goal.text.count("GOAL")
    assert len(durations) >= 2 + goals - 1 and all(ms >= 2000 for ms in durations)


async def test_a_match_in_play_has_no_replay_and_nothing_is_shown_of_it(
    discord, bot, general, games
):
    erin, fay = discord.add_user("erin"), discord.add_user("fay")
    game_id, _, card = await challenge(discord, bot, erin, fay, games)
    assert REPLAY not in card.button_labels
    for user in (erin, discord.add_user("gus")):
        refused = await discord.slash("rocketball replay", user=user, match=game_id)
        assert refused.ephemeral and "still being played" in refused.text
        assert not refused.attachments and not refused.buttons
    # a match of another server's is not found here either
    nothing = await discord.slash("rocketball replay", user=erin, match=99999)
    assert nothing.ephemeral and "no match #99999" in nothing.text


@pytest.mark.both_backends
async def test_an_altered_record_is_refused_with_the_reason(discord, bot, games):
    hal, ida = discord.add_user("hal"), discord.add_user("ida")
    game_id, thread, _ = await challenge(discord, bot, hal, ida, games)
    asked = await discord.slash("rocketball resign", user=hal, channel=thread)
    await discord.click(asked, "Resign", user=hal)
    assert stored_game(bot, game_id)[1] == "finished"
    honest = await discord.slash("rocketball replay", user=ida, match=game_id)
    assert step_of(honest)[0] == 0 and honest.images

    # someone with the database file changes the match's salt: the seed no longer hashes to
    # the commitment the players saw before the first roll
    with connect(bot) as conn:
        (state,) = conn.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        data = json.loads(state)
        data["salt"] = "f" * 32
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(data), game_id))
    refused = await discord.slash("rocketball replay", user=ida, match=game_id)
    assert refused.ephemeral and not refused.attachments
    # (the record written from it carries a [Commitment] made from the new salt: it is
    # checked against the one published when the match began)
    published = stored_game(bot, game_id)[2].commitment
    assert "does not check out" in refused.text and "not the one published" in refused.text
    assert published in refused.text
    # a click on the replay card drawn before is refused the same way
    clicked = await discord.click(honest, "End ⏭", user=ida)
    assert clicked.ephemeral and "not the one published" in clicked.text


async def test_a_resigned_rollerball_table_is_replayed_to_its_final_card(discord, bot, games):
    """Every game's final card offers its replay (Rollerball's has no rematch to sit beside), and
    a table ended by a resignation replays to it (its record writes the resignation: ruling D1)."""
    from tests.e2e.test_rollerball import current_card as rollerball_card
    from tests.e2e.test_rollerball import open_table, play_one, resign

    kim, lou = discord.add_user("kim"), discord.add_user("lou")
    game_id, thread, card = await open_table(discord, bot, kim, games, computers=1)
    rng = random.Random(3)
    for _ in range(4):
        card = await play_one(discord, bot, game_id, thread, card, {0: kim}, rng)
    await resign(discord, kim, thread)
    final = await rollerball_card(discord, bot, thread, game_id)
    assert REPLAY in final.button_labels

    opened = await discord.click(final, REPLAY, user=lou)
    assert opened.ephemeral and step_of(opened)[0] == 0 and "Rollerball" in opened.text
    end = await discord.click(opened, "End ⏭", user=lou)
    assert "resigns" in end.text and "`resign`" in end.text
    assert end.attachments[0].data == discord.message(final).attachments[0].data
