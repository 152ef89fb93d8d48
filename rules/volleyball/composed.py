"""The calls a Discord cog needs, in one place (the cog imports only
`rules.volleyball` and `render.volleyball`). Each is a thin, pure composition of the rules
modules; nothing here is a rule of its own except the neutral opponent of the preview
(ruling below).

- `new_league(human_teams, computer_teams=, divisions=, config=, seed=, promotion_places=)`:
  a league with free seats filled by computer teams, its first season opened.
- `preview_match(team, orders)`: each set's totals and scoring chance against a neutral
  opponent, for the order screen.
- `run_round(state, orders)`: the round played, with the public summary, each team's private
  sheet and each team's spy reports, as lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.volleyball.creation import create_team
from rules.volleyball.managers import TEAM_NAMES, computer_team_drafts
from rules.volleyball.match import lineup_levels, scoring_chance, set_totals
from rules.volleyball.models import DEFAULT_PROMOTION_PLACES, SeasonConfig, Team
from rules.volleyball.orders import Concept, MatchOrders, RoundOrders, VolleyballError
from rules.volleyball.reports import public_round_summary, team_sheet
from rules.volleyball.rounds import RoundReport, play_round
from rules.volleyball.season import LeagueState, create_league

# Ruling (docs/rules/volleyball.md, "Order preview"): the neutral opponent of the preview
# plays the Neutral concept at risk 6 (the middle of its 3-9) with a DL total of 60, six
# players of DL 10 and no points: a fixed yardstick, so two line-ups can be compared.
NEUTRAL_CONCEPT = Concept.NEUTRAL
NEUTRAL_RISK = 6
NEUTRAL_DL = 60


def division_sizes(teams: int, per_division: int = 16, count: int | None = None) -> list[int]:
    """`teams` split into `count` divisions (default: as few of at most `per_division` as
    possible, docs/rules/volleyball.md ruling 38 "Divisions"), the sizes as even as possible, the
    higher divisions taking the odd ones."""
    count = count or max(1, -(-teams // per_division))
    base, extra = divmod(teams, count)
    return [base + (1 if i < extra else 0) for i in range(count)]


def computer_teams(
    count: int, config: SeasonConfig, seed: int, taken_names: list[str]
) -> list[Team]:
    """`count` computer-managed teams (manager_id None) with legal rule-1 squads, named so
    that no name in `taken_names` is used twice."""
    rng = random.Random(f"computer-teams:{seed}")
    taken = list(taken_names)
    teams: list[Team] = []
    suffix = 0
    while len(teams) < count:
        for base in TEAM_NAMES:
            name = base if suffix == 0 else f"{base} {chr(ord('A') + suffix)}"
            if len(teams) < count and name.casefold() not in {n.casefold() for n in taken}:
                teams.append(
                    create_team(
                        name, computer_team_drafts(config, rng), config, taken_team_names=taken
                    )
                )
                taken.append(name)
        suffix += 1
    return teams


def new_league(
    human_teams: list[Team],
    *,
    total_teams: int,
    divisions: list[int] | None = None,
    config: SeasonConfig | None = None,
    seed: int = 0,
    promotion_places: int = DEFAULT_PROMOTION_PLACES,
    secret: str | None = None,
) -> LeagueState:
    """A league of `total_teams` (the users' `human_teams` first, the free seats computer
    teams), spread over `divisions` (teams per division, highest first; default
    division_sizes), its first season opened; `secret` as season.py `create_league`. Raises VolleyballError listing every problem."""
    config = config or SeasonConfig()
    if len(human_teams) > total_teams:
        raise VolleyballError(
            f"{len(human_teams)} teams do not fit in a league of {total_teams} seats."
        )
    sizes = divisions or division_sizes(total_teams)
    if sum(sizes) != total_teams:
        raise VolleyballError(f"The divisions hold {sum(sizes)} teams, not {total_teams}.")
    teams = [Team.from_dict(t.to_dict()) for t in human_teams]
    teams += computer_teams(total_teams - len(teams), config, seed, [t.name for t in teams])
    first = 0
    for number, size in enumerate(sizes, start=1):
        for team in teams[first : first + size]:
            team.division = number
        first += size
    return create_league(
        teams, config=config, seed=seed, promotion_places=promotion_places, secret=secret
    )


@dataclass
class SetPreview:
    """One set of a line-up as the order screen shows it: the team's totals (players' end
    levels plus HA, DP and SP) and its scoring chance against the neutral opponent."""

    set_number: int
    ol_total: int
    dl_total: int
    chance: int
    players: int


def preview_match(team: Team, orders: MatchOrders) -> list[SetPreview]:
    """Each set's totals and scoring chance, assuming the sets before it were played (the
    tiredness of rule 2), against the neutral opponent (NEUTRAL_*). A set without players
    has no chance (it would be forfeited)."""
    previews = []
    for number, (lines, set_order) in enumerate(
        zip(lineup_levels(team, orders), orders.sets, strict=False), start=1
    ):
        ol, dl = set_totals(lines, set_order)
        chance = (
            scoring_chance(
                ol,
                NEUTRAL_DL,
                set_order.concept,
                NEUTRAL_CONCEPT,
                set_order.effective_risk,
                NEUTRAL_RISK,
            )
            if lines
            else 0
        )
        previews.append(SetPreview(number, ol, dl, chance, len(lines)))
    return previews


@dataclass
class RoundOutcome:
    """A played round and what goes to whom, as lines: `public` for the results channel,
    `sheets[team]` and `spy_reports[team]` for that team's manager only."""

    state: LeagueState
    report: RoundReport
    public: list[str] = field(default_factory=list)
    sheets: dict[str, list[str]] = field(default_factory=dict)
    spy_reports: dict[str, list[str]] = field(default_factory=dict)


def run_round(state: LeagueState, orders: dict[str, RoundOrders]) -> RoundOutcome:
    """Play the next round (rounds.play_round; teams without orders: NMR) and split what it
    produced per audience. `state` is not changed; raises VolleyballError like play_round."""
    after, report = play_round(state, orders)
    outcome = RoundOutcome(after, report, public_round_summary(after, report))
    for team in after.league.teams:
        outcome.sheets[team.name] = team_sheet(after, team.name, report)
        private = report.private.get(team.name, [])
        spying: list[str] = []
        inside = False
        for line in private:
            if line.startswith("Spy report on "):
                inside = True
            elif not line.startswith(" "):
                inside = False
            if inside:
                spying.append(line)
        if spying:
            outcome.spy_reports[team.name] = spying
    return outcome
