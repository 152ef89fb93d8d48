"""The image's and Compose's files, read as Docker and Compose read them (no Docker engine runs
on these machines; tests/e2e/test_image.py runs the bot the way the image does)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import yaml
from packaging.requirements import Requirement

import healthcheck
from config import load_config

ROOT = Path(__file__).resolve().parents[2]


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def dockerfile_env() -> dict[str, str]:
    """The ENV lines' settings (`ENV A=1 \\ B=2`)."""
    text = dockerfile().replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            env.update(re.findall(r"(\w+)=(\S+)", line))
    return env


def env_file(path: Path) -> dict[str, str]:
    """What `docker run --env-file` (and Compose's .env) take from a file: KEY=VALUE lines."""
    settings = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            settings[key.strip()] = value
    return settings


def compose(*, uncomment: bool = False) -> dict:
    text = (ROOT / "docker-compose.yml").read_text()
    if uncomment:  # the commented second shard process, as an operator would enable it
        text = re.sub(r"^  # ", "  ", text, flags=re.M)
    return yaml.safe_load(text)


# --- .dockerignore ------------------------------------------------------------------------------


def ignore_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    """(excluded, pattern) per line of .dockerignore, in Docker's rules: each pattern is matched
    from the context's root (Go's filepath.Match, plus ** for any number of folders), and
    a `!` line takes a path back in."""
    patterns = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        excluded = not line.startswith("!")
        line = line.lstrip("!").strip("/")
        regex = ""
        index = 0
        while index < len(line):
            if line.startswith("**/", index):
                regex += "(?:.*/)?"
                index += 3
            elif line.startswith("**", index):
                regex += ".*"
                index += 2
            elif line[index] == "*":
                regex += "[^/]*"
                index += 1
            elif line[index] == "?":
                regex += "[^/]"
                index += 1
            else:
                regex += re.escape(line[index])
                index += 1
        patterns.append((excluded, re.compile(regex + r"\Z")))
    return patterns


def ignored(path: str) -> bool:
    """Whether Docker leaves `path` out of the build context (a folder left out takes what is
    in it along)."""
    parts = path.split("/")
    patterns = ignore_patterns()
    for depth in range(1, len(parts) + 1):
        prefix = "/".join(parts[:depth])
        result = None
        for excluded, pattern in patterns:
            if pattern.match(prefix):
                result = excluded
        if result:
            return True
    return False


def test_dockerignore_leaves_out_caches_and_databases_in_every_folder():
    """.dockerignore matched top-level patterns only, so a nested
    __pycache__ or a database file in a subfolder went into the image."""
    for path in (
        "cogs/rocketball/__pycache__/adapter.cpython-311.pyc",
        "__pycache__/bot.cpython-311.pyc",
        "data/old.db",
        "data/old.db-wal",
        "backups/ballcourt.db",
        "sandbox-discord/state.json",
        ".env",
        "tests/app/test_image.py",
    ):
        assert ignored(path), path


def test_dockerignore_keeps_every_file_the_image_copies():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    copied = []
    for line in dockerfile().splitlines():
        if line.startswith("COPY "):
            copied += line.split()[1:-1]
    needed = [
        p for p in tracked if any(p == c or p.startswith(c.rstrip("/") + "/") for c in copied)
    ]
    assert len(needed) > 100
    assert [p for p in needed if ignored(p)] == []


# --- the Dockerfile -----------------------------------------------------------------------------


def test_the_base_image_is_the_tested_python_pinned_to_its_exact_version():
    """`python:3.11-slim` floated to whatever 3.11 was newest."""
    base = re.search(r"^FROM (\S+)", dockerfile(), re.M).group(1)
    version = ".".join(map(str, sys.version_info[:3]))
    assert base == f"python:{version}-slim-bookworm"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_closure() -> dict[str, str]:
    """Every distribution requirements.txt pulls in, with the version installed here."""
    todo = [
        Requirement(line.split("#")[0]).name
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    found: dict[str, str] = {}
    while todo:
        name = canonical(todo.pop())
        if name in found:
            continue
        distribution = metadata.distribution(name)
        found[name] = distribution.version
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


def test_every_indirect_dependency_is_pinned_to_the_tested_version():
    """The indirect dependencies (aiohttp, yarl, ...) floated. The image
    installs with constraints.txt, which pins each to the version these tests ran with."""
    pinned = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pinned[canonical(name)] = version.strip()
    assert pinned == runtime_closure()
    assert "-r requirements.txt -c constraints.txt" in dockerfile()
    assert re.search(r"^COPY requirements.txt constraints.txt ", dockerfile(), re.M)


def test_no_anonymous_volume_and_a_health_check_and_an_init():
    """`VOLUME /data` made an unused anonymous volume under Compose
    with PostgreSQL; there was no HEALTHCHECK; PID 1 was the bot itself, which ignores SIGTERM
    until its handler is installed."""
    text = dockerfile()
    assert not re.search(r"^VOLUME", text, re.M)
    assert re.search(r"^HEALTHCHECK .*\\\n\s+CMD \[\"python\", \"healthcheck.py\"\]", text, re.M)
    assert 'ENTRYPOINT ["/usr/bin/tini", "--"]' in text
    assert re.search(r"^COPY bot.py config.py healthcheck.py ", text, re.M)


def test_the_health_check_follows_the_age_of_the_file_the_bot_touches(tmp_path):
    path = tmp_path / "health"
    assert healthcheck.check({}) == (
        False,
        "HEALTH_FILE is not set, so the bot keeps no health file",
    )
    assert not healthcheck.check({"HEALTH_FILE": str(path)})[0]
    path.write_text("1\n")
    now = path.stat().st_mtime
    assert healthcheck.check({"HEALTH_FILE": str(path)}, now + 5)[0]
    healthy, why = healthcheck.check({"HEALTH_FILE": str(path)}, now + 120)
    assert not healthy and "120 s ago" in why


# --- settings: .env.example with the image, Compose ---------------------------------------------


def test_the_example_env_file_keeps_the_images_database_path(tmp_path):
    """`docker run --env-file .env` with the example's
    DATABASE_PATH=ballcourt.db put the database in the read-only /app."""
    environ = {**dockerfile_env(), **env_file(ROOT / ".env.example"), "DISCORD_TOKEN": "t"}
    assert "DATABASE_PATH" not in env_file(ROOT / ".env.example")
    config = load_config(environ, base_dir=Path("/app"))
    assert config.database_path == Path("/data/ballcourt.db")


def test_every_setting_compose_requires_is_in_the_example():
    """Compose requires POSTGRES_PASSWORD, which .env.example did not have."""
    text = (ROOT / "docker-compose.yml").read_text()
    required = set(re.findall(r"\$\{(\w+):\?", text))
    assert {"DISCORD_TOKEN", "POSTGRES_PASSWORD"} <= required
    assert required <= set(env_file(ROOT / ".env.example"))


def test_compose_waits_for_postgresql_on_its_network_address():
    """`pg_isready` without -h answered on the local socket while a fresh
    volume was still being initialised, so the bot started before the server listened."""
    check = " ".join(compose()["services"]["db"]["healthcheck"]["test"])
    assert re.search(r"pg_isready -h \S+", check)
    assert compose()["services"]["bot"]["depends_on"]["db"]["condition"] == "service_healthy"


def test_compose_keeps_the_password_out_of_the_url():
    """The password was pasted into DATABASE_URL, so a '/' in it crashed
    start-up and an '@' leaked part of it in the log."""
    environment = compose()["services"]["bot"]["environment"]
    assert "${" not in environment["DATABASE_URL"] and "@db:" in environment["DATABASE_URL"]
    assert environment["PGPASSWORD"].startswith("${POSTGRES_PASSWORD")
    config = load_config(
        {"DISCORD_TOKEN": "t", "DATABASE_URL": environment["DATABASE_URL"]}, base_dir=ROOT
    )
    assert config.database_url == "postgresql://ballcourt@db:5432/ballcourt"


def test_the_second_shard_process_runs_the_same_image_without_building_it_again():
    """The service bot-2 had `build: .` of its own, a second identical image."""
    services = compose(uncomment=True)["services"]
    assert services["bot"]["build"] == "."
    assert "build" not in services["bot-2"]
    assert services["bot-2"]["image"] == services["bot"]["image"]
    assert services["bot-2"]["environment"]["SHARD_IDS"] == "1"
    assert (
        services["bot-2"]["environment"]["PGPASSWORD"]
        == services["bot"]["environment"]["PGPASSWORD"]
    )
    assert "volumes" not in services["bot"]  # nothing at /data with PostgreSQL
