"""Rollerball II: the card-driven sports simulation (seeds/000_294650d7333882fc.txt).

Pure engine: no Discord, no images, no database, no clock. Every die roll and card draw comes from
the seeded random.Random held in the match state and is reported as an Event.

Public API
----------
Teams
    generate_roster(seed, team_name) -> Roster          25 named players (11 S, 7 B, 7 C)
    default_lineup(roster) -> Lineup                     {slot: number or None}, 10 slots
    validate_lineup(roster, lineup) -> None              raises RollerballError
    roster_after_match(roster, absences) -> Roster       carry-over into the next match
    roster_new_season(roster) -> Roster                  season-long absences end
Matches
    new_match(seed, home, away, settings=None, home_lineup=None, away_lineup=None) -> MatchState
    legal_actions(state) -> list[Action]
    apply(state, action) -> (MatchState, list[Event])    copy; RollerballError if illegal
    choose_action(state) -> Action                       the default coach
    step(state) -> (MatchState, list[Event])             one default-coach action
    auto_play(state) -> (MatchState, list[Event])        to the final whistle
    result(state) -> MatchResult                         scoresheets, winner, carry_over
    scoreboard(state) -> str                             clock, score, ball, what comes next
Actions (frozen dataclasses): NextCard(), Substitute(team, slot, number),
    CatcherChoice(team, roll), ChooseBiker(team, slot), ChooseScorer(team, slot)
    state.pending says which decision the match waits for: {"kind": "catcher_choice" |
    "defensive_biker" | "assist_biker" | "pass_scorer", "team": "home" | "away", ...}
Persistence
    to_json(state) -> dict / from_json(dict) -> MatchState     lossless
    to_record(state) -> str / replay(text) -> MatchState       game records
    parse_action(line) -> Action                                "next", "sub home Skater2 31", ...
Content
    load_content() -> Content     FACs, player tables, charts, names (validated; ContentError)
Cards for the renderer: cards.PlayerCard, cards.FastActionCard (six Sections with text and
effect), scoresheet.MatchResult / TeamSheet / PlayerLine / Absence.

Command line: python -m rules.rollerball2 replay FILE | sim --matches N --seed S | demo --seed S
"""

from rules.rollerball2.cards import FastActionCard, PlayerCard
from rules.rollerball2.coach import auto_play, choose_action, step
from rules.rollerball2.content import ContentError, load_content
from rules.rollerball2.engine import apply, legal_actions, new_match, result, scoreboard
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.record import parse_action, replay, to_record
from rules.rollerball2.roster import (
    Lineup,
    Roster,
    default_lineup,
    generate_roster,
    roster_after_match,
    roster_new_season,
    validate_lineup,
)
from rules.rollerball2.scoresheet import Absence, MatchResult, PlayerLine, TeamSheet
from rules.rollerball2.state import (
    AWAY,
    HOME,
    Action,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    Event,
    MatchState,
    NextCard,
    Settings,
    Substitute,
    from_json,
    to_json,
)

__all__ = [
    "AWAY",
    "HOME",
    "Absence",
    "Action",
    "CatcherChoice",
    "ChooseBiker",
    "ChooseScorer",
    "ContentError",
    "Event",
    "FastActionCard",
    "Lineup",
    "MatchResult",
    "MatchState",
    "NextCard",
    "PlayerCard",
    "PlayerLine",
    "RollerballError",
    "Roster",
    "Settings",
    "Substitute",
    "TeamSheet",
    "apply",
    "auto_play",
    "choose_action",
    "default_lineup",
    "from_json",
    "generate_roster",
    "legal_actions",
    "load_content",
    "new_match",
    "parse_action",
    "replay",
    "result",
    "roster_after_match",
    "roster_new_season",
    "scoreboard",
    "step",
    "to_json",
    "to_record",
    "validate_lineup",
]
