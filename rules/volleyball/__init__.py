"""Volleyball (Rien Kooy's play-by-e-mail league rules) as a pure engine; the bot is the GM.

The rules as the bot plays them, with every ruling: docs/rules/volleyball.md.

The Discord cog imports only this package (and render.volleyball). What it calls:

League
- new_league(human_teams, *, total_teams, divisions=None, config=None, seed=0,
  promotion_places=2) -> LeagueState: free seats filled with computer teams, divisions of at
  most 16 (division_sizes(n) splits n teams), the first season opened. create_league(teams,
  *, config, seed, promotion_places) for teams whose `division` is set.
- create_team(name, [PlayerDraft], config, manager_id=, taken_team_names=) -> Team (rule 1);
  new_team_problems(...) -> list[str] for a form that should not raise.
- generated_roster(config, seed) -> [PlayerDraft]: "Make me a team", legal and large enough
  to field all five sets; generated_team_name(seed, taken); squad_depth([PlayerDraft],
  config) -> SquadDepth(players, sets, with_more): the sets a roster can field and what one
  or two players more would change (fieldable_sets(team) for a team); players_for_every_set
  (config) -> (players, True): the fewest whose share of the points fields all five sets.
- release_seat(state, team) -> LeagueState: the team is computer-managed again (its manager left)
- take_over_seat(state, seat, manager_id, team=None) -> LeagueState: a user takes a
  computer team's seat in a running league (with their own new team, or the seat's).
- LeagueState.to_dict()/from_dict() (JSON; "schema_version" SCHEMA_VERSION, older states
  upgraded, newer refused with VolleyballError); LeagueState.copy().
- close_season(state, {team: [AgeingSplit]}) -> SeasonEnd(state, public, private): rule 10,
  promotion and relegation, the next season opened; `public` for everyone, `private[team]`
  (ageing, levels, talents) for that team's manager only. end_season(...) -> (LeagueState,
  every line) for the command line. ageing_split_problems(team, splits) for the form.

Orders
- submit_orders(state, team, *, text=None, orders=None, on_file=None, kinds=None)
  -> OrderCheck(orders, problems, warnings, accepted): a message (the seed's forms and the
  order lines of ordertext: SPONSOR, SCOUT, SPY, SELL, BID, GM BID, CONTRACT, AGEING, TRAIN)
  or structured RoundOrders, merged with what is on file, checked against the round. Store
  `orders` only when `accepted`; show every problem and warning. Between seasons only AGEING
  lines are taken; pass the stored `orders.ageing` per team to end_season.
- starting_lineup(team, opponent=, home=, match_number=, home_advantage=) -> MatchOrders:
  what the orders form and the editor open with (five full sets when the squad can field
  them, the home advantage spread); lineup_warnings(match_orders, allowance) what a line-up
  gives away; repeat_lineups(team, last_orders, fixtures, home_advantage, league_matches=)
  -> Repeated(orders, changes): last round's line-ups onto this round's matches of the
  same kind (cup or league).
- format_round_forms(team, fixtures, orders=None, division=) -> str: the forms to fill in;
  format_orders_text(orders) -> str: the order lines of what is on file.
- preview_match(team, match_orders) -> [SetPreview(set_number, ol_total, dl_total, chance,
  players)]: totals and scoring chance per set against the neutral opponent.
- round_fixtures(state, round_number), team_fixtures(fixtures, team): who plays whom.
- RISK_RANGES {Concept: (low, high)} and CONCEPT_REQUIREMENTS {Concept: (positions, minimum,
  label)}: rule 3's risk ranges and formation needs, for menus that offer only legal choices.
- Data classes (orders): RoundOrders, MatchOrders, SetOrder, PlayerSlot, Position, Concept,
  LevelPoints, TrainingOrder, SpyOrder, TransferSale, TransferBid, GmOfferBid, ContractBid,
  AgeingSplit; each to_dict()/from_dict(). VolleyballError(problems).problems lists every
  problem, each a sentence for the manager.

Rounds
- run_round(state, {team: RoundOrders}) -> RoundOutcome(state, report, public, sheets,
  spy_reports): teams without orders are NMR (rule 12); `public` is the results channel's
  lines, `sheets[team]` and `spy_reports[team]` go to that manager only.
  (play_round(state, orders) -> (LeagueState, RoundReport) underneath.)
- all_computer_orders(state) -> {team: RoundOrders} for the computer-managed teams.

Lesson (docs/rules/volleyball.md "Learn by playing"; data/lessons/volleyball.json)
- lesson_script() -> Lesson, checked when loaded; Lesson.league() the lesson's league of two
  seats; mismatch(lesson, step, control, set) -> the step's hint for any other click (empty:
  the click is the step's).

Fair dice and records (docs/rules/volleyball.md ruling 57; fair.py, record.py)
- round_commitment(secret, season, round) -> the hash published before a round;
  round_records(secret, report, results) -> [(Fixture, record text)] of a played round;
  described(record text) -> (the match in words, its result).

Read-only answers (text lines; the presenter packs them into messages)
- season_publication(state) -> SeasonPublication (.to_dict(), .lines()):
  what the GM makes public at the start of a season.
- standings_lines(state, division=None), state.table(division).standings() -> [TableRow];
  schedule_lines(state, team=None); results_lines(state, round_number); cup_bracket(state)
  -> rounds of BracketMatch; team_history(state, team); team_sheet(state, team, report=None);
  market_lines(state): the transfer list, GM offers and contract players open for bids.

Modules: orders and models (data), creation, match, orderform, ordertext, rounds, training,
economy, market, ageing, cup, season, seats, reports, composed (the calls composed of them),
managers (computer teams), lesson (the lesson's steps), why (a round's events naming
the rulings that decided them, docs/rules/volleyball.md "Why?").
"""

from rules.volleyball.ageing import ageing_split_problems
from rules.volleyball.composed import (
    RoundOutcome,
    SetPreview,
    division_sizes,
    new_league,
    preview_match,
    run_round,
)
from rules.volleyball.creation import (
    PlayerDraft,
    SquadDepth,
    create_team,
    generated_roster,
    generated_team_name,
    new_team_problems,
    players_for_every_set,
    squad_depth,
)
from rules.volleyball.deadlines import (
    WEEKDAYS,
    DeadlineError,
    DeadlineRule,
    missed_rounds_after,
    next_deadline,
    parse_rule,
)
from rules.volleyball.fair import round_commitment
from rules.volleyball.lesson import Lesson, lesson_script, mismatch
from rules.volleyball.lineups import (
    Repeated,
    fieldable_sets,
    lineup_warnings,
    refill_sets,
    repeat_lineups,
    starting_lineup,
)
from rules.volleyball.managers import all_computer_orders
from rules.volleyball.match import default_match_orders
from rules.volleyball.models import League, Player, SeasonConfig, Team
from rules.volleyball.orderform import format_round_forms
from rules.volleyball.orders import (
    CONCEPT_REQUIREMENTS,
    RISK_RANGES,
    AgeingSplit,
    Concept,
    ContractBid,
    GmOfferBid,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    Position,
    RoundOrders,
    SetOrder,
    SpyOrder,
    TrainingOrder,
    TransferBid,
    TransferSale,
    VolleyballError,
    form_points,
    points_used,
)
from rules.volleyball.ordertext import KINDS as ORDER_KINDS
from rules.volleyball.ordertext import format_orders_text, submit_orders
from rules.volleyball.record import described, round_records
from rules.volleyball.reports import (
    BracketMatch,
    SeasonPublication,
    cup_bracket,
    market_lines,
    money_line,
    results_lines,
    round_results,
    schedule_lines,
    season_publication,
    squad_lines,
    standings_lines,
    team_history,
    team_sheet,
    team_status,
)
from rules.volleyball.rounds import (
    OrderCheck,
    RoundReport,
    play_round,
    round_fixtures,
    team_fixtures,
)
from rules.volleyball.season import (
    SCHEMA_VERSION,
    LeagueState,
    SeasonEnd,
    close_season,
    create_league,
    end_season,
)
from rules.volleyball.seats import release_seat, take_over_seat
from rules.volleyball.why import Ruled, match_events, round_events

__all__ = [
    "CONCEPT_REQUIREMENTS",
    "ORDER_KINDS",
    "RISK_RANGES",
    "SCHEMA_VERSION",
    "WEEKDAYS",
    "AgeingSplit",
    "BracketMatch",
    "Concept",
    "ContractBid",
    "DeadlineError",
    "DeadlineRule",
    "GmOfferBid",
    "League",
    "LeagueState",
    "Lesson",
    "LevelPoints",
    "MatchOrders",
    "OrderCheck",
    "Player",
    "PlayerDraft",
    "PlayerSlot",
    "Position",
    "Repeated",
    "RoundOrders",
    "RoundOutcome",
    "RoundReport",
    "Ruled",
    "SeasonConfig",
    "SeasonEnd",
    "SeasonPublication",
    "SetOrder",
    "SetPreview",
    "SpyOrder",
    "SquadDepth",
    "Team",
    "TrainingOrder",
    "TransferBid",
    "TransferSale",
    "VolleyballError",
    "ageing_split_problems",
    "all_computer_orders",
    "close_season",
    "create_league",
    "create_team",
    "cup_bracket",
    "default_match_orders",
    "described",
    "division_sizes",
    "end_season",
    "fieldable_sets",
    "form_points",
    "format_orders_text",
    "format_round_forms",
    "generated_roster",
    "generated_team_name",
    "lesson_script",
    "lineup_warnings",
    "market_lines",
    "match_events",
    "mismatch",
    "missed_rounds_after",
    "money_line",
    "new_league",
    "new_team_problems",
    "next_deadline",
    "parse_rule",
    "play_round",
    "players_for_every_set",
    "points_used",
    "preview_match",
    "refill_sets",
    "release_seat",
    "repeat_lineups",
    "results_lines",
    "round_commitment",
    "round_events",
    "round_fixtures",
    "round_records",
    "round_results",
    "run_round",
    "schedule_lines",
    "season_publication",
    "squad_depth",
    "squad_lines",
    "standings_lines",
    "starting_lineup",
    "submit_orders",
    "take_over_seat",
    "team_fixtures",
    "team_history",
    "team_sheet",
    "team_status",
]
