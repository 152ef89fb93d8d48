"""Load and validate the authored Rollerball II content in data/rollerball2/.

The content is data, not code: 60 Fast Action Cards (facs.json), the player tables
(player_tables.json), the Random Player chart, penalty legend and Action Matrix (charts.json) and
the name lists (names.json). Everything is checked when it is loaded; a mistake raises
ContentError naming the file, the card and the section, so an author can fix it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rules.rollerball2.cards import (
    BAN_LENGTHS,
    DEFENSE_ACTIONS,
    EXPERIENCES,
    FLOW_CATCH,
    FLOW_CONTROL,
    FLOW_FIRE,
    FLOW_KINDS,
    FLOW_RETAIN,
    FLOW_TOW,
    FLOW_TURNOVER,
    INJURY_LENGTHS,
    OFFENSE_ACTIONS,
    OP_BAN,
    OP_GOAL,
    OP_INJURY,
    OP_KINDS,
    OP_PENALTY,
    OP_REST,
    OPEN_TRACK,
    POSITIONS,
    REST_LENGTHS,
    SECTION_HEADINGS,
    Condition,
    Effect,
    FastActionCard,
    Flow,
    Op,
    Section,
    column_problems,
)

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "rollerball2"

EMPTY = "EMPTY"  # the Action Matrix's "[Position Empty]"
SLOTS = (
    "Biker1",
    "Biker2",
    "Biker3",
    "Skater1",
    "Skater2",
    "Skater3",
    "Skater4",
    "Skater5",
    "Catcher1",
    "Catcher2",
    "Catcher3",
)
BIKER_SLOTS = ("Biker1", "Biker2", "Biker3")
CATCHER_SLOTS = ("Catcher1", "Catcher2", "Catcher3")
EXTRA_SLOTS = ("Skater5", "Catcher3")  # where the tenth player goes: one of the two, never both
EXTRA = "Extra"  # Random Player chart entry for the tenth player (Skater5 or Catcher3)
MATRIX_OUTCOMES = (
    "goal",
    "retain",
    "defensive_biker",
    "biker_duel",
    "tow",
    "goal_biker_assist",
    "attack",
    "turnover",
    "steal",
    "pass_goal",
    "event",
)
SECTION_KEYS = tuple(SECTION_HEADINGS)

# What each section may say: which teams and roles its places use, and where the ball may go.
_SECTION_TEAMS = {
    "action": ("offense", "defense"),
    "biker_id": ("offense", "defense"),
    "attack_skater": ("offense", "defense"),
    "attack_biker": ("offense", "defense"),
    "ball_fires": ("home", "away"),
    "event": ("offense", "defense", "home", "away"),
}
_SECTION_ROLES = {
    "action": ("handler", "defender"),
    "biker_id": ("handler", "defender"),
    "attack_skater": ("attacker", "victim", "handler", "defender"),
    "attack_biker": ("attacker", "victim", "handler", "defender"),
    "ball_fires": (),
    "event": ("handler", "defender"),
}
_SECTION_FLOWS = {
    "action": (FLOW_CONTROL, FLOW_RETAIN, FLOW_TURNOVER, FLOW_FIRE),
    "biker_id": (FLOW_TOW, FLOW_RETAIN, FLOW_TURNOVER, FLOW_FIRE),
    "attack_skater": (FLOW_RETAIN, FLOW_TURNOVER, FLOW_FIRE),
    "attack_biker": (FLOW_RETAIN, FLOW_TURNOVER, FLOW_FIRE),
    "ball_fires": (FLOW_CATCH, FLOW_FIRE),
    "event": (FLOW_CONTROL, FLOW_RETAIN, FLOW_TURNOVER, FLOW_FIRE),
}
_PLACE_KINDS = (*SLOTS, "random_player", "random_skater_catcher", "least_experienced")


class ContentError(ValueError):
    """The authored content is wrong; the message says where and why."""


@dataclass(frozen=True)
class PenaltyLength:
    """One line of the penalty-length legend."""

    key: str
    label: str
    minutes: int  # 0: charged the minutes left in the period / match
    facs: int  # cards the player sits out; 0: to the end of the period / match
    shorthanded_facs: int  # cards his slot must stay empty


@dataclass(frozen=True)
class MatrixLine:
    """One line of the Action Matrix, as the seed prints it, with the engine's outcome code."""

    offense: tuple[str, ...]
    defense: tuple[str, ...]
    description: str
    outcome: str


@dataclass(frozen=True)
class Content:
    """All the authored content, validated."""

    facs: tuple[FastActionCard, ...]  # facs[i].index == i + 1
    offense_tables: dict[str, dict[str, tuple[dict[str, int], ...]]]  # position -> exp -> rows
    defense_tables: dict[str, dict[str, tuple[dict[str, int], ...]]]
    random_player: tuple[str, ...]  # D10 1..10 -> slot or EXTRA
    random_skater_catcher: tuple[str, ...]
    penalties: dict[str, PenaltyLength]
    matrix: tuple[MatrixLine, ...]
    matrix_lookup: dict[tuple[str, str], MatrixLine]  # (offense result, defense result) -> line
    first_names: tuple[str, ...]
    surnames: tuple[str, ...]
    team_names: tuple[str, ...]

    def fac(self, index: int) -> FastActionCard:
        return self.facs[index - 1]


# --- helpers ---------------------------------------------------------------------------------


def _need(mapping: Any, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(mapping, dict):
        raise ContentError(f"{where}: expected an object")
    if key not in mapping:
        raise ContentError(f"{where}: missing '{key}'")
    value = mapping[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ContentError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    return value


def _check_keys(mapping: dict, allowed: set[str], where: str) -> None:
    unknown = set(mapping) - allowed
    if unknown:
        raise ContentError(f"{where}: unknown field(s) {sorted(unknown)}")


def _check_place(place: str, section: str, where: str) -> None:
    if place in _SECTION_ROLES[section]:
        return
    team, dot, kind = place.partition(".")
    if not dot:
        raise ContentError(f"{where}: unknown place '{place}' in the {section} section")
    if team not in _SECTION_TEAMS[section]:
        raise ContentError(
            f"{where}: team '{team}' cannot be named in the {section} section "
            f"(allowed: {', '.join(_SECTION_TEAMS[section])})"
        )
    if kind not in _PLACE_KINDS:
        raise ContentError(f"{where}: bad slot '{kind}' in place '{place}'")


def _is_biker_place(place: str) -> bool:
    """True when `place` is, or may turn out to be, a biker: a biker slot, or a roll on the
    Random Player chart's Player column (which holds the biker slots)."""
    kind = place.partition(".")[2]
    return kind in BIKER_SLOTS or kind == "random_player"


def _parse_condition(raw: Any, section: str, where: str) -> Condition:
    _check_keys(raw, {"who", "experiences", "positions"}, where)
    who = _need(raw, "who", where, str)
    _check_place(who, section, where)
    experiences = tuple(raw.get("experiences", ()))
    positions = tuple(raw.get("positions", ()))
    for experience in experiences:
        if experience not in EXPERIENCES:
            raise ContentError(f"{where}: unknown experience '{experience}'")
    for position in positions:
        if position not in POSITIONS:
            raise ContentError(f"{where}: unknown position '{position}'")
    return Condition(who=who, experiences=experiences, positions=positions)


def _parse_op(raw: Any, section: str, where: str) -> Op:
    _check_keys(raw, {"kind", "who", "length", "matches", "by", "assist", "note"}, where)
    kind = _need(raw, "kind", where, str)
    if kind not in OP_KINDS:
        raise ContentError(f"{where}: unknown effect type '{kind}'")
    who = _need(raw, "who", where, str)
    _check_place(who, section, where)
    length = raw.get("length", "")
    matches = raw.get("matches", 0)
    if not isinstance(matches, int) or matches < 0:
        raise ContentError(f"{where}: 'matches' must be a whole number")
    by = raw.get("by", "")
    assist = raw.get("assist", "")
    for extra in (by, assist):
        if extra:
            _check_place(extra, section, where)
    if kind == OP_PENALTY:
        if length not in load_penalty_keys():
            raise ContentError(f"{where}: unknown penalty length '{length}'")
    elif kind == OP_INJURY:
        if length not in INJURY_LENGTHS:
            raise ContentError(f"{where}: unknown injury length '{length}'")
    elif kind == OP_BAN:
        if length not in BAN_LENGTHS:
            raise ContentError(f"{where}: unknown ban length '{length}'")
    elif kind == OP_REST:
        if length not in REST_LENGTHS:
            raise ContentError(f"{where}: unknown rest length '{length}'")
    elif kind == OP_GOAL and _is_biker_place(who):
        raise ContentError(f"{where}: a biker cannot score a goal ('{who}')")
    if length == "matches" and matches < 1:
        raise ContentError(f"{where}: length 'matches' needs 'matches' of at least 1")
    return Op(
        kind=kind,
        who=who,
        length=length,
        matches=matches,
        by=by,
        assist=assist,
        note=raw.get("note", ""),
    )


def _parse_flow(raw: Any, section: str, where: str) -> Flow:
    _check_keys(raw, {"kind", "who", "defender"}, where)
    kind = _need(raw, "kind", where, str)
    if kind not in FLOW_KINDS:
        raise ContentError(f"{where}: unknown flow '{kind}'")
    if kind not in _SECTION_FLOWS[section]:
        raise ContentError(f"{where}: flow '{kind}' is not allowed in the {section} section")
    who = raw.get("who", "")
    defender = raw.get("defender", "")
    if kind in (FLOW_CONTROL, FLOW_CATCH, FLOW_TOW):
        if not who:
            raise ContentError(f"{where}: flow '{kind}' needs 'who'")
        _check_place(who, section, where)
        if kind == FLOW_TOW and who.partition(".")[2] not in BIKER_SLOTS:
            raise ContentError(f"{where}: tow must name an offensive biker slot, not '{who}'")
        if kind == FLOW_TOW and not who.startswith("offense."):
            raise ContentError(f"{where}: tow must name an offensive biker slot, not '{who}'")
        if kind != FLOW_TOW and _is_biker_place(who):
            raise ContentError(f"{where}: a biker never handles the ball ('{who}')")
    elif who:
        raise ContentError(f"{where}: flow '{kind}' takes no 'who'")
    if defender:
        if kind != FLOW_CONTROL:
            raise ContentError(f"{where}: only a control flow names a defender")
        if defender == OPEN_TRACK:
            return Flow(kind=kind, who=who, defender=defender)
        _check_place(defender, section, where)
        if not defender.startswith("defense."):
            raise ContentError(f"{where}: the defender must be a defense player, not '{defender}'")
    return Flow(kind=kind, who=who, defender=defender)


def _parse_effect(raw: Any, section: str, where: str) -> Effect:
    _check_keys(raw, {"when", "ops", "flow", "otherwise"}, where)
    ops_raw = raw.get("ops", [])
    if not isinstance(ops_raw, list):
        raise ContentError(f"{where}: 'ops' must be a list")
    ops = tuple(_parse_op(op, section, f"{where} op {i + 1}") for i, op in enumerate(ops_raw))
    flow = _parse_flow(_need(raw, "flow", where, dict), section, f"{where} flow")
    if any(op.kind == OP_GOAL for op in ops) and flow.kind != FLOW_FIRE:
        raise ContentError(f"{where}: after a goal the ball must fire again (flow 'fire')")
    when = None
    otherwise = None
    if "when" in raw:
        when = _parse_condition(raw["when"], section, f"{where} when")
        if "otherwise" not in raw:
            raise ContentError(f"{where}: a 'when' needs an 'otherwise'")
        otherwise = _parse_effect(raw["otherwise"], section, f"{where} otherwise")
    elif "otherwise" in raw:
        raise ContentError(f"{where}: 'otherwise' without 'when'")
    return Effect(ops=ops, flow=flow, when=when, otherwise=otherwise)


def parse_fac(raw: Any, where: str) -> FastActionCard:
    """One FAC from its JSON object; raises ContentError on any mistake."""
    _check_keys(raw, {"index", *SECTION_KEYS}, where)
    index = _need(raw, "index", where, int)
    sections = {}
    for key in SECTION_KEYS:
        section_where = f"{where} (FAC {index}) section '{key}'"
        section_raw = _need(raw, key, section_where.rsplit(" section", 1)[0], dict)
        _check_keys(section_raw, {"text", "effect"}, section_where)
        text = _need(section_raw, "text", section_where, str)
        if not text.strip():
            raise ContentError(f"{section_where}: empty text")
        effect = _parse_effect(
            _need(section_raw, "effect", section_where, dict), key, f"{section_where} effect"
        )
        sections[key] = Section(text=text, effect=effect)
    return FastActionCard(index=index, **sections)


def parse_facs(raw: Any, where: str = "facs.json") -> tuple[FastActionCard, ...]:
    """The whole deck: exactly 60 cards, indexed 1..60 in order."""
    cards_raw = _need(raw, "cards", where, list)
    cards = tuple(parse_fac(card, f"{where} card {i + 1}") for i, card in enumerate(cards_raw))
    if len(cards) != 60:
        raise ContentError(f"{where}: the deck must hold 60 cards, not {len(cards)}")
    for position, card in enumerate(cards, start=1):
        if card.index != position:
            raise ContentError(f"{where}: card {position} is numbered {card.index}")
    return cards


def _parse_tables(raw: Any, column: str, where: str) -> dict:
    allowed = OFFENSE_ACTIONS if column == "offense" else DEFENSE_ACTIONS
    tables: dict[str, dict[str, tuple[dict[str, int], ...]]] = {}
    by_position = _need(raw, column, where, dict)
    for position in POSITIONS:
        by_experience = _need(by_position, position, f"{where} {column}", dict)
        tables[position] = {}
        for experience in EXPERIENCES:
            row_where = f"{where} {column} {position} {experience}"
            rows = _need(by_experience, experience, f"{where} {column} {position}", list)
            if not rows:
                raise ContentError(f"{row_where}: no rows")
            for i, row in enumerate(rows):
                here = f"{row_where} row {i + 1}"
                _check_keys(row, set(allowed), here)
                if any(not isinstance(n, int) or n < 0 for n in row.values()):
                    raise ContentError(f"{here}: counts must be whole numbers")
                results = [action for action, count in row.items() for _ in range(count)]
                problems = column_problems(position, column, results)
                if problems:
                    raise ContentError(f"{here}: {' '.join(problems)}")
            tables[position][experience] = tuple(dict(row) for row in rows)
    return tables


def parse_player_tables(raw: Any, where: str = "player_tables.json") -> tuple[dict, dict]:
    """The offense and defense tables, checked against the seed's card constraints."""
    return _parse_tables(raw, "offense", where), _parse_tables(raw, "defense", where)


def parse_random_player_chart(raw: Any, where: str = "charts.json random_player") -> tuple:
    """The Player and Skater/Catcher columns of the Random Player chart."""
    return _parse_chart(raw, "player", where), _parse_chart(raw, "skater_catcher", where)


def parse_matrix(raw: Any, where: str = "charts.json action_matrix") -> tuple:
    """The Action Matrix lines and a lookup covering every offense/defense pair exactly once."""
    if not isinstance(raw, list):
        raise ContentError(f"{where}: expected a list")
    lines = []
    lookup: dict[tuple[str, str], MatrixLine] = {}
    for i, line_raw in enumerate(raw):
        here = f"{where} line {i + 1}"
        _check_keys(line_raw, {"offense", "defense", "description", "outcome"}, here)
        line = MatrixLine(
            offense=tuple(_need(line_raw, "offense", here, list)),
            defense=tuple(_need(line_raw, "defense", here, list)),
            description=_need(line_raw, "description", here, str),
            outcome=_need(line_raw, "outcome", here, str),
        )
        if line.outcome not in MATRIX_OUTCOMES:
            raise ContentError(f"{here}: unknown outcome '{line.outcome}'")
        for offense in line.offense:
            if offense not in OFFENSE_ACTIONS:
                raise ContentError(f"{here}: unknown offensive action '{offense}'")
            for defense in line.defense:
                if defense not in (*DEFENSE_ACTIONS, EMPTY):
                    raise ContentError(f"{here}: unknown defensive action '{defense}'")
                if (offense, defense) in lookup:
                    raise ContentError(f"{here}: {offense} vs {defense} is already on the matrix")
                lookup[(offense, defense)] = line
        lines.append(line)
    for offense in OFFENSE_ACTIONS:
        for defense in (*DEFENSE_ACTIONS, EMPTY):
            if (offense, defense) not in lookup:
                raise ContentError(f"{where}: no line for {offense} vs {defense}")
    return tuple(lines), lookup


def _read(name: str) -> Any:
    path = DATA_DIR / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise ContentError(f"{name}: file not found at {path}") from error
    except json.JSONDecodeError as error:
        raise ContentError(f"{name}: not valid JSON ({error})") from error


@cache
def load_penalty_keys() -> tuple[str, ...]:
    legend = _need(_read("charts.json"), "penalty_legend", "charts.json", dict)
    return tuple(key for key in legend if key != "about")


def _parse_penalties(raw: Any, where: str) -> dict[str, PenaltyLength]:
    penalties = {}
    for key, line in raw.items():
        if key == "about":
            continue
        here = f"{where} '{key}'"
        penalties[key] = PenaltyLength(
            key=key,
            label=_need(line, "label", here, str),
            minutes=_need(line, "minutes", here, int),
            facs=_need(line, "facs", here, int),
            shorthanded_facs=_need(line, "shorthanded_facs", here, int),
        )
    return penalties


def _parse_chart(raw: Any, key: str, where: str) -> tuple[str, ...]:
    column = tuple(_need(raw, key, where, list))
    if len(column) != 10:
        raise ContentError(f"{where} {key}: the chart needs one entry per D10 face (10)")
    for slot in column:
        if slot not in (*SLOTS, EXTRA) or slot in EXTRA_SLOTS:
            raise ContentError(f"{where} {key}: bad slot '{slot}'")
        if key == "skater_catcher" and slot in BIKER_SLOTS:
            raise ContentError(f"{where} {key}: the Skater/Catcher column has no bikers")
    return column


@cache
def load_content() -> Content:
    """Read and validate everything in data/rollerball2/ (cached: the content never changes)."""
    charts = _read("charts.json")
    tables = _read("player_tables.json")
    names = _read("names.json")
    matrix, lookup = parse_matrix(_need(charts, "action_matrix", "charts.json", list))
    offense_tables, defense_tables = parse_player_tables(tables)
    player_column, skater_catcher_column = parse_random_player_chart(
        _need(charts, "random_player", "charts.json", dict)
    )
    return Content(
        facs=parse_facs(_read("facs.json")),
        offense_tables=offense_tables,
        defense_tables=defense_tables,
        random_player=player_column,
        random_skater_catcher=skater_catcher_column,
        penalties=_parse_penalties(
            _need(charts, "penalty_legend", "charts.json", dict), "charts.json penalty_legend"
        ),
        matrix=matrix,
        matrix_lookup=lookup,
        first_names=tuple(_need(names, "first_names", "names.json", list)),
        surnames=tuple(_need(names, "surnames", "names.json", list)),
        team_names=tuple(_need(names, "team_names", "names.json", list)),
    )
