"""The orders editor (`/volleyball orders edit`, docs/rules/volleyball.md "Managers"): a manager builds the round's
line-ups with Discord's menus instead of text, one match and one set at a time, in an
ephemeral message that only they see.

Discord gives a message five rows and a select menu takes a whole row, so the set is edited
with three menus and two rows of buttons:

1. Players: a multi-select of the roster (at most 25 options; six picked). Players who stay
   keep their positions; new ones come in as Allround.
2. Positions: one multi-select of "player: position" for the set's six players and the four
   positions that change levels (6 x 4 = 24 options); whoever is not picked plays Allround.
   One position per player; the rules' limits (at most two setters, two blockers) and the
   concept's needs are checked, and shown, on every change.
3. Concept and risk: one select of the 23 legal pairs (AC 9-12, OC 6-9, NC 3-9, DC 3-6,
   WC 0-3), so a risk outside its concept's range cannot be chosen.
4. Set 1 to Set 5.
5. Points (a small modal for HA, DP and SP on OL and DL), the next match, Start over and
   Save orders.

Every change redraws the message with the set's preview (totals and scoring chance against
the neutral opponent, rules.volleyball.preview_match, ruling 40) and the problems the engine
finds in the whole draft (rules.volleyball.submit_orders, the check orders get when they are
sent). Save orders sends the draft's line-ups through the league service's submit, the path
every order takes: accepted, they replace the line-ups of their matches on file (the other
orders on file stay); refused, nothing is stored and every problem is listed.

The draft lives in the database (db/volleyball_drafts.py), never as orders; the custom_ids
carry the league, the manager's user id, the round and the match and set on screen, so the
menus keep working after a restart (DynamicItems), a click from anyone but that manager is
refused, and an editor of a round already played says so instead of editing the next round.
Training, bids, spying and the sponsor stay order lines (the orders form's box or their
commands); the editor says so.

In a lesson's league (docs/rules/volleyball.md "Learn by playing"; cogs/volleyball/lesson.py) each
change is first checked against the lesson's step (cogs/volleyball/lesson_card.py `checked`): a
click the step does not wait for is answered with its hint and nothing is kept; the right one is
kept and the lesson moves on, the editor saying the next step.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from cogs.volleyball import lesson, lesson_card
from cogs.volleyball.orders import Orders, orders_of
from cogs.volleyball.playing import round_key, round_name
from db import volleyball_drafts as drafts
from rules.errors import cut, echoed
from rules.volleyball import (
    CONCEPT_REQUIREMENTS,
    RISK_RANGES,
    Concept,
    LeagueState,
    LevelPoints,
    MatchOrders,
    OrderCheck,
    PlayerSlot,
    Position,
    RoundOrders,
    SetOrder,
    Team,
    format_round_forms,
    lineup_warnings,
    points_used,
    preview_match,
    refill_sets,
    round_fixtures,
    starting_lineup,
    submit_orders,
    team_fixtures,
)
from ui import Markup, UserError, fit, shown
from ui.formats import plural
from ui.items import Control, written

if TYPE_CHECKING:
    from db.volleyball import StoredLeague
    from host.locks import GameLock

MENU = 25  # options in one Discord select menu
SETS = 5
SIX = 6
PREFIX = r"vbe:(?P<league>\d+):(?P<user>\d+):(?P<season>\d+):(?P<round>\d+):(?P<match>\d+):(?P<set>[1-5])"
POINTS_FORM_ID = re.compile(PREFIX + r":pointsform")

# Rule 3's position changes, as the menus describe them (match.position_levels applies them).
POSITION_EFFECTS = {
    Position.SETTER: "OL +20 %, DL -2",
    Position.ATTACKER: "OL +10 %, DL -1",
    Position.DEFENDER: "DL +10 %, OL -1",
    Position.BLOCKER: "DL +20 %, OL -2",
}
CHANGING_POSITIONS = tuple(POSITION_EFFECTS)
# The menus' descriptions give each position's effect and each concept's needs, so the
# editor's own summary is the one rule they cannot show, and where the other orders go.
HOW_TO = "-5 level points a set played, +3 a set rested. Other orders: `/volleyball orders send`."


# --- where the editor is: carried by every custom_id -------------------------------------------


@dataclass(frozen=True)
class Where:
    """The editor on screen: whose, which round, which match and set."""

    league_id: int
    user_id: int
    season: int
    round_number: int
    match_number: int
    set_number: int

    def parts(self) -> dict[str, int]:
        """Where the editor is, as the groups of PREFIX name it (every custom_id carries it)."""
        return {
            "league": self.league_id,
            "user": self.user_id,
            "season": self.season,
            "round": self.round_number,
            "match": self.match_number,
            "set": self.set_number,
        }

    def moved(self, *, match_number: int | None = None, set_number: int | None = None) -> Where:
        return Where(
            self.league_id,
            self.user_id,
            self.season,
            self.round_number,
            self.match_number if match_number is None else match_number,
            self.set_number if set_number is None else set_number,
        )

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Where:
        return cls(
            int(found["league"]),
            int(found["user"]),
            int(found["season"]),
            int(found["round"]),
            int(found["match"]),
            int(found["set"]),
        )


# --- the draft: line-ups being edited, not orders -----------------------------------------------


def lineups_on_file(numbers: list[int], on_file: RoundOrders | None) -> list[dict | None]:
    """The line-ups on file for these match numbers (None: none on file), as JSON data."""
    given = {m.match_number: m.to_dict() for m in (on_file.matches if on_file else [])}
    return [given.get(number) for number in numbers]


@dataclass
class Draft:
    """The line-ups a manager is editing for one round: one MatchOrders per match the team
    plays, in playing order (cup first). `base` is what was on file for those matches when
    the draft was started: if the orders on file change another way (the orders form, an
    upload), the draft is outdated and the editor starts again from them."""

    team: str
    season: int
    round_number: int
    matches: list[MatchOrders] = field(default_factory=list)
    base: list[dict | None] = field(default_factory=list)

    @property
    def numbers(self) -> list[int]:
        return [m.match_number for m in self.matches]

    def match(self, number: int) -> MatchOrders:
        for match in self.matches:
            if match.match_number == number:
                return match
        raise UserError(f"Your team plays no match {number} this round.")

    def to_json(self) -> str:
        return json.dumps({"matches": [m.to_dict() for m in self.matches], "base": self.base})

    @classmethod
    def from_stored(cls, stored: drafts.StoredDraft) -> Draft:
        data = json.loads(stored.draft)
        matches = [MatchOrders.from_dict(m) for m in data.get("matches", [])]
        return cls(stored.team, stored.season, stored.round_number, matches, data.get("base", []))


def start_draft(state: LeagueState, team: Team, on_file: RoundOrders | None) -> Draft:
    """A new draft: each match's line-up on file, or else the starting line-up the orders
    form offers too (rules.volleyball.starting_lineup: five full sets when the squad can
    field them, the home advantage spread, Allround, Neutral)."""
    season, number = round_key(state)
    given = {m.match_number: m for m in (on_file.matches if on_file else [])}
    matches = []
    for fixture in team_fixtures(round_fixtures(state, number), team.name):
        home = fixture.home == team.name
        opponent = fixture.away if home else fixture.home
        match = given.get(fixture.match_number)
        if match is None:
            match = starting_lineup(
                team,
                opponent=opponent,
                home=home,
                match_number=fixture.match_number,
                home_advantage=state.league.config.home_advantage_points(number),
            )
        matches.append(MatchOrders.from_dict(match.to_dict()))
    numbers = [m.match_number for m in matches]
    return Draft(team.name, season, number, matches, lineups_on_file(numbers, on_file))


def draft_fits(draft: Draft, state: LeagueState, team: Team) -> bool:
    """A stored draft is for this team, this round and these matches (whether it is still
    newer than the orders on file is `outdated`)."""
    numbers = [
        f.match_number for f in team_fixtures(round_fixtures(state, draft.round_number), team.name)
    ]
    return (
        draft.team == team.name
        and (draft.season, draft.round_number) == round_key(state)
        and [m.match_number for m in draft.matches] == numbers
    )


def outdated(draft: Draft, on_file: RoundOrders | None) -> bool:
    """The orders on file changed another way since the draft was started (and the draft is
    not what is on file: a draft that was saved is on file)."""
    now = lineups_on_file(draft.numbers, on_file)
    return now != draft.base and now != [m.to_dict() for m in draft.matches]


def set_of(draft: Draft, where: Where) -> SetOrder:
    match = draft.match(where.match_number)
    while len(match.sets) < SETS:
        match.sets.append(SetOrder())
    return match.sets[where.set_number - 1]


def choose_players(set_order: SetOrder, team: Team, names: list[str]) -> str:
    """The set's players are `names` (roster spelling): those who stay keep their position
    and tiredness split, new ones play Allround. Returns what changed, in words."""
    chosen = []
    for name in names:
        player = team.player(name)
        if player is None:
            raise UserError(f"{name} is not in {team.name} any more; open the editor again.")
        chosen.append(player.name)
    if len(chosen) > SIX:
        raise UserError("Pick six players.")
    kept = {slot.player: slot for slot in set_order.slots if slot.player in chosen}
    set_order.slots = [kept.get(name) or PlayerSlot(name) for name in chosen]
    return f"{plural(len(chosen)):player} in the set."


def menu_choice(kind, code: str):
    """A menu value's code as the engine's enum (a value no menu offers is refused)."""
    try:
        return kind(int(code))
    except ValueError:
        raise UserError("Choose from the menu.") from None


def choose_positions(set_order: SetOrder, values: list[str]) -> str:
    """Menu values `CODE:NAME` for the players who do not play Allround. A player picked for
    two positions changes nothing (UserError naming both)."""
    wanted: dict[str, Position] = {}
    for value in values:
        code, _, name = value.partition(":")
        position = menu_choice(Position, code)
        if name in wanted and wanted[name] != position:
            raise UserError(
                f"{name} was picked as {wanted[name].label} and as {position.label}; a player "
                "plays one position. Nothing changed."
            )
        wanted[name] = position
    gone = sorted(set(wanted) - {slot.player for slot in set_order.slots})
    if gone:
        raise UserError(
            f"{', '.join(gone)} is no longer in the set (an older menu?); nothing changed."
        )
    for slot in set_order.slots:
        slot.position = wanted.get(slot.player, Position.ALLROUND)
    shown = [f"{s.player} {s.position.label}" for s in set_order.slots]
    return "Positions: " + (", ".join(shown) if shown else "no players") + "."


def choose_concept(set_order: SetOrder, value: str) -> str:
    concept_code, _, risk_text = value.partition(":")
    concept = menu_choice(Concept, concept_code)
    if not risk_text.isdigit():
        raise UserError("Choose a concept and risk from the menu.")
    risk = int(risk_text)
    set_order.concept, set_order.risk = concept, risk
    return f"{concept.abbreviation} ({concept.label}), risk {risk}."


def read_points(text: str, what: str) -> LevelPoints:
    """`OL DL` as typed in the points form ("4 2", "OL 4 DL 2", blank for none)."""
    if "-" in text:
        raise UserError(f"{what}: points cannot be negative.")
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if not numbers:
        return LevelPoints()
    if len(numbers) != 2:
        raise UserError(
            f"{what}: write two numbers, OL then DL (like 4 2), not {echoed(text.strip())}."
        )
    return LevelPoints(numbers[0], numbers[1])


# --- what the editor shows ------------------------------------------------------------------------


def match_name(state: LeagueState, team: Team, number: int) -> str:
    """ "Match 1" or "Cup match 3": how the editor names a match everywhere (its heading and
    the buttons that go to it), so a button names the match it opens."""
    fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
    fixture = next((f for f in fixtures if f.match_number == number), None)
    kind = "Cup match" if fixture is not None and fixture.competition == "cup" else "Match"
    return f"{kind} {number}"


def fixture_label(state: LeagueState, team: Team, match: MatchOrders) -> str:
    where = "home v" if match.home else "away at"
    return f"{match_name(state, team, match.match_number)}, {where} {match.opponent or '?'}"


def match_order(draft: Draft) -> list[int]:
    """The order the editor goes through the matches: by match number, the order the
    schedule, the forms and the buttons count them in (the editor opens on the first)."""
    return sorted(draft.numbers)


def check_draft(
    state: LeagueState, team: Team, draft: Draft, on_file: RoundOrders | None
) -> OrderCheck:
    """What Save orders would be told now (the engine's check of the orders as they would be
    on file: the draft's line-ups with the other orders on file)."""
    return submit_orders(
        state,
        team.name,
        orders=RoundOrders(team=team.name, matches=draft.matches),
        kinds={"matches"},
        on_file=on_file,
    )


def same_as_on_file(draft: Draft, on_file: RoundOrders | None) -> bool:
    return lineups_on_file(draft.numbers, on_file) == [m.to_dict() for m in draft.matches]


# One phone screen per step (a 390-px phone shows 844 px; bench/volleyball_newcomer.py
# measures the editor there): the text says the set on screen in a few lines, and lists at
# most this many of the draft's problems and warnings (Save orders lists them all).
SHOWN_PROBLEMS = 3


def problem_lines(check: OrderCheck, where: Where, room: int) -> list[str]:
    """The check's problems, this set's first, at most SHOWN_PROBLEMS of them fitted into
    `room` characters."""
    start = f"Match {where.match_number}: Set {where.set_number}"
    here = (start + " ", start + ":")
    ordered = sorted(check.problems, key=lambda p: not p.startswith(here))
    lines: list[str] = []
    for index, problem in enumerate(ordered):
        line = "- " + shown(cut(problem, 220))
        left = len(ordered) - index
        full = sum(len(x) + 1 for x in lines) + len(line) + 40 > room
        if full or index == SHOWN_PROBLEMS:
            lines.append(f"- … and {left} more (Save orders lists them all)")
            break
        lines.append(line)
    return lines


def editor_text(
    state: LeagueState,
    team: Team,
    draft: Draft,
    where: Where,
    on_file: RoundOrders | None,
    note: str = "",
    *,
    how: bool = False,
) -> str:
    """The editor's message, short enough that it and its menus fit one phone screen: the
    match and set on screen, the set's players, concept and points with its preview (totals
    and scoring chance against the neutral opponent), every set's chance, and what Save
    orders would be told (the problems first, then the warnings: a set without players,
    home advantage unused). `how` adds the rule the menus cannot show (when the editor
    opens, not on every redraw). Names are shown as text (ui.text.shown)."""
    match = draft.match(where.match_number)
    set_order = set_of(draft, where)
    check = check_draft(state, team, draft, on_file)
    previews = preview_match(team, match)
    numbers = match_order(draft)
    allowance = state.league.config.home_advantage_points(where.round_number)
    advantage = f", HA {allowance}" if match.home else ""
    lines = [
        f"**Round {where.round_number}, {shown(fixture_label(state, team, match))}**{advantage} "
        f"({numbers.index(match.match_number) + 1} of {len(numbers)})"
    ]
    if note:
        lines.append(f"> {shown(note)}")
    players = ", ".join(
        shown(s.player)
        if s.position is Position.ALLROUND
        else f"{shown(s.player)} ({s.position.label})"
        for s in set_order.slots
    )
    lines.append(
        f"**Set {where.set_number}**: {players or 'nobody (the set is lost 0-15 if played)'}"
    )
    points = ", ".join(points_used(set_order))
    concept = f"{set_order.concept.abbreviation} risk {set_order.effective_risk}" + (
        f", {points}" if points else ""
    )
    if where.set_number <= len(previews):
        preview = previews[where.set_number - 1]
        lines.append(
            f"{concept}: OL {preview.ol_total} DL {preview.dl_total}, **{preview.chance} %** "
            "against a neutral side"
        )
    else:
        lines.append(concept)
    lines.append(
        "Sets: "
        + " · ".join(
            (
                f"**{p.set_number}: {p.chance} %**"
                if p.set_number == where.set_number
                else f"{p.set_number}: {p.chance} %"
            )
            for p in previews
        )
    )
    warnings = lineup_warnings(match, allowance if match.home else 0)
    tail = [HOW_TO] if how else []
    on_file_now = same_as_on_file(draft, on_file)
    if check.problems:
        lines.append(f"**Problems** ({len(check.problems)}; Save orders refuses orders with any):")
        used = sum(len(x) + 1 for x in lines + tail + warnings) + 40
        lines += problem_lines(check, where, 1990 - used)
    elif on_file_now:
        lines.append("On file as shown." + (" It gives away:" if warnings else ""))
    elif warnings:
        lines.append("No problems, but Save orders would give away:")
    else:
        lines.append("No problems: **Save orders** puts this draft on file.")
    lines += [f"- {shown(w)}" for w in warnings[:SHOWN_PROBLEMS]]
    lines += tail
    return fit("\n".join(lines))


def roster_options(team: Team, set_order: SetOrder) -> list[discord.SelectOption]:
    """The players menu: the roster (at most 25: the set's players and then the highest
    level totals), the set's players picked."""
    chosen = {slot.player for slot in set_order.slots}
    players = list(team.players)
    if len(players) > MENU:
        players.sort(key=lambda p: (p.name not in chosen, -(p.ol + p.dl), p.name))
        players = sorted(players[:MENU], key=lambda p: team.players.index(p))
    options = []
    for player in players:
        notes = []
        if player.is_talent:
            notes.append("new talent")
        if player.is_contract:
            notes.append("contract player")
        if player.lack_of_devotion:
            notes.append("lack of devotion: half levels this round")
        options.append(
            discord.SelectOption(
                label=f"{player.name} ({player.age}) OL {player.ol} DL {player.dl}"[:100],
                value=player.name,
                description="; ".join(notes)[:100] or None,
                default=player.name in chosen,
            )
        )
    return options


def position_options(set_order: SetOrder) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(
            label=f"{slot.player}: {position.label}"[:100],
            value=f"{int(position)}:{slot.player}",
            description=POSITION_EFFECTS[position],
            default=slot.position == position,
        )
        for slot in set_order.slots
        for position in CHANGING_POSITIONS
    ]


def concept_options(set_order: SetOrder) -> list[discord.SelectOption]:
    options = []
    for concept, (low, high) in RISK_RANGES.items():
        requirement = CONCEPT_REQUIREMENTS.get(concept)
        need = f"needs {requirement[1]} {requirement[2]}" if requirement else "no formation needs"
        for risk in range(low, high + 1):
            options.append(
                discord.SelectOption(
                    label=f"{concept.abbreviation} ({concept.label}), risk {risk}",
                    value=f"{int(concept)}:{risk}",
                    description=need,
                    default=(concept, risk) == (set_order.concept, set_order.effective_risk),
                )
            )
    return options


def editor_view(state: LeagueState, team: Team, draft: Draft, where: Where) -> discord.ui.View:
    set_order = set_of(draft, where)
    view = discord.ui.View(timeout=None)
    view.add_item(EditorSelect(where, "players", roster_options(team, set_order)))
    view.add_item(EditorSelect(where, "positions", position_options(set_order)))
    view.add_item(EditorSelect(where, "concept", concept_options(set_order)))
    for number in range(1, SETS + 1):
        view.add_item(
            EditorButton(where, "goto", number, current=number == where.set_number, row=3)
        )
    view.add_item(EditorButton(where, "points", row=4))
    numbers = match_order(draft)
    index = numbers.index(where.match_number)
    if index > 0:
        before = numbers[index - 1]
        label = f"◂ {match_name(state, team, before)}"
        view.add_item(EditorButton(where, "match", before, row=4, label=label))
    if index + 1 < len(numbers):
        after = numbers[index + 1]
        label = f"{match_name(state, team, after)} ▸"
        view.add_item(EditorButton(where, "match", after, row=4, label=label))
    view.add_item(EditorButton(where, "reset", row=4))
    view.add_item(EditorButton(where, "save", row=4))
    return view


# --- loading, changing and saving under the league's lock ---------------------------------------
# A click reads the manager's draft, changes it and saves it: two quick clicks would lose one's
# change, so each runs under the league's lock (the league host's, the one orders are stored
# under). Nothing slow is done under it: a click waits at most for a change of the league.

REPLACED_NOTE = (
    "Your orders on file changed another way since your last draft (the orders form or an "
    "upload), so the editor starts from them."
)


@dataclass
class Opened:
    """Everything a click works with."""

    orders: Orders
    stored: StoredLeague
    state: LeagueState
    team: Team
    on_file: RoundOrders | None
    draft: Draft
    from_store: bool  # the draft is the stored one (not started from the orders on file)
    replaced: bool = False  # a stored draft was outdated by orders sent another way


def require_owner(interaction: discord.Interaction, where: Where) -> None:
    if interaction.user.id != where.user_id:
        raise UserError(
            f"This orders editor is <@{where.user_id}>'s: only their team's manager may use it. "
            "`/volleyball orders edit` opens yours."
        )


def draft_lock(orders: Orders, where: Where) -> GameLock:
    return orders.leagues.host.lock(where.league_id)


async def open_draft(
    orders: Orders,
    league_id: int,
    user_id: int,
    round_wanted: tuple[int, int] | None = None,
) -> Opened:
    """The league, the manager's team, the orders on file and the draft (the stored one when
    it fits this round, else a new one from the orders on file). With `round_wanted` (a click
    on an editor drawn for that round) a round played meanwhile is refused."""
    stored, state, team = await orders.managed(league_id, user_id)
    if state.season_over:
        raise UserError(
            "The season is over: no matches until the next one. Send your ageing splits as "
            "AGEING lines with `/volleyball orders upload`."
        )
    if round_wanted is not None and round_key(state) != round_wanted:
        raise UserError(
            f"Round {round_wanted[1]} was played after this editor was opened, so nothing "
            f"changed. `/volleyball orders edit` opens the editor for {round_name(state)}."
        )
    on_file = await orders.orders_on_file(stored, state, team.name)
    found = await drafts.load_draft(orders.db, league_id, user_id)
    draft = Draft.from_stored(found) if found is not None else None
    fits = draft is not None and draft_fits(draft, state, team)
    replaced = fits and draft is not None and outdated(draft, on_file)
    if draft is None or not fits or replaced:
        draft = start_draft(state, team, on_file)
    elif same_as_on_file(draft, on_file):
        draft.base = lineups_on_file(draft.numbers, on_file)  # saved: on file is its base now
    if not draft.matches:
        raise UserError(f"{team.name} plays no match in {round_name(state)}.")
    return Opened(orders, stored, state, team, on_file, draft, fits and not replaced, replaced)


async def keep_draft(opened: Opened, user_id: int) -> None:
    season, number = round_key(opened.state)
    await drafts.save_draft(
        opened.orders.db,
        opened.stored.id,
        user_id,
        team=opened.team.name,
        season=season,
        round_number=number,
        draft=opened.draft.to_json(),
    )


def render(opened: Opened, where: Where, note: str = "", *, how: bool = False) -> dict:
    return {
        "content": editor_text(
            opened.state, opened.team, opened.draft, where, opened.on_file, note, how=how
        ),
        "view": editor_view(opened.state, opened.team, opened.draft, where),
    }


async def open_editor(
    interaction: discord.Interaction, league_id: int, match_number: int | None = None
) -> None:
    """`/volleyball orders edit`: the editor at a match (default the first in match_order)
    and set 1."""
    orders = orders_of(interaction)
    user_id = interaction.user.id
    async with orders.leagues.host.lock(league_id):
        opened = await open_draft(orders, league_id, user_id)
        numbers = [m.match_number for m in opened.draft.matches]
        if match_number is not None and match_number not in numbers:
            raise UserError(
                f"{opened.team.name} plays matches {', '.join(map(str, numbers))} this round, "
                f"not {match_number}."
            )
    season, number = round_key(opened.state)
    first = match_order(opened.draft)[0]
    where = Where(league_id, user_id, season, number, match_number or first, 1)
    note = REPLACED_NOTE if opened.replaced else ""
    if opened.from_store and not same_as_on_file(opened.draft, opened.on_file):
        note = "Your unsaved draft, as you left it (Start over goes back to the orders on file)."
    await interaction.response.send_message(**render(opened, where, note, how=True), ephemeral=True)


async def change(
    interaction: discord.Interaction, where: Where, what: str, values: list[str], arg: int | None
) -> None:
    """A menu pick or a button: the draft changed (or the view moved) and the editor redrawn."""
    require_owner(interaction, where)
    orders = orders_of(interaction)
    if what == "save":
        await save(interaction, orders, where)
        return
    async with draft_lock(orders, where):
        opened = await open_draft(
            orders, where.league_id, where.user_id, (where.season, where.round_number)
        )
        set_order = set_of(opened.draft, where)
        note = REPLACED_NOTE if opened.replaced else ""
        teaching = lesson_card.is_lesson(opened.stored) and what not in ("goto", "match")
        if teaching and what in ("reset", "points"):
            lesson_card.checked(opened.stored, what)  # never a lesson's step: its hint
        if what == "players":
            note = choose_players(set_order, opened.team, values)
            # Later sets whose players are now too tired get the fittest who can play.
            match = opened.draft.match(where.match_number)
            moved = refill_sets(opened.team, match, where.set_number)
            if moved:
                note += " Later sets changed: " + "; ".join(moved) + "."
        elif what == "positions":
            note = choose_positions(set_order, values)
        elif what == "concept":
            note = choose_concept(set_order, values[0])
        elif what == "goto" and arg is not None:
            where = where.moved(set_number=arg)
        elif what == "match" and arg is not None:
            opened.draft.match(arg)
            where = where.moved(match_number=arg, set_number=1)
        elif what == "reset":
            await drafts.delete_draft(orders.db, where.league_id, where.user_id)
            opened.draft = start_draft(opened.state, opened.team, opened.on_file)
            note = "Started over from " + (
                "your orders on file."
                if opened.on_file and opened.on_file.matches
                else "the starting line-up."
            )
        elif what == "points":
            await interaction.response.send_modal(points_form(opened, where))
            return
        if teaching:
            # The lesson's set is the first match's first set; its step checks the click
            # before anything is kept (a wrong one: its hint, the draft as it was).
            first = (match_order(opened.draft)[0], 1)
            here = (where.match_number, where.set_number)
            lesson_card.checked(opened.stored, what, set_order if here == first else None)
            if here != first:
                lesson_card.checked(opened.stored, "another set")
        if what in ("players", "positions", "concept"):
            await keep_draft(opened, where.user_id)
        if teaching:
            # the lesson's words are the bot's own (its data), shown as markdown
            note = Markup(f"{shown(note)} {await lesson.advance(orders.leagues, opened.stored)}")
    await interaction.response.edit_message(**render(opened, where, note))


async def save(interaction: discord.Interaction, orders: Orders, where: Where) -> None:
    """Save orders: the draft's line-ups through the league service's submit (every problem
    and warning answered; nothing stored when refused). Accepted, the draft is what is on
    file, so the editor shows it as such."""
    async with draft_lock(orders, where):
        opened = await open_draft(
            orders, where.league_id, where.user_id, (where.season, where.round_number)
        )
    if lesson_card.is_lesson(opened.stored):
        lesson_card.checked(opened.stored, "save")
    lineups = RoundOrders(team=opened.team.name, matches=opened.draft.matches)
    fixtures = team_fixtures(round_fixtures(opened.state, where.round_number), opened.team.name)
    check = await orders.submit(
        interaction,
        where.league_id,
        format_round_forms(opened.team, fixtures, lineups),
        whole=False,
        for_round=(where.season, where.round_number),
        lineups=lineups,
    )
    if lesson_card.is_lesson(opened.stored) and check is not None and check.accepted:
        said = await lesson.advance(orders.leagues, opened.stored)
        await interaction.followup.send(said, ephemeral=True)


def points_form(opened: Opened, where: Where) -> discord.ui.Modal:
    """HA (home matches only), DP and SP of the set, each `OL DL`."""
    set_order = set_of(opened.draft, where)
    match = opened.draft.match(where.match_number)
    modal = discord.ui.Modal(
        title=f"Points: match {where.match_number}, set {where.set_number}",
        custom_id=written(POINTS_FORM_ID, where.parts()),
        timeout=None,
    )
    boxes = []
    if match.home:
        allowance = opened.state.league.config.home_advantage_points(where.round_number)
        boxes.append(
            ("ha", f"Home advantage OL DL ({allowance} this match)", set_order.home_advantage)
        )
    boxes.append(("dp", "Devotion OL DL (at most 30 a match)", set_order.devotion))
    boxes.append(("sp", f"Special OL DL ({opened.team.special_points} left)", set_order.special))
    for custom_id, label, points in boxes:
        modal.add_item(
            discord.ui.TextInput(
                label=label[:45],
                custom_id=custom_id,
                default=f"{points.ol} {points.dl}",
                placeholder="OL DL, like 4 2",
                required=False,
                max_length=20,
            )
        )
    return modal


async def submit_points(
    interaction: discord.Interaction, found: re.Match[str], values: dict[str, str]
) -> None:
    """The points form sent: the set's HA, DP and SP replaced, the editor redrawn."""
    where = Where.from_match(found)
    require_owner(interaction, where)
    orders = orders_of(interaction)
    async with draft_lock(orders, where):
        opened = await open_draft(
            orders, where.league_id, where.user_id, (where.season, where.round_number)
        )
        set_order = set_of(opened.draft, where)
        if "ha" in values:
            set_order.home_advantage = read_points(values["ha"], "Home advantage")
        set_order.devotion = read_points(values.get("dp", ""), "Devotion")
        set_order.special = read_points(values.get("sp", ""), "Special points")
        await keep_draft(opened, where.user_id)
    note = f"Points of set {where.set_number}: {', '.join(points_used(set_order, every=True))}."
    await interaction.response.edit_message(**render(opened, where, note))


# --- the components (DynamicItems: they work after a restart) ----------------------------------

PLACEHOLDERS = {
    "players": "Players of set {set} (pick six)",
    "positions": "Positions (the others play Allround)",
    "concept": "Concept and risk",
}


class EditorSelect(
    Control[discord.ui.Select],
    template=PREFIX + r":(?P<what>players|positions|concept)",
):
    def __init__(
        self, where: Where, what: str, options: list[discord.SelectOption] | None = None
    ) -> None:
        options = options if options is not None else [discord.SelectOption(label="?", value="?")]
        usable = bool(options)
        if not usable:
            options = [discord.SelectOption(label="Pick the set's players first", value="-")]
        many = what in ("players", "positions")
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(**where.parts(), what=what),
                placeholder=PLACEHOLDERS[what].format(set=where.set_number),
                options=options[:MENU],
                min_values=0 if many else 1,
                max_values=min(SIX, len(options)) if many else 1,
                disabled=not usable,
                row={"players": 0, "positions": 1, "concept": 2}[what],
            )
        )
        self.where, self.what = where, what

    @classmethod
    async def from_custom_id(cls, interaction, item, found: re.Match[str], /) -> EditorSelect:
        return cls(Where.from_match(found), found["what"])

    async def act(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        if self.what == "concept" and not values:
            raise UserError("Choose a concept and risk from the menu.")
        await change(interaction, self.where, self.what, values, None)


class EditorButton(
    Control[discord.ui.Button],
    template=PREFIX + r":(?P<what>goto|match|points|reset|save)(?::(?P<arg>\d+))?",
):
    def __init__(
        self,
        where: Where,
        what: str,
        arg: int | None = None,
        *,
        current: bool = False,
        row: int | None = None,
        label: str | None = None,
    ) -> None:
        labels = {
            "goto": f"{arg}",  # the text names the set on screen; a row of five fits a phone
            "match": label or f"Match {arg}",
            "points": "Points",
            "reset": "Start over",
            "save": "Save orders",
        }
        styles = {"save": discord.ButtonStyle.success, "goto": discord.ButtonStyle.secondary}
        super().__init__(
            discord.ui.Button(
                label=label or labels[what],
                style=discord.ButtonStyle.primary
                if current
                else styles.get(what, discord.ButtonStyle.secondary),
                custom_id=self.id_for(**where.parts(), what=what, arg=arg),
                disabled=current,
                row=row,
            )
        )
        self.where, self.what, self.arg = where, what, arg

    @classmethod
    async def from_custom_id(cls, interaction, item, found: re.Match[str], /) -> EditorButton:
        arg = found["arg"]
        return cls(Where.from_match(found), found["what"], None if arg is None else int(arg))

    async def act(self, interaction: discord.Interaction) -> None:
        await change(interaction, self.where, self.what, [], self.arg)


EDITOR_ITEMS = (EditorSelect, EditorButton)
