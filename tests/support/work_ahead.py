"""A drawing process idle at once (render/idle.py): what it is given to do ahead runs there and
then, in the test's own thread, so a test sees what was made ahead without waiting for it."""

from __future__ import annotations

import pytest

from render import idle


def idle_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idle, "running", lambda: True)
    monkeypatch.setattr(idle, "later", lambda key, job, rank=0: job())
