"""The engine face (rules/face.py) of every turn-based game, without Discord: a seeded match
played by the computer to the end through the face alone, the state through JSON and back at
every step (and playing on the same), every listed action accepted, every other refused with
the state untouched, what each seat may see, and a record that verifies."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from host.match import STORED
from rules import records
from rules.__main__ import verify as verify_text
from rules.errors import PlayerError
from rules.face import GAMES, Engine, engine_for, engines
from rules.rocketball import ENGINE as ROCKETBALL
from rules.rocketball import Resign
from rules.rocketball import Settings as RocketballSettings
from rules.rollerball import ENGINE as ROLLERBALL
from rules.rollerball import Bid
from rules.rollerball.cards import HIDDEN
from rules.rollerball2 import ENGINE as ROLLERBALL2
from rules.rollerball2 import NextCard, default_lineup, generate_roster, roster_to_json
from rules.rollerball2.modes import PlayUntil

SEED = 987654321  # long enough that its digits never turn up by chance in a view's JSON
SALT = "5be1c0ffee0ddba11ad5eed5a1700001"
SAMPLE = 24  # listed actions applied at each step (all of them when there are no more)


@dataclass
class Game:
    """One seeded match to play: the face, its options, how many seats, the computer level."""

    engine: Engine[Any, Any]
    options: dict[str, Any]
    seats: int
    level: str
    # Every how many steps the listed actions are tried (Rollerball II's "play until" and
    # "simulate the rest" play many cards each).
    every: int = 1
    # Whether a view for a seat (None: a spectator) hides what the game hides from it.
    hides: Callable[[Any, Any, int | None], bool] = field(default=lambda view, state, seat: True)


def rollerball2_options(mode: str) -> dict[str, Any]:
    home, away = generate_roster(41, "Houston"), generate_roster(42, "Tokyo")
    return {
        "mode": mode,
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": default_lineup(home),
        "away_lineup": default_lineup(away),
        "home_team_id": 1,
        "away_team_id": 2,
    }


def hides_other_hands(view: Any, table: Any, seat: int | None) -> bool:
    """Rollerball: the others' hands are hidden (during a secret bid not even counted), the
    deck's order is hidden."""
    game = view.game
    others = [other for other in range(game.players) if other != seat]
    return (
        all(set(game.hands[other]) <= {HIDDEN} for other in others)
        and set(game.deck) <= {HIDDEN}
        and (seat is None or game.hands[seat] == table.game.hands[seat])
    )


def hides_the_piles(view: Any, match: Any, seat: int | None) -> bool:
    """Rollerball II: how many FACs are left, not their order."""
    return len(view.engine.deck) == len(match.engine.deck) and set(view.engine.deck) <= {0}


def hides_the_dice(view: Any, state: Any, seat: int | None) -> bool:
    """Rocketball: the whole field, but not the dice's state."""
    return view.rng.getstate() != state.rng.getstate() and view.balls == state.balls


GAMES_PLAYED = {
    "rocketball": Game(
        ROCKETBALL,
        {"settings": RocketballSettings.with_variants(["bumpers", "moguls", "drifting_winds"])},
        2,
        "easy",
        hides=hides_the_dice,
    ),
    "rollerball": Game(
        ROLLERBALL, {"players": 3, "target": 2}, 3, "sensible", hides=hides_other_hands
    ),
    "rollerball2 coaches": Game(
        ROLLERBALL2,
        rollerball2_options("coaches"),
        2,
        "default coach",
        every=15,
        hides=hides_the_piles,
    ),
    "rollerball2 solo": Game(
        ROLLERBALL2,
        rollerball2_options("solo"),
        1,
        "default coach",
        every=25,
        hides=hides_the_piles,
    ),
}


def reloaded(engine: Engine[Any, Any], state: Any) -> Any:
    """The state through the database's JSON and back: host/match.py writes it with orjson,
    whose text must be the standard library's, spaces aside (no number too large for it, no
    NaN it would write as null)."""
    data = engine.dump(state)
    text = orjson.dumps(data, option=STORED).decode()
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return engine.load(json.loads(text))


def texts(events: Any) -> list[str]:
    return [event.text for event in events]


def refused(engine: Engine[Any, Any], state: Any, seat: int, action: Any) -> bool:
    """`action` by `seat` raises a PlayerError (that the state is left as it was is checked
    once a step, after every try: see play_through_the_face)."""
    try:
        engine.apply(state, seat, action)
    except PlayerError:
        return True
    return False


@dataclass
class Played:
    final: Any
    steps: int
    actions: list[tuple[int, Any]]
    live_record: str


def play_through_the_face(game: Game) -> Played:
    engine = game.engine
    state, events = engine.new_state(SEED, game.options)
    assert all(isinstance(text, str) for text in texts(events))
    assert texts(engine.opening_events(state)) == texts(events)
    rng = random.Random(SEED)
    sample = random.Random(1)
    done: list[tuple[int, Any]] = []
    live_record = ""
    for step in range(5000):
        if engine.is_over(state):
            break
        before = engine.dump(state)
        acting = engine.actors(state)
        assert acting and acting <= set(range(game.seats))
        seat = min(acting)
        listed = engine.legal_actions(state, seat)
        action = engine.computer_action(state, seat, game.level, rng)
        assert action in listed, f"step {step}: the computer chose {action}, not listed"
        for other in set(range(game.seats)) - acting:
            assert engine.legal_actions(state, other) == []
            assert refused(engine, state, other, action), f"step {step}: seat {other} acted"
        if step % game.every == 0:
            tried = listed if len(listed) <= SAMPLE else sample.sample(listed, SAMPLE)
            for candidate in tried:
                engine.apply(state, seat, candidate)  # no PlayerError: it is legal now
        for _, earlier in done[-8:]:
            if all(earlier not in engine.legal_actions(state, s) for s in acting):
                assert refused(engine, state, seat, earlier), f"step {step}: {earlier} allowed"
        text = engine.format_action(action)
        if not (engine is ROLLERBALL and isinstance(action.action, Bid)):  # a secret bid
            assert engine.parse_action(state, seat, text) == action, text
        # Nothing tried above, refused or not, changed the state; through JSON it is the same.
        assert engine.dump(state) == before
        copy = reloaded(engine, state)
        assert engine.dump(copy) == before
        state, events = engine.apply(state, seat, action)
        again, events_again = engine.apply(copy, seat, action)
        assert engine.dump(again) == engine.dump(state) and texts(events_again) == texts(events)
        done.append((seat, action))
        if step == 20:
            live_record = engine.record(state, salt=SALT, reveal=False)
    else:
        raise AssertionError("the match never ended")
    return Played(state, step, done, live_record)


@pytest.fixture(scope="module", params=list(GAMES_PLAYED))
def played(request) -> tuple[Game, Played]:
    game = GAMES_PLAYED[request.param]
    return game, play_through_the_face(game)


def test_a_seeded_match_plays_to_the_end_through_the_face(played):
    game, result = played
    engine, final = game.engine, result.final
    assert engine.is_over(final) and engine.actors(final) == frozenset()
    assert all(engine.legal_actions(final, seat) == [] for seat in range(game.seats))
    outcome = engine.outcome(final)
    assert len(outcome) == game.seats and set(outcome) <= {"win", "loss", "draw"}
    assert outcome.count("win") <= 1
    assert engine.seed_of(final) == SEED
    with pytest.raises(PlayerError):
        engine.apply(final, 0, result.actions[-1][1])


def test_the_same_seed_and_actions_give_the_same_match(played):
    game, result = played
    engine = game.engine
    state, _ = engine.new_state(SEED, game.options)
    for seat, action in result.actions:
        state, _ = engine.apply(state, seat, action)
    assert engine.dump(state) == engine.dump(result.final)


def test_the_finished_record_verifies_and_replays_to_the_final_position(played):
    game, result = played
    engine = game.engine
    text = engine.record(result.final, salt=SALT, reveal=True)
    assert engine.verify(text) == []
    fair, [said] = verify_text(text)  # python -m rules verify FILE
    assert fair and said.startswith(f"OK: {engine.title}, seed {SEED} matches the commitment")
    record = records.read_record(text)
    assert record.game == engine.name and record.seed == SEED and record.salt == SALT
    assert record.commitment == records.commitment(engine.name, SEED, SALT)
    replayed = engine.replay(text)
    stored = engine.dump(result.final)
    assert replayed in (stored, stored.get("game"), stored.get("engine"))
    forged = text.replace(f'[Salt "{SALT}"]', f'[Salt "{"0" * 32}"]')
    assert engine.verify(forged)[0].startswith("The commitment does not match")


def test_a_live_record_commits_to_the_seed_and_keeps_it_secret(played):
    game, result = played
    text = result.live_record
    assert str(SEED) not in text and SALT not in text and "[Seed" not in text
    assert records.read_record(text).commitment == records.commitment(game.engine.name, SEED, SALT)
    assert records.read_record(text).result == records.LIVE_RESULT
    assert game.engine.verify(text) == [records.NOT_REVEALED]
    with pytest.raises(PlayerError, match="no seed"):
        game.engine.replay(text)


def test_a_seat_sees_neither_the_seed_nor_what_is_hidden_from_it(played):
    game, result = played
    engine = game.engine
    state, _ = engine.new_state(SEED, game.options)
    for seat, action in result.actions[:30]:
        state, _ = engine.apply(state, seat, action)
        for viewer in [None, *range(game.seats)]:
            view = engine.view_for(state, viewer)
            assert str(SEED) not in json.dumps(engine.dump(view))
            assert game.hides(view, state, viewer)


def test_typed_nonsense_is_a_player_error_naming_no_move():
    for game in GAMES_PLAYED.values():
        state, _ = game.engine.new_state(SEED, game.options)
        seat = min(game.engine.actors(state))
        for nonsense in ("", "xyzzy plugh", "move z99 a0", "🎲" * 50):
            with pytest.raises(PlayerError):
                game.engine.parse_action(state, seat, nonsense)


def test_every_game_has_one_face_named_as_its_records_are():
    assert [engine.name for engine in engines()] == list(GAMES)
    assert engine_for("rocketball") is ROCKETBALL
    with pytest.raises(KeyError):
        engine_for("volleyball")  # a league run by rounds: no face
    for engine in engines():
        assert engine.levels and 1 <= engine.min_seats <= engine.max_seats


def test_only_a_seat_that_may_act_acts_but_resigning_is_always_open():
    """A defect seen: in a coaches match of Rollerball II the coach not in possession could
    turn the card through the engine (only the host's check stopped him), before the other
    coach could substitute (docs/rules/rollerball2.md "Whose turn it is")."""
    match, _ = ROLLERBALL2.new_state(SEED, rollerball2_options("coaches"))
    assert ROLLERBALL2.actors(match) == {0}  # the ball is loose: the home coach turns the card
    for action in (NextCard(), PlayUntil("event"), PlayUntil("period")):
        with pytest.raises(PlayerError, match="not your turn: Houston must act first"):
            ROLLERBALL2.apply(match, 1, action)
    handed, events = ROLLERBALL2.apply(match, 1, ROLLERBALL2.resign_action(match, 1))
    assert handed.handed_over == ("away",) and "default coach" in events[0].text
    field, _ = ROCKETBALL.new_state(SEED, {})
    with pytest.raises(PlayerError, match="only resign for yourself"):
        ROCKETBALL.apply(field, 0, Resign("S"))
    assert ROCKETBALL.outcome(ROCKETBALL.apply(field, 1, Resign("S"))[0]) == ("win", "loss")
