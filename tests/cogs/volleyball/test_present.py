"""What the league posts and sends reads as Discord shows it: the bot's own markdown (a
command in backticks, bold) is markdown, never escaped into visible backslashes and
backticks (cogs/volleyball/present.py)."""

from __future__ import annotations

import re

from cogs.volleyball.present import (
    season_end_post,
    season_start_lines,
    team_sheet_messages,
)
from rules.volleyball import close_season, new_league
from ui.text import packed

# A backtick or asterisk escaped by ui.shown: Discord shows the backslash's character as it is.
ESCAPED_MARKUP = re.compile(r"\\[`*]")


def test_the_season_text_names_its_commands_in_code_not_escaped_backticks():
    state = new_league([], total_teams=4, seed=3)
    text = "\n".join(packed(season_start_lines(state)))
    assert "`/volleyball schedule`" in text, text
    assert not ESCAPED_MARKUP.search(text), text


def test_the_season_end_post_and_the_team_sheet_show_no_escaped_markup():
    state = new_league([], total_teams=4, seed=3)
    state.league.round_number = state.total_rounds + 1
    closed = close_season(state, {})
    posted = "\n".join(season_end_post("Beach League", closed))
    sheet = "\n".join(
        team_sheet_messages("Beach League", state, state.league.teams[0].name, 1_800_000_000.0)
    )
    for text in (posted, sheet):
        assert not ESCAPED_MARKUP.search(text), text
