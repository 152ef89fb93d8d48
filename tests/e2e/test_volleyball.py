"""A Volleyball league through the fake Discord, as a server uses it: an admin creates a league
of four seats, two users bring teams (one through the form, one with a roster file) and two
seats stay computer teams; orders go in through the orders form and as the seed's forms in a
file (a malformed file is refused with every problem, and the orders on file stay); two rounds
are played by deadline (the bot stopped at the deadline, a duplicate timer, then started: the
round runs once) and by `round run-now`, with an NMR team; the channel gets the public results
with the standings and cup images, and each manager's private report reaches only them by DM.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time

import pytest

from fakediscord import Upload
from rules.volleyball import (
    AgeingSplit,
    LeagueState,
    RoundOrders,
    ageing_split_problems,
    default_match_orders,
    format_round_forms,
    round_fixtures,
    team_fixtures,
)
from tests.e2e.phone import post_image
from tests.e2e.stored import connect

pytestmark = pytest.mark.e2e

LEAGUE = "Spring League"
ALICE_ROSTER = "\n".join(
    [
        "Anna Visser A 6 4",
        "Bram de Wit A 5 5",
        "Cees Jansen B 12 12",
        "Dirk Smit C 8 8",
        "Eva Bakker C 8 8",
        "Femke Mol D 12 12",
        "Gijs Kok E 10 10",
    ]
)
BOB_ROSTER = "TEAM: Blue Whales\n" + "\n".join(
    [
        "Hans Berg, A, 10/10",
        "Ilse Vos, B, 12/12",
        "Jan Post, C, 8/8",
        "Kees Dam, C, 8/8",
        "Lies Boer, D, 12/12",
        "Mark Hof, E, 6/6",
        "Nina Roos, E, 4/4",
    ]
)


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "1212"}


# --- reading what the bot stored ----------------------------------------------------------------


def league_row(bot) -> dict:
    with connect(bot) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM volleyball_leagues WHERE name = ?", (LEAGUE,)).fetchone()
    return dict(row)


def league_state(bot) -> LeagueState:
    return LeagueState.from_dict(json.loads(league_row(bot)["state"]))


def sql(bot, query: str, *parameters):
    with connect(bot) as conn:
        return conn.execute(query, parameters).fetchall()


def filled_forms(state: LeagueState, team_name: str) -> str:
    """The seed's forms for the team's matches this round, filled in with a legal line-up."""
    team = state.league.team(team_name)
    assert team is not None
    fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team_name)
    matches = [
        default_match_orders(
            team,
            opponent=f.away if f.home == team_name else f.home,
            home=f.home == team_name,
            match_number=f.match_number,
        )
        for f in fixtures
    ]
    return format_round_forms(team, fixtures, RoundOrders(team=team_name, matches=matches))


async def results_message(discord, channel, number: int, since=None):
    return await discord.wait_for_message(
        channel, lambda m: f"round {number} results" in m.content, timeout=20, since=since
    )


# --- the tests -------------------------------------------------------------------------------------


async def test_only_admins_run_a_league(discord, bot, alice):
    refused = await discord.slash("volleyball league create", user=alice, name="Alice Cup")
    assert refused.ephemeral and "Manage Server" in refused.content
    assert sql(bot, "SELECT COUNT(*) FROM volleyball_leagues")[0][0] == 0


@pytest.mark.both_backends
async def test_a_league_runs_by_its_deadlines(
    discord, bot, alice, bob, carol, dave, owner, general
):
    # --- the admin sets the league up: four seats, every computer team until managers come
    created = await discord.slash(
        "volleyball league create",
        user=owner,
        name=LEAGUE,
        teams=4,
        every_hours=24,
        ping_role=discord.fake.bot_role_id,
    )
    assert not created.ephemeral and "4 seats" in created.text and "every 24 hours" in created.text
    again = await discord.slash("volleyball league create", user=owner, name=LEAGUE.upper())
    assert again.ephemeral and "already has a league" in again.content
    everyone = await discord.slash(
        "volleyball league create", user=owner, name="Loud League", ping_role=discord.guild_id
    )
    assert everyone.ephemeral and "not @everyone" in everyone.content

    # --- alice brings her team through the form, bob with a roster file
    form = await discord.slash("volleyball team create", user=alice)
    assert form.response_type == 9
    joined = await discord.submit_modal(
        form, {"name": "Red Rockets", "players": ALICE_ROSTER}, user=alice
    )
    assert "**Red Rockets** joins Spring League" in joined.content and not joined.ephemeral
    assert "Anna Visser" not in joined.content  # the levels are the team's own
    # the league's card is edited after the answer (it waits on the channel's rate limit), so
    # its edit may come among the followups: the sheet is the private one
    sheet = next((m for m in joined.followups if m.ephemeral), None)
    assert sheet is None or (sheet.ephemeral and "Anna Visser" in sheet.content)
    uploaded = await discord.slash(
        "volleyball team create", user=bob, roster=Upload("roster.txt", BOB_ROSTER.encode())
    )
    assert "**Blue Whales** joins" in uploaded.content

    # carol's roster breaks three rules: every one is listed, and no team is made
    bad_roster = "TEAM: Green Geckos\nOla Ek A 16 4\nPer Lund B 30 20\nthree words here\n"
    refused = await discord.slash(
        "volleyball team create", user=carol, roster=Upload("roster.txt", bad_roster.encode())
    )
    assert refused.ephemeral and "Your team was not created" in refused.content
    assert "Line 4" in refused.content and "2:1" in refused.content
    assert "at least 6 players" in refused.content
    # a second team for alice is refused by the database's rule
    twice = await discord.slash(
        "volleyball take-seat", user=alice, team=league_state(bot).league.teams[2].name
    )
    assert twice.ephemeral and "already" in twice.content
    managers = dict(sql(bot, "SELECT team, user_id FROM volleyball_managers"))
    assert managers == {"Red Rockets": alice.id, "Blue Whales": bob.id}
    state = league_state(bot)
    assert sum(t.manager_id is None for t in state.league.teams) == 2

    # --- the league starts: the season's information in the channel, the role pinged
    before_start = discord.last_message(general)
    started = await discord.slash("volleyball league start", user=owner)
    assert started.ephemeral and "has started" in started.text
    opening = await discord.wait_for_message(
        general, lambda m: "Spring League begins" in m.content, since=before_start
    )
    assert opening.content.startswith(f"<@&{discord.fake.bot_role_id}>")
    cup_draw = await post_image(discord, opening, "Galaxy Cup", "galaxy-cup.png", dave)
    assert cup_draw.width == 480  # laid out for a phone
    season = await discord.click(opening, "Season details", user=dave)
    assert season.ephemeral and "Sponsors" in season.text
    timers = sql(bot, "SELECT event FROM timers WHERE event LIKE 'volleyball%' ORDER BY due_at")
    assert [t[0] for t in timers] == ["volleyball_remind", "volleyball_deadline"]

    # --- alice's orders through the form: the boxes come filled with a legal line-up
    modal = await discord.slash("volleyball orders send", user=alice)
    assert modal.response_type == 9
    boxes = {c["custom_id"]: c for row in modal.modal["components"] for c in row["components"]}
    assert {"match:1", "match:2", "lines"} <= set(boxes)
    accepted = await discord.submit_modal(modal, {"lines": "SPONSOR: Champion Cola"}, user=alice)
    assert accepted.ephemeral and "accepted" in accepted.content
    everything = accepted.content + "".join(f.content for f in accepted.followups)
    assert "SPONSOR: Champion Cola" in everything and "against a neutral side" in everything

    # --- bob uploads the seed's forms; then a malformed file is refused, his orders stay
    state = league_state(bot)
    forms = filled_forms(state, "Blue Whales")
    ok = await discord.slash(
        "volleyball orders upload", user=bob, file=Upload("orders.txt", forms.encode())
    )
    assert "accepted" in ok.content, ok.content
    on_file = sql(bot, "SELECT orders FROM volleyball_orders WHERE team = 'Blue Whales'")
    # a typo in a player's name and an unknown concept code: both listed, with their lines
    broken = re.sub(r"(?m)^Hans Berg ", "Hans Burg ", forms, count=1)
    broken = broken.replace("Concept code: 3", "Concept code: 8", 1)
    refused = await discord.slash(
        "volleyball orders upload", user=bob, file=Upload("orders.txt", broken.encode())
    )
    text = refused.content + "".join(f.content for f in refused.followups)
    assert refused.ephemeral and "2 problems" in text and "stay as they were" in text
    assert "Did you mean Hans Berg?" in text and "concept code must be" in text
    # home and away swapped: the form does not match the schedule
    swapped = (
        forms.replace("HOMEPLAY", "@@").replace("OUTBOUND", "HOMEPLAY").replace("@@", "OUTBOUND")
    )
    refused = await discord.slash(
        "volleyball orders upload", user=bob, file=Upload("orders.txt", swapped.encode())
    )
    swaps = len(re.findall(r"(?m)^(HOMEPLAY|OUTBOUND)$", forms))
    assert f"refused** (Blue Whales): {swaps} problems" in refused.content
    assert "the line-up says HOMEPLAY, but match" in refused.content
    assert sql(bot, "SELECT orders FROM volleyball_orders WHERE team = 'Blue Whales'") == on_file
    # orders for someone else's team: alice's forms sent by bob
    theirs = await discord.slash(
        "volleyball orders upload",
        user=bob,
        file=Upload("orders.txt", filled_forms(state, "Red Rockets").encode()),
    )
    assert "This form is for Red Rockets, but your team is Blue Whales" in theirs.content
    huge = await discord.slash(
        "volleyball orders upload", user=bob, file=Upload("big.txt", b"x" * 120_000)
    )
    assert huge.ephemeral and "at most 100 KB" in huge.content
    shown = await discord.slash("volleyball orders show", user=bob)
    assert shown.ephemeral and "Orders on file" in shown.content
    assert shown.attachments or any(f.attachments for f in shown.followups)

    # --- a non-admin cannot play the round, pause or configure the league
    for command in (
        "volleyball round run-now",
        "volleyball league pause",
        "volleyball league config",
    ):
        no = await discord.slash(command, user=carol)
        assert no.ephemeral and "Only server admins" in no.content, command

    # --- the deadline passes while the bot is down; a second timer for the same deadline
    # exists too: at start-up the round is played exactly once
    bot.stop()
    row = league_row(bot)
    with connect(bot) as conn:
        conn.execute(
            "UPDATE timers SET due_at = ? WHERE id = ?", (time.time() - 5, row["deadline_timer"])
        )
        conn.execute(
            "INSERT INTO timers (event, due_at, payload, created_at)"
            " SELECT event, due_at, payload, created_at FROM timers WHERE id = ?",
            (row["deadline_timer"],),
        )
        conn.execute("UPDATE volleyball_leagues SET next_deadline = ?", (time.time() - 5,))
    marker = discord.last_message(general)
    bot.start()
    first = await results_message(discord, general, 1, since=marker)
    assert first.content.startswith(f"<@&{discord.fake.bot_role_id}>")
    images = first
    await discord.wait_for_dm(alice, lambda m: "**Red Rockets**, round 1" in m.content)
    await discord.wait_for_dm(bob, lambda m: "**Blue Whales**, round 1" in m.content)
    await asyncio.sleep(1.0)  # time for a second round to be played, if it were
    state = league_state(bot)
    assert state.league.round_number == 2
    public = sql(
        bot, "SELECT COUNT(*) FROM volleyball_reports WHERE team = '' AND round_number = 1"
    )
    assert public[0][0] == 1
    posted = [m for m in discord.channel_messages(general) if "round 1 results" in m.content]
    assert len(posted) == 1
    # the table and every set and who played: below the post, or one tap away
    table = await post_image(discord, first, "Table", "standings-1.png", dave)
    assert table.width == 480  # the standings, laid out for a phone
    sets = await post_image(discord, first, "Every set", "results-1.png", dave)
    assert sets.width == 480
    # private things never in the channel, each sheet only in its owner's DMs
    channel_text = "\n".join(m.text for m in discord.channel_messages(general))
    assert "(private)" not in channel_text and "Money $" not in channel_text
    alice_dms = "\n".join(m.content for m in discord.dm_messages(alice))
    bob_dms = "\n".join(m.content for m in discord.dm_messages(bob))
    assert "Anna Visser" in alice_dms and "Anna Visser" not in bob_dms
    assert "Hans Berg" in bob_dms and "Hans Berg" not in alice_dms
    assert "Blue Whales: your team sheet" not in alice_dms
    assert not any("(private)" in m.content for m in discord.dm_messages(carol))
    assert "Money" in "".join(m.content for m in discord.dm_messages(alice))

    # --- round 2: the reminder pings bob (no orders), alice sends hers, bob stays NMR and
    # has closed his DMs; an admin plays it with run-now
    modal = await discord.slash("volleyball orders send", user=alice)
    boxes = {c["custom_id"]: c for row in modal.modal["components"] for c in row["components"]}
    assert not boxes["lines"].get("value")  # a new round: nothing on file yet
    await bot.restart()  # the form opened before a restart is sent after it
    trained = await discord.submit_modal(modal, {"lines": "TRAIN: Anna Visser OL"}, user=alice)
    assert "accepted" in trained.content, trained.content
    row = league_row(bot)
    with connect(bot) as conn:
        conn.execute(
            "UPDATE timers SET due_at = ? WHERE id = ?", (time.time() - 1, row["remind_timer"])
        )
    await bot.restart()
    reminder = await discord.wait_for_message(
        general, lambda m: "are due" in m.content, since=images
    )
    assert bob.mention in reminder.content and alice.mention not in reminder.content
    opened = await discord.click(reminder, "Send orders", user=bob)
    assert opened.response_type == 9 and "round 2" in opened.modal_title.lower()

    discord.close_dms(bob)
    marker = discord.last_message(general)
    played = await discord.slash("volleyball round run-now", user=owner, timeout=20)
    assert "Played round 2" in played.text
    second = await results_message(discord, general, 2, since=marker)
    assert "No orders from Blue Whales" in second.content
    closed = await discord.wait_for_message(
        general, lambda m: "could not send you" in m.content, since=marker
    )
    assert closed.content.startswith(bob.mention) and "Money" not in closed.content
    await discord.wait_for_dm(alice, lambda m: "round 2 of Spring League (private)" in m.content)
    assert league_state(bot).league.round_number == 3

    # --- everyone's views: the table and the cup as images, a team's history
    table = await discord.slash("volleyball table", user=dave)
    assert not table.ephemeral and table.images and table.images[0].width == 480
    cup = await discord.slash("volleyball cup", user=dave)
    assert cup.images and cup.images[0].width == 480  # the bracket, laid out for a phone
    history = await discord.slash("volleyball history", user=dave, team="Red Rockets")
    assert history.ephemeral and "R1 M" in history.content
    results = await discord.slash("volleyball results", user=dave, round=1)
    assert "Match 1:" in results.content

    # --- a late manager takes over a computer team, as it is
    seat = next(t.name for t in league_state(bot).league.teams if t.manager_id is None)
    taken = await discord.slash("volleyball take-seat", user=carol, team=seat)
    assert f"takes over **{seat}**" in taken.content
    sheet = await discord.slash("volleyball team show", user=carol)
    assert sheet.ephemeral and seat in sheet.content and "Money" in sheet.content

    # --- /privacy: carol's data goes; her team is the computer's again, the league plays on
    shown = await discord.slash("privacy", user=carol)
    assert shown.ephemeral and f"you manage {seat}" in shown.text
    deleted = await discord.click(shown, "Delete my data", user=carol)
    assert deleted.ephemeral and "Done" in deleted.content
    assert league_state(bot).league.team(seat).manager_id is None
    assert not sql(bot, "SELECT 1 FROM volleyball_managers WHERE user_id = ?", carol.id)
    again = await discord.slash("privacy", user=carol)
    assert "stores nothing about you" in again.content


def legal_ageing_line(state: LeagueState, team_name: str) -> str:
    """An AGEING line the rules accept for one of the team's players."""
    team = state.league.team(team_name)
    assert team is not None
    for player in team.players:
        if player.age not in "ABCD" or player.is_talent or player.is_contract:
            continue
        for loss in range(0, 15):
            if not ageing_split_problems(team, [AgeingSplit(player.name, loss)]):
                return f"AGEING: {player.name} OL {loss}"
    raise AssertionError("no player to age")


async def test_a_season_ends_and_the_next_begins(discord, bot, dave, owner, games):
    created = await discord.slash(
        "volleyball league create",
        user=owner,
        channel=games,
        name="Autumn League",
        teams=2,
        every_hours=48,
    )
    assert "2 seats" in created.content
    # two leagues in the server now: in #games the commands mean the league of #games
    form = await discord.slash("volleyball team create", user=dave, channel=games)
    joined = await discord.submit_modal(
        form, {"name": "Dune Divers", "players": ALICE_ROSTER}, user=dave
    )
    assert "**Dune Divers** joins Autumn League" in joined.content
    rival = next(t.name for t in autumn(bot).league.teams if t.name != "Dune Divers")

    # single orders by command, added to what is on file
    sponsor = await discord.slash(
        "volleyball sponsor", user=dave, channel=games, sponsor="Set Point Sports"
    )
    assert "accepted" in sponsor.content and "SPONSOR: Set Point Sports" in sponsor.content
    spy = await discord.slash("volleyball spy", user=dave, channel=games, team=rival, match=1)
    # the spying order is added: the sponsor sent before stays on file
    assert "SPY: " + rival + " match 1" in spy.content and "On file: sponsor, spying" in spy.content
    sell = await discord.slash(
        "volleyball sell", user=dave, channel=games, player="Anna Visser", minimum=300
    )
    assert "refused" in sell.content and "no transfers in the last three rounds" in sell.content
    bid = await discord.slash(
        "volleyball bid", user=dave, channel=games, player="Nobody", seller=rival, amount=100
    )
    assert "refused" in bid.content and "last three rounds" in bid.content
    preview = await discord.slash("volleyball preview", user=dave, channel=games)
    assert preview.ephemeral and "No line-up on file" in preview.content
    forms = await discord.slash("volleyball orders form", user=dave, channel=games)
    assert forms.ephemeral and "filled in with your orders on file" in forms.content
    assert b"SPYING ORDER" in forms.attachments[0].data
    schedule = await discord.slash("volleyball schedule", user=dave, channel=games)
    assert "Round 1: M1 " in schedule.content and "Dune Divers" in schedule.content
    season = await discord.slash("volleyball season", user=dave, channel=games)
    assert "what the GM makes public" in season.content
    market = await discord.slash("volleyball market", user=dave, channel=games)
    assert market.ephemeral and "Market, round 1" in market.content
    rules = await discord.slash("volleyball rules", user=dave, channel=games, topic="lines")
    assert "BID: Piet Put from Red Rockets 350" in rules.content

    # start, pause (no deadline), resume (a deadline again)
    await discord.slash("volleyball league start", user=owner, channel=games)
    paused = await discord.slash("volleyball league pause", user=owner, channel=games)
    assert "paused" in paused.content
    assert autumn_row(bot)["next_deadline"] is None
    resumed = await discord.slash("volleyball league resume", user=owner, channel=games)
    assert "goes on" in resumed.content and autumn_row(bot)["next_deadline"] > time.time()

    # the settings, and a new reminder time that moves the reminder
    shown = await discord.slash("volleyball league config", user=owner, channel=games)
    assert shown.ephemeral and "deadlines every 48 hours" in shown.content
    assert "special_points=160" in shown.content
    changed = await discord.slash(
        "volleyball league config", user=owner, channel=games, remind_hours=1
    )
    assert "reminders 1 hour before" in changed.content
    row = autumn_row(bot)
    remind = sql(bot, "SELECT due_at FROM timers WHERE id = ?", row["remind_timer"])[0][0]
    assert remind == pytest.approx(row["next_deadline"] - 3600)
    season_change = await discord.slash(
        "volleyball league config", user=owner, channel=games, season="scouts=2"
    )
    assert (
        season_change.ephemeral and "only change before the league starts" in season_change.content
    )

    # orders after the deadline (the timer is late) are refused, and nothing changes
    with connect(bot) as conn:
        conn.execute(
            "UPDATE volleyball_leagues SET next_deadline = ? WHERE name = 'Autumn League'",
            (time.time() - 60,),
        )
    late = await discord.slash(
        "volleyball orders upload",
        user=dave,
        channel=games,
        file=Upload("late.txt", b"SPONSOR: Champion Cola"),
    )
    assert late.ephemeral and "deadline for round 1 of season 1 passed" in late.content
    with connect(bot) as conn:
        conn.execute(
            "UPDATE volleyball_leagues SET next_deadline = ? WHERE name = 'Autumn League'",
            (time.time() + 3600,),
        )

    # a form opened before the round was played and sent after it stores nothing
    modal = await discord.slash("volleyball orders send", user=dave, channel=games)
    await discord.slash("volleyball round run-now", user=owner, channel=games)
    post = await discord.wait_for_message(
        games, lambda m: "round 1 results" in m.content, timeout=20
    )
    assert (await post_image(discord, post, "Table", "standings-1.png", dave)).width == 480
    await discord.wait_for_dm(dave, lambda m: "round 1 of Autumn League" in m.content)  # all out
    stale = await discord.submit_modal(modal, {}, user=dave)
    assert "was played after you opened the form" in stale.content
    assert stale.attachments or any(f.attachments for f in stale.followups)

    # the season is over (two teams: one round); ageing splits are the only orders now
    assert autumn(bot).season_over
    line = legal_ageing_line(autumn(bot), "Dune Divers")
    ageing = await discord.slash(
        "volleyball orders upload", user=dave, channel=games, file=Upload("a.txt", line.encode())
    )
    assert "Orders for the end of season 1 accepted" in ageing.content, ageing.content
    shown = await discord.slash("volleyball orders show", user=dave, channel=games)
    assert line in shown.content and not shown.attachments
    no_form = await discord.slash("volleyball orders form", user=dave, channel=games)
    assert no_form.ephemeral and "The season is over" in no_form.content
    marker = discord.last_message(games)
    await discord.slash("volleyball round run-now", user=owner, channel=games)
    over = await discord.wait_for_message(
        games, lambda m: "season 1 is over" in m.content, since=marker, timeout=20
    )
    assert "champions" in over.content
    await discord.wait_for_dm(dave, lambda m: "season 2 begins in Autumn League" in m.content)
    published = await discord.click(over, "Season details", user=dave)
    assert published.ephemeral and "season 2, what the GM makes public" in published.text
    state = autumn(bot)
    assert (state.league.season, state.league.round_number) == (2, 1)
    history = await discord.slash(
        "volleyball history", user=dave, channel=games, team="Dune Divers"
    )
    assert "Season 1: finished" in history.content


def autumn_row(bot) -> dict:
    with connect(bot) as conn:
        conn.row_factory = sqlite3.Row
        return dict(
            conn.execute("SELECT * FROM volleyball_leagues WHERE name = 'Autumn League'").fetchone()
        )


def autumn(bot) -> LeagueState:
    return LeagueState.from_dict(json.loads(autumn_row(bot)["state"]))
