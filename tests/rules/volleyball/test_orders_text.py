"""Text for every order type, orders sent in pieces merged, a message read
from form text all the way through play_round, the league state's schema version, and a
user taking over a computer team's seat in a running league."""

from __future__ import annotations

import pytest

from rules.volleyball.creation import PlayerDraft, create_team
from rules.volleyball.managers import new_computer_league, play_computer_season
from rules.volleyball.orderform import format_round_forms
from rules.volleyball.orders import (
    AgeingSplit,
    ContractBid,
    GmOfferBid,
    RoundOrders,
    SpyOrder,
    TrainingOrder,
    TransferBid,
    TransferSale,
    VolleyballError,
)
from rules.volleyball.ordertext import format_orders_text, parse_orders_text, submit_orders
from rules.volleyball.rounds import play_round, round_fixtures
from rules.volleyball.season import SCHEMA_VERSION, LeagueState
from rules.volleyball.seats import take_over_seat
from tests.rules.volleyball.test_rounds import basic_orders, starting_orders


@pytest.fixture
def league() -> LeagueState:
    return new_computer_league(4, seed=21)


def test_every_order_type_reads_back_from_its_text(league: LeagueState) -> None:
    team = league.league.teams[0]
    orders = RoundOrders(
        team=team.name,
        training=[TrainingOrder(team.players[0].name, 1, 0)],
        scout_talents=["Nina Nieuw", "Otto Oost"],
        spies=[SpyOrder("Blue Whales", 2, True)],
        sponsor="Champion Cola",
        sales=[TransferSale(team.players[1].name, 300)],
        transfer_bids=[TransferBid("Red Rockets", "Piet Put", 350)],
        gm_offer_bids=[GmOfferBid("R1P1", 250, "Jan Jansen"), GmOfferBid("R1TP", 60)],
        contract_bids=[ContractBid("Ilse Muur", 150, 3)],
        ageing=[AgeingSplit(team.players[2].name, 3)],
    )
    read = parse_orders_text(format_orders_text(orders), team)
    assert read.orders.to_dict() == orders.to_dict()


def test_a_bad_order_line_names_its_line(league: LeagueState) -> None:
    team = league.league.teams[0]
    with pytest.raises(VolleyballError) as raised:
        parse_orders_text("SPONSOR: Champion Cola\nBID: Piet Put 350\nSPY: Reds", team)
    assert [p.split(":")[0] for p in raised.value.problems] == ["Line 2", "Line 3"]


def test_orders_sent_in_pieces_are_merged(league: LeagueState) -> None:
    name = league.league.teams[0].name
    team = league.league.team(name)
    assert team is not None
    fixtures = round_fixtures(league, 1)
    full = starting_orders(league, name)
    first = full.matches[0]
    text_first = format_round_forms(team, fixtures, RoundOrders(name, matches=[first]))
    # Only the form for the first match is filled in; send that one alone.
    chunks = text_first.split("VOLLEYBALL")
    one_form = "VOLLEYBALL" + next(c for c in chunks[1:] if f"MATCH NO.: {first.match_number}" in c)
    check = submit_orders(league, name, text=one_form)
    assert check.accepted, check.problems
    assert [m.match_number for m in check.orders.matches] == [first.match_number]
    assert len(check.warnings) == len(full.matches) - 1  # the others have no line-up yet

    rest = [m for m in full.matches if m is not first]
    later = submit_orders(
        league, name, orders=RoundOrders(name, matches=rest), on_file=check.orders
    )
    assert later.accepted
    sponsor = submit_orders(league, name, text="SPONSOR: Champion Cola", on_file=later.orders)
    scout = submit_orders(
        league, name, orders=RoundOrders(name, scout_talents=["Nina Nieuw"]), on_file=sponsor.orders
    )
    assert scout.orders.sponsor == "Champion Cola" and len(scout.orders.matches) == len(
        full.matches
    )
    assert sponsor.accepted and sponsor.warnings == []
    assert [m.match_number for m in sponsor.orders.matches] == sorted(
        m.match_number for m in full.matches
    )
    assert sponsor.orders.sponsor == "Champion Cola"


def test_bad_orders_are_refused_whole_and_the_old_ones_stay(league: LeagueState) -> None:
    name = league.league.teams[0].name
    on_file = basic_orders(league, name)
    check = submit_orders(league, name, text="SPONSOR: Moon Money", on_file=on_file)
    assert not check.accepted
    assert any("Moon Money" in p for p in check.problems)


def test_a_message_of_forms_and_order_lines_reaches_play_round() -> None:
    league = new_computer_league(6, seed=21)  # four rounds or fewer have no GM offers
    name = league.league.teams[0].name
    team = league.league.team(name)
    assert team is not None
    fixtures = round_fixtures(league, 1)
    offer = next(o for o in league.gm_offers if o.kind == "player")
    text = format_round_forms(team, fixtures, basic_orders(league, name)) + (
        f"SCOUT: Nina Nieuw\nSPONSOR: Champion Cola\nGM BID: {offer.offer_id} 400 name Jan Nieuw\n"
    )
    check = submit_orders(league, name, text=text)
    assert check.accepted, check.problems
    after, report = play_round(league, {name: check.orders})
    played = after.league.team(name)
    assert played.player("Nina Nieuw") is not None and played.player("Nina Nieuw").is_talent
    assert played.sponsor == "Champion Cola"
    assert played.player("Jan Nieuw") is not None
    assert name not in report.nmr_teams


def test_the_state_has_a_schema_version_and_refuses_a_newer_one(league: LeagueState) -> None:
    data = league.to_dict()
    assert data["schema_version"] == SCHEMA_VERSION
    old = dict(data)
    del old["schema_version"]  # a league saved before versions were written
    assert LeagueState.from_dict(old).to_dict() == data
    with pytest.raises(VolleyballError, match="newer"):
        LeagueState.from_dict(dict(data, schema_version=SCHEMA_VERSION + 1))


def test_a_user_takes_over_a_computer_teams_seat_in_a_running_league(
    league: LeagueState,
) -> None:
    state, _report = play_round(league, {})
    seat = state.league.teams[1].name
    config = state.league.config
    levels = [("A", 10, 10), ("B", 12, 12), ("C", 8, 8), ("C", 8, 8), ("D", 12, 12), ("E", 10, 10)]
    drafts = [
        PlayerDraft(f"Player {'ABCDEF'[i]}", age, ol, dl) for i, (age, ol, dl) in enumerate(levels)
    ]
    mine = create_team("Harbour Hawks", drafts, config, manager_id="42")
    after = take_over_seat(state, seat, "42", mine)
    assert after.league.team(seat) is None
    hawks = after.league.team("Harbour Hawks")
    assert hawks.manager_id == "42" and hawks.special_points == config.special_points_per_season
    names = {n for f in after.league.schedule for n in (f.home, f.away)}
    assert "Harbour Hawks" in names and seat not in names
    assert any("Harbour Hawks" in (r.fixture.home, r.fixture.away) for r in after.league.results)
    assert state.league.team(seat) is not None  # the original state is untouched
    with pytest.raises(VolleyballError, match="managed"):
        take_over_seat(after, "Harbour Hawks", "7")
    with pytest.raises(VolleyballError, match="already"):
        take_over_seat(after, state.league.teams[2].name, "9", mine)


def test_a_misspelt_name_in_an_order_line_gets_the_nearest_name() -> None:
    league = new_computer_league(6, seed=21)  # long enough for the transfer market
    team = league.league.teams[0]
    player = team.players[0].name
    typo = player[:-1] + ("x" if player[-1] != "x" else "y")
    check = submit_orders(league, team.name, text=f"SELL: {typo}\nTRAIN: {typo} OL")
    assert len(check.problems) == 2
    assert all(p.endswith(f"Did you mean {player}?") for p in check.problems)


def test_an_upload_over_100_kb_is_refused_and_the_old_orders_stay(league: LeagueState) -> None:
    name = league.league.teams[0].name
    on_file = basic_orders(league, name)
    check = submit_orders(league, name, text="# note\n" * 15_000, on_file=on_file)
    assert not check.accepted and "100 KB" in check.problems[0]
    assert check.orders is on_file


def test_the_printed_forms_carry_the_teams_division() -> None:
    state = new_computer_league(8, seed=5, divisions=[4, 4])
    team = next(t for t in state.league.teams if t.division == 2)
    text = format_round_forms(team, round_fixtures(state, 1))
    assert "DIVISION NO.: 2" in text


def test_between_seasons_only_ageing_splits_are_taken() -> None:
    final, _reports = play_computer_season(new_computer_league(4, seed=21))
    team = final.league.teams[0]
    player = next(p for p in team.players if p.age in ("A", "B"))
    check = submit_orders(final, team.name, text=f"AGEING: {player.name} OL 3")
    assert check.accepted and check.orders.ageing == [AgeingSplit(player.name, 3)]
    wrong = submit_orders(final, team.name, text=f"AGEING: {player.name} OL 1\nSPONSOR: x")
    assert wrong.problems[0].startswith("The season is over")
    assert any("OL can lose" in p for p in wrong.problems)


def test_an_order_line_without_its_colon_is_told_in_the_form_that_is_read(
    league: LeagueState,
) -> None:
    name = league.league.teams[0].name
    check = submit_orders(league, name, text="SPONSOR Champion Cola\nTRAIN Bob OL")
    assert check.problems == [
        "Line 1: an order line has a colon after its label: write SPONSOR: Champion Cola",
        "Line 2: an order line has a colon after its label: write TRAIN: Bob OL",
        # read as the orders they are, so what is wrong with them comes in the same answer
        f"{league.league.teams[0].name} has no player called Bob to train.",
    ]


def test_every_problem_comes_in_one_answer_and_a_misspelt_label_is_named(
    league: LeagueState,
) -> None:
    """A newcomer's order lines with a label lacking its colon, a misspelt label and training
    the team has no points for: one answer names all three, nothing is passed on to the
    form reader as a line it does not understand."""
    team = league.league.teams[0]
    player = team.players[0].name
    assert team.training_points == 0
    check = submit_orders(
        league, team.name, text=f"sponsor Champion Cola\ntrian {player} OL\nTRAIN: {player}"
    )
    assert not check.accepted
    assert check.problems == [
        "Line 1: an order line has a colon after its label: write SPONSOR: Champion Cola",
        f"Line 2: 'trian' is not an order label; did you mean TRAIN? Write TRAIN: {player} OL",
        "Line 3: write TRAIN: PLAYER OL, TRAIN: PLAYER DL or TRAIN: PLAYER OL DL.",
        f"The training uses 1 training points but {team.name} has only 0.",
    ]
    assert check.warnings == []  # nothing said of line-ups "missing" from a refused message


def test_a_form_label_or_a_players_line_is_not_taken_for_a_misspelt_order_label(
    league: LeagueState,
) -> None:
    """TRAINING heads the form's training section and AGAINST names the opponent: they are
    the form's, close as they are to TRAIN and AGEING."""
    team = league.league.teams[0]
    fixtures = round_fixtures(league, 1)
    forms = format_round_forms(team, fixtures)
    check = submit_orders(league, team.name, text=forms)
    assert not any("not an order label" in p for p in check.problems), check.problems
