"""Every order type as text, orders sent in pieces merged, and one entry point for a
manager's message (docs/rules/volleyball.md, ruling 35).

The seed's form carries line-ups, training and one spying order; the other orders of rules
6-10 get one line each, written anywhere outside a form's SET blocks (after the forms, or in
a message of their own). Labels are case-insensitive; money may be written "$350" or "350":

    SPONSOR: Champion Cola                  rule 9 (SPONSOR: none keeps the current one)
    SCOUT: Nina Nieuw                       rule 6, one line per talent
    SPY: Blue Whales match 2 detail         rule 9 (without "detail": totals only, $300)
    SELL: Piet Put min 300                  rule 8 (no "min": any bid)
    BID: Piet Put from Red Rockets 350      rule 8, a transfer-market bid
    GM BID: R2P1 250 name Jan Jansen        rule 8, a GM offer (a new player needs a name)
    CONTRACT: Ilse Muur 150 for 3 rounds    rule 7
    AGEING: Anna OL 3                       rule 10, OL points lost (the rest off DL)
    TRAIN: Bob OL                           rule 6 (OL, DL or OL DL: one point each)

`LABEL: none` clears what is on file for that kind. Between seasons only AGEING lines are
taken (they go to season.end_season). Orders are merged kind by kind: a
message replaces the kinds it mentions (line-ups match by match number) and keeps the rest on
file (`merge_orders`). `submit_orders` reads a message (forms and order lines), merges it
with what is on file and checks the result against the round: accepted orders, every problem
and every warning.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from rules.volleyball.ageing import ageing_split_problems
from rules.volleyball.models import Team
from rules.volleyball.orderform import (
    FORM_LABEL_WORDS,
    parse_order_forms,
    round_orders_from_forms,
)
from rules.volleyball.orders import (
    AgeingSplit,
    ContractBid,
    GmOfferBid,
    MatchOrders,
    RoundOrders,
    SpyOrder,
    TrainingOrder,
    TransferBid,
    TransferSale,
    VolleyballError,
)
from rules.volleyball.rounds import OrderCheck, check_round_orders, round_fixtures
from rules.volleyball.season import LeagueState

# The kinds of order a message may carry, as RoundOrders attribute names.
KINDS = (
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
)

_LABELS = {
    "sponsor": "sponsor",
    "scout": "scout_talents",
    "spy": "spies",
    "sell": "sales",
    "bid": "transfer_bids",
    "gm bid": "gm_offer_bids",
    "contract": "contract_bids",
    "ageing": "ageing",
    "aging": "ageing",
    "train": "training",
}
_LINE = re.compile(
    r"^\s*(gm\s+bid|sponsor|scout|spy|sell|bid|contract|ageing|aging|train)\s*:\s*(.*)$", re.I
)
# An order line written without its colon ("SPONSOR Champion Cola"): told with the form that
# is read, rather than passed on to the form reader, which would not know what it is.
_NO_COLON = re.compile(
    r"^\s*(gm\s+bid|sponsor|scout|spy|sell|bid|contract|ageing|aging|train)\s*[-=.]?\s+(\S.*)$",
    re.I,
)
# A label misspelt ("trian", "sponser") is told as the label it is closest to, when it is
# closer to an order label than to any of the form's labels (TRAINING, AGAINST) and is not a
# player's name: difflib's ratio of at least 0.75 takes one typo in a short word.
_LABEL_WORDS = sorted({label.split()[-1] for label in _LABELS})
_CLOSE = 0.75
_MONEY = r"\$?(\d[\d,]*)"
MAX_MESSAGE_BYTES = 100 * 1024
"""A message over 100 KB is refused (a round's forms are a few KB); the same limit as
ui/uploads.py, which refuses a bigger upload before it is read."""


def _money(text: str) -> int:
    return int(text.replace(",", ""))


@dataclass
class OrderText:
    """What a message said: the orders and the kinds it mentions (only those replace what is
    on file)."""

    orders: RoundOrders
    mentioned: set[str] = field(default_factory=set)


def _read_line(kind: str, value: str, orders: RoundOrders) -> str | None:
    """Add one order line's order to `orders`; a problem sentence if it cannot be read."""
    if kind == "sponsor":
        orders.sponsor = value
        return None
    if kind == "scout_talents":
        orders.scout_talents.append(value)
        return None
    if kind == "spies":
        m = re.match(r"^(.+?)\s+match\s+(\d+)(\s+detail)?$", value, re.I)
        if not m:
            return "write SPY: TEAM match N (and 'detail' for the players' levels)."
        orders.spies.append(SpyOrder(m.group(1).strip(), int(m.group(2)), bool(m.group(3))))
        return None
    if kind == "sales":
        m = re.match(rf"^(.+?)(?:\s+min(?:imum)?\s+{_MONEY})?$", value, re.I)
        if not m:
            return "write SELL: PLAYER, or SELL: PLAYER min AMOUNT."
        orders.sales.append(TransferSale(m.group(1).strip(), _money(m.group(2) or "0")))
        return None
    if kind == "transfer_bids":
        m = re.match(rf"^(.+?)\s+from\s+(.+?)\s+{_MONEY}$", value, re.I)
        if not m:
            return "write BID: PLAYER from TEAM AMOUNT."
        orders.transfer_bids.append(
            TransferBid(m.group(2).strip(), m.group(1).strip(), _money(m.group(3)))
        )
        return None
    if kind == "gm_offer_bids":
        m = re.match(rf"^(\S+)\s+{_MONEY}(?:\s+name\s+(.+))?$", value, re.I)
        if not m:
            return "write GM BID: OFFER AMOUNT (and 'name NAME' for a new player)."
        name = m.group(3).strip() if m.group(3) else None
        orders.gm_offer_bids.append(GmOfferBid(m.group(1), _money(m.group(2)), name))
        return None
    if kind == "contract_bids":
        m = re.match(rf"^(.+?)\s+{_MONEY}\s+for\s+(\d+)\s+rounds?$", value, re.I)
        if not m:
            return "write CONTRACT: PLAYER PAY for N rounds."
        orders.contract_bids.append(
            ContractBid(m.group(1).strip(), _money(m.group(2)), int(m.group(3)))
        )
        return None
    if kind == "ageing":
        m = re.match(r"^(.+?)\s+ol\s+(\d+)$", value, re.I)
        if not m:
            return "write AGEING: PLAYER OL N (the OL points he loses; the rest come off DL)."
        orders.ageing.append(AgeingSplit(m.group(1).strip(), int(m.group(2))))
        return None
    if kind == "training":
        m = re.match(r"^(.+?)\s+(ol|dl|ol\s+dl|dl\s+ol)$", value, re.I)
        if not m:
            return "write TRAIN: PLAYER OL, TRAIN: PLAYER DL or TRAIN: PLAYER OL DL."
        levels = m.group(2).lower().split()
        orders.training.append(
            TrainingOrder(m.group(1).strip(), int("ol" in levels), int("dl" in levels))
        )
        return None
    raise AssertionError(kind)


def _starts_with_player(line: str, team: Team) -> bool:
    """The line starts with a roster name (a player line of a form, not an order line)."""
    lower = line.strip().casefold()
    return any(
        lower.startswith(p.name.casefold())
        and (len(lower) == len(p.name) or not lower[len(p.name)].isalnum())
        for p in team.players
    )


def _misspelt_label(line: str, team: Team) -> tuple[str, str] | None:
    """(the label meant, the rest of the line) when the line starts with a misspelt order
    label ("trian Anna OL", "GM bdi: R2P1 250"), else None: a word closer to one of the
    form's labels or to a player's name is not taken for one."""
    words = line.split(None, 2)
    if not words or _starts_with_player(line, team):
        return None
    first = words[0].lower().rstrip(":.")
    head, rest = ("gm", words[1:]) if first == "gm" and len(words) > 1 else ("", words)
    word = rest[0].lower().rstrip(":.") if head else first
    value = " ".join(rest[1:] if head else words[1:]).lstrip(":").strip()
    if not word.isalpha() or word in _LABEL_WORDS:
        return None
    names = {n.casefold() for p in team.players for n in p.name.split()}
    candidates = [*_LABEL_WORDS, *FORM_LABEL_WORDS, *names]
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=_CLOSE)
    if not close or close[0] not in _LABEL_WORDS or (head and close[0] != "bid"):
        return None
    return (f"GM {close[0].upper()}" if head else close[0].upper()), value


def read_orders_text(
    text: str, team: Team, fixtures: list | None = None
) -> tuple[OrderText, list[str]]:
    """Read a manager's message: any order forms in it (orderform.parse_order_forms) and the
    order lines of this module's docstring. Every line is read, whatever the lines before
    it: returns what could be read and every problem, each with its line. A label without
    its colon, or misspelt, is told as the label it stands for and the line is read as
    that order (so its own problems come in the same answer)."""
    problems: list[str] = []
    orders = RoundOrders(team=team.name)
    mentioned: set[str] = set()
    form_lines: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = _LINE.match(line)
        if m:
            label, value = m.group(1), m.group(2)
        else:
            loose = _NO_COLON.match(line)
            misspelt = None if loose else _misspelt_label(line, team)
            if loose and not _starts_with_player(line, team):
                label, value = loose.group(1), loose.group(2)
                written = " ".join(label.upper().split())
                problems.append(
                    f"Line {number}: an order line has a colon after its label: write "
                    f"{written}: {value.strip()}"
                )
            elif misspelt is not None:
                label, value = misspelt
                typed = line.split(None, 2 if label.startswith("GM") else 1)
                typed_label = " ".join(typed[: 2 if label.startswith("GM") else 1])
                problems.append(
                    f"Line {number}: {typed_label.rstrip(':')!r} is not an order label; did "
                    f"you mean {label}? Write {label}: {value}"
                )
            else:
                form_lines.append(line)
                continue
        form_lines.append("")  # keeps the forms' line numbers
        kind = _LABELS[re.sub(r"\s+", " ", label.lower())]
        value = value.strip()
        mentioned.add(kind)
        if value.lower() in ("none", "-", ""):
            if kind == "sponsor":
                orders.sponsor = None
            continue
        problem = _read_line(kind, value, orders)
        if problem:
            problems.append(f"Line {number}: {problem}")
    form_text = "\n".join(form_lines)
    if form_text.strip():
        try:
            forms = parse_order_forms(form_text, team)
            for index, form in enumerate(forms, start=1):
                if form.stated_division not in (None, team.division):
                    where = f"Form {index}: " if len(forms) > 1 else ""
                    problems.append(
                        f"{where}DIVISION NO. says {form.stated_division}, but {team.name} "
                        f"plays in division {team.division}."
                    )
            from_forms = round_orders_from_forms(team.name, forms, fixtures)
        except VolleyballError as error:
            problems.extend(error.problems)
        else:
            orders.matches = from_forms.matches
            mentioned.add("matches")
            if from_forms.training:
                if "training" in mentioned:
                    problems.append(
                        "Training is given both on a form and in TRAIN lines; give it once."
                    )
                orders.training = from_forms.training
                mentioned.add("training")
            if from_forms.spies:
                orders.spies.extend(from_forms.spies)
                mentioned.add("spies")
    return OrderText(orders, mentioned), problems


def parse_orders_text(text: str, team: Team, fixtures: list | None = None) -> OrderText:
    """read_orders_text, raising VolleyballError listing every problem, each with its line."""
    read, problems = read_orders_text(text, team, fixtures)
    if problems:
        raise VolleyballError(problems)
    return read


def merge_orders(on_file: RoundOrders | None, new: RoundOrders, mentioned: set[str]) -> RoundOrders:
    """The orders on file with the kinds `mentioned` replaced by `new`'s (ruling 35:
    orders may be sent in pieces). Line-ups replace the line-up for the same match number
    only; the others are kept."""
    if on_file is None:
        on_file = RoundOrders(team=new.team)
    merged = RoundOrders.from_dict(on_file.to_dict())
    for kind in mentioned:
        if kind == "matches":
            replaced = {m.match_number for m in new.matches}
            kept = [m for m in merged.matches if m.match_number not in replaced]
            merged.matches = sorted(
                kept + [MatchOrders.from_dict(m.to_dict()) for m in new.matches],
                key=lambda m: m.match_number,
            )
        else:
            value = getattr(new, kind)
            setattr(merged, kind, list(value) if isinstance(value, list) else value)
    return merged


def submit_orders(
    state: LeagueState,
    team_name: str,
    *,
    text: str | None = None,
    orders: RoundOrders | None = None,
    on_file: RoundOrders | None = None,
    kinds: set[str] | None = None,
) -> OrderCheck:
    """A manager sends orders (a message `text`, or structured `orders`): read, merged with
    `on_file`, checked against the coming round. For structured orders `kinds` names the
    kinds they replace (KINDS); by default the kinds they fill in (a command sends a piece).
    The result's `orders` are what to store when `accepted`; with problems nothing should
    be stored and the previous orders stay on file. Never raises for bad input."""
    team = state.league.team(team_name)
    if team is None:
        return OrderCheck(RoundOrders(team=team_name), [f"There is no team called {team_name}."])
    if text is not None and len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        return OrderCheck(
            on_file or RoundOrders(team=team.name),
            [
                f"The orders are {len(text.encode('utf-8')) // 1024} KB; send at most "
                f"{MAX_MESSAGE_BYTES // 1024} KB (one form per match and the order lines)."
            ],
        )
    unread: list[str] = []
    if text is not None:
        fixtures = round_fixtures(state, state.league.round_number)
        read, unread = read_orders_text(text, team, fixtures)
    elif orders is not None:
        if kinds is None:
            kinds = {k for k in KINDS if getattr(orders, k) not in (None, [])}
        read = OrderText(orders, set(kinds))
    else:
        return OrderCheck(on_file or RoundOrders(team=team.name), ["No orders were given."])
    read.orders.team = team.name
    merged = merge_orders(on_file, read.orders, read.mentioned)
    if state.season_over:
        # Between seasons only rule 10's ageing splits can be given (for end_season).
        problems = ageing_split_problems(team, merged.ageing)
        if read.mentioned - {"ageing"}:
            problems.insert(
                0, "The season is over: only ageing splits (AGEING lines) can be sent now."
            )
        return _with_unread(OrderCheck(merged, problems), unread, on_file, team.name)
    return _with_unread(check_round_orders(state, merged), unread, on_file, team.name)


def _with_unread(
    check: OrderCheck, unread: list[str], on_file: RoundOrders | None, team: str
) -> OrderCheck:
    """The check of what could be read, after the problems of what could not: a message
    with any problem is refused whole (the orders on file stay), and every problem of it is
    told at once, not one per attempt. The check's warnings are left out: they are about
    orders without the parts that could not be read (a line-up not read is not missing)."""
    if not unread:
        return check
    later = [p for p in check.problems if p not in unread]
    return OrderCheck(on_file or RoundOrders(team=team), [*unread, *later])


def format_orders_text(orders: RoundOrders) -> str:
    """The order lines for everything but line-ups (those go on the seed's form:
    orderform.format_round_forms), so `parse_orders_text` reads them back."""
    lines = []
    if orders.sponsor:
        lines.append(f"SPONSOR: {orders.sponsor}")
    lines += [f"SCOUT: {name}" for name in orders.scout_talents]
    lines += [
        f"SPY: {s.target_team} match {s.match_number}" + (" detail" if s.player_detail else "")
        for s in orders.spies
    ]
    lines += [
        f"SELL: {s.player}" + (f" min {s.minimum_price}" if s.minimum_price else "")
        for s in orders.sales
    ]
    lines += [f"BID: {b.player} from {b.seller} {b.amount}" for b in orders.transfer_bids]
    lines += [
        f"GM BID: {b.offer_id} {b.amount}" + (f" name {b.player_name}" if b.player_name else "")
        for b in orders.gm_offer_bids
    ]
    lines += [
        f"CONTRACT: {b.contract_player} {b.pay_per_round} for {b.rounds} rounds"
        for b in orders.contract_bids
    ]
    lines += [f"AGEING: {a.player} OL {a.ol_loss}" for a in orders.ageing]
    for t in orders.training:
        levels = " ".join(x for x, g in (("OL", t.ol_gain), ("DL", t.dl_gain)) if g)
        if levels:
            lines.append(f"TRAIN: {t.player} {levels}")
    return "\n".join(lines) + ("\n" if lines else "")
