"""A Rollerball II match as the Discord side plays it, without Discord: who may act in each mode,
how far "play until" goes, handing over, the deadline, the turn message's buttons and text, and
that every card played this way is in a record that verifies."""

from __future__ import annotations

import random
import re

import pytest

from cogs.rollerball2.presenter import SUBSTITUTE_ID, Rollerball2Adapter
from cogs.rollerball2.texts import FINAL_CARD_LINES, condensed
from host import Match, Step
from rules.records import commitment
from rules.rollerball2 import (
    ENGINE,
    NextCard,
    RollDie,
    RollerballError,
    Substitute,
    default_lineup,
    generate_roster,
    verify_record,
)
from rules.rollerball2.modes import (
    SIDES,
    Deadline,
    HandOver,
    PlayUntil,
    Rb2Match,
    SimulateRest,
    play,
)
from rules.rollerball2.state import Event, roster_to_json

# The default coach reads the cards, never a random number (rules/rollerball2/face.py).
COACH_RNG = random.Random(0)

ADAPTER = Rollerball2Adapter()
HOME_ROSTER = generate_roster(1, "Houston")
AWAY_ROSTER = generate_roster(2, "Tokyo")


def new_game(mode: str, seed: int = 5) -> Rb2Match:
    options = {
        "mode": mode,
        "home": roster_to_json(HOME_ROSTER),
        "away": roster_to_json(AWAY_ROSTER),
        "home_lineup": default_lineup(HOME_ROSTER),
        "away_lineup": default_lineup(AWAY_ROSTER),
        "home_team_id": 1,
        "away_team_id": 2,
    }
    return ADAPTER.engine.new_state(seed, options)[0]


def act(game: Rb2Match, action) -> tuple[Rb2Match, list]:
    return play(game, min(ADAPTER.engine.actors(game)), action)


def to_coaches_decision(game: Rb2Match) -> Rb2Match:
    """Turn cards (rolling when asked) until a coach decision other than a die is waited for."""
    for _ in range(200):
        pending = game.engine.pending
        if pending is not None and pending["kind"] != "dice":
            return game
        action = ADAPTER.button_action(game, 0, "roll" if pending else "next", None)
        game, _ = act(game, action)
    raise AssertionError("no decision in 200 actions")


def test_in_a_coaches_match_the_seats_are_the_home_and_the_visiting_coach():
    game = new_game("coaches")
    assert ADAPTER.engine.actors(game) == {0}  # the ball is loose: the home coach turns the card
    dice = 0
    for _ in range(60):
        pending = game.engine.pending
        if pending and pending["kind"] == "dice":
            # The die belongs to one coach: his seat, and only his, may act; the other's
            # attempt to act for that team is refused.
            owner = SIDES.index(pending["team"])
            assert ADAPTER.engine.actors(game) == {owner}
            with pytest.raises(RollerballError, match="your own team"):
                play(game, 1 - owner, RollDie(pending["team"]))
            dice += 1
        seat = min(ADAPTER.engine.actors(game))
        game, _ = play(
            game, seat, ADAPTER.engine.computer_action(game, seat, "default coach", COACH_RNG)
        )
    assert dice > 5
    assert ADAPTER.engine.actors(new_game("solo")) == {0}


def test_play_until_stops_at_a_decision_a_goal_or_the_period_and_never_decides():
    game = new_game("solo")
    for _ in range(30):
        before = game.engine.fac_count
        game, events = act(game, PlayUntil("event"))
        kinds = {event.kind for event in events}
        stopped = (
            game.engine.pending is not None
            or "goal" in kinds
            or "penalty" in kinds
            or game.engine.period != new_game("solo").engine.period
            or game.over
        )
        assert stopped and game.engine.fac_count > before
        assert "sub" not in kinds  # nothing is decided for the coach
        if game.engine.pending is not None:
            game, _ = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
        if game.engine.period > 1:
            break
    assert game.engine.period == 2


def test_play_to_the_end_of_a_period_in_a_coaches_match_stops_when_the_other_coach_is_to_act():
    game = new_game("coaches")
    for _ in range(100):
        game = to_coaches_decision(game)
        game, _ = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
        if game.engine.pending is None and game.engine.control is not None:
            break
    acting = ADAPTER.engine.actors(game)
    game, events = act(game, PlayUntil("period"))
    cards = [e for e in events if e.kind == "card"]
    assert cards
    # Either the period ended, a decision or die is wanted, or the other coach now acts.
    assert (
        game.engine.pending is not None
        or game.engine.period == 2
        or ADAPTER.engine.actors(game) != acting
    )


def test_play_to_the_end_of_a_period_says_why_it_stopped_early():
    """A click on "Play to period end" that stops before the period's end (a coach decision
    is due, or in a coaches match the other coach is to act) says why, in the turn's text."""
    reasons = []
    for mode in ("solo", "coaches"):
        game = new_game(mode, seed=11)
        for _ in range(200):
            if game.over or len(reasons) >= 6:
                break
            if game.engine.pending is not None:
                seat = min(ADAPTER.engine.actors(game))
                game, _ = play(
                    game, seat, ADAPTER.engine.computer_action(game, seat, "x", COACH_RNG)
                )
                continue
            period = game.engine.period
            game, events = act(game, PlayUntil("period"))
            lines = condensed(events)
            if game.over or game.engine.period != period:
                assert not any(line.startswith("Stopped") for line in lines)
                continue
            # Stopped inside the period: the last line says why.
            assert lines[-1].startswith("Stopped before the end of the period"), lines[-3:]
            if game.engine.pending is not None:
                assert "decide" in lines[-1] or "roll" in lines[-1]
            else:
                assert mode == "coaches" and "coach" in lines[-1]
            reasons.append(lines[-1])
    assert len(reasons) >= 2


def test_simulate_the_rest_is_for_solo_and_a_deadline_ends_any_match():
    coaches = new_game("coaches")
    with pytest.raises(RollerballError, match="each coach decides for his own team"):
        act(coaches, SimulateRest())
    over, _ = act(coaches, Deadline())
    assert over.over and over.engine.fac_count >= 120
    solo, _ = act(new_game("solo"), SimulateRest())
    assert solo.over


def test_a_coach_who_hands_over_gets_the_default_coach_and_the_other_plays_on():
    game = new_game("coaches")
    game, events = play(game, 1, HandOver("away"))
    assert game.handed_over == ("away",) and "hands the bench" in events[0].text
    with pytest.raises(RollerballError, match="your own team"):
        play(game, 0, HandOver("away"))
    for _ in range(60):
        assert ADAPTER.engine.actors(game) == {0}  # only the home coach is ever waited for
        pending = game.engine.pending
        action = (
            ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG)
            if pending
            else NextCard()
        )
        game, _ = play(game, 0, action)
    assert not game.over
    game, _ = play(game, 0, HandOver("home"))
    assert game.over


def test_a_match_played_with_the_buttons_gives_a_record_that_verifies():
    game = new_game("solo", seed=11)
    for label in ("until", "next", "until"):
        if game.engine.pending is not None:
            game, _ = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
        game, _ = act(game, ADAPTER.button_action(game, 0, label, None))
    game, _ = act(game, SimulateRest())
    salt = "ab" * 16
    text = ADAPTER.engine.record(game, salt=salt, reveal=True)
    assert f'[Commitment "{commitment("rollerball2", 11, salt)}"]' in text
    assert verify_record(text) == []


def test_the_turn_buttons_follow_what_the_match_waits_for():
    game = new_game("solo")
    match = Match(engine=game, names=["Alice"], salt="00", commitment="c")
    post = ADAPTER.draw_turn(match, Step(game, [], game), game_id=4, final=True)
    labels = [b.label for b in post.buttons]
    assert labels == [
        "Next card",
        "Play to next event",
        "Play to period end",
        "Line-ups",
        "Simulate the rest",
    ]  # the ball is loose: nobody may substitute; the line-ups are behind their button
    game = to_coaches_decision(game)
    match.engine = game
    post = ADAPTER.draw_turn(match, Step(game, [], game), game_id=4, final=True)
    assert all(b.action in ("catch", "biker", "scorer") for b in post.buttons)
    game, _ = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
    while game.engine.pending is not None or game.engine.control is None:
        game, _ = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
    match.engine = game
    post = ADAPTER.draw_turn(match, Step(game, [], game), game_id=4, final=True)
    subs = [b for b in post.buttons if b.label == "Substitute…"]
    assert subs and subs[0].custom_id == SUBSTITUTE_ID
    coaches = new_game("coaches")
    match = Match(engine=coaches, names=["Bob", "Alice"], salt="00", commitment="c")
    post = ADAPTER.draw_turn(match, Step(coaches, [], coaches), game_id=4, final=True)
    assert "Simulate the rest" not in [b.label for b in post.buttons]
    assert "Houston's coach (Bob)" in post.body


def test_a_long_click_is_condensed_to_what_mattered_and_the_last_card():
    game = new_game("solo")
    game, events = act(game, PlayUntil("period"))
    while game.engine.period == 1:
        game, more = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
        events += more
    lines = condensed(events)
    cards = sum(event.kind == "card" for event in events)
    assert lines[0].startswith(f"*{cards} cards turned")
    goals = [e.text for e in events if e.kind == "goal"]
    assert all(goal in lines for goal in goals)
    assert len(lines) < len(events) / 3


def test_simulate_the_rest_leaves_a_card_one_screen_tall_and_the_periods_in_their_messages():
    """The last card of a click that played the rest of the match shows the count of cards,
    a line saying where the rest is, and the last card's story: not the whole match (it was
    2,000 px tall on a phone); each period the click ended is told in a message of its own."""
    game = new_game("solo")
    before = game
    game, events = act(game, SimulateRest())
    match = Match(engine=game, names=["Alice"], salt="00", commitment="c")
    post = ADAPTER.draw_turn(match, Step(before, events, game), game_id=4, final=True)
    shown_lines = [line for line in post.happened.split("\n") if line.startswith("• ")]
    assert len(shown_lines) <= FINAL_CARD_LINES
    assert shown_lines[0].startswith("• *") and "cards turned" in shown_lines[0]
    assert "earlier lines in the record" in shown_lines[1]
    stories = ADAPTER.milestones(match, Step(before, events, game))
    for period in range(1, game.engine.period + 1):
        title = "overtime" if period == 5 else f"period {period}"
        assert any(f"End of {title}:" in story for story in stories)
    simulated = new_game("simulate")
    done, events = act(simulated, SimulateRest())
    assert ADAPTER.milestones(match, Step(simulated, events, done))  # told there too


def test_the_ball_handler_is_never_substituted():
    game = new_game("solo")
    while game.engine.control is None or game.engine.pending is not None:
        game, _ = act(game, ADAPTER.engine.computer_action(game, 0, "default coach", COACH_RNG))
    side, slot = game.engine.control, game.engine.handler
    assert slot is not None
    team = game.engine.team(side)
    bench = next(c.number for c in team.roster.players if c.number not in team.on_track())
    with pytest.raises(RollerballError, match="ball handler"):
        act(game, Substitute(side, slot, bench))


def test_the_thread_gets_one_message_a_period_telling_its_goals_penalties_and_injuries():
    """The thread's story (docs/rules/rollerball2.md "The live card"): whichever way a coach
    clicks, a period's end posts one message with its score and every goal, penalty, injury
    and ban of the period, with their clock; nothing else in the period posts one."""
    options = {
        "mode": "solo",
        "home": roster_to_json(HOME_ROSTER),
        "away": roster_to_json(AWAY_ROSTER),
        "home_lineup": None,
        "away_lineup": None,
        "home_team_id": 1,
        "away_team_id": 2,
    }
    for seed, click in ((5, PlayUntil("event")), (8, NextCard())):
        game = ENGINE.new_state(seed, options)[0]
        match = Match(engine=game, names=["Alice"], salt="00", commitment="c")
        messages, highlights = [], {}
        while not game.over:
            before = game
            action = (
                click
                if game.engine.pending is None
                else ENGINE.computer_action(game, 0, "default coach", COACH_RNG)
            )
            game, events = ENGINE.apply(game, 0, action)
            for event in events:
                if isinstance(event, Event) and event.kind in ("goal", "penalty", "injury", "ban"):
                    highlights.setdefault(before.engine.period, []).append(event.text)
            match.engine = game
            lines = ADAPTER.milestones(match, Step(before, events, game))
            if lines:
                messages.append((before.engine.period, game.engine.period, "\n".join(lines)))
        periods = game.engine.period
        assert len(messages) == periods
        for number, (start, end, text) in enumerate(messages, start=1):
            assert start == number and end == min(number + 1, periods)
            title = "overtime" if number == 5 else f"period {number}"
            assert text.startswith(f"**End of {title}: Tokyo ")
            for highlight in highlights.get(number, []):
                who = re.search(r"#\d+ [^(:,]+", highlight)[0].strip()  # the player named first
                assert who in text, (highlight, text)
            assert len(text) <= 2000
        assert (
            messages[-1][2]
            .split("\n")[0]
            .endswith(f"Tokyo {game.engine.away.score} at Houston {game.engine.home.score}.**")
        )


def test_a_team_whose_name_ends_in_s_has_its_coach_named_in_english():
    """ "Bob's Bruisers' coach", never "Bob's Bruisers's coach", wherever the turn names it."""
    bruisers = generate_roster(1, "Bob's Bruisers")
    options = {
        "mode": "coaches",
        "home": roster_to_json(bruisers),
        "away": roster_to_json(AWAY_ROSTER),
        "home_lineup": default_lineup(bruisers),
        "away_lineup": default_lineup(AWAY_ROSTER),
        "home_team_id": 1,
        "away_team_id": 2,
    }
    game = ADAPTER.engine.new_state(5, options)[0]
    match = Match(engine=game, names=["Bob", "Alice"], salt="00", commitment="c")
    game = to_coaches_decision(game)
    match.engine = game
    post = ADAPTER.draw_turn(match, Step(game, [], game), game_id=4, final=True)
    shown = post.body + " ".join(b.label for b in post.buttons)
    assert "s's" not in shown
    assert "Bob's Bruisers' coach" in shown or "Tokyo's coach" in shown


def why_text(game: Rb2Match) -> str:
    """What Why? says of every line of `game`'s record (the set-up first), as host/why.py words
    it for the card's button or `/rollerball2 why`."""
    from cogs.rollerball2.cog import RULEBOOK
    from host import why

    match = Match(engine=game, names=["Ann", "Bo"], salt="ab" * 16, commitment="")
    played = why.plays(ADAPTER, match)
    text, _ = why.explanation(ADAPTER, match, RULEBOOK, list(enumerate(played)))
    return text


def test_why_words_the_rulings_of_the_hosted_matchs_own_lines():
    """The opening (D1, a changed line-up D1a), a stop for the other coach (D3), a hand-over
    (D4) and a season's deadline (D7, D8) are lines the host writes, not lines of the engine's
    record: Why? words their rulings all the same, each with the line it came with."""
    options = {
        "mode": "coaches",
        "home": roster_to_json(HOME_ROSTER),
        "away": roster_to_json(AWAY_ROSTER),
        "home_lineup": {**default_lineup(HOME_ROSTER), "Skater1": 99},  # 99 is on no roster
        "away_lineup": default_lineup(AWAY_ROSTER),
    }
    game = ADAPTER.engine.new_state(11, options)[0]
    opening = why_text(game)
    assert "**The set-up**" in opening and "Ruling D1**" in opening and "Ruling D1a" in opening
    for _ in range(200):  # "Play to period end" until it stops for the other coach
        if game.engine.pending is not None:
            seat = min(ADAPTER.engine.actors(game))
            action = ADAPTER.engine.computer_action(game, seat, "x", random.Random(0))
            game, _ = play(game, seat, action)
            continue
        game, events = act(game, PlayUntil("period"))
        if any(event.rulings == ("D3",) for event in events):
            break
    assert "Ruling D3" in why_text(game)
    handed, _ = play(game, 1, HandOver("away"))
    assert "hands the bench" in why_text(handed) and "Ruling D4" in why_text(handed)
    settled, _ = act(game, Deadline())
    told = why_text(settled)
    assert "The season settles this matchday" in told
    assert "Ruling D7" in told and "Ruling D8" in told
    # a hosted line is told with the record's line it came with: the deadline before its cards
    assert told.index("The season settles") < told.index("FINAL")
