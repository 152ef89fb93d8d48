"""The seed's text order form: print one (blank or filled in) for a team, and read one back.

The seed asks for moves "by using the spreadsheetprogram, the form on paper or another way in
a similar layout": a header (HOMEPLAY or OUTBOUND, DIVISION NO., MATCH NO., TEAM, AGAINST),
SET 1 to SET 5 each with players (Startlevels OL DL, Position Code, Endlevels OL DL), the
TACTICAL CONCEPT code, RISK FACTOR, HOME ADV., DEVOTION and SPECIAL points, TOTAL LEVELS,
then the whole-match totals of devotion and special points, TRAINING (OL OLD NEW, DL OLD NEW)
and a SPYING ORDER (TEAM, AGAINST). Codes are the seed's: positions Setter 1, Attacker 2,
Allround 3, Defender 4, Blocker 5; concepts AC 1, OC 2, NC 3, DC 4, WC 5.

Points are written per level ("OL: 4  DL: 2") because rule 4 says they "must specifically
be assigned to the offensive or defensive level". The levels and totals on a form are the
bot's own arithmetic; when reading a form back only names, codes, concept, risk and points
count (plus the training's OLD/NEW and the declared totals, which must agree). An optional
"tired OL: n" after a player chooses how many of his five tiredness points come off OL.

The seed's own paper layout is read as a manager fills it in (ruling 34): two labels
on a row (split_labelled_row), bare "4 4" points as OL then DL, "Set 1:" with a colon, one
typo in a label word ("RISC FACTOR", "DEVOTOIN"), "(captain)" or any note in brackets after
a name, and with the team known, an unknown name gets the nearest roster name suggested.

Reading never guesses silently: every line it cannot read becomes a numbered problem, and
all of them are reported at once. Rule checks (formation, eligibility, limits) are
match.validate_match_orders's job, not the form's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.errors import echoed
from rules.volleyball.match import lineup_levels, set_totals
from rules.volleyball.models import Fixture, Team
from rules.volleyball.orders import (
    PLAYERS_PER_SET,
    RISK_RANGES,
    SETS_PER_MATCH_ORDER,
    Concept,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    Position,
    RoundOrders,
    SetOrder,
    SpyOrder,
    TrainingOrder,
    VolleyballError,
    form_points,
)
from rules.volleyball.wording import did_you_mean, possessive

NAME_WIDTH = 24
BLANK_ROW = "_" * 20


@dataclass
class OrderForm:
    """One form read back: the header, the match orders, training and the spying order.
    `home` is True for HOMEPLAY, False for OUTBOUND."""

    team: str
    opponent: str
    home: bool
    match_number: int
    division: int
    match_orders: MatchOrders
    training: list[TrainingOrder] = field(default_factory=list)
    spy: SpyOrder | None = None
    stated_division: int | None = None  # the DIVISION NO. written, None when left out


# --- Printing ----------------------------------------------------------------------------


# The notes a form prints about its codes, from the rules' own tables.
_CODE_NOTES = (
    "# Position codes: " + "  ".join(f"{p.label} = {int(p)}" for p in Position),
    "# Tactical concept codes: " + "  ".join(f"{c.abbreviation} = {int(c)}" for c in Concept),
    "# Risk: "
    + ", ".join(f"{c.abbreviation} {low}-{high}" for c, (low, high) in RISK_RANGES.items())
    + " (blank = the lowest).",
)


def _points_line(label: str, points: LevelPoints | None) -> str:
    if points is None:
        return f"{label:<18}OL:      DL:"
    return f"{label:<18}OL: {points.ol:<4} DL: {points.dl}"


def format_order_form(
    team: Team,
    *,
    orders: MatchOrders | None = None,
    opponent: str = "",
    home: bool = True,
    match_number: int = 1,
    division: int = 1,
    training: list[TrainingOrder] | None = None,
    spy: SpyOrder | None = None,
) -> str:
    """The seed's form for `team`: blank when `orders` is None, otherwise filled in with the
    bot's start/end levels and total levels per set. `opponent`, `home` and `match_number`
    come from `orders` when given."""
    if orders is not None:
        opponent, home, match_number = orders.opponent, orders.home, orders.match_number
    out = [
        "VOLLEYBALL",
        "HOMEPLAY" if home else "OUTBOUND",
        f"DIVISION NO.: {division}",
        f"MATCH NO.: {match_number}",
        f"TEAM: {team.name}",
        f"AGAINST: {opponent}",
        "",
        "# Lines starting with # are notes; the bot ignores them.",
        *_CODE_NOTES,
        "# Roster (OL/DL): " + ", ".join(f"{p.name} {p.ol}/{p.dl}" for p in team.players),
    ]
    levels = lineup_levels(team, orders) if orders is not None else []
    for index in range(SETS_PER_MATCH_ORDER):
        set_order = orders.sets[index] if orders is not None and index < len(orders.sets) else None
        out += ["", f"SET {index + 1}"]
        out.append(f"{'':<{NAME_WIDTH}}Startlevels  Position  Endlevels")
        out.append(f"{'PLAYER':<{NAME_WIDTH}}  OL   DL      Code     OL   DL")
        if set_order is None or not set_order.slots:
            out += [BLANK_ROW] * PLAYERS_PER_SET
        else:
            lines = {line.player: line for line in levels[index]}
            for slot in set_order.slots:
                line = lines.get(slot.player)
                if line is None:  # not in the team: print the name and code only
                    row = (
                        f"{slot.player:<{NAME_WIDTH}}  {'':>2}   {'':>2}      {int(slot.position)}"
                    )
                else:
                    row = (
                        f"{line.player:<{NAME_WIDTH}}  {line.start_ol:>2}   {line.start_dl:>2}"
                        f"      {int(slot.position)}     {line.end_ol:>2}   {line.end_dl:>2}"
                    )
                if slot.tired_from_ol is not None:
                    row += f"   tired OL: {slot.tired_from_ol}"
                out.append(row)
        if set_order is None:
            out.append("TACTICAL CONCEPT  Concept code:")
            out.append("RISK FACTOR:")
        else:
            out.append(f"TACTICAL CONCEPT  Concept code: {int(set_order.concept)}")
            risk = "" if set_order.risk is None else f" {set_order.risk}"
            out.append(f"RISK FACTOR:{risk}")
        out += [_points_line(label, points) for label, points in form_points(set_order)]
        if set_order is not None and set_order.slots:
            ol, dl = set_totals(levels[index], set_order)
            out.append(f"{'TOTAL LEVELS':<18}OL: {ol:<4} DL: {dl}")
        else:
            out.append(f"{'TOTAL LEVELS':<18}OL:      DL:")
    out.append("")
    devotion = "" if orders is None else f" {orders.devotion_total}"
    special = "" if orders is None else f" {orders.special_total}"
    out.append(f"TOTAL USED DEVOTION POINTS (Whole match):{devotion}")
    out.append(f"TOTAL USED SPECIAL POINTS (Whole match):{special}")
    out += ["", "TRAINING", f"{'':<{NAME_WIDTH}}     OL         DL"]
    out.append(f"{'PLAYER':<{NAME_WIDTH}}  OLD  NEW   OLD  NEW")
    if training:
        for order in training:
            player = team.player(order.player)
            ol, dl = (player.ol, player.dl) if player is not None else (0, 0)
            out.append(
                f"{order.player:<{NAME_WIDTH}}  {ol:>3}  {ol + order.ol_gain:>3}"
                f"   {dl:>3}  {dl + order.dl_gain:>3}"
            )
    else:
        out += [BLANK_ROW] * 3
    out += ["", "SPYING ORDER"]
    out.append(f"TEAM: {spy.target_team if spy else ''}")
    out.append(f"AGAINST: {spy.against if spy else ''}")
    out.append(f"PLAYER DETAIL: {'yes' if spy and spy.player_detail else 'no'}")
    return "\n".join(line.rstrip() for line in out) + "\n"


# --- Reading -------------------------------------------------------------------------------

_INT = re.compile(r"^-?\d+$")
_SET_HEADER = re.compile(r"^set\s*(\d+)\s*:?(.*)$", re.IGNORECASE)
_PARENTHESES = re.compile(r"\([^)]*\)")
_TIRED = re.compile(r"\s+tired\s*(?:ol)?\s*[:=]?\s*(\S+)\s*$", re.IGNORECASE)
_FILLER = re.compile(r"^[\s_.\-|]*$")
_LABELLED = re.compile(r"^(team|against)\b\s*:?", re.IGNORECASE)
_HEADER_WORDS = {"player", "ol", "dl", "old", "new", "code", "startlevels", "endlevels", "position"}

_POSITION_WORDS = {p.name.lower(): p for p in Position}
_CONCEPT_WORDS = {c.abbreviation.lower(): c for c in Concept} | {c.name.lower(): c for c in Concept}
_CONCEPT_WORDS["agressive"] = Concept.AGGRESSIVE  # the seed's spelling


# Line labels (case-insensitive, at the start of a line) and what may follow them.
_DIVISION = r"division\s*(?:no\.?)?"
_MATCH_NUMBER = r"match\s*(?:no\.?|number)"
_DEVOTION_TOTAL = r"total\s+used\s+devotion\s*(?:points|pts\.?)?\s*(?:\(whole match\))?"
_SPECIAL_TOTAL = r"total\s+used\s+special\s*(?:points|pts\.?)?\s*(?:\(whole match\))?"
_CONCEPT_LABEL = r"(?:tactical\s+concept)?\s*(?:concept\s+code|code)?"
_RISK_LABEL = r"risk\s*(?:factor)?"
_DETAIL_LABEL = r"player\s+detail"


# The form's labels, as keyword sequences (ruling 34). The seed's paper form puts two
# labels on a row (TACTICAL CONCEPT | HOME ADV. Pts., Concept code | DEVOTION Pts., RISK
# FACTOR | SPECIAL Pts.; HOMEPLAY | DIVISION NO.; TEAM | AGAINST), so a row is split where a
# label starts. Keywords of four letters or more are matched with one typo allowed
# ("RISC FACTOR", "DEVOTOIN", "TACTICAL CONSEPT"); longest labels are tried first.
_LABELS: tuple[tuple[str, ...], ...] = (
    ("total", "used", "devotion"),
    ("total", "used", "special"),
    ("total", "levels"),
    ("tactical", "concept"),
    ("concept", "code"),
    ("risk", "factor"),
    ("home", "adv"),
    ("spying", "order"),
    ("player", "detail"),
    ("division",),
    ("match", "no"),
    ("match", "number"),
    ("homeplay",),
    ("outbound",),
    ("devotion",),
    ("special",),
    ("risk",),
    ("team",),
    ("against",),
    ("training",),
)

FORM_LABEL_WORDS = sorted({word for label in _LABELS for word in label})


def _typo_distance(a: str, b: str) -> int:
    """Edits between two words (insert, delete, substitute, swap two neighbours)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _is_keyword(word: str, keyword: str) -> bool:
    """`word` (as typed: any case, trailing '.' or ':') is `keyword`, allowing one typo in
    keywords of four letters or more."""
    word = word.lower().rstrip(".:")
    if word == keyword:
        return True
    return (
        len(keyword) >= 4
        and abs(len(word) - len(keyword)) <= 1
        and (_typo_distance(word, keyword) <= 1)
    )


def split_labelled_row(line: str) -> list[str]:
    """A row of the form cut into its labelled parts, each starting with its label spelled
    correctly: "TACTICAL CONSEPT   HOME ADV. Pts. 4 4" -> ["TACTICAL CONCEPT", "HOME ADV
    Pts. 4 4"]. A label starts a part at the start of the row, after a gap of two or more
    spaces (the form's columns), or when it ends with a colon. A row with no label is
    returned whole."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", line)]
    parts: list[list[str]] = []
    index = 0
    while index < len(words):
        start, _word = words[index]
        gap = line[max(0, start - 2) : start]
        label = None
        for candidate in _LABELS:
            chunk = words[index : index + len(candidate)]
            if len(chunk) == len(candidate) and all(
                _is_keyword(w, k) for (_s, w), k in zip(chunk, candidate, strict=True)
            ):
                ends_colon = chunk[-1][1].endswith(":") or (
                    index + len(candidate) < len(words)
                    and words[index + len(candidate)][1].startswith(":")
                )
                if index == 0 or gap == "  " or "\t" in gap or ends_colon:
                    label = candidate
                    break
        if label is not None:
            last = words[index + len(label) - 1][1]
            colon = ":" if last.endswith(":") else ""
            parts.append([" ".join(k.upper() for k in label) + colon])
            index += len(label)
            continue
        if not parts:
            parts.append([])
        parts[-1].append(words[index][1])
        index += 1
    return [" ".join(part) for part in parts]


def _value_after(text: str, label: str) -> str:
    """What follows the `label` pattern at the start of `text`, without a colon."""
    match = re.match(label, text, re.IGNORECASE)
    rest = text[match.end() :] if match else text
    return rest.lstrip(" :=\t").strip()


class _FormReader:
    """Reads one form line by line, collecting problems instead of stopping at the first."""

    def __init__(self, team: Team | None):
        self.team = team
        self.problems: list[str] = []
        self.team_name: str | None = None
        self.opponent: str | None = None
        self.home: bool | None = None
        self.match_number: int | None = None
        self.division: int | None = None
        self.sets: dict[int, SetOrder] = {}
        self.current_set: SetOrder | None = None
        self.section = "header"
        self.training: list[TrainingOrder] = []
        self.spy_team = ""
        self.spy_against = ""
        self.spy_detail = False
        self.declared_devotion: int | None = None
        self.declared_special: int | None = None

    def problem(self, number: int, text: str) -> None:
        self.problems.append(f"Line {number}: {text}")

    def number(self, number: int, value: str, what: str, *, blank: int | None = None) -> int | None:
        value = value.strip()
        if not value:
            return blank
        if not _INT.match(value):
            self.problem(number, f"{what} must be a whole number, not {echoed(value)}.")
            return blank
        return int(value)

    def read(self, lines: list[tuple[int, str]]) -> None:
        for number, raw in lines:
            line = raw.strip()
            if not line or line.startswith("#") or _FILLER.match(line):
                continue
            if self.starts_with_player(line):
                self.read_line(number, line)
                continue
            for part in split_labelled_row(line):
                self.read_line(number, part)

    def starts_with_player(self, line: str) -> bool:
        """The row starts with a roster name (then it is never cut at label words)."""
        if self.team is None:
            return False
        lower = line.lower()
        return any(
            lower.startswith(p.name.lower())
            and (len(lower) == len(p.name) or not lower[len(p.name)].isalnum())
            for p in self.team.players
        )

    def read_line(self, number: int, line: str) -> None:
        lower = line.lower()
        set_header = _SET_HEADER.match(line)
        if lower == "volleyball":
            return
        if "homeplay" in lower or "outbound" in lower:
            if "homeplay" in lower and "outbound" in lower:
                self.problem(number, "write either HOMEPLAY or OUTBOUND, not both.")
            else:
                self.home = "homeplay" in lower
            return
        if re.match(_DIVISION + r"\s*[:=]?\s*\S*$", line, re.IGNORECASE):
            self.division = self.number(number, _value_after(line, _DIVISION), "DIVISION NO.")
            return
        if re.match(_MATCH_NUMBER, line, re.IGNORECASE):
            self.match_number = self.number(number, _value_after(line, _MATCH_NUMBER), "MATCH NO.")
            return
        if set_header and set(set_header.group(2).lower().replace(".", " ").split()) <= (
            _HEADER_WORDS
        ):
            self.start_set(number, int(set_header.group(1)))
            return
        if lower.startswith("total used devotion"):
            self.declared_devotion = self.number(
                number, _value_after(line, _DEVOTION_TOTAL), "The devotion total"
            )
            self.section = "totals"
            return
        if lower.startswith("total used special"):
            self.declared_special = self.number(
                number, _value_after(line, _SPECIAL_TOTAL), "The special total"
            )
            self.section = "totals"
            return
        if lower.split()[0] == "training" and set(lower.split()[1:]) <= _HEADER_WORDS:
            self.section = "training"
            return
        if lower.startswith("spying order"):
            self.section = "spy"
            return
        labelled = _LABELLED.match(line)
        if labelled and (":" in line or self.section in ("header", "spy")):
            value = line[labelled.end() :].strip()
            if labelled.group(1).lower() == "team":
                if self.section == "spy":
                    self.spy_team = value
                else:
                    self.team_name = value
            elif self.section == "spy":
                self.spy_against = value
            else:
                self.opponent = value
            return
        if lower.startswith("player detail"):
            answer = _value_after(line, _DETAIL_LABEL).lower()
            if answer not in ("yes", "no", "y", "n", ""):
                self.problem(number, f"PLAYER DETAIL must be yes or no, not {echoed(answer)}.")
            self.spy_detail = answer in ("yes", "y")
            return
        if set(lower.replace(".", " ").split()) <= _HEADER_WORDS:
            return  # a column header
        if self.section == "set" and self.current_set is not None:
            self.read_set_line(number, line, lower)
        elif self.section == "training":
            self.read_training_line(number, line)
        else:
            self.problem(number, f"I don't understand {echoed(line)} here.")

    def start_set(self, number: int, set_number: int) -> None:
        if not 1 <= set_number <= SETS_PER_MATCH_ORDER:
            self.problem(number, f"there is no SET {set_number}; a match has sets 1 to 5.")
            self.current_set = None
        elif set_number in self.sets:
            self.problem(number, f"SET {set_number} appears twice.")
            self.current_set = None
        else:
            self.current_set = SetOrder()
            self.sets[set_number] = self.current_set
        self.section = "set"

    def read_set_line(self, number: int, line: str, lower: str) -> None:
        current = self.current_set
        assert current is not None
        if lower.startswith("tactical concept") or lower.startswith("concept code"):
            value = _value_after(line, _CONCEPT_LABEL)
            if value:
                concept = self.concept(value)
                if concept is None:
                    self.problem(
                        number,
                        f"the concept code must be 1 (AC), 2 (OC), 3 (NC), 4 (DC) or 5 (WC), not {echoed(value)}.",
                    )
                else:
                    current.concept = concept
            return
        if re.match(r"risk\b", lower):
            current.risk = self.number(number, _value_after(line, _RISK_LABEL), "The risk factor")
            return
        for label, attribute in (
            ("home adv", "home_advantage"),
            ("devotion", "devotion"),
            ("special", "special"),
        ):
            if lower.startswith(label):
                setattr(current, attribute, self.level_points(number, line, label))
                return
        if lower.startswith("total levels"):
            return  # the bot's own arithmetic
        slot = self.player_slot(number, line)
        if slot is not None:
            current.slots.append(slot)

    def concept(self, value: str) -> Concept | None:
        key = value.strip().lower()
        if _INT.match(key) and int(key) in Concept._value2member_map_:
            return Concept(int(key))
        return _CONCEPT_WORDS.get(key)

    def level_points(self, number: int, line: str, label: str) -> LevelPoints:
        """ "DEVOTION Pts. OL: 4 DL: 2": a level without a number counts 0."""
        rest = line[len(label) :]
        rest = re.sub(r"^[^:]*?pts\.?", "", rest, flags=re.IGNORECASE)
        found: dict[str, str] = {}
        words = rest.replace(":", " ").replace("=", " ").split()
        for index, word in enumerate(words):
            key = word.lower()
            if key in ("ol", "dl"):
                following = words[index + 1] if index + 1 < len(words) else ""
                found[key] = "" if following.lower() in ("ol", "dl") else following
        bare = rest.replace(":", " ").split()
        if not found and bare and all(_INT.match(word) for word in bare):
            if len(bare) == 2:  # the seed's column: "4 4" is OL then DL
                ol = self.number(number, bare[0], f"{label.upper()} OL points", blank=0)
                dl = self.number(number, bare[1], f"{label.upper()} DL points", blank=0)
                return LevelPoints(ol or 0, dl or 0)
            self.problem(
                number,
                f"write {label.upper()} points as two numbers, OL then DL (like '4 0'); "
                f"{echoed(' '.join(bare))} is not.",
            )
            return LevelPoints()
        if not found and rest.strip(" :"):
            self.problem(
                number,
                f"write {label.upper()} points per level, like 'OL: 4  DL: 2' (rule 4: points "
                "go on the offensive or the defensive level).",
            )
            return LevelPoints()
        ol = self.number(number, found.get("ol", ""), f"{label.upper()} OL points", blank=0)
        dl = self.number(number, found.get("dl", ""), f"{label.upper()} DL points", blank=0)
        return LevelPoints(ol or 0, dl or 0)

    def split_name(self, line: str, numbers: int | None = None) -> tuple[str, list[str]]:
        """The player's name and the words after it: the longest roster name the line
        starts with when a team is known, otherwise everything before the trailing numbers
        (`numbers` of them when the line has a fixed count, else 1, 3 or 5)."""
        if self.team is not None:
            lower = line.lower()
            for player in sorted(self.team.players, key=lambda p: -len(p.name)):
                name = player.name.lower()
                if lower.startswith(name) and (
                    len(lower) == len(name) or lower[len(name)].isspace()
                ):
                    return player.name, line[len(name) :].split()
        words = line.split()
        if numbers is not None:  # a fixed number of values follows the name
            return " ".join(words[:-numbers]), words[-numbers:]
        count = 0
        while count < len(words) and (
            _INT.match(words[-1 - count]) or words[-1 - count].lower() in _POSITION_WORDS
        ):
            count += 1
        if count in (2, 4):
            count -= 1  # an odd count of numbers: the first belongs to the name
        return " ".join(words[: len(words) - count]), words[len(words) - count :]

    def player_slot(self, number: int, line: str) -> PlayerSlot | None:
        line = _PARENTHESES.sub(" ", line).strip()  # "Cees Jan (captain)"
        tired: int | None = None
        tired_match = _TIRED.search(line)
        if tired_match:
            tired = self.number(number, tired_match.group(1), "The tiredness split (tired OL)")
            line = line[: tired_match.start()]
        name, rest = self.split_name(line)
        if not name:
            self.problem(number, f"{echoed(line)} has no player name.")
            return None
        if len(rest) not in (1, 3, 5):
            self.problem(
                number,
                f"write the player's name, then (optionally) his start levels, the position code "
                f"1-5 and (optionally) his end levels; {echoed(line)} has {len(rest)} values after the name.",
            )
            return None
        if self.team is not None and self.team.player(name) is None:
            hint = did_you_mean(name, [p.name for p in self.team.players])
            self.problem(number, f"{self.team.name} has no player called {echoed(name)}.{hint}")
            return None
        code = rest[0] if len(rest) == 1 else rest[2]
        position = self.position(code)
        if position is None:
            self.problem(
                number,
                f"{possessive(name)} position code must be 1 (Setter), 2 (Attacker), 3 (Allround), "
                f"4 (Defender) or 5 (Blocker), not {echoed(code)}.",
            )
            return None
        return PlayerSlot(name, position, tired)

    def position(self, code: str) -> Position | None:
        key = code.strip().lower()
        if _INT.match(key) and int(key) in Position._value2member_map_:
            return Position(int(key))
        return _POSITION_WORDS.get(key)

    def read_training_line(self, number: int, line: str) -> None:
        name, rest = self.split_name(line, numbers=4)
        if not name or len(rest) != 4 or not all(_INT.match(value) for value in rest):
            self.problem(
                number,
                f"a training line is the player's name and four numbers: OL old, OL new, DL old, "
                f"DL new; {echoed(line)} is not.",
            )
            return
        ol_old, ol_new, dl_old, dl_new = (int(value) for value in rest)
        player = self.team.player(name) if self.team is not None else None
        if player is not None:
            if ol_old != player.ol or dl_old != player.dl:
                self.problem(
                    number,
                    f"the form says {player.name} is {ol_old}/{dl_old}, but his levels are "
                    f"{player.ol}/{player.dl}.",
                )
                return
            name = player.name
        if ol_new < ol_old or dl_new < dl_old:
            self.problem(
                number, f"{possessive(name)} NEW levels cannot be lower than his OLD ones."
            )
            return
        self.training.append(TrainingOrder(name, ol_new - ol_old, dl_new - dl_old))

    def finish(self) -> OrderForm:
        team_name = self.team_name or (self.team.name if self.team is not None else "")
        if not team_name:
            self.problems.append("The form has no TEAM line.")
        elif self.team is not None and team_name.casefold() != self.team.name.casefold():
            self.problems.append(
                f"This form is for {team_name}, but your team is {self.team.name}."
            )
        if self.home is None:
            self.problems.append("Write HOMEPLAY or OUTBOUND at the top of the form.")
        if self.match_number is None:
            self.problems.append("The form has no MATCH NO.")
        if not self.opponent:
            self.problems.append("The form has no AGAINST line naming the opponent.")
        missing = [str(n) for n in range(1, SETS_PER_MATCH_ORDER + 1) if n not in self.sets]
        if missing:
            self.problems.append(
                f"The form has no SET {', '.join(missing)}; every form has SET 1 to SET 5."
            )
        sets = [self.sets.get(n, SetOrder()) for n in range(1, SETS_PER_MATCH_ORDER + 1)]
        orders = MatchOrders(
            sets=sets,
            match_number=self.match_number or 1,
            opponent=self.opponent or "",
            home=bool(self.home),
        )
        for label, declared, actual in (
            ("DEVOTION", self.declared_devotion, orders.devotion_total),
            ("SPECIAL", self.declared_special, orders.special_total),
        ):
            if declared is not None and declared != actual:
                self.problems.append(
                    f"TOTAL USED {label} POINTS says {declared}, but the sets add up to {actual}."
                )
        spy = None
        if self.spy_team:
            spy = SpyOrder(self.spy_team, orders.match_number, self.spy_detail, self.spy_against)
        elif self.spy_against:
            self.problems.append("The SPYING ORDER names an AGAINST team but no TEAM to spy on.")
        return OrderForm(
            team=team_name,
            opponent=orders.opponent,
            home=orders.home,
            match_number=orders.match_number,
            division=self.division or 1,
            match_orders=orders,
            training=self.training,
            spy=spy,
            stated_division=self.division,
        )


def parse_order_form(text: str, team: Team | None = None) -> OrderForm:
    """Read one form in the seed's layout. With `team`, player names are matched to its
    roster (case-insensitive) and training OLD levels are checked against it. Raises
    VolleyballError listing every problem, each with its line number."""
    if not text.strip():
        raise VolleyballError("The form is empty.")
    reader = _FormReader(team)
    reader.read(list(enumerate(text.splitlines(), start=1)))
    form = reader.finish()
    if reader.problems:
        raise VolleyballError(reader.problems)
    return form


def parse_order_forms(text: str, team: Team | None = None) -> list[OrderForm]:
    """Read several forms pasted one after another (one per match of the round), each
    starting with its VOLLEYBALL line. Problems of every form are reported together."""
    chunks: list[list[tuple[int, str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().lower() == "volleyball" or not chunks:
            chunks.append([])
        chunks[-1].append((number, line))
    chunks = [c for c in chunks if any(line.strip() for _, line in c)]
    if not chunks:
        raise VolleyballError("The form is empty.")
    forms: list[OrderForm] = []
    problems: list[str] = []
    for index, chunk in enumerate(chunks, start=1):
        reader = _FormReader(team)
        reader.read(chunk)
        form = reader.finish()
        prefix = f"Form {index}: " if len(chunks) > 1 else ""
        problems.extend(prefix + p for p in reader.problems)
        forms.append(form)
    if problems:
        raise VolleyballError(problems)
    return forms


# --- A whole round -------------------------------------------------------------------------


def format_round_forms(
    team: Team,
    fixtures: list[Fixture],
    round_orders: RoundOrders | None = None,
    *,
    division: int | None = None,
) -> str:
    """One form per match `team` plays in `fixtures` (the round's), in match order: blank, or
    filled in from `round_orders`. The round's training goes on the first form only; spying
    order i goes on form i (the seed's form has one spying block)."""
    division = team.division if division is None else division
    own = sorted(
        (f for f in fixtures if team.name.casefold() in (f.home.casefold(), f.away.casefold())),
        key=lambda f: f.match_number,
    )
    spies = list(round_orders.spies) if round_orders is not None else []
    forms = []
    for index, fixture in enumerate(own):
        home = fixture.home.casefold() == team.name.casefold()
        opponent = fixture.away if home else fixture.home
        given = None
        if round_orders is not None:
            given = next(
                (m for m in round_orders.matches if m.match_number == fixture.match_number), None
            )
        forms.append(
            format_order_form(
                team,
                orders=given,
                opponent=opponent,
                home=home,
                match_number=fixture.match_number,
                division=division,
                training=round_orders.training if round_orders is not None and index == 0 else None,
                spy=spies[index] if index < len(spies) else None,
            )
        )
    return "\n".join(forms)


def _spy_with_match(spy: SpyOrder, fixtures: list[Fixture]) -> SpyOrder | None:
    """The spying order with the match number of the game between its TEAM and AGAINST."""
    pair = {spy.target_team.casefold(), spy.against.casefold()}
    for fixture in fixtures:
        if {fixture.home.casefold(), fixture.away.casefold()} == pair:
            return SpyOrder(spy.target_team, fixture.match_number, spy.player_detail, spy.against)
    return None


def round_orders_from_forms(
    team_name: str, forms: list[OrderForm], fixtures: list[Fixture] | None = None
) -> RoundOrders:
    """The round's orders from the forms read for it: every form's match, the training (which
    must be written on one form only) and every spying order. With the round's `fixtures`, a
    spying order's TEAM and AGAINST name the game it is about (rule 9: "a specific team in a
    specific game in the next round") and its match number is taken from that game. Raises
    VolleyballError when two forms are for the same match, both carry training, or a spying
    order names a game that is not played this round."""
    problems = []
    spies = []
    for form in forms:
        if form.spy is None:
            continue
        spy = form.spy
        if fixtures is not None and spy.against:
            found = _spy_with_match(spy, fixtures)
            if found is None:
                problems.append(
                    f"The spying order names {spy.target_team} against {spy.against}, "
                    "but they do not play each other this round."
                )
                continue
            spy = found
        spies.append(spy)
    numbers = [form.match_number for form in forms]
    for number in sorted(set(numbers)):
        if numbers.count(number) > 1:
            problems.append(
                f"There are {numbers.count(number)} forms for match {number}; send one."
            )
    with_training = [form for form in forms if form.training]
    if len(with_training) > 1:
        problems.append(
            "Training is written on more than one form; write the round's training on one form."
        )
    if problems:
        raise VolleyballError(problems)
    return RoundOrders(
        team=team_name,
        matches=[form.match_orders for form in forms],
        training=list(with_training[0].training) if with_training else [],
        spies=spies,
    )
