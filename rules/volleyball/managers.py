"""Computer managers: they create teams and write legal round orders, like a careful human.

A computer manager sees only what a manager sees (its own team, the public schedule, the
transfer list, the GM offers and contract players) and decides with its own generator,
seeded from the league's seed, the season, the round and the team's name, so a season of
computer managers is the same every time. Every order it writes is checked with
rounds.round_order_problems; parts that would be refused are dropped.

The Galaxy Cup's amateur teams need no manager: rounds.py plays them with rule 12's line-up.
`new_computer_league(teams, seed)` builds a league of computer teams (and opens the season);
`all_computer_orders(state)` writes orders for every team without a human manager.
"""

from __future__ import annotations

import random

from rules.volleyball import economy, market, training
from rules.volleyball.creation import PlayerDraft, create_team, new_player_name
from rules.volleyball.match import (
    SPECIAL_MAX_PER_MATCH,
    Fatigue,
    default_match_orders,
    eligible_players,
    validate_match_orders,
)
from rules.volleyball.models import (
    AGE_CATEGORIES,
    DEFAULT_PROMOTION_PLACES,
    League,
    SeasonConfig,
    Team,
)
from rules.volleyball.orders import (
    CONTRACT_LENGTHS,
    PLAYERS_PER_SET,
    SETS_PER_MATCH_ORDER,
    AgeingSplit,
    ContractBid,
    GmOfferBid,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    Position,
    RoundOrders,
    SetOrder,
    SpyOrder,
    TrainingOrder,
    TransferBid,
    TransferSale,
    VolleyballError,
)
from rules.volleyball.rounds import (
    RoundReport,
    after_match_preview,
    play_round,
    preview_team,
    round_fixtures,
    round_order_problems,
    team_fixtures,
)
from rules.volleyball.season import LeagueState, create_league, record_round

TEAM_NAMES = (
    "Nova Spikers", "Comet Smashers", "Nebula Blockers", "Quasar Setters", "Pulsar Diggers",
    "Meteor Volley", "Zenith Serve", "Eclipse Aces", "Solar Flares", "Lunar Tides",
    "Stellar Kings", "Galaxy Giants", "Orbit Runners", "Cosmic Wall", "Rocket Rally",
    "Star Jumpers",
)  # fmt: skip
PLAYER_TARGET_POINTS = 16
USEFUL_PLAYER_POINTS = 8


def manager_rng(league: League, team_name: str, salt: str = "") -> random.Random:
    """The computer manager's own generator (not the league's: managers are players)."""
    return random.Random(f"{league.seed}:{league.season}:{league.round_number}:{team_name}:{salt}")


def computer_team_drafts(config: SeasonConfig, rng: random.Random) -> list[PlayerDraft]:
    """A legal rule-1 squad: each age category's points spread over players of about 16
    points, each split at most 2:1, at least the minimum number of players."""
    drafts: list[PlayerDraft] = []
    taken: set[str] = set()
    for age in AGE_CATEGORIES:
        points = config.player_points_by_age.get(age, 0)
        if points < 2:
            continue
        count = max(1, round(points / PLAYER_TARGET_POINTS))
        while points // count > config.max_points_per_player:
            count += 1
        for index in range(count):
            total = points // count + (1 if index < points % count else 0)
            if total < 2:
                continue
            low, high = -(-total // 3), (2 * total) // 3
            ol = rng.randint(low, max(low, high))
            drafts.append(PlayerDraft(new_player_name(rng, taken), age, ol, total - ol))
    # Too few players: split the biggest (still legal: halves of a 2:1 split stay near 2:1).
    while len(drafts) < config.min_players:
        drafts.sort(key=lambda d: -(d.ol + d.dl))
        big = drafts.pop(0)
        first = PlayerDraft(big.name, big.age, -(-big.ol // 2), -(-big.dl // 2))
        second = PlayerDraft(new_player_name(rng, taken), big.age, big.ol // 2, big.dl // 2)
        drafts.extend(d for d in (first, second) if d.ol >= 1 and d.dl >= 1)
    return drafts


def new_computer_league(
    teams: int,
    seed: int,
    config: SeasonConfig | None = None,
    *,
    divisions: list[int] | None = None,
    promotion_places: int = DEFAULT_PROMOTION_PLACES,
) -> LeagueState:
    """A league of `teams` computer-managed teams, its first season opened. `divisions`
    gives the number of teams per division, highest first (default: one division)."""
    config = config or SeasonConfig()
    sizes = divisions or [teams]
    if sum(sizes) != teams:
        raise VolleyballError(f"The divisions hold {sum(sizes)} teams, not {teams}.")
    rng = random.Random(seed)
    created: list[Team] = []
    for index in range(teams):
        name = TEAM_NAMES[index % len(TEAM_NAMES)]
        if index >= len(TEAM_NAMES):
            name = f"{name} {chr(ord('A') + index // len(TEAM_NAMES))}"
        created.append(
            create_team(
                name,
                computer_team_drafts(config, rng),
                config,
                taken_team_names=[t.name for t in created],
            )
        )
    first = 0
    for division, size in enumerate(sizes, start=1):
        for team in created[first : first + size]:
            team.division = division
        first += size
    return create_league(created, config=config, seed=seed, promotion_places=promotion_places)


# --- line-ups -----------------------------------------------------------------------------


def _position_for(ol: int, dl: int, setters: int, blockers: int) -> Position:
    """Offensive players attack (the strongest set), defensive ones defend (or block)."""
    if ol >= dl + 3 and setters < 2:
        return Position.SETTER
    if ol > dl:
        return Position.ATTACKER
    if dl >= ol + 3 and blockers < 2:
        return Position.BLOCKER
    if dl > ol:
        return Position.DEFENDER
    return Position.ALLROUND


def computer_match_orders(
    team: Team,
    *,
    opponent: str,
    home: bool,
    match_number: int,
    home_advantage: int,
    special_budget: int,
    devotion: int,
) -> MatchOrders:
    """A line-up: each set the six freshest players able to play, positions by each player's
    profile, the home-advantage points on sets 1-3, special and devotion points on sets 1-2.
    `team` is the team as it will be at this match (rounds.preview_team, after_match_preview):
    after training and scouting, a lack of devotion used up, a talent's 2/2 earned."""
    # A 0/0 talent plays sets 1 and 2 (rule 6: four matches of two sets give him 2/2).
    talents = sorted(
        (p for p in team.players if p.is_talent and p.ol == 0 and p.dl == 0),
        key=lambda p: (-p.talent_matches, p.name),
    )
    talent = talents[0].name if talents else None
    fatigue = Fatigue(team)
    sets: list[SetOrder] = []
    for index in range(SETS_PER_MATCH_ORDER):
        able = sorted(
            eligible_players(team, fatigue),
            key=lambda p: (-sum(fatigue.levels(p.name)), p.name),
        )
        names = [p.name for p in able if p.name != talent]
        if talent is not None and index < 2 and len(names) >= PLAYERS_PER_SET - 1:
            chosen = [*names[: PLAYERS_PER_SET - 1], talent]
        else:
            chosen = [p.name for p in able[:PLAYERS_PER_SET]]
        full = len(chosen) == PLAYERS_PER_SET
        set_order = SetOrder(slots=[PlayerSlot(n) for n in chosen]) if full else SetOrder()
        sets.append(set_order)
        fatigue.after_set(set_order.slots)
    orders = MatchOrders(sets=sets, match_number=match_number, opponent=opponent, home=home)
    for index, set_order in enumerate(orders.sets):
        setters = blockers = 0
        for slot in set_order.slots:
            player = team.known_player(slot.player)
            slot.position = _position_for(player.ol, player.dl, setters, blockers)
            setters += slot.position == Position.SETTER
            blockers += slot.position == Position.BLOCKER
        if not set_order.slots:
            continue
        if home and index < 3:
            share = home_advantage // 3 + (1 if index < home_advantage % 3 else 0)
            set_order.home_advantage = LevelPoints(ol=share - share // 2, dl=share // 2)
        if index < 2:
            sp = special_budget // 2 + (special_budget % 2 if index == 0 else 0)
            set_order.special = LevelPoints(ol=sp - sp // 2, dl=sp // 2)
            dp = devotion // 2 + (devotion % 2 if index == 0 else 0)
            set_order.devotion = LevelPoints(ol=dp, dl=0)
    return orders


# --- round orders -------------------------------------------------------------------------


def computer_orders(state: LeagueState, team_name: str) -> RoundOrders:
    """Legal orders for one computer-managed team for the coming round."""
    league = state.league
    team = league.known_team(team_name)
    rng = manager_rng(league, team.name)
    r, total = league.round_number, state.total_rounds
    orders = RoundOrders(team=team.name)

    # Training: the GM's NMR rule is a sound plan.
    gains = training.nmr_training_for(team)
    orders.training = [TrainingOrder(name, ol, dl) for name, ol, dl in gains]

    # Scouting: one talent in each of the first rounds until three are scouted.
    if team.talents_scouted < league.config.talent_scouts_per_season and r <= 3:
        taken = {p.name.casefold() for p in team.players}
        orders.scout_talents = [new_player_name(rng, taken)]

    # Sponsor: one of the league's, at random.
    if league.config.sponsors:
        orders.sponsor = rng.choice(league.config.sponsors).name

    fixtures = team_fixtures(round_fixtures(state, r), team.name)
    matches_left = len(fixtures) + state.schedule_index().league_matches_from(team.name, r + 1)
    # Line-ups are planned on the team as it will be at each match: after this round's
    # training and scouting, then after each earlier match of the round.
    preview, _problems = preview_team(team, orders, state)
    special_left = team.special_points
    for fixture in fixtures:  # in playing order: the cup match first
        home = fixture.home == team.name
        home_advantage = league.config.home_advantage_points(r) if home else 0
        # Spread the season's special points evenly over the matches still to play.
        budget = min(SPECIAL_MAX_PER_MATCH, special_left // max(1, matches_left))
        matches_left -= 1
        match_orders = computer_match_orders(
            preview,
            opponent=fixture.away if home else fixture.home,
            home=home,
            match_number=fixture.match_number,
            home_advantage=home_advantage,
            special_budget=budget,
            devotion=rng.choice((0, 0, 6, 12)),
        )
        if validate_match_orders(
            preview,
            match_orders,
            home=home,
            home_advantage_points=home_advantage,
            special_points_left=special_left,
        ):
            match_orders = default_match_orders(
                preview,
                opponent=fixture.away if home else fixture.home,
                home=home,
                match_number=fixture.match_number,
            )
        special_left -= match_orders.special_total
        orders.matches.append(match_orders)
        preview = after_match_preview(preview, match_orders)

    # Spying: now and then, on the next opponent, when rich.
    if (
        fixtures
        and team.spies_used < economy.SPY_ORDERS_PER_SEASON
        and team.money > 1500
        and rng.random() < 0.3
    ):
        fixture = fixtures[0]
        target = fixture.away if fixture.home == team.name else fixture.home
        if league.team(target) is not None:
            orders.spies = [SpyOrder(target, fixture.match_number, rng.random() < 0.5)]

    # Transfers: sell the weakest own player when the squad is large or he is worn out (a
    # player under 8 points hardly lasts a set); bid on bargains.
    own = [p for p in team.players if not p.is_contract and not p.is_talent]
    useful = [p for p in own if p.total >= USEFUL_PLAYER_POINTS]
    # Age C and older players lose 14 points at season end: build for next season too.
    young = [p for p in useful if p.age in ("A", "B")]
    if own and market.listing_allowed(r, total):
        listed = {t.player for t in state.transfer_list if t.seller == team.name}
        candidates = [p for p in own if p.name not in listed] or own
        weakest = min(candidates, key=lambda p: (p.total, p.name))
        if weakest.name not in listed and (
            len(own) - len(listed) > 8
            or (weakest.total < USEFUL_PLAYER_POINTS and len(own) - len(listed) > 6)
        ):
            orders.sales = [TransferSale(weakest.name, 0)]
    # Every bid could win, so all of them together stay within what the team can spare
    # (keeping $500 for next round's wages).
    budget = team.money - 500
    wanted = 10 - len(useful) + max(0, 8 - len(young))
    if market.transfers_allowed(r, total):
        # Three listings looked at, at most (linear in the league, like the GM offers).
        others = [t for t in state.transfer_list if t.seller != team.name]
        for listing in rng.sample(others, min(3, len(others))):
            amount = rng.randint(100, 400)
            if listing.seller != team.name and wanted > 0 and amount <= budget:
                orders.transfer_bids.append(TransferBid(listing.seller, listing.player, amount))
                budget -= amount
                wanted -= 1

    # GM offers: training points are always welcome; new players while the squad is thin,
    # bidding more the richer the team is (ageing takes several players a season).
    taken = {p.name.casefold() for p in team.players}
    # The GM offers a player per team; a manager looks at three of them at most, so the
    # managers' work stays linear in the league.
    player_offers = [o for o in state.gm_offers if o.kind == "player"]
    considered = set(id(o) for o in rng.sample(player_offers, min(3, len(player_offers))))
    for offer in state.gm_offers:
        if offer.kind == "player" and id(offer) not in considered:
            continue
        if offer.kind == "player":
            if wanted <= 0:
                continue
            amount = rng.randint(150, 450) + max(0, budget - 1000) // 8
            name = new_player_name(rng, taken)
        elif offer.kind == "tp" or rng.random() < 0.5:
            amount, name = rng.randint(50, 250), None
        else:
            continue
        if amount <= budget:
            orders.gm_offer_bids.append(GmOfferBid(offer.offer_id, amount, name))
            budget -= amount
            wanted -= offer.kind == "player"

    # Contract players: a short contract when there is money to spare.
    if budget > 1200:
        open_players = market.contract_players_open_for_bids(league, r, state.contract_holders())
        if open_players and r + 2 <= total:
            spec = rng.choice(open_players)
            length = rng.choice([n for n in CONTRACT_LENGTHS if r + n <= total])
            orders.contract_bids = [ContractBid(spec.name, rng.randint(80, 200), length)]

    return _make_legal(state, orders)


def _make_legal(state: LeagueState, orders: RoundOrders) -> RoundOrders:
    """Drop the parts of the orders that would be refused: each kind whose removal lowers the
    number of problems, one kind at a time, until none are left."""
    droppable = (
        "contract_bids",
        "gm_offer_bids",
        "transfer_bids",
        "sales",
        "spies",
        "scout_talents",
        "training",
        "matches",
    )
    problems = len(round_order_problems(state, orders))
    for attribute in droppable:
        if problems == 0:
            break
        kept = getattr(orders, attribute)
        setattr(orders, attribute, [])
        fewer = len(round_order_problems(state, orders))
        if fewer < problems:
            problems = fewer
        else:
            setattr(orders, attribute, kept)
    if problems:
        # Whatever is left: the NMR orders are always valid.
        return RoundOrders(team=orders.team)
    return orders


def all_computer_orders(state: LeagueState) -> dict[str, RoundOrders]:
    """Orders for every computer-managed team (manager_id None)."""
    return {
        team.name: computer_orders(state, team.name)
        for team in state.league.teams
        if team.manager_id is None
    }


# --- whole seasons ------------------------------------------------------------------------


def computer_ageing_splits(state: LeagueState) -> dict[str, list[AgeingSplit]]:
    """Computer managers take the documented default split (ageing.default_ol_loss)."""
    return {team.name: [] for team in state.league.teams if team.manager_id is None}


def play_computer_season(
    state: LeagueState, record: list[str] | None = None
) -> tuple[LeagueState, list[RoundReport]]:
    """Play every remaining round of the season with computer orders for every computer
    team (human teams: no move received). Appends the record lines to `record` if given."""
    reports: list[RoundReport] = []
    while not state.season_over:
        orders = all_computer_orders(state)
        if record is not None:
            record.extend(record_round(state, orders))
        state, report = play_round(state, orders)
        reports.append(report)
    return state, reports
