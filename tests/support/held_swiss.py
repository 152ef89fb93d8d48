"""A published Swiss with its tie-breaks: the 16-player, 5-round tournament of IA Mario Held's
"Exercises in Tie-Breaking" (FIDE C.07-2023 tie-break regulations, rev. 2403220900, pp. 10-50),
as its tournament report (FIDE TRF-16 player lines) gives it: each player's start number,
rating, final score and, by round, opponent, side and result. The answers are the paper's
(computed under the 2023 rules, "/V1").

Result codes (TRF-16): 1, =, 0 a game played; + and - a forfeit won or lost; H a half-point
bye, U the pairing-allocated bye (a full point), Z a zero-point bye.
"""

from __future__ import annotations

from rules.tournament import Entrant, Game

# start number: (rating, score, ((opponent, side, result), ... by round))
PLAYERS: dict[int, tuple[int, float, tuple[tuple[int, str, str], ...]]] = {
    1: (2200, 3.5, ((9, "w", "1"), (13, "b", "="), (2, "w", "="), (15, "b", "1"), (4, "w", "="))),
    2: (2150, 4.0, ((10, "b", "1"), (7, "w", "1"), (1, "b", "="), (16, "w", "1"), (3, "b", "="))),
    3: (2100, 3.5, ((11, "w", "="), (6, "b", "1"), (8, "w", "1"), (4, "b", "="), (2, "w", "="))),
    4: (2050, 3.5, ((12, "b", "1"), (0, "-", "H"), (13, "w", "1"), (3, "w", "="), (1, "b", "="))),
    5: (2000, 2.5, ((13, "w", "0"), (15, "b", "0"), (11, "w", "1"), (7, "b", "="), (10, "w", "1"))),
    6: (1950, 3.0, ((14, "b", "0"), (3, "w", "0"), (0, "-", "U"), (10, "w", "1"), (8, "b", "1"))),
    7: (1900, 1.5, ((15, "w", "1"), (2, "b", "0"), (16, "b", "0"), (5, "w", "="), (11, "b", "0"))),
    8: (1850, 2.5, ((16, "b", "="), (14, "w", "1"), (3, "b", "0"), (13, "w", "1"), (6, "w", "0"))),
    9: (1800, 1.5, ((1, "b", "0"), (10, "w", "0"), (0, "-", "H"), (11, "b", "-"), (0, "-", "U"))),
    10: (1750, 1.0, ((2, "w", "0"), (9, "b", "1"), (15, "w", "0"), (6, "b", "0"), (5, "b", "0"))),
    11: (1700, 2.5, ((3, "b", "="), (16, "w", "0"), (5, "b", "0"), (9, "w", "+"), (7, "w", "1"))),
    12: (1650, 2.0, ((4, "w", "0"), (0, "-", "U"), (14, "w", "+"), (0, "-", "Z"), (0, "-", "Z"))),
    13: (1600, 1.5, ((5, "b", "1"), (1, "w", "="), (4, "b", "0"), (8, "b", "0"), (14, "w", "0"))),
    14: (1550, 2.0, ((6, "w", "1"), (8, "b", "0"), (12, "b", "-"), (0, "-", "Z"), (13, "b", "1"))),
    15: (1500, 2.0, ((7, "b", "0"), (5, "w", "1"), (10, "b", "1"), (1, "w", "0"), (16, "b", "0"))),
    16: (1450, 3.5, ((8, "w", "="), (11, "b", "1"), (7, "w", "1"), (2, "b", "0"), (15, "w", "1"))),
}
ROUNDS = 5

# The paper's answers: Buchholz (exercises 1-4) and Sonneborn-Berger (exercise 12).
BUCHHOLZ = {1: 12.5, 2: 13.0, 3: 15.5, 4: 15.0, 5: 8.5, 6: 12.0, 7: 14.5, 8: 13.5, 9: 9.0,
            10: 13.0, 11: 13.5, 12: 11.5, 13: 14.0, 14: 11.0, 15: 12.0, 16: 12.5}  # fmt: skip
SONNEBORN_BERGER = {1: 8.0, 2: 9.5, 3: 10.5, 4: 9.75, 5: 4.25, 6: 6.5, 7: 3.25, 8: 5.25, 9: 2.25,
                    10: 1.5, 11: 5.75, 12: 4.0, 13: 4.25, 14: 4.5, 15: 3.5, 16: 7.25}  # fmt: skip

POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "H": 0.5, "U": 1.0, "Z": 0.0}


def name(number: int) -> str:
    return f"P{number:02d}"


def entrants() -> list[Entrant]:
    return [Entrant(name(number), rating) for number, (rating, _, _) in PLAYERS.items()]


def games() -> list[Game]:
    """Every game once: a pairing from its first side's line, a bye from its player's."""
    found = []
    for number, (_, _, rounds) in PLAYERS.items():
        for round_number, (opponent, side, result) in enumerate(rounds, start=1):
            if opponent == 0:
                found.append(Game(round_number, (name(number),), (POINTS[result],), played=False))
            elif side == "w":
                points = (POINTS[result], 1.0 - POINTS[result])
                played = result not in "+-"
                found.append(Game(round_number, (name(number), name(opponent)), points, played))
    return found
