"""The suite's own guards (tests/conftest.py, pyproject.toml): a warning or a leaked asyncio
task fails the run instead of scrolling past in its output. Each is shown failing a small
child run of pytest with this repository's configuration."""

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def child_pytest(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_child.py"
    test.write_text(
        "from tests.conftest import leaked_tasks  # noqa: F401\n" + textwrap.dedent(source)
    )
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(REPO / "pyproject.toml"),
            "--rootdir",
            str(REPO),
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            str(test),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_task_whose_exception_nobody_retrieved_fails_the_test(tmp_path: Path) -> None:
    run = child_pytest(
        tmp_path,
        """
        import asyncio, gc

        async def test_leaks():
            async def boom():
                raise RuntimeError("lost work")
            task = asyncio.get_running_loop().create_task(boom())
            await asyncio.sleep(0)
            del task
            gc.collect()
        """,
    )
    assert run.returncode == 1, run.stdout
    assert "asyncio reported a leaked task or future" in run.stdout
    assert "RuntimeError: lost work" in run.stdout


def test_a_warning_fails_the_test(tmp_path: Path) -> None:
    run = child_pytest(
        tmp_path,
        """
        import warnings

        def test_warns():
            warnings.warn("this API goes away", DeprecationWarning, stacklevel=1)
        """,
    )
    assert run.returncode == 1, run.stdout
    assert "DeprecationWarning: this API goes away" in run.stdout


def test_a_file_left_to_the_garbage_collector_fails_the_test(tmp_path: Path) -> None:
    """ResourceWarning is an error like every other warning: a file or socket a test opens and
    never closes fails the run."""
    run = child_pytest(
        tmp_path,
        """
        import gc

        def test_leaves_a_file(tmp_path):
            left = open(tmp_path / "left-open.txt", "w")
            del left
            gc.collect()
        """,
    )
    assert run.returncode == 1, run.stdout
    assert "ResourceWarning: unclosed file" in run.stdout


def test_a_clean_test_passes_the_guards(tmp_path: Path) -> None:
    run = child_pytest(tmp_path, "def test_clean():\n    assert True\n")
    assert run.returncode == 0, run.stdout
