"""Rollerball moves picked, not typed (docs/rules/rollerball.md "On Discord"): walking every
button and menu of the live card and of the deciding player's panel, pick after pick, reaches
exactly the engine's legal actions, in every position of seeded games of both editions, 2 to 6
players, both boards; within Discord's limits; and the card never depends on a hidden card."""

from __future__ import annotations

import random
from itertools import combinations
from typing import cast

import pytest

from cogs.rollerball import picks
from cogs.rollerball.presenter import RollerballAdapter
from host import FORM, ButtonSpec, Match, Step
from host.adapter import Picked, SelectSpec, in_menus, move_arg
from rules.rollerball import (
    ENGINE,
    Bid,
    Pass,
    Play,
    Settings,
    Table,
    choose_action,
    kind_of,
    new_game,
    next_step,
    view_for,
)

ADAPTER = RollerballAdapter()


def games(edition: str, players: int, board: int, seed: int, actions: int = 260):
    """Every position of a seeded game of random seats (the table, the seat deciding)."""
    game, _ = new_game(seed, Settings(edition=edition, players=players, board=board))
    table = Table(game, tuple(range(players)))
    rng = random.Random(seed)
    for _ in range(actions):
        if table.over:
            return
        seat = min(ENGINE.actors(table))
        yield table, seat
        action = Play(choose_action(view_for(table.game, seat), rng, "random"), board)
        table, _ = ENGINE.apply(table, seat, action)


def normal(play: object) -> Play:
    """A move (never a pick still to finish); a bid names its cards in any order: compare them
    sorted."""
    assert isinstance(play, Play), play
    if isinstance(play.action, Bid):
        return Play(Bid(tuple(sorted(play.action.kinds))), play.size)
    return play


def legal_plays(table: Table, seat: int) -> list[Play]:
    """The seat's legal moves: plays only (a resignation is /rollerball resign, never picked)."""
    plays = ENGINE.legal_actions(table, seat)
    assert all(isinstance(play, Play) for play in plays), plays
    return cast(list[Play], plays)


def panel_rows(specs) -> int:
    selects = sum(isinstance(spec, SelectSpec) for spec in specs)
    buttons = sum(isinstance(spec, ButtonSpec) for spec in specs)
    return selects + -(-buttons // 5)


def reachable(table: Table, seat: int) -> set[Play]:
    """Every move the card's and the seat's panel's controls make, every pick followed."""
    found: set[Play] = set()
    buttons, selects = picks.card_controls(table)
    assert len(selects) <= picks.CARD_MENUS
    for spec in buttons:
        if spec.action != FORM:
            found.add(normal(ADAPTER.clicked(table, seat, spec.action, spec.arg)))
    for select in selects:
        assert 1 <= len(select.options) <= 25 and select.max_values == 1
        for _, value in select.options:
            found.add(
                normal(ADAPTER.select_action(table, seat, select.action, select.arg, [value]))
            )
    match = Match(table, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], "s", "c")
    seen: set[str | None] = set()

    def walk(picked: str | None) -> None:
        seen.add(picked)
        specs = ADAPTER.private_controls(match, seat, picked)
        assert panel_rows(specs) <= 5, (picked, specs)
        results = []
        for spec in specs:
            if isinstance(spec, ButtonSpec):
                results.append(ADAPTER.clicked(table, seat, spec.action, spec.arg))
                continue
            assert 1 <= len(spec.options) <= 25
            values = [value for _, value in spec.options]
            chosen = (
                [
                    list(group)
                    for n in range(spec.min_values, len(values) + 1)
                    for group in combinations(values, n)
                ]
                if spec.max_values > 1
                else [[value] for value in values]
            )
            results += [
                ADAPTER.select_action(table, seat, spec.action, spec.arg, group) for group in chosen
            ]
        for result in results:
            if isinstance(result, Picked):
                if result.arg not in seen and result.arg != picks.NO_PICK:
                    walk(result.arg)
            else:
                found.add(normal(result))

    walk(None)
    return found


@pytest.mark.parametrize(
    ("edition", "players", "board", "seed"),
    [
        ("later", 2, 9, 1),
        ("later", 4, 9, 2),
        ("earlier", 3, 9, 3),
        ("later", 6, 11, 4),
        ("earlier", 5, 11, 5),
    ],
)
def test_every_legal_action_and_nothing_else_can_be_picked(edition, players, board, seed):
    kinds = set()
    for table, seat in games(edition, players, board, seed):
        legal = {normal(play) for play in ENGINE.legal_actions(table, seat)}
        assert reachable(table, seat) == legal, next_step(table.game).kind
        kinds.add(next_step(table.game).kind)
    assert {"bid", "base", "workman", "ball", "card", "move", "action"} <= kinds


def test_the_card_is_the_same_whatever_the_hidden_cards():
    """The card's controls come from public information only: dealing every hidden card
    (the others' hands, the deck) differently never changes them."""
    for table, _ in games("later", 4, 9, 8):
        game = table.game.clone()
        hidden = [card for hand in game.hands for card in hand] + game.deck
        random.Random(len(game.log)).shuffle(hidden)
        for other in range(game.players):
            count = len(game.hands[other])
            game.hands[other], hidden = hidden[:count], hidden[count:]
        game.deck = hidden
        redealt = Table(game, table.humans)
        assert picks.card_controls(table) == picks.card_controls(redealt)


def test_a_pick_that_names_one_move_makes_it_and_back_undoes_a_pick():
    for table, seat in games("later", 2, 9, 6):
        if next_step(table.game).kind != "card":
            continue
        match = Match(table, ["Ann", "Ben"], "s", "c")
        menu = ADAPTER.private_controls(match, seat, None)[0]
        assert isinstance(menu, SelectSpec)
        kind = menu.options[0][1]
        picked = ADAPTER.select_action(table, seat, "card", None, [kind])
        assert picked == Picked(kind) or isinstance(picked, Play)
        if isinstance(picked, Picked):
            squares = ADAPTER.private_controls(match, seat, kind)
            back = next(s for s in squares if isinstance(s, ButtonSpec) and s.label == "Back")
            assert ADAPTER.button_action(table, seat, back.action, back.arg) == Picked("-")
            assert ADAPTER.private_controls(match, seat, "-")[0] == menu
        return
    raise AssertionError("no set-up round of cards in the game")


def test_a_finished_pick_is_the_moves_own_command():
    """What a button carries is the move's command, so a click and a typed move are one path."""
    for table, seat in games("later", 3, 9, 9):
        for play in legal_plays(table, seat):
            if not isinstance(play.action, Bid):
                assert picks.decode(table, seat, move_arg(ENGINE, play)) == play
        if next_step(table.game).kind == "action":
            return


def test_squares_are_split_into_even_menus_of_at_most_25():
    assert [len(band) for band in in_menus(list(range(81)), 5)] == [21, 20, 20, 20]
    assert [len(band) for band in in_menus(list(range(121)), 5)] == [25, 24, 24, 24, 24]
    assert in_menus([3, 4, 5], 5) == [[3, 4, 5]]
    with pytest.raises(ValueError, match="more than 4"):
        in_menus(list(range(101)), 4)


def test_the_hand_menu_lists_each_card_held():
    table = next(games("later", 2, 9, 10))[0]
    match = Match(table, ["Ann", "Ben"], "s", "c")
    menu = ADAPTER.private_controls(match, 0, None)[0]
    assert isinstance(menu, SelectSpec)
    assert [value.split(".")[0] for _, value in menu.options] == [
        kind_of(card) for card in table.game.hands[0]
    ]


@pytest.mark.parametrize(("edition", "seed"), [("later", 6), ("earlier", 7)])
def test_the_card_sends_you_to_my_hand_only_when_there_is_something_to_pick_there(edition, seed):
    """When the only move is the card's own Pass (no card you hold can be placed, your workman
    can do nothing), the card says so and names that button, not "My hand"; the panel agrees."""
    only_passing = with_choice = 0
    for table, seat in games(edition, 2, 9, seed, actions=400):
        kind = next_step(table.game).kind
        if kind not in ("card", "action"):
            continue
        match = Match(engine=table, names=["Ann", "Ben"], salt="s", commitment="c")
        post = ADAPTER.draw_turn(match, Step(table, [], table), game_id=1, final=True)
        choices = [p for p in legal_plays(table, seat) if not isinstance(p.action, Pass)]
        passing = next(b.label for b in post.buttons if b.action == "pass")
        panel = picks.decision_text(table, seat, None) or ""
        if choices:
            with_choice += 1
            assert "**My hand**" in post.body
        else:
            only_passing += 1
            assert "My hand" not in post.body, post.body
            assert f"**{passing}**" in post.body and f"**{passing}**" in panel
    assert only_passing and with_choice
