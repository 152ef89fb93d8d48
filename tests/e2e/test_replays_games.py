"""A finished match's replay from /games (cogs/games.py, host/replays.py): a player's latest
finished matches are listed under their results, each with its Replay button, on every server
and in a DM; someone who did not play a match finds it only in its own server."""

from __future__ import annotations

import pytest

from tests.e2e import test_async_play
from tests.e2e.test_replays import challenge, step_of
from tests.e2e.test_rocketball import stored_game

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

fake_discord = test_async_play.fake_discord  # the usual fixtures and a second server


async def test_games_lists_a_players_finished_matches_each_with_its_replay_even_in_a_dm(
    discord,
    bot,
    fake_discord,
    general,
):
    """/games lists the user's latest finished matches under their result, each with a
    Replay button; a match's player opens it anywhere (a DM too), anyone else only in the
    match's server."""
    jo, kit = discord.add_user("jo"), discord.add_user("kit")
    game_id, thread, _ = await challenge(discord, bot, jo, kit, general)
    asked = await discord.slash("rocketball resign", user=jo, channel=thread)
    await discord.click(asked, "Resign", user=jo)
    assert stored_game(bot, game_id)[1] == "finished"

    dm = discord.open_dm(kit)
    listed = await discord.slash("games", user=kit, channel=dm)
    assert listed.ephemeral and "Finished" in listed.text
    line = next(line for line in listed.text.splitlines() if f"Rocketball #{game_id}**" in line)
    assert "vs Jo" in line and "wins" in line and f"/{thread.id}" in line
    button = f"Replay #{game_id}"
    assert button in listed.button_labels
    opened = await discord.click(listed, button, user=kit)
    assert opened.ephemeral and step_of(opened)[0] == 0 and opened.images
    end = await discord.click(opened, "End ⏭", user=kit)
    assert "wins" in end.text and "resign" in end.text

    # someone who did not play it finds no such match in another server
    stranger = discord.add_user("lee")
    refused = await discord.slash(
        "rocketball replay",
        user=stranger,
        match=game_id,
        channel=fake_discord.lobby,
    )
    assert refused.ephemeral and f"no match #{game_id}" in refused.text
