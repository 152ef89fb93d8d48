"""Rollerball II through the fake Discord, as coaches use it: teams created and imported (a bad
CSV refused with every problem), cards and line-ups, matches on the shared host (solo with the
buttons, coach against coach with each coach's own die, simulated), injuries carried into the
next match, a season whose deadline passes while the bot is down, statistics, a restart
mid-match, and bad input answered ephemerally with nothing saved.
"""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest

from cogs.rollerball2.presenter import Rollerball2Adapter
from fakediscord import Upload
from fakediscord.model import MANAGE_GUILD, MEMBER_PERMISSIONS
from host import Match
from rules.rollerball2 import roster_to_csv, verify_record
from rules.rollerball2.state import roster_from_json
from tests.e2e.cards import card_game_id, current_card, is_card, is_result
from tests.e2e.stored import connect
from ui.formats import plural

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # Seeds come from a fixed sequence: the same run makes the same teams and matches.
    return {"GAME_SEED": "11011"}


# --- reading what the bot stored ----------------------------------------------------------------


def query(bot, sql: str, *parameters):
    with connect(bot) as conn:
        return conn.execute(sql, parameters).fetchall()


def team_row(bot, name: str) -> dict:
    rows = query(
        bot,
        "SELECT id, owner_id, roster, lineup, version FROM rollerball2_teams WHERE name = ?",
        name,
    )
    assert rows, f"no team {name}"
    team_id, owner, roster, lineup, version = rows[0]
    return {
        "id": team_id,
        "owner": owner,
        "roster": roster_from_json(json.loads(roster)),
        "lineup": None if lineup is None else json.loads(lineup),
        "version": version,
    }


def team_count(bot) -> int:
    return query(bot, "SELECT COUNT(*) FROM rollerball2_teams")[0][0]


def stored_match(bot, game_id: int) -> tuple[int, str, Match]:
    version, status, state = query(
        bot, "SELECT version, status, state FROM games WHERE id = ?", game_id
    )[0]
    return version, status, Match.from_json(Rollerball2Adapter(), state)


def latest_game_id(bot) -> int:
    return query(bot, "SELECT COALESCE(MAX(id), 0) FROM games")[0][0]


async def settled(bot, game_id: int) -> None:
    """Until the bot has noted its newest turn message as posted (the last thing a move does)."""
    for _ in range(400):
        version, posted = query(
            bot, "SELECT version, posted_version FROM games WHERE id = ?", game_id
        )[0]
        if posted >= version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {game_id} version {version} was never posted")


async def new_thread(discord, channel, known: int):
    for _ in range(300):
        threads = discord.threads(channel)
        if len(threads) > known:
            return threads[-1]
        await asyncio.sleep(0.05)
    raise AssertionError("the bot opened no thread")


# --- teams ----------------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_two_teams_are_created_and_a_name_is_taken_once(discord, bot, alice, bob):
    reply = await discord.slash(
        "rollerball2 team create", user=alice, name="Houston", colour="orange"
    )
    assert not reply.ephemeral and "founds **Houston**" in reply.text
    assert "Skaters (11)" in reply.text and "Bikers (7)" in reply.text
    assert "Catchers (7)" in reply.text and "fit" in reply.text
    houston = team_row(bot, "Houston")
    assert len(houston["roster"].players) == 25 and houston["owner"] == alice.id
    quality = houston["roster"].quality
    assert f"Quality: **{quality}**" in reply.text

    await discord.slash("rollerball2 team create", user=bob, name="Tokyo", colour="navy")
    before = team_count(bot)
    taken = await discord.slash("rollerball2 team create", user=bob, name="HOUSTON")
    assert taken.ephemeral and "A team called HOUSTON already plays in this server" in taken.text
    assert team_count(bot) == before

    # Only the owner (or a server admin) changes a team.
    refused = await discord.slash(
        "rollerball2 team rename",
        user=bob,
        team="Houston",
        number=houston["roster"].players[0].number,
        name="Nobody",
    )
    assert refused.ephemeral and "Houston belongs to" in refused.text
    assert team_row(bot, "Houston")["version"] == houston["version"]
    suggestions = await discord.autocomplete("rollerball2 team show", "team", "tok", user=alice)
    assert [c["value"] for c in suggestions] == ["Tokyo"]


def bad_csv() -> str:
    return (
        "name,number,position,experience,offense,defense\n"
        "Jonathan E.,6,skater,star,Bkr EVT GOAL GOAL PASS GOAL GOAL Att Bkr GOAL,"
        "LOSE Bkr Att LOSE Att GOAL EVT Att LOSE Att\n"
        "Moonpie,6,skater,veteran,GOAL GOAL GOAL GOAL GOAL GOAL GOAL GOAL GOAL EVT,"
        "LOSE Bkr Att LOSE Att GOAL EVT Att LOSE Att\n"
        "Blue,12,skater,star,GOAL GOAL GOAL GOAL GOAL GOAL GOAL GOAL GOAL EVT,"
        "PASS Bkr Att LOSE Att GOAL EVT Att LOSE EVT\n"
        "Red,13,goalie,star,GOAL GOAL GOAL GOAL GOAL GOAL GOAL GOAL GOAL EVT,"
        "LOSE Bkr Att LOSE Att GOAL EVT Att LOSE Att\n"
    )


@pytest.mark.both_backends
async def test_a_csv_team_is_imported_and_a_bad_one_refused_with_every_problem(discord, bot, carol):
    before = team_count(bot)
    refused = await discord.slash(
        "rollerball2 team import",
        user=carol,
        name="Madrid",
        file=Upload("madrid.csv", bad_csv().encode(), "text/csv"),
    )
    assert refused.ephemeral and "The roster was not imported" in refused.text
    assert "Line 3: #6 is already worn on line 2" in refused.text
    assert "Line 4: DEFENSE may only hold GOAL, Att, Bkr, LOSE, EVT; not PASS" in refused.text
    assert "Line 4: DEFENSE has exactly one EVT, not 2" in refused.text
    assert "Line 5: unknown position 'goalie'" in refused.text
    assert "4 problems" in refused.text
    assert team_count(bot) == before

    too_few = await discord.slash(
        "rollerball2 team import",
        user=carol,
        name="Madrid",
        file=Upload(
            "madrid.csv",
            b"name,number,position,experience\nAnn,1,skater,star\nBo,2,biker,rookie\n",
            "text/csv",
        ),
    )
    assert too_few.ephemeral and "Only 1 biker(s): a team needs at least 3" in too_few.text
    assert "Only 1 skaters and catchers: a team needs at least 7" in too_few.text

    wrong_columns = await discord.slash(
        "rollerball2 team import",
        user=carol,
        name="Madrid",
        file=Upload("madrid.csv", b"player,shirt\nA,1\n", "text/csv"),
    )
    assert wrong_columns.ephemeral and "unknown column(s) 'player', 'shirt'" in wrong_columns.text
    assert "missing column(s) name, number, position, experience" in wrong_columns.text

    too_big = await discord.slash(
        "rollerball2 team import",
        user=carol,
        name="Madrid",
        file=Upload("madrid.csv", b"name,number\n" + b"x" * 110_000, "text/csv"),
    )
    assert too_big.ephemeral and "at most 100 KB" in too_big.text
    assert team_count(bot) == before

    # A good one: an exported roster (all six columns) imports back card for card.
    houston = team_row(bot, "Houston")["roster"]
    text = roster_to_csv(houston)
    imported = await discord.slash(
        "rollerball2 team import",
        user=carol,
        name="Madrid",
        file=Upload("madrid.csv", text.encode(), "text/csv"),
    )
    assert not imported.ephemeral and "imports **Madrid**" in imported.text
    madrid = team_row(bot, "Madrid")["roster"]
    assert [(c.number, c.offense, c.defense) for c in madrid.players] == [
        (c.number, c.offense, c.defense) for c in houston.players
    ]


async def test_a_card_the_deck_and_the_game_card_are_shown(discord, bot, alice):
    houston = team_row(bot, "Houston")["roster"]
    star = next(c for c in houston.players if c.experience == "star")
    choices = await discord.autocomplete("rollerball2 card", "player", star.name[:5], user=alice)
    chosen = next(c for c in choices if c["name"].startswith(f"{star.name} #{star.number}"))
    reply = await discord.slash("rollerball2 card", user=alice, player=chosen["value"])
    assert f"#{star.number} {star.name}" in reply.text and "STAR" in reply.text
    image = reply.images[0]
    assert image.size == (700, 400)
    typed = await discord.slash("rollerball2 card", user=alice, player=f"Houston #{star.number}")
    assert f"#{star.number} {star.name}" in typed.text
    nobody = await discord.slash("rollerball2 card", user=alice, player="Zzyzx")
    assert nobody.ephemeral and "Nobody in this server matches" in nobody.text

    # Phone-first: both are drawn 480 px wide (the smallest text shows 11 px at 390 px).
    fac = await discord.slash("rollerball2 fac", user=alice, number=34)
    assert "Fast Action Card 34 of 60" in fac.text and fac.images[0].width == 480
    card = await discord.slash("rollerball2 gamecard", user=alice)
    assert "Action Matrix" in card.text and len(card.images) >= 2
    assert all(image.width == 480 for image in card.images)

    export = await discord.slash("rollerball2 team export", user=alice, team="Houston")
    names = [a.filename for a in export.attachments]
    assert names == [
        "houston.csv",
        "houston-cards-1.png",
        "houston-cards-2.png",
        "houston-cards-3.png",
    ]
    assert export.attachments[0].data.decode() == roster_to_csv(houston)


async def test_the_lineup_is_set_slot_by_slot_and_only_fit_players_offered(
    discord, bot, alice, bob
):
    editor = await discord.slash("rollerball2 team lineup", user=alice, team="Houston")
    assert editor.ephemeral and "default line-up (not saved yet)" in editor.text
    houston = team_row(bot, "Houston")["roster"]
    picking = await discord.select(editor, "Choose a slot to change", ["Skater2"], user=alice)
    assert "Houston, Skater2" in picking.text
    options = picking.selects[0].options
    assert len(options) <= 25
    offered = [int(option.value) for option in options]
    bench = next(
        n for n in offered if "now " not in next(o.label for o in options if o.value == str(n))
    )
    saved = await discord.select(picking, "Choose the player", [str(bench)], user=alice)
    assert "saved line-up" in saved.text and f"#{bench}" in saved.text
    lineup = team_row(bot, "Houston")["lineup"]
    assert lineup["Skater2"] == bench
    assert houston.card(bench).position in ("skater", "catcher")

    # Someone else may not open it.
    refused = await discord.slash("rollerball2 team lineup", user=bob, team="Houston")
    assert refused.ephemeral and "belongs to" in refused.text


async def test_signing_stops_at_25_players_who_can_play(discord, bot, bob):
    full = await discord.slash(
        "rollerball2 team sign", user=bob, team="Tokyo", position="skater", count=1
    )
    assert full.ephemeral and "can sign 0 more player(s)" in full.text
    assert len(team_row(bot, "Tokyo")["roster"].players) == 25


async def test_an_admin_may_manage_any_team(discord, bot):
    admin = discord.add_user("admina", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    tokyo = team_row(bot, "Tokyo")
    number = tokyo["roster"].players[0].number
    reply = await discord.slash(
        "rollerball2 team rename", user=admin, team="Tokyo", number=number, name="Ace Face"
    )
    assert not reply.ephemeral and "is now **Ace Face**" in reply.text
    assert team_row(bot, "Tokyo")["roster"].card(number).name == "Ace Face"


# --- matches ------------------------------------------------------------------------------------


async def press(discord, bot, thread, card, label: str, user):
    """Click a button of the live card and return the card once it is redrawn."""
    await discord.click(card, label, user=user, timeout=30)
    return await current_card(discord, bot, thread, card_game_id(card), timeout=60)


async def first_turn(discord, bot, channel, known: int):
    thread = await new_thread(discord, channel, known)
    card = await discord.wait_for_message(thread, is_card, timeout=30, since=0)
    return thread, await current_card(discord, bot, thread, card_game_id(card), timeout=30)


def match_row(bot, game_id: int) -> tuple:
    return query(
        bot,
        "SELECT home_team_id, away_team_id, mode, home_goals, away_goals, result, fixture_id"
        " FROM rollerball2_matches WHERE game_id = ?",
        game_id,
    )[0]


async def check_final(discord, bot, user, game_id: int, final) -> None:
    """The card's last state (result, box score pages) and the message that ends the match
    (dice revealed); the record verifies."""
    thread = discord.fake.channel_handle(final.channel_id)
    final = await current_card(discord, bot, thread, game_id)
    assert "Final:" in final.text
    # One score order everywhere: the visitors first, "at" the home team.
    home_id, away_id, _, home_goals, away_goals, *_ = match_row(bot, game_id)
    names = dict(query(bot, "SELECT id, name FROM rollerball2_teams"))
    score = f"{names[away_id]} {away_goals} at {names[home_id]} {home_goals}"
    assert f"Rollerball II #{game_id}: {score}" in final.text and f"Final: {score}." in final.text
    ended = await discord.wait_for_message(thread, is_result, since=0, timeout=30)
    assert "Dice revealed: seed" in ended.text
    # the record command named where it is: Rollerball II's match commands are a subgroup
    assert "`/rollerball2 match record` gives the verifiable record" in ended.text
    # The last card fits a phone's screen: the scoreboard and the result; the box score pages
    # come with the one button, in a message of their own.
    assert [a.filename for a in final.attachments] == ["scoreboard.png"]
    assert final.button_labels == ["Box score", "Replay ▶", "Why?"]
    box = await discord.click(final, "Box score", user=user)
    pages = [a.filename for a in box.attachments]
    assert box.ephemeral and pages[0] == "box-score-1.png" and f"#{game_id}: {score}" in box.text
    for attachment in box.attachments:
        assert len(attachment.data) < 150 * 1024
    record = await discord.slash("rollerball2 match record", user=user, match_id=game_id)
    assert record.ephemeral and "verify FILE" in record.text
    assert verify_record(record.attachments[0].data.decode()) == []


@pytest.mark.both_backends
async def test_a_solo_match_is_played_to_the_end_with_the_buttons(
    discord, bot, alice, bob, general
):
    await discord.slash("rollerball2 team create", user=alice, name="Lagos", colour="green")
    known = len(discord.threads(general))
    reply = await discord.slash(
        "rollerball2 match start", user=alice, home="Houston", away="Lagos", mode="solo"
    )
    assert "starts Rollerball II match" in reply.text and "Dice commitment" in reply.text
    game_id = latest_game_id(bot)
    thread, turn = await first_turn(discord, bot, general, known)
    # One phone screen: the scoreboard on the card, both line-ups behind a button, shown to
    # whoever asks (a watcher too) in a message of his own.
    assert [a.filename for a in turn.attachments] == ["scoreboard.png"]
    assert turn.images[0].width == 480  # phone-first: one idea per image, large type
    assert "Next card" in turn.button_labels and "Simulate the rest" in turn.button_labels
    lineups = await discord.click(turn, "Line-ups", user=bob)
    assert lineups.ephemeral and "Lagos" in lineups.text and "Houston" in lineups.text
    assert [a.filename for a in lineups.attachments] == ["lineups.png"]

    # Click through some cards: every decision has its own buttons.
    saw_card = saw_fac = False
    for _ in range(8):
        label = "Next card" if "Next card" in turn.button_labels else turn.button_labels[0]
        turn = await press(discord, bot, thread, turn, label, alice)
        names = [a.filename for a in turn.attachments]
        saw_fac = saw_fac or "fac.png" in names
        saw_card = saw_card or "card.png" in names
    assert saw_fac and saw_card
    # The Substitute button opens two menus: the slot, then the player.
    for _ in range(20):
        if "Substitute…" in turn.button_labels:
            break
        label = "Next card" if "Next card" in turn.button_labels else turn.button_labels[0]
        turn = await press(discord, bot, thread, turn, label, alice)
    assert "Substitute…" in turn.button_labels
    menu = await discord.click(turn, "Substitute…", user=alice)
    assert menu.ephemeral and "who comes off?" in menu.text
    slot = menu.selects[0].options[0].value
    players = await discord.select(menu, "Step 1: the slot", [slot], user=alice)
    number = players.selects[0].options[0].value
    await discord.select(players, "Step 2: the player", [number], user=alice)
    turn = await current_card(discord, bot, thread, game_id, timeout=30)
    assert f"#{number}" in turn.text and "Substitution" in turn.text
    done = await discord.wait_for_edit(players, lambda m: "goes into" in m.text)
    assert f"goes into {slot}" in done.text and not done.selects
    _, _, match = stored_match(bot, game_id)
    assert match.engine.engine.team(match.engine.engine.control or "home")  # still playing

    turn = await press(discord, bot, thread, turn, turn.button_labels[0], alice)
    if "Play to next event" in turn.button_labels:
        turn = await press(discord, bot, thread, turn, "Play to next event", alice)
    # "Play to period end" stops early only when a coach must decide, and says so.
    for _ in range(12):
        if "Play to period end" not in turn.button_labels:
            turn = await press(discord, bot, thread, turn, turn.button_labels[0], alice)
            continue
        turn = await press(discord, bot, thread, turn, "Play to period end", alice)
        if "Stopped before the end of the period" in turn.text:
            break
    assert "Stopped before the end of the period:" in turn.text and "must" in turn.text
    while "Simulate the rest" not in turn.button_labels:
        turn = await press(discord, bot, thread, turn, turn.button_labels[0], alice)
    final = await press(discord, bot, thread, turn, "Simulate the rest", alice)
    await check_final(discord, bot, alice, game_id, final)
    _, status, match = stored_match(bot, game_id)
    assert status == "finished"
    # The thread tells each period once it is over, its goals naming the visitors first and
    # "at" the home team, as the title.
    told = [m.text for m in discord.channel_messages(thread) if "**End of " in m.text]
    assert len(told) >= 1 and sum(text.count("**End of period") for text in told) == 4
    lines = [line for text in told for line in text.splitlines()]
    goals = [line for line in lines if " GOAL " in line]
    assert len(goals) == sum(match_row(bot, game_id)[3:5])
    assert all(re.search(r" \(Lagos \d+ at Houston \d+\)$", line) for line in goals)
    assert all(
        re.fullmatch(r"\*\*End of (period \d|overtime): Lagos \d+ at Houston \d+\.\*\*", line)
        for line in lines
        if line.startswith("**End of")
    )
    _, _, mode, home_goals, away_goals, result_json, _ = match_row(bot, game_id)
    assert mode == "solo" and (home_goals, away_goals) == (
        match.engine.engine.home.score,
        match.engine.engine.away.score,
    )
    # What outlasts the match is in the rosters now.
    carry = json.loads(result_json)["carry_over"]
    for side, name in (("home", "Houston"), ("away", "Lagos")):
        absences = {a.number for a in team_row(bot, name)["roster"].absences}
        assert {a["number"] for a in carry[side]} <= absences


async def test_a_coaches_match_each_coach_rolls_his_own_die(discord, bot, alice, bob, carol, games):
    # Houston's coach goes back to the default line-up (it may hold someone hurt in the last
    # match), privately.
    editor = await discord.slash("rollerball2 team lineup", user=alice, team="Houston")
    await discord.click(editor, "Use the default line-up", user=alice)
    assert team_row(bot, "Houston")["lineup"] is None

    challenge = await discord.slash(
        "rollerball2 match start",
        user=bob,
        channel=games,
        home="Tokyo",
        away="Houston",
        mode="coaches",
    )
    assert f"{alice.mention}, {bob.mention} challenges you to Rollerball II" in challenge.text
    assert challenge.button_labels == ["Accept", "Decline"]
    game_id = latest_game_id(bot)
    refused = await discord.click(challenge, "Accept", user=carol)
    assert refused.ephemeral and stored_match(bot, game_id)[1] == "pending"
    known = len(discord.threads(games))
    await discord.click(challenge, "Accept", user=alice)
    thread, turn = await first_turn(discord, bot, games, known)
    coaches = [bob, alice]  # seat 0 coaches the home team (Tokyo), seat 1 the visitors

    # The ball is loose: the home coach turns the first card, not the visitors'.
    wrong = await discord.click(turn, "Next card", user=alice)
    assert wrong.ephemeral and "It's not your turn" in wrong.text
    assert "Tokyo's coach (Bob)" in wrong.text

    refused_roll = False
    for _ in range(40):
        _, _, match = stored_match(bot, game_id)
        seat = min(Rollerball2Adapter().engine.actors(match.engine))
        label = next((b for b in turn.button_labels if b.startswith("Roll the die")), None)
        if label is not None and not refused_roll:
            other = coaches[1 - seat]
            version = stored_match(bot, game_id)[0]
            answer = await discord.click(turn, label, user=other)
            assert answer.ephemeral and "It's not your turn" in answer.text
            assert stored_match(bot, game_id)[0] == version  # nothing was rolled
            refused_roll = True
        choice = label or (
            "Next card" if "Next card" in turn.button_labels else turn.button_labels[0]
        )
        turn = await press(discord, bot, thread, turn, choice, coaches[seat])
        if refused_roll and "coach rolls d10" in turn.text:
            break
    assert refused_roll and "coach rolls d10" in turn.text

    # A coach who does not answer in time: the default coach decides for him, said in the
    # thread (the timers are made due while the bot is down, as time passing would).
    await settled(bot, game_id)
    _, _, match = stored_match(bot, game_id)
    absent = coaches[min(Rollerball2Adapter().engine.actors(match.engine))]
    bot.stop()
    with connect(bot) as conn:
        conn.execute("UPDATE timers SET due_at = ? WHERE game_id = ?", (time.time() - 5, game_id))
    bot.start()
    note = await discord.wait_for_message(
        thread, lambda m: "now plays" in m.text, timeout=30, since=turn
    )
    assert absent.mention in note.content and "default coach" in note.content
    assert "Take my seat back" in note.button_labels
    turn = await current_card(discord, bot, thread, game_id, timeout=30)
    assert stored_match(bot, game_id)[2].computers  # his seat is played for him now

    # Both coaches hand their bench to the default coach: the match is played to the end.
    # (A coach whose seat the default coach already plays leaves nothing to wait for.)
    for coach in (bob, alice):
        if stored_match(bot, game_id)[1] == "finished":
            break
        asked = await discord.slash("rollerball2 match resign", user=coach, channel=thread)
        assert asked.ephemeral and "default coach plays your team" in asked.text
        await discord.click(asked, "Resign", user=coach)
        turn = await current_card(discord, bot, thread, game_id, timeout=60)
    await check_final(discord, bot, alice, game_id, turn)
    assert match_row(bot, game_id)[2] == "coaches"


async def simulate(discord, bot, user, channel, home: str, away: str):
    """A simulated match between two teams, to its end: (game id, final card, thread)."""
    known = len(discord.threads(channel))
    reply = await discord.slash(
        "rollerball2 match start",
        user=user,
        channel=channel,
        home=home,
        away=away,
        mode="simulate",
    )
    assert "starts Rollerball II match" in reply.text, reply.text
    game_id = latest_game_id(bot)
    thread = await new_thread(discord, channel, known)
    await discord.wait_for_message(thread, is_result, timeout=60, since=0)
    card = await current_card(discord, bot, thread, game_id)
    return game_id, card, thread


@pytest.mark.both_backends
async def test_a_simulated_match_and_injuries_carried_into_the_next(discord, bot, carol, games):
    await discord.slash("rollerball2 team create", user=carol, name="Oslo", colour="red")
    # Carol saves both line-ups (toggling the extra slot twice saves the one shown).
    for name in ("Madrid", "Oslo"):
        editor = await discord.slash("rollerball2 team lineup", user=carol, team=name)
        for _ in range(2):
            extra = next(b for b in editor.button_labels if b.startswith("Extra slot"))
            editor = await discord.click(editor, extra, user=carol)
        assert team_row(bot, name)["lineup"] is not None

    carried = None
    for _ in range(8):
        game_id, final, thread = await simulate(discord, bot, carol, games, "Madrid", "Oslo")
        await check_final(discord, bot, carol, game_id, final)
        # The highlights: each period's in its own message; the card shows the end.
        said = "\n".join(m.text for m in discord.channel_messages(thread))
        assert "**End of period 1: " in said and " GOAL " in said
        assert "earlier lines in the record" in final.text
        carry = json.loads(match_row(bot, game_id)[5])["carry_over"]
        counted = [
            (side, absence)
            for side in ("home", "away")
            for absence in carry[side]
            if absence["matches"]
        ]
        if counted:
            carried = counted[0]
            break
    assert carried is not None, "eight simulated matches without an injury or ban that lasts"
    side, absence = carried
    name = "Madrid" if side == "home" else "Oslo"
    team = team_row(bot, name)
    number = absence["number"]
    word = "banned" if absence["kind"] == "ban" else "injured"
    status = f"{word} ({plural(absence['matches']):match|matches})"
    shown = await discord.slash("rollerball2 team show", user=carol, team=name)
    assert f"{team['roster'].card(number).name} · " in shown.text and status in shown.text

    # His coach's saved line-up holds him (as when it was saved before the match that hurt
    # him): the next match plays the default replacement in his slot and says so in its first
    # message; the saved line-up keeps him for when he is fit.
    saved = dict(team["lineup"])
    if number not in saved.values():
        position = team["roster"].card(number).position
        slot = next(
            s
            for s in saved
            if (position == "biker") == s.startswith("Biker") and saved[s] is not None
        )
        saved[slot] = number
        with connect(bot) as conn:
            conn.execute(
                "UPDATE rollerball2_teams SET lineup = ? WHERE id = ?",
                (json.dumps(saved), team["id"]),
            )
    slot = next(s for s, n in saved.items() if n == number)
    editor = await discord.slash("rollerball2 team lineup", user=carol, team=name)
    assert "Cannot play" in editor.text and status in editor.text
    assert "the next match plays the default replacement" in editor.text

    before = latest_game_id(bot)
    game_id, final, thread = await simulate(discord, bot, carol, games, "Madrid", "Oslo")
    assert game_id > before  # started, not refused
    _, _, match = stored_match(bot, game_id)
    starters = match.engine.engine.team(side).starters
    assert number not in starters.values()
    assert not match.engine.engine.team(side).sheet[number].on_track
    replacement = starters[slot]
    assert replacement is not None and replacement not in saved.values()
    said = "\n".join(m.text for m in discord.channel_messages(thread))
    card = team["roster"].card(number)
    assert (
        f"{name}'s saved line-up: #{number} {card.name} ({status}) cannot play; "
        f"#{replacement} {team['roster'].card(replacement).name} plays {slot} instead."
    ) in said
    assert team_row(bot, name)["lineup"] == saved  # kept for when he is fit
    left = {a.number: a.matches for a in team_row(bot, name)["roster"].absences}
    assert left.get(number) == (absence["matches"] - 1 or None)


async def coaches_match(
    discord, bot, channel, home_coach, home: str, away_coach, away: str, **options
):
    """A coaches match the home coach challenges and the visiting coach accepts: the challenge,
    the thread, the first card and the match's id."""
    challenge = await discord.slash(
        "rollerball2 match start",
        user=home_coach,
        channel=channel,
        home=home,
        away=away,
        mode="coaches",
        **options,
    )
    known = len(discord.threads(channel))
    await discord.click(challenge, "Accept", user=away_coach)
    thread, card = await first_turn(discord, bot, channel, known)
    return challenge, thread, card, card_game_id(card)


def hurt(bot, name: str, number: int, matches: int = 2) -> None:
    """Give a team's player an injury that keeps him out of the next `matches` matches, as a
    match would have (the roster's carry-over)."""
    stored = json.loads(
        query(bot, "SELECT roster FROM rollerball2_teams WHERE name = ?", name)[0][0]
    )
    injury = {"number": number, "kind": "injury", "length": "matches", "matches": matches}
    stored["absences"] = [*stored.get("absences", []), {**injury, "reason": "knee"}]
    with connect(bot) as conn:
        conn.execute(
            "UPDATE rollerball2_teams SET roster = ? WHERE name = ?", (json.dumps(stored), name)
        )


async def resign_all(discord, bot, game_id: int, thread, coaches) -> None:
    """Both coaches hand their bench to the default coach: the match is played to the end."""
    for coach in coaches:
        if stored_match(bot, game_id)[1] == "finished":
            break
        asked = await discord.slash("rollerball2 match resign", user=coach, channel=thread)
        await discord.click(asked, "Resign", user=coach)
    await discord.wait_for_message(thread, is_result, since=0, timeout=60)


@pytest.mark.both_backends
async def test_a_coaches_match_tells_the_coach_who_replaces_a_hurt_player_of_his_lineup(
    discord, bot, games
):
    erin, frank = discord.add_user("erin"), discord.add_user("frank")
    await discord.slash("rollerball2 team create", user=erin, name="Lima", colour="gold")
    await discord.slash("rollerball2 team create", user=frank, name="Kyiv", colour="blue")
    editor = await discord.slash("rollerball2 team lineup", user=erin, team="Lima")
    for _ in range(2):  # toggling the extra slot twice saves the line-up shown
        extra = next(b for b in editor.button_labels if b.startswith("Extra slot"))
        editor = await discord.click(editor, extra, user=erin)
    saved = team_row(bot, "Lima")["lineup"]
    number = saved["Skater1"]
    hurt(bot, "Lima", number)

    _, thread, _, game_id = await coaches_match(discord, bot, games, frank, "Kyiv", erin, "Lima")
    starters = stored_match(bot, game_id)[2].engine.engine.away.starters
    replacement = starters["Skater1"]
    roster = team_row(bot, "Lima")["roster"]
    note = await discord.wait_for_message(
        thread, lambda m: "saved line-up" in m.text, since=0, timeout=30
    )
    assert (
        f"Lima's saved line-up: #{number} {roster.card(number).name} (injured (2 matches)) "
        f"cannot play; #{replacement} {roster.card(replacement).name} plays Skater1 instead."
    ) in note.text
    assert team_row(bot, "Lima")["lineup"] == saved  # kept for when he is fit
    await resign_all(discord, bot, game_id, thread, (frank, erin))


@pytest.mark.both_backends
async def test_a_match_goes_on_after_a_restart(discord, bot, alice, general):
    known = len(discord.threads(general))
    await discord.slash(
        "rollerball2 match start", user=alice, home="Lagos", away="Houston", mode="solo"
    )
    game_id = latest_game_id(bot)
    thread, turn = await first_turn(discord, bot, general, known)
    turn = await press(discord, bot, thread, turn, "Next card", alice)
    await settled(bot, game_id)
    version = stored_match(bot, game_id)[0]
    await bot.restart()
    # The buttons drawn before the restart still work: the match is in the database.
    turn = await press(discord, bot, thread, turn, turn.button_labels[0], alice)
    assert stored_match(bot, game_id)[0] == version + 1
    # The ball handler cannot be substituted, even typed.
    for _ in range(30):
        _, _, match = stored_match(bot, game_id)
        engine = match.engine.engine
        if engine.control and engine.handler and engine.pending is None:
            break
        label = "Next card" if "Next card" in turn.button_labels else turn.button_labels[0]
        turn = await press(discord, bot, thread, turn, label, alice)
    team = engine.team(engine.control)
    bench = next(c.number for c in team.roster.players if c.number not in team.on_track())
    version = stored_match(bot, game_id)[0]
    typed = await discord.slash(
        "rollerball2 match move",
        user=alice,
        channel=thread,
        move=f"sub {engine.control} {engine.handler} {bench}",
    )
    assert typed.ephemeral and "can't substitute the current ball handler" in typed.text
    assert stored_match(bot, game_id)[0] == version
    while "Simulate the rest" not in turn.button_labels:
        turn = await press(discord, bot, thread, turn, turn.button_labels[0], alice)
    final = await press(discord, bot, thread, turn, "Simulate the rest", alice)
    await check_final(discord, bot, alice, game_id, final)


# --- seasons and statistics ----------------------------------------------------------------------


def fixtures(bot) -> list[tuple]:
    return query(
        bot,
        "SELECT f.id, f.matchday, h.name, a.name, f.how, f.game_id, f.home_goals, f.away_goals"
        " FROM rollerball2_fixtures f JOIN rollerball2_teams h ON h.id = f.home_team_id"
        " JOIN rollerball2_teams a ON a.id = f.away_team_id ORDER BY f.matchday",
    )


@pytest.mark.both_backends
async def test_a_season_whose_deadline_passes_while_the_bot_is_down(
    discord, bot, alice, carol, games
):
    stranger = await discord.slash(
        "rollerball2 season create",
        user=alice,
        channel=games,
        name="Autumn",
        teams="Houston, Madrid",
    )
    assert stranger.ephemeral and "Only server admins (the Manage Server permission)" in (
        stranger.text
    )
    assert "make a season with teams you do not coach (Madrid)" in stranger.text

    reply = await discord.slash(
        "rollerball2 season create",
        user=carol,
        channel=games,
        name="Spring",
        teams="Madrid, Oslo",
        hours=24,
    )
    assert not reply.ephemeral and "2 teams, 2 matchdays" in reply.text
    assert "Matchday 1" in reply.text and "Matchday 2" in reply.text
    (_, _, home, away, how, *_), second = fixtures(bot)
    assert how is None

    # Matchday 1 is played (a simulated match between its home and away team is the fixture),
    # with the default line-ups (the last match may have hurt someone in a saved one).
    for name in ("Madrid", "Oslo"):
        editor = await discord.slash("rollerball2 team lineup", user=carol, team=name)
        await discord.click(editor, "Use the default line-up", user=carol)
    game_id, final, _ = await simulate(discord, bot, carol, games, home, away)
    assert "A season match: it counts in the table" in final.text
    played = fixtures(bot)[0]
    assert played[4] == "simulated" and played[5] == game_id
    results = await discord.slash("rollerball2 season results", user=carol, channel=games)
    assert f"match #{game_id}" in results.text and "Matchday 2" not in results.text

    # Both deadlines pass while the bot is down (everything the season stored is two days
    # earlier, as that much waiting would leave it): at start-up matchday 1's deadline fires,
    # then matchday 2's, and matchday 2 is simulated once.
    bot.stop()
    with connect(bot) as conn:
        (season,) = conn.execute("SELECT id FROM rollerball2_seasons WHERE name = 'Spring'")
        conn.execute(
            "UPDATE rollerball2_seasons SET starts_at = starts_at - ? WHERE id = ?",
            (2 * 86400, season[0]),
        )
        conn.execute(
            "UPDATE rollerball2_fixtures SET deadline = deadline - ?,"
            " set_deadline = set_deadline - ? WHERE season_id = ?",
            (2 * 86400, 2 * 86400, season[0]),
        )
        changed = conn.execute(
            "UPDATE timers SET due_at = due_at - ? WHERE event = 'rollerball2_deadline'",
            (2 * 86400,),
        ).rowcount
    assert changed == 1  # a season has one timer: its current matchday's
    bot.start()
    news = await discord.wait_for_message(
        games, lambda m: "matchday 2" in m.text and "deadline has passed" in m.text, timeout=60
    )
    assert news.attachments[0].filename == "standings-1.png"
    day_two = fixtures(bot)[1]
    assert day_two[4] == "simulated" and day_two[5] is not None
    assert f"match #{day_two[5]}" in news.text
    count = query(bot, "SELECT COUNT(*) FROM rollerball2_matches WHERE fixture_id = ?", second[0])
    assert count[0][0] == 1
    record = await discord.slash(
        "rollerball2 match record", user=carol, channel=games, match_id=day_two[5]
    )
    assert verify_record(record.attachments[0].data.decode()) == []

    # Exactly once: another restart settles nothing again.
    await bot.restart()
    await asyncio.sleep(1.0)
    assert (
        query(bot, "SELECT COUNT(*) FROM rollerball2_matches WHERE fixture_id = ?", second[0])[0][0]
        == 1
    )
    assert query(bot, "SELECT COUNT(*) FROM timers WHERE event = 'rollerball2_deadline'")[0][0] == 0

    table = await discord.slash("rollerball2 season standings", user=carol, channel=games)
    assert "2 points a win" in table.text and table.images[0].width > 0
    schedule = await discord.slash("rollerball2 season schedule", user=carol, channel=games)
    assert schedule.text.count("match #") == 2
    for _, _, home, away, _, game_id, home_goals, away_goals in fixtures(bot):
        # One score order: the visitors first, "at" the home team.
        line = f"{away} {away_goals} at {home} {home_goals} (simulated), match #{game_id}"
        assert line in schedule.text


@pytest.mark.both_backends
async def test_statistics_are_summed_from_the_scoresheets(discord, bot, alice):
    rows = query(bot, "SELECT result FROM rollerball2_matches WHERE result IS NOT NULL")
    goals: dict[tuple[str, int], int] = {}
    for (text,) in rows:
        for side in ("home", "away"):
            sheet = json.loads(text)[side]
            for line in sheet["players"]:
                key = (sheet["team"], line["number"])
                goals[key] = goals.get(key, 0) + line["goals"]
    (team, number), most = max(goals.items(), key=lambda item: (item[1], item[0]))

    board = await discord.slash("rollerball2 leaders", user=alice)
    assert "Goals" in board.text and f"**{most}**" in board.text

    career = await discord.slash("rollerball2 stats player", user=alice, player=f"{team} #{number}")
    assert f"**{most}** goals" in career.text and "Match by match" in career.text

    houston = query(
        bot,
        "SELECT home_goals, away_goals, home_team_id = t.id FROM rollerball2_matches m,"
        " rollerball2_teams t WHERE t.name = 'Houston' AND m.result IS NOT NULL"
        " AND t.id IN (m.home_team_id, m.away_team_id)",
    )
    won = sum((h > a) if home else (a > h) for h, a, home in houston)
    record = await discord.slash("rollerball2 stats team", user=alice, team="Houston")
    assert f"in {len(houston)} matches" in record.text and record.text.count(f"**{won}-") == 1

    history = await discord.slash("rollerball2 history", user=alice, team="Houston")
    assert f"the last {len(houston)} of {len(houston)} matches" in history.text


def finished_results(bot, where: str = "", *parameters) -> list[tuple[int, int, int, dict]]:
    """(game id, home team id, away team id, scoresheet) of the finished matches."""
    rows = query(
        bot,
        "SELECT m.game_id, m.home_team_id, m.away_team_id, m.result FROM rollerball2_matches m"
        f" WHERE m.result IS NOT NULL {where} ORDER BY m.game_id",
        *parameters,
    )
    return [(g, h, a, json.loads(text)) for g, h, a, text in rows]


def team_id(bot, name: str) -> int:
    return team_row(bot, name)["id"]


async def test_statistics_per_season_with_points_catches_and_assists(discord, bot, carol):
    spring = query(bot, "SELECT id FROM rollerball2_seasons WHERE name = 'Spring'")[0][0]
    in_season = finished_results(
        bot,
        "AND m.game_id IN (SELECT game_id FROM rollerball2_fixtures WHERE season_id = ?)",
        spring,
    )
    everything = finished_results(bot)
    assert len(in_season) == 2 and len(everything) > 2
    madrid = team_id(bot, "Madrid")

    def sums(results, team: int, field: str) -> int:
        return sum(
            line[field]
            for _, home, away, sheet in results
            for side, owner in (("home", home), ("away", away))
            if owner == team
            for line in sheet[side]["players"]
        )

    season_stats = await discord.slash(
        "rollerball2 stats team", user=carol, team="Madrid", season="Spring"
    )
    assert "Madrid: the record, Spring" in season_stats.text
    assert "in 2 matches" in season_stats.text and "Table points:" in season_stats.text
    assert f"Assists: {sums(in_season, madrid, 'assists')}" in season_stats.text
    assert f"Catches: {sums(in_season, madrid, 'catches')}" in season_stats.text
    all_time = await discord.slash("rollerball2 stats team", user=carol, team="Madrid")
    played = sum(madrid in (home, away) for _, home, away, _ in everything)
    assert f"in {played} matches" in all_time.text
    assert f"Assists: {sums(everything, madrid, 'assists')}" in all_time.text

    # The season's points leader: goals plus assists over its two fixtures only.
    points: dict[tuple[int, int], int] = {}
    for _, home, away, sheet in in_season:
        for side, owner in (("home", home), ("away", away)):
            for line in sheet[side]["players"]:
                key = (owner, line["number"])
                points[key] = points.get(key, 0) + line["goals"] + line["assists"]
    best = max(points.values())
    board = await discord.slash("rollerball2 leaders", user=carol, season="Spring")
    assert "leaders of Spring" in board.text and "Over 2 finished matches." in board.text
    points_field = board.text.split("Points (goals + assists)")[1].split("Goals")[0]
    assert "1. " in points_field and f"**{best}**" in points_field.split("\n")[1]
    assert "Catches" in board.text

    player_key = max(points, key=lambda key: (points[key], key))
    name = dict(query(bot, "SELECT id, name FROM rollerball2_teams"))[player_key[0]]
    career = await discord.slash(
        "rollerball2 stats player",
        user=carol,
        player=f"{name} #{player_key[1]}",
        season="Spring",
    )
    assert f"**{points[player_key]}** points" in career.text and "Match by match" in career.text

    def player_sums(results, field: str) -> int:
        return sum(
            line[field]
            for _, home, away, sheet in results
            for side, owner in (("home", home), ("away", away))
            if owner == player_key[0]
            for line in sheet[side]["players"]
            if line["number"] == player_key[1]
        )

    for field in ("assists", "catches"):
        assert f"**{player_sums(in_season, field)}** {field}" in career.text
    all_time = await discord.slash(
        "rollerball2 stats player", user=carol, player=f"{name} #{player_key[1]}"
    )
    assert ": all time" in all_time.text
    for field in ("goals", "assists", "catches"):
        assert f"**{player_sums(everything, field)}** {field}" in all_time.text
    everywhere = await discord.slash("rollerball2 leaders", user=carol)
    assert "leaders in this server" in everywhere.text and "Catches" in everywhere.text
    assert f"Over {len(everything)} finished matches." in everywhere.text

    history = await discord.slash("rollerball2 history", user=carol, team="Oslo", season="Spring")
    assert "the last 2 of 2 matches of Spring" in history.text
    for game_id, home, away, sheet in in_season:
        names = {madrid: "Madrid", team_id(bot, "Oslo"): "Oslo"}
        score = (
            f"{names[away]} {sum(sheet['away']['score_by_period'])} at "
            f"{names[home]} {sum(sheet['home']['score_by_period'])}"
        )
        assert f"{score} (match #{game_id} · season)" in history.text


async def test_a_past_match_box_score_is_shown_again(discord, bot, carol):
    game_id, home, away, sheet = finished_results(bot)[-1]
    reply = await discord.slash("rollerball2 match boxscore", user=carol, match_id=game_id)
    assert not reply.ephemeral
    names = dict(query(bot, "SELECT id, name FROM rollerball2_teams"))
    score = (
        f"{names[away]} {sum(sheet['away']['score_by_period'])} at "
        f"{names[home]} {sum(sheet['home']['score_by_period'])}"
    )
    assert f"Rollerball II #{game_id}: {score}." in reply.text
    files = [a.filename for a in reply.attachments]
    assert files[0] == "box-score-1.png" and len(files) >= 3
    assert all(len(a.data) < 150 * 1024 for a in reply.attachments)
    nothing = await discord.slash("rollerball2 match boxscore", user=carol, match_id=99999)
    assert nothing.ephemeral and "is not a finished Rollerball II match" in nothing.text


async def test_the_injury_report_lists_who_is_out_league_wide(discord, bot, carol):
    report = await discord.slash("rollerball2 injuries", user=carol)
    out = 0
    for (name,) in query(bot, "SELECT name FROM rollerball2_teams"):
        roster = team_row(bot, name)["roster"]
        gone = roster.gone_for_good()
        for absence in roster.absences:
            card = roster.card(absence.number)
            line = f"#{card.number} {card.name} ({card.position}):"
            assert (line in report.text) == (absence.number not in gone)
            out += absence.number not in gone
    assert out and f"{out} players out injured or banned." in report.text
    spring = await discord.slash("rollerball2 injuries", user=carol, season="Spring")
    assert "Injury report: Spring" in spring.text and "Houston" not in spring.text


async def test_team_quality_leaves_out_the_dead_and_the_banned_for_life(discord, bot, bob):
    tokyo = team_row(bot, "Tokyo")
    roster = tokyo["roster"]
    mix = roster.experience_mix()
    stars = [
        c.number
        for c in roster.players
        if c.experience == "star" and c.number not in roster.absent()
    ]
    dead = [
        {
            "number": stars[0],
            "kind": "killed",
            "length": "killed",
            "matches": None,
            "reason": "killed",
        },
        {
            "number": stars[1],
            "kind": "ban",
            "length": "lifetime",
            "matches": None,
            "reason": "fixing",
        },
    ]
    stored = json.loads(
        query(bot, "SELECT roster FROM rollerball2_teams WHERE name = 'Tokyo'")[0][0]
    )
    stored["absences"] = stored.get("absences", []) + dead
    with connect(bot) as conn:
        conn.execute(
            "UPDATE rollerball2_teams SET roster = ? WHERE id = ?",
            (json.dumps(stored), tokyo["id"]),
        )
    after = team_row(bot, "Tokyo")["roster"]
    shown = await discord.slash("rollerball2 team show", user=bob, team="Tokyo")
    assert f"Quality: **{after.quality}**: {mix['star'] - 2} STAR," in shown.text
    assert "dead" in shown.text and "banned for life" in shown.text


async def test_a_roster_separated_by_semicolons_is_imported(discord, bot, dave):
    houston = team_row(bot, "Houston")["roster"]
    text = roster_to_csv(houston).replace(",", ";")
    reply = await discord.slash(
        "rollerball2 team import",
        user=dave,
        name="Valencia",
        file=Upload("valencia.csv", text.encode(), "text/csv"),
    )
    assert not reply.ephemeral and "imports **Valencia**" in reply.text
    valencia = team_row(bot, "Valencia")["roster"]
    assert [(c.number, c.offense) for c in valencia.players] == [
        (c.number, c.offense) for c in houston.players
    ]


async def new_season(discord, bot, user, channel, name: str, teams: str):
    """A season with a deadline ten days off: the reply, and the season's id."""
    reply = await discord.slash(
        "rollerball2 season create", user=user, channel=channel, name=name, teams=teams, hours=240
    )
    found = query(bot, "SELECT id FROM rollerball2_seasons WHERE name = ?", name)
    assert found, reply.text  # the season was created
    return reply, found[0][0]


def deadlines(bot, season: int) -> list[int]:
    """The matchdays of `season` whose deadline timer is waiting (one: the current one's)."""
    return sorted(
        json.loads(payload)["matchday"]
        for (payload,) in query(
            bot, "SELECT payload FROM timers WHERE event = 'rollerball2_deadline'"
        )
        if json.loads(payload)["season"] == season
    )


async def test_an_admin_plays_a_matchday_before_its_deadline(discord, bot, carol, owner, games):
    reply, summer = await new_season(discord, bot, carol, games, "Summer", "Madrid, Oslo")
    assert "2 teams, 2 matchdays" in reply.text
    refused = await discord.slash("rollerball2 season play", user=carol, season="Summer")
    assert refused.ephemeral and "Only server admins (the Manage Server permission)" in (
        refused.text
    )
    assert (
        query(
            bot,
            "SELECT COUNT(*) FROM rollerball2_fixtures WHERE season_id = ? AND how IS NOT NULL",
            summer,
        )[0][0]
        == 0
    )

    played = await discord.slash(
        "rollerball2 season play", user=owner, channel=games, season="Summer"
    )
    assert not played.ephemeral and "Summer, matchday 1**: played now by" in played.text
    assert played.attachments[0].filename == "standings-1.png"
    day_one = query(
        bot,
        "SELECT how, game_id FROM rollerball2_fixtures WHERE season_id = ? AND matchday = 1",
        summer,
    )
    assert [how for how, _ in day_one] == ["simulated"]
    assert f"match #{day_one[0][1]}" in played.text
    assert deadlines(bot, summer) == [2]  # matchday 1's deadline has nothing left to do
    # Season statistics count it.
    table = await discord.slash("rollerball2 stats team", user=carol, team="Oslo", season="Summer")
    assert "in 1 matches" in table.text or "in 1 match" in table.text


@pytest.mark.both_backends
async def test_an_admin_plays_a_whole_matchday_with_a_match_under_way(
    discord, bot, carol, owner, games
):
    for name in ("Bern", "Cork", "Dili", "Evora"):
        await discord.slash("rollerball2 team create", user=carol, name=name)
    reply, winter = await new_season(
        discord, bot, carol, games, "Winter", "Bern, Cork, Dili, Evora"
    )
    assert "4 teams, 6 matchdays" in reply.text
    day_one = [f for f in fixtures(bot) if f[1] == 1 and f[2] in ("Bern", "Cork", "Dili", "Evora")]
    assert len(day_one) == 2
    (_, _, home, away, *_), (second_id, _, other_home, other_away, *_) = day_one
    # The first fixture is being played, card by card; the second was never started.
    known = len(discord.threads(games))
    await discord.slash(
        "rollerball2 match start", user=carol, channel=games, home=home, away=away, mode="solo"
    )
    thread, card = await first_turn(discord, bot, games, known)
    under_way = card_game_id(card)
    card = await press(discord, bot, thread, card, "Next card", carol)
    assert stored_match(bot, under_way)[1] == "active"

    played = await discord.slash(
        "rollerball2 season play", user=owner, channel=games, season="Winter"
    )
    assert not played.ephemeral and "Winter, matchday 1**: played now by" in played.text
    # The match under way was played to the end by the default coaches, and its thread says
    # why: the matchday was played now, not that a deadline passed.
    assert stored_match(bot, under_way)[1] == "finished"
    said = await discord.wait_for_message(
        thread, lambda m: "default coaches" in m.text, since=0, timeout=30
    )
    assert "played matchday 1 of Winter now" in said.text and "deadline" not in said.text
    settled = {
        fixture_id: (how, game_id)
        for fixture_id, how, game_id in query(
            bot,
            "SELECT id, how, game_id FROM rollerball2_fixtures WHERE season_id = ? AND matchday = 1",
            winter,
        )
    }
    assert sorted(how for how, _ in settled.values()) == ["played", "simulated"]
    assert under_way in {game_id for _, game_id in settled.values()}
    for fixture in fixtures(bot):
        if fixture[0] in settled:
            _, _, h, a, _, game_id, home_goals, away_goals = fixture
            # One score order: the visitors first, "at" the home team.
            assert f"{a} {away_goals} at {h} {home_goals}" in played.text
            assert f"match #{game_id}" in played.text
    assert settled[second_id][0] == "simulated" and (other_home, other_away) != (home, away)
    assert deadlines(bot, winter) == [2]  # the next matchday's deadline runs


HOSTILE_TEAMS = ("[x](https://e.vil) @everyone", "**Bold** [click](https://e.vil)")


def assert_shown_as_text(text: str) -> None:
    """No hostile name is read as markdown, a link or a mention."""
    assert "](https://e.vil)" not in text, text
    assert "@everyone" not in text, text
    assert "**Bold**" not in text, text


async def test_team_and_player_names_are_shown_as_text_everywhere(discord, bot, dave, games):
    for name in HOSTILE_TEAMS:
        made = await discord.slash("rollerball2 team create", user=dave, name=name)
        assert not made.ephemeral
        assert_shown_as_text(made.text)
    first, second = HOSTILE_TEAMS
    # A player named like a link, too.
    number = team_row(bot, first)["roster"].players[0].number
    renamed = await discord.slash(
        "rollerball2 team rename", user=dave, team=first, number=number, name="[p](https://e.vil)"
    )
    assert_shown_as_text(renamed.text)
    other = team_row(bot, first)["roster"].players[1].number
    taken = await discord.slash(
        "rollerball2 team rename", user=dave, team=first, number=other, name="[p](https://e.vil)"
    )
    assert taken.ephemeral and "already has a player called" in taken.text
    assert_shown_as_text(taken.text)
    replies = [
        await discord.slash("rollerball2 team show", user=dave, team=first),
        await discord.slash("rollerball2 team lineup", user=dave, team=second),
        await discord.slash("rollerball2 card", user=dave, player=f"{first} #{number}"),
    ]
    season = await discord.slash(
        "rollerball2 season create",
        user=dave,
        channel=games,
        name="[s](https://e.vil)",
        teams=f"{first}, {second}",
    )
    replies.append(season)
    game_id, final, thread = await simulate(discord, bot, dave, games, first, second)
    replies += discord.channel_messages(thread)
    # Played card by card: the live card and the thread's messages for goals, penalties,
    # injuries and period ends name both teams and their players.
    known = len(discord.threads(games))
    await discord.slash(
        "rollerball2 match start", user=dave, channel=games, home=second, away=first, mode="solo"
    )
    solo, card = await first_turn(discord, bot, games, known)

    def milestones() -> list:
        return [
            m
            for m in discord.channel_messages(solo)
            if not is_card(m) and any(word in m.text for word in ("GOAL", "PENALTY", "INJURY"))
        ]

    for _ in range(40):  # a period's end tells its goals, penalties and injuries
        until = "Play to period end"
        label = until if until in card.button_labels else card.button_labels[0]
        card = await press(discord, bot, solo, card, label, dave)
        replies.append(card)
        if milestones():
            break
    assert milestones()
    while "Simulate the rest" not in card.button_labels:
        card = await press(discord, bot, solo, card, card.button_labels[0], dave)
    replies.append(await press(discord, bot, solo, card, "Simulate the rest", dave))
    replies += discord.channel_messages(solo)
    replies += [
        await discord.slash("rollerball2 stats team", user=dave, team=first),
        await discord.slash("rollerball2 stats player", user=dave, player=f"{first} #{number}"),
        await discord.slash("rollerball2 history", user=dave, team=second),
        await discord.slash("rollerball2 leaders", user=dave),
        await discord.slash("rollerball2 match boxscore", user=dave, match_id=game_id),
        await discord.slash("rollerball2 injuries", user=dave),
        await discord.slash("rollerball2 season schedule", user=dave, season="[s](https://e.vil)"),
        await discord.slash("rollerball2 season results", user=dave, season="[s](https://e.vil)"),
        await discord.slash("rollerball2 season standings", user=dave, season="[s](https://e.vil)"),
    ]
    for reply in replies:
        assert_shown_as_text(reply.text)
    # Shown as text, the name still reads as itself.
    assert "\\[x\\](https\\://e.vil)" in final.text


async def test_privacy_names_the_teams_a_user_coaches(discord, bot, alice):
    reply = await discord.slash("privacy", user=alice)
    assert reply.ephemeral and "Rollerball II: 2 teams you coach" in reply.text


async def test_the_rules_page_can_be_read_in_discord_topic_by_topic(discord, alice):
    page = await discord.slash("rollerball2 rules", user=alice)
    assert page.ephemeral and "Rollerball II rules: Overview" in page.text
    topics = [option.label for option in page.selects[0].options]
    assert "Substitutes" in topics and "On Discord" in topics
    chosen = await discord.select(
        page, "Choose a topic", [str(topics.index("Substitutes"))], user=alice
    )
    assert "Rollerball II rules: Substitutes" in chosen.text


async def test_a_coach_leaves_his_die_to_the_bot_and_still_decides(discord, bot, alice, bob, games):
    await discord.slash("rollerball2 team create", user=alice, name="Quito", colour="blue")
    await discord.slash("rollerball2 team create", user=bob, name="Rabat", colour="red")
    _, thread, card, game_id = await coaches_match(
        discord, bot, games, bob, "Rabat", alice, "Quito"
    )
    # Both coaches hand their dice to the bot: no "Roll the die" is ever asked of them again.
    card = await press(discord, bot, thread, card, "Let the bot roll my die", bob)
    assert "Bot rolls for: Rabat" in " ".join(card.button_labels)
    card = await press(discord, bot, thread, card, "Bot rolls for: Rabat (toggle mine)", alice)
    assert stored_match(bot, game_id)[2].auto == {0, 1}
    coaches = [bob, alice]
    for _ in range(30):
        assert not any(label.startswith("Roll the die") for label in card.button_labels)
        seat = min(Rollerball2Adapter().engine.actors(stored_match(bot, game_id)[2].engine))
        label = "Next card" if "Next card" in card.button_labels else card.button_labels[0]
        card = await press(discord, bot, thread, card, label, coaches[seat])
        if "coach rolls d10" in card.text:
            break
    assert "coach rolls d10" in card.text, "the bot rolled a coach's die for him"
    await resign_all(discord, bot, game_id, thread, coaches)


@pytest.mark.both_backends
async def test_a_coach_lets_the_bot_roll_his_die_from_the_start_and_still_decides(
    discord, bot, alice, bob, games
):
    await discord.slash("rollerball2 team create", user=bob, name="Accra", colour="green")
    await discord.slash("rollerball2 team create", user=alice, name="Cusco", colour="red")
    challenge, thread, card, game_id = await coaches_match(
        discord, bot, games, bob, "Accra", alice, "Cusco", bot_rolls=True
    )
    assert "the bot rolls Accra's dice" in challenge.text
    assert stored_match(bot, game_id)[2].auto == {0}  # Accra's coach, the home seat
    assert "Bot rolls for: Accra (toggle mine)" in card.button_labels
    coaches = [bob, alice]
    rolled_by_alice = decided_by_bob = False
    for _ in range(80):
        assert "Roll the die (Accra)" not in card.button_labels
        match = stored_match(bot, game_id)[2]
        seat = min(Rollerball2Adapter().engine.actors(match.engine))
        pending = match.engine.engine.pending
        if pending and pending["kind"] != "dice" and seat == 0:
            # A decision of Accra's still waits for its coach: Cusco's coach may not make it.
            refused = await discord.click(card, card.button_labels[0], user=alice)
            assert refused.ephemeral and "It's not your turn" in refused.text
            decided_by_bob = True
        label = next(
            (b for b in card.button_labels if b in ("Roll the die (Cusco)", "Roll on his card")),
            "Next card" if "Next card" in card.button_labels else card.button_labels[0],
        )
        rolled_by_alice = rolled_by_alice or label == "Roll the die (Cusco)"
        card = await press(discord, bot, thread, card, label, coaches[seat])
        if rolled_by_alice and decided_by_bob:
            break
    assert rolled_by_alice and decided_by_bob
    # The bot rolled Accra's dice, as moves of its own.
    bot_moves = query(
        bot,
        "SELECT COUNT(*) FROM game_moves WHERE game_id = ? AND actor_id = 0 AND events LIKE ?",
        game_id,
        "%Accra coach rolls d10%",
    )[0][0]
    assert bot_moves > 0
    await resign_all(discord, bot, game_id, thread, (bob, alice))
