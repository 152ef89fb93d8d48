"""The architecture as the imports show it (README "How it is built", docs/architecture.md):
imports point one way, cogs → host, ui → rules, render, db; render → rules; rules → nothing of
ours; the Discord layer reads a game's engine through its package face (`from rules.GAME import
...`), never its inner modules; nothing but the sandbox and the tests knows the fake Discord."""

from __future__ import annotations

import ast
import functools
import gc
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


@functools.cache
def every_import(layer: str) -> tuple[tuple[str, int, str], ...]:
    """(file, line, module) of every import a layer's package makes when it runs, its files
    parsed once for every test that asks."""
    found = []
    for path, tree in parsed(sorted((ROOT / layer).rglob("*.py"))):
        for node in run_time_nodes(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            found += [(str(path.relative_to(ROOT)), node.lineno, module) for module in modules]
    return tuple(found)


def imports(layer: str, ours: tuple[str, ...] = OURS) -> list[tuple[str, int, str]]:
    """(file, line, module) of every import (of `ours`, by default the project's own) a layer's
    package makes when it runs."""
    return [found for found in every_import(layer) if found[2].split(".")[0] in ours]


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
