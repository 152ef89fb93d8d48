"""Rollerball II: the card-driven sports simulation (Chris Rohan's Rollerball II rules;
how the bot plays them, with every ruling: docs/rules/rollerball2.md).

Pure engine: no Discord, no images, no database, no clock. Every die roll and card draw comes from
the seeded random.Random held in the match state and is reported as an Event.

Public API
----------
Teams
    generate_roster(seed, team_name) -> Roster          25 named players (11 S, 7 B, 7 C), the
                                                         team's own experience mix
    Roster.experience_mix() -> {"star": n, ...}; Roster.quality -> "contender" | "average" |
        "underdog" (STARs minus ROOKIEs on the cards: visible, not a hidden rating)
    default_lineup(roster) -> Lineup                     {slot: number or None}, 10 slots
    roster.match_lineup(roster, saved) -> (Lineup, [LineupChange])   the saved line-up with the
        default replacement for each player who may not play
    validate_lineup(roster, lineup) -> None              raises RollerballError
    roster_problems(roster) -> list[str]; validate_roster(roster) -> None   every card checked
    card_problems(card) -> list[str]                     the seed's card rules (as the tables)
    roster_after_match(roster, absences) -> Roster       carry-over into the next match
    roster_new_season(roster) -> Roster                  season-long absences end
Matches
    new_match(seed, home, away, settings=None, home_lineup=None, away_lineup=None) -> MatchState
        Settings(overtime=True, private_lineups=False, coach_dice=False); with private_lineups
        the match starts in a setup phase where both coaches hand in SubmitLineup (hidden until
        both are in); with coach_dice a play that rolls waits in pending {"kind": "dice",
        "team": side} until that coach sends RollDie(team), die by die
    actors(state) -> frozenset[str]                      "home"/"away": who may act now
    legal_actions(state) -> list[Action]
    apply(state, action) -> (MatchState, list[Event])    copy; RollerballError if illegal
    play_until_event(state, stop_kinds=STOP_KINDS) -> (MatchState, list[Event])
        turns cards until a goal, a penalty, a coach decision, a period's end or the final
    substitution_slots(state, team) -> list[str]         step 1: slots that may change (<= 11)
    substitutes_for(state, team, slot) -> list[int]      step 2: fit bench players (<= 25)
    choose_action(state) -> Action                       the default coach
    step(state) -> (MatchState, list[Event])             one default-coach action
    auto_play(state) -> (MatchState, list[Event])        to the final whistle
    result(state) -> MatchResult                         scoresheets, winner, carry_over
    scoreboard(state) -> str                             clock, score, ball, what comes next
Actions (frozen dataclasses): NextCard(), Substitute(team, slot, number),
    CatcherChoice(team, roll), ChooseBiker(team, slot), ChooseScorer(team, slot),
    SubmitLineup.of(team, {slot: number}), RollDie(team)
    state.pending says which decision the match waits for: {"kind": "dice" | "catcher_choice" |
    "defensive_biker" | "assist_biker" | "pass_scorer", "team": "home" | "away", ...}
Events: Event(kind, text, fac=None, section=None, rolls=()); a "card" event names the FAC and
    the section read ("action", "biker_id", ...); "roll"/"chart" events carry Roll(column, face,
    result, side, slot, number) for every die, the offense die first. face_label(face) prints a
    face as the cards do (10 -> "0"). event_to_json / event_from_json.
Persistence
    to_json(state) -> dict / from_json(dict) -> MatchState     lossless
    to_record(state, *, salt=None, reveal) -> str               game records; with `salt` a
        [Commitment] always, [Seed]/[Salt] only when reveal (a live match: reveal=False);
        the header format, the commitment and the checks are rules/records.py's
    replay(text) -> MatchState                                  RollerballError for a live record
    verify_record(text) -> list[str]                            [] when seed, salt, commitment,
        actions and [Result] all agree (python -m rules verify FILE)
    parse_action(line) -> Action                                "next", "sub home Skater2 31", ...
Team management (rules.rollerball2.teams; no database)
    import_roster(csv_text, team, seed) -> Roster        columns name, number, position,
        experience [, offense, defense]; RosterImportError(.problems: every problem, by line)
    parse_roster_csv(csv_text, team, seed, whole_team=True) -> list[PlayerCard]
    roster_to_csv(roster) -> str                         reads back card for card
    open_places(roster) -> int                           signings left (25 who can still play)
    sign_generated(roster, seed, position) -> Roster; sign_players(roster, cards) -> Roster
    rename_player(roster, number, name) -> Roster; rename_team(roster, name) -> Roster
    clean_name(name, what) -> str                        1-32 printable characters
    player_status(roster, number) -> str                 "fit", "injured (2 matches)", "dead", ...
    lineup_choices(roster, slot) -> list[int]            fit starters for a slot, best first, <= 25
Hosted matches (rules.rollerball2.modes)
    Rb2Match(engine, mode, home_team_id, away_team_id, fixture_id, handed_over): a match as the
        host holds it (solo, coaches, simulate); play(match, seat, action) with the engine's
        actions or PlayUntil, SimulateRest, HandOver, Deadline
    ENGINE                                               the engine face (rules/face.py)
Seasons (rules.rollerball2.season)
    double_round_robin(teams) -> list[list[(home, away)]]   matchdays (rules/schedule.py)
    standings(teams, [GameScore(home, away, home_goals, away_goals)]) -> list[StandingRow]
Statistics (rules.rollerball2.stats), from MatchResult
    match_stats(PlayerLine) -> PlayerStats; career_stats(lines) -> PlayerStats
    lines_for(results, team, number) -> list[PlayerLine]
    team_stats(results, team) -> TeamStats (W-L-T, goals, casualties, penalty minutes)
    leaders(results, stat, count=10) -> list[Leader]; three_stars(result) -> [(side, PlayerLine)]
    player_rows(result, side), team_line(result, side)  the rows a finished match adds
    score_line(away, away_goals, home, home_goals) -> "Madrid 5 at Houston 6"
Content
    load_content() -> Content     FACs, player tables, charts, names (validated; ContentError)
Cards for the renderer: cards.PlayerCard, cards.FastActionCard (six Sections with text and
effect), scoresheet.MatchResult / TeamSheet / PlayerLine / Absence.

Command line: python -m rules.rollerball2 sim --matches N --seed S | demo --seed S [--record FILE
--salt HEX]; python -m rules replay FILE | verify FILE (python -m rules.rollerball2 replay|verify:
the same)
"""

from rules.rollerball2.cards import (
    BIKER,
    CATCHER,
    SKATER,
    FastActionCard,
    PlayerCard,
    card_problems,
    face_label,
)
from rules.rollerball2.coach import auto_play, choose_action, step
from rules.rollerball2.content import BIKER_SLOTS, EXTRA_SLOTS, SLOTS, ContentError, load_content
from rules.rollerball2.deadlines import SeasonTime, Waiting, away_periods
from rules.rollerball2.engine import (
    apply,
    describe,
    legal_actions,
    new_match,
    result,
    scoreboard,
    substitution_slots,
)
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.face import DEFAULT_COACH, ENGINE
from rules.rollerball2.modes import (
    MODE_WORDS,
    SIDES,
    Deadline,
    PlayUntil,
    Rb2Match,
    SimulateRest,
    sides_of,
)
from rules.rollerball2.record import parse_action, replay, to_record, verify_record
from rules.rollerball2.roster import (
    EXPERIENCE_RANK,
    Lineup,
    Roster,
    default_lineup,
    fits_slot,
    generate_roster,
    match_lineup,
    roster_after_match,
    roster_new_season,
    roster_problems,
    validate_lineup,
    validate_roster,
)
from rules.rollerball2.scoresheet import Absence, MatchResult, Moment, PlayerLine, TeamSheet
from rules.rollerball2.season import (
    DRAW_POINTS,
    WIN_POINTS,
    GameScore,
    StandingRow,
    double_round_robin,
    standings,
)
from rules.rollerball2.state import (
    AWAY,
    HOME,
    OVERTIME_PERIOD,
    PHASE_ACTION,
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    PHASE_FIRE,
    Action,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    Event,
    MatchState,
    NextCard,
    Roll,
    RollDie,
    Settings,
    SubmitLineup,
    Substitute,
    event_from_json,
    event_to_json,
    from_json,
    record_line,
    roster_from_json,
    roster_to_json,
    to_json,
)
from rules.rollerball2.stats import (
    LEADER_STATS,
    Leader,
    PlayerStats,
    TeamStats,
    career_stats,
    leaders,
    lines_for,
    match_stats,
    score_line,
    team_stats,
    three_stars,
)
from rules.rollerball2.teams import (
    RosterImportError,
    absence_status,
    clean_name,
    gone_for_good_absence,
    import_roster,
    lineup_choices,
    open_places,
    parse_roster_csv,
    player_status,
    rename_player,
    rename_team,
    roster_to_csv,
    sign_generated,
    sign_players,
)
from rules.rollerball2.turns import STOP_KINDS, actors, play_until_event, substitutes_for

__all__ = [
    "AWAY",
    "BIKER",
    "BIKER_SLOTS",
    "CATCHER",
    "DEFAULT_COACH",
    "DRAW_POINTS",
    "ENGINE",
    "EXPERIENCE_RANK",
    "EXTRA_SLOTS",
    "HOME",
    "LEADER_STATS",
    "MODE_WORDS",
    "OVERTIME_PERIOD",
    "PHASE_ACTION",
    "PHASE_ATTACK",
    "PHASE_BIKER_ID",
    "PHASE_EVENT",
    "PHASE_FIRE",
    "SIDES",
    "SKATER",
    "SLOTS",
    "STOP_KINDS",
    "WIN_POINTS",
    "Absence",
    "Action",
    "CatcherChoice",
    "ChooseBiker",
    "ChooseScorer",
    "ContentError",
    "Deadline",
    "Event",
    "FastActionCard",
    "GameScore",
    "Leader",
    "Lineup",
    "MatchResult",
    "MatchState",
    "Moment",
    "NextCard",
    "PlayUntil",
    "PlayerCard",
    "PlayerLine",
    "PlayerStats",
    "Rb2Match",
    "Roll",
    "RollDie",
    "RollerballError",
    "Roster",
    "RosterImportError",
    "SeasonTime",
    "Settings",
    "SimulateRest",
    "StandingRow",
    "SubmitLineup",
    "Substitute",
    "TeamSheet",
    "TeamStats",
    "Waiting",
    "absence_status",
    "actors",
    "apply",
    "auto_play",
    "away_periods",
    "card_problems",
    "career_stats",
    "choose_action",
    "clean_name",
    "default_lineup",
    "describe",
    "double_round_robin",
    "event_from_json",
    "event_to_json",
    "face_label",
    "fits_slot",
    "from_json",
    "generate_roster",
    "gone_for_good_absence",
    "import_roster",
    "leaders",
    "legal_actions",
    "lines_for",
    "lineup_choices",
    "load_content",
    "match_lineup",
    "match_stats",
    "new_match",
    "open_places",
    "parse_action",
    "parse_roster_csv",
    "play_until_event",
    "player_status",
    "record_line",
    "rename_player",
    "rename_team",
    "replay",
    "result",
    "roster_after_match",
    "roster_from_json",
    "roster_new_season",
    "roster_problems",
    "roster_to_csv",
    "roster_to_json",
    "score_line",
    "scoreboard",
    "sides_of",
    "sign_generated",
    "sign_players",
    "standings",
    "step",
    "substitutes_for",
    "substitution_slots",
    "team_stats",
    "three_stars",
    "to_json",
    "to_record",
    "validate_lineup",
    "validate_roster",
    "verify_record",
]
