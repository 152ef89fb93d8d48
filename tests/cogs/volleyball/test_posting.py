"""The public round post is one phone screen (cogs/volleyball/posting.py): its text, the
images that fit below it, and a button for each detail that does not. A big league's results,
tables and cup pages are far taller than a screen, so they are all one tap away, nothing
dropped; a small league's table fits below the text."""

from __future__ import annotations

from typing import Any

from cogs.volleyball.posting import (
    BUTTON_ROW,
    CHROME,
    SCREEN_HEIGHT,
    Poster,
    image_height,
    text_height,
)
from db.volleyball import StoredLeague, StoredReport
from rules.volleyball import LeagueState
from rules.volleyball.managers import new_computer_league


class Channel:
    """Records what the poster sends: (content, file names, button labels) a message."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[str], list[str]]] = []
        self.files: dict[str, bytes] = {}

    async def send(
        self, content: str, *, files: Any = (), allowed_mentions: Any = None, view: Any = None
    ) -> None:
        labels = [item.item.label for item in view.children] if view is not None else []
        self.sent.append((content, [f.filename for f in files], labels))
        self.files.update({f.filename: f.fp.read() for f in files})


async def posted(state: LeagueState, text: str, why: list | None = None) -> Channel:
    channel = Channel()
    poster = Poster(None)  # type: ignore[arg-type]  # only the channel is asked for

    async def the_channel(_stored: StoredLeague) -> Channel:
        return channel

    poster.channel = the_channel  # type: ignore[method-assign]
    league = StoredLeague(
        1, 1, "League", 5, None, None, 1, {}, {}, 0, 0.0, "running", "", 1, None, None, None
    )
    report = StoredReport(1, 1, 1, 1, "", None, [text], ["round", "cup"], False, why)
    await poster.send(league, state, report)
    return channel


async def test_a_big_league_round_post_keeps_its_images_one_tap_away() -> None:
    channel = await posted(new_computer_league(64, seed=3, divisions=[8] * 8), "Round 1.")
    assert channel.sent == [("Round 1.", [], ["Every set", "Table", "Galaxy Cup"])]


async def test_a_small_league_round_post_shows_the_table_that_fits_one_screen() -> None:
    text = "Round 1 of a small league.\nM1: A 3-0 B"
    channel = await posted(new_computer_league(4, seed=3), text)
    assert channel.sent == [(text, ["standings-1.png"], ["Every set", "Galaxy Cup"])]
    shown = CHROME + text_height(text) + image_height(channel.files["standings-1.png"])
    assert shown + BUTTON_ROW <= SCREEN_HEIGHT


async def test_a_round_whose_events_are_kept_has_a_why_button_and_one_before_has_none() -> None:
    """The round's Why? (cogs/volleyball/why.py) is one of its post's buttons once what decided
    it is kept; a round played before that (its report keeps none) is posted as it was."""
    kept = [("A v B, set 1: 15-3", ["A match", "R1", "R6"])]
    state = new_computer_league(64, seed=3, divisions=[8] * 8)
    channel = await posted(state, "Round 1.", kept)
    assert channel.sent == [("Round 1.", [], ["Every set", "Table", "Galaxy Cup", "Why?"])]
    before = await posted(state, "Round 1.")
    assert "Why?" not in before.sent[0][2]
