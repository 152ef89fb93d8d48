"""The Rollerball adapter without Discord: what players may type at each step and what they are
told when it is wrong, who sees which cards, resigning, outcomes and records."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cogs.rollerball.presenter import RollerballAdapter
from cogs.rollerball.texts import cards_text
from host import Match, Step
from host.card import card_text
from rules.rollerball import (
    ENGINE,
    Bid,
    Move,
    Pass,
    PlaceBase,
    Play,
    Resign,
    RollerballBoardError,
    Table,
    actors,
    card_name,
    choose_action,
    kind_of,
    next_step,
    verify_record,
    view_for,
)

ADAPTER = RollerballAdapter()
NAMES = ["Ann", "Ben", "Cat"]


def new_match(players: int = 3, *, seed: int = 11, humans=None, **options) -> Match:
    table, _ = ENGINE.new_state(
        seed,
        {"players": players, "human_seats": list(range(players)) if humans is None else humans}
        | options,
    )
    return Match(
        engine=table, names=NAMES[:players], salt="ab" * 16, commitment="c" * 64, computers={}
    )


def advance_to(match: Match, kind: str, rng_seed: int = 1) -> Match:
    """Play sensible moves for every seat until the game waits for `kind`."""
    rng = random.Random(rng_seed)
    table = match.engine
    for _ in range(2000):
        if next_step(table.game).kind == kind:
            match.engine = table
            return match
        seat = min(actors(table.game))
        action = Play(choose_action(view_for(table.game, seat), rng, "random"))
        table, _ = ENGINE.apply(table, seat, action)
    raise AssertionError(f"never reached {kind}")


def typed(table: Table, seat: int, text: str) -> object:
    """The engine action a typed command makes (never a resignation here)."""
    play = ADAPTER.parse_text(table, seat, text)
    assert isinstance(play, Play), play
    return play.action


# --- typing -----------------------------------------------------------------------------------


def test_short_answers_are_completed_for_the_step():
    match = new_match()
    table = match.engine
    kinds = sorted(kind_of(card) for card in table.game.hands[0])[:2]
    assert typed(table, 0, " ".join(kinds)) == Bid(tuple(kinds))
    assert typed(table, 0, "0") == Bid(())
    assert typed(table, 0, "none") == Bid(())
    based = advance_to(new_match(), "base").engine
    seat = min(actors(based.game))
    assert typed(based, seat, "C3") == PlaceBase(20)  # c3: column 2, row 2
    moving = advance_to(new_match(), "move").engine
    seat = moving.game.current
    home = moving.game.workmen[seat]
    assert typed(moving, seat, "stay") == Move(home, home)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("fly away", "“fly” is not a card; the cards are: up-move"),
        ("bid 2 up-move", "You bid 2 but named 1 cards"),
        ("bid 1 lasers", "is not a card"),
        ("base c3", "That is not what the game waits for"),
        ("", "Type your move."),
    ],
)
def test_a_refusal_says_what_is_wrong_and_every_form_accepted_now(typed, said):
    table = new_match().engine
    with pytest.raises(RollerballBoardError) as refused:
        ADAPTER.parse_text(table, 0, typed)
    assert said in str(refused.value)
    assert "`bid 2 up-move energiser`" in str(refused.value) and "`bid 0`" in str(refused.value)


def test_the_workman_step_lists_blow_up_only_in_the_later_edition():
    later = advance_to(new_match(), "action").engine
    earlier = advance_to(new_match(edition="earlier"), "action").engine
    for table, has_blow_up in ((later, True), (earlier, False)):
        seat = table.game.current
        with pytest.raises(RollerballBoardError) as refused:
            ADAPTER.parse_text(table, seat, "hello")
        assert ("`blow-up replacer`" in str(refused.value)) is has_blow_up


def test_a_bid_larger_than_the_hand_changes_nothing():
    table = new_match().engine
    hand = [kind_of(card) for card in table.game.hands[0]]
    action = ADAPTER.parse_text(table, 0, "bid 6 " + " ".join(hand + hand[:1]))
    before = table.to_dict()
    with pytest.raises(RollerballBoardError, match="You do not hold those cards"):
        ENGINE.apply(table, 0, action)
    assert table.to_dict() == before


def test_the_big_board_needs_five_players():
    with pytest.raises(RollerballBoardError, match="11 by 11 board is for 5 or 6 players"):
        ENGINE.new_state(1, {"players": 4, "board": 11})
    table, _ = ENGINE.new_state(1, {"players": 5, "board": 11})
    assert table.game.settings.board == 11


# --- who sees what ----------------------------------------------------------------------------------


def test_the_hand_view_names_only_its_owners_cards():
    match = new_match()
    game = match.engine.game
    text, files = ADAPTER.private_view(match, 1)
    assert [name for name, _ in files] == ["hand.png"]
    assert f"**Your hand** (Ben, player 2): {cards_text(game.hands[1])} (5 cards" in text
    own = {card_name(kind_of(c)) for c in game.hands[1]}
    others_only = {card_name(kind_of(c)) for s in (0, 2) for c in game.hands[s]} - own
    assert not any(name in text for name in others_only)
    assert "**Your decision:** your secret bid" in text


def test_the_hand_image_is_drawn_from_the_seats_view_only():
    """Dealing the others' cards and the deck differently never changes a seat's panel."""
    match = advance_to(new_match(3), "action")
    table = match.engine
    redealt = table.game.clone()
    hidden = [card for s in (0, 2) for card in redealt.hands[s]] + redealt.deck
    random.Random(4).shuffle(hidden)
    for s in (0, 2):
        count = len(redealt.hands[s])
        redealt.hands[s], hidden = hidden[:count], hidden[count:]
    redealt.deck = hidden
    other = Match(replace(table, game=redealt), NAMES, "s", "c")
    assert ADAPTER.private_view(match, 1) == ADAPTER.private_view(other, 1)


def test_cards_that_arrived_since_the_panel_was_last_drawn_are_marked_new():
    match = advance_to(new_match(2), "move")
    seat = match.engine.game.current
    before = match.engine.game.clone()
    drawn = before.hands[seat].pop()  # as if the last card came after the panel was drawn
    since = replace(match.engine, game=before)
    text, _ = ADAPTER.private_view(match, seat, since=since)
    assert f"New since you last used your panel: **{card_name(kind_of(drawn))}**." in text
    assert "New since" not in ADAPTER.private_view(match, seat, since=match.engine)[0]
    assert "New since" not in ADAPTER.private_view(match, seat)[0]


def test_a_secret_bid_shows_only_as_has_bid_until_all_have_bid():
    match = new_match(2)
    table = match.engine
    kinds = tuple(sorted(kind_of(card) for card in table.game.hands[0])[:2])
    after, events = ENGINE.apply(table, 0, Play(Bid(kinds)))
    post = ADAPTER.draw_turn(
        Match(after, NAMES[:2], "s", "c"), Step(table, events, after), game_id=4, final=True
    )
    shown = card_text(post)
    assert post.happened.startswith("• Ann has bid.")
    assert not any(card_name(kind) in shown for kind in kinds)
    assert [b.label for b in post.buttons] == ["Type a move…"] and not post.selects
    assert "Pick it in **My hand** (only you see it)" in shown
    assert ENGINE.simultaneous(after) and ENGINE.actors(after) == {1}
    record = ENGINE.record(after, salt="s", reveal=False)
    assert "bid" not in record.split("\n\n", 1)[1]
    ben_sees = ADAPTER.private_view(Match(after, NAMES[:2], "s", "c"), 1)[0]
    assert "Ann" not in ben_sees and "Your secret bid: not made yet" in ben_sees
    assert ENGINE.format_action(Play(Bid(kinds))) == "bid"


def test_forms_fit_discord_and_name_the_players_own_hand():
    match = advance_to(new_match(), "card")
    seat = match.engine.game.current
    form = ADAPTER.move_form(match, seat)
    assert len(form.title) <= 45 and len(form.label) <= 45 and len(form.placeholder) <= 100
    assert kind_of(match.engine.game.hands[seat][0]) in form.placeholder


# --- resigning -------------------------------------------------------------------------------------


def test_with_two_seats_resigning_ends_the_game_and_the_other_wins():
    match = new_match(2)
    table, _ = ENGINE.apply(match.engine, 1, Resign())
    assert ENGINE.is_over(table) and ENGINE.outcome(table) == ("win", "loss")
    match.engine = table
    assert ADAPTER.result_text(match) == "Ann wins with 0 victory points: Ben resigned."
    with pytest.raises(RollerballBoardError, match="over"):
        ENGINE.apply(table, 0, Play(Pass()))


def test_with_more_people_a_computer_plays_the_resigned_seat_and_never_banks():
    match = advance_to(new_match(3), "move")
    table, _ = ENGINE.apply(match.engine, 2, Resign())
    assert not ENGINE.is_over(table) and table.resigned == (2,)
    rng = random.Random(5)
    for _ in range(3000):
        if ENGINE.is_over(table):
            break
        assert 2 not in ENGINE.actors(table), "the resigned seat never waits"
        seat = min(ENGINE.actors(table))
        action = Play(choose_action(view_for(table.game, seat), rng, "random"))
        table, _ = ENGINE.apply(table, seat, action)
    assert table.game.victory[2] == [], "a resigned seat banks nothing"
    assert ENGINE.outcome(table)[2] == "loss"


def test_when_no_person_is_left_the_game_ends_at_once():
    match = new_match(3, humans=[0])
    table, events = ENGINE.apply(match.engine, 0, Resign())
    assert ENGINE.is_over(table) and table.final_winners == (1, 2)
    assert ENGINE.outcome(table) == ("loss", "draw", "draw")
    assert events[-1].text == "The game ends: Player 2 and Player 3 share the win."


def test_a_record_with_a_resignation_still_verifies():
    match = advance_to(new_match(2), "move")
    table, _ = ENGINE.apply(match.engine, 0, Resign())
    text = ENGINE.record(table, salt="ab" * 16, reveal=True)
    assert text.endswith("\nP1 resign\n") and '[Result "Player 2"]' in text
    assert verify_record(text) == []


def test_an_unknown_command_at_a_placing_step_is_named_with_the_forms():
    table = advance_to(new_match(), "base").engine
    seat = min(actors(table.game))
    with pytest.raises(RollerballBoardError) as refused:
        ADAPTER.parse_text(table, seat, "jump over e2")
    assert str(refused.value).startswith("`jump over e2` is not a move I know. Now you can type:")
    assert "`base c3` (a free corner square of rings 1-3" in str(refused.value)


def test_a_computer_seat_chooses_from_its_own_view_only():
    """Dealing the others' cards and the deck differently (same counts) never changes a
    computer seat's choice: it reads only what its seat may see."""
    table = advance_to(new_match(3), "action").engine
    seat = table.game.current
    others = [s for s in range(3) if s != seat]
    hidden = [card for s in others for card in table.game.hands[s]] + table.game.deck
    random.Random(9).shuffle(hidden)
    redealt = table.game.clone()
    for s in others:
        count = len(redealt.hands[s])
        redealt.hands[s], hidden = hidden[:count], hidden[count:]
    redealt.deck = hidden
    assert redealt.hands != table.game.hands
    for level in ("sensible", "random"):
        first = ENGINE.computer_action(table, seat, level, random.Random(3))
        second = ENGINE.computer_action(replace(table, game=redealt), seat, level, random.Random(3))
        assert first == second


def test_a_players_name_ending_in_s_takes_an_apostrophe_alone():
    """The engine says "Player 1's workman"; Chris reads "Chris' workman", Ann "Ann's base"."""
    from cogs.rollerball.texts import with_names

    names = {0: "Chris", 1: "Ann"}
    said = "A ball hits Player 1's workman: back to base. A ball runs over Player 2's base."
    assert with_names(said, names) == (
        "A ball hits Chris' workman: back to base. A ball runs over Ann's base."
    )
    assert with_names("Player 1 bids.", names) == "Chris bids."
