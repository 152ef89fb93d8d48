"""Starting a Volleyball team (seed rule 1) and scouting new talents (rule 6).

Rule 1: a manager names his team and at least six players and divides the season's player
points (PP), given per age category, over them: each player has an offensive level (OL)
and a defensive level (DL), each at least 1 PP, the ratio between them at most 2:1 and at
most 24 PP in all. Every new team gets $750.

Rule 6: "Every team can scout three new talents during the season. These players have got
no points for both levels."
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import echoed
from rules.names import MAX_NAME, BadName, clean_name
from rules.volleyball.models import AGE_CATEGORIES, AGE_TALENT, Player, SeasonConfig, Team
from rules.volleyball.orders import VolleyballError

MAX_NAME_LENGTH = MAX_NAME
NEW_TEAM_MAX_RATIO = 2


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
