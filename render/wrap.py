"""Greedy word wrap, written once for every image: words are joined on a line while the line
fits; a word too wide on its own is handed to the caller's rule (cut it, end it with …, or keep
it whole). How a line is measured is the caller's too (the advance width, or the ink)."""

from __future__ import annotations

from collections.abc import Callable


def kept_whole(word: str) -> list[str]:
    """A word too wide for a line stays whole on a line of its own."""
    return [word]


def wrap_words(
    text: str,
    fits: Callable[[str], bool],
    too_wide: Callable[[str], list[str]] = kept_whole,
) -> list[str]:
    """`text`'s words (split at whitespace) in lines that each `fits`; a word that does not
    fit alone becomes `too_wide(word)`: lines of which the last may take the next words."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if fits(candidate):
            current = candidate
            continue
        if current:
            lines.append(current)
        if fits(word):
            current = word
        else:
            *whole, current = too_wide(word)
            lines.extend(whole)
    if current:
        lines.append(current)
    return lines
