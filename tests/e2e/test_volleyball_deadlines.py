"""A Volleyball league's deadline policies through the fake Discord (docs/rules/volleyball.md,
"Deadline policies"; docs/async-play.md): an admin extends a round, pauses the league and
resumes it with the time the round had left, the computer takes a team after the league's
number of missed rounds, a manager's vacation puts the deadline off where the league allows
it, and a reminder reaches each manager as their notification settings say.

Time passes the way the other e2e tests make it pass: a league's stored moments (its
deadline, the round's time, its anchor, its timers, a vacation) are moved back as that much
waiting would have left them, and a timer made due fires within 0.2 s. Every league has its
own results channel, so a command used there means that league.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from fakediscord.server import FakeDiscord
from rules.volleyball import LeagueState
from tests.e2e.conftest import fake_with_rooms
from tests.e2e.stored import connect, fired, sql, until

pytestmark = pytest.mark.e2e

DAY = 86400.0
ROOMS = ("extend", "pause", "absent", "holiday", "busy", "notify", "flood")


@pytest.fixture(scope="module")
def fake_discord(database_backend: str) -> Iterator[FakeDiscord]:
    """The usual fixtures plus a results channel per league (one per backend)."""
    yield from fake_with_rooms(ROOMS)


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # Timers made due by a test fire within 0.2 s; the leagues' seeds are reproducible.
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "5353"}


# ---- reading and changing what the bot stored --------------------------------------------------


def league_row(bot, name: str) -> dict:
    with connect(bot) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM volleyball_leagues WHERE name = ?", (name,)).fetchone()
    return dict(row)


def league_state(bot, name: str) -> LeagueState:
    return LeagueState.from_dict(json.loads(league_row(bot, name)["state"]))


def timer_due(bot, timer_id: int) -> float | None:
    rows = sql(bot, "SELECT due_at FROM timers WHERE id = ?", timer_id)
    return rows[0][0] if rows else None


def time_passes(bot, name: str, seconds: float, *, vacation_of=None) -> None:
    """`seconds` pass for the league (and the vacation of `vacation_of`): every moment it
    stored is that much earlier, as waiting would have left it."""
    row = league_row(bot, name)
    with connect(bot) as conn:
        conn.execute(
            "UPDATE volleyball_leagues SET anchor = anchor - ?,"
            " next_deadline = next_deadline - ?, round_since = round_since - ?,"
            " set_deadline = set_deadline - ?, paused_at = paused_at - ? WHERE id = ?",
            (seconds, seconds, seconds, seconds, seconds, row["id"]),
        )
        conn.execute(
            "UPDATE timers SET due_at = due_at - ?, created_at = created_at - ? WHERE id IN (?, ?)",
            (seconds, seconds, row["deadline_timer"], row["remind_timer"]),
        )
        if vacation_of is not None:
            conn.execute(
                "UPDATE vacations SET started_at = started_at - ?, ends_at = ends_at - ?"
                " WHERE user_id = ?",
                (seconds, seconds, vacation_of.id),
            )


def league_timers(bot, league_id: int) -> list[tuple[str, float]]:
    """(event, due) of the league's timers, earliest first."""
    return [
        (event, due)
        for event, due, payload in sql(
            bot, "SELECT event, due_at, payload FROM timers ORDER BY due_at"
        )
        if json.loads(payload).get("league_id") == league_id
    ]


def make_due(bot, timer_id: int) -> None:
    with connect(bot) as conn:
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (time.time() - 1, timer_id))


def card_of(discord, channel):
    return [m for m in discord.channel_messages(channel) if m.embeds][-1]


def waiting_field(card) -> str:
    fields = {f["name"]: f["value"] for f in card.embeds[0]["fields"]}
    return fields["Waiting for"]


async def running_league(discord, bot, owner, channel, name: str, managers, **options) -> dict:
    """A league of `len(managers) + 2` seats in `channel`, deadlines every 24 hours, each of
    `managers` on a computer team's seat, started. Returns its row."""
    created = await discord.slash(
        "volleyball league create",
        user=owner,
        channel=channel,
        name=name,
        teams=len(managers) + 2,
        every_hours=24,
        **options,
    )
    assert name in created.content, created.content
    for user in managers:
        seat = next(t.name for t in league_state(bot, name).league.teams if t.manager_id is None)
        taken = await discord.slash("volleyball take-seat", user=user, channel=channel, team=seat)
        assert "takes over" in taken.content, taken.content
    started = await discord.slash("volleyball league start", user=owner, channel=channel)
    assert "has started" in started.text, started.text
    await discord.wait_for_message(
        channel, lambda m: bool(m.embeds) and "orders due" in m.embeds[0].get("description", "")
    )
    return league_row(bot, name)


def team_of(bot, name: str, user) -> str:
    return next(
        t.name for t in league_state(bot, name).league.teams if t.manager_id == str(user.id)
    )


async def run_round(discord, owner, channel, name: str, number: int, *managers):
    """An admin plays the round now; its results reach the channel and each manager."""
    marker = discord.last_message(channel)
    await discord.slash("volleyball round run-now", user=owner, channel=channel, timeout=20)
    post = await discord.wait_for_message(
        channel, lambda m: f"round {number} results" in m.content, since=marker, timeout=20
    )
    sheets = [
        await discord.wait_for_dm(user, lambda m: f"round {number} of {name}" in m.content)
        for user in managers
    ]
    return post, sheets


# ---- an extension --------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_an_admin_extends_a_rounds_deadline_and_the_next_round_still_gets_its_time(
    discord, bot, fake_discord, alice, carol, owner
):
    room, name = fake_discord.rooms["extend"], "Extend League"
    before = await running_league(discord, bot, owner, room, name, [alice])
    card = card_of(discord, room)

    refused = await discord.slash("volleyball round extend", user=carol, channel=room, hours=40)
    assert refused.ephemeral and "Only server admins" in refused.content
    assert league_row(bot, name)["next_deadline"] == before["next_deadline"]

    extended = await discord.slash("volleyball round extend", user=owner, channel=room, hours=40)
    assert not extended.ephemeral and "gets 40 hours more" in extended.content
    row = league_row(bot, name)
    assert row["next_deadline"] == pytest.approx(before["next_deadline"] + 40 * 3600)
    assert f"<t:{int(row['next_deadline'])}:R>" in extended.content
    # the reminder moved with it; the old timers are gone
    assert timer_due(bot, row["remind_timer"]) == pytest.approx(row["next_deadline"] - 12 * 3600)
    assert league_timers(bot, row["id"]) == [
        ("volleyball_remind", pytest.approx(row["next_deadline"] - 12 * 3600)),
        ("volleyball_deadline", pytest.approx(row["next_deadline"])),
    ]
    edited = await discord.wait_for_edit(card)
    assert f"<t:{int(row['next_deadline'])}" in edited.embeds[0]["description"]

    # The extended deadline comes. The rule's next moment would be 8 hours after it (the
    # league counts 24-hour periods from its start); the next round gets the one after.
    time_passes(bot, name, row["next_deadline"] - time.time() + 1)
    passed = league_row(bot, name)
    marker = discord.last_message(room)
    make_due(bot, passed["deadline_timer"])
    await discord.wait_for_message(
        room, lambda m: "round 1 results" in m.content, since=marker, timeout=20
    )
    after = league_row(bot, name)
    assert league_state(bot, name).league.round_number == 2
    assert after["next_deadline"] == pytest.approx(passed["anchor"] + 4 * DAY, abs=1)
    assert after["next_deadline"] - time.time() > 31 * 3600
    # the next round's timers are there (a new timer once took the fired one's id, and the
    # dispatcher deleted it with the fired one: the league stalled)
    assert league_timers(bot, after["id"]) == [
        ("volleyball_remind", pytest.approx(after["next_deadline"] - 12 * 3600)),
        ("volleyball_deadline", pytest.approx(after["next_deadline"])),
    ]

    # a paused league has no deadline to extend: resuming gives its round what was left
    await discord.slash("volleyball league pause", user=owner, channel=room)
    paused = await discord.slash("volleyball round extend", user=owner, channel=room, hours=5)
    assert paused.ephemeral and "league resume" in paused.content


# ---- a pause ------------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_pause_gives_the_round_the_time_it_had_left_and_moves_the_deadlines_after_it(
    discord, bot, fake_discord, alice, owner
):
    room, name = fake_discord.rooms["pause"], "Pause League"
    before = await running_league(discord, bot, owner, room, name, [alice])
    card = card_of(discord, room)
    paused = await discord.slash("volleyball league pause", user=owner, channel=room)
    assert "is paused" in paused.content and "time it has left" in paused.content
    row = league_row(bot, name)
    assert row["status"] == "paused" and row["next_deadline"] is None
    assert league_timers(bot, row["id"]) == []
    left = row["set_deadline"] - row["paused_at"]
    assert left == pytest.approx(before["next_deadline"] - row["paused_at"])
    card = await discord.wait_for_edit(
        card, lambda m: "Paused by an admin" in m.embeds[0]["description"]
    )
    assert "time it had left" in card.embeds[0]["description"]

    # three days later the admin resumes: the round has what it had left, and the next
    # deadlines are three days later than they would have been
    time_passes(bot, name, 3 * DAY)
    anchor = league_row(bot, name)["anchor"]
    resumed = await discord.slash("volleyball league resume", user=owner, channel=room)
    row = league_row(bot, name)
    assert "goes on" in resumed.content and f"<t:{int(row['next_deadline'])}" in resumed.content
    assert row["status"] == "running" and row["paused_at"] is None
    assert row["next_deadline"] == pytest.approx(time.time() + left, abs=2)
    assert row["anchor"] == pytest.approx(anchor + 3 * DAY, abs=2)
    assert row["next_deadline"] - row["anchor"] == pytest.approx(DAY, abs=1)
    assert timer_due(bot, row["deadline_timer"]) == pytest.approx(row["next_deadline"])


# ---- missed rounds ----------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_after_the_leagues_missed_rounds_the_computer_manages_the_team(
    discord, bot, fake_discord, alice, bob, owner
):
    room, name = fake_discord.rooms["absent"], "Absent League"
    await running_league(discord, bot, owner, room, name, [alice, bob], missed_rounds=2)
    shown = await discord.slash("volleyball league config", user=owner, channel=room)
    assert "After 2 rounds in a row without orders the computer manages the team" in shown.text
    alices, bobs = team_of(bot, name, alice), team_of(bot, name, bob)

    # round 1: alice sends orders, bob does not
    sent = await discord.slash(
        "volleyball sponsor", user=alice, channel=room, sponsor="Champion Cola"
    )
    assert "accepted" in sent.content
    await run_round(discord, owner, room, name, 1, alice, bob)
    missed = dict(sql(bot, "SELECT team, missed_rounds FROM volleyball_managers"))
    assert missed[alices] == 0 and missed[bobs] == 1
    card = await discord.wait_for_message(
        room, lambda m: bool(m.embeds) and "(missed 1 of 2)" in waiting_field(m)
    )
    assert f"{bobs} (missed 1 of 2)" in waiting_field(card)

    # round 2: neither sends orders; bob's second round in a row hands his team over
    post, (alices_sheet, bobs_sheet) = await run_round(discord, owner, room, name, 2, alice, bob)
    assert f"The computer manages {bobs} from now on" in post.content
    assert "The computer manages" in bobs_sheet.content and "take-seat" in bobs_sheet.content
    assert "The computer manages" not in alices_sheet.content
    managers = dict(sql(bot, "SELECT team, missed_rounds FROM volleyball_managers"))
    assert managers == {alices: 1}
    assert league_state(bot, name).league.team(bobs).manager_id is None
    none = await discord.slash("volleyball orders show", user=bob, channel=room)
    assert none.ephemeral and "don't manage a team" in none.content

    # a round missed while on vacation does not count: alice keeps her team
    away = await discord.slash("settings vacation", user=alice, channel=room, days=1)
    assert "Enjoy" in away.content
    await run_round(discord, owner, room, name, 3, alice)
    assert dict(sql(bot, "SELECT team, missed_rounds FROM volleyball_managers")) == {alices: 1}
    await discord.slash("settings vacation", user=alice, channel=room, end=True)

    # bob takes his team back, with a clean slate
    back = await discord.slash("volleyball take-seat", user=bob, channel=room, team=bobs)
    assert f"takes over **{bobs}**" in back.content
    assert dict(sql(bot, "SELECT team, missed_rounds FROM volleyball_managers"))[bobs] == 0


# ---- vacations ---------------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_managers_vacation_puts_the_deadline_off_where_the_league_allows_it(
    discord, bot, fake_discord, alice, bob, owner
):
    holiday_room, busy_room = fake_discord.rooms["holiday"], fake_discord.rooms["busy"]
    holiday, busy = "Holiday League", "Busy League"
    h0 = await running_league(discord, bot, owner, holiday_room, holiday, [alice], vacations=True)
    b0 = await running_league(discord, bot, owner, busy_room, busy, [alice, bob])
    assert "a manager's vacation" in card_of(discord, holiday_room).embeds[0]["description"]
    card = card_of(discord, holiday_room)

    # alice goes away for two days: the holiday league's deadline is two days later, the busy
    # league's stays
    dm = discord.open_dm(alice)
    away = await discord.slash("settings vacation", user=alice, channel=dm, days=2)
    assert "Enjoy" in away.content
    await until(lambda: league_row(bot, holiday)["next_deadline"] > h0["next_deadline"] + 60)
    row = league_row(bot, holiday)
    assert row["next_deadline"] == pytest.approx(h0["next_deadline"] + 2 * DAY, abs=3)
    assert row["set_deadline"] == pytest.approx(h0["next_deadline"])
    assert timer_due(bot, row["deadline_timer"]) == pytest.approx(row["next_deadline"])
    assert timer_due(bot, row["remind_timer"]) == pytest.approx(row["next_deadline"] - 12 * 3600)
    assert league_row(bot, busy)["next_deadline"] == b0["next_deadline"]
    edited = await discord.wait_for_edit(card)
    assert "Put off while managers were on vacation" in edited.embeds[0]["description"]
    assert f"<t:{int(row['next_deadline'])}" in edited.embeds[0]["description"]
    assert "(on vacation)" in waiting_field(edited)

    # back early: the deadline comes back, later only by the seconds she was away
    back = await discord.slash("settings vacation", user=alice, channel=dm, end=True)
    assert "Welcome back" in back.content
    await until(lambda: league_row(bot, holiday)["next_deadline"] < h0["next_deadline"] + DAY)
    assert league_row(bot, holiday)["next_deadline"] == pytest.approx(h0["next_deadline"], abs=30)

    # Away again, and the round's set deadline passes while she is: its timer fires as it
    # was first set (as if the process that saw her leave could not move it), and the round
    # waits for her all the same.
    await discord.slash("settings vacation", user=alice, channel=dm, days=2)
    await until(lambda: league_row(bot, holiday)["next_deadline"] > h0["next_deadline"] + DAY)
    row = league_row(bot, holiday)
    time_passes(bot, holiday, row["set_deadline"] - time.time() + 1, vacation_of=alice)
    row = league_row(bot, holiday)
    make_due(bot, row["deadline_timer"])
    await fired(bot, row["deadline_timer"])
    assert league_state(bot, holiday).league.round_number == 1
    assert not any("round 1 results" in m.content for m in discord.channel_messages(holiday_room))
    waited = league_row(bot, holiday)
    assert waited["next_deadline"] > time.time() + DAY  # once she is back, the time left
    assert timer_due(bot, waited["deadline_timer"]) == pytest.approx(waited["next_deadline"])

    # the busy league plays its round at its deadline, whoever is away
    busy_row = league_row(bot, busy)
    make_due(bot, busy_row["deadline_timer"])
    await discord.wait_for_message(busy_room, lambda m: "round 1 results" in m.content, timeout=20)
    await discord.slash("settings vacation", user=alice, channel=dm, end=True)


# ---- reminders -------------------------------------------------------------------------------------


@pytest.mark.both_backends
async def test_a_reminder_reaches_each_manager_as_their_notification_settings_say(
    discord, bot, fake_discord, alice, bob, carol, dave, owner
):
    room, name = fake_discord.rooms["notify"], "Notify League"
    eve, fay = discord.add_user("eve"), discord.add_user("fay")
    await discord.slash("settings me", user=alice, channel=room, ping="dm")
    await discord.slash("settings me", user=bob, channel=room, ping="never")
    await discord.slash("settings me", user=carol, channel=room, ping="every_turn")
    local = datetime.now(ZoneInfo("Asia/Tokyo"))
    start, end = local - timedelta(hours=1), local + timedelta(hours=1)
    quiet = await discord.slash(
        "settings me",
        user=dave,
        channel=room,
        time_zone="Asia/Tokyo",
        quiet_hours=f"{start:%H:%M}-{end:%H:%M}",
    )
    assert "Saved" in quiet.content
    await discord.slash("settings vacation", user=fay, channel=room, days=0.5)
    row = await running_league(discord, bot, owner, room, name, [alice, bob, carol, dave, eve, fay])
    vacation_end = sql(bot, "SELECT ends_at FROM vacations WHERE user_id = ?", fay.id)[0][0]

    marker = discord.last_message(room)
    make_due(bot, row["remind_timer"])
    await fired(bot, row["remind_timer"])
    (reminder,) = [m for m in discord.channel_messages(room) if m.id > marker.id]
    assert "are due" in reminder.content and reminder.button_labels[0] == "Send orders"
    # in the channel: "every turn" and the default ("only when away": a reminder comes only
    # to someone away)
    assert carol.mention in reminder.content and eve.mention in reminder.content
    for user in (alice, bob, dave, fay):
        assert user.mention not in reminder.content, user.name
    # by DM, with a link to the league's card
    (dm,) = [m for m in discord.dm_messages(alice) if "are due" in m.content]
    assert f"round 1 of season 1 of {name}" in dm.content
    assert f"/{room.id}/{league_row(bot, name)['card_message_id']}" in dm.content
    assert not any("are due" in m.content for m in discord.dm_messages(bob))
    # quiet hours and a vacation hold it back until they end, for that manager only
    later = {
        tuple(json.loads(payload)["users"]): due
        for payload, due in sql(
            bot, "SELECT payload, due_at FROM timers WHERE event = 'volleyball_remind'"
        )
        if "users" in json.loads(payload)
    }
    assert later[(dave.id,)] == pytest.approx(
        end.replace(second=0, microsecond=0).timestamp(), abs=61
    )
    assert later[(fay.id,)] == pytest.approx(vacation_end)

    # a DM that cannot be delivered becomes a mention in the channel
    discord.close_dms(alice)
    payload = {"league_id": row["id"], "season": 1, "round": 1, "users": [alice.id]}
    with connect(bot) as conn:
        (timer_id,) = conn.execute(
            "INSERT INTO timers (event, due_at, payload, created_at) VALUES (?, ?, ?, ?)"
            " RETURNING id",
            ("volleyball_remind", time.time() - 1, json.dumps(payload), time.time()),
        ).fetchone()
    marker = discord.last_message(room)
    await fired(bot, timer_id)
    (again,) = [m for m in discord.channel_messages(room) if m.id > marker.id]
    assert again.content.startswith(alice.mention) and "are due" in again.content
    assert carol.mention not in again.content


# ---- Discord refusing a DM ------------------------------------------------------------------------


async def test_a_dm_discord_refuses_mid_round_leaves_a_mention_and_the_others_get_theirs(
    discord, bot, fake_discord, owner
):
    """Discord answers 40003 ("opening direct messages too fast") when a bot opens many DMs at
    once: the round's sheets go on to every other manager, and whoever Discord refused is
    mentioned in the results channel instead (as for closed DMs)."""
    room, name = fake_discord.rooms["flood"], "Flood League"
    gil, hal, ivy = (discord.add_user(n) for n in ("gil", "hal", "ivy"))
    await running_league(discord, bot, owner, room, name, [gil, hal, ivy])
    # Discord publishes no figure: here, a second new DM channel within a minute is refused
    fake_discord.rate_limits.dm_opens = (1, 60.0)
    try:
        marker = discord.last_message(room)
        await discord.slash("volleyball round run-now", user=owner, channel=room, timeout=20)
        await discord.wait_for_message(
            room, lambda m: "round 1 results" in m.content, since=marker, timeout=20
        )
        managers = (gil, hal, ivy)

        def sheet_reached(user) -> bool:
            return any(f"round 1 of {name}" in m.content for m in discord.dm_messages(user))

        def mentioned(user) -> list:
            return [
                m
                for m in discord.channel_messages(room)
                if m.id > marker.id and m.content.startswith(user.mention)
            ]

        await until(lambda: all(sheet_reached(u) or mentioned(u) for u in managers))
        reached = [u for u in managers if sheet_reached(u)]
        assert len(reached) == 1  # one DM opened; Discord refused the two others
        for user in managers:
            if user not in reached:
                (said,) = mentioned(user)
                assert "could not" in said.content and "Money" not in said.content
    finally:
        fake_discord.rate_limits.dm_opens = None
    assert any(code == 40003 for _, _, body in fake_discord.errors for code in [body.get("code")])
