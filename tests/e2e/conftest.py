"""Fixtures for end-to-end tests: a fake Discord, the real bot, and the driver.

One fake Discord and one bot process per test module (starting the bot takes about a second);
a module picks extra extensions or environment by overriding ``bot_extensions`` / ``bot_env``.
The bot stores on SQLite; a test marked ``both_backends`` (or every test of a module whose
``pytestmark`` has it) runs once on SQLite and once on PostgreSQL (``database_backend``), each
run with its own fake Discord and bot. Under CI=true a PostgreSQL run fails where PostgreSQL is
missing (tests/conftest.py ``postgres_server``), elsewhere it is skipped.
After every test, any rule the bot broke that the test did not take (``discord.take_violations``)
and any error the bot logged that the test did not take (``bot.take_errors``) fail the test.
See tests/README.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from inspect import isfunction
from typing import Any

import pytest

from fakediscord.botproc import BotProcess
from fakediscord.clock import CLOCK
from fakediscord.driver import DiscordDriver
from fakediscord.model import Channel, User
from fakediscord.server import FakeDiscord
from tests.support.postgres_server import PostgresServer

PLAYER_NAMES = ("alice", "bob", "carol", "dave")
BOTH_BACKENDS = "both_backends"


def pytest_configure(config: pytest.Config) -> None:
    # aiohttp's multipart reader (the fake reads discord.py's uploads with it) warns about its
    # own internal use of a deprecated call; nothing a test can act on
    config.addinivalue_line(
        "filterwarnings", "ignore:unread_data:DeprecationWarning:aiohttp.multipart"
    )


def _runs_on_both(obj: Any) -> bool:
    marks = getattr(obj, "pytestmark", [])
    marks = marks if isinstance(marks, list) else [marks]
    return any(mark.name == BOTH_BACKENDS for mark in marks)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """In a module where some test is marked `both_backends`, every test gets a backend: SQLite,
    and PostgreSQL too for the marked ones. The module's tests run in their order on SQLite, then
    the marked ones again in their order on PostgreSQL (the backend is a module-scoped parameter,
    so pytest groups the tests by it); a test that builds on an earlier one keeps it before it on
    both. Every test of such a module gets the parameter, so its SQLite tests share one bot."""
    if "database_backend" not in metafunc.fixturenames:
        return
    module = metafunc.module
    tests = [
        test for name, test in vars(module).items() if name.startswith("test") and isfunction(test)
    ]
    if not (_runs_on_both(module) or any(_runs_on_both(test) for test in tests)):
        return
    backends: list[Any] = ["sqlite"]
    if metafunc.definition.get_closest_marker(BOTH_BACKENDS) is not None:
        backends.append(pytest.param("postgres", marks=pytest.mark.postgres))
    metafunc.parametrize("database_backend", backends, indirect=True, scope="module")


class Fixtures:
    """What a module's fake Discord was set up with (users and channels by name)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.users = {name: fake.add_user(name) for name in PLAYER_NAMES}
        self.general = fake.add_channel("general")
        self.games = fake.add_channel("games")


def fake_with_rooms(rooms: Iterable[str]) -> Iterator[FakeDiscord]:
    """For a module's `fake_discord` fixture: the usual fixtures plus a channel per name in
    `rooms` (`fake.rooms[name]`), started, and stopped after the module."""
    fake = FakeDiscord()
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.rooms = {name: fake.add_channel(name) for name in rooms}  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def database_backend(request: pytest.FixtureRequest) -> str:
    """Where the bot stores: "sqlite" (a fresh file), or "postgres" (a fresh database on the
    suite's PostgreSQL server) for a test marked `both_backends` on its second run
    (`pytest_generate_tests`). A module's `fake_discord` takes it, so each run has its own."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="module")
def fake_discord(database_backend: str) -> Iterator[FakeDiscord]:
    """The fake Discord server (127.0.0.1, random port), with alice, bob, carol and dave,
    the guild owner, and the channels #general and #games; one per backend."""
    fake = FakeDiscord()
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module", autouse=True)
def fake_clock_put_back(database_backend: str) -> Iterator[None]:
    """A module that moved the fake's clock (`discord.pass_time`) leaves it where it found it
    (after each backend's run): the clock is the process's, shared by every module's fake."""
    offset = CLOCK.offset
    yield
    CLOCK.offset = offset


@pytest.fixture(scope="module")
def bot_extensions() -> list[str]:
    """Extension modules loaded on top of the bot's own (EXTRA_EXTENSIONS); override in a
    test module to load a test-only cog."""
    return []


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    """Extra environment for bot.py; override in a test module."""
    return {}


@pytest.fixture(scope="module")
def bot_sync_to_guild() -> bool:
    """False: the bot syncs its commands globally (production); True: to the test guild
    (DEV_GUILD_ID), where they do not exist in DMs. Override in a test module."""
    return False


@pytest.fixture(scope="module")
def bot(
    request: pytest.FixtureRequest,
    fake_discord: FakeDiscord,
    tmp_path_factory: pytest.TempPathFactory,
    bot_extensions: list[str],
    bot_env: dict[str, str],
    bot_sync_to_guild: bool,
    database_backend: str,
) -> Iterator[BotProcess]:
    """bot.py running against the fake Discord, on a fresh database of its backend."""
    folder = tmp_path_factory.mktemp("bot")
    if database_backend == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        name = request.module.__name__.rsplit(".", 1)[-1]
        bot_env = {**bot_env, "DATABASE_URL": server.create_database(name)}
    process = BotProcess(
        fake_discord,
        database_path=folder / "ballcourt.db",
        log_path=folder / "bot.log",
        extra_extensions=bot_extensions,
        owner_ids=[fake_discord.owner.id],
        dev_guild=bot_sync_to_guild,
        extra_env=bot_env,
    )
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def discord(fake_discord: FakeDiscord, bot: BotProcess) -> DiscordDriver:
    """The driver: act as users, read what they see. Starts the bot."""
    return DiscordDriver(fake_discord, fake_discord.fixtures.general)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def alice(fake_discord: FakeDiscord) -> User:
    return fake_discord.fixtures.users["alice"]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def bob(fake_discord: FakeDiscord) -> User:
    return fake_discord.fixtures.users["bob"]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def carol(fake_discord: FakeDiscord) -> User:
    return fake_discord.fixtures.users["carol"]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def dave(fake_discord: FakeDiscord) -> User:
    return fake_discord.fixtures.users["dave"]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def owner(fake_discord: FakeDiscord) -> User:
    """The guild owner (all permissions), also the bot's OWNER_IDS."""
    return fake_discord.owner


@pytest.fixture(scope="module")
def general(fake_discord: FakeDiscord) -> Channel:
    return fake_discord.fixtures.general  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def channel(general: Channel) -> Channel:
    """#general, where commands run unless a test names another channel."""
    return general


@pytest.fixture(scope="module")
def games(fake_discord: FakeDiscord) -> Channel:
    return fake_discord.fixtures.games  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _discord_rules(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose bot broke Discord's rules or logged an error it did not expect."""
    yield
    problems = []
    if "fake_discord" in request.fixturenames:
        fake: FakeDiscord = request.getfixturevalue("fake_discord")

        def take() -> list:
            pending = [v for v in fake.violations if not v.consumed]
            for violation in pending:
                violation.consumed = True
            return pending

        if fake._loop is not None:
            problems += [f"Discord would refuse: {v}" for v in fake.call_sync(take)]
    if "bot" in request.fixturenames:
        process: BotProcess = request.getfixturevalue("bot")
        problems += [f"the bot logged an error:\n{record}" for record in process.take_errors()]
        if process.crashed:
            code = process.process.returncode if process.process else None
            problems.append(f"bot.py exited (code {code}) during the test:\n{process.log_tail()}")
            process.stop()
            process.start()  # so that one crash does not fail the rest of the module
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """On failure, show the end of the bot's log next to the test's output."""
    report = yield
    if report.failed and "bot" in getattr(item, "fixturenames", ()):
        process = item.funcargs.get("bot") if isinstance(item, pytest.Function) else None
        if isinstance(process, BotProcess):
            report.sections.append(("bot.py log (last 60 lines)", process.log_tail()))
    return report
