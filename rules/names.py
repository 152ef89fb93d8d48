"""Every name a user gives (a team, a league, a player, a season, and the display name Discord
gives for them): one rule of what a name may hold, one validator, one message.

A name is shown in messages and drawn in images, so it must be visible text on one line: trimmed,
runs of white space folded to one space, no control characters, no invisible formatting
characters (zero-width spaces, joiners, bidirectional overrides such as U+202E that would turn
the text around it), at least one letter, digit, punctuation mark or symbol, and a length limit.
"""

from __future__ import annotations

import unicodedata

from rules.errors import PlayerError

MAX_NAME = 32
# Categories that draw nothing or steer the text around them: control (Cc), format (Cf: zero
# width, bidi overrides, soft hyphen), surrogates (Cs), private use (Co), unassigned (Cn).
_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn"}
_FOLDED = {"\t", "\n", "\r"}  # white space that folds into one space


def _invisible(character: str) -> bool:
    return unicodedata.category(character) in _INVISIBLE and character not in _FOLDED


class BadName(PlayerError):
    """A name that cannot be used; the message says what is wrong and what is allowed."""


def clean_name(text: str, what: str = "A name", max_length: int = MAX_NAME) -> str:
    """The name as it will be stored and shown, or BadName saying why it cannot be."""
    bad = sorted({f"U+{ord(c):04X}" for c in str(text) if _invisible(c)})
    if bad:
        raise BadName(
            f"{what} may only hold visible characters: {', '.join(bad[:5])} is not allowed. "
            f"Use letters, digits, spaces and punctuation, at most {max_length} characters."
        )
    name = " ".join(str(text).split())
    if not name:
        raise BadName(f"{what} cannot be empty: give 1 to {max_length} visible characters.")
    if len(name) > max_length:
        raise BadName(f"{what} is at most {max_length} characters ({len(name)} given).")
    return name


def given_name(text: str, fallback: str) -> str:
    """A name the user did not type here (their display name, as Discord gives it), made what
    clean_name would accept rather than refused: invisible characters dropped, white space
    folded; `fallback` when nothing visible is left. Its length is Discord's to limit (32
    characters for a nickname or a display name)."""
    name = " ".join("".join(c for c in str(text) if not _invisible(c)).split())
    return name or fallback
