"""Small wording helpers shared by the volleyball texts."""

from __future__ import annotations

import difflib

from rules.prose import possessive

__all__ = ["did_you_mean", "possessive"]


def did_you_mean(name: str, candidates: list[str]) -> str:
    """ " Did you mean Fenna?" for the candidate nearest to a misspelt `name` (ruling 34), or "" when none is near."""
    lowered = {c.casefold(): c for c in candidates}
    near = difflib.get_close_matches(name.strip().casefold(), list(lowered), n=1, cutoff=0.6)
    return f" Did you mean {lowered[near[0]]}?" if near else ""
