"""A throw-away PostgreSQL server for the test suite: Debian's own binaries (initdb, pg_ctl from
/usr/lib/postgresql/*/bin), a cluster in a temporary folder, listening on a free port of
127.0.0.1 only, trust authentication, stopped and deleted at the end.

initdb and the server refuse to run as root, so as root they run as the unprivileged user
`nobody` (runuser), which then owns the folder. For the tests durability is off (fsync, full
page writes, synchronous commit): the data lives as long as the test run.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

from bench.figures import Processes

UNPRIVILEGED_USER = "nobody"
SUPERUSER = "postgres"


def find_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder with initdb and pg_ctl, or None."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
    )
    for folder in reversed(candidates):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="ballcourt-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self._databases = 0

    def _run(self, *args: str) -> None:
        command = [str(self.binaries / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", UNPRIVILEGED_USER, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({result.returncode}):\n"
                f"{result.stdout}{result.stderr}{log}"
            )

    def start(self, *, durable: bool = False, settings: tuple[str, ...] = ()) -> None:
        """initdb and start. `durable`: PostgreSQL's default flushing to disk at every commit
        (benchmarks); otherwise fsync, full page writes and synchronous commit are off (tests).
        `settings`: more server settings, "name=value" each (a benchmark's statistics)."""
        if os.geteuid() == 0:
            shutil.chown(self.folder, UNPRIVILEGED_USER)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--no-locale",
            "--encoding=UTF8",
            "--no-sync",
        )
        options = [
            f"-p {self.port}",
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.folder}",
            "-c max_connections=200",
            "-c timezone=UTC",
        ]
        if not durable:
            options += ["-c fsync=off", "-c full_page_writes=off", "-c synchronous_commit=off"]
        options += [f"-c {setting}" for setting in settings]
        self._options = " ".join(options)
        self.start_again()

    # Faults (tests/db/postgres/test_faults.py): a test that uses these has a server of its own.

    def start_again(self) -> None:
        """Start the (stopped) server on its data folder and port."""
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self._options, "-w", "start"
        )

    def shut_down(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data: `fast` ends every session (as a restart does),
        `immediate` is a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def processes(self) -> list[int]:
        """The postmaster's pid and its children's (the sessions, the background workers)."""
        postmaster = self.postmaster()
        return [postmaster, *self._children(postmaster)]

    def postmaster(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    @staticmethod
    def _children(postmaster: int) -> list[int]:
        return Processes().children.get(postmaster, [])

    def stall(self) -> list[int]:
        """Freeze the whole server (SIGSTOP): connections stay open and nothing answers, as
        with a server stuck on a dead disk or a network that drops packets."""
        # The postmaster first, its children listed after: a session it forked between a
        # listing and its stop would go on answering (a click's transaction then got as far as
        # its COMMIT and was told "may have been saved" where the test meant a frozen server).
        postmaster = self.postmaster()
        os.kill(postmaster, signal.SIGSTOP)
        frozen = [postmaster]
        for pid in self._children(postmaster):
            # a session that ended since the listing is passed over: raising here would leave
            # the processes already frozen with nobody to resume them
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
                frozen.append(pid)
        return frozen

    def resume(self, frozen: list[int]) -> None:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        """Stop the server and delete it."""
        try:
            if self.data.exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = SUPERUSER) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; its URL."""
        self._databases += 1
        name = f"{prefix}_{self._databases}"
        command = [
            str(self.binaries / "psql"),
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            self.url(),
            "-c",
            f'CREATE DATABASE "{name}"',
        ]
        subprocess.run(command, check=True, capture_output=True, timeout=60)
        return self.url(name)
