"""A Volleyball manager's week through the fake Discord (docs/rules/volleyball.md, "A manager's
week"): the league's status card shows who has sent orders and is edited in place; the
prefilled orders fill every set and spend the home advantage; a mistake in a form keeps the
text; the round's public post is one message with images, the private sheet starts with the
result, the money and what to do next; last round's orders repeat in one click; and the
smaller defects: a seed-style roster file, spying twice, spying on a team that is gone, a bid
the bank would refuse, role pickers, a reminder after its deadline, the season's end that
publishes no player's levels.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from fakediscord import Upload
from rules.volleyball import LeagueState, new_league
from tests.e2e.phone import post_image
from tests.e2e.stored import connect

pytestmark = pytest.mark.e2e

LEAGUE = "Week League"
# A squad whose fittest six each set cannot field set 5 (the NMR line-up forfeits it), while
# a rotation fields all five; its points per age fit the default budget exactly.
ROSTER = "\n".join(
    [
        "Anna Visser A 12 8",
        "Bram de Wit B 6 6",
        "Cees Jansen B 5 3",
        "Dirk Smit C 7 7",
        "Eva Bakker C 11 7",
        "Femke Mol D 9 15",
        "Gijs Kok E 3 6",
        "Hans Berg E 4 5",
    ]
)
POINTS = re.compile(r"HOME ADV\. Pts\. OL: (\d+) DL: (\d+)")


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "2222"}


def sql(bot, query: str, *parameters):
    with connect(bot) as conn:
        return conn.execute(query, parameters).fetchall()


def state_of(bot, name: str = LEAGUE) -> LeagueState:
    (row,) = sql(bot, "SELECT state FROM volleyball_leagues WHERE name = ?", name)
    return LeagueState.from_dict(json.loads(row[0]))


def orders_of(bot, team: str, round_number: int) -> dict | None:
    rows = sql(
        bot,
        "SELECT orders FROM volleyball_orders WHERE team = ? AND round_number = ?",
        team,
        round_number,
    )
    return json.loads(rows[0][0]) if rows else None


def everything(reply) -> str:
    return "\n".join([reply.text, *(f.text for f in reply.followups)])


def card_of(discord, channel):
    cards = [
        m
        for m in discord.channel_messages(channel)
        if m.embeds and m.button_labels[:1] == ["Send orders"]
    ]
    return cards[-1]


def boxes_of(modal) -> dict[str, str]:
    return {
        c["custom_id"]: c.get("value") or ""
        for row in modal.modal["components"]
        for c in row["components"]
    }


async def week_league(discord, bot, alice, bob, owner) -> None:
    """A running league of six seats: alice's own team (Red Rockets, the squad above), bob on
    a computer team's seat (made once per module)."""
    if sql(bot, "SELECT 1 FROM volleyball_leagues WHERE name = ?", LEAGUE):
        return
    await discord.slash(
        "volleyball league create", user=owner, name=LEAGUE, teams=6, every_hours=24
    )
    form = await discord.slash("volleyball team create", user=alice)
    joined = await discord.submit_modal(form, {"name": "Red Rockets", "players": ROSTER})
    assert "**Red Rockets** joins" in joined.content
    seat = next(t.name for t in state_of(bot).league.teams if t.manager_id is None)
    await discord.slash("volleyball take-seat", user=bob, team=seat)
    started = await discord.slash("volleyball league start", user=owner)
    assert "has started" in started.text
    # the season's information, then the card posted again below it
    await discord.wait_for_message(
        None, lambda m: bool(m.embeds) and "orders due" in m.embeds[0].get("description", "")
    )


@pytest.mark.both_backends
async def test_the_card_shows_who_has_sent_orders_and_is_edited_in_place(
    discord, bot, alice, bob, owner, general
):
    await week_league(discord, bot, alice, bob, owner)
    bobs = next(t.name for t in state_of(bot).league.teams if t.manager_id == str(bob.id))
    card = card_of(discord, general)
    fields = {f["name"]: f["value"] for f in card.embeds[0]["fields"]}
    assert card.embeds[0]["title"] == LEAGUE
    assert "<t:" in card.embeds[0]["description"]  # the deadline, in every reader's time zone
    assert fields["Orders in (0 of 2)"] == "none yet"
    assert "Red Rockets" in fields["Waiting for"] and bobs in fields["Waiting for"]
    assert card.button_labels == [
        "Send orders",
        "Edit with menus",
        "Repeat last orders",
        "My team",
        "Follow",
        "Why?",
    ]
    listed = await discord.slash("games", user=alice)
    line = next(row for row in listed.text.splitlines() if LEAGUE in row)
    assert "**your orders** for round 1 of season 1" in line and ":R>" in line
    assert f"/{card.id})" in line  # "open" goes to the league's card
    # /live lists the league for anyone: its round, how many orders are in, its card
    live = await discord.slash("live", user=owner)
    line = next(row for row in live.text.splitlines() if LEAGUE in row)
    assert "6 teams" in line and "round 1 of season 1: orders in 0 of 2" in line
    assert ":R>" in line and f"/{card.id})" in line

    # alice sends the prefilled form from the card; the card changes in place, names only
    modal = await discord.click(card, "Send orders", user=alice)
    assert modal.response_type == 9
    sent = await discord.submit_modal(modal, {"lines": "SPONSOR: Champion Cola"}, user=alice)
    text = everything(sent)
    assert "accepted" in text and "Warnings" not in text, text
    edited = await discord.wait_for_edit(card)
    fields = {f["name"]: f["value"] for f in edited.embeds[0]["fields"]}
    assert (
        "Red Rockets" in fields["Orders in (1 of 2)"] and "Red Rockets" not in fields["Waiting for"]
    )
    assert "Champion Cola" not in edited.text and "SPONSOR" not in edited.text
    assert card_of(discord, general).id == card.id  # the same message, edited
    # /games: hers are in, so the league waits for others; never what they say
    listed = await discord.slash("games", user=alice)
    line = next(row for row in listed.text.splitlines() if LEAGUE in row)
    assert "orders for round 1 of season 1 sent" in line and "Champion Cola" not in listed.text
    assert "Waiting for you" not in listed.text
    live = await discord.slash("live", user=owner)
    line = next(row for row in live.text.splitlines() if LEAGUE in row)
    assert "orders in 1 of 2" in line and "Champion Cola" not in live.text


@pytest.mark.both_backends
async def test_the_prefilled_orders_fill_every_set_and_spend_the_home_advantage(
    discord, bot, alice, bob, owner
):
    """The defaults used HA 0/0 and left a set without players, so a match was lost
    3-2 with the deciding set forfeited 15-0."""
    await week_league(discord, bot, alice, bob, owner)
    allowance = state_of(bot).league.config.home_advantage_points(1)
    modal = await discord.slash("volleyball orders send", user=alice)
    boxes = boxes_of(modal)
    homes = 0
    for custom_id, text in boxes.items():
        if not custom_id.startswith("match:"):
            continue
        sets = re.split(r"(?m)^SET \d\n", text)[1:]
        assert len(sets) == 5, text
        for block in sets:
            players = [line for line in block.splitlines() if re.fullmatch(r"[^:]+ \d", line)]
            assert len(players) == 6, block
        advantage = sum(int(ol) + int(dl) for ol, dl in POINTS.findall(text))
        if "HOMEPLAY" in text:
            homes += 1
            assert advantage == allowance, text
        else:
            assert advantage == 0
    assert homes >= 1
    # the editor's default is the same line-up: no problem, nothing given away
    editor = await discord.slash("volleyball orders edit", user=alice)
    status = editor.content.split("\n-5 level points")[0].splitlines()[-1]
    assert status in ("On file as shown.", "No problems: **Save orders** puts this draft on file.")
    # a line-up that leaves home advantage unused is accepted with a warning before it is kept
    home = next(k for k, v in boxes.items() if "HOMEPLAY" in v)
    bare = POINTS.sub("", boxes[home])
    sent = await discord.submit_modal(modal, {home: bare}, user=alice)
    text = everything(sent)
    assert "accepted" in text
    assert f"0 of the {allowance} home-advantage points are used" in text, text


@pytest.mark.both_backends
async def test_a_mistake_in_the_orders_form_keeps_the_text(discord, bot, alice, bob, owner):
    """`SPONSOR Champion Cola` closed the form, threw the text away and named the
    wrong fix."""
    await week_league(discord, bot, alice, bob, owner)
    on_file = orders_of(bot, "Red Rockets", 1)
    modal = await discord.slash("volleyball orders send", user=alice)
    lines = "SCOUT: Nina Nieuw\nSPONSOR Champion Cola\nSCOUT Piet Post"
    refused = await discord.submit_modal(modal, {"lines": lines}, user=alice)
    text = everything(refused)
    assert "refused" in text and "2 problems" in text  # every one, with its line
    assert "Order lines box, line 2" in text and "write SPONSOR: Champion Cola" in text
    assert "player" not in text.split("Order lines box, line 2")[1].splitlines()[0]
    assert "Order lines box, line 3" in text and "write SCOUT: Piet Post" in text
    assert orders_of(bot, "Red Rockets", 1) == on_file  # nothing changed
    again = await discord.click(refused, "Fix and send again", user=alice)
    assert again.response_type == 9 and boxes_of(again)["lines"] == lines
    reopened = await discord.slash("volleyball orders send", user=alice)
    assert boxes_of(reopened)["lines"] == lines  # the form opens with the text too
    fixed = await discord.submit_modal(
        again,
        {"lines": lines.replace("SPONSOR Champion", "SPONSOR: Champion").replace("T P", "T: P")},
        user=alice,
    )
    assert "accepted" in everything(fixed)
    assert orders_of(bot, "Red Rockets", 1)["sponsor"] == "Champion Cola"
    after = await discord.slash("volleyball orders send", user=alice)
    assert "SCOUT: Nina Nieuw" in boxes_of(after)["lines"]  # now from the orders on file
    assert not sql(bot, "SELECT 1 FROM volleyball_form_texts")


@pytest.mark.both_backends
async def test_a_mistake_in_the_team_form_keeps_the_text_and_says_the_budget(
    discord, bot, alice, bob, carol, owner
):
    await week_league(discord, bot, alice, bob, owner)
    form = await discord.slash("volleyball team create", user=carol)
    players = next(
        c
        for row in form.modal["components"]
        for c in row["components"]
        if c["custom_id"] == "players"
    )
    assert "A 20, B 24, C 32, D 24, E 20" in players["placeholder"]
    roster = "Olaf A 30 2\nPiet B 8 8\nseven words in a line"
    refused = await discord.submit_modal(form, {"name": "Green Geckos", "players": roster})
    assert refused.ephemeral and "Your team was not created" in refused.content
    assert "Line 3" in refused.content and "write it like Anna Visser A 8 8" in refused.content
    assert "Age A 20, Age B 24" in refused.content  # the budget per age
    again = await discord.click(refused, "Fix and send again", user=carol)
    assert boxes_of(again) == {"name": "Green Geckos", "players": roster}


@pytest.mark.both_backends
async def test_a_seed_style_roster_file_is_read(discord, bot, alice, bob, carol, owner):
    """A roster file in the seed's style had its VOLLEYBALL and PLAYER AGE OL DL lines refused
    one by one."""
    await week_league(discord, bot, alice, bob, owner)
    seat = next(t.name for t in state_of(bot).league.teams if t.manager_id is None)
    text = "VOLLEYBALL\nTEAM: Green Geckos\n\nPLAYER   AGE  OL  DL\n" + "_" * 20 + "\n" + ROSTER
    joined = await discord.slash(
        "volleyball team create",
        user=carol,
        roster=Upload("roster.txt", text.encode()),
        replacing=seat,
    )
    assert "**Green Geckos** joins" in joined.content, joined.content


@pytest.mark.both_backends
async def test_spying_twice_and_on_a_team_that_is_gone_are_refused_with_the_reason(
    discord, bot, alice, bob, carol, owner
):
    await week_league(discord, bot, alice, bob, owner)
    state = state_of(bot)
    bobs = next(t.name for t in state.league.teams if t.manager_id == str(bob.id))
    number = next(
        f.match_number
        for f in state.fixtures(1, "league")
        if bobs in (f.home, f.away) and "Red Rockets" not in (f.home, f.away)
    )
    first = await discord.slash("volleyball spy", user=alice, team=bobs, match=number)
    assert "accepted" in first.content, first.content
    second = await discord.slash("volleyball spy", user=alice, team=bobs, match=number)
    assert "refused" in second.content and "two spying orders on" in second.content
    # a seat taken over under a new name: an order naming the old team says it is gone
    current = {t.name for t in state_of(bot).league.teams}
    gone = [name for name in first_names(bot) if name not in current]
    assert len(gone) == 2  # Red Rockets and Green Geckos took computer teams' seats
    upload = await discord.slash(
        "volleyball orders upload",
        user=alice,
        file=Upload("spy.txt", f"SPY: {gone[0]} match 1".encode()),
    )
    assert f"There is no team called {gone[0]} in the league (any more" in upload.content


def first_names(bot) -> list[str]:
    """The league's team names when it was created (the computer teams' names)."""
    rows = sql(bot, "SELECT settings FROM volleyball_leagues WHERE name = ?", LEAGUE)
    seed = json.loads(rows[0][0])["seed"]
    return [t.name for t in new_league([], total_teams=6, seed=seed).league.teams]


@pytest.mark.both_backends
async def test_a_bid_the_bank_would_refuse_is_warned_about_when_sent(
    discord, bot, alice, bob, owner
):
    await week_league(discord, bot, alice, bob, owner)
    sent = await discord.slash(
        "volleyball orders upload",
        user=alice,
        file=Upload("bid.txt", b"CONTRACT: Ilse Muur 2500 for 4 rounds"),
    )
    text = everything(sent)
    assert "accepted" in text, text
    assert "The contract bonus for Ilse Muur ($2,000) would take your account" in text


async def test_the_role_options_are_role_pickers(discord, bot):
    (volleyball,) = [c for c in discord.commands() if c["name"] == "volleyball"]
    league = next(o for o in volleyball["options"] if o["name"] == "league")
    for command in ("create", "config"):
        options = next(o for o in league["options"] if o["name"] == command)["options"]
        kinds = {o["name"]: o["type"] for o in options}
        assert kinds["ping_role"] == kinds["admin_role"] == 8  # ROLE: Discord's role picker


@pytest.mark.both_backends
async def test_the_round_post_is_one_message_and_the_sheet_starts_with_what_matters(
    discord, bot, alice, bob, owner, general
):
    await week_league(discord, bot, alice, bob, owner)
    marker = discord.last_message(general)
    await discord.slash("volleyball round run-now", user=owner, timeout=20)
    sheet = await discord.wait_for_dm(alice, lambda m: "round 1 of Week League" in m.content)
    await discord.wait_for_dm(bob, lambda m: "round 1 of Week League" in m.content)
    posted = [m for m in discord.channel_messages(general) if m.id > marker.id and not m.embeds]
    assert len(posted) == 1, [m.content[:80] for m in posted]
    (post,) = posted
    assert len(post.content) <= 2000 and "round 1 results" in post.content
    # every set and who played, one tap away, laid out for a phone
    assert (await post_image(discord, post, "Every set", "results-1.png", alice)).width == 480
    assert "Anna Visser" not in post.content  # who played is in the image
    # the card was posted again below the results
    assert card_of(discord, general).id > post.id
    first, money, step = sheet.content.splitlines()[:3]
    assert "Red Rockets" in first and re.search(r"\b(won|lost) \d-\d", first)
    assert money.startswith("Money $") and "this round" in money
    assert step.startswith("Next: orders for round 2 due <t:")
    own = "\n".join(m.content for m in discord.dm_messages(alice) if m.id >= sheet.id)
    assert "```" not in own
    assert max(len(line) for line in own.splitlines()) <= 200


@pytest.mark.both_backends
async def test_last_rounds_orders_repeat_in_one_click(discord, bot, alice, bob, owner, general):
    await week_league(discord, bot, alice, bob, owner)
    if state_of(bot).league.round_number == 1:
        await discord.slash("volleyball round run-now", user=owner, timeout=20)
        await discord.wait_for_dm(alice, lambda m: "round 1 of Week League" in m.content)
    last = orders_of(bot, "Red Rockets", 1)
    assert last and last["matches"]
    card = card_of(discord, general)
    repeated = await discord.click(card, "Repeat last orders", user=alice)
    text = everything(repeated)
    assert "accepted" in text and "Your line-ups of round 1 repeated" in text, text
    now = orders_of(bot, "Red Rockets", 2)
    state = state_of(bot)
    fixtures = [f for f in state.fixtures(2, "league") if "Red Rockets" in (f.home, f.away)]
    assert {m["match_number"] for m in now["matches"]} >= {f.match_number for f in fixtures}
    # the i-th match of this round plays the i-th line-up of the last, its concepts and
    # positions kept (the players adjusted only where they had to be)
    for before, after in zip(last["matches"], now["matches"], strict=False):
        assert [s["concept"] for s in after["sets"]] == [s["concept"] for s in before["sets"]]
    edited = await discord.wait_for_edit(card)
    fields = {f["name"]: f["value"] for f in edited.embeds[0]["fields"]}
    assert "Red Rockets" in fields["Orders in (1 of 3)"]


@pytest.mark.both_backends
async def test_a_reminder_after_its_deadline_says_nothing(discord, bot, alice, bob, owner, general):
    """The clock jumped past the deadline and the reminder came after the round, 'due 6
    minutes ago', with a useless Send orders button."""
    await week_league(discord, bot, alice, bob, owner)
    (row,) = sql(
        bot, "SELECT remind_timer, deadline_timer FROM volleyball_leagues WHERE name = ?", LEAGUE
    )
    bot.stop()
    with connect(bot) as conn:
        # the reminder fell due 12 hours before the deadline, both while the bot was down:
        # the reminder fires first, after its deadline
        past = time.time() - 360
        remind, deadline = row
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (past - 12 * 3600, remind))
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (past, deadline))
        conn.execute(
            "UPDATE volleyball_leagues SET next_deadline = ? WHERE name = ?", (past, LEAGUE)
        )
    number = state_of(bot).league.round_number
    marker = discord.last_message(general)
    bot.start()
    await discord.wait_for_message(
        general, lambda m: f"round {number} results" in m.content, since=marker, timeout=20
    )
    await discord.wait_for_dm(alice, lambda m: f"round {number} of Week League" in m.content)
    later = [m for m in discord.channel_messages(general) if m.id > marker.id]
    assert not any("are due" in m.content for m in later)


@pytest.mark.both_backends
async def test_the_season_end_tells_each_manager_their_own_ageing_only(
    discord, bot, dave, owner, games
):
    """The post "Season 1 is over" listed every player of every team with levels after ageing
    (rule 9 sells them for $550) and who had not got his 2/2."""
    await discord.slash(
        "volleyball league create", user=owner, channel=games, name="Short League", teams=2
    )
    form = await discord.slash("volleyball team create", user=dave, channel=games)
    await discord.submit_modal(form, {"name": "Dune Divers", "players": ROSTER}, user=dave)
    await discord.slash("volleyball league start", user=owner, channel=games)
    while not state_of(bot, "Short League").season_over:
        number = state_of(bot, "Short League").league.round_number
        await discord.slash("volleyball round run-now", user=owner, channel=games, timeout=20)
        await discord.wait_for_dm(
            dave, lambda m, n=number: f"round {n} of Short League" in m.content
        )
    before = state_of(bot, "Short League")
    players = {p.name for t in before.league.teams for p in t.players if not p.is_contract}
    marker = discord.last_message(games)
    await discord.slash("volleyball round run-now", user=owner, channel=games, timeout=20)
    over = await discord.wait_for_message(
        games, lambda m: "season 1 is over" in m.content, since=marker, timeout=20
    )
    own = await discord.wait_for_dm(dave, lambda m: "season 2 begins in Short League" in m.content)
    public = "\n".join(m.text for m in discord.channel_messages(games) if m.id >= over.id)
    assert "champions" in over.content
    assert not any(name in public for name in players), public
    assert " ages to " not in public and "2/2" not in public
    assert " ages to " in own.content and "Anna Visser" in own.content


async def test_the_league_goes_on_across_a_week_of_the_fake_discords_clock(
    discord, bot, alice, bob, owner, general
):
    """A round a day for a week of Discord's time (fakediscord/days.py): every interaction's
    token of the day before has expired, and the league's card is still edited in place, the
    orders repeated from it, each round run and each manager's sheet sent."""
    await week_league(discord, bot, alice, bob, owner)
    for _ in range(3):
        discord.pass_time(24 * 3600 + 3600)  # a day and an hour
        number = state_of(bot).league.round_number
        if orders_of(bot, "Red Rockets", number - 1) and not orders_of(bot, "Red Rockets", number):
            repeated = await discord.click(
                card_of(discord, general), "Repeat last orders", user=alice
            )
            assert "accepted" in everything(repeated)
        await discord.slash("volleyball round run-now", user=owner, timeout=20)
        await discord.wait_for_dm(
            alice, lambda m, n=number: f"round {n} of Week League" in m.content
        )
        assert state_of(bot).league.round_number == number + 1
    assert not discord.take_violations()
