"""Text in and out of Discord's forms for Volleyball: a new team's roster, the orders modal
(the seed's order form in its compact shape, one match per text box, so it fits Discord's
4,000 characters a box) and the answer that lists the orders as the bot read them.

Reading the orders themselves is the engine's (rules.volleyball.submit_orders reads the
seed's form and the order lines); this module only lays text out for a modal and reads a
roster, which the engine takes as PlayerDrafts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.errors import echoed
from rules.volleyball import (
    LeagueState,
    MatchOrders,
    PlayerDraft,
    RoundOrders,
    Team,
    form_points,
    format_orders_text,
    points_used,
    preview_match,
    round_fixtures,
    starting_lineup,
    team_fixtures,
)
from ui.formats import human_join, plural

MODAL_INPUT_LIMIT = 4000  # Discord's limit for one text box of a modal
ROSTER_LIMIT = 4000
_ROSTER_LINE = re.compile(
    r"^(?P<name>.+?)[\s,;]+(?:age\s*)?(?P<age>[A-Ea-e])[\s,;]+(?P<ol>\d+)\s*(?:[/,;]\s*|\s+)(?P<dl>\d+)\s*$"
)
_TEAM_LINE = re.compile(r"^\s*team\s*(?:name)?\s*:\s*(?P<name>.+?)\s*$", re.IGNORECASE)
# A seed-style roster file's own lines, skipped like the order form's reader skips them: the
# VOLLEYBALL heading, a column header (PLAYER AGE OL DL, NAME AGE ...), rows of underscores.
_HEADER_WORDS = {"player", "players", "name", "age", "ol", "dl", "levels", "level", "#", "no."}
_FILLER = re.compile(r"^[_\-=\s]+$")


@dataclass
class Roster:
    """A roster as typed: the team's name (when a TEAM: line gave it), the players and every
    line that could not be read."""

    name: str | None = None
    players: list[PlayerDraft] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def roster_text(players: list[PlayerDraft]) -> str:
    """Players as the team form's box holds them, one `NAME AGE OL DL` a line (parse_roster
    reads it back)."""
    return "\n".join(f"{p.name} {p.age} {p.ol} {p.dl}" for p in players)


def parse_roster(text: str) -> Roster:
    """Players one a line, `NAME AGE OL DL` ("Anna Visser A 8 8", "Anna Visser, B, 9/7");
    an optional `TEAM: name` line; blank lines, lines starting with #, and a seed-style
    file's VOLLEYBALL heading, column header and rows of underscores are skipped. Every line
    that cannot be read is a problem naming its line and the form it should have."""
    roster = Roster()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or _FILLER.match(line):
            continue
        words = line.casefold().replace(":", " ").split()
        if words == ["volleyball"] or set(words) <= _HEADER_WORDS:
            continue
        team = _TEAM_LINE.match(line)
        if team:
            roster.name = team.group("name")
            continue
        found = _ROSTER_LINE.match(line)
        if not found:
            roster.problems.append(
                f"Line {number}: {echoed(line)} is not NAME AGE OL DL: write it like Anna Visser A 8 8 "
                "(name, age A-E, OL, DL)."
            )
            continue
        roster.players.append(
            PlayerDraft(
                found.group("name").strip(" ,;"),
                found.group("age").upper(),
                int(found.group("ol")),
                int(found.group("dl")),
            )
        )
    return roster


# --- the orders modal -------------------------------------------------------------------------


def compact_match_form(team: Team, orders: MatchOrders, division: int) -> str:
    """The seed's form for one match without the bot's arithmetic and blank rows: the header
    (VOLLEYBALL, HOMEPLAY or OUTBOUND, DIVISION NO., MATCH NO., AGAINST), then per set the players with
    their position codes, the concept code, the risk factor and the points given."""
    out = [
        "VOLLEYBALL",
        "HOMEPLAY" if orders.home else "OUTBOUND",
        f"DIVISION NO.: {division}",
        f"MATCH NO.: {orders.match_number}",
        f"AGAINST: {orders.opponent}",
    ]
    for number, set_order in enumerate(orders.sets, start=1):
        out.append(f"SET {number}")
        for slot in set_order.slots:
            tired = "" if slot.tired_from_ol is None else f" tired OL: {slot.tired_from_ol}"
            out.append(f"{slot.player} {int(slot.position)}{tired}")
        out.append(f"TACTICAL CONCEPT: {int(set_order.concept)}")
        if set_order.risk is not None:
            out.append(f"RISK FACTOR: {set_order.risk}")
        for label, points in form_points(set_order):
            if points is not None and (points.ol or points.dl):
                out.append(f"{label} OL: {points.ol} DL: {points.dl}")
    return "\n".join(out)


@dataclass
class ModalBox:
    """One text box of the orders modal."""

    custom_id: str
    label: str
    value: str
    required: bool = False


def order_boxes(
    state: LeagueState,
    team: Team,
    on_file: RoundOrders | None,
    kept: dict[str, str] | None = None,
) -> list[ModalBox]:
    """The orders modal's boxes: one per match the team plays this round, filled in with the
    line-up on file or else the starting line-up (rules.volleyball.starting_lineup: five full
    sets when the squad can field them, the home advantage spread, Allround, Neutral: legal
    as it is), and one for the order lines (training, sponsor, scouting, spying, sales and
    bids) on file. `kept` (a refused form's text, custom_id -> text) fills the boxes it has
    instead, so a mistake never loses what was typed."""
    boxes = []
    allowance = state.league.config.home_advantage_points(state.league.round_number)
    fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
    for fixture in fixtures:
        home = fixture.home == team.name
        opponent = fixture.away if home else fixture.home
        given = None
        if on_file is not None:
            given = next(
                (m for m in on_file.matches if m.match_number == fixture.match_number), None
            )
        if given is None:
            given = starting_lineup(
                team,
                opponent=opponent,
                home=home,
                match_number=fixture.match_number,
                home_advantage=allowance,
            )
        kind = "Cup match" if fixture.competition == "cup" else "Match"
        where = "home v" if home else "away at"
        boxes.append(
            ModalBox(
                f"match:{fixture.match_number}",
                f"{kind} {fixture.match_number}: {where} {opponent}"[:45],
                compact_match_form(team, given, team.division)[:MODAL_INPUT_LIMIT],
            )
        )
    lines = format_orders_text(on_file) if on_file is not None else ""
    boxes.append(
        ModalBox(
            "lines",
            "Order lines (TRAIN, SPONSOR, BID, SPY, ...)",
            lines[:MODAL_INPUT_LIMIT],
        )
    )
    assert len(boxes) <= 5, "Discord's modals have five boxes (settings cap the matches)"
    for box in boxes:
        if kept and box.custom_id in kept:
            box.value = kept[box.custom_id][:MODAL_INPUT_LIMIT]
    return boxes


# --- the answer to orders sent ----------------------------------------------------------------


def fixture_labels(state: LeagueState, team: Team) -> dict[int, str]:
    """match number -> "Match 1, home v Blue Whales" / "Galaxy Cup match 3, away at ..."."""
    labels = {}
    for f in team_fixtures(round_fixtures(state, state.league.round_number), team.name):
        home = f.home == team.name
        kind = "Galaxy Cup match" if f.competition == "cup" else "Match"
        where = f"home v {f.away}" if home else f"away at {f.home}"
        labels[f.match_number] = f"{kind} {f.match_number}, {where}"
    return labels


def match_line(state: LeagueState, team: Team, match: MatchOrders) -> str:
    """One line for a line-up: its match, the sets' concepts, the points used and the
    chance of each set against the neutral side (ruling 40)."""
    label = fixture_labels(state, team).get(
        match.match_number, f"Match {match.match_number}, {match.opponent or '?'}"
    )
    previews = preview_match(team, match)
    concepts = "/".join(s.concept.abbreviation if s.slots else "-" for s in match.sets)
    chances = "/".join(str(p.chance) if p.players else "-" for p in previews)
    points = [
        f"{name} {total}"
        for name, total in (
            ("HA", match.home_advantage_total),
            ("DP", match.devotion_total),
            ("SP", match.special_total),
        )
        if total
    ]
    return (
        f"{label}: {concepts}"
        + (f", {', '.join(points)}" if points else "")
        + f"; chances {chances} % against a neutral side"
    )


def order_summary_lines(state: LeagueState, team: Team, orders: RoundOrders) -> list[str]:
    """The orders as the bot read them (plain text: the caller shows it): the orders other
    than line-ups as order lines, then each match's sets (players with positions, concept,
    risk, points) with the totals and the scoring chance against the neutral opponent."""
    lines: list[str] = []
    other = format_orders_text(orders).strip()
    if other:
        lines += ["Other orders:", *other.splitlines()]
    if orders.matches:
        lines.append("Positions: 1 setter, 2 attacker, 3 allround, 4 defender, 5 blocker.")
    labels = fixture_labels(state, team)
    for match in orders.matches:
        lines.append(labels.get(match.match_number, f"Match {match.match_number}") + ":")
        previews = preview_match(team, match)
        for number, (set_order, preview) in enumerate(
            zip(match.sets, previews, strict=False), start=1
        ):
            if not set_order.slots:
                lines.append(f"Set {number}: no players (lost 0-15 if played)")
                continue
            players = ", ".join(f"{slot.player} {int(slot.position)}" for slot in set_order.slots)
            points = points_used(set_order)
            lines.append(
                f"Set {number}: {set_order.concept.abbreviation} risk {set_order.effective_risk}"
                + (f", {', '.join(points)}" if points else "")
                + f": {players}. OL {preview.ol_total} DL {preview.dl_total},"
                f" {preview.chance} % against a neutral side"
            )
    return lines


# Order lines by kind, as format_orders_text writes them.
LINE_KINDS = (
    ("SPONSOR:", "sponsor"),
    ("SCOUT:", "scouting"),
    ("SPY:", "spying"),
    ("SELL:", "sales"),
    ("BID:", "bids"),
    ("GM BID:", "GM bids"),
    ("CONTRACT:", "contract bids"),
    ("AGEING:", "ageing"),
    ("TRAIN:", "training"),
)


def _lines_of(orders: RoundOrders | None, label: str) -> list[str]:
    if orders is None:
        return []
    return [
        line
        for line in format_orders_text(orders).splitlines()
        if line.upper().startswith(label) and not (label == "BID:" and line.startswith("GM"))
    ]


def changed_lines(
    state: LeagueState, team: Team, before: RoundOrders | None, after: RoundOrders
) -> list[str]:
    """What the orders just sent changed on file, one line a change (plain text)."""
    lines = []
    old = {m.match_number: m.to_dict() for m in (before.matches if before else [])}
    for match in after.matches:
        if old.get(match.match_number) != match.to_dict():
            lines.append(match_line(state, team, match))
    gone = sorted(set(old) - {m.match_number for m in after.matches})
    lines += [f"Match {number}: line-up removed" for number in gone]
    for label, what in LINE_KINDS:
        was, now = _lines_of(before, label), _lines_of(after, label)
        if was == now:
            continue
        if now:
            lines += now
        else:
            lines.append(f"{what.capitalize()}: none now")
    return lines


def on_file_line(orders: RoundOrders) -> str:
    """ "On file: line-ups for matches 1 and 2, sponsor, 2 training lines, 1 spying order" """
    parts = []
    numbers = [str(m.match_number) for m in orders.matches]
    if numbers:
        count = plural(len(numbers))
        parts.append(
            f"{count:line-up!} for {count:match|matches!} " + human_join(numbers, final="and")
        )
    for label, what in LINE_KINDS:
        count = len(_lines_of(orders, label))
        if count:
            parts.append(what if count == 1 else f"{count} {what} lines")
    return "On file: " + (", ".join(parts) if parts else "nothing") + "."


# --- the modal's boxes as one message ---------------------------------------------------------

_LINE_REFERENCE = re.compile(r"\bLine (\d+)\b")
_FORM_PREFIX = re.compile(r"^Form \d+: (?=Line \d+)")


@dataclass
class JoinedBoxes:
    """The boxes of a submitted orders modal as one message for the engine, and where each
    box starts in it (so a problem's line number can name the box it is in)."""

    text: str
    starts: list[tuple[int, str]]  # (first line number, box label)

    def where(self, problem: str) -> str:
        """The problem with "Line N" of the joined text told as "BOX, line n"."""

        def local(found: re.Match[str]) -> str:
            number = int(found.group(1))
            first, label = max(
                ((s, label) for s, label in self.starts if s <= number),
                default=(1, ""),
            )
            return f"{label}, line {number - first + 1}" if label else found.group(0)

        return _LINE_REFERENCE.sub(local, _FORM_PREFIX.sub("", problem))


def join_boxes(boxes: list[tuple[str, str, bool]]) -> JoinedBoxes:
    """(label, text, is a match form) per box, empty boxes left out. A match form that lost
    its VOLLEYBALL line gets it back, since every form starts with it (otherwise it would be
    read as part of the form before it)."""
    lines: list[str] = []
    starts: list[tuple[int, str]] = []
    for label, text, is_form in boxes:
        body = text.strip("\n").splitlines()
        if not text.strip():
            continue
        first = next(line for line in body if line.strip())
        if is_form and first.strip().lower() != "volleyball":
            lines.append("VOLLEYBALL")
        starts.append((len(lines) + 1, label))
        lines += body
    return JoinedBoxes("\n".join(lines), starts)
