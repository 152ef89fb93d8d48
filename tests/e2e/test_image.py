"""The bot run the way the Docker image runs it (tests/e2e/image.py: the Dockerfile's COPY
layout in a read-only app folder, a separate writable data folder for the /data volume, the
image's user uid 10001 and PID 1 of its own process namespace where this machine allows, the
Dockerfile's ENTRYPOINT, CMD and ENV): the sandbox, the database path, stopping at any moment,
Discord and PostgreSQL not there yet."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakediscord.botproc import REPO_ROOT, BotProcess
from fakediscord.server import FakeDiscord
from tests.e2e.image import ImageRoot, can_be_pid_one, can_switch_user
from tests.support.postgres_server import PostgresServer, find_binaries, free_port

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def image() -> Iterator[ImageRoot]:
    root = ImageRoot()
    yield root
    root.remove()


@pytest.fixture
def container_env(fake_discord: FakeDiscord, tmp_path) -> dict[str, str]:
    """What the operator passes with -e: the token, and (here) the fake Discord's address."""
    env = BotProcess(
        fake_discord, database_path=tmp_path / "x", log_path=tmp_path / "x"
    ).environment()
    return {
        key: env[key]
        for key in ("DISCORD_TOKEN", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "LOG_LEVEL")
    }


def wait_for(predicate, timeout: float, what: str, container=None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{what} within {timeout} s" + (f":\n{container.output}" if container else "")
            )
        if container is not None and container.process.poll() is not None:
            raise AssertionError(
                f"the container ended ({container.process.returncode}) before {what}:\n{container.output}"
            )
        time.sleep(0.02)


def listening(port: int) -> set[str]:
    """The local addresses something listens on at `port` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, _, hex_port = local.partition(":")
        if state == "0A" and int(hex_port, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def test_the_sandbox_runs_in_the_image_on_the_volume_and_listens_where_asked(image):
    """`docker run ballcourt python bot.py --sandbox` crashed with
    PermissionError on /app/sandbox-discord, and listened on 127.0.0.1 inside the container
    only, out of reach of `-p 8765:8765`."""
    port = free_port()
    container = image.start(
        ["python", "bot.py", "--sandbox", "--no-bot", "--port", str(port), "--host", "0.0.0.0"]
    )
    try:
        wait_for(
            lambda: "Ballcourt sandbox: open" in container.output,
            30,
            "the sandbox says where",
            container,
        )
        assert listening(port) == {"0.0.0.0"}
        assert "whoever reaches that port can use the page" in container.output
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        code, _took = container.stop()
        assert code == 0, container.output
        assert "Traceback" not in container.output
        assert (image.data / "sandbox" / "sandbox-discord" / "state.json").exists()
    finally:
        container.close()
    port = free_port()
    local = image.start(["python", "bot.py", "--sandbox", "--no-bot", "--port", str(port)])
    try:
        wait_for(
            lambda: "Ballcourt sandbox: open" in local.output, 30, "the sandbox says where", local
        )
        assert listening(port) == {"127.0.0.1"}  # unless asked, this machine only
        assert "whoever reaches" not in local.output
        assert local.stop()[0] == 0
    finally:
        local.close()


@pytest.mark.skipif(not can_switch_user(), reason="needs root to run as the image's user")
def test_a_database_path_the_bot_cannot_write_is_named_with_what_is_wrong(image, container_env):
    """`--env-file .env` with the old example's DATABASE_PATH=ballcourt.db
    put the database in the read-only /app, and a root-owned folder mounted at /data gave the
    same raw `sqlite3.OperationalError: unable to open database file` (exit 1, no path)."""
    container = image.start(env={**container_env, "DATABASE_PATH": "ballcourt.db"})
    code = container.wait(30)
    container.close()
    assert code == 2, container.output
    assert f"The database {image.app}/ballcourt.db cannot be opened" in container.output
    assert "not writable by the bot's user (uid 10001" in container.output
    assert "Traceback" not in container.output

    os.chown(image.data, 0, 0)  # a host folder of root's, mounted at /data
    try:
        container = image.start(env=container_env)
        code = container.wait(30)
        container.close()
    finally:
        image.give_data_to_the_image_user()
    assert code == 2, container.output
    assert f"The database {image.data}/ballcourt.db cannot be opened" in container.output
    assert "belongs to uid 0" in container.output
    assert "Traceback" not in container.output


@pytest.mark.skipif(not can_be_pid_one(), reason="needs unshare --pid (root) for PID 1's rules")
@pytest.mark.skipif(
    shutil.which("tini") is None and os.environ.get("CI") != "true",
    reason="tini is not installed (apt-get install tini)",
)
def test_a_stop_at_any_moment_of_start_up_ends_cleanly_within_a_second(
    image, container_env, fake_discord
):
    """SIGTERM 0.3-0.5 s after start exited 1 with a traceback ("Cannot
    operate on a closed database"), and in the first 0.15 s PID 1 ignored it, so `docker stop`
    waited its full 10 s and killed. Now, whenever it comes, the container ends within a
    second with no traceback: exit 0, or 143 (terminated by the signal) before the bot had
    begun anything."""
    results = []
    for delay in (0.0, 0.05, 0.15, 0.3, 0.45, 0.6, 0.8, 1.2, "ready"):
        identified = fake_discord.call_sync(lambda: fake_discord.identify_count)
        container = image.start(env=container_env)
        try:
            if delay == "ready":
                wait_for(
                    lambda before=identified: (
                        fake_discord.call_sync(lambda: fake_discord.identify_count) > before
                    ),
                    30,
                    "the bot connects",
                    container,
                )
                health = Path(image.environment()["HEALTH_FILE"])
                wait_for(health.exists, 10, "the bot marks itself healthy", container)
                checked = subprocess.run(
                    image.command(["python", "healthcheck.py"], pid_one=False)[-2:],
                    cwd=image.app,
                    env=image.environment(),
                    capture_output=True,
                    text=True,
                )
                assert checked.returncode == 0, checked.stdout + checked.stderr
                assert checked.stdout.startswith("connected to Discord, database answering")
            else:
                time.sleep(delay)
            code, took = container.stop(timeout=10)
            results.append((delay, code, round(took, 2)))
            assert code in (0, 143), (delay, code, container.output)
            assert took < 1.0, (delay, took, container.output)
            assert "Traceback" not in container.output, (delay, container.output)
        finally:
            container.close()
        # let the fake notice the session ended before the next start
        deadline = time.monotonic() + 5
        while (
            fake_discord.call_sync(lambda: fake_discord.bot_connected)
            and time.monotonic() < deadline
        ):
            time.sleep(0.02)
    assert results[-1][1] == 0, results  # a bot that ran stops with 0


def test_discord_unreachable_is_said_once_and_tried_again_until_it_answers(tmp_path):
    """With Discord unreachable (no network, a DNS failure) the bot ended in
    a raw aiohttp traceback, exit 1. It now says what it could not reach, keeps trying, and
    connects once Discord answers."""
    port = free_port()
    fake = FakeDiscord()
    fake.port = port  # the address it will have; nothing listens there yet
    process = BotProcess(fake, database_path=tmp_path / "b.db", log_path=tmp_path / "bot.log")
    log = open(tmp_path / "bot.log", "wb")  # noqa: SIM115
    bot = subprocess.Popen(
        [sys.executable, "bot.py"],
        cwd=REPO_ROOT,
        env=process.environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while "cannot reach Discord" not in (tmp_path / "bot.log").read_text():
            assert time.monotonic() < deadline and bot.poll() is None
            time.sleep(0.05)
        time.sleep(3)  # it tries again meanwhile, and says nothing more
        text = (tmp_path / "bot.log").read_text()
        assert bot.poll() is None, text
        assert text.count("cannot reach Discord at http://127.0.0.1:") == 1, text
        assert "Traceback" not in text
        fake.start(port=port)
        deadline = time.monotonic() + 30
        while not fake.call_sync(lambda: fake.identify_count) and time.monotonic() < deadline:
            time.sleep(0.05)
        text = (tmp_path / "bot.log").read_text()
        assert fake.call_sync(lambda: fake.identify_count) == 1, text
        assert "Discord answers again" in text
        bot.send_signal(signal.SIGTERM)
        assert bot.wait(10) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(5)
        log.close()
        fake.stop()
    assert "Traceback" not in (tmp_path / "bot.log").read_text()


@pytest.mark.postgres
def test_the_bot_waits_for_a_postgresql_server_that_starts_after_it(fake_discord, tmp_path):
    """Compose could start the bot before PostgreSQL listened; it failed
    with [Errno 111] and relied on the restart policy. Start-up now waits for the server (up to
    DATABASE_WAIT_SECONDS), says so once, and goes on when it answers."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed")
    server = PostgresServer(binaries)
    process = BotProcess(
        fake_discord,
        database_path=tmp_path / "unused.db",
        log_path=tmp_path / "bot.log",
        extra_env={"DATABASE_URL": server.url()},
    )
    failures: list[BaseException] = []

    def start_bot() -> None:
        try:
            process.start(timeout=90)
        except BaseException as error:
            failures.append(error)

    starting = threading.Thread(target=start_bot)
    starting.start()
    try:
        deadline = time.monotonic() + 60
        while "waiting up to 60 s for PostgreSQL" not in process.log_text():
            assert time.monotonic() < deadline and starting.is_alive(), process.log_text()
            time.sleep(0.05)
        server.start()  # the server comes up while the bot waits
        starting.join(90)
        assert not failures, failures
        log = process.log_text()
        assert (
            log.count("waiting up to 60 s for PostgreSQL at postgresql://postgres@127.0.0.1") == 1
        )
        assert "Traceback" not in log
        process.stop()
    finally:
        starting.join(90)
        server.stop()
