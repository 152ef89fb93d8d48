"""Line-ups a manager starts from, and what a line-up throws away.

- `starting_lineup(team, ...)`: the line-up the orders form and the editor open with, legal as
  it is: every set filled whenever the squad can field six players in each of the five sets
  (players rotated so nobody is too tired for a later set; a squad that cannot fills as many
  sets from set 1 on as it can), Allround, Neutral at the lowest risk, and at home the
  match's home-advantage points spread over the filled sets. Ruling:
  docs/rules/volleyball.md, "Starting line-up".
- `spread_points(total, sets)`: points spread as evenly as possible, OL first.
- `lineup_warnings(team, orders, allowance)`: what a legal line-up gives away (a set without
  players is lost 0-15 if played; home-advantage points left unused are lost), said before
  the orders are stored.
- `repeat_lineups(team, last, fixtures, home_advantage)`: last round's line-ups for this
  round's matches, each from a match of the same kind (cup or league), adjusted to the team
  as it is (players gone or too tired are replaced, points kept within this round's limits).

Rule 12's NMR line-up (match.default_match_orders, ruling 16) is not this: it is what a team
that gave no orders plays, as the page describes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.prose import plural
from rules.volleyball.match import (
    DEVOTION_MAX_PER_MATCH,
    SPECIAL_MAX_PER_MATCH,
    Fatigue,
    can_play,
    default_match_orders,
    eligible_players,
    match_levels,
    rest,
    tire,
)
from rules.volleyball.models import Fixture, Player, SeasonConfig, Team
from rules.volleyball.orders import (
    PLAYERS_PER_SET,
    SETS_PER_MATCH_ORDER,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    RoundOrders,
    SetOrder,
)

# The plan looks at the fittest players only: more never changes whether five sets can be
# fielded in practice, and the plan's cost grows with every player.
PLANNED_PLAYERS = 12
PLAN_STATES = 300  # for more than EXACT_PLAYERS players; fewer are planned exactly
EXACT_PLAYERS = 8
DEFAULT_LEAGUE_MATCHES = SeasonConfig().matches_per_round


def _fittest(team: Team, fatigue: Fatigue) -> list[str]:
    able = eligible_players(team, fatigue)
    able.sort(key=lambda p: (-sum(fatigue.levels(p.name)), p.name))
    return [p.name for p in able]


def _patterns(player: Player) -> list[tuple[int, tuple[int, ...]]]:
    """Every way the player can take part in a match that rule 2 allows (a bit per set he
    plays, from set 1), with the level points he brings to the sets he plays. A player's
    tiredness depends only on his own sets, so each pattern is checked on its own."""
    found = []
    own = match_levels(player)
    for mask in range(1 << SETS_PER_MATCH_ORDER):
        ol, dl = own
        brought = 0
        for number in range(SETS_PER_MATCH_ORDER):
            if mask >> number & 1:
                if not can_play(player, ol, dl):
                    break
                brought += ol + dl
                ol, dl = tire(ol, dl)
            elif (ol, dl) != own:
                ol, dl = rest(ol, dl, *own)
        else:
            bits = tuple(mask >> number & 1 for number in range(SETS_PER_MATCH_ORDER))
            found.append((brought, bits))
    return found


def _leading_sets(
    players: list[Player], patterns: dict[str, list[tuple[int, tuple[int, ...]]]], count: int
) -> list[list[str]] | None:
    """Six players for each of the first `count` sets (the others rest), each able to play
    after the sets before, bringing the most level points; None when there are none.

    Each player's part is one of his allowed patterns (_patterns); the plan picks one per
    player so that each of those sets has six: dynamic programming over how many each set has
    so far, keeping the most level points per count, and only counts the players still to
    come can fill up (for a squad of more than EXACT_PLAYERS, only the PLAN_STATES best)."""
    target = (PLAYERS_PER_SET,) * count + (0,) * (SETS_PER_MATCH_ORDER - count)
    best: dict[tuple[int, ...], tuple[int, tuple]] = {(0,) * SETS_PER_MATCH_ORDER: (0, ())}
    for index, player in enumerate(players):
        own = [(v, bits) for v, bits in patterns[player.name] if not any(bits[count:])]
        still = len(players) - index - 1  # players after this one
        following: dict[tuple[int, ...], tuple[int, tuple]] = {}
        for counts, (value, chosen) in best.items():
            for brought, bits in own:
                after = tuple(c + b for c, b in zip(counts, bits, strict=True))
                if any(a > t or t - a > still for a, t in zip(after, target, strict=True)):
                    continue
                total = value + brought
                if after not in following or total > following[after][0]:
                    following[after] = (total, (chosen, (player.name, bits)))
        if len(players) > EXACT_PLAYERS and len(following) > PLAN_STATES:
            kept = sorted(following.items(), key=lambda item: -item[1][0])[:PLAN_STATES]
            following = dict(kept)
        best = following
    found = best.get(target)
    if found is None:
        return None
    plan: list[list[str]] = [[] for _ in range(count)]
    chosen = found[1]
    while chosen:
        chosen, (name, bits) = chosen
        for number, plays in enumerate(bits[:count]):
            if plays:
                plan[number].append(name)
    order = {p.name: index for index, p in enumerate(players)}
    return [sorted(six, key=order.__getitem__) for six in plan]


def plan_sets(team: Team) -> list[list[str]]:
    """Six players for each set the squad can field, each able to play after the sets
    before: as many sets from set 1 on as any plan can fill (sets 4 and 5 are played only
    when needed, so the early ones matter most), the fittest six first. The fittest six each
    set (the NMR line-up's way) is tried first; when it runs dry, _leading_sets plans the
    longest run of full sets, and each set after it has the fittest six who can still play,
    or nobody when fewer than six can (ruling 8: only then may a set be left empty)."""
    greedy = [s.player_names for s in default_match_orders(team).sets]
    if all(greedy):
        return greedy
    done = next(i for i, six in enumerate(greedy) if not six)  # the greedy's full sets
    players = [
        p for name in _fittest(team, Fatigue(team))[:PLANNED_PLAYERS] if (p := team.player(name))
    ]
    patterns = {p.name: _patterns(p) for p in players}
    plan: list[list[str]] = greedy[:done]
    for count in range(SETS_PER_MATCH_ORDER, done, -1):
        # No plan fills `count` sets when the players cannot play 6 x count sets between them.
        room = sum(max(sum(bits[:count]) for _, bits in patterns[p.name]) for p in players)
        if room < PLAYERS_PER_SET * count:
            continue
        leading = _leading_sets(players, patterns, count)
        if leading is not None:
            plan = leading
            break
    fatigue = Fatigue(team)
    for six in plan:
        fatigue.after_set([PlayerSlot(n) for n in six])
    while len(plan) < SETS_PER_MATCH_ORDER:
        able = _fittest(team, fatigue)
        six = able[:PLAYERS_PER_SET] if len(able) >= PLAYERS_PER_SET else []
        plan.append(six)
        fatigue.after_set([PlayerSlot(n) for n in six])
    return plan


def fieldable_sets(team: Team) -> int:
    """How many sets of a match, from set 1 on, the squad can field six players able to
    play (rule 2's tiredness; plan_sets): five when every set can be played, fewer when
    the later sets would have nobody and be lost 0-15 (ruling 8)."""
    return next((n for n, six in enumerate(plan_sets(team)) if not six), SETS_PER_MATCH_ORDER)


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
    orders = MatchOrders(
        sets=[SetOrder(slots=[PlayerSlot(n) for n in six]) for six in plan_sets(team)],
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
        count = plural(len(empty))
        warnings.append(
            f"{where}: {count:set!} {sets} {count:has|have!} no players "
            f"and {count:is|are!} lost 0-15 if played."
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
    can (keeping the position); a set short of six gets the fittest who can, or nobody when
    fewer than six can (ruling 8). Returns what changed, a line per player."""
    changes = []
    kept: list[PlayerSlot] = []
    lost: list[tuple[PlayerSlot, str]] = []
    for slot in set_order.slots:
        player = team.player(slot.player)
        if player is None:
            lost.append((slot, "no longer in the team"))
        elif not can_play(player, *fatigue.levels(player.name)):
            lost.append((slot, "too tired"))
        else:
            kept.append(PlayerSlot(player.name, slot.position, slot.tired_from_ol))
    missing = PLAYERS_PER_SET - len(kept)
    if missing > 0:
        chosen = {k.player for k in kept}
        spare = [n for n in _fittest(team, fatigue) if n not in chosen][:missing]
        for index, name in enumerate(spare):
            if index < len(lost):
                old, why = lost[index]
                kept.append(PlayerSlot(name, old.position))
                changes.append(f"set {number}: {name} in for {old.player} ({why})")
            else:
                kept.append(PlayerSlot(name))
    if len(kept) < PLAYERS_PER_SET:
        if set_order.slots:
            changes.append(f"set {number}: fewer than six can play, so nobody does (lost 0-15)")
        kept = []
    set_order.slots = kept
    return changes


def refill_sets(team: Team, orders: MatchOrders, after_set: int = 0) -> list[str]:
    """The line-up's sets after `after_set` (1-based) with every player who is gone or too
    tired after the sets before replaced by the fittest who can play (positions kept): what
    the orders editor does after a change to a set, so a change never leaves a later set
    that cannot be played. Returns what changed."""
    fatigue = Fatigue(team)
    changes: list[str] = []
    for number, set_order in enumerate(orders.sets, start=1):
        if number > after_set:
            before = [s.to_dict() for s in set_order.slots]
            changes += _refill(team, set_order, fatigue, number)
            if not set_order.slots and before:
                set_order.home_advantage = LevelPoints()
                set_order.devotion = LevelPoints()
                set_order.special = LevelPoints()
        fatigue.after_set(set_order.slots)
    return changes


def _kind(competition: str) -> str:
    return "cup" if competition == "cup" else "league"


def repeat_lineups(
    team: Team,
    last: RoundOrders,
    fixtures: list[Fixture],
    home_advantage: int,
    *,
    league_matches: int = DEFAULT_LEAGUE_MATCHES,
) -> Repeated:
    """Last round's line-ups for `fixtures` (the team's matches this round, in playing
    order), each from a match of the same kind (docs/rules/volleyball.md ruling 51): a cup
    match gets last round's cup line-up, the league matches last round's league line-ups in
    match-number order (the last one again when this round has more). A match whose kind
    last round did not have gets the starting line-up, and the changes say so. Last round's
    match numbers above `league_matches` were its cup matches (ruling 29: the cup's matches
    are numbered after the league's). Each keeps its own opponent, home or away and match
    number; players gone or too tired are replaced by the fittest who can play;
    home-advantage points are spread anew at home (none away); devotion and special points
    are kept within the match limits and the special points left. Training, bids, spying
    and the sponsor are not repeated."""
    previous = sorted(
        (MatchOrders.from_dict(m.to_dict()) for m in last.matches),
        key=lambda m: m.match_number,
    )
    repeated = Repeated(RoundOrders(team=team.name))
    if not previous:
        return repeated
    sources: dict[str, list[MatchOrders]] = {"league": [], "cup": []}
    for match in previous:
        sources["cup" if match.match_number > league_matches else "league"].append(match)
    used = {"league": 0, "cup": 0}
    special_left = team.special_points
    for fixture in fixtures:
        home = fixture.home == team.name
        kind = _kind(fixture.competition)
        label = f"{'Cup match' if kind == 'cup' else 'Match'} {fixture.match_number}"
        opponent = fixture.away if home else fixture.home
        same_kind = sources[kind]
        if not same_kind:
            orders = starting_lineup(
                team,
                opponent=opponent,
                home=home,
                match_number=fixture.match_number,
                home_advantage=home_advantage if home else 0,
            )
            special_left -= orders.special_total
            repeated.orders.matches.append(orders)
            repeated.changes.append(
                f"{label}: last round had no {kind} match to repeat, so it gets the starting "
                "line-up."
            )
            continue
        source = same_kind[min(used[kind], len(same_kind) - 1)]
        used[kind] += 1
        orders = MatchOrders(
            sets=[SetOrder.from_dict(s.to_dict()) for s in source.sets],
            match_number=fixture.match_number,
            opponent=opponent,
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
            repeated.changes.append(f"{label}: " + "; ".join(changes) + ".")
    return repeated


def _drop_points(orders: MatchOrders, kind: str) -> None:
    for set_order in orders.sets:
        setattr(set_order, kind, LevelPoints())
