"""The transfer market, GM offers, contract players and the bank (seed rules 7-9)."""

from __future__ import annotations

import random

from rules.volleyball import economy, market
from rules.volleyball.models import AGE_CONTRACT, League, Player, Team
from rules.volleyball.orders import ContractBid, GmOfferBid, TransferBid, TransferSale


def squad(prefix: str, count: int = 7, age: str = "B") -> list[Player]:
    return [Player(f"{prefix} {chr(65 + i)}", age, 8, 7) for i in range(count)]


def league_of(*teams: Team) -> League:
    return League(teams=list(teams), seed=5)


def listing(seller: str, player: str, minimum: int = 0) -> market.TransferListing:
    return market.TransferListing(seller, player, minimum, listed_in_round=1)


# --- timing --------------------------------------------------------------------------------


def test_no_transfers_in_the_last_three_rounds_no_gm_offers_in_the_last_four() -> None:
    total = 14
    assert [r for r in range(1, 15) if market.transfers_allowed(r, total)] == list(range(1, 12))
    assert [r for r in range(1, 15) if market.gm_offers_allowed(r, total)] == list(range(1, 11))
    # A player offered in round 10 would be sold in round 11: still allowed; round 11 not.
    assert market.listing_allowed(10, total) and not market.listing_allowed(11, total)


# --- the transfer market -------------------------------------------------------------------


def test_highest_bid_buys_the_player_and_the_money_moves() -> None:
    reds, blues, greens = (
        Team("Reds", squad("R"), money=500),
        Team("Blues", squad("B")),
        Team("Greens", squad("G")),
    )
    blues.money, greens.money = 800, 800
    league = league_of(reds, blues, greens)
    events: list[str] = []
    ledger: list[economy.MoneyEntry] = []
    bids = {
        "Blues": [TransferBid("Reds", "R A", 300)],
        "Greens": [TransferBid("Reds", "R A", 350)],
    }
    market.resolve_transfer_market(
        league, [listing("Reds", "R A")], bids, random.Random(1), events, ledger
    )
    assert greens.player("R A") is not None and reds.player("R A") is None
    assert (reds.money, greens.money, blues.money) == (850, 450, 800)
    assert events == ["Greens buys R A from Reds for $350."]
    assert sum(e.amount for e in ledger) == 0


def test_a_bid_below_the_minimum_leaves_the_player_with_his_team() -> None:
    reds, blues = Team("Reds", squad("R")), Team("Blues", squad("B"))
    league = league_of(reds, blues)
    events: list[str] = []
    market.resolve_transfer_market(
        league,
        [listing("Reds", "R A", minimum=400)],
        {"Blues": [TransferBid("Reds", "R A", 399)]},
        random.Random(1),
        events,
    )
    assert reds.player("R A") is not None
    assert "below Reds' minimum of $400" in events[0]


def test_unsold_player_goes_to_the_amateurs_for_compensation() -> None:
    # Age B, 8/7: 15 level points at $45 = $675.
    reds = Team("Reds", squad("R"), money=100)
    league = league_of(reds, Team("Blues", squad("B")))
    events: list[str] = []
    market.resolve_transfer_market(league, [listing("Reds", "R A")], {}, random.Random(1), events)
    assert reds.player("R A") is None
    assert reds.money == 775
    assert events == [
        "Nobody bid on R A (Reds): he joins the amateurs and Reds receives $675 compensation."
    ]


def test_a_bid_that_breaks_the_bank_is_not_valid_and_the_next_one_wins() -> None:
    reds, blues, greens = (
        Team("Reds", squad("R")),
        Team("Blues", squad("B")),
        Team("Greens", squad("G")),
    )
    blues.money = -700  # $400 would take Blues to -$1,100
    greens.money = 0
    league = league_of(reds, blues, greens)
    events: list[str] = []
    market.resolve_transfer_market(
        league,
        [listing("Reds", "R A")],
        {"Blues": [TransferBid("Reds", "R A", 400)], "Greens": [TransferBid("Reds", "R A", 250)]},
        random.Random(1),
        events,
    )
    assert greens.player("R A") is not None
    assert blues.money == -700
    assert events[0] == (
        "Blues' bid of $400 on R A is not valid: it would take the bank account below -$1,000."
    )


def test_equal_bids_are_drawn_by_lot_and_the_draw_is_shown() -> None:
    winners = set()
    for seed in range(12):
        reds, blues, greens = (
            Team("Reds", squad("R")),
            Team("Blues", squad("B")),
            Team("Greens", squad("G")),
        )
        league = league_of(reds, blues, greens)
        events: list[str] = []
        market.resolve_transfer_market(
            league,
            [listing("Reds", "R A")],
            {
                "Blues": [TransferBid("Reds", "R A", 200)],
                "Greens": [TransferBid("Reds", "R A", 200)],
            },
            random.Random(seed),
            events,
        )
        assert events[0].startswith("Equal bids for R A from Blues, Greens: drawn by lot")
        winners.add("Blues" if blues.player("R A") else "Greens")
    assert winners == {"Blues", "Greens"}


def test_listing_problems() -> None:
    reds = Team("Reds", squad("R", count=7))
    reds.players.append(Player("Kasper", AGE_CONTRACT, 18, 10, contract_last_round=4))
    problems = market.listing_problems(
        reds,
        [TransferSale("R A"), TransferSale("R B"), TransferSale("Kasper"), TransferSale("Zed")],
        [],
        round_number=1,
        total_rounds=14,
    )
    assert "Kasper is a contract player and cannot be sold." in problems
    assert "Reds has no player called Zed to sell." in problems
    assert any("would keep 4 players" in p for p in problems)


# --- GM offers -----------------------------------------------------------------------------


def test_gm_offers_go_to_the_highest_bidder_and_a_new_player_gets_his_name() -> None:
    reds, blues = Team("Reds", squad("R"), money=500), Team("Blues", squad("B"), money=500)
    league = league_of(reds, blues)
    offers = [
        market.GmOffer("R1P1", "player", "A", 7, 6),
        market.GmOffer("R1TP", "tp", amount=5),
        market.GmOffer("R1SP", "sp", amount=10),
    ]
    bids = {
        "Reds": [GmOfferBid("R1P1", 300, "Nina Nieuw"), GmOfferBid("R1TP", 90)],
        "Blues": [GmOfferBid("R1P1", 250, "Other"), GmOfferBid("R1TP", 100)],
    }
    events: list[str] = []
    ledger: list[economy.MoneyEntry] = []
    market.resolve_gm_offers(league, offers, bids, random.Random(1), events, ledger)
    nina = reds.player("Nina Nieuw")
    assert (nina.age, nina.ol, nina.dl) == ("A", 7, 6)
    assert blues.training_points == 5 and reds.training_points == 0
    assert (reds.money, blues.money) == (200, 400)
    assert reds.special_points == blues.special_points == 0  # no bid on the SP lot
    assert {e.reason for e in ledger} == {"GM offer"}
    assert events == [
        "Reds buys GM offer R1P1 (a new Age A player, 7/6) for $300 and names him Nina Nieuw.",
        "Blues buys GM offer R1TP (5 training points) for $100.",
    ]


def test_a_gm_offer_bid_beyond_the_credit_limit_is_not_valid() -> None:
    reds, blues = Team("Reds", squad("R"), money=500), Team("Blues", squad("B"), money=500)
    offers = [market.GmOffer("R1SP", "sp", amount=10)]
    bids = {"Reds": [GmOfferBid("R1SP", 1501)], "Blues": [GmOfferBid("R1SP", 20)]}
    events: list[str] = []
    market.resolve_gm_offers(league_of(reds, blues), offers, bids, random.Random(1), events)
    assert (reds.special_points, blues.special_points) == (0, 10)
    assert (reds.money, blues.money) == (500, 480)
    assert events == [
        "Reds' bid of $1501 on GM offer R1SP (10 special points) is not valid: it would take "
        "the bank account below -$1,000.",
        "Blues buys GM offer R1SP (10 special points) for $20.",
    ]


def test_gm_bid_problems() -> None:
    reds = Team("Reds", squad("R"))
    offers = [market.GmOffer("R1P1", "player", "A", 7, 6)]
    problems = market.gm_bid_problems(reds, [GmOfferBid("R1P1", 0), GmOfferBid("R9XX", 10)], offers)
    assert problems == [
        "A bid on GM offer R1P1 must be at least $1.",
        "A bid on the new player of offer R1P1 must give him a name.",
        "There is no GM offer R9XX this round.",
    ]
    taken = market.gm_bid_problems(reds, [GmOfferBid("R1P1", 5, "r a")], offers)
    assert taken == ["The name r a is taken; give the new player another name."]
    reserved = market.gm_bid_problems(
        reds, [GmOfferBid("R1P1", 5, "Kasper Hammer")], offers, ["Kasper Hammer"]
    )
    assert reserved == ["The name Kasper Hammer is taken; give the new player another name."]
    digits = market.gm_bid_problems(reds, [GmOfferBid("R1P1", 5, "Agent 007")], offers)
    assert len(digits) == 1 and "must not start or end with a digit" in digits[0]


def test_gm_offers_drawn_are_legal_and_repeatable() -> None:
    first = market.draw_gm_offers(random.Random(3), 2, players=30)
    assert first == market.draw_gm_offers(random.Random(3), 2, players=30)
    kinds = [o.kind for o in first]
    assert kinds == ["player"] * 30 + ["tp", "sp"]
    assert first[-2].amount == 5 and first[-1].amount == 10
    assert [o.offer_id for o in first[:2]] == ["R2P1", "R2P2"]
    for offer in first[:30]:
        assert 6 <= offer.ol <= 12 and 6 <= offer.dl <= 12
        assert max(offer.ol, offer.dl) <= 2 * min(offer.ol, offer.dl)
        assert offer.age in ("A", "B")
    assert {o.age for o in first[:30]} == {"A", "B"}


def test_one_new_player_per_team_is_offered() -> None:
    assert [market.gm_player_offers(n) for n in (1, 2, 8, 16)] == [2, 2, 8, 16]


# --- contract players ----------------------------------------------------------------------


def contract_league() -> tuple[League, Team, Team]:
    reds, blues = Team("Reds", squad("R"), money=1000), Team("Blues", squad("B"), money=1000)
    return league_of(reds, blues), reds, blues


def test_highest_pay_wins_and_the_bonus_is_paid_up_front() -> None:
    league, reds, blues = contract_league()
    bids = {
        "Reds": [ContractBid("Kasper Hammer", 150, 2)],
        "Blues": [ContractBid("Kasper Hammer", 140, 4)],
    }
    events: list[str] = []
    market.resolve_contract_players(league, bids, 3, random.Random(1), events)
    kasper = reds.player("Kasper Hammer")
    assert kasper.is_contract and (kasper.ol, kasper.dl) == (18, 10)
    assert (kasper.contract_pay_per_round, kasper.contract_last_round) == (150, 5)
    assert reds.money == 1000 and blues.money == 1000  # 2 rounds: no bonus
    assert events == [
        "Kasper Hammer signs with Reds for 2 rounds at $150 a round (bonus $0), rounds 4-5."
    ]


def test_equal_pay_goes_to_the_longest_contract() -> None:
    league, reds, blues = contract_league()
    bids = {
        "Reds": [ContractBid("Ilse Muur", 150, 3)],
        "Blues": [ContractBid("Ilse Muur", 150, 4)],
    }
    market.resolve_contract_players(league, bids, 1, random.Random(1), [])
    assert blues.player("Ilse Muur") is not None
    assert blues.money == 1000 - 120  # 20 % of 4 x $150
    assert reds.money == 1000


def test_a_bonus_beyond_the_credit_limit_makes_the_contract_bid_invalid() -> None:
    league, reds, blues = contract_league()
    blues.money = -900  # the bonus of a 4-round contract at $150 is $120: -$1,020
    bids = {
        "Reds": [ContractBid("Ilse Muur", 100, 2)],
        "Blues": [ContractBid("Ilse Muur", 150, 4)],
    }
    events: list[str] = []
    market.resolve_contract_players(league, bids, 1, random.Random(1), events)
    assert reds.player("Ilse Muur") is not None and blues.player("Ilse Muur") is None
    assert blues.money == -900
    assert events[0] == (
        "Blues' contract bid for Ilse Muur is not valid: the bonus of $120 would take the bank "
        "account below -$1,000."
    )


def test_equal_pay_and_length_is_a_random_choice_shown_to_all() -> None:
    chosen = set()
    for seed in range(12):
        league, reds, _blues = contract_league()
        bids = {
            "Reds": [ContractBid("Ilse Muur", 150, 3)],
            "Blues": [ContractBid("Ilse Muur", 150, 3)],
        }
        events: list[str] = []
        market.resolve_contract_players(league, bids, 1, random.Random(seed), events)
        assert events[0].startswith("Equal bids for Ilse Muur from Blues, Reds: drawn by lot")
        chosen.add("Reds" if reds.player("Ilse Muur") else "Blues")
    assert chosen == {"Reds", "Blues"}


def test_contract_ends_and_the_player_is_open_for_bids_in_his_last_round() -> None:
    league, reds, _blues = contract_league()
    reds.players.append(
        Player(
            "Kasper Hammer", AGE_CONTRACT, 18, 10, contract_pay_per_round=100, contract_last_round=4
        )
    )
    open_round_3 = [s.name for s in market.contract_players_open_for_bids(league, 3)]
    open_round_4 = [s.name for s in market.contract_players_open_for_bids(league, 4)]
    assert "Kasper Hammer" not in open_round_3
    assert "Kasper Hammer" in open_round_4
    events: list[str] = []
    market.resolve_contract_players(league, {}, 4, random.Random(1), events)
    assert reds.player("Kasper Hammer") is None
    assert events == ["Kasper Hammer's contract with Reds has ended."]


def test_contract_bid_problems() -> None:
    league, reds, _blues = contract_league()
    problems = market.contract_bid_problems(
        reds,
        [
            ContractBid("Kasper Hammer", 100, 5),
            ContractBid("Ilse Muur", 0, 4),
            ContractBid("Nobody", 100, 2),
        ],
        league,
        round_number=12,
        total_rounds=14,
    )
    assert problems == [
        "A contract with Kasper Hammer lasts 2, 3 or 4 rounds, not 5.",
        "A 4-round contract with Ilse Muur starting next round would last beyond the end of "
        "the season; contracts never do.",
        "The pay offered to Ilse Muur must be at least $1 a round.",
        "Nobody is not a contract player open for bids now.",
    ]


# --- the bank ------------------------------------------------------------------------------


def test_bank_gives_one_round_then_fires_contract_players_and_sells_players() -> None:
    reds = Team("Reds", squad("R", count=8, age="C"), money=-1400)  # C 8/7 -> $450 each
    reds.players.append(
        Player(
            "Kasper Hammer", AGE_CONTRACT, 18, 10, contract_pay_per_round=100, contract_last_round=9
        )
    )
    league = league_of(reds)
    events: list[str] = []
    economy.apply_bank_rule(league, 3, events)
    assert reds.below_credit_since_round == 3 and len(reds.players) == 9
    assert events == [
        "Reds' bank account is -$1,400, below -$1,000: the manager has one round to put it "
        "right before the bank takes measures."
    ]

    events = []
    economy.apply_bank_rule(league, 4, events)
    # Kasper fired; one $450 player sells the account to -$950, which is acceptable.
    assert reds.player("Kasper Hammer") is None
    assert len(reds.players) == 7 and reds.money == -950
    assert reds.below_credit_since_round is None
    assert events[0] == "The bank fires contract player Kasper Hammer from Reds."
    assert events[1].startswith("The bank sells R ") and events[1].endswith("for $450.")


def test_bank_never_takes_a_team_below_six_players() -> None:
    reds = Team("Reds", squad("R", count=7, age="D"), money=-5000, below_credit_since_round=1)
    events: list[str] = []
    economy.apply_bank_rule(league_of(reds), 2, events)
    assert len(reds.players) == 6
    assert reds.money == -5000 + 15 * 15
    assert reds.below_credit_since_round == 1  # measures again next round
    assert events[-1] == "Reds is still at -$4,775 in the bank after the bank's measures."


def test_a_team_that_recovers_is_forgiven() -> None:
    reds = Team("Reds", squad("R"), money=-900, below_credit_since_round=2)
    economy.apply_bank_rule(league_of(reds), 3, [])
    assert reds.below_credit_since_round is None


def test_transfer_bid_problems() -> None:
    reds = Team("Reds", squad("R"))
    on_list = [listing("Blues", "B A"), listing("Reds", "R A")]
    problems = market.transfer_bid_problems(
        reds,
        [
            TransferBid("Blues", "b a", 100),
            TransferBid("Blues", "B A", 120),
            TransferBid("Reds", "R A", 50),
            TransferBid("Greens", "G A", 0),
        ],
        on_list,
        round_number=2,
        total_rounds=14,
    )
    assert problems == [
        "Only one bid per player: B A is bid on twice.",
        "Reds cannot bid on its own player R A.",
        "G A of Greens is not on the transfer list.",
        "A bid on G A must be at least $1.",
    ]
    late = market.transfer_bid_problems(
        reds, [TransferBid("Blues", "B A", 100)], on_list, round_number=12, total_rounds=14
    )
    assert late == ["There are no transfers in the last three rounds of the season."]
