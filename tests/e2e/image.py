"""The Docker image, emulated on a machine without a Docker engine (tests/e2e/test_image.py).

`ImageRoot` lays out what the Dockerfile builds: the folders and files its COPY lines name, in an
app folder that is read-only (as root's files are to the image's user), a separate writable data
folder standing for the /data volume, the Dockerfile's ENV with /data and /tmp pointing there.
`command()` runs ENTRYPOINT + CMD (or the given command) the way `docker run` does: as the
image's user, uid 10001 (where this machine lets the tests switch users: as root), and as PID 1
of its own process namespace (`unshare --pid`, where allowed), so that PID 1's signal rules
apply: a signal without a handler is ignored by PID 1, which is what made `docker stop` wait.
A process of the image's user cannot start this machine's Python (it lives under /root), so
the sandbox runs here without its bot (--no-bot): its data folder and address are what is
tested.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMAGE_UID = 10001


def can_switch_user() -> bool:
    return os.geteuid() == 0 and shutil.which("setpriv") is not None


def can_be_pid_one() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--pid", "--fork", "--", "true"], capture_output=True, timeout=10
    )
    return probe.returncode == 0


def dockerfile_lines() -> list[str]:
    return (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()


def exec_form(name: str) -> list[str]:
    """ENTRYPOINT or CMD as a list (exec form), [] when the Dockerfile has none."""
    for line in dockerfile_lines():
        if line.startswith(f"{name} "):
            return re.findall(r'"([^"]*)"', line)
    return []


class ImageRoot:
    """The image's files and volume in a temporary folder (see the module)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ballcourt-image-"))
        self.folder.chmod(0o755)
        self.app = self.folder / "app"
        self.data = self.folder / "data"
        self.tmp = self.folder / "tmp"
        self.app.mkdir()
        for line in dockerfile_lines():
            if line.startswith("COPY "):
                for source in line.split()[1:-1]:
                    origin = ROOT / source
                    if origin.is_dir():
                        shutil.copytree(
                            origin,
                            self.app / source,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                        )
                    else:
                        shutil.copy2(origin, self.app / source)
        for path in [self.app, *self.app.rglob("*")]:
            mode = path.stat().st_mode
            path.chmod((mode | 0o444 | (0o111 if path.is_dir() else 0)) & ~0o222)
        self.tmp.mkdir(mode=0o1777)
        self.tmp.chmod(0o1777)
        self.data.mkdir()
        self.give_data_to_the_image_user()

    def give_data_to_the_image_user(self) -> None:
        if can_switch_user():
            os.chown(self.data, IMAGE_UID, IMAGE_UID)
        self.data.chmod(0o755)

    def environment(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The Dockerfile's ENV (paths under /data and /tmp moved to the emulated folders),
        then `extra` as `docker run -e` / `--env-file` give it."""
        env = {
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "HOME": str(self.tmp),
            "LANG": "C.UTF-8",
        }
        for line in dockerfile_lines():
            if line.startswith("ENV "):
                for key, value in re.findall(r"(\w+)=(\S+)", line):
                    env[key] = self.path(value)
        env.update(extra or {})
        return env

    def path(self, value: str) -> str:
        """An image path (/data/..., /tmp/...) in the emulation."""
        for image_path, here in (("/data", self.data), ("/tmp", self.tmp), ("/app", self.app)):
            if value == image_path or value.startswith(image_path + "/"):
                return str(here) + value[len(image_path) :]
        return value

    def command(self, command: list[str] | None = None, *, pid_one: bool = True) -> list[str]:
        """ENTRYPOINT + (command or CMD), with `python` the test suite's interpreter, run as the
        image's user and as PID 1 where this machine allows."""
        program = [
            sys.executable if part == "python" else part for part in command or exec_form("CMD")
        ]
        if can_switch_user():
            # The user switch comes right before the bot: this machine's Python lives under
            # /root, which a process of another user may not open, but setpriv's own exec of it
            # works. So here the init (tini) runs as root while the bot runs as uid 10001.
            program = [
                "setpriv",
                f"--reuid={IMAGE_UID}",
                f"--regid={IMAGE_UID}",
                "--clear-groups",
                "--",
                *program,
            ]
        argv = [*exec_form("ENTRYPOINT"), *program]
        if pid_one and can_be_pid_one():
            argv = ["unshare", "--pid", "--fork", "--kill-child", "--", *argv]
        return argv

    def start(
        self, command: list[str] | None = None, env: dict[str, str] | None = None
    ) -> Container:
        return Container(self, command, env)

    def remove(self) -> None:
        for path in [self.app, *self.app.rglob("*")]:
            if path.is_dir():
                path.chmod(path.stat().st_mode | stat.S_IWUSR)
        shutil.rmtree(self.folder, ignore_errors=True)


class Container:
    """One `docker run` of the image: its output in a file, `stop()` as `docker stop` does."""

    def __init__(self, image: ImageRoot, command: list[str] | None, env: dict[str, str] | None):
        self.image = image
        self.output_path = image.tmp / f"run-{time.monotonic_ns()}.log"
        self._output = open(self.output_path, "wb")  # noqa: SIM115 - open while it runs
        self.argv = image.command(command)
        self.process = subprocess.Popen(
            self.argv,
            cwd=image.app,
            env=image.environment(env),
            stdout=self._output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.started_at = time.monotonic()

    def pid_one(self) -> int:
        """The host pid of the container's PID 1 (unshare's child) once it runs the image's
        program (as `docker run` hands over a started container), or the process itself."""
        if self.argv[0] != "unshare":
            return self.process.pid
        program = Path(self.argv[self.argv.index("--") + 1]).name[:15]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                found = children.read_text().split()
                if found and self._settled(int(found[0]), program):
                    return int(found[0])
            except OSError:
                pass
            time.sleep(0.001)
        raise AssertionError("the container's PID 1 did not start")

    @staticmethod
    def _settled(pid: int, program: str) -> bool:
        """PID 1 runs `program` and has taken its signals in hand: an init has started its
        child (it blocks its signals first thing), an interpreter catches some (within
        milliseconds)."""
        if Path(f"/proc/{pid}/comm").read_text().strip() != program:
            return False
        if Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            return True
        status = Path(f"/proc/{pid}/status").read_text()
        masks = dict(line.split(":\t") for line in status.splitlines() if line.startswith("Sig"))
        return int(masks["SigBlk"], 16) != 0 or int(masks["SigCgt"], 16) != 0

    def signal(self, signum: int = signal.SIGTERM) -> None:
        os.kill(self.pid_one(), signum)

    def wait(self, timeout: float) -> int | None:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout: float = 10.0) -> tuple[int | None, float]:
        """SIGTERM to PID 1, then (as docker stop) SIGKILL after `timeout`: (exit code or None
        if it had to be killed, seconds it took)."""
        sent = time.monotonic()
        self.signal(signal.SIGTERM)
        code = self.wait(timeout)
        took = time.monotonic() - sent
        if code is None:
            self.kill()
        return code, took

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)

    @property
    def output(self) -> str:
        if not self._output.closed:
            self._output.flush()
        return self.output_path.read_text(errors="replace")

    def close(self) -> None:
        self.kill()
        self._output.close()

    def __repr__(self) -> str:
        return f"<container {shlex.join(self.argv)}>"
