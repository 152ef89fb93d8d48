"""A tournament's card and end through the fake Discord (docs/rules/tournaments.md "On
Discord"): the podium is posted exactly once, also when the bot could not post it when the
tournament ended (a crash between the two) and was restarted; the card's pictures (a knockout's
bracket, the standings)."""

from __future__ import annotations

import asyncio
import sqlite3  # noqa: F401  (tests/e2e/postgres/conftest.py swaps every module's for its reader)

import pytest

from fakediscord.model import SEND_MESSAGES
from render.tournament import WIDTH
from tests.e2e.stored import sql, until
from tests.e2e.test_tournament import finish_round, play_to_the_end, rounds_of

pytestmark = pytest.mark.e2e


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

    rounds, card = await play_to_the_end(
        discord, bot, owner, general, "round_robin", ("val", "wes", "xia")
    )
    [table] = card.images
    assert table.width == WIDTH and card.attachments[0].filename == "standings.png"
