"""Configuration: a missing token is explained, defaults are sensible, bad values are named."""

from pathlib import Path

import pytest

import config
from config import NO_TOKEN_MESSAGE, ConfigError, drawing_workers, load_config

BASE = Path("/srv/ballcourt")


def test_missing_token_explains_how_to_get_one():
    with pytest.raises(ConfigError) as caught:
        load_config({}, base_dir=BASE)
    message = str(caught.value)
    assert message == NO_TOKEN_MESSAGE
    assert "discord.com/developers/applications" in message
    assert ".env" in message


def test_blank_token_counts_as_missing():
    with pytest.raises(ConfigError):
        load_config({"DISCORD_TOKEN": "   "}, base_dir=BASE)


def test_defaults():
    config = load_config({"DISCORD_TOKEN": "abc"}, base_dir=BASE)
    assert config.database_path == BASE / "ballcourt.db"
    assert config.log_level == "INFO"
    assert config.dev_guild_id is None
    assert config.owner_ids == frozenset()
    assert config.api_base is None and config.gateway_url is None
    assert config.extra_extensions == ()


def test_every_setting_is_read():
    config = load_config(
        {
            "DISCORD_TOKEN": "abc",
            "DATABASE_PATH": "/data/bc.db",
            "LOG_LEVEL": "debug",
            "DEV_GUILD_ID": "123",
            "OWNER_IDS": "1, 2",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
            "EXTRA_EXTENSIONS": "tests.e2e.x, tests.e2e.y",
            "GAME_SEED": "42",
        },
        base_dir=BASE,
    )
    assert config.database_path == Path("/data/bc.db")
    assert config.log_level == "DEBUG"
    assert config.dev_guild_id == 123
    assert config.owner_ids == {1, 2}
    assert config.api_base == "http://127.0.0.1:9/api/v10"
    assert config.extra_extensions == ("tests.e2e.x", "tests.e2e.y")
    assert config.game_seed == 42


def test_relative_database_path_is_next_to_the_bot():
    config = load_config({"DISCORD_TOKEN": "abc", "DATABASE_PATH": "x/y.db"}, base_dir=BASE)
    assert config.database_path == BASE / "x/y.db"


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("DEV_GUILD_ID", "my-server", "DEV_GUILD_ID must be a Discord id"),
        ("OWNER_IDS", "1,bob", "OWNER_IDS must be a Discord id"),
        ("GAME_SEED", "lucky", "GAME_SEED must be a whole number"),
    ],
)
def test_malformed_settings_are_named(name, value, says):
    with pytest.raises(ConfigError, match=says):
        load_config({"DISCORD_TOKEN": "abc", name: value}, base_dir=BASE)


def test_the_token_never_appears_in_the_config_repr():
    config = load_config({"DISCORD_TOKEN": "very-secret-token"}, base_dir=BASE)
    assert "very-secret-token" not in repr(config)
    assert "very-secret-token" not in str(config)


def test_database_url_selects_postgresql_and_the_sqlite_file_stays_the_default():
    default = load_config({"DISCORD_TOKEN": "abc"}, base_dir=BASE)
    assert default.database_url is None
    assert default.database_target == BASE / "ballcourt.db"
    url = "postgresql://bot:s3cret@db.internal:5432/ballcourt"
    config = load_config({"DISCORD_TOKEN": "abc", "DATABASE_URL": f" {url} "}, base_dir=BASE)
    assert config.database_target == url
    assert "s3cret" not in repr(config)
    assert "postgresql://bot:***@db.internal:5432/ballcourt" in repr(config)


def test_a_database_url_that_is_not_postgresql_is_refused_without_its_password():
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL") as refused:
        load_config(
            {"DISCORD_TOKEN": "abc", "DATABASE_URL": "mysql://bot:s3cret@db/ballcourt"},
            base_dir=BASE,
        )
    assert "s3cret" not in str(refused.value)


def test_shards_are_unset_by_default_and_this_process_runs_shard_zero():
    config = load_config({"DISCORD_TOKEN": "abc"}, base_dir=BASE)
    assert (config.shard_count, config.shard_ids) == (None, None)
    assert config.runs_shard_zero


def test_shard_count_and_the_shards_this_process_runs():
    first = load_config(
        {"DISCORD_TOKEN": "abc", "SHARD_COUNT": "4", "SHARD_IDS": "1, 0"}, base_dir=BASE
    )
    assert (first.shard_count, first.shard_ids, first.runs_shard_zero) == (4, (0, 1), True)
    second = load_config(
        {"DISCORD_TOKEN": "abc", "SHARD_COUNT": "4", "SHARD_IDS": "2,3"}, base_dir=BASE
    )
    assert (second.shard_ids, second.runs_shard_zero) == ((2, 3), False)
    alone = load_config({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "2"}, base_dir=BASE)
    assert alone.shard_ids == (0, 1)


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("0", "", "SHARD_COUNT must be a whole number from 1 to 1024"),
        ("two", "", "SHARD_COUNT must be a whole number"),
        ("4", "4", "SHARD_IDS must be shard numbers from 0 to 3"),
        ("4", "0;1", "SHARD_IDS must be shard numbers"),
        ("", "0", "SHARD_IDS needs SHARD_COUNT"),
    ],
)
def test_malformed_shard_settings_are_named(count, ids, says):
    with pytest.raises(ConfigError, match=says):
        load_config({"DISCORD_TOKEN": "abc", "SHARD_COUNT": count, "SHARD_IDS": ids}, base_dir=BASE)


def test_running_the_bot_without_a_token_prints_the_how_to_and_exits(tmp_path):
    """The README's run command on a fresh machine with no token: a message, not a traceback."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env["DISCORD_TOKEN"] = ""  # set and empty: a developer's .env can't fill it in
    env["DATABASE_PATH"] = str(tmp_path / "never.db")
    finished = subprocess.run(
        [sys.executable, str(repo / "bot.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 2
    assert finished.stderr.strip() == NO_TOKEN_MESSAGE
    assert "Traceback" not in finished.stderr
    assert not (tmp_path / "never.db").exists()


def test_help_prints_the_options_and_needs_no_token(tmp_path):
    """`python bot.py --help` on a fresh machine: how to run it (the sandbox, the environment it
    reads), not the message about a missing token; an unknown option is named and refused."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env["DISCORD_TOKEN"] = ""
    env["DATABASE_PATH"] = str(tmp_path / "never.db")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(repo / "bot.py"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    shown = run("--help")
    assert shown.returncode == 0, shown.stderr
    assert "usage: python bot.py" in shown.stdout
    assert "--sandbox" in shown.stdout and "DISCORD_TOKEN" in shown.stdout
    assert "needs a Discord bot token" not in shown.stdout + shown.stderr
    sandbox_help = run("--sandbox", "--help")
    assert sandbox_help.returncode == 0 and "--port" in sandbox_help.stdout
    unknown = run("--frobnicate")
    assert unknown.returncode == 2 and "--frobnicate" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    assert not (tmp_path / "never.db").exists()


def test_turns_are_drawn_in_a_worker_per_spare_core_at_most_two(monkeypatch):
    """RENDER_PROCESSES unset or auto: the event loop keeps a core, the others draw (host/
    drawing.py); one core draws in a thread; a number is taken as it is."""
    assert [drawing_workers(cores) for cores in (1, 2, 3, 8)] == [0, 1, 2, 2]
    monkeypatch.setattr(config, "usable_cores", lambda: 2)
    assert load_config({"DISCORD_TOKEN": "abc"}, base_dir=BASE).render_processes == 1
    auto = {"DISCORD_TOKEN": "abc", "RENDER_PROCESSES": "Auto"}
    assert load_config(auto, base_dir=BASE).render_processes == 1
    monkeypatch.setattr(config, "usable_cores", lambda: 1)
    assert load_config(auto, base_dir=BASE).render_processes == 0
    zero = {"DISCORD_TOKEN": "abc", "RENDER_PROCESSES": "0"}
    assert load_config(zero, base_dir=BASE).render_processes == 0
    with pytest.raises(ConfigError, match="auto or a whole number"):
        load_config({"DISCORD_TOKEN": "abc", "RENDER_PROCESSES": "many"}, base_dir=BASE)
