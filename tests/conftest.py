"""Shared by every test directory.

hypothesis is imported here, at collection, while the process has one thread. Imported lazily at
the end of a run (its pytest plugin's summary), pytest's assertion rewriting parses its modules
while the e2e tests' fake-Discord threads may still be winding down, which trips a CPython 3.11
race in the AST constructor ("AST constructor recursion depth mismatch") and fails the run after
every test passed.

Python's bytecode for the processes the suite starts (bot.py, over a hundred times, the sandbox,
child pytests, the chaos run) is kept outside the repository, in one folder for every run
(`PYCACHE`): compiled once, each later start only loads it (about a second of CPU less per bot
start). A shell's PYTHONDONTWRITEBYTECODE would make every start compile the whole bot again.

A run fails on what it would otherwise only print: every warning is an error (pyproject.toml's
filterwarnings), and an asyncio task or future that ended in an exception nobody retrieved, or
was destroyed while pending, fails the test during which asyncio reported it (`leaked_tasks`):
such a task is work a player asked for that silently did not happen.

The PostgreSQL server is started here once per run, when the first test that needs
it asks (`postgres_server`, `postgres_url`, `database_target`), and stopped at the end.
"""

import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import hypothesis  # noqa: F401
import pytest

from db.connect import open_database
from tests.support.postgres_server import PostgresServer, find_binaries

POSTGRES_MISSING = (
    "PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin;"
    " apt-get install postgresql)"
)

PYCACHE = Path(tempfile.gettempdir()) / f"ballcourt-pycache-{os.getuid()}"
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
sys.dont_write_bytecode = False
sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]

# The database backends the db/ tests run against (tests/db/test_database.py, tests/host/test_timers.py).
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses the PostgreSQL server carries the `postgres` marker, so that
    `pytest -m postgres` runs exactly the tests that need it (and `-m "not postgres"` none).

    The chaos runs' module comes first (each run takes about 90 s, its file about 3 minutes),
    the rest in their order: `pytest -n N` spreads the files over workers in this order
    (`--dist loadfile --no-loadscope-reorder`), so the longest file starts at once instead of
    ending the run alone. (The README's test command runs it on its own, after the rest.)"""
    for item in items:
        needs_server = "postgres_server" in getattr(item, "fixturenames", ())
        if needs_server and item.get_closest_marker("postgres") is None:
            item.add_marker(pytest.mark.postgres)
    chaos = {item.path for item in items if item.get_closest_marker("chaos")}
    items.sort(key=lambda item: item.path not in chaos)  # stable: each file's order is kept


# What asyncio logs (at ERROR, from the event loop's default exception handler or a task's
# finaliser) when a task's exception was never retrieved or a pending task was destroyed.
LEAKS = (
    "Task exception was never retrieved",
    "Future exception was never retrieved",
    "Task was destroyed but it is pending",
)


class _LeakedTasks(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(LEAKS):
            self.seen.append(self.format(record))


_leaks = _LeakedTasks()
logging.getLogger("asyncio").addHandler(_leaks)


@pytest.fixture(autouse=True)
def leaked_tasks() -> Iterator[None]:
    """Fails the test if asyncio reported a leaked task or future while it ran (a finaliser may
    report one from an earlier test: the message's traceback names the code)."""
    yield
    if _leaks.seen:
        found, _leaks.seen[:] = list(_leaks.seen), []
        pytest.fail("asyncio reported a leaked task or future:\n" + "\n\n".join(found), False)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the whole run (tests/support/postgres_server.py). Without the
    binaries the tests that need it are skipped, except under CI=true, where they fail."""
    binaries = find_binaries()
    if binaries is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{POSTGRES_MISSING}; under CI the PostgreSQL tests must run", False)
        pytest.skip(POSTGRES_MISSING)
    server = PostgresServer(binaries)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty PostgreSQL database for one test."""
    return postgres_server.create_database()


@pytest.fixture(params=BACKENDS)
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """What Database.open gets, once per backend: a fresh SQLite file, then a fresh
    PostgreSQL database."""
    if request.param == "postgres":
        return request.getfixturevalue("postgres_url")
    return tmp_path / "test.db"


@pytest.fixture
async def db(database_target):
    """A migrated database, once per backend (`database_target`)."""
    database = await open_database(database_target)
    await database.migrate()
    yield database
    await database.close()
