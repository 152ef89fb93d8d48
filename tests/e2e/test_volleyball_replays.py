"""A played Volleyball match watched again through the fake Discord (docs/rules/volleyball.md
ruling 57; cogs/volleyball/replays.py on host/replays.py): the league's first post publishes
round 1's dice commitment; once the round is played its post publishes round 2's, /games lists
the manager's team's match with its Replay button, and the replay steps from the match to its
last set, each set in words and drawn, verified against the commitment published before the
round. A round not played has nothing to replay (its record is not written until it is), and an altered record is refused with the
reason."""

from __future__ import annotations

import re

import pytest

from tests.e2e.stored import connect
from tests.e2e.test_replays import HIGHLIGHTS, step_of
from tests.e2e.test_volleyball import ALICE_ROSTER

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

LEAGUE = "Replay League"
TEAM = "Dune Divers"
COMMITMENT = re.compile(r"Round (\d+)'s dice commitment: ([0-9a-f]{64})")
RECORD = "Record 📄"


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "5757"}


def stored_records(bot) -> list[tuple[int, int, str]]:
    with connect(bot) as conn:
        return conn.execute(
            "SELECT id, round_number, record FROM volleyball_records ORDER BY id"
        ).fetchall()


async def test_a_played_match_replays_set_by_set_and_an_altered_record_is_refused(
    discord, bot, owner, dave, games
):
    await discord.slash(
        "volleyball league create",
        user=owner,
        channel=games,
        name=LEAGUE,
        teams=4,
        every_hours=48,
    )
    form = await discord.slash("volleyball team create", user=dave, channel=games)
    await discord.submit_modal(form, {"name": TEAM, "players": ALICE_ROSTER}, user=dave)
    await discord.slash("volleyball league start", user=owner, channel=games)
    begins = await discord.wait_for_message(games, lambda m: "begins!" in m.content, timeout=20)
    (first,) = COMMITMENT.findall(begins.content)
    assert first[0] == "1"

    # nothing is played yet: no record is kept (its seed would predict the round's rallies),
    # and /games offers no replay
    assert stored_records(bot) == []
    before = await discord.slash("games", user=dave, channel=games)
    assert not any(b.startswith("Replay Volleyball") for b in before.button_labels)

    await discord.slash("volleyball round run-now", user=owner, channel=games)
    results = await discord.wait_for_message(
        games, lambda m: "round 1 results" in m.content, timeout=20
    )
    assert COMMITMENT.findall(results.content)[0][0] == "2"
    played = stored_records(bot)
    assert played and all(number == 1 for _, number, _ in played)
    # each record of the round carries the commitment published before it, and its seed
    assert all(f'[Commitment "{first[1]}"]' in text and "[Seed " in text for *_, text in played)

    # /games: the manager's team's match, with its Replay button
    listed = await discord.slash("games", user=dave, channel=games)
    assert listed.ephemeral and "Finished lately" in listed.text and TEAM in listed.text
    button = next(b for b in listed.button_labels if b.startswith("Replay Volleyball #"))
    record_id = int(button.rsplit("#", 1)[1])
    opened = await discord.click(listed, button, user=dave)
    assert opened.ephemeral and step_of(opened)[0] == 0 and len(opened.images) == 1
    assert "The match" in opened.text and "Verified" in opened.text
    assert "before the round's orders could matter" in opened.text
    last = step_of(opened)[1]
    assert 3 <= last <= 5  # a match is three to five sets
    assert opened.button_labels == [
        "⏮ Start",
        "◀",
        "▶",
        "Next milestone",
        "End ⏭",
        HIGHLIGHTS,
        RECORD,
    ]

    # ▶ from the match to its last set, each set in words: its score and its rallies' summary
    card, images = opened, {opened.attachments[0].data}
    for expected in range(1, last + 1):
        card = await discord.click(card, "▶", user=dave)
        assert step_of(card) == (expected, last)
        assert f"**Set {expected}**" in card.text
        # its rallies, or the side that could not field six (ruling 8: no rally is played)
        assert "rallies" in card.text or "could not field six players" in card.text
        images.add(card.attachments[0].data)
    assert len(images) == last + 1  # each set drawn anew
    assert " win " in card.text
    assert [b.disabled for b in card.buttons][:5] == [False, False, True, True, True]

    # the record, for anyone to check with python -m rules verify
    sent = await discord.click(card, RECORD, user=dave)
    (file,) = sent.attachments
    text = file.data.decode()
    assert sent.ephemeral and "python -m rules verify" in sent.text
    assert (record_id, 1, text) in played

    # someone with the database file flips a rally: the record is refused with the reason
    altered = re.sub(
        r"^(set 1 \d+-\d+ )([+-])", lambda m: m[1] + "-+"[m[2] == "-"], text, flags=re.M
    )
    assert altered != text
    with connect(bot) as conn:
        conn.execute("UPDATE volleyball_records SET record = ? WHERE id = ?", (altered, record_id))
    again = await discord.click(listed, button, user=dave)
    assert step_of(again)[0] == 0  # the seed still hashes to the commitment: the match is shown
    refused = await discord.click(again, "▶", user=dave)
    assert refused.ephemeral and not refused.attachments
    assert "does not check out" in refused.text and "Record line" in refused.text
