"""Tests of the e2e harness itself, against the real bot.py with a deliberately misbehaving
test-only cog (misbehaving_cog.py): each broken reply must fail the way Discord would refuse
it, and each well-behaved response path must come back to the test as a user would see it."""

from __future__ import annotations

import ast
import asyncio
import urllib.request

import pytest
from PIL import Image

from fakediscord import DiscordViolation, DriverError
from fakediscord.botproc import BotProcess
from fakediscord.model import ATTACH_FILES
from fakediscord.server import FakeDiscord

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_extensions() -> list[str]:
    return ["tests.e2e.misbehaving_cog"]


# --- strictness: what Discord refuses fails the test ------------------------------------------


async def test_reply_over_2000_characters_is_refused_like_discord(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave long", user=alice)
    [violation] = caught.value.violations
    assert violation.status == 400 and violation.code == 50035
    assert violation.body["errors"]["data"]["content"]["_errors"][0]["code"] == (
        "BASE_TYPE_MAX_LENGTH"
    )
    # the bot saw Discord's error: its error handler logged it (an unexpected error)
    await bot.expect_error("Must be 2000 or fewer in length")


async def test_first_response_after_three_seconds_fails(discord, bot, alice, general):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave late", user=alice)
    assert caught.value.kinds == ["no_response"]
    # the late response itself got Discord's 10062, and the bot logged that the interaction
    # expired (a warning, not an unexpected error with a traceback: ui/replies.py)
    for _ in range(100):
        if "misbehave late of user" in bot.log_text():
            break
        await asyncio.sleep(0.05)
    late = [v for v in discord.fake.violations if v.kind == "late_response"]
    assert late and late[-1].code == 10062
    assert "interaction misbehave late of user" in bot.log_text()
    assert "expired before it was answered" in bot.log_text()
    assert not bot.new_errors()


async def test_second_initial_response_gets_40060(discord, bot, alice):
    reply = await discord.slash("misbehave twice", user=alice)
    assert reply.content == "first"
    violations = await discord.wait_for_violation()
    assert violations and {v.code for v in violations} == {40060}
    assert violations[0].body["message"] == "Interaction has already been acknowledged."
    # the bot's error handler then tried to answer a third time, which Discord refuses too
    await bot.expect_error("could not tell user")
    assert {v.code for v in discord.take_violations()} <= {40060}


async def test_custom_id_over_100_characters_is_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave custom-id", user=alice)
    errors = caught.value.violations[0].body["errors"]
    leaf = errors["data"]["components"]["0"]["components"]["0"]["custom_id"]["_errors"][0]
    assert leaf["code"] == "BASE_TYPE_MAX_LENGTH"
    await bot.expect_error("custom_id")


async def test_embeds_over_6000_characters_in_all_are_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave embeds", user=alice)
    assert "MAX_EMBED_SIZE_EXCEEDED" in str(caught.value.violations[0].body)
    await bot.expect_error("50035")


async def test_six_buttons_in_a_row_are_refused(discord, bot, alice, general):
    before = len(discord.channel_messages(general))
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave wide-row", user=alice)
    assert "components.0.components: Must be 5 or fewer in length." in str(caught.value)
    # Discord stored nothing
    assert len(discord.channel_messages(general)) == before
    await bot.expect_error("50035")


async def test_modal_title_over_45_characters_is_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave bad-modal", user=alice)
    assert "data.title: Must be 45 or fewer in length." in str(caught.value)
    await bot.expect_error("50035")


async def test_eleven_files_are_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave files", user=alice)
    assert "data.attachments: Must be 10 or fewer in length." in str(caught.value)
    await bot.expect_error("50035")


async def test_upload_over_25_mib_gets_413(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave big-upload", user=alice)
    assert [(v.status, v.code) for v in caught.value.violations] == [(413, 40005)]
    await bot.expect_error("40005")


async def test_defer_without_followup_fails(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave silent-defer", user=alice, timeout=1.0)
    assert caught.value.kinds == ["deferred_without_followup"]


async def test_too_many_autocomplete_choices_are_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.autocomplete("misbehave facing", "facing", "many", user=alice)
    assert "data.choices: Must be 25 or fewer in length." in str(caught.value)
    await bot.expect_error("Ignoring exception in autocomplete")


async def test_a_route_the_fake_lacks_fails_loudly(discord, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("misbehave unknown-route", user=alice)
    [violation] = caught.value.violations
    assert violation.kind == "unsupported_route"
    assert violation.route.startswith("GET /guilds/") and violation.route.endswith("/bans")


async def test_unexpected_error_is_reported_to_the_user_and_must_be_taken(discord, bot, alice):
    reply = await discord.slash("misbehave crash", user=alice)
    assert reply.ephemeral
    assert "Something went wrong" in reply.content
    errors = await bot.expect_error("crashed on purpose")
    assert any("Traceback" in record for record in errors)


def test_an_unnoticed_broken_reply_fails_the_test():
    """Run broken_examples.py in a child pytest: a test that ignores a too-long reply, one
    whose bot answered twice after the reply the test checked, one whose bot logged an error
    and one whose bot died must all fail (the last three at teardown); the bot is restarted
    after the crash, so the well-behaved test after it passes."""
    import subprocess
    import sys

    from fakediscord.botproc import REPO_ROOT

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/e2e/broken_examples.py",
            "-p",
            "no:cacheprovider",
            "-q",
            "--no-header",
            "-rfE",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    summary = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
    prefix = "tests/e2e/broken_examples.py::"
    assert any(line.startswith(f"FAILED {prefix}test_too_long_reply_unchecked") for line in summary)
    assert any(line.startswith(f"ERROR {prefix}test_answered_twice_unchecked") for line in summary)
    assert any(line.startswith(f"ERROR {prefix}test_crash_unchecked") for line in summary)
    assert any(line.startswith(f"ERROR {prefix}test_bot_dies_unchecked") for line in summary)
    assert "bot.py exited (code 3) during the test" in output
    assert not any("test_well_behaved_passes" in line for line in summary), output
    assert "Interaction has already been acknowledged" in output
    assert "the bot logged an error" in output


def test_command_tree_discord_would_refuse_stops_the_bot_at_sync(tmp_path):
    """A command with a 101-character description: the sync at start-up gets Discord's
    400 50035, the bot cannot start, and the violation names the field."""
    fake = FakeDiscord()
    fake.start()
    process = BotProcess(
        fake,
        database_path=tmp_path / "bad.db",
        log_path=tmp_path / "bad.log",
        extra_extensions=["tests.e2e.bad_tree_cog"],
    )
    try:
        with pytest.raises(RuntimeError, match="exited with code"):
            process.start()
        [violation] = fake.violations
        assert violation.kind == "invalid_form_body" and violation.code == 50035
        assert violation.route == f"PUT /applications/{fake.application_id}/commands"
        assert ".description: Must be 100 or fewer in length." in violation.description
        # discord.py maps Discord's error path back to the command, as with real Discord
        log = process.log_text()
        assert "In command 'verbose' defined in function 'BadTree.verbose'" in log
        assert "  description: Must be 100 or fewer in length." in log
    finally:
        process.stop()
        fake.stop()


# --- response paths come back as a user sees them ---------------------------------------------


async def test_typed_options_reach_the_bot(discord, alice, bob, games, tmp_path):
    picture = Image.new("RGB", (12, 7), "white")
    reply = await discord.slash(
        "misbehave echo",
        user=alice,
        player=bob,
        count=3,
        where=games,
        flag=True,
        picture=picture,
    )
    assert reply.response_type == 4 and not reply.ephemeral
    assert reply.content == "player=Bob count=3 where=games flag=True picture=12x7"
    # a file from disk, and defaults for the options left out
    path = tmp_path / "board.png"
    Image.new("RGB", (5, 9), "black").save(path)
    reply = await discord.slash("misbehave echo", user=alice, player=bob, count=1, picture=path)
    assert reply.content == "player=Bob count=1 where=None flag=False picture=5x9"


async def test_driver_refuses_what_a_user_cannot_send(discord, alice, bob):
    with pytest.raises(DriverError, match="at most 10"):
        await discord.slash("misbehave echo", user=alice, player=bob, count=11)
    with pytest.raises(DriverError, match="needs the option 'count'"):
        await discord.slash("misbehave echo", user=alice, player=bob)
    with pytest.raises(DriverError, match="no /nosuch command"):
        await discord.slash("nosuch", user=alice)
    with pytest.raises(DriverError, match="cannot see /admin"):
        await discord.slash("admin sync", user=alice)
    with pytest.raises(DriverError, match="takes an Upload"):
        await discord.slash("misbehave echo", user=alice, player=bob, count=1, picture=42)


async def test_deferred_response_then_followup(discord, alice):
    reply = await discord.slash("misbehave deferred", user=alice)
    assert reply.response_type == 5
    assert reply.content == "Done thinking"
    # the followup replaced the "thinking" message, ephemeral as the defer chose
    assert reply.ephemeral and not reply.loading


async def test_an_answer_in_several_messages_is_whole_once_the_bot_is_idle(discord, alice):
    """The driver returns at an answer's first message; `whole` has every message the bot
    sent for the interaction (a team sheet, then its menus), waiting for what the test expects:
    a bot whose event loop is held between its two sends looks idle in between."""
    reply = await discord.slash("parts", user=alice)
    assert reply.content == "Your team sheet" and not reply.followups
    whole = await discord.whole(reply, until=lambda reply: len(reply.followups) == 1)
    assert whole.content == "Your team sheet"
    assert [m.content for m in whole.followups] == ["Its menus"]


async def test_a_deferred_commands_reply_is_its_own_not_a_message_posted_meanwhile(
    discord, alice, general
):
    """The bot posting elsewhere while a command thinks (another match's result in the same
    channel) is not that command's reply: the reply is what replaced its "thinking" message."""
    reply = await discord.slash("deferred-busy", user=alice)
    assert reply.content == "Your match starts"
    assert [m.content for m in reply.followups] == ["Another match ended meanwhile"]


async def test_deferred_response_then_edit_with_image(discord, alice, general):
    reply = await discord.slash("misbehave deferred-edit", user=alice)
    assert reply.content == "Here is the board"
    [image] = reply.images
    assert image.size == (64, 48)
    assert image.getpixel((0, 0)) != image.getpixel((63, 0))  # two halves, two colours
    assert discord.last_message(general).id == reply.id


async def test_waiting_for_an_edit(discord, alice):
    reply = await discord.slash("misbehave deep countdown", user=alice)
    assert reply.content == "Kick-off in 2"
    final = await discord.wait_for_edit(reply, lambda m: m.content == "Kick-off!", timeout=5)
    assert final.id == reply.id and final.data["edited_timestamp"] is not None


async def test_attachment_url_is_served_back(discord, alice):
    reply = await discord.slash("misbehave image", user=alice)
    [embed] = reply.embeds
    assert embed["title"] == "Board"
    assert reply.images[0].size == (80, 60)
    url = embed["image"]["url"]  # attachment://board.png, resolved as Discord does
    assert url.startswith(f"http://127.0.0.1:{discord.fake.port}/attachments/")
    with urllib.request.urlopen(url) as response:
        assert response.read() == reply.attachments[0].data


async def test_select_modal_and_deferred_update(discord, alice, bob):
    message = await discord.slash("misbehave widgets", user=alice)
    picked = await discord.select(message, "Pick a facing", ["North"], user=alice)
    assert picked.content == "You picked N" and picked.ephemeral
    chosen = await discord.select(message, "Pick a player", [bob], user=alice)
    assert chosen.content == "You chose Bob"
    with pytest.raises(DriverError, match="is not an option"):
        await discord.select(message, "misbehave:pick", ["Up"], user=alice)
    modal = await discord.click(message, "Ask", user=alice)
    assert modal.response_type == 9 and modal.modal_title == "Name your team"
    assert [i["label"] for i in modal.modal_inputs] == ["Team name", "Motto"]
    with pytest.raises(DriverError, match="takes 0-30 characters"):
        await discord.submit_modal(modal, {"Team name": "R" * 31})
    done = await discord.submit_modal(modal, {"Team name": "Rockets"})
    assert done.content == "Team Rockets registered. Motto: (none)"
    counted = await discord.click(message, "Count", user=alice)
    assert counted.response_type == 6
    assert counted.content == "Clicks: 1"
    assert discord.message(message).content == "Clicks: 1"


async def test_modal_from_a_slash_command_deferred_then_followup(discord, alice, bob):
    modal = await discord.slash("misbehave ask", user=alice)
    assert modal.modal_title == "Your bid"
    sealed = await discord.submit_modal(modal, {"bid": "12"})
    assert sealed.response_type == 6
    assert sealed.content == "Bid 12 sealed" and sealed.ephemeral
    assert sealed.ephemeral_for == alice.id
    with pytest.raises(DriverError, match="bob cannot see"):
        await discord.click(sealed, "anything", user=bob)


async def test_components_v2_layout(discord, alice):
    reply = await discord.slash("misbehave layout", user=alice)
    assert reply.flags & (1 << 15)  # IS_COMPONENTS_V2
    assert reply.content == "" and reply.text == "Score 1-0"
    assert reply.button_labels == ["Next"]
    clicked = await discord.click(reply, "Next", user=alice)
    assert clicked.content == "Next period" and clicked.ephemeral


async def test_a_components_v2_card_with_files_is_stored_as_discord_answers_it(discord, alice):
    reply = await discord.slash("cards card", user=alice)
    assert reply.is_v2 and reply.content == "" and reply.embeds == []
    assert reply.text_displays == ["## Score 0-0", "Picked: none", "Score a goal"]
    assert "Score 0-0" in reply.text
    [container] = reply.components_of_type(17)
    assert container["accent_color"] == 0x2E86DE
    # every attachment:// reference resolved to the uploaded file, as Discord answers
    assert [a.filename for a in reply.media] == ["crest.png", "board.png", "moves.txt"]
    assert reply.media[1].image().size == (80, 60)
    [file_component] = reply.components_of_type(13)
    assert file_component["name"] == "moves.txt" and file_component["size"] == 16
    # Discord numbers every component, depth first
    ids = [c["id"] for c in reply.components_of_type(17) + reply.components_of_type(10)]
    assert len(set(ids)) == len(ids) and all(i > 0 for i in ids)
    assert reply.button_labels == ["Goal"]
    assert reply.select("Pick a square").options[2].value == "s3"


async def test_a_button_beside_a_section_is_clicked_and_the_card_redrawn_in_place(discord, alice):
    card = await discord.slash("cards card", user=alice)
    clicked = await discord.click(card, label="Goal", user=alice)
    assert clicked.response_type == 7 and clicked.id == card.id
    assert clicked.text_displays[0] == "## Score 1-0"
    assert [a.filename for a in clicked.media] == ["crest.png", "board.png", "moves.txt"]
    with pytest.raises(DriverError, match="no button 'Own goal'"):
        await discord.click(card, label="Own goal", user=alice)


async def test_a_select_in_a_container_edits_the_original_and_follows_up_in_v2(
    discord, alice, general
):
    card = await discord.slash("cards card", user=alice)
    picked = await discord.select(card, "Pick a square", ["Square 2"], user=alice)
    assert picked.response_type == 6
    assert discord.message(card).text_displays[1] == "Picked: s2"
    note = await discord.wait_for_message(general, lambda m: "picked s2" in m.text)
    assert note.is_v2 and note.text_displays == ["alice picked s2"]


async def test_a_v2_card_posted_and_edited_through_the_channel(discord, alice, general):
    await discord.slash("cards post", user=alice)
    card = await discord.wait_for_message(general, lambda m: m.is_v2 and "Score 2-1" in m.text)
    assert card.data["edited_timestamp"] is not None
    assert [a.filename for a in card.media] == ["crest.png", "board.png", "moves.txt"]


async def test_v2_text_over_4000_characters_in_all_is_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("cards long", user=alice)
    [violation] = caught.value.violations
    assert violation.status == 400 and violation.code == 50035
    leaf = violation.body["errors"]["data"]["components"]["_errors"][0]
    assert leaf["code"] == "MESSAGE_TEXT_DISPLAY_TOTAL_TOO_LONG"
    await bot.expect_error("50035")


async def test_a_v2_reference_to_a_file_never_uploaded_is_refused(discord, bot, alice):
    with pytest.raises(DiscordViolation) as caught:
        await discord.slash("cards lost-file", user=alice)
    assert "attachment://gone.png names no file of this message" in str(caught.value)
    await bot.expect_error("50035")


async def test_autocomplete_suggestions(discord, alice):
    choices = await discord.autocomplete("misbehave facing", "facing", "s", user=alice)
    assert choices == [{"name": "South", "value": "South"}]


async def test_subcommand_group_and_rest_fetches(discord, alice, bob, games):
    reply = await discord.slash("misbehave deep lookup", user=alice, channel=games, player=bob)
    head, _, commands = reply.content.partition(" commands=")
    assert head == "user=bob member=Bob channel=games"
    # GET /applications/{id}/commands gives back what the bot synced (games come and go)
    assert {"about", "admin", "help", "misbehave", "cards", "roll"} <= set(
        ast.literal_eval(commands)
    )


async def test_channel_permissions_reach_the_bot(discord, alice, general):
    """A channel where the bot's role may not attach files: the interaction's
    app_permissions and the bot's own view of the channel both say so."""
    locked = discord.add_channel("no-files", deny_bot=ATTACH_FILES)
    reply = await discord.slash("misbehave perms", user=alice, channel=locked)
    assert reply.content == "app attach_files=False send=True; cached attach_files=False"
    reply = await discord.slash("misbehave perms", user=alice, channel=general)
    assert reply.content == "app attach_files=True send=True; cached attach_files=True"


async def test_a_user_with_closed_dms_cannot_be_messaged(discord, bot, dave):
    discord.close_dms(dave)
    await discord.slash("misbehave thread", user=dave)  # its last step DMs the user
    # Discord answers 403 50007; this cog does not handle it, so the bot logs the error
    await bot.expect_error("50007")
    assert discord.dm_messages(dave) == []


async def test_user_messages_reach_the_bot_as_discord_sends_them(discord, bot, alice, general):
    # bot.py asks for no message-content intent: Discord blanks other users' messages
    await discord.send_message(general, "hello there", user=alice)
    reply = await discord.slash("misbehave heard", user=alice)
    assert reply.content == "heard=''"
    await discord.send_message(general, f"hello {discord.bot_user.mention}", user=alice)
    reply = await discord.slash("misbehave heard", user=alice)
    assert reply.content == f"heard='hello {discord.bot_user.mention}'"


async def test_thread_and_dm(discord, alice, general):
    reply = await discord.slash("misbehave thread", user=alice)
    dm = await discord.wait_for_dm(alice)  # the bot's last step
    assert dm.content == "Your hand: 3 cards"
    thread = await discord.wait_for_thread(general)
    assert thread.name == "Match 1"
    assert thread.id == reply.id  # a thread started from a message takes the message's id
    assert alice.id in discord.thread_members(thread)
    [turn] = discord.channel_messages(thread)
    assert turn.content == "Turn 1: your move"
    assert turn.reactions == {"🏁": 1}
    assert [m.content for m in discord.dm_messages(alice)] == ["Your hand: 3 cards"]


# --- the gateway and restarts ------------------------------------------------------------------


async def test_dropped_gateway_is_resumed(discord, alice):
    resumes = discord.fake.resume_count
    await discord.drop_gateway()
    reply = await discord.slash("roll", user=alice, notation="d4")
    assert "rolled `1d4`" in reply.content
    assert discord.fake.resume_count == resumes + 1
    # discord.py asked for JSON over a zlib stream, API v10, and resumed the same way
    first, *_, last = discord.fake.gateway_queries
    assert first == last == {"v": "10", "encoding": "json", "compress": "zlib-stream"}


async def test_restart_keeps_state_and_buttons_keep_working(discord, bot, alice):
    message = await discord.slash("misbehave widgets", user=alice)
    syncs = len(discord.fake.command_syncs)
    identifies = discord.fake.identify_count
    await bot.restart()
    assert discord.fake.identify_count == identifies + 1
    # same database, same command tree: the bot did not sync again
    assert len(discord.fake.command_syncs) == syncs
    # the fake kept the message; its persistent buttons still work in the new process
    counted = await discord.click(message, "Count", user=alice)
    assert counted.content == "Clicks: 1"
