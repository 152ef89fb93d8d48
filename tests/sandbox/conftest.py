"""Fixtures for the sandbox tests: `python bot.py --sandbox` as a subprocess, and a real headless
Chromium (Debian's, driven by Playwright) that may talk to 127.0.0.1 only.

Without Chromium (or Playwright) the browser tests are skipped with a one-line reason on a
developer's machine; under CI=true that is a failure (.ci/run installs Chromium).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SandboxProcess:
    """`python bot.py --sandbox` on a free port with its own data folder."""

    def __init__(self, data: Path, *, extra_args: tuple[str, ...] = (), env: dict | None = None):
        self.data = data
        self.port = free_port()
        self.extra_args = extra_args
        self.env = {**os.environ, "GAME_SEED": "20261123", **(env or {})}
        self.process: subprocess.Popen[str] | None = None
        self.first_line = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait_for_bot: bool = True) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "bot.py",
                "--sandbox",
                "--port",
                str(self.port),
                "--data",
                str(self.data),
                *self.extra_args,
            ],
            cwd=REPO_ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        self.first_line = self.process.stdout.readline().strip()
        if wait_for_bot:
            self.wait_for_bot()

    def state(self, user: str | int = "") -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}/sandbox/state?user={user}", timeout=5) as answer:
            return json.load(answer)

    def wait_for_bot(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                state = self.state()
                if state["bot_connected"] and state["commands"]:
                    return
            except OSError:
                pass
            assert self.process is not None and self.process.poll() is None, self.bot_log()
            time.sleep(0.1)
        raise AssertionError("the sandbox's bot did not connect:\n" + self.bot_log())

    def bot_log(self) -> str:
        log = self.data / "sandbox-discord" / "bot.log"
        return log.read_text(errors="replace")[-4000:] if log.exists() else "(no bot log)"

    def stop(self) -> str:
        """Ctrl-C, as a user stops it; returns what it printed after the URL line."""
        if self.process is None:
            return ""
        self.process.send_signal(signal.SIGINT)
        try:
            out, _ = self.process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, _ = self.process.communicate()
            raise AssertionError("the sandbox did not stop on Ctrl-C") from None
        return out

    def user_id(self, name: str) -> str:
        return next(m["id"] for m in self.state()["members"] if m["username"] == name)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxProcess]:
    process = SandboxProcess(tmp_path_factory.mktemp("sandbox"))
    process.start()
    yield process
    process.stop()


def find_chromium() -> str | None:
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def browser_or_skip() -> str:
    """The Chromium to drive, or skip (fail under CI=true) with a one-line reason."""
    reason = None
    chromium = find_chromium()
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        reason = "Playwright is not installed (pip install -r requirements-dev.txt)"
    if chromium is None:
        reason = "no Chromium (Debian: apt-get install chromium)"
    if reason is None:
        assert chromium is not None
        return chromium
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests need a browser under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium_path() -> str:
    return browser_or_skip()


@contextmanager
def local_page(chromium_path: str, profile: Path, url: str, **context: Any) -> Iterator[Any]:
    """A headless Chromium (Debian's, through Playwright) on `url`, with a fresh profile folder
    and `context` (viewport, time zone...), that may reach 127.0.0.1 only: any other request
    fails the test, as does a JavaScript error on the page."""
    from playwright.sync_api import sync_playwright  # only where a browser runs

    outside: list[str] = []
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(profile),  # a fresh --user-data-dir
            executable_path=chromium_path,
            headless=True,
            args=CHROMIUM_FLAGS,
            **context,
        )

        def only_local(route, request) -> None:
            if urlparse(request.url).hostname == "127.0.0.1" or request.url.startswith("data:"):
                route.continue_()
            else:
                outside.append(request.url)
                route.abort()

        browser.route("**/*", only_local)
        page = browser.pages[0] if browser.pages else browser.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        yield page
        browser.close()
    assert not outside, f"the page tried to reach beyond 127.0.0.1: {outside}"
    assert not errors, f"the page's JavaScript failed: {errors}"


@pytest.fixture(scope="module")
def page(chromium_path: str, sandbox: SandboxProcess, tmp_path_factory) -> Iterator[Any]:
    """The sandbox's page in Chromium, 1280 px wide (`local_page`)."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with local_page(
        chromium_path, profile, sandbox.url, viewport={"width": 1280, "height": 900}
    ) as page:
        yield page
