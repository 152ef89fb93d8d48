"""From `python bot.py --sandbox` to the page answering (goal: under 3 s), and to the bot
connected and its commands synced (the page says "Ballcourt is online").

Each run starts a fresh sandbox (--reset) in a temporary folder on a free port, polls the page
every 10 ms, then stops it with Ctrl-C.

    .venv/bin/python bench/sandbox_startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url, timeout=1) as answer:
            return json.load(answer) if "state" in url else {"ok": answer.status == 200}
    except OSError:
        return None


def one_run(data: Path) -> tuple[float, float]:
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [
            sys.executable,
            "bot.py",
            "--sandbox",
            "--reset",
            "--port",
            str(port),
            "--data",
            str(data),
        ],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while answers(f"http://127.0.0.1:{port}/") is None:
            time.sleep(0.01)
        page = time.perf_counter() - started
        while True:
            state = answers(f"http://127.0.0.1:{port}/sandbox/state")
            if state and state["bot_connected"] and state["commands"]:
                break
            time.sleep(0.01)
        online = time.perf_counter() - started
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    return page, online


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    pages, onlines = [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            page, online = one_run(Path(folder))
            pages.append(page)
            onlines.append(online)
    print(f"python bot.py --sandbox, {args.runs} fresh starts on this machine:")
    print(
        f"  page answering:   median {statistics.median(pages):.2f} s, worst {max(pages):.2f} s"
        " (target < 3 s)"
    )
    print(
        f"  bot online:       median {statistics.median(onlines):.2f} s, worst {max(onlines):.2f} s"
    )


if __name__ == "__main__":
    main()
