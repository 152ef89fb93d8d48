"""A newcomer's first Volleyball team through the fake Discord: "Make me a team" fills the
team form with a legal roster that fields every set, sent as it is; a roster that cannot
field every set is told so where the team is made, with what a seventh or eighth player
would change (docs/rules/volleyball.md, "Teams"); and the orders editor, in a round with a
cup match, opens on the first match and fits one phone screen (the fake's own page in
Chromium at 390 x 844)."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from fakediscord import web
from fakediscord.server import FakeDiscord
from rules.volleyball import LeagueState, fieldable_sets
from tests.e2e.phone import PHONE, message_heights, post_image
from tests.e2e.stored import whole_answer
from tests.sandbox.conftest import browser_or_skip

pytestmark = pytest.mark.e2e

LEAGUE = "Beach League"
SIX = "\n".join(  # all of the default season's 120 points over the fewest players rule 1 allows
    [
        "Anna Visser A 10 10",
        "Bram de Wit B 12 12",
        "Cees Jansen C 8 8",
        "Dirk Smit C 8 8",
        "Femke Mol D 12 12",
        "Gijs Kok E 10 10",
    ]
)


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "5151"}


@pytest.fixture(scope="module")
def fake_discord():
    """The fake Discord with its own page (the sandbox's client), to measure on a phone."""
    from tests.e2e.conftest import Fixtures

    fake = FakeDiscord()
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    yield fake
    fake.stop()


def league_state(bot) -> LeagueState:
    with sqlite3.connect(bot.database_path) as conn:
        row = conn.execute("SELECT state FROM volleyball_leagues WHERE name = ?", (LEAGUE,))
        return LeagueState.from_dict(json.loads(row.fetchone()[0]))


def box(modal: dict, custom_id: str) -> str:
    for row in modal["components"]:
        for component in row.get("components") or [row.get("component") or {}]:
            if component.get("custom_id") == custom_id:
                return component.get("value") or ""
    raise AssertionError(f"no {custom_id} box in {modal}")


async def test_make_me_a_team_fills_the_form_with_a_team_that_fields_every_set(
    discord, bot, alice, owner
):
    await discord.slash("volleyball league create", user=owner, name=LEAGUE, teams=4)
    form = await discord.slash("volleyball team create", user=alice, make_me_a_team=True)
    assert form.response_type == 9
    name, players = box(form.modal, "name"), box(form.modal, "players")
    assert name and len(players.splitlines()) == 8, players
    joined = await discord.submit_modal(form, {}, user=alice)  # sent as it is
    assert f"**{name}** joins {LEAGUE}" in joined.content, joined.content
    said = await whole_answer(discord, joined)
    assert "8 players can field all five sets of a match" in said, said
    team = league_state(bot).league.known_team(name)
    assert fieldable_sets(team) == 5 and team.manager_id == str(alice.id)
    # asked again, the same league and manager get the same team (seeded), but one
    # team per manager: the form is refused before it opens
    again = await discord.slash("volleyball team create", user=alice, make_me_a_team=True)
    assert again.ephemeral and "already" in again.content


async def test_a_six_player_team_is_told_it_cannot_field_sets_4_and_5(discord, bot, bob):
    form = await discord.slash("volleyball team create", user=bob)
    joined = await discord.submit_modal(form, {"name": "Tiny Six", "players": SIX}, user=bob)
    said = await whole_answer(discord, joined)
    assert "**Tiny Six's 6 players can field sets 1 to 3 of a match and no more**" in said, said
    assert "sets 4 and 5 would have nobody and be lost 0-15" in said
    assert "(7 players 4 sets, 8 players all five sets)" in said
    assert "\\`" not in said  # the command in it shows as code
    assert fieldable_sets(league_state(bot).league.known_team("Tiny Six")) == 3


async def test_the_orders_editor_opens_on_match_1_and_fits_one_phone_screen(
    discord, bot, alice, owner, general
):
    """It was 1,357 px of text and menus on a phone and opened on "Cup match 3" with a next
    button reading "Match 1 ▸". Its menus of several picks are one row each, as Discord draws
    every closed select (the page's sheet opens on a tap)."""
    browser_or_skip()
    await discord.slash("volleyball league start", user=owner)
    editor = await discord.slash("volleyball orders edit", user=alice)
    first = editor.content.splitlines()[0]
    assert first.startswith("**Round 1, Match 1, ") and "(1 of 3)" in first, first
    labels = [b.label for b in editor.buttons]
    assert "Match 2 ▸" in labels and not any("◂" in (label or "") for label in labels)
    second = await discord.click(editor, "Match 2 ▸", user=alice)
    labels = [b.label for b in second.buttons]
    assert "◂ Match 1" in labels and "Cup match 3 ▸" in labels
    shown = await asyncio.to_thread(message_heights, discord.fake.port, alice.id, general.id)
    measured = next(m for m in shown if "against a neutral side" in m.text)
    assert measured.height <= PHONE["height"], (measured.height, measured.parts)


async def test_the_leagues_posts_fit_one_phone_screen_with_the_details_one_tap_away(
    discord, bot, alice, owner, general
):
    """On a phone the league's start was 1,149 px (the season's publication and the cup's
    draw) and a round's results 1,305 px (the text, every set, the table and the cup): each
    is one screen now, and what it leaves out is behind its buttons, answered privately."""
    browser_or_skip()
    marker = discord.last_message(general)
    await discord.slash("volleyball round run-now", user=owner, timeout=60)
    post = await discord.wait_for_message(
        general, lambda m: "round 1 results" in m.content, since=marker, timeout=30
    )
    await discord.wait_for_dm(alice, lambda m: "round 1 of Beach League" in m.content, timeout=30)
    assert (await post_image(discord, post, "Every set", "results-1.png", alice)).width == 480
    assert (await post_image(discord, post, "Table", "standings-1.png", alice)).width == 480
    begins = next(m for m in discord.channel_messages(general) if "begins!" in m.content)
    assert (await post_image(discord, begins, "Galaxy Cup", "galaxy-cup.png", alice)).width == 480
    season = await discord.click(begins, "Season details", user=alice)
    assert season.ephemeral and "Sponsors" in season.text and "Contract players" in season.text
    shown = await asyncio.to_thread(message_heights, discord.fake.port, alice.id, general.id)
    posts = {
        what: next(m for m in shown if what in m.text) for what in ("begins!", "round 1 results")
    }
    assert all(m.height <= PHONE["height"] for m in posts.values()), {
        what: (m.height, m.parts) for what, m in posts.items()
    }
