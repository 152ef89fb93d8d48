"""Playing what is next in a league, with what the database holds (the orders on file and
the managers), and what it sends to whom: pure functions of the engine's state, run off the
event loop by the league service (league.py), which saves their results in one transaction.
"""

from __future__ import annotations

import json
from typing import Any

from cogs.volleyball.present import (
    league_begins_post,
    private_round_sheet,
    public_round_post,
    season_end_post,
    season_end_private,
)
from db.volleyball import NewReport, StoredLeague
from db.volleyball_records import NewRecord
from rules.volleyball import (
    ORDER_KINDS,
    DeadlineRule,
    LeagueState,
    RoundOrders,
    Ruled,
    ageing_split_problems,
    all_computer_orders,
    close_season,
    next_deadline,
    play_round,
    release_seat,
    round_events,
    round_records,
    submit_orders,
)


def league_secret(bot: Any) -> str:
    """What a league's rounds' dice are derived from (ruling 57): 128 bits from the bot's seed
    source (the OS's randomness; a fixed sequence under GAME_SEED, for reproducible runs)."""
    return f"{bot.seed_source.getrandbits(128):032x}"


def decode(stored: StoredLeague) -> LeagueState:
    return LeagueState.from_dict(stored.state_json())


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


def play_round_reports(
    league_name: str,
    state: LeagueState,
    managers: dict[str, int],
    on_file: dict[str, str],
    deadline: float | None,
    handed_over: dict[str, int] | None = None,
    secret: str | None = None,
) -> tuple[LeagueState, list[NewReport], list[NewRecord]]:
    """The round with the managers' orders on file (each checked again against the state
    as it is now; orders that no longer fit are not played, and the manager is told),
    the computer teams' orders, and NMR for everyone else (rule 12). The reports: the public
    post (one message; its images, below it or behind its buttons, are each division's
    results and table, and the cup's bracket when the cup played) and each manager's sheet (present.py). `deadline` is when
    the next orders are due (None while paused). `handed_over` (team -> rounds missed in a
    row) are the managed teams the computer manages after this round (ruling 55): their
    seats are released, the post names them and each sheet tells its manager. The records of
    the round's matches, with its seed revealed (ruling 57; none for a league whose round had
    no commitment): a league without a secret gets `secret` (128 random bits the caller drew),
    so its next round is committed to in this round's post."""
    handed_over = handed_over or {}
    orders = all_computer_orders(state)
    dropped: dict[str, list[str]] = {}
    for team, text in on_file.items():
        if team not in managers or state.league.team(team) is None:
            continue
        check = submit_orders(
            state, team, orders=RoundOrders.from_dict(json.loads(text)), kinds=set(ORDER_KINDS)
        )
        if check.accepted:
            orders[team] = check.orders
        else:
            dropped[team] = check.problems
    after, report = play_round(state, orders)
    records = [
        NewRecord(fixture.match_number, fixture.home, fixture.away, text)
        for fixture, text in round_records(state.league.secret, report, after.league.results)
    ]
    if after.league.secret is None:
        after.league.secret = secret
    for team in sorted(handed_over):
        if after.league.team(team) is not None:
            after = release_seat(after, team)
    number = round_key(state)[1]
    images = ["round"]
    if any(
        r.fixture.competition == "cup" and r.fixture.round_number == number
        for r in after.league.results
    ):
        images.append("cup")
    post = public_round_post(league_name, after, report, deadline, sorted(handed_over))
    events = round_events(report)
    reports = [NewReport("", None, [post], images, why_of(events, ""))]
    for team, user_id in sorted(managers.items()):
        if after.league.team(team) is None:
            continue
        sheet = private_round_sheet(
            league_name, after, team, report, deadline, dropped.get(team), handed_over.get(team)
        )
        reports.append(NewReport(team, user_id, sheet, [], why_of(events, team)))
    return after, reports, records


def why_of(events: list[Ruled], team: str) -> list[tuple[str, list[str]]]:
    """What a round's Why? keeps on a report (db/migrations/028_volleyball_round_why.sql): each
    event's text and rule ids, those anyone may read on the public report (`team` ''), a team's
    own on its manager's sheet; the report's messages are not copied."""
    return [(event.text, list(event.rules)) for event in events if event.team == team]


def end_season_reports(
    league_name: str,
    state: LeagueState,
    managers: dict[str, int],
    on_file: dict[str, str],
    deadline: float | None,
) -> tuple[LeagueState, list[NewReport]]:
    """Rule 10 with the managers' ageing splits on file (a split that no longer fits is
    left to the default), then the next season opened. The public post names champions,
    promotion and the new season; each team's ageing goes to its manager only."""
    splits = {}
    for team_name, text in on_file.items():
        team = state.league.team(team_name)
        if team is None or team_name not in managers:
            continue
        given = RoundOrders.from_dict(json.loads(text)).ageing
        if not ageing_split_problems(team, given):
            splits[team_name] = given
    closed = close_season(state, splits)
    reports = [NewReport("", None, season_end_post(league_name, closed), ["cup", "season"])]
    for team, user_id in sorted(managers.items()):
        if closed.state.league.team(team) is None:
            continue
        sheet = season_end_private(league_name, closed, team, deadline)
        reports.append(NewReport(team, user_id, sheet, []))
    return closed.state, reports


def league_begins_report(
    league_name: str, deadlines: str, state: LeagueState, deadline: float, managers: dict[str, int]
) -> NewReport:
    """The post when a league starts (the report of round 0), with the cup's draw and the
    season's publication (cogs/volleyball/posting.py shows them or puts them behind buttons)."""
    return NewReport(
        "",
        None,
        league_begins_post(league_name, deadlines, state, deadline, managers),
        ["cup", "season"],
    )


def round_time(stored: StoredLeague) -> tuple[float, float] | None:
    """(since, set deadline) of the round that runs now; None while no deadline is set. A
    league armed before its round's time was stored counts a period back from its
    deadline; a deadline on file earlier than the set one (moved by hand) wins."""
    if stored.next_deadline is None:
        return None
    rule = DeadlineRule.from_dict(stored.deadline_rule)
    deadline = min(stored.set_deadline or stored.next_deadline, stored.next_deadline)
    since = stored.round_since if stored.round_since is not None else deadline - rule.period
    return min(since, deadline), deadline


def first_deadline(stored: StoredLeague, now: float) -> float:
    """The first deadline of a league that has none (its rule, from its anchor)."""
    rule = DeadlineRule.from_dict(stored.deadline_rule)
    return next_deadline(rule, stored.anchor, now=now, after=None)
