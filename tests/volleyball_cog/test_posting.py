"""The public round post carries every image: a big league's results and the pages of its cup
draw are more than a message's ten files (Discord's limit), so the rest follow in further
messages, nothing dropped (cogs/volleyball/posting.py)."""

from __future__ import annotations

from typing import Any

from cogs.volleyball.posting import MAX_FILES, Poster
from db.volleyball import StoredLeague, StoredReport
from rules.volleyball.managers import new_computer_league


class Channel:
    """Records what the poster sends: (content, file names) a message."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[str]]] = []

    async def send(self, content: str, *, files: Any = (), allowed_mentions: Any = None) -> None:
        self.sent.append((content, [f.filename for f in files]))


async def test_a_big_league_round_post_sends_every_image_ten_a_message() -> None:
    state = new_computer_league(64, seed=3, divisions=[8] * 8)
    channel = Channel()
    poster = Poster(None)  # type: ignore[arg-type]  # only the channel is asked for

    async def the_channel(_stored: StoredLeague) -> Channel:
        return channel

    poster.channel = the_channel  # type: ignore[method-assign]
    league = StoredLeague(
        1, 1, "Big League", 5, None, None, 1, {}, {}, 0, 0.0, "running", "", 1, None, None, None
    )
    report = StoredReport(1, 1, 1, 1, "", None, ["Round 1 of Big League."], ["round", "cup"], False)
    await poster.send(league, state, report)
    cup_pages = [f"galaxy-cup-{page}.png" for page in range(1, 5)]  # 64 matches, 16 a page
    rounds = [f"round-{division}.png" for division in range(1, 9)]
    assert [names for _content, names in channel.sent] == [
        rounds + cup_pages[:2],
        cup_pages[2:],
    ]
    assert all(len(names) <= MAX_FILES for _content, names in channel.sent)
    assert channel.sent[0][0] == "Round 1 of Big League."
    assert channel.sent[1][0] == "the Galaxy Cup:"
