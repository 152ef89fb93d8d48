"""Tournaments (docs/rules/tournaments.md): pure, deterministic pairing and standings for
every game; ratings come in as numbers, nothing here computes one.

Public API:
    Entrant(id, rating, joined=1, withdrawn_from=None); Game(round, seats, points, played)
    Pairing(round, tables, bye, resting); pairing.games(bye_points) -> the round's games
    Format: Swiss(rounds), RoundRobin(), Tables(size, rounds), Knockout(double=False)
        .name, .title, .rounds(entrants), .pair(entrants, games, round) -> Pairing,
        .finished(entrants, games, played)
    pair_swiss(entrants, games, round) -> Pairing       # the Swiss rules (swiss.py)
    standings(entrants, games, rounds) -> [Standing]    # score, then TIE_BREAKS in order
    totals_of(entrants, games) -> {id: Totals}; record(totals, met, game, key) -> (changed,
        meetings): the same totals one result at a time; tied(...) and rank(entrants, totals,
        rounds, meetings) -> [Standing]
    TIE_BREAKS: ((name, what it is), ...)
    single_elimination(seeds) / double_elimination(seeds) -> Bracket; resolve(bracket,
    winners) -> [Place]; champion(bracket, winners); seeded({id: rating}) -> [id]
"""

from rules.tournament.elimination import (
    NOBODY,
    Bracket,
    Match,
    Place,
    Slot,
    champion,
    double_elimination,
    resolve,
    seed_positions,
    seeded,
    single_elimination,
)
from rules.tournament.formats import Format, Knockout, RoundRobin, Swiss, Tables
from rules.tournament.model import Entrant, Game, Pairing
from rules.tournament.standings import (
    TIE_BREAKS,
    Meeting,
    Standing,
    Totals,
    meetings_of,
    rank,
    record,
    scores,
    sort_keys,
    standings,
    tied,
    totals_of,
)
from rules.tournament.swiss import SEARCH_LIMIT, histories, pair_swiss, ranked

__all__ = [
    "NOBODY",
    "SEARCH_LIMIT",
    "TIE_BREAKS",
    "Bracket",
    "Entrant",
    "Format",
    "Game",
    "Knockout",
    "Match",
    "Meeting",
    "Pairing",
    "Place",
    "RoundRobin",
    "Slot",
    "Standing",
    "Swiss",
    "Tables",
    "Totals",
    "champion",
    "double_elimination",
    "histories",
    "meetings_of",
    "pair_swiss",
    "rank",
    "ranked",
    "record",
    "resolve",
    "scores",
    "seed_positions",
    "seeded",
    "single_elimination",
    "sort_keys",
    "standings",
    "tied",
    "totals_of",
]
