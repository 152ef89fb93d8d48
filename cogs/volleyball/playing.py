"""Playing what is next in a league, with what the database holds (the orders on file and
the managers), and what it sends to whom: pure functions of the engine's state, run off the
event loop by the league service (league.py), which saves their results in one transaction.
"""

from __future__ import annotations

import json

from db.volleyball import NewReport
from rules.volleyball import (
    LeagueState,
    RoundOrders,
    ageing_split_problems,
    all_computer_orders,
    end_season,
    run_round,
    season_publication,
    split_messages,
    submit_orders,
    team_sheet,
)

DISCORD_LIMIT = 2000
ORDER_KINDS = {
    "matches",
    "training",
    "scout_talents",
    "spies",
    "sponsor",
    "sales",
    "transfer_bids",
    "gm_offer_bids",
    "contract_bids",
    "ageing",
}


def encode(state: LeagueState) -> str:
    return json.dumps(state.to_dict(), separators=(",", ":"))


def round_key(state: LeagueState) -> tuple[int, int]:
    """(season, round) of what is played next; after the last round the round is one past
    it, and 'playing' it ends the season."""
    return state.league.season, state.league.round_number


def round_name(state: LeagueState) -> str:
    season, number = round_key(state)
    if state.season_over:
        return f"the end of season {season}"
    return f"round {number} of season {season}"


def timestamp(moment: float, style: str = "f") -> str:
    """Discord's timestamp markup: every reader sees the moment in their own time zone."""
    return f"<t:{int(moment)}:{style}>"


def with_header(header: list[str], messages: list[str]) -> list[str]:
    """A private report: its header lines on top of the sheet's first message when they fit
    in one Discord message, else as a message of their own."""
    top = split_messages(header)
    if messages and len(top) == 1 and len(top[0]) + 1 + len(messages[0]) <= DISCORD_LIMIT:
        return [f"{top[0]}\n{messages[0]}", *messages[1:]]
    return top + messages


def play_round_reports(
    league_name: str,
    state: LeagueState,
    managers: dict[str, int],
    on_file: dict[str, str],
) -> tuple[LeagueState, list[NewReport]]:
    """The round with the managers' orders on file (each checked again against the state
    as it is now; orders that no longer fit are not played, and the manager is told),
    the computer teams' orders, and NMR for everyone else (rule 12)."""
    orders = all_computer_orders(state)
    dropped: dict[str, list[str]] = {}
    for team, text in on_file.items():
        if team not in managers or state.league.team(team) is None:
            continue
        check = submit_orders(
            state, team, orders=RoundOrders.from_dict(json.loads(text)), kinds=ORDER_KINDS
        )
        if check.accepted:
            orders[team] = check.orders
        else:
            dropped[team] = check.problems
    outcome = run_round(state, orders)
    after = outcome.state
    number = round_key(state)[1]
    images = ["standings"]
    if any(
        r.fixture.competition == "cup" and r.fixture.round_number == number
        for r in after.league.results
    ):
        images.append("cup")
    reports = [NewReport("", None, outcome.public, images)]
    for team, user_id in sorted(managers.items()):
        sheet = outcome.sheets.get(team)
        if sheet is None:
            continue
        header = [f"**{league_name}**: round {number} results for {team} (private)"]
        if team in dropped:
            header += [
                "Your orders on file no longer fitted the round, so your team played "
                "the NMR line-up (rule 12):",
                *(f"- {p}" for p in dropped[team]),
            ]
        reports.append(NewReport(team, user_id, with_header(header, sheet), []))
    return after, reports


def end_season_reports(
    league_name: str,
    state: LeagueState,
    managers: dict[str, int],
    on_file: dict[str, str],
) -> tuple[LeagueState, list[NewReport]]:
    """Rule 10 with the managers' ageing splits on file (a split that no longer fits is
    left to the default), then the next season opened and published."""
    splits = {}
    for team_name, text in on_file.items():
        team = state.league.team(team_name)
        if team is None or team_name not in managers:
            continue
        given = RoundOrders.from_dict(json.loads(text)).ageing
        if not ageing_split_problems(team, given):
            splits[team_name] = given
    after, events = end_season(state, splits)
    season = state.league.season
    lines = [f"**{league_name}: season {season} is over**", *(f"- {e}" for e in events)]
    public = split_messages(lines) + season_publication(after).messages()
    reports = [NewReport("", None, public, ["cup"])]
    for team, user_id in sorted(managers.items()):
        if after.league.team(team) is None:
            continue
        header = [f"**{league_name}**: season {season + 1} begins for {team} (private)"]
        reports.append(NewReport(team, user_id, with_header(header, team_sheet(after, team)), []))
    return after, reports
