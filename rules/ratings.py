"""Ratings: what a player's rated results say about their strength, as a number and how sure
that number is.

- Two players (Rocketball; Rollerball II coach against coach): **Glicko-2** (Mark Glickman,
  "Example of the Glicko-2 system", 2012) through `glicko2-py`'s `update_rating`, each game its
  own rating period (as lichess rates), tau 0.5. A player has a rating (1500 to start), a
  deviation (350 to start: how unsure the rating is; it shrinks with every game) and a
  volatility (0.06 to start: how erratic their results are).
- Tables of 2-6 (Rollerball): **Weng-Lin's Bayesian rating with the Plackett-Luce model**
  (OpenSkill's `PlackettLuce`), which ranks any number of players, ties allowed. Its numbers are
  put on the Glicko scale (OpenSkill's defaults times 42: mu 1500, sigma 350, beta 175, tau 3.5),
  so 1500 means the same start in every game; it has no volatility.

A rating is **provisional** (shown "1500?") until PROVISIONAL_GAMES rated games in that scope.
The rulings (rating periods, provisional, rated or casual, the computer, a table's places, the
Elo ratings carried over) are in docs/ratings.md.
The libraries do the arithmetic; this module only says which numbers go in and come out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from glicko2.math import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi, update_rating
from openskill.models import PlackettLuce

START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # Glickman's system constant: how fast a volatility may change (0.3 to 1.2)

# Below this many rated games the rating is provisional: "1500?" on every line that shows it,
# and ranked after the established players on a leaderboard.
PROVISIONAL_GAMES = 10

# OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) times 42, so that a newcomer
# starts at 1500 with a deviation of 350 as in Glicko-2; only differences matter to the model.
_SCALE = START_DEVIATION / (25 / 3)
MULTIPLAYER = PlackettLuce(
    mu=START, sigma=START_DEVIATION, beta=25 / 6 * _SCALE, tau=25 / 300 * _SCALE
)

RESULT_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class Skill:
    """A player's rating in one game and scope. `volatility` is Glicko-2's own (None for the
    multiplayer rating, which has none)."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float | None = START_VOLATILITY


NEWCOMER = Skill()
MULTIPLAYER_NEWCOMER = Skill(volatility=None)


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def shown(rating: float, games: int) -> str:
    """A rating as every line shows it: whole points, "?" while provisional."""
    return f"{rating:.0f}?" if provisional(games) else f"{rating:.0f}"


def after_game(own: Skill, opponent: Skill, result: str) -> Skill:
    """Glicko-2: `own` after one game against `opponent` that ended `result` ('win', 'draw',
    'loss'), the game being its own rating period."""
    assert own.volatility is not None
    updated = update_rating(
        rating_to_mu(own.rating),
        rd_to_phi(own.deviation),
        own.volatility,
        [(rating_to_mu(opponent.rating), rd_to_phi(opponent.deviation), RESULT_POINTS[result])],
        tau=TAU,
    )
    return Skill(mu_to_rating(updated.mu), phi_to_rd(updated.phi), updated.sigma)


def after_period(own: Skill, games: Sequence[tuple[Skill, float]]) -> Skill:
    """Glicko-2 over one rating period of several games (opponent, score 1/0.5/0): the form of
    Glickman's worked example."""
    assert own.volatility is not None
    updated = update_rating(
        rating_to_mu(own.rating),
        rd_to_phi(own.deviation),
        own.volatility,
        [(rating_to_mu(o.rating), rd_to_phi(o.deviation), score) for o, score in games],
        tau=TAU,
    )
    return Skill(mu_to_rating(updated.mu), phi_to_rd(updated.phi), updated.sigma)


def after_table(players: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Plackett-Luce: every player of a table after it ended with `places` (1 first; equal
    places are a tie), in the players' order."""
    if len(players) != len(places) or len(players) < 2:
        raise ValueError("a table has two or more players, each with a place")
    teams = [[MULTIPLAYER.rating(mu=p.rating, sigma=p.deviation)] for p in players]
    rated = MULTIPLAYER.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma, None) for team in rated]


def places_of(outcome: Sequence[str]) -> list[int]:
    """A table's places from its seats' outcomes: the winners (or those who drew for first)
    first, everyone else tied after them (the rules name winners, not further places)."""
    return [1 if result in ("win", "draw") else 2 for result in outcome]


def trend(changes: Sequence[float]) -> str:
    """The sum of the latest rating changes as a short sign: ▲35, ▼12, or ±0."""
    total = round(sum(changes))
    if total > 0:
        return f"▲{total}"
    if total < 0:
        return f"▼{-total}"
    return "±0"
