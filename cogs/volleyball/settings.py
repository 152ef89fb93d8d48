"""A league's season settings as an admin types them: `special_points=200 ha_start=20 pp_c=30`.

The names are short forms of rules.volleyball.SeasonConfig's fields (what the seed says the
GM makes public at the start of a season); anything not given keeps the documented default.
Sponsors and contract players keep the defaults (docs/rules/volleyball.md, "On Discord").
"""

from __future__ import annotations

import re

from rules.errors import echoed
from rules.volleyball import SeasonConfig

# short name -> (SeasonConfig field, lowest, highest, what it is)
SETTINGS: dict[str, tuple[str, int, int, str]] = {
    "money": ("starting_money", 0, 100_000, "a new team's money ($)"),
    "special_points": ("special_points_per_season", 0, 1_000, "special points per season"),
    "ha_start": ("home_advantage_start", 0, 200, "home advantage in round 1"),
    "ha_growth": ("home_advantage_growth_per_round", 0, 20, "home advantage added a round"),
    "tp_round": ("training_points_per_round", 0, 50, "training points each round"),
    "tp_played": ("training_points_per_match_played", 0, 50, "training points a match played"),
    "tp_won": ("training_points_per_match_won", 0, 50, "training points a match won"),
    "tp_set": ("training_points_per_set_won", 0, 50, "training points a set won"),
    # at most 3: the orders form has a box per match (and the cup's) plus the order lines,
    # and Discord allows five boxes
    "matches_per_round": ("matches_per_round", 1, 3, "league matches a round"),
    "scouts": ("talent_scouts_per_season", 0, 10, "talent scouts a season"),
    "max_player_points": ("max_points_per_player", 2, 48, "player points a new player may have"),
    "min_players": ("min_players", 6, 12, "players a new team needs"),
}
AGES = ("A", "B", "C", "D", "E")
_PAIR = re.compile(r"([A-Za-z_]+)\s*[=:]\s*(-?\d+)")


def settings_help() -> str:
    names = ", ".join(SETTINGS) + ", " + ", ".join(f"pp_{a.lower()}" for a in AGES)
    return f"Season settings: {names} (e.g. special_points=200 pp_c=30)."


def parse_season_settings(text: str) -> tuple[dict[str, int], list[str]]:
    """name -> value of every setting in `text`, and every problem (unknown names, values out
    of range, text that is not NAME=NUMBER)."""
    values: dict[str, int] = {}
    problems: list[str] = []
    leftover = _PAIR.sub(" ", text).replace(",", " ").strip()
    if leftover:
        problems.append(f"Write settings as NAME=NUMBER; I can't read {echoed(leftover, 40)}.")
    for raw_name, raw_value in _PAIR.findall(text):
        name, value = raw_name.lower(), int(raw_value)
        if name.startswith("pp_") and name[3:].upper() in AGES:
            low, high = 0, 200
        elif name in SETTINGS:
            _, low, high, _ = SETTINGS[name]
        else:
            problems.append(
                f"There is no season setting called {echoed(raw_name)}. {settings_help()}"
            )
            continue
        if not low <= value <= high:
            problems.append(f"{name} must be {low} to {high}, not {value}.")
            continue
        values[name] = value
    return values, problems


def season_config(values: dict[str, int]) -> SeasonConfig:
    """The default season configuration with `values` (from parse_season_settings) applied."""
    data = SeasonConfig().to_dict()
    for name, value in values.items():
        if name.startswith("pp_"):
            data["player_points_by_age"][name[3:].upper()] = value
        else:
            data[SETTINGS[name][0]] = value
    return SeasonConfig.from_dict(data)


def describe_config(config: SeasonConfig) -> list[str]:
    """The season settings as lines `name=value (what it is)`."""
    data = config.to_dict()
    lines = [f"{name}={data[field]} ({what})" for name, (field, _, _, what) in SETTINGS.items()]
    lines.append(
        "player points for a new team: "
        + ", ".join(f"pp_{a.lower()}={config.player_points_by_age.get(a, 0)}" for a in AGES)
    )
    return lines
