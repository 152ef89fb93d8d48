"""Small wording helpers shared by the volleyball texts."""

from __future__ import annotations


def possessive(name: str) -> str:
    """ "Red Rocket's", but "Nova Spikers'" (issue 12 item 6: no "Spikers's")."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
