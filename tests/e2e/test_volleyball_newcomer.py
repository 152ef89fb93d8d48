"""A newcomer's first Volleyball team through the fake Discord: "Make me a team" fills the
team form with a legal roster that fields every set, sent as it is; a roster that cannot
field every set is told so where the team is made, with what a seventh or eighth player
would change (docs/rules/volleyball.md, "Teams")."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from rules.volleyball import LeagueState, fieldable_sets

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


def league_state(bot) -> LeagueState:
    with sqlite3.connect(bot.database_path) as conn:
        row = conn.execute("SELECT state FROM volleyball_leagues WHERE name = ?", (LEAGUE,))
        return LeagueState.from_dict(json.loads(row.fetchone()[0]))


async def everything(discord, reply, followups: int) -> str:
    """The reply and its first `followups` followups (the private answers after a public
    one), once they have come."""
    record = discord.fake.interactions[reply.interaction_id]
    for _ in range(200):
        if len(record.followup_ids) >= followups:
            break
        await asyncio.sleep(0.05)
    later = [discord.message(i).content for i in record.followup_ids[:followups]]
    assert len(later) == followups, f"{len(later)} of {followups} followups came"
    return "\n".join([reply.content, *later])


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
    said = await everything(discord, joined, 2)
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
    said = await everything(discord, joined, 2)
    assert "**Tiny Six's 6 players can field sets 1 to 3 of a match and no more**" in said, said
    assert "sets 4 and 5 would have nobody and be lost 0-15" in said
    assert "(7 players 4 sets, 8 players all five sets)" in said
    assert "\\`" not in said  # the command in it shows as code
    assert fieldable_sets(league_state(bot).league.known_team("Tiny Six")) == 3
