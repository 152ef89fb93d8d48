"""Line-ups a manager starts from, and what a line-up throws away.

- `starting_lineup(team, ...)`: the line-up the orders form and the editor open with, legal as
  it is: every set filled whenever the squad can field six players in each of the five sets
  (players rotated so nobody is too tired for a later set), Allround, Neutral at the lowest
  risk, and at home the match's home-advantage points spread over the filled sets. Ruling:
  docs/rules/volleyball.md, "Starting line-up".
- `spread_points(total, sets)`: points spread as evenly as possible, OL first.
- `lineup_warnings(team, orders, allowance)`: what a legal line-up gives away (a set without
  players is lost 0-15 if played; home-advantage points left unused are lost), said before
  the orders are stored.
- `repeat_lineups(state, team, last)`: last round's line-ups for this round's matches, match
  by match in playing order, adjusted to the team as it is (players gone or too tired are
  replaced, points kept within this round's limits).

Rule 12's NMR line-up (match.default_match_orders, ruling 16) is not this: it is what a team
that gave no orders plays, as the page describes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from rules.volleyball.match import (
    DEVOTION_MAX_PER_MATCH,
    SPECIAL_MAX_PER_MATCH,
    Fatigue,
    can_play,
    default_match_orders,
    eligible_players,
)
from rules.volleyball.models import Fixture, Team
from rules.volleyball.orders import (
    PLAYERS_PER_SET,
    SETS_PER_MATCH_ORDER,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    RoundOrders,
    SetOrder,
)

# The search for five full sets looks at the fittest players of each set only and gives up
# after this many steps (a squad that cannot field five sets is found out quickly).
CANDIDATES_PER_SET = 10
SEARCH_STEPS = 1000


def _fittest(team: Team, fatigue: Fatigue) -> list[str]:
    able = eligible_players(team, fatigue)
    able.sort(key=lambda p: (-sum(fatigue.levels(p.name)), p.name))
    return [p.name for p in able]


def _copy_fatigue(fatigue: Fatigue) -> Fatigue:
    copy = Fatigue.__new__(Fatigue)
    copy.team = fatigue.team
    copy.original = fatigue.original
    copy.current = dict(fatigue.current)
    return copy


def full_sets(team: Team) -> list[list[str]] | None:
    """Six players for each of the five sets, each able to play after the sets before, the
    fittest first; None when no such plan is found (the squad is too small or too tired)."""
    failed: set[tuple[int, tuple]] = set()
    steps = 0

    def search(number: int, fatigue: Fatigue) -> list[list[str]] | None:
        nonlocal steps
        if number == SETS_PER_MATCH_ORDER:
            return []
        # Players with the same own and current levels are interchangeable for whether the
        # rest of the match can be fielded, so a failure is remembered without their names.
        key = (
            number,
            tuple(sorted((fatigue.original[n], levels) for n, levels in fatigue.current.items())),
        )
        if key in failed:
            return None
        able = _fittest(team, fatigue)[:CANDIDATES_PER_SET]
        options = sorted(
            combinations(able, PLAYERS_PER_SET),
            key=lambda six: -sum(sum(fatigue.levels(n)) for n in six),
        )
        for six in options:
            steps += 1
            if steps > SEARCH_STEPS:
                return None
            after = _copy_fatigue(fatigue)
            after.after_set([PlayerSlot(n) for n in six])
            rest = search(number + 1, after)
            if rest is not None:
                return [list(six), *rest]
        failed.add(key)
        return None

    return search(0, Fatigue(team))


def spread_points(total: int, sets: int) -> list[LevelPoints]:
    """`total` points over `sets` sets as evenly as possible (the earlier sets, which are
    always played, take the odd ones), each set's share half on OL and half on DL (OL takes
    the odd one)."""
    if sets <= 0:
        return []
    base, extra = divmod(max(0, total), sets)
    shares = [base + (1 if i < extra else 0) for i in range(sets)]
    return [LevelPoints(share - share // 2, share // 2) for share in shares]


def with_home_advantage(orders: MatchOrders, allowance: int) -> MatchOrders:
    """The line-up with its home-advantage points replaced by `allowance` spread over its
    sets with players (a set without players cannot use points); away, none."""
    filled = [s for s in orders.sets if s.slots]
    points = spread_points(allowance if orders.home else 0, len(filled))
    for set_order in orders.sets:
        set_order.home_advantage = LevelPoints()
    for set_order, share in zip(filled, points, strict=True):
        set_order.home_advantage = share
    return orders


def starting_lineup(
    team: Team,
    *,
    opponent: str = "",
    home: bool = True,
    match_number: int = 1,
    home_advantage: int = 0,
) -> MatchOrders:
    """The line-up the orders form and the editor open with (module docstring)."""
    plan = full_sets(team)
    if plan is None:
        orders = default_match_orders(
            team, opponent=opponent, home=home, match_number=match_number
        )
    else:
        orders = MatchOrders(
            sets=[SetOrder(slots=[PlayerSlot(n) for n in six]) for six in plan],
            match_number=match_number,
            opponent=opponent,
            home=home,
        )
    return with_home_advantage(orders, home_advantage)


def lineup_warnings(orders: MatchOrders, allowance: int, label: str = "") -> list[str]:
    """What a legal line-up gives away, each a sentence: a set without players (lost 0-15
    if it is played, ruling 8) and, at home, home-advantage points not used (lost: rule 4
    gives them to this match only)."""
    where = label or f"Match {orders.match_number}"
    warnings = []
    empty = [number for number, s in enumerate(orders.sets, start=1) if not s.slots]
    if empty:
        sets = ", ".join(str(n) for n in empty)
        many = len(empty) > 1
        warnings.append(
            f"{where}: set{'s' if many else ''} {sets} {'have' if many else 'has'} no players "
            f"and {'are' if many else 'is'} lost 0-15 if played."
        )
    used = orders.home_advantage_total
    if orders.home and used < allowance:
        warnings.append(
            f"{where}: {used} of the {allowance} home-advantage points are used; the other "
            f"{allowance - used} are lost."
        )
    return warnings


@dataclass
class Repeated:
    """Last round's line-ups made this round's: the orders and what had to change."""

    orders: RoundOrders
    changes: list[str] = field(default_factory=list)


def _refill(team: Team, set_order: SetOrder, fatigue: Fatigue, number: int) -> list[str]:
    """Players of the set who are gone or cannot play now are replaced by the fittest who
    can (keeping the position); returns what changed."""
    changes = []
    kept: list[PlayerSlot] = []
    for slot in set_order.slots:
        player = team.player(slot.player)
        if player is None:
            changes.append(f"set {number}: {slot.player} is no longer in the team")
            continue
        if not can_play(player, *fatigue.levels(player.name)):
            changes.append(f"set {number}: {player.name} is too tired")
            continue
        kept.append(PlayerSlot(player.name, slot.position, slot.tired_from_ol))
    missing = PLAYERS_PER_SET - len(kept)
    if missing > 0:
        lost = [s for s in set_order.slots if s.player not in {k.player for k in kept}]
        chosen = {k.player for k in kept}
        spare = [n for n in _fittest(team, fatigue) if n not in chosen][:missing]
        for name, old in zip(spare, lost, strict=False):
            kept.append(PlayerSlot(name, old.position))
            changes.append(f"set {number}: {name} comes in for {old.player}")
        for name in spare[len(lost) :]:
            kept.append(PlayerSlot(name))
    set_order.slots = kept[:PLAYERS_PER_SET] if len(kept) >= PLAYERS_PER_SET else []
    return changes


def repeat_lineups(
    team: Team,
    last: RoundOrders,
    fixtures: list[Fixture],
    home_advantage: int,
) -> Repeated:
    """Last round's line-ups for `fixtures` (the team's matches this round, in playing
    order): the i-th match's line-up from the i-th of last round (the last one again when
    this round has more), its opponent, home or away and match number this round's; players
    gone or too tired replaced by the fittest who can play; home-advantage points spread
    anew at home (none away); devotion and special points kept within the match limits and
    the special points left. Training, bids, spying and the sponsor are not repeated."""
    previous = [MatchOrders.from_dict(m.to_dict()) for m in last.matches]
    repeated = Repeated(RoundOrders(team=team.name))
    if not previous:
        return repeated
    special_left = team.special_points
    for index, fixture in enumerate(fixtures):
        home = fixture.home == team.name
        source = previous[min(index, len(previous) - 1)]
        orders = MatchOrders(
            sets=[SetOrder.from_dict(s.to_dict()) for s in source.sets],
            match_number=fixture.match_number,
            opponent=fixture.away if home else fixture.home,
            home=home,
        )
        while len(orders.sets) < SETS_PER_MATCH_ORDER:
            orders.sets.append(SetOrder())
        orders.sets = orders.sets[:SETS_PER_MATCH_ORDER]
        fatigue = Fatigue(team)
        changes: list[str] = []
        for number, set_order in enumerate(orders.sets, start=1):
            changes += _refill(team, set_order, fatigue, number)
            if not set_order.slots:
                set_order.devotion = LevelPoints()
                set_order.special = LevelPoints()
            fatigue.after_set(set_order.slots)
        if orders.devotion_total > DEVOTION_MAX_PER_MATCH:
            _drop_points(orders, "devotion")
            changes.append("devotion points dropped (more than 30)")
        limit = min(SPECIAL_MAX_PER_MATCH, special_left)
        if orders.special_total > limit:
            _drop_points(orders, "special")
            changes.append(f"special points dropped ({special_left} left)")
        special_left -= orders.special_total
        with_home_advantage(orders, home_advantage if home else 0)
        repeated.orders.matches.append(orders)
        if changes:
            repeated.changes.append(f"Match {fixture.match_number}: " + "; ".join(changes) + ".")
    return repeated


def _drop_points(orders: MatchOrders, kind: str) -> None:
    for set_order in orders.sets:
        setattr(set_order, kind, LevelPoints())
