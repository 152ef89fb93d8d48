"""The markets of a round: the transfer market (step 8), the GM offers (step 9) and the
contract players (step 10), seed rules 7 and 8.

Timing (ruling, docs/rules/volleyball.md): a sealed bid can only be made on something that
was public before the orders were due. So a player offered for sale with round r's orders
goes on the transfer list published with round r's results and is sold at step 8 of round
r+1 ("The players are still available for the team in the running round"); the GM's offers
for round r+1 are drawn at the end of round r; a contract that ends with round r is
announced with round r-1's results and bid on with round r's orders ("the GM announces the
end of contracts one round before they end"), and the new contract starts in round r+1.

Every bid is checked against the bank when it is resolved: a bid that would take the
bidder below -$1,000 "is not valid" (rule 8) and the next highest bid is looked at.
Ties between equal highest bids are drawn by lot from the league's generator, and the draw
is an event everyone sees.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.volleyball import economy
from rules.volleyball.creation import NEW_TEAM_MAX_RATIO, name_problems, tidy_name
from rules.volleyball.models import (
    AGE_CONTRACT,
    MIN_OWN_PLAYERS,
    ContractPlayerSpec,
    League,
    Player,
    Team,
)
from rules.volleyball.orders import CONTRACT_LENGTHS, ContractBid, GmOfferBid, TransferBid
from rules.volleyball.wording import did_you_mean, possessive


@dataclass
class TransferListing:
    """A player on the transfer list (rule 8), with the seller's minimum acceptable price."""

    seller: str
    player: str
    minimum_price: int
    listed_in_round: int

    def to_dict(self) -> dict:
        return {
            "seller": self.seller,
            "player": self.player,
            "minimum_price": self.minimum_price,
            "listed_in_round": self.listed_in_round,
        }

    @classmethod
    def from_dict(cls, data: dict) -> TransferListing:
        return cls(
            str(data["seller"]),
            str(data["player"]),
            int(data["minimum_price"]),
            int(data["listed_in_round"]),
        )


@dataclass
class GmOffer:
    """One of the GM's offers (rule 8): a new player (`kind` "player", with age and levels),
    a lot of training points ("tp") or of special points ("sp") (`amount` points)."""

    offer_id: str
    kind: str
    age: str = ""
    ol: int = 0
    dl: int = 0
    amount: int = 0

    def describe(self) -> str:
        """ "GM offer R3P1 (a new Age A player, 9/8)" """
        if self.kind == "player":
            what = f"a new Age {self.age} player, {self.ol}/{self.dl}"
        else:
            what = f"{self.amount} {'training' if self.kind == 'tp' else 'special'} points"
        return f"GM offer {self.offer_id} ({what})"

    def to_dict(self) -> dict:
        return {
            "offer_id": self.offer_id,
            "kind": self.kind,
            "age": self.age,
            "ol": self.ol,
            "dl": self.dl,
            "amount": self.amount,
        }

    @classmethod
    def from_dict(cls, data: dict) -> GmOffer:
        return cls(
            str(data["offer_id"]),
            str(data["kind"]),
            str(data.get("age", "")),
            int(data.get("ol", 0)),
            int(data.get("dl", 0)),
            int(data.get("amount", 0)),
        )


# --- timing -------------------------------------------------------------------------------


def transfers_allowed(round_number: int, total_rounds: int) -> bool:
    """Rule 8: "Except for the last three rounds the managers can buy and sell players"."""
    return round_number <= total_rounds - 3


def gm_offers_allowed(round_number: int, total_rounds: int) -> bool:
    """Rule 8: GM offers "are made every round, except for the last four rounds"."""
    return round_number <= total_rounds - 4


def listing_allowed(round_number: int, total_rounds: int) -> bool:
    """A player offered with round r's orders is sold in round r+1, which must allow transfers."""
    return transfers_allowed(round_number + 1, total_rounds)


# --- helpers ------------------------------------------------------------------------------


def unique_player_name(team: Team, wanted: str) -> str:
    """`wanted`, or `wanted (2)`, `(3)` ... when the team already has a player of that name
    (ruling: orders name players, so names within a team must differ)."""
    name = tidy_name(wanted)
    if team.player(name) is None:
        return name
    number = 2
    while team.player(f"{name} ({number})") is not None:
        number += 1
    return f"{name} ({number})"


def _draw_between(candidates: list[str], rng: random.Random, what: str, events: list[str]) -> int:
    """Index of the candidate chosen by lot among equal bids; the draw is an event."""
    if len(candidates) == 1:
        return 0
    index = rng.randrange(len(candidates))
    events.append(
        f"Equal bids for {what} from {', '.join(candidates)}: drawn by lot, "
        f"{candidates[index]} wins (d{len(candidates)} = {index + 1})."
    )
    return index


def _own_players(team: Team) -> list[Player]:
    return [p for p in team.players if not p.is_contract]


# --- step 8: the transfer market ----------------------------------------------------------


def listing_problems(
    team: Team,
    sales: list,
    already_listed: list[TransferListing],
    round_number: int,
    total_rounds: int,
) -> list[str]:
    """Every problem with a team's sale orders (rule 8), each as a sentence."""
    if not sales:
        return []
    if not listing_allowed(round_number, total_rounds):
        return [
            "No players can be offered for sale now: there are no transfers in the last three "
            "rounds, and a player offered now would be sold next round."
        ]
    problems: list[str] = []
    listed = {entry.player.casefold() for entry in already_listed if entry.seller == team.name}
    names: set[str] = set()
    for sale in sales:
        player = team.player(sale.player)
        if player is None:
            problems.append(
                f"{team.name} has no player called {sale.player} to sell."
                + did_you_mean(sale.player, [p.name for p in team.players])
            )
            continue
        if player.is_contract:
            problems.append(f"{player.name} is a contract player and cannot be sold.")
        if player.name.casefold() in listed or player.name.casefold() in names:
            problems.append(f"{player.name} is already on the transfer list.")
        if sale.minimum_price < 0:
            problems.append(f"The minimum price for {player.name} cannot be negative.")
        names.add(player.name.casefold())
    remaining = len(_own_players(team)) - len(names | listed)
    if remaining < MIN_OWN_PLAYERS:
        problems.append(
            f"After these sales {team.name} would keep {remaining} players; a team consists of "
            "at least six players."
        )
    return problems


def transfer_bid_problems(
    team: Team,
    bids: list[TransferBid],
    transfer_list: list[TransferListing],
    round_number: int,
    total_rounds: int,
) -> list[str]:
    """Every problem with a team's transfer bids that can be seen when the orders come in."""
    problems: list[str] = []
    if bids and not transfers_allowed(round_number, total_rounds):
        return ["There are no transfers in the last three rounds of the season."]
    seen: set[tuple[str, str]] = set()
    for bid in bids:
        listing = _find_listing(transfer_list, bid.seller, bid.player)
        if listing is None:
            problems.append(f"{bid.player} of {bid.seller} is not on the transfer list.")
        elif listing.seller.casefold() == team.name.casefold():
            problems.append(f"{team.name} cannot bid on its own player {bid.player}.")
        else:
            key = (listing.seller, listing.player)
            if key in seen:
                problems.append(f"Only one bid per player: {listing.player} is bid on twice.")
            seen.add(key)
        if bid.amount < 1:
            problems.append(f"A bid on {bid.player} must be at least $1.")
    return problems


def _find_listing(
    transfer_list: list[TransferListing], seller: str, player: str
) -> TransferListing | None:
    for entry in transfer_list:
        if (
            entry.seller.casefold() == seller.casefold()
            and entry.player.casefold() == player.casefold()
        ):
            return entry
    return None


def resolve_transfer_market(
    league: League,
    transfer_list: list[TransferListing],
    bids_by_team: dict[str, list[TransferBid]],
    rng: random.Random,
    events: list[str],
    ledger: list[economy.MoneyEntry] | None = None,
    private: dict[str, list[str]] | None = None,
) -> None:
    """Step 8: every player on the transfer list is sold, goes to the amateurs or stays.

    Rule 8: "The highest bidder becomes the player, unless the bid is below the minimal
    acceptable amount. When nobody makes a bid, the player becomes an amateur and the team
    gets a compensation". Rulings: a bid that breaks the bank rule counts as not made; when
    there are valid bids but all are below the minimum, the player stays with his team.
    """
    for listing in transfer_list:
        seller = league.team(listing.seller)
        player = seller.player(listing.player) if seller else None
        if seller is None or player is None:
            continue  # the player left meanwhile (the bank sold him)
        bids = [
            (team_name, bid)
            for team_name, team_bids in bids_by_team.items()
            for bid in team_bids
            if bid.seller.casefold() == seller.name.casefold()
            and bid.player.casefold() == player.name.casefold()
            and team_name != seller.name
        ]
        valid: list[tuple[str, int]] = []
        for team_name, bid in bids:
            buyer = league.team(team_name)
            if buyer is None:
                continue
            if not economy.within_credit(buyer.money - bid.amount):
                economy.private_line(
                    events,
                    private,
                    buyer.name,
                    economy.refused_for_credit(
                        buyer, f"bid of ${bid.amount} on {player.name}", "it"
                    ),
                )
                continue
            valid.append((buyer.name, bid.amount))
        if not valid:
            money = economy.compensation(player.age, player.total)
            seller.players.remove(player)
            economy.book(seller, money, "compensation", ledger)
            events.append(
                f"Nobody bid on {player.name} ({seller.name}): he joins the amateurs and "
                f"{seller.name} receives ${money} compensation."
            )
            continue
        best = max(amount for _name, amount in valid)
        if best < listing.minimum_price:
            events.append(
                f"The best bid on {player.name} (${best}) is below {possessive(seller.name)} minimum "
                f"of ${listing.minimum_price}: he stays with {seller.name}."
            )
            continue
        top = sorted(name for name, amount in valid if amount == best)
        winner = league.known_team(top[_draw_between(top, rng, player.name, events)])
        seller.players.remove(player)
        player.name = unique_player_name(winner, player.name)
        winner.players.append(player)
        economy.book(winner, -best, economy.TRANSFER_FEE, ledger)
        economy.book(seller, best, economy.TRANSFER_FEE, ledger)
        events.append(f"{winner.name} buys {player.name} from {seller.name} for ${best}.")


# --- step 9: the GM offers ----------------------------------------------------------------


def gm_player_offers(team_count: int) -> int:
    """How many new players the GM offers a round: one for every team, at least two (ruling:
    ageing costs a team several players a season, and the market must be able to replace
    them)."""
    return max(2, team_count)


def draw_gm_offers(rng: random.Random, round_number: int, players: int = 2) -> list[GmOffer]:
    """The GM's offers for `round_number` (ruling: the seed leaves their size to the GM):
    `players` new players, two in three Age A, the others Age B, with 6-12 points per level
    (ratio at most 2:1 and at most 24 points, as for a new team's players), one lot of 5
    training points and one lot of 10 special points."""
    offers: list[GmOffer] = []
    for number in range(1, players + 1):
        while True:
            ol, dl = rng.randint(6, 12), rng.randint(6, 12)
            if max(ol, dl) <= NEW_TEAM_MAX_RATIO * min(ol, dl):
                break
        age = rng.choice(("A", "A", "B"))
        offers.append(GmOffer(f"R{round_number}P{number}", "player", age, ol, dl))
    offers.append(GmOffer(f"R{round_number}TP", "tp", amount=5))
    offers.append(GmOffer(f"R{round_number}SP", "sp", amount=10))
    return offers


def gm_bid_problems(
    team: Team, bids: list[GmOfferBid], offers: list[GmOffer], reserved_names: Sequence[str] = ()
) -> list[str]:
    """Every problem with a team's bids on the GM offers, each as a sentence. A new player's
    name follows the naming rules of a new team's players, and may not be one of the team's
    players or one of the season's contract players (`reserved_names`)."""
    problems: list[str] = []
    known = {offer.offer_id.casefold(): offer for offer in offers}
    seen: set[str] = set()
    for bid in bids:
        offer = known.get(bid.offer_id.casefold())
        if offer is None:
            problems.append(f"There is no GM offer {bid.offer_id} this round.")
            continue
        if offer.offer_id in seen:
            problems.append(f"Only one bid per GM offer: {offer.offer_id} is bid on twice.")
        seen.add(offer.offer_id)
        if bid.amount < 1:
            problems.append(f"A bid on GM offer {offer.offer_id} must be at least $1.")
        if offer.kind == "player":
            name = tidy_name(bid.player_name or "")
            if not name:
                problems.append(
                    f"A bid on the new player of offer {offer.offer_id} must give him a name."
                )
            elif team.player(name) is not None or name.casefold() in {
                n.casefold() for n in reserved_names
            }:
                problems.append(f"The name {name} is taken; give the new player another name.")
            else:
                problems.extend(name_problems(name, "player"))
    return problems


def resolve_gm_offers(
    league: League,
    offers: list[GmOffer],
    bids_by_team: dict[str, list[GmOfferBid]],
    rng: random.Random,
    events: list[str],
    ledger: list[economy.MoneyEntry] | None = None,
    private: dict[str, list[str]] | None = None,
) -> None:
    """Step 9: each GM offer goes to the highest valid bidder (rule 8); the money goes to the
    GM. Offers nobody bids on lapse."""
    # The bids grouped by offer in one pass (not every bid per offer: a round stays linear in the league).
    by_offer: dict[str, list[tuple[str, GmOfferBid]]] = {}
    for team_name, bids in bids_by_team.items():
        for bid in bids:
            by_offer.setdefault(bid.offer_id.casefold(), []).append((team_name, bid))
    for offer in offers:
        valid: list[tuple[str, GmOfferBid]] = []
        for team_name, bid in by_offer.get(offer.offer_id.casefold(), []):
            team = league.team(team_name)
            if team is None:
                continue
            if not economy.within_credit(team.money - bid.amount):
                economy.private_line(
                    events,
                    private,
                    team.name,
                    economy.refused_for_credit(
                        team, f"bid of ${bid.amount} on {offer.describe()}", "it"
                    ),
                )
                continue
            valid.append((team.name, bid))
        if not valid:
            continue
        best = max(bid.amount for _name, bid in valid)
        top = sorted((entry for entry in valid if entry[1].amount == best), key=lambda e: e[0])
        names = [name for name, _bid in top]
        winner_name, bid = top[_draw_between(names, rng, f"GM offer {offer.offer_id}", events)]
        winner = league.known_team(winner_name)
        economy.book(winner, -bid.amount, "GM offer", ledger)
        if offer.kind == "player":
            name = unique_player_name(winner, bid.player_name or offer.offer_id)
            winner.players.append(Player(name, offer.age, offer.ol, offer.dl))
            events.append(
                f"{winner.name} buys {offer.describe()} for ${bid.amount} and names him {name}."
            )
        elif offer.kind == "tp":
            winner.training_points += offer.amount
            events.append(f"{winner.name} buys {offer.describe()} for ${bid.amount}.")
        else:
            winner.special_points += offer.amount
            events.append(f"{winner.name} buys {offer.describe()} for ${bid.amount}.")


# --- step 10: the contract players --------------------------------------------------------


def contract_holders(league: League) -> dict[str, tuple[Team, Player]]:
    """Every contract player under contract, by casefolded name: (his team, his Player).
    One pass over the rosters (not one pass per contract player)."""
    return {
        player.name.casefold(): (team, player)
        for team in league.teams
        for player in team.players
        if player.age == AGE_CONTRACT
    }


def contract_holder(league: League, name: str) -> tuple[Team, Player] | None:
    """The team holding contract player `name` and his Player, or None when he is free."""
    return contract_holders(league).get(name.strip().casefold())


def contract_players_open_for_bids(
    league: League,
    round_number: int,
    holders: dict[str, tuple[Team, Player]] | None = None,
) -> list[ContractPlayerSpec]:
    """Contract players teams may bid on with round `round_number`'s orders: the free ones and
    those whose contract ends with this round (rule 7). `holders`: contract_holders(league),
    when the caller has it already."""
    holders = contract_holders(league) if holders is None else holders
    open_players: list[ContractPlayerSpec] = []
    for spec in league.config.contract_players:
        held = holders.get(spec.name.casefold())
        if held is None or held[1].contract_last_round <= round_number:
            open_players.append(spec)
    return open_players


def contract_bid_problems(
    team: Team,
    bids: list[ContractBid],
    league: League,
    round_number: int,
    total_rounds: int,
    holders: dict[str, tuple[Team, Player]] | None = None,
) -> list[str]:
    """Every problem with a team's contract bids, each as a sentence."""
    problems: list[str] = []
    if not bids:
        return problems
    open_names = {
        s.name.casefold(): s for s in contract_players_open_for_bids(league, round_number, holders)
    }
    seen: set[str] = set()
    for bid in bids:
        spec = open_names.get(bid.contract_player.casefold())
        if spec is None:
            problems.append(f"{bid.contract_player} is not a contract player open for bids now.")
            continue
        if spec.name in seen:
            problems.append(f"Only one bid per contract player: {spec.name} is bid on twice.")
        seen.add(spec.name)
        if bid.rounds not in CONTRACT_LENGTHS:
            problems.append(
                f"A contract with {spec.name} lasts 2, 3 or 4 rounds, not {bid.rounds}."
            )
        elif round_number + bid.rounds > total_rounds:
            problems.append(
                f"A {bid.rounds}-round contract with {spec.name} starting next round would last "
                "beyond the end of the season; contracts never do."
            )
        if bid.pay_per_round < 1:
            problems.append(f"The pay offered to {spec.name} must be at least $1 a round.")
    return problems


def release_ended_contracts(league: League, round_number: int, events: list[str]) -> None:
    """Contract players whose contract ends with `round_number` leave their team."""
    for team in league.teams:
        for player in list(team.players):
            if player.is_contract and player.contract_last_round <= round_number:
                team.players.remove(player)
                events.append(f"{possessive(player.name)} contract with {team.name} has ended.")


def choose_contract_bid(
    bids: list[tuple[str, ContractBid]], rng: random.Random, events: list[str]
) -> tuple[str, ContractBid]:
    """Rule 7: "The contractplayer always chooses for the team that pays the most and when the
    pay is the same, they choose for the longest contract. When all conditions are the same,
    they make a random choice." Pay means the pay per round."""
    best = max((bid.pay_per_round, bid.rounds) for _team, bid in bids)
    top = sorted(
        (entry for entry in bids if (entry[1].pay_per_round, entry[1].rounds) == best),
        key=lambda e: e[0],
    )
    names = [team for team, _bid in top]
    return top[_draw_between(names, rng, top[0][1].contract_player, events)]


def resolve_contract_players(
    league: League,
    bids_by_team: dict[str, list[ContractBid]],
    round_number: int,
    rng: random.Random,
    events: list[str],
    ledger: list[economy.MoneyEntry] | None = None,
    private: dict[str, list[str]] | None = None,
) -> None:
    """Step 10: ended contracts end, then every open contract player signs with the team
    rule 7 says he chooses. The bonus (10 %/20 % of the whole contract's pay for 3/4 rounds)
    is paid now; a bid whose bonus would take the team below -$1,000 is not valid."""
    open_specs = contract_players_open_for_bids(league, round_number)
    release_ended_contracts(league, round_number, events)
    for spec in open_specs:
        valid: list[tuple[str, ContractBid]] = []
        for team_name, bids in bids_by_team.items():
            for bid in bids:
                if bid.contract_player.casefold() != spec.name.casefold():
                    continue
                team = league.team(team_name)
                if team is None:
                    continue
                bonus = economy.contract_bonus(bid.pay_per_round, bid.rounds)
                if not economy.within_credit(team.money - bonus):
                    economy.private_line(
                        events,
                        private,
                        team.name,
                        economy.refused_for_credit(
                            team, f"contract bid for {spec.name}", f"the bonus of ${bonus}"
                        ),
                    )
                    continue
                valid.append((team.name, bid))
        if not valid:
            continue
        winner_name, bid = choose_contract_bid(valid, rng, events)
        team = league.known_team(winner_name)
        bonus = economy.contract_bonus(bid.pay_per_round, bid.rounds)
        economy.book(team, -bonus, "contract bonus", ledger)
        name = unique_player_name(team, spec.name)
        team.players.append(
            Player(
                name,
                AGE_CONTRACT,
                spec.ol,
                spec.dl,
                contract_pay_per_round=bid.pay_per_round,
                contract_last_round=round_number + bid.rounds,
            )
        )
        events.append(
            f"{spec.name} signs with {team.name} for {bid.rounds} rounds at "
            f"${bid.pay_per_round} a round (bonus ${bonus}), rounds {round_number + 1}"
            f"-{round_number + bid.rounds}."
        )
