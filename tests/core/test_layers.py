"""The architecture as the imports show it (README "How it is built", docs/architecture.md):
imports point one way, cogs → host, ui → rules, render, db; render → rules; rules → nothing of
ours; the Discord layer reads a game's engine through its package face (`from rules.GAME import
...`), never its inner modules; nothing but the sandbox and the tests knows the fake Discord."""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
from pathlib import Path

import pytest

from rules import games as registry

ROOT = Path(__file__).resolve().parents[2]
OURS = ("bot", "config", "cogs", "host", "ui", "rules", "render", "db", "data", "fakediscord")
# What each layer may import of ours.
ALLOWED = {
    "rules": {"rules", "data"},
    "render": {"rules", "render", "data"},
    "db": {"db", "rules", "config"},
    "ui": {"ui", "rules", "db", "render", "config"},
    "host": {"host", "ui", "rules", "render", "db", "config"},
    "cogs": {"cogs", "host", "ui", "rules", "render", "db", "config"},
}
GAMES = tuple(game.name for game in registry.GAMES)
# A command line is an entry point, not its layer's code: `python -m rules replay FILE --render
# DIR` draws frames with render/, importing it inside the function that needs it, so importing
# the engines (or `python -m rules verify`) never loads Pillow (checked below).
LAZY = {"rules/__main__.py": {"render"}}


def run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under `if TYPE_CHECKING:` (annotations only: the bot's type)."""
    found, pending = [], [tree]
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            pending += node.orelse
            continue
        pending += ast.iter_child_nodes(node)
    return found


def parsed(paths: list[Path]) -> list[tuple[Path, ast.Module]]:
    """The files parsed with the garbage collector held off: CPython 3.11's AST builder counts
    its own depth and, when a finalizer run by a collection in the middle of it (an asyncio
    task an earlier test left behind, logging its exception) leaves an error set, returns
    early and raises "SystemError: AST constructor recursion depth mismatch" whatever the file
    holds."""
    gc.collect()
    gc.disable()
    try:
        return [(path, ast.parse(path.read_text(), str(path))) for path in paths]
    finally:
        gc.enable()


def in_functions(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside a function's body (run when it is called, not on import)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside |= {id(child) for child in ast.walk(node) if child is not node}
    return inside


def imports(layer: str, ours: tuple[str, ...] = OURS) -> list[tuple[str, int, str]]:
    """(file, line, module) of every import (of `ours`, by default the project's own) a layer's
    package makes when it runs, but a command line's lazy import that LAZY allows."""
    found = []
    for path, tree in parsed(sorted((ROOT / layer).rglob("*.py"))):
        lazy = LAZY.get(str(path.relative_to(ROOT)), set())
        inside = in_functions(tree) if lazy else set()
        for node in run_time_nodes(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                if module.split(".")[0] in lazy and id(node) in inside:
                    continue
                if module.split(".")[0] in ours:
                    found.append((str(path.relative_to(ROOT)), node.lineno, module))
    return found


def test_the_engines_and_their_command_line_load_no_pillow_until_frames_are_asked_for() -> None:
    """LAZY's allowance holds only while the import stays where it is lazy: loading every
    engine and the command line (as `python -m rules verify` does) leaves Pillow unloaded."""
    engines = "".join(f"import rules.{game}; " for game in GAMES)
    code = f"import sys, rules.__main__, rules.replay; {engines}print('PIL' in sys.modules)"
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert ran.stdout.strip() == "False"


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    wrong = [
        f"{file}:{line} imports {module}"
        for file, line, module in imports(layer)
        if module.split(".")[0] not in ALLOWED[layer]
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("layer", ["cogs", "host", "ui"])
def test_the_discord_layer_reads_an_engine_through_its_package_face(layer: str) -> None:
    wrong = [
        f"{file}:{line} imports {module}: use `from rules.{module.split('.')[1]} import ...`"
        for file, line, module in imports(layer)
        if module.startswith("rules.") and module.split(".")[1] in GAMES and module.count(".") > 1
    ]
    assert not wrong, "\n".join(wrong)


# What the pure layers may not touch: the engines know nothing of Discord, images, databases or
# the event loop (their dice are seeded, their clock is the caller's); images know no Discord.
FORBIDDEN = {
    "rules": ("discord", "PIL", "aiosqlite", "asyncpg", "asyncio", "sqlite3"),
    "render": ("discord", "aiosqlite", "asyncpg", "sqlite3"),
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_the_pure_layers_import_no_discord_database_or_event_loop(layer: str) -> None:
    wrong = [
        f"{file}:{line} imports {module}" for file, line, module in imports(layer, FORBIDDEN[layer])
    ]
    assert not wrong, "\n".join(wrong)
