"""The architecture as the imports show it (README "How it is built", docs/architecture.md):
imports point one way, cogs → bot → host, ui → rules, render, db; render → rules; rules →
nothing of ours; the Discord layer reads a game's engine through its package face (`from
rules.GAME import ...`), never its inner modules; nothing but the sandbox and the tests knows
the fake Discord. The type checker's imports (`if TYPE_CHECKING:`) point the same way, and no
files import each other in a circle, at run time or for the type checker."""

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
# What each layer may import of ours. bot.py loads the cogs by name (it imports none of them;
# a cog types its bot as bot.py's Ballcourt) and starts the sandbox (`--sandbox`).
ALLOWED = {
    "rules": {"rules", "data"},
    "render": {"rules", "render", "data"},
    "db": {"db", "rules", "config"},
    "ui": {"ui", "rules", "db", "render", "config"},
    "host": {"host", "ui", "rules", "render", "db", "config"},
    "bot": {"host", "ui", "rules", "db", "config", "fakediscord"},
    "cogs": {"cogs", "bot", "host", "ui", "rules", "render", "db", "config"},
    "fakediscord": {"fakediscord", "db"},
}
# No circle stands: anything (across packages, or inside one: the match host's parts are handed
# its core, host/base.py `Core`, and import nothing above them; Volleyball's buttons hand their
# clicks to the cog through a Protocol) is a new circle.
CIRCLES_INSIDE: tuple[str, ...] = ()
# Packages whose modules import only at their top (or under `if TYPE_CHECKING:`): an import
# inside a function is an arrow nobody reading the module's head sees, and in host/ such imports
# hid real circles.
TOP_IMPORTS_ONLY = ("host",)
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


def files_of(layer: str) -> list[Path]:
    """A layer's files: its package's, or the one module (bot.py) it is."""
    folder = ROOT / layer
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [ROOT / f"{layer}.py"]


def imports(
    layer: str, ours: tuple[str, ...] = OURS, *, type_checking: bool = False
) -> list[tuple[str, int, str]]:
    """(file, line, module) of every import (of `ours`, by default the project's own) a layer's
    package makes when it runs, and with `type_checking` also those the type checker reads."""
    found = []
    for path, tree in parsed(files_of(layer)):
        for node in ast.walk(tree) if type_checking else run_time_nodes(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                if module.split(".")[0] in ours:
                    found.append((str(path.relative_to(ROOT)), node.lineno, module))
    return found


def test_the_engines_and_their_command_line_load_no_pillow_until_frames_are_asked_for() -> None:
    """Loading every engine and the rules' command line (as `python -m rules verify` does)
    leaves Pillow unloaded: frames are render/'s command line's (`python -m render replay`)."""
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


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_the_type_checker_s_imports_point_the_same_way(layer: str) -> None:
    """An import under `if TYPE_CHECKING:` ties the files as much as one that runs: the type
    of the bot read from bot.py in host/ closed a circle through every cog (bot → cogs →
    host → bot)."""
    wrong = [
        f"{file}:{line} imports {module}"
        for file, line, module in imports(layer, type_checking=True)
        if module.split(".")[0] not in ALLOWED[layer]
    ]
    assert not wrong, "\n".join(wrong)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports: at run time, for the type
    checker, and inside functions. `from package import name` ties to the submodule `name`
    when there is one, else to the package's face (its __init__.py)."""
    paths = {module_name(path): path for layer in ALLOWED for path in files_of(layer)}
    paths |= {"config": ROOT / "config.py"}
    return {
        module_name(path): arrows(module_name(path), path, tree, set(paths))
        for path, tree in parsed(list(paths.values()))
    }


def arrows(module: str, path: Path, tree: ast.AST, modules: set[str]) -> set[str]:
    """The modules of `modules` that one module's imports name, wherever they stand (at run
    time, under `if TYPE_CHECKING:`, inside a function). A relative import (`from . import
    x`, `from .x import y`) is read from the package the file stands in."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(part for part in [*up, base] if part)
            named = [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
            targets = [name for name in named if name in modules] or [base]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # `import a.b.c`: the deepest module
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of two modules or more (Tarjan's algorithm,
    without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def test_circles_finds_a_loop_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": set(), "f": {"f"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_an_import_is_an_arrow_wherever_it_stands_and_however_it_is_written() -> None:
    """Relative imports, imports read only by the type checker and imports inside a function
    tie files as much as a plain import at the top: a circle closed by any of them is found."""
    code = """
from typing import TYPE_CHECKING
from . import pages
from .server import run
if TYPE_CHECKING:
    from db.postgres import Pool
def later():
    from ..parts import Part
    import host.match
"""
    modules = {"fake", "fake.parts", "fake.web", "fake.web.pages", "fake.web.server"}
    modules |= {"db", "db.postgres", "host.match"}
    seen = arrows("fake.web.routes", ROOT / "fake" / "web" / "routes.py", ast.parse(code), modules)
    assert seen == {"fake.web.pages", "fake.web.server", "db.postgres", "fake.parts", "host.match"}


def test_no_files_import_each_other_in_a_circle() -> None:
    """Not at run time, not for the type checker: a circle has no bottom to test or read
    first, and a change to any file of it may break any other. Those still standing stay
    inside their package (CIRCLES_INSIDE)."""
    wrong = [
        " → ".join(circle)
        for circle in circles(import_graph())
        if not any(all(inside(module, package) for module in circle) for package in CIRCLES_INSIDE)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("layer", TOP_IMPORTS_ONLY)
def test_a_module_imports_at_its_top_not_inside_a_function(layer: str) -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{inner.lineno} imports inside {node.name}()"
        for path, tree in parsed(files_of(layer))
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_match_host_s_modules_import_in_one_direction() -> None:
    """No circle inside host/ either: its parts take the core they are handed (host/base.py
    `Core`), the controls the Protocol of what they ask (host/components.py `Answers`), and
    what follows a post is a hook on the core, so nothing in host/ imports a module that
    imports it back, at run time or for the type checker."""
    wrong = [" → ".join(c) for c in circles(import_graph()) if any(inside(m, "host") for m in c)]
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


def test_the_engines_name_nothing_of_discord() -> None:
    """rules/ writes text for people, not for Discord: how a message is sized and packed
    (Discord's 2,000 characters a message, a code block closed at a cut) is the presenters'
    (ui.text `packed`), so an engine's text reads the same wherever it goes."""
    wrong = [
        f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')} names {name}"
        for path, tree in parsed(files_of("rules"))
        for node in ast.walk(tree)
        for name in [getattr(node, "id", None) or getattr(node, "name", None) or ""]
        if isinstance(name, str) and "discord" in name.lower()
    ]
    assert not wrong, "\n".join(wrong)
