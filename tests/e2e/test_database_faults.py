"""The real bot, the fake Discord, and a database that misbehaves while players click: a
SQLite file deleted, its shared-memory file truncated, its disk full;
a PostgreSQL server (of this module's own) stalled. A player always gets an answer within
Discord's 3 s ("the database is unavailable, try again shortly", nothing changed), the log says
once what is wrong (no traceback per click), and play resumes when the database is back."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from db.database import marker_of
from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from fakediscord.server import FakeDiscord
from host.moves import SAVED_NOT_SHOWN
from rules.face import engine_for
from tests.conftest import POSTGRES_MISSING
from tests.e2e.cards import card_game_id, current_card, stored_version
from tests.support.postgres_server import PostgresServer, find_binaries
from ui.replies import MAYBE_SAVED

pytestmark = pytest.mark.e2e

UNAVAILABLE = "The database is unavailable right now, so nothing was changed"


@pytest.fixture
def started(fake_discord: FakeDiscord, tmp_path: Path) -> Iterator[list[BotProcess]]:
    """Bots a test starts; each is stopped at the end."""
    bots: list[BotProcess] = []
    yield bots
    for bot in bots:
        bot.stop()


async def start_bot(
    fake: FakeDiscord, bots: list[BotProcess], database: Path, log: Path | None = None, **env: str
) -> BotProcess:
    """`log`: where the bot logs (default beside the database)."""
    bot = BotProcess(
        fake, database_path=database, log_path=log or database.parent / "bot.log", extra_env=env
    )
    bots.append(bot)
    await asyncio.to_thread(bot.start)
    return bot


async def challenge(fake: FakeDiscord, challenger: str, opponent: str):
    users = fake.fixtures.users  # type: ignore[attr-defined]
    driver = DiscordDriver(fake, fake.fixtures.general)  # type: ignore[attr-defined]
    return await driver.slash(
        "rocketball challenge", user=users[challenger], opponent=users[opponent]
    )


def refused(reply) -> bool:
    return reply.ephemeral and UNAVAILABLE in reply.text


def mover_of(bot: BotProcess, game_id: int) -> str:
    """The name of the person whose turn it is in a stored Rocketball match."""
    with sqlite3.connect(bot.database_path) as conn:
        (state,) = conn.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        seats = dict(
            conn.execute("SELECT seat, user_id FROM game_players WHERE game_id = ?", (game_id,))
        )
    engine = engine_for("rocketball")
    seat = min(engine.actors(engine.load(json.loads(state)["engine"])))
    users = bot.fake.fixtures.users  # type: ignore[attr-defined]
    return next(name for name, user in users.items() if user.id == seats[seat])


def one_clear_error(bot: BotProcess, *words: str) -> str:
    errors = bot.take_errors()
    assert len(errors) == 1, errors
    assert "Traceback" not in errors[0], errors[0]
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


async def test_a_deleted_sqlite_file_is_noticed_and_never_replaced_by_an_empty_one(
    fake_discord, started, tmp_path
):
    """Item 10: `rm ballcourt.db*` while the bot ran: moves were still acknowledged, nothing
    was logged, and the next start made an empty database. Now the next write is refused (the
    player is told), the log says the file was deleted, and the bot will not start empty where
    a database was."""
    database = tmp_path / "ballcourt.db"
    bot = await start_bot(fake_discord, started, database)
    assert not (await challenge(fake_discord, "alice", "bob")).ephemeral
    for path in tmp_path.glob("ballcourt.db*"):
        path.unlink()
    assert refused(await challenge(fake_discord, "carol", "dave"))
    one_clear_error(bot, "was deleted while the bot runs")
    await asyncio.to_thread(bot.stop)
    with pytest.raises(RuntimeError, match="exited with code 2"):
        await asyncio.to_thread(bot.start)
    assert f"The database {database} is missing, but a database was created there" in (
        bot.log_text()
    )
    assert not database.exists()
    bot.take_errors()
    marker_of(database).unlink()  # the operator chooses to start empty
    await asyncio.to_thread(bot.start)
    assert not (await challenge(fake_discord, "carol", "dave")).ephemeral


async def test_a_truncated_shared_memory_file_is_refused_instead_of_crashing_the_bot(
    fake_discord, started, tmp_path
):
    """Item 11: SQLite's shared-memory file (-shm, mapped into memory) made unusable killed the
    bot with SIGBUS (exit -7, no log line; the player saw "did not respond"). The bot now
    notices it before touching it: the player is told, the log says what, the bot lives."""
    database = tmp_path / "ballcourt.db"
    bot = await start_bot(fake_discord, started, database)
    assert not (await challenge(fake_discord, "alice", "bob")).ephemeral
    os.truncate(f"{database}-shm", 0)
    assert refused(await challenge(fake_discord, "carol", "dave"))
    assert bot.running
    one_clear_error(bot, "shared-memory file", "truncated")
    await asyncio.to_thread(bot.stop)
    assert bot.process.returncode == 0, bot.log_tail()


async def match_with_outage_switch(fake_discord, started, tmp_path):
    """A bot with the test's outage extension (/outage) and a Rocketball match between Alice
    and Bob waiting for its first move: the bot, a driver, the match's thread and its card."""
    bot = await start_bot(
        fake_discord,
        started,
        tmp_path / "ballcourt.db",
        EXTRA_EXTENSIONS="tests.e2e.database_outage_cog",
    )
    users = fake_discord.fixtures.users
    general = fake_discord.fixtures.general
    driver = DiscordDriver(fake_discord, general)
    await driver.click(await challenge(fake_discord, "alice", "bob"), "Accept", user=users["bob"])
    thread = await driver.wait_for_thread(general)
    turn = await driver.wait_for_message(thread, lambda m: bool(m.buttons))
    return bot, driver, thread, turn


async def test_a_move_saved_just_before_the_database_stopped_answering_is_told_and_shown(
    fake_discord, started, tmp_path
):
    """A move's commit is answered, then the database stops answering before the card is
    drawn (a PostgreSQL restart or stall at that moment; the chaos run met it). The player was
    told "the database is unavailable, so nothing was changed" although the move was stored,
    and the card stayed a version behind until the next move or a restart. Now they are told
    the move was saved, and the card shows it as soon as the database answers again."""
    bot, driver, thread, turn = await match_with_outage_switch(fake_discord, started, tmp_path)
    users = fake_discord.fixtures.users
    game_id = card_game_id(turn)
    version = stored_version(bot, game_id)[0]
    await driver.slash("outage", user=users["alice"], seconds=2.0)

    suggested = next(label for label in turn.button_labels if label.startswith("Suggested"))
    reply = await driver.click(turn, suggested, user=users[mover_of(bot, game_id)])
    assert stored_version(bot, game_id)[0] == version + 1  # the move is stored
    assert reply.ephemeral and reply.text == SAVED_NOT_SHOWN, reply.text
    card = await current_card(driver, bot, thread, game_id, timeout=15)
    assert card.id == turn.id  # the same card, redrawn at the stored version
    one_clear_error(bot, "the database is unavailable", "the test's outage")


async def test_a_move_whose_card_is_shown_before_the_database_stopped_answering_is_not_denied(
    fake_discord, started, tmp_path
):
    """The card is redrawn, then the database stops answering before the players are pinged
    and the card noted as posted (the chaos run's season deadline met it there). The player
    read "the card shows it as soon as the database answers" under a card already showing it,
    the pings were lost, and the card was posted again at the next start. Now the click is the
    card's redrawing as any other, and what follows the card is done once the database answers:
    the card is noted as posted at the stored version, without a restart."""
    bot, driver, thread, turn = await match_with_outage_switch(fake_discord, started, tmp_path)
    users = fake_discord.fixtures.users
    game_id = card_game_id(turn)
    version = stored_version(bot, game_id)[0]
    await driver.slash("outage", user=users["alice"], seconds=2.0, shown=True)

    suggested = next(label for label in turn.button_labels if label.startswith("Suggested"))
    mover = users[mover_of(bot, game_id)]
    before = max(fake_discord.message_meta, default=0)  # the fake is the module's: earlier tests'
    reply = await driver.click(turn, suggested, user=mover)
    deadline = time.monotonic() + 10  # a loaded machine: the answer may come before the save
    while stored_version(bot, game_id)[0] == version and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    stored = stored_version(bot, game_id)[0]
    assert stored > version
    card = await current_card(driver, bot, thread, game_id, timeout=10)
    # the click redrew the card: in its own answer, or acknowledged (a loaded machine) and edited
    assert card.id == turn.id and reply.response_type in (6, 7)
    deadline = time.monotonic() + 15
    while posted_version(bot, game_id) != stored and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert posted_version(bot, game_id) == stored
    told = [
        driver.message(message_id).text
        for message_id, meta in sorted(fake_discord.message_meta.items())
        if message_id > before and meta.ephemeral_for == mover.id
    ]
    assert SAVED_NOT_SHOWN not in told, told
    one_clear_error(bot, "the database is unavailable", "the test's outage")


def posted_version(bot: BotProcess, game_id: int) -> int:
    with sqlite3.connect(bot.database_path) as conn:
        (posted,) = conn.execute(
            "SELECT posted_version FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return posted


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB filesystem (tmpfs), where the machine lets the test mount one (root)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small filesystem needs root")
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m,mode=0755", "tmpfs", str(folder)],
        capture_output=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


async def test_a_full_disk_refuses_moves_with_an_answer_and_play_resumes_when_space_is_freed(
    fake_discord, started, small_disk
):
    """A full disk: the click is answered (nothing changed), the log says it once, and once
    space is freed the same bot saves again without a restart."""
    bot = await start_bot(fake_discord, started, small_disk / "ballcourt.db")
    assert not (await challenge(fake_discord, "alice", "bob")).ephemeral
    filler = small_disk / "filler"
    # unbuffered: a write the full disk refuses leaves nothing in a buffer for close() to
    # flush (and fail on) again
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
        except OSError:
            pass
    assert refused(await challenge(fake_discord, "carol", "dave"))
    one_clear_error(bot, "full")
    filler.unlink()
    assert not (await challenge(fake_discord, "carol", "dave")).ephemeral
    assert bot.take_errors() == []


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    binaries = find_binaries()
    if binaries is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{POSTGRES_MISSING}; under CI the PostgreSQL tests must run", False)
        pytest.skip(POSTGRES_MISSING)
    server = PostgresServer(binaries)
    server.start()
    yield server
    server.stop()


@pytest.mark.postgres
async def test_clicks_while_postgresql_is_stalled_are_answered_within_discords_three_seconds(
    fake_discord, started, own_postgres, tmp_path
):
    """Items 9 and 14: with PostgreSQL stalled, 4 of 4 clicks got no answer at all (Discord's
    "did not respond"), then each logged a traceback. Now each is answered within 3 s (the
    driver fails a test on a later answer) with "the database is unavailable", the outage is
    one log line, and play resumes when the server does, without restarting the bot."""
    bot = await start_bot(
        fake_discord, started, tmp_path / "unused.db", DATABASE_URL=own_postgres.url()
    )
    assert not (await challenge(fake_discord, "alice", "bob")).ephemeral
    frozen = own_postgres.stall()
    try:
        for challenger, opponent in (("carol", "dave"), ("dave", "carol"), ("bob", "carol")):
            started_at = time.monotonic()
            assert refused(await challenge(fake_discord, challenger, opponent))
            assert time.monotonic() - started_at < 3.0
    finally:
        own_postgres.resume(frozen)
    one_clear_error(bot, "the database is unavailable", "did not answer in time")
    assert bot.log_text().count("nothing is saved until it answers again") == 1
    assert bot.log_text().count("told user") == 3  # one line a click, no traceback
    deadline = time.monotonic() + 15
    while True:
        reply = await challenge(fake_discord, "carol", "dave")
        if not reply.ephemeral or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.5)
    assert not reply.ephemeral, reply.text
    bot.take_errors()


@pytest.mark.postgres
async def test_two_clicks_on_one_match_while_postgresql_is_stalled_are_both_answered_in_time(
    fake_discord, started, own_postgres, tmp_path
):
    """Two clicks on one match while the server is stalled: the second waited for the match's
    lock behind the first, then for the stalled server, and was answered after 3.004 s, which
    Discord refuses ("The application did not respond"). Now a click that has not been
    answered by the time it could miss the deadline is acknowledged first, and its answer
    follows: both are answered within 3 s (the driver fails a test on a later answer), and
    neither is told its move was taken."""
    bot = await start_bot(
        fake_discord, started, tmp_path / "unused.db", DATABASE_URL=own_postgres.url()
    )
    users = fake_discord.fixtures.users
    general = fake_discord.fixtures.general
    driver = DiscordDriver(fake_discord, general)
    await driver.click(await challenge(fake_discord, "alice", "bob"), "Accept", user=users["bob"])
    thread = await driver.wait_for_thread(general)
    turn = await driver.wait_for_message(thread, lambda m: bool(m.buttons))
    choices = turn.button_labels[:2]  # the suggested move and another: both take the lock
    frozen = own_postgres.stall()
    try:
        replies = await asyncio.gather(
            *(
                driver.click(turn, label, user=users[name], settle=False)
                for label, name in zip(choices, ("alice", "bob"), strict=True)
            )
        )
    finally:
        own_postgres.resume(frozen)
    for reply in replies:
        # refused before its save, or (a click whose save the stall caught: on a busy machine
        # the stall reaches the server's processes one by one) honestly unsure of it
        assert reply.ephemeral and (refused(reply) or MAYBE_SAVED in reply.text), reply.text
    deadline = time.monotonic() + 15
    while True:  # and play resumes when the server does
        reply = await challenge(fake_discord, "carol", "dave")
        if not reply.ephemeral or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.5)
    assert not reply.ephemeral, reply.text
    bot.take_errors()


@pytest.fixture
def failing_disk(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A small ext4 filesystem (a loop device) mounted with errors=remount-ro, as most Linux
    root filesystems are, where the machine lets the test make one (root, mkfs.ext4, loop
    devices): its folder, and the file that makes the kernel record an error on it (ext4's
    trigger_fs_error, which remounts it read-only as a disk error would)."""
    if os.geteuid() != 0 or shutil.which("mkfs.ext4") is None:
        pytest.skip("a loop-mounted ext4 filesystem needs root and mkfs.ext4")
    image, folder = tmp_path / "disk.img", tmp_path / "ext4"
    folder.mkdir()
    with open(image, "wb") as out:
        out.truncate(32 << 20)
    made = subprocess.run(["mkfs.ext4", "-q", str(image)], capture_output=True, text=True)
    mounted = subprocess.run(
        ["mount", "-o", "loop,errors=remount-ro", str(image), str(folder)],
        capture_output=True,
        text=True,
    )
    if made.returncode or mounted.returncode:
        pytest.skip(f"cannot mount a loop device here: {made.stderr}{mounted.stderr}".strip())
    found = subprocess.run(
        ["findmnt", "-n", "-o", "SOURCE", str(folder)], capture_output=True, text=True
    )
    trigger = Path("/sys/fs/ext4") / Path(found.stdout.strip()).name / "trigger_fs_error"
    try:
        if not trigger.exists():
            pytest.skip(f"this kernel has no {trigger}")
        yield folder, trigger
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


async def test_a_filesystem_remounted_read_only_under_the_bot_refuses_moves_and_the_bot_lives(
    fake_discord, started, failing_disk
):
    """SQLite's files made read-only under the running bot, as the kernel does to a filesystem
    mounted errors=remount-ro after a disk error (chmod does not stop root, and an ordinary
    remount is refused while the bot holds its files open): the next click was said to kill
    the bot with SIGBUS (exit -7, no log line); not seen here. The player is told nothing
    changed, the log says once that the database cannot write (SQLite's disk I/O error: ext4's
    emergency read-only state is not one statvfs reports), and the bot lives."""
    folder, trigger = failing_disk
    # its log elsewhere, as a journal or a container's output is
    bot = await start_bot(fake_discord, started, folder / "ballcourt.db", folder.parent / "bot.log")
    assert not (await challenge(fake_discord, "alice", "bob")).ephemeral
    trigger.write_text("the test's disk error\n")
    assert refused(await challenge(fake_discord, "carol", "dave"))
    assert refused(await challenge(fake_discord, "dave", "alice"))
    assert bot.running, bot.log_tail()
    one_clear_error(bot, "the database is unavailable", "disk I/O error")
    await asyncio.to_thread(bot.stop)
    assert bot.process is not None and bot.process.returncode == 0, bot.log_tail()
