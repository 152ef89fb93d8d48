"""/privacy's scrubbing of stored free text (db/forget.py), on both backends (the
`database_target` parameter, tests/conftest.py)."""

import json

from db import forget
from db import games as game_store


def test_a_name_is_replaced_as_a_whole_word_and_mentions_in_both_spellings():
    text = "Zoë joins table #2. <@42> and <@!42> wait; Zoëlla stays. zoë too?"
    assert forget.scrubbed(text, 42, ["Zoë"], "Deleted user") == (
        "Deleted user joins table #2. Deleted user and Deleted user wait; Zoëlla stays. zoë too?"
    )


async def test_every_stored_text_naming_the_user_is_scrubbed_and_nothing_else(db):
    state = json.dumps({"names": ["Zoë 100%_x", "Bo"]})
    game_id = await game_store.create_game(
        db, game="rollerball", guild_id=1, channel_id=2, players=[42, 43], state=state
    )
    stored = await game_store.load_game(db, game_id)
    assert stored is not None
    said = ["Zoë 100%_x joins Rollerball table #1.", "Bo greets <@42>.", "Bo plays."]
    await game_store.save_move(db, stored, state=state, actor_id=42, action="join", events=said)
    async with db.transaction() as conn:
        changed = await forget.scrub_free_text(conn, 42, ["Zoë 100%_x"], "Deleted user")
    assert changed == 1
    (row,) = await db.fetch_all("SELECT events FROM game_moves WHERE game_id = ?", (game_id,))
    assert json.loads(row["events"]) == [
        "Deleted user joins Rollerball table #1.",
        "Bo greets Deleted user.",
        "Bo plays.",
    ]
