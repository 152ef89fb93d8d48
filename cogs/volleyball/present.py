"""How a Volleyball league reads in Discord: the public round post, a manager's private sheet,
the season's end, and the small pieces every answer uses (docs/rules/volleyball.md, "What the
public sees" and "A manager's week").

The engine (rules.volleyball) writes plain text: sentences with names in them, no markdown.
Everything here shows that text through ui.text.shown, so a name is always text, never
markdown, a link or a mention; the bot's own emphasis (a bold heading, a timestamp) is
ui.text's `Markup`, added here around text that has been shown. Functions are pure (state in, text out)
and run off the event loop with the round.

Goals (bench/volleyball_discord.py prints them): the public round post is one message, one
phone screen (the results and tables are images, below it or behind its buttons); the
private sheet says in its first three lines the
results, the money and what to do next, and has no line a phone must scroll sideways.
"""

from __future__ import annotations

from rules.volleyball import (
    LeagueState,
    RoundReport,
    SeasonEnd,
    SquadDepth,
    money_line,
    round_commitment,
    round_results,
    season_publication,
    squad_lines,
    team_status,
)
from ui import Markup, bold, item, packed, shown
from ui.formats import due, human_join, plural, possessive

SETS = 5  # sets of a match (rule 2)
PHONE_LINE = 120  # a private line longer than this is cut (it wraps, it never scrolls)
# A public round post's text, at most: with its buttons it is one phone screen (about 26
# lines of the phone's column); what does not fit is one tap away (every set) or a command.
PHONE_POST = 900


def fitted(lines: list[str], limit: int, more: str) -> list[str]:
    """As many of `lines` (shown) as fit in `limit` characters with room for the line
    `more` says ("and {n} more ..."), which ends the list when some were left out."""
    out: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        text = shown(line)
        rest = len(lines) - index
        tail = more.format(n=rest)
        if size + len(text) + 1 + (len(tail) + 1 if rest > 1 else 0) > limit:
            out.append(tail)
            break
        out.append(text)
        size += len(text) + 1
    return out


def deadline_policies(hand_over_after: int, vacation_pauses: bool) -> str:
    """A league's deadline policies in a sentence (rulings 53 and 55): the league's card and
    `/volleyball league config` say it."""
    if hand_over_after:
        missed = (
            f"After {plural(hand_over_after):round} in a row without orders the computer "
            "manages the team"
        )
    else:
        missed = "Missed rounds never hand a team to the computer"
    if vacation_pauses:
        away = "a manager's vacation (`/settings vacation`) puts the deadline off."
    else:
        away = "rounds are played at their deadline whoever is on vacation."
    return Markup(f"{missed}; {away}")


# --- a new team ------------------------------------------------------------------------------


def _sets(count: int) -> str:
    return "all five sets" if count >= SETS else f"{count} {'set' if count == 1 else 'sets'}"


def depth_line(team_name: str, depth: SquadDepth) -> Markup:
    """How many sets of a match a new roster can field and, when not all five, what a
    player or two more would change (rules.volleyball.squad_depth; docs/rules/volleyball.md,
    "Teams")."""
    who = f"{shown(team_name)}'s {depth.players} players"
    if depth.sets >= SETS:
        return Markup(f"{who} can field all five sets of a match.")
    lost = " and ".join(str(n) for n in range(depth.sets + 1, SETS + 1))
    several = depth.sets + 1 < SETS
    line = (
        f"**{who} can field sets 1 to {depth.sets} of a match and no more**: a player loses "
        f"5 level points a set he plays, so set{'s' if several else ''} {lost} would have "
        "nobody and be lost 0-15 if played."
    )
    if depth.with_more:
        more = ", ".join(f"{n} players {_sets(sets)}" for n, sets in depth.with_more)
        line += (
            f" The same points spread over more players would field more ({more}); new "
            "players come from the GM offers (`/volleyball market`) and talent scouts."
        )
    return Markup(line)


# --- the public round post ------------------------------------------------------------------

GM_OFFERS = "Open for bids in round "
CUP_DRAW = "Galaxy Cup draw "


def _news(events: list[str]) -> list[str]:
    """The round's news without the match scores (they are in the images and lines above)
    and with the GM offers counted instead of listed (`/volleyball market` lists them)."""
    news = [
        e
        for e in events
        if not e.startswith(("Match ", GM_OFFERS, CUP_DRAW))
        and not (e.startswith("Galaxy Cup: ") and " reach " not in e)
    ]
    offers = sum(1 for e in events if e.startswith(GM_OFFERS))
    if offers:
        news.append(f"{plural(offers):GM offer} open for bids (/volleyball market).")
    return news


def commitment_line(state: LeagueState) -> list[str]:
    """The next round's dice commitment, published before its orders can matter (ruling 57):
    its seed and salt are revealed in its matches' records once it is played. None for a
    league without a secret, or at a season's end (no round is next)."""
    secret, league = state.league.secret, state.league
    if secret is None or state.season_over:
        return []
    published = round_commitment(secret, league.season, league.round_number)
    return [f"-# Round {league.round_number}'s dice commitment: {published}"]


def next_step(state: LeagueState, deadline: float | None) -> Markup:
    """What a manager does next, with the deadline."""
    if state.season_over:
        what = f"ageing splits for the end of season {state.league.season}"
        how = "AGEING lines with `/volleyball orders upload`, or leave them to the bot"
    else:
        what = f"orders for round {state.league.round_number}"
        how = "`/volleyball orders send`, or **Repeat last orders** on the league card"
    if deadline is None:
        return Markup(f"Next: {what} ({how}); no deadline while the league is paused.")
    return Markup(f"Next: {what} due {due(deadline)}: {how}.")


def public_round_post(
    league_name: str,
    state: LeagueState,
    report: RoundReport,
    deadline: float | None,
    handed_over: list[str] | None = None,
    limit: int = PHONE_POST,
) -> str:
    """The results channel's post for a played round (`state` is after it): one message of
    at most `limit` characters, one phone screen with its images and buttons (each
    division's results and table, the cup: cogs/volleyball/posting.py). Scores of the
    round's matches, who sent no orders (and whose team the computer manages from now on:
    `handed_over`, ruling 55), the news, and when the next orders are due; what does not fit
    is summed up with the command that shows it."""
    head = Markup(
        f"**{shown(league_name)}**, season {report.season}: round {report.round_number} results"
    )
    scores = []
    for result in state.league.results:
        fixture = result.fixture
        if fixture.round_number != report.round_number:
            continue
        label = "Galaxy Cup" if fixture.competition == "cup" else f"M{fixture.match_number}"
        scores.append(
            f"{label}: {fixture.home} {result.home_sets}-{result.away_sets} {fixture.away}"
        )
    nmr = (
        [f"No orders from {human_join(report.nmr_teams, final='and')} (NMR, rule 12)."]
        if report.nmr_teams
        else []
    )
    if handed_over:
        count = plural(len(handed_over))
        nmr.append(
            f"The computer manages {human_join(handed_over, final='and')} from now on: "
            f"{count:its|their!} manager{count:|s!} sent no orders for the league's limit of "
            "rounds in a row (a user may take the seat: /volleyball take-seat)."
        )
    news = _news(report.events)
    tail = [next_step(state, deadline), *commitment_line(state)]
    nmr = [shown(line) for line in nmr]
    fixed = [head, *nmr, *tail]
    room = limit - sum(len(line) + 1 for line in fixed)
    more = f"… and {{n}} more: `/volleyball results round:{report.round_number}`"
    body = fitted(scores, max(0, room // 2), more)
    room -= sum(len(line) + 1 for line in body)
    if news:
        body += fitted(["News:", *(item(e) for e in news)], max(0, room), more)
    text = "\n".join([head, *body, *nmr, *tail])
    return text[:limit]


# --- the private sheet ----------------------------------------------------------------------


def _phone(line: str) -> str:
    line = line.strip()
    return line if len(line) <= PHONE_LINE else line[: PHONE_LINE - 1] + "…"


def private_round_sheet(
    league_name: str,
    state: LeagueState,
    team_name: str,
    report: RoundReport,
    deadline: float | None,
    dropped: list[str] | None = None,
    handed_over_after: int | None = None,
) -> list[str]:
    """A manager's DM after a round (`state` is after it): the results, the money and what
    to do next in the first three lines, then what happened to the team this round (its own
    totals, training, money, spy reports), then the squad. With `handed_over_after` (the
    rounds in a row it went without orders) the computer manages the team from now on
    (ruling 55), and the sheet says so first after those three lines."""
    team = state.league.team(team_name)
    if team is None:
        return []
    results = round_results(state, team_name, report.round_number)
    lines: list[str] = [
        Markup(
            f"**{shown(team.name)}**, round {report.round_number} of {shown(league_name)} "
            "(private): " + shown("; ".join(results) if results else "no match this round")
        ),
        money_line(team, report) + ".",
        next_step(state, deadline),
    ]
    if handed_over_after:
        lines.append(
            Markup(
                f"**The computer manages {shown(team.name)} from now on**: you sent no orders "
                f"for {plural(handed_over_after):round} in a row, the league's limit. "
                f"`/volleyball take-seat team:{shown(team.name)}` takes it back while no one "
                "else has."
            )
        )
    if dropped:
        lines += [
            Markup(
                "**Your orders on file no longer fitted the round**, so your team played the "
                "NMR line-up (rule 12):"
            ),
            *(item(p) for p in dropped),
        ]
    private = report.private.get(team.name, [])
    if private:
        lines += ["", bold(f"Round {report.round_number}, for your eyes only")]
        lines += [_phone(line) for line in private]
    lines += ["", *squad_part(state, team_name)]
    return packed(lines)


def squad_part(state: LeagueState, team_name: str) -> list[str]:
    team = state.league.team(team_name)
    if team is None:
        return []
    return [
        bold(f"{possessive(team.name)} squad (age, OL/DL, trained this season)"),
        *squad_lines(team),
        team_status(state, team),
    ]


def team_sheet_messages(
    league_name: str, state: LeagueState, team_name: str, deadline: float | None
) -> list[str]:
    """`/volleyball team show` and the sheet after joining: the money and what to do next
    first, then the squad."""
    team = state.league.team(team_name)
    if team is None:
        return [f"There is no team called {shown(team_name)} in {shown(league_name)}."]
    lines: list[str] = [
        Markup(f"**{shown(team.name)}** in {shown(league_name)} (only you see this)"),
        money_line(team) + ".",
        next_step(state, deadline),
        "",
        *squad_part(state, team_name),
    ]
    return packed(lines)


# --- the season's end and start -------------------------------------------------------------


def season_end_post(league_name: str, closed: SeasonEnd) -> list[str]:
    """The results channel's post at a season's end: champions, cup, promotion and
    relegation, contract players leaving; what the GM publishes for the new season is behind
    its Season details button (season_start_lines), the cup draw attached or behind a
    button, the schedule `/volleyball schedule`. Nothing of
    a team's players, ages or levels (docs/rules/volleyball.md, "What the public sees")."""
    old = closed.state.league.season - 1
    lines: list[str] = [Markup(f"**{shown(league_name)}: season {old} is over**")]
    lines += [item(e) for e in _news(closed.public)]
    lines += [
        "Each manager has their team's ageing by DM.",
        Markup(
            f"Season {closed.state.league.season} begins: **Season details** has what the GM "
            "publishes, `/volleyball schedule` the fixtures."
        ),
        *commitment_line(closed.state),
    ]
    return packed(lines)


def league_begins_post(
    league_name: str, deadlines: str, state: LeagueState, deadline: float, managers: dict[str, int]
) -> list[str]:
    """The results channel's post when a league starts: its deadlines (`deadlines` as the
    rule describes them), the managers (`managers` team -> user) and how orders are sent;
    what the GM publishes for the season is behind its Season details button
    (season_start_lines), so the post is one phone screen."""
    season, number = state.league.season, state.league.round_number
    lines: list[str] = [
        Markup(
            f"**{shown(league_name)} begins!** Deadlines {deadlines}; round {number} of season "
            f"{season} is due {due(deadline)}."
        ),
        Markup(
            "Managers: " + ", ".join(f"<@{u}> ({shown(t)})" for t, u in sorted(managers.items()))
        )
        if managers
        else "No managers yet: every team is run by the computer.",
        Markup(
            "Send orders with the card's buttons or `/volleyball orders send`. **Season "
            "details** has what the GM publishes (points, sponsors, contract players), "
            "`/volleyball schedule` the fixtures."
        ),
        *commitment_line(state),
    ]
    return packed(lines)


def season_start_lines(state: LeagueState) -> list[str]:
    """What the GM makes public at the start of a season, without the schedule (the
    `/volleyball schedule` command shows it; `/volleyball season` shows everything)."""
    published = season_publication(state).lines(schedule=False)
    lines: list[str] = [bold(published[0]), *published[1:]]
    lines.append(
        Markup(
            f"Schedule: `/volleyball schedule` ({plural(state.total_rounds):round}); the "
            "Galaxy Cup draw: `/volleyball cup`."
        )
    )
    return lines


def season_end_private(
    league_name: str, closed: SeasonEnd, team_name: str, deadline: float | None
) -> list[str]:
    """A manager's DM at a season's end: what ageing did to the team, then the sheet."""
    state = closed.state
    team = state.league.team(team_name)
    own = closed.private.get(team_name, [])
    lines: list[str] = [
        Markup(
            f"**{shown(team_name)}**: season {state.league.season} begins in "
            f"{shown(league_name)} (private)"
        ),
    ]
    if team is not None:
        lines += [money_line(team) + ".", next_step(state, deadline)]
    if own:
        lines += ["", bold(f"The end of season {state.league.season - 1}"), *own]
    if team is not None:
        lines += ["", *squad_part(state, team_name)]
    return packed(lines)
