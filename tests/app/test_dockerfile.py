"""The image has everything the bot reads at run time. No Docker engine runs on these machines,
so the Dockerfile is checked as text: every module the running bot imports, the game content it
loads, the fonts it draws with and the rules pages it shows must be COPY'd into the image."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import bot as bot_module

ROOT = Path(bot_module.__file__).resolve().parent


def copied_paths() -> set[str]:
    """The repository paths the Dockerfile copies (COPY src... dest)."""
    copied: set[str] = set()
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        match = re.match(r"^\s*COPY\s+(?!--from)(.+)$", line)
        if match:
            *sources, _dest = match.group(1).split()
            copied.update(source.rstrip("/") for source in sources)
    return copied


# The bot's modules, loaded in a fresh interpreter: this test process holds whatever earlier
# tests imported (the benchmarks' modules among them), which the bot never loads.
LOADED = """
import sys
from pathlib import Path
import bot
for extension in bot.discover_extensions():
    __import__(extension)
root = Path(bot.__file__).resolve().parent
for module in list(sys.modules.values()):
    file = getattr(module, "__file__", None)
    if file and Path(file).resolve().is_relative_to(root):
        print(Path(file).resolve().relative_to(root).parts[0])
"""


def test_every_module_the_running_bot_imports_is_in_the_image():
    printed = subprocess.run(
        [sys.executable, "-c", LOADED], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    ours = {part for part in printed if part != ".venv"}
    assert ours, "the bot's own modules were found"
    assert ours <= copied_paths(), ours - copied_paths()


def test_the_content_fonts_and_rules_pages_the_bot_reads_are_in_the_image():
    copied = copied_paths()
    read_at_run_time = {"data", "render"}  # game content; render/fonts
    sources = "\n".join(
        p.read_text() for folder in ("cogs", "host", "ui") for p in (ROOT / folder).rglob("*.py")
    )
    if "docs/rules" in sources or '"docs"' in sources:
        read_at_run_time.add("docs")
    assert read_at_run_time <= copied, read_at_run_time - copied
    assert any((ROOT / "render" / "fonts").glob("*.ttf"))
