"""cogs/volleyball/editor.py without Discord: what the orders editor's menus offer and what a
pick does to the draft, when a stored draft is outdated, and that the editor always fits
Discord's limits (custom_ids of at most 100 characters, a message of at most 2,000, at most
25 options a menu)."""

from __future__ import annotations

import re

import pytest

from cogs.volleyball.editor import (
    EditorButton,
    EditorSelect,
    Where,
    choose_concept,
    choose_players,
    choose_positions,
    concept_options,
    editor_text,
    editor_view,
    outdated,
    position_options,
    roster_options,
    set_of,
    start_draft,
)
from rules.volleyball import (
    Concept,
    MatchOrders,
    PlayerDraft,
    Position,
    RoundOrders,
    SeasonConfig,
    SetOrder,
    create_team,
    new_league,
    submit_orders,
    take_over_seat,
)
from ui import UserError
from ui.formats import plural


@pytest.fixture(scope="module")
def league():
    return new_league([], total_teams=8, seed=3)


def where_for(draft, set_number: int = 1) -> Where:
    return Where(12, 1574281074454822916, 1, 1, draft.matches[0].match_number, set_number)


def test_a_new_draft_is_the_orders_on_file_else_the_starting_lineup(league):
    team = league.league.teams[0]
    fresh = start_draft(league, team, None)
    assert [len(m.sets) for m in fresh.matches] == [5, 5] and fresh.base == [None, None]
    first = fresh.matches[0]
    on_file = RoundOrders(team=team.name, matches=[MatchOrders.from_dict(first.to_dict())])
    on_file.matches[0].sets[0].concept = Concept.OFFENSIVE
    on_file.matches[0].sets[0].risk = 7
    from_file = start_draft(league, team, on_file)
    assert from_file.matches[0].sets[0].concept is Concept.OFFENSIVE
    assert from_file.matches[1].to_dict() == fresh.matches[1].to_dict()
    assert not outdated(from_file, on_file)


def test_a_draft_is_outdated_when_the_orders_on_file_change_another_way(league):
    team = league.league.teams[0]
    draft = start_draft(league, team, None)
    set_of(draft, where_for(draft)).concept = Concept.DEFENSIVE  # an unsaved edit
    assert not outdated(draft, None)
    assert not outdated(draft, RoundOrders(team=team.name, sponsor="Champion Cola"))
    sent = start_draft(league, team, None)  # the orders form sent the starting line-up
    sent_orders = RoundOrders(team=team.name, matches=sent.matches)
    assert outdated(draft, sent_orders)
    saved = RoundOrders(team=team.name, matches=draft.matches)  # the draft itself was saved
    assert not outdated(draft, saved)


def test_players_who_stay_keep_their_positions_and_new_ones_play_allround(league):
    team = league.league.teams[0]
    draft = start_draft(league, team, None)
    set_order = set_of(draft, where_for(draft))
    set_order.slots[0].position = Position.SETTER
    staying = set_order.player_names[:5]
    newcomer = next(p.name for p in team.players if p.name not in set_order.player_names)
    choose_players(set_order, team, [*staying, newcomer])
    assert set_order.player_names == [*staying, newcomer]
    assert set_order.slots[0].position is Position.SETTER
    assert set_order.slots[5].position is Position.ALLROUND
    with pytest.raises(UserError, match="not in"):
        choose_players(set_order, team, ["Nobody Here"])


def test_positions_not_picked_are_allround_and_one_player_plays_one_position(league):
    team = league.league.teams[0]
    draft = start_draft(league, team, None)
    set_order = set_of(draft, where_for(draft))
    first, second = set_order.player_names[:2]
    choose_positions(set_order, [f"1:{first}", f"5:{second}"])
    assert [s.position for s in set_order.slots[:3]] == [
        Position.SETTER,
        Position.BLOCKER,
        Position.ALLROUND,
    ]
    before = [s.position for s in set_order.slots]
    with pytest.raises(UserError, match="plays one position"):
        choose_positions(set_order, [f"1:{first}", f"2:{first}"])
    assert [s.position for s in set_order.slots] == before  # nothing changed
    options = position_options(set_order)
    assert len(options) == 24 and sum(o.default for o in options) == 2


def test_the_concept_menu_offers_exactly_the_legal_concept_and_risk_pairs(league):
    team = league.league.teams[0]
    options = concept_options(SetOrder())
    assert len(options) == 23 and len({o.value for o in options}) == 23
    assert [o.label for o in options if o.default] == ["NC (Neutral), risk 3"]
    draft = start_draft(league, team, None)
    match = draft.matches[0]
    for option in options:
        concept, risk = (int(x) for x in option.value.split(":"))
        match.sets[0].concept, match.sets[0].risk = Concept(concept), risk
        check = submit_orders(league, team.name, orders=RoundOrders(team.name, [match]))
        assert not any("risk factor" in p for p in check.problems), option.label


def test_the_roster_menu_holds_at_most_25_and_always_the_sets_players(league):
    team = league.league.teams[0]
    draft = start_draft(league, team, None)
    set_order = set_of(draft, where_for(draft))
    options = roster_options(team, set_order)
    assert len(options) == len(team.players) and sum(o.default for o in options) == 6
    big = type(team).from_dict(team.to_dict())
    weak = big.players[-1]
    for number in range(30):
        clone = type(weak)(**{**vars(weak), "name": f"Reserve {number:02d}", "ol": 1, "dl": 1})
        big.players.append(clone)
    options = roster_options(big, set_order)
    assert len(options) == 25
    assert {o.value for o in options if o.default} == set(set_order.player_names)


def test_the_editor_fits_discord_and_its_ids_are_its_components(league):
    team = league.league.teams[0]
    draft = start_draft(league, team, None)
    for match in draft.matches:  # every set broken: many problems to fit in
        for set_order in match.sets:
            set_order.concept = Concept.WALL
            for slot in set_order.slots:
                slot.position = Position.SETTER
    where = Where(999999, 1574281074454822916, 99, 40, draft.matches[1].match_number, 4)
    text = editor_text(league, team, draft, where, None, "A note.", how=True)
    assert len(text) <= 2000 and "Save orders lists them all" in text
    assert "Other orders: `/volleyball orders send`" in text
    assert text.count("\n- ") <= 3 + 1 + 3  # three problems, "and N more", three warnings
    # a redraw after a pick says what changed, not the rules again
    redraw = editor_text(league, team, draft, where, None, "A note.")
    assert "Other orders" not in redraw and len(redraw) < len(text)
    assert text.index("Match 2: Set 4") < text.index("Match 1: Set 1")  # this set first
    view = editor_view(league, team, draft, where)
    controls = [item for item in view.children if isinstance(item, EditorSelect | EditorButton)]
    assert len(controls) == len(view.children)  # every control is the editor's own
    ids = [item.item.custom_id for item in controls if item.item.custom_id is not None]
    assert len(set(ids)) == len(ids) == len(controls) == 12 and max(map(len, ids)) <= 100
    for item in controls:
        kind = EditorSelect if isinstance(item, EditorSelect) else EditorButton
        assert re.fullmatch(kind.__discord_ui_compiled_template__, item.item.custom_id or "")
        if isinstance(item, EditorSelect):
            assert 1 <= len(item.item.options) <= 25


def test_a_value_no_menu_offers_is_refused_with_words(league):
    team = league.league.teams[0]
    draft = start_draft(league, team, None)
    set_order = set_of(draft, where_for(draft))
    with pytest.raises(UserError, match="from the menu"):
        choose_positions(set_order, [f"9:{set_order.player_names[0]}"])
    with pytest.raises(UserError, match="from the menu"):
        choose_concept(set_order, "2:high")
    assert choose_concept(set_order, "2:7") == "OC (Offensive), risk 7."


def test_the_editor_says_what_saving_would_give_away_before_it_is_saved(league):
    """The preview said "No problems" while a set had no players (the deciding set of a cup
    match was then lost 15-0)."""
    roomy = SeasonConfig(player_points_by_age=dict.fromkeys("ABCDE", 200))
    weak = create_team("Weak Side", [PlayerDraft(f"P{c}x", "C", 3, 3) for c in "ABCDEFG"], roomy)
    state = take_over_seat(league, league.league.teams[0].name, "7", weak)
    team = state.league.team("Weak Side")
    assert team is not None
    draft = start_draft(state, team, None)
    empty = [n for n, s in enumerate(draft.matches[0].sets, start=1) if not s.slots]
    assert empty  # seven tired players cannot field all five sets
    text = editor_text(state, team, draft, where_for(draft, empty[0]), None)
    assert f"**Set {empty[0]}**: nobody (the set is lost 0-15 if played)" in text
    assert "No problems, but Save orders would give away:" in text
    given_away = text.split("would give away:")[1]
    sets = ", ".join(map(str, empty))
    assert f"Match 1: {plural(len(empty)):set!} {sets} ha" in given_away
    assert "no players and" in given_away and "lost 0-15 if played" in given_away
    assert "No problems: Save orders would be accepted" not in text


def test_the_editor_goes_through_a_cup_round_in_match_number_order_naming_each_match(league):
    """A cup round is played cup first, but the editor opened on "Cup match 3" with a next
    button reading "Match 1 ▸": it opens on Match 1 and each button names the match it
    opens, as the heading names it."""
    from cogs.volleyball.editor import match_order
    from rules.volleyball import all_computer_orders, round_fixtures, run_round

    state = league
    while not any(f.competition == "cup" for f in round_fixtures(state, state.league.round_number)):
        state = run_round(state, all_computer_orders(state)).state
    cup = next(
        f for f in round_fixtures(state, state.league.round_number) if f.competition == "cup"
    )
    team = state.league.known_team(cup.home)
    draft = start_draft(state, team, None)
    assert match_order(draft) == [1, 2, 3] and draft.matches[0].match_number == 3

    def buttons(number):
        where = Where(12, 1574281074454822916, 1, state.league.round_number, number, 1)
        view = editor_view(state, team, draft, where)
        text = editor_text(state, team, draft, where, None)
        labels = [i.item.label for i in view.children if isinstance(i, EditorButton)]
        return text, [label for label in labels if label and ("▸" in label or "◂" in label)]

    text, moves = buttons(match_order(draft)[0])
    assert ", Match 1, " in text and moves == ["Match 2 ▸"]
    text, moves = buttons(2)
    assert ", Match 2, " in text and moves == ["◂ Match 1", "Cup match 3 ▸"]
    text, moves = buttons(3)
    assert ", Cup match 3, " in text and moves == ["◂ Match 2"]
