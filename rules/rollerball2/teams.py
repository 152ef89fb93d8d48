"""Team management without a database: roster CSV import and export, signing replacements, renames.

Seed clauses: "GAME COMPONENTS" (about 25 cards a team), the workbook's "Player Entry Worksheet"
(a player is entered as name, experience, position and uniform number; the card's columns are
then drawn from the player tables) and the designer's hope that "Internet gamers [keep] creating
their own team and cards": a CSV may also carry the two columns of a hand-made card, which must
obey the same card rules as the tables (cards.column_problems).

CSV columns (header row required, any order, names case-insensitive):
    name, number, position, experience [, offense, defense]
separated by commas, or by semicolons (or tabs) as spreadsheets in many locales write them: the
header row decides (separator).
A column cell lists the ten results in the order the card prints its rows, D10 face 0 first
(the seed's sample card): "Bkr EVT GOAL GOAL PASS GOAL GOAL Att Bkr GOAL". The size limit of an
upload (bytes) is the caller's; this module refuses more than MAX_ROSTER rows.
"""

from __future__ import annotations

import csv
import random
from dataclasses import replace

from rules import names
from rules.errors import echoed
from rules.prose import plural, possessive
from rules.rollerball2.cards import (
    ATT,
    BKR,
    EVT,
    EXPERIENCES,
    GOAL,
    LOSE,
    PASS,
    POSITIONS,
    PRINTED_FACES,
    PlayerCard,
    column_problems,
)
from rules.rollerball2.content import BIKER_SLOTS, SLOTS
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.roster import (
    EXPERIENCE_RANK,
    FULL_ROSTER,
    MAX_ROSTER,
    LineupChange,
    Roster,
    fits_slot,
    make_card,
    new_player_name,
    roster_makeup,
)
from rules.rollerball2.scoresheet import CARRY_KILLED, Absence
from rules.spreadsheet import read_csv, write_csv

REQUIRED_COLUMNS = ("name", "number", "position", "experience")
CARD_COLUMNS = ("offense", "defense")
MAX_NAME = 32  # longest player or team name: it must fit on a card and a phone screen
_ACTION_SPELLING = {action.lower(): action for action in (GOAL, PASS, ATT, BKR, LOSE, EVT)}
MIN_BIKERS = 3  # seed GAME SETUP: three bikers on the track ...
MIN_SKATERS_CATCHERS = 7  # ... and seven skaters and catchers


class RosterImportError(RollerballError):
    """A CSV that cannot become a roster; `problems` lists every one, each with its line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        shown = problems[:15]
        more = f" (and {len(problems) - 15} more)" if len(problems) > 15 else ""
        super().__init__("The roster was not imported:\n" + "\n".join(shown) + more)


def clean_name(name: str, what: str = "A name") -> str:
    """A player or team name as it will be printed (the shared rule of rules/names.py)."""
    try:
        return names.clean_name(name, what, MAX_NAME)
    except names.BadName as error:
        raise RollerballError(str(error)) from None


# --- import ----------------------------------------------------------------------------------


def _parse_column(cell: str) -> tuple[list[str], list[str]]:
    """Ten printed results (face 0 first) as the engine's column (face 1 first), and problems."""
    words = cell.replace(",", " ").replace("/", " ").split()
    results = [_ACTION_SPELLING.get(word.lower(), word) for word in words]
    if len(results) != 10:
        return results, [f"needs 10 results, one per D10 face, not {len(results)}"]
    by_face: dict[int, str] = dict(zip(PRINTED_FACES, results, strict=True))
    return [by_face[face] for face in range(1, 11)], []


def _header(rows: list[list[str]]) -> tuple[dict[str, int], list[str]]:
    header = [cell.strip().lower() for cell in rows[0]]
    problems = []
    unknown = [cell for cell in header if cell not in (*REQUIRED_COLUMNS, *CARD_COLUMNS)]
    if unknown:
        problems.append(
            f"Line 1: unknown column(s) {', '.join(echoed(c) for c in unknown)}; the columns are "
            f"{', '.join(REQUIRED_COLUMNS)} and optionally offense, defense."
        )
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        problems.append(f"Line 1: missing column(s) {', '.join(missing)}.")
    doubled = sorted({cell for cell in header if header.count(cell) > 1})
    if doubled:
        problems.append(f"Line 1: column(s) {', '.join(doubled)} appear twice.")
    has_card = [column for column in CARD_COLUMNS if column in header]
    if len(has_card) == 1:
        problems.append("Line 1: give both offense and defense columns, or neither.")
    return {cell: index for index, cell in enumerate(header)}, problems


def _row_card(
    line: int, cells: dict[str, str], rng: random.Random, team: str, has_card: bool
) -> tuple[PlayerCard | None, list[str]]:
    problems = []
    name = cells["name"].strip()
    try:
        name = clean_name(name, "The name")
    except RollerballError as error:
        problems.append(str(error))
    number_text = cells["number"].strip().lstrip("#")
    number = int(number_text) if number_text.isdigit() else None
    if number is None or not 0 <= number <= 99:
        problems.append(f"the number must be 0-99, not {echoed(cells['number'].strip())}.")
    position = cells["position"].strip().lower()
    if position not in POSITIONS:
        problems.append(
            f"unknown position {echoed(cells['position'].strip())} (skater, biker or catcher)."
        )
    experience = cells["experience"].strip().lower()
    if experience not in EXPERIENCES:
        problems.append(
            f"unknown experience {echoed(cells['experience'].strip())} (star, veteran or rookie)."
        )
    columns: dict[str, list[str]] = {}
    if has_card:
        for column in CARD_COLUMNS:
            results, bad = _parse_column(cells[column])
            problems.extend(f"{column.upper()} {problem}." for problem in bad)
            if not bad:
                if position in POSITIONS:
                    problems.extend(column_problems(position, column, results))
                columns[column] = results
    if problems:
        return None, [f"Line {line}: {problem}" for problem in problems]
    assert number is not None
    if has_card:
        card = PlayerCard(
            number=number,
            name=name,
            position=position,
            experience=experience,
            team=team,
            offense=tuple(columns["offense"]),
            defense=tuple(columns["defense"]),
        )
    else:
        card = make_card(rng, number, name, position, experience, team)
    return card, []


def separator(text: str) -> str:
    """The CSV's field separator: a comma, or a semicolon (or a tab) when that is what the
    header row is split by. Spreadsheets in locales whose decimal mark is a comma write their
    CSV with semicolons; the header names no column with either in it, so it decides."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    if "," in header:
        return ","
    for candidate in (";", "\t"):
        if candidate in header:
            return candidate
    return ","


def parse_roster_csv(
    text: str, team: str, seed: int | str, whole_team: bool = True
) -> list[PlayerCard]:
    """The players of a roster CSV (see the module docstring). Every problem is collected, with
    its line number, and raised together as RosterImportError. Rows without the two columns get
    cards drawn from the player tables with a generator seeded by `seed`, `team` and the row.
    `whole_team`: the file is a new team, which must be able to field a line-up (False for a
    few signings, see sign_players)."""
    team = clean_name(team, "The team name")
    text = text.lstrip("\ufeff")
    try:
        rows = read_csv(text, separator(text))
    except csv.Error as error:
        raise RosterImportError([f"The file is not a readable CSV ({error})."]) from error
    numbered = [(i, row) for i, row in enumerate(rows, start=1) if any(c.strip() for c in row)]
    if not numbered:
        raise RosterImportError(["The file is empty: the first line names the columns."])
    columns, problems = _header([numbered[0][1]])
    body = numbered[1:]
    if len(body) > MAX_ROSTER:
        problems.append(f"{len(body)} players: a roster holds at most {MAX_ROSTER}.")
    if problems:
        raise RosterImportError(problems)
    has_card = all(column in columns for column in CARD_COLUMNS)
    players: list[PlayerCard] = []
    seen: dict[int, int] = {}
    for line, row in body:
        if len(row) != len(columns):
            problems.append(f"Line {line}: {len(row)} fields, the header has {len(columns)}.")
            continue
        cells = {name: row[index] for name, index in columns.items()}
        rng = random.Random(f"rollerball2-import:{seed}:{team}:{line}")
        card, row_problems = _row_card(line, cells, rng, team, has_card)
        problems.extend(row_problems)
        if card is None:
            continue
        if card.number in seen:
            problems.append(
                f"Line {line}: #{card.number} is already worn on line {seen[card.number]}."
            )
            continue
        seen[card.number] = line
        players.append(card)
    if not problems and whole_team:
        problems.extend(_count_problems(players))
    if problems:
        raise RosterImportError(problems)
    return sorted(players, key=lambda card: card.number)


def _count_problems(players: list[PlayerCard]) -> list[str]:
    """Seed GAME SETUP: a team must be able to put three bikers and seven skaters or catchers
    on the track."""
    bikers = sum(card.position == "biker" for card in players)
    others = len(players) - bikers
    problems = []
    if bikers < MIN_BIKERS:
        problems.append(f"Only {bikers} biker(s): a team needs at least {MIN_BIKERS}.")
    if others < MIN_SKATERS_CATCHERS:
        problems.append(
            f"Only {others} skaters and catchers: a team needs at least {MIN_SKATERS_CATCHERS}."
        )
    return problems


def import_roster(text: str, team: str, seed: int | str) -> Roster:
    """A new team from a roster CSV (parse_roster_csv); RosterImportError lists every problem."""
    return Roster(
        team=clean_name(team, "The team name"), players=parse_roster_csv(text, team, seed)
    )


# --- export ----------------------------------------------------------------------------------


def _printed_column(column: tuple[str, ...]) -> str:
    return " ".join(column[face - 1] for face in PRINTED_FACES)


def roster_to_csv(roster: Roster) -> str:
    """The roster as a CSV that import_roster reads back card for card (all six columns)."""
    return write_csv(
        [
            (*REQUIRED_COLUMNS, *CARD_COLUMNS),
            *(
                (
                    card.name,
                    card.number,
                    card.position,
                    card.experience,
                    _printed_column(card.offense),
                    _printed_column(card.defense),
                )
                for card in sorted(roster.players, key=lambda c: c.number)
            ),
        ]
    )


# --- signings and renames --------------------------------------------------------------------


def gone_for_good(roster: Roster) -> set[int]:
    """Uniform numbers who will never play again: killed, or banned for life."""
    return roster.gone_for_good()


def open_places(roster: Roster) -> int:
    """How many players the team may sign: up to FULL_ROSTER (25) who can still play some day
    (docs/rules/rollerball2.md, "Signings": the dead and the banned for life stay on the roster
    but do not count, so each opens a place)."""
    active = len(roster.players) - len(gone_for_good(roster))
    return max(0, FULL_ROSTER - active)


def _check_room(roster: Roster, count: int) -> None:
    places = open_places(roster)
    if count > places:
        raise RollerballError(
            f"{roster.team} can sign {places} more player(s) (a team holds {FULL_ROSTER} who can "
            "still play; the dead and the banned for life do not count)."
        )
    if len(roster.players) + count > MAX_ROSTER:
        raise RollerballError(f"A roster keeps at most {MAX_ROSTER} cards, past players included.")


def sign_generated(roster: Roster, seed: int | str, position: str) -> Roster:
    """One new player at `position`, generated from the player tables: a name, a free uniform
    number, an experience drawn like a generated team's (an average tilt)."""
    if position not in POSITIONS:
        raise RollerballError("Position must be skater, biker or catcher.")
    _check_room(roster, 1)
    rng = random.Random(f"rollerball2-signing:{seed}:{roster.team}:{len(roster.players)}")
    used_numbers = {card.number for card in roster.players}
    free = [number for number in range(1, 100) if number not in used_numbers]
    if not free:
        raise RollerballError("Every uniform number from 1 to 99 is taken.")
    mix = roster_makeup(rng)[position]
    experience = rng.choice([e for e, n in mix.items() for _ in range(n)])
    name = new_player_name(rng, {card.name for card in roster.players})
    card = make_card(rng, rng.choice(free), name, position, experience, roster.team)
    return replace(roster, players=sorted([*roster.players, card], key=lambda c: c.number))


def sign_players(roster: Roster, cards: list[PlayerCard]) -> Roster:
    """Imported players (from parse_roster_csv) join the team: room and numbers are checked."""
    _check_room(roster, len(cards))
    used = {card.number for card in roster.players}
    taken = [card.number for card in cards if card.number in used]
    if taken:
        raise RollerballError(
            f"Uniform number(s) {', '.join(f'#{n}' for n in taken)} already worn on {roster.team}."
        )
    joined = [replace(card, team=roster.team) for card in cards]
    return replace(roster, players=sorted([*roster.players, *joined], key=lambda c: c.number))


def rename_player(roster: Roster, number: int, name: str) -> Roster:
    """The player wearing `number` under a new name (his card is otherwise unchanged)."""
    new_name = clean_name(name, "The player's name")
    card = roster.card(number)
    if any(other.name == new_name and other.number != number for other in roster.players):
        raise RollerballError(f"{roster.team} already has a player called {new_name}.")
    players = [replace(card, name=new_name) if c.number == number else c for c in roster.players]
    return replace(roster, players=players)


def rename_team(roster: Roster, name: str) -> Roster:
    """The team under a new name, printed on every card."""
    new_name = clean_name(name, "The team name")
    return replace(
        roster, team=new_name, players=[replace(card, team=new_name) for card in roster.players]
    )


# --- what a coach sees before a match --------------------------------------------------------


def player_status(roster: Roster, number: int) -> str:
    """'fit', 'injured (2 matches)', 'injured (season)', 'banned (1 match)', 'banned (season)',
    'banned for life' or 'dead': why he may or may not play the next match."""
    roster.card(number)  # RollerballError if he is not on the roster
    for absence in roster.absences:
        if absence.number == number:
            return absence_status(absence)
    return "fit"


def lineup_change_notes(roster: Roster, changes: list[LineupChange]) -> list[str]:
    """What a match says about the saved line-up it could not play as saved (ruling D1a,
    docs/rules/rollerball2.md "On Discord"): one sentence a change, naming who cannot play and
    who plays his slot instead. Plain text: whoever shows it escapes the names."""
    numbers = {card.number for card in roster.players}
    notes = []
    for change in changes:
        if change.out is None:
            gone = "an empty slot"
        elif change.out in numbers:
            card = roster.card(change.out)
            gone = f"#{change.out} {card.name} ({player_status(roster, change.out)})"
        else:
            gone = f"#{change.out} (no longer on the roster)"
        if change.replacement is None:
            instead = f"nobody fit is left for {change.slot}, which stays empty"
        else:
            name = roster.card(change.replacement).name
            instead = f"#{change.replacement} {name} plays {change.slot} instead"
        notes.append(f"{possessive(roster.team)} saved line-up: {gone} cannot play; {instead}.")
    return notes


def absence_status(absence: Absence) -> str:
    """An absence as player_status words it: 'injured (2 matches)', 'banned (season)', 'dead'."""
    if absence.kind == CARRY_KILLED or absence.length == "killed":
        return "dead"
    if absence.length == "lifetime":
        return "banned for life"
    word = "banned" if absence.kind == "ban" else "injured"
    if absence.matches is not None:
        return f"{word} ({plural(absence.matches):match|matches})"
    return f"{word} ({absence.length})"


def gone_for_good_absence(absence: Absence) -> bool:
    """The absence of a player who will never play again (killed, banned for life)."""
    return absence.kind == CARRY_KILLED or absence.length in ("killed", "lifetime")


def lineup_choices(roster: Roster, slot: str) -> list[int]:
    """The fit players who may start in `slot` (seed GAME SETUP; roster.fits_slot), best
    first: the slot's own position, then STAR, VETERAN, ROOKIE, then number; at most 25 (one
    Discord select menu). Raises RollerballError for an unknown slot."""
    if slot not in SLOTS:
        raise RollerballError(f"There is no {slot} slot; the slots are {', '.join(SLOTS)}.")
    own = "biker" if slot in BIKER_SLOTS else "catcher" if slot.startswith("Catcher") else "skater"
    absent = roster.absent()
    fit = [c for c in roster.players if c.number not in absent and fits_slot(c.position, slot)]
    fit.sort(key=lambda c: (c.position != own, EXPERIENCE_RANK[c.experience], c.number))
    return [card.number for card in fit[:25]]
