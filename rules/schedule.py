"""The round robin both leagues play (docs/rules/rollerball2.md "Seasons", docs/rules/volleyball.md
"The league"): every team meets every other once (`round_robin`), or twice, once at home and once
away (`double_round_robin`), in matchdays where each team plays at most once.

The circle method with the canonical home-and-away pattern (Berger's tables; de Werra, "Scheduling
in sports", 1981): the last team stays put while the others turn around it, and the home side of
each pairing alternates so that in a single round robin
- every team is at home ⌊(n-1)/2⌋ or ⌈(n-1)/2⌉ times (exactly half when n is odd),
- no team plays two home or two away matches in a row more often than it must: with an even
  number of teams there are n-2 such "breaks" in all (the fewest possible), with an odd number
  none (the team without a match that matchday rests).
The double round robin plays the first half again with home and away swapped, so every ordered
pair meets exactly once and every team is at home exactly n-1 times. The same list of teams always
gives the same schedule (the order of the list decides who meets whom when); no randomness.

A league stores its schedule when its season opens, and a stored schedule is never made again
from the team list, so a change here changes only seasons opened after it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

Team = TypeVar("Team", bound=Hashable)


def round_robin(teams: Sequence[Team]) -> list[list[tuple[Team, Team]]]:
    """Matchdays of (home, away) fixtures: every pair of `teams` meets once, each team at most
    once a matchday; n-1 matchdays for n teams (n when n is odd: one team rests each day), none
    for fewer than two. Raises ValueError if a team is listed twice."""
    if len(set(teams)) != len(teams):
        raise ValueError("A team is listed twice.")
    count = len(teams)
    if count < 2:
        return []  # nobody to meet
    size = count + count % 2  # an odd number of teams: a rest day against the missing one
    fixed = size - 1  # the team that stays put while the others turn
    matchdays: list[list[tuple[Team, Team]]] = []
    for day in range(size - 1):
        pairs = [(day, fixed) if day % 2 == 0 else (fixed, day)]
        for step in range(1, size // 2):
            first, second = (day + step) % fixed, (day - step) % fixed
            pairs.append((first, second) if step % 2 == 1 else (second, first))
        matchdays.append(
            [(teams[home], teams[away]) for home, away in pairs if home < count and away < count]
        )
    return matchdays


def double_round_robin(teams: Sequence[Team]) -> list[list[tuple[Team, Team]]]:
    """Matchdays of (home, away) fixtures: every team meets every other twice, once at home and
    once away: the single round robin, then the same matchdays with home and away swapped."""
    first_half = round_robin(teams)
    return first_half + [[(away, home) for home, away in day] for day in first_half]
