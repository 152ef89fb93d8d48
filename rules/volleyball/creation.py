"""Starting a Volleyball team (seed rule 1) and scouting new talents (rule 6).

Rule 1: a manager names his team and at least six players and divides the season's player
points (PP), given per age category, over them: each player has an offensive level (OL)
and a defensive level (DL), each at least 1 PP, the ratio between them at most 2:1 and at
most 24 PP in all. Every new team gets $750.

Rule 6: "Every team can scout three new talents during the season. These players have got
no points for both levels."

A newcomer need not invent a team: `generated_roster(config, seed)` is a legal rule-1 roster
(named players, the season's points spread over them) large enough to field all five sets of
a match, and `squad_depth(players, config)` says how many sets a roster can field and what one
or two more players (the same points spread over them) would change
(docs/rules/volleyball.md, "Teams").
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.errors import echoed
from rules.names import MAX_NAME, BadName, clean_name
from rules.volleyball.lineups import fieldable_sets
from rules.volleyball.models import AGE_CATEGORIES, AGE_TALENT, Player, SeasonConfig, Team
from rules.volleyball.orders import SETS_PER_MATCH_ORDER, VolleyballError

MAX_NAME_LENGTH = MAX_NAME
NEW_TEAM_MAX_RATIO = 2

FIRST_NAMES = (
    "Anke", "Bart", "Carla", "Dirk", "Els", "Frits", "Gerda", "Hans", "Ida", "Jeroen",
    "Karin", "Luuk", "Marit", "Niels", "Olga", "Pim", "Quinten", "Roos", "Stijn", "Tess",
)  # fmt: skip
LAST_NAMES = (
    "de Boer", "Jansen", "van Dijk", "Bakker", "Visser", "Smit", "Meijer", "de Groot",
    "Mulder", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer",
)  # fmt: skip
TEAM_PLACES = ("Harbour", "Dune", "Lagoon", "Reef", "Tide", "Coral", "Sandbank", "Pier")
TEAM_ANIMALS = ("Herons", "Gulls", "Seals", "Otters", "Terns", "Crabs", "Dolphins", "Pelicans")
# A generated roster is the smallest that fields all five sets; a few draws of its levels
# are tried for each size before a player more is added.
DRAWS_PER_SIZE = 8
MOST_GENERATED_PLAYERS = 16


@dataclass
class PlayerDraft:
    """A player as the manager asks for him in a new team: name, age category, levels."""

    name: str
    age: str
    ol: int
    dl: int


def tidy_name(name: str) -> str:
    """A name as it is stored when it is valid: trimmed, white space folded (rules.names)."""
    return " ".join(str(name).split())


def name_problems(name: str, what: str) -> list[str]:
    """Every name a manager gives goes through the one validator (rules.names.clean_name:
    visible characters on one line, 1 to 32 of them), and (ruling 14) it must not start or
    end with a digit: the text order form reads numbers after a name as levels and codes."""
    if "\n" in name.strip() or "\r" in name.strip():
        return [f"The {what} name {echoed(tidy_name(name))} must fit on one line."]
    try:
        cleaned = clean_name(name, f"The {what} name", MAX_NAME_LENGTH)
    except BadName as error:
        return [str(error)]
    if cleaned[-1].isdigit() or cleaned[0].isdigit():
        return [f"The {what} name {echoed(cleaned)} must not start or end with a digit."]
    return []


def player_level_problems(draft: PlayerDraft, config: SeasonConfig) -> list[str]:
    """Rule 1 for one player: "each level should get at least one PP and the ratio between
    both levels may not be higher than 2:1 - the total PP for each player may not exceed
    the 24 points"."""
    who = draft.name.strip() or "A player"
    problems = []
    if draft.age not in AGE_CATEGORIES:
        problems.append(
            f"{who}: the age category must be one of A, B, C, D or E (got {echoed(draft.age)})."
        )
    if draft.ol < 1 or draft.dl < 1:
        problems.append(f"{who}: each level needs at least 1 point (OL {draft.ol}, DL {draft.dl}).")
    elif max(draft.ol, draft.dl) > NEW_TEAM_MAX_RATIO * min(draft.ol, draft.dl):
        problems.append(
            f"{who}: OL {draft.ol} and DL {draft.dl} are further apart than 2:1; "
            "the higher level may be at most twice the lower."
        )
    if draft.ol + draft.dl > config.max_points_per_player:
        problems.append(
            f"{who}: {draft.ol + draft.dl} points is more than the "
            f"{config.max_points_per_player} a player may have."
        )
    return problems


def new_team_problems(
    name: str,
    players: list[PlayerDraft],
    config: SeasonConfig,
    taken_team_names: list[str] | None = None,
) -> list[str]:
    """Every problem with a new team, each a sentence; empty when the team may be created.

    Rule 1: at least six players, the per-player limits, and no more PP spent on an age
    category than the season gives for it (config.player_points_by_age; ruling: unspent
    points are lost). Names: unique in the team (case-insensitive) and, for the team, in
    the league.
    """
    problems = name_problems(name, "team")
    taken = {n.casefold() for n in (taken_team_names or [])}
    if tidy_name(name).casefold() in taken:
        problems.append(f"There is already a team called {echoed(tidy_name(name))} in this league.")
    if len(players) < config.min_players:
        problems.append(
            f"A team needs at least {config.min_players} players; this one has {len(players)}."
        )
    seen: set[str] = set()
    for draft in players:
        problems.extend(name_problems(draft.name, "player"))
        key = tidy_name(draft.name).casefold()
        if key and key in seen:
            problems.append(
                f"Two players are called {echoed(tidy_name(draft.name))}; each needs his own name."
            )
        seen.add(key)
        problems.extend(player_level_problems(draft, config))
    for age in AGE_CATEGORIES:
        spent = sum(d.ol + d.dl for d in players if d.age == age)
        allowed = config.player_points_by_age.get(age, 0)
        if spent > allowed:
            problems.append(
                f"Age {age} players have {spent} points in all; this season a new team has "
                f"{allowed} points for Age {age}."
            )
    return problems


def create_team(
    name: str,
    players: list[PlayerDraft],
    config: SeasonConfig,
    *,
    manager_id: str | None = None,
    taken_team_names: list[str] | None = None,
) -> Team:
    """A new team (rule 1) with $750 (config.starting_money) and the season's special points
    (rule 4). Raises VolleyballError listing every problem if the team breaks rule 1."""
    problems = new_team_problems(name, players, config, taken_team_names)
    if problems:
        raise VolleyballError(problems)
    return Team(
        name=tidy_name(name),
        players=[Player(tidy_name(d.name), d.age, d.ol, d.dl) for d in players],
        manager_id=manager_id,
        money=config.starting_money,
        special_points=config.special_points_per_season,
    )


def scout_problems(team: Team, name: str, config: SeasonConfig) -> list[str]:
    """Rule 6: at most three talents a season (config.talent_scouts_per_season), and the
    talent needs a name of his own in the team."""
    problems = name_problems(name, "talent")
    if team.talents_scouted >= config.talent_scouts_per_season:
        problems.append(
            f"{team.name} has already scouted {team.talents_scouted} talents this season; "
            f"a team may scout {config.talent_scouts_per_season}."
        )
    existing = team.player(name) if name.strip() else None
    if existing is not None:
        problems.append(f"{team.name} already has a player called {echoed(existing.name)}.")
    return problems


def scout_talent(team: Team, name: str, config: SeasonConfig) -> Team:
    """A new team with the scouted talent added at 0/0 levels (rule 6); the argument is
    unchanged. He plays from the next match on (rule 2's exception lets a 0/0 talent play);
    after four matches of at least two sets he gets 2/2 (match.team_after_match)."""
    problems = scout_problems(team, name, config)
    if problems:
        raise VolleyballError(problems)
    after = Team.from_dict(team.to_dict())
    after.players.append(Player(tidy_name(name), AGE_TALENT, 0, 0))
    after.talents_scouted += 1
    return after


# --- a roster made for the newcomer ---------------------------------------------------------


def new_player_name(rng: random.Random, taken: set[str]) -> str:
    """A first and last name not in `taken` (casefolded names, which it joins)."""
    while True:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if name.casefold() not in taken:
            taken.add(name.casefold())
            return name


def generated_team_name(seed: int | str, taken: list[str]) -> str:
    """A team name ("Harbour Herons") not in `taken` (case-insensitive), seeded."""
    rng = random.Random(f"team-name:{seed}")
    used = {name.casefold() for name in taken}
    names = [f"{place} {animal}" for place in TEAM_PLACES for animal in TEAM_ANIMALS]
    rng.shuffle(names)
    free = [name for name in names if name.casefold() not in used]
    return free[0] if free else f"{names[0]} {len(used) + 1}"


def players_per_age(config: SeasonConfig, players: int) -> dict[str, int] | None:
    """How many of `players` each age category gets when the season's points (rule 1) are
    spread over them: each category with points at least enough players to stay within the
    points a player may have, the others to the category whose players have the most points
    each. None when the points cannot make that many players (each needs 1/1)."""
    points = {age: config.player_points_by_age.get(age, 0) for age in AGE_CATEGORIES}
    per_player = config.max_points_per_player
    counts = {age: -(-total // per_player) if total >= 2 else 0 for age, total in points.items()}
    if sum(counts.values()) > players:
        return None
    while sum(counts.values()) < players:
        room = [age for age in counts if points[age] >= 2 * (counts[age] + 1)]
        if not room:
            return None
        richest = max(room, key=lambda age: points[age] / max(1, counts[age]))
        counts[richest] += 1
    return counts


def spread_roster(
    config: SeasonConfig, players: int, rng: random.Random | None = None
) -> list[PlayerDraft] | None:
    """A legal rule-1 roster of `players` with all the season's points: each age's points
    shared evenly by its players, each player's split between OL and DL even (with `rng`,
    a point or two either way, still within 2:1). None when the points cannot make that
    many players."""
    counts = players_per_age(config, players)
    if counts is None:
        return None
    taken: set[str] = set()
    drafts = []
    for age, count in counts.items():
        points = config.player_points_by_age.get(age, 0)
        for index in range(count):
            total = points // count + (1 if index < points % count else 0)
            ol = total // 2 + (rng.randint(-2, 2) if rng and total >= 6 else 0)
            ol = max(-(-total // 3), min(ol, (2 * total) // 3))
            name = new_player_name(rng, taken) if rng else f"Player {chr(65 + len(drafts))}"
            drafts.append(PlayerDraft(name, age, ol, total - ol))
    return drafts


def _sets_of(drafts: Sequence[PlayerDraft | Player]) -> int:
    team = Team(name="Roster", players=[Player(d.name, d.age, d.ol, d.dl) for d in drafts])
    return fieldable_sets(team)


@functools.lru_cache(maxsize=32)
def _fewest_for_every_set(
    points: tuple[tuple[str, int], ...], per_player: int, min_players: int
) -> tuple[int, bool]:
    config = SeasonConfig(
        player_points_by_age=dict(points),
        max_points_per_player=per_player,
        min_players=min_players,
    )
    best = (min_players, False)
    best_sets = -1
    for players in range(min_players, MOST_GENERATED_PLAYERS + 1):
        even = spread_roster(config, players)
        if even is None:
            break
        sets = _sets_of(even)
        if sets == SETS_PER_MATCH_ORDER:
            return players, True
        if sets > best_sets:
            best, best_sets = (players, False), sets
    return best


def players_for_every_set(config: SeasonConfig) -> tuple[int, bool]:
    """The fewest players whose even share of the season's points (spread_roster) fields
    all five sets of a match, and True; or, when no size up to MOST_GENERATED_PLAYERS can,
    the size fielding the most sets and False."""
    points = tuple(sorted(config.player_points_by_age.items()))
    return _fewest_for_every_set(points, config.max_points_per_player, config.min_players)


def generated_roster(config: SeasonConfig, seed: int | str) -> list[PlayerDraft]:
    """ "Make me a team": a legal rule-1 roster with generated names and the season's points
    over players_for_every_set(config) players (seeded: the same seed gives the same roster).
    The levels are drawn a point or two off even; a draw that fields fewer sets is drawn
    again, and after DRAWS_PER_SIZE the even split is kept, named."""
    rng = random.Random(f"roster:{seed}")
    players, every_set = players_for_every_set(config)
    even = spread_roster(config, players)
    if even is None:
        raise VolleyballError("This season's player points cannot make a team of six.")
    for _ in range(DRAWS_PER_SIZE if every_set else 0):
        drawn = spread_roster(config, players, rng)
        if drawn is not None and _sets_of(drawn) == SETS_PER_MATCH_ORDER:
            return drawn
    taken: set[str] = set()
    return [PlayerDraft(new_player_name(rng, taken), d.age, d.ol, d.dl) for d in even]


@dataclass
class SquadDepth:
    """How many sets of a match a roster can field from set 1 on (`sets`, of five), and
    for one and two players more, the sets the season's points spread evenly over that many
    would field (`with_more`: (players, sets)); empty when the roster fields all five."""

    players: int
    sets: int
    with_more: list[tuple[int, int]] = field(default_factory=list)


def squad_depth(players: Sequence[PlayerDraft | Player], config: SeasonConfig) -> SquadDepth:
    """The sets a new roster can field (lineups.fieldable_sets: rule 2's tiredness over a
    match) and, when it cannot field all five, what a player or two more would change."""
    sets = _sets_of(players)
    depth = SquadDepth(len(players), sets)
    if sets < SETS_PER_MATCH_ORDER:
        for more in (1, 2):
            spread = spread_roster(config, len(players) + more)
            if spread is None:
                break
            depth.with_more.append((len(players) + more, _sets_of(spread)))
            if depth.with_more[-1][1] == SETS_PER_MATCH_ORDER:
                break
    return depth
