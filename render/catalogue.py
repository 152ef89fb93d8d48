"""Every kind of image the games post, each with a seeded sample: what the phone-readability
test (tests/render/test_render_phone.py) and the benchmarks (bench/image_text_size.py,
bench/render_turn.py) draw.

A sample is a real position from the game's own engine (seeded), not a hand-made picture, so a
layout is measured with the names, line-ups and texts a match really has. Building the samples
plays a few games: they are made once per process (`samples()` is memoised).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

ROCKETBALL_NAMES = {"N": "Computer (strong)", "S": "Alice"}
ROLLERBALL_NAMES = {0: "Alice", 1: "Bob", 2: "Computer (sensible)", 3: "Dora", 4: "Eve", 5: "Finn"}


@dataclass(frozen=True)
class ImageType:
    """One kind of image: where it is posted, and how to draw a seeded sample of it."""

    name: str
    game: str
    posted: str  # when the bot posts it
    draw: Callable[[], bytes | list[bytes]]
    board: bool = False  # a board: also held to render.textsize.BOARD_MAX_RATIO
    printable: bool = False  # made to be printed (a US Letter sheet), not read on a phone
    ours: bool = True  # False: measured, not held to the rule yet (none at present)
    # An older image no cog posts any more (kept for its tests and benches), and what the phone
    # gets instead.
    replaced_by: str = ""


# --- Rocketball ---------------------------------------------------------------------------------


@cache
def rocketball_rounds(seed: int = 3, rounds: int = 40) -> tuple[tuple[Any, list, Any], ...]:
    """(before, events, after) of each round of a seeded strong-against-easy game."""
    from rules.rocketball.ai import choose_action
    from rules.rocketball.engine import apply, new_game

    state, _ = new_game(seed)
    rng = random.Random(seed)
    levels = {"N": "strong", "S": "easy"}
    found = []
    while state.phase != "over" and len(found) < rounds:
        before, events = state, []
        state, new = apply(state, choose_action(state, levels[state.to_move], rng))
        events += new
        while state.phase not in ("roll", "over"):
            state, new = apply(state, choose_action(state, levels[state.to_move], rng))
            events += new
        found.append((before, events, state))
    return tuple(found)


@cache
def rocketball_busy() -> tuple[Any, list[str]]:
    """A crowded field (every chip variant), and the squares of its last move."""
    from rules.rocketball.engine import apply, legal_actions, new_game
    from rules.rocketball.events import MoveEvent
    from rules.rocketball.state import Settings

    settings = Settings.with_variants(["bumpers", "twisters", "gusts", "barricades", "moguls"])
    rng = random.Random(4)
    for attempt in range(200):
        state, _ = new_game(4 + attempt, settings)
        path: list[str] = []
        while state.phase != "over":
            state, events = apply(state, rng.choice(legal_actions(state)))
            moves = [event for event in events if isinstance(event, MoveEvent)]
            if moves:
                path = [moves[0].start_square, *(step.square for step in moves[0].steps)]
            if len(state.chips) >= 60 and state.phase == "roll":
                return state, path
    raise RuntimeError("no crowded position found")


def _rocketball_board() -> bytes:
    from render.rocketball import render_board

    state, path = rocketball_busy()
    return render_board(state, highlight=path, names=ROCKETBALL_NAMES)


def _rocketball_round() -> bytes:
    from render.rocketball import render_round

    before, events, after = rocketball_rounds()[5]
    return render_round(before, events, after, ROCKETBALL_NAMES)[0]


# --- Rollerball ---------------------------------------------------------------------------------


@cache
def rollerball_moves(
    players: int = 4, board: int = 9, seed: int = 7
) -> tuple[tuple[Any, Any], ...]:
    """(public view after, BallsMoved) of each ball movement of a seeded game of random seats."""
    from rules.rollerball import (
        BallsMoved,
        Settings,
        actors,
        apply,
        choose_action,
        new_game,
        view_for,
    )

    state, _ = new_game(seed, Settings(edition="later", players=players, board=board))
    rng = random.Random(seed)
    found = []
    while not state.over and len(found) < 40:
        seat = min(actors(state))
        state, events = apply(state, choose_action(view_for(state, seat), rng, "random"), seat)
        found += [
            (view_for(state, None), event) for event in events if isinstance(event, BallsMoved)
        ]
    return tuple(found)


def _rollerball_board(players: int = 4, board: int = 9) -> bytes:
    from render.rollerball import render_board

    view, _ = rollerball_moves(players, board)[-1]
    return render_board(view, ROLLERBALL_NAMES)


@cache
def rollerball_hand_view() -> tuple[Any, int]:
    """(the seat's own view, the seat) of the seat holding the most cards, 60 actions into a
    seeded 4-player game."""
    from rules.rollerball import Settings, actors, apply, choose_action, new_game, view_for

    state, _ = new_game(7, Settings(edition="later", players=4, board=9))
    rng = random.Random(7)
    for _ in range(60):
        acting = min(actors(state))
        state, _ = apply(state, choose_action(view_for(state, acting), rng, "random"), acting)
    seat = max(range(state.players), key=lambda s: len(state.hands[s]))
    return view_for(state, seat), seat


def _rollerball_hand() -> bytes:
    """That hand, its newest card marked NEW, with a card just earned."""
    from render.rollerball import render_hand

    view, seat = rollerball_hand_view()
    newest = frozenset(view.hands[seat][-1:])
    return render_hand(view, seat, ROLLERBALL_NAMES[seat], new=newest, earned=0)


def _rollerball_movement() -> bytes:
    from render.rollerball import render_movement

    view, moved = max(rollerball_moves(), key=lambda pair: len(pair[1].frames))
    return render_movement(view, moved, ROLLERBALL_NAMES)


# --- Rollerball II ------------------------------------------------------------------------------


@cache
def rollerball2_match() -> tuple[Any, Any, Any]:
    """A match 70 actions in, the last card read then, and the result of the whole match."""
    from rules.rollerball2 import auto_play, generate_roster, new_match, result
    from rules.rollerball2.coach import choose_action
    from rules.rollerball2.engine import apply

    home, away = generate_roster(31, "Houston"), generate_roster(32, "Tokyo")
    state = new_match(1, home, away)
    for _ in range(70):
        state, _ = apply(state, choose_action(state))
    final, _ = auto_play(new_match(1, home, away))
    return state, home, result(final)


def _rb2_fac(section: str | None = None, *, phone: bool = False) -> bytes:
    from render.rollerball2 import render_fac, render_fac_phone, render_fac_section
    from rules.rollerball2.content import load_content

    fac = max(load_content().facs, key=lambda card: len(card.event.text))
    if phone:
        return render_fac_phone(fac, section)
    return render_fac(fac) if section is None else render_fac_section(fac, section)


def _rb2_standings() -> bytes:
    from render.rollerball2 import render_standings
    from rules.rollerball2.season import GameScore, standings

    teams = ["Houston", "Tokyo", "Madrid", "Moscow", "Rome", "Buenos Aires", "Oslo", "Lagos"]
    games = [GameScore(teams[n], teams[7 - n], n, 7 - n) for n in range(4)]
    return render_standings("Season one", standings(teams, games))[0]


TOURNAMENT_NAMES = ("Alice", "Bob the Magnificent Roller", "Chen 陈", "Dora", "Eve", "Finn")


def _tournament_played(fmt: Any, count: int, seed: int, rounds: int | None = None):
    """A seeded tournament of `fmt` for `count` players played `rounds` rounds (or to its end):
    its entrants, games, rounds played and the players' names."""
    from rules.tournament import Entrant, Game

    rng = random.Random(seed)
    entrants = [
        Entrant(f"p{n}", 1500 + 37 * ((n * 5) % count), withdrawn_from=3 if n == 2 else None)
        for n in range(count)
    ]
    games: list[Any] = []
    played = 0
    while not fmt.finished(entrants, games, played) and (rounds is None or played < rounds):
        pairing = fmt.pair(entrants, games, played + 1)
        played += 1
        for game in pairing.games():
            if game.points is None:
                draw = rng.random()
                points = (1.0, 0.0) if draw < 0.45 else (0.0, 1.0) if draw < 0.9 else (0.5, 0.5)
                game = Game(game.round, game.seats, points, True)
            games.append(game)
    names = {e.id: TOURNAMENT_NAMES[n % len(TOURNAMENT_NAMES)] for n, e in enumerate(entrants)}
    return entrants, games, played, names


def _tournament_bracket(double: bool) -> Callable[[], list[bytes]]:
    def draw() -> list[bytes]:
        from render.tournament import render_bracket
        from rules.tournament import Knockout, resolve

        fmt = Knockout(double=double)
        entrants, games, played, names = _tournament_played(fmt, 8, 3, None if double else 2)
        bracket = fmt.bracket(entrants)
        winners, _ = fmt.winners(entrants, games, played)
        return render_bracket("Cup #3", resolve(bracket, winners), bracket.seeds, names)

    return draw


def _tournament_standings() -> bytes:
    from render.tournament import render_standings
    from rules.tournament import TIE_BREAKS, Swiss, standings

    entrants, games, played, names = _tournament_played(Swiss(3), 9, 5)
    order = standings(entrants, games, played)
    ties = ", then ".join(name for name, _ in TIE_BREAKS)
    return render_standings("Standings after round 3", order, names, tie_breaks=ties)


def _rb2_image(name: str) -> Callable[[], bytes | list[bytes]]:
    def draw() -> bytes | list[bytes]:
        import render.rollerball2 as rb2

        state, home, final = rollerball2_match()
        player = home.players[0]
        if name == "track":
            return rb2.render_track(state)
        if name == "scoreboard":
            return rb2.render_scoreboard(state)
        if name == "roster":
            return rb2.render_roster(state)
        if name == "gamecard pages":
            return rb2.render_gamecard_pages()
        if name == "box":
            return rb2.render_box_score_pages(final)
        if name == "card":
            return rb2.render_player_card(player, ("offense", 4))
        if name == "gamecard":
            return rb2.render_gamecard()
        if name == "sheet":
            return rb2.render_card_sheets(home.players)[0]
        raise ValueError(name)

    return draw


# --- Volleyball ----------------------------------------------------------------------------------


@cache
def volleyball_league() -> Any:
    from rules.volleyball.managers import all_computer_orders, new_computer_league
    from rules.volleyball.rounds import play_round

    state = new_computer_league(10, seed=8, divisions=[6, 4])
    for _ in range(3):
        state, _report = play_round(state, all_computer_orders(state))
    return state


def _volleyball(name: str) -> Callable[[], bytes | list[bytes]]:
    def draw() -> bytes | list[bytes]:
        from render.volleyball import cup_bracket_pages, results_png, standings_png
        from rules.volleyball.managers import new_computer_league

        if name == "standings":
            return standings_png(volleyball_league(), 1)
        if name == "results":
            return results_png(volleyball_league(), 1, 3)
        if name == "bracket":
            return cup_bracket_pages(volleyball_league())
        return cup_bracket_pages(new_computer_league(32, seed=3, divisions=[16, 16]))

    return draw


# --- replays ------------------------------------------------------------------------------------

REPLAY_SALT = "0123456789abcdef0123456789abcdef"
REPLAY_NAMES = ("Alice", "Bob", "Carol", "Dora")


def replay_options(game: str, long: bool) -> dict[str, Any]:
    """A seeded match's options: a short one (the golden tests) or a long one (the benchmarks:
    Rocketball first to 9, the longest a challenge allows; Rollerball for 4 to 5 points)."""
    if game == "rocketball":
        from rules.rocketball import Settings

        return {"settings": Settings(target_score=9 if long else 1)}
    if game == "rollerball":
        return {"players": 4 if long else 2, "target": 5 if long else 1}
    from rules.rollerball2 import default_lineup, generate_roster, roster_to_json

    home, away = generate_roster(41, "Houston"), generate_roster(42, "Tokyo")
    return {
        "mode": "coaches",
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": default_lineup(home),
        "away_lineup": default_lineup(away),
        "home_team_id": None,
        "away_team_id": None,
    }


@cache
def finished_record(game: str, seed: int = 7, *, long: bool = False) -> tuple[str, str, Any]:
    """A seeded match of the computer on every seat played to its end, as the host writes its
    record once it is over: (the record with names, the commitment published when it began,
    the final state)."""
    from rules import records
    from rules.face import engine_for

    engine = engine_for(game)
    state, _ = engine.new_state(seed, replay_options(game, long))
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = min(engine.actors(state))
        state, _ = engine.apply(
            state, seat, engine.computer_action(state, seat, engine.levels[0], rng)
        )
    players = len(engine.outcome(state))
    text = engine.record(state, salt=REPLAY_SALT, reveal=True, names=REPLAY_NAMES[:players])
    return text, records.commitment(game, engine.seed_of(state), REPLAY_SALT), state


def _replay_highlight(game: str) -> Callable[[], bytes]:
    def draw() -> bytes:
        from render.replay import highlight
        from rules.replay import verified

        replay = verified(finished_record(game)[0])
        last = len(replay) - 1
        return highlight(replay, [(0, f"{replay.title}: the set-up"), (last, replay.result)])

    return draw


def _replay_frame(game: str) -> Callable[[], bytes]:
    def draw() -> bytes:
        from render.replay import frame
        from rules.replay import verified

        replay = verified(finished_record(game)[0])
        return frame(replay, len(replay) - 1)[1]

    return draw


@cache
def image_types() -> tuple[ImageType, ...]:
    """Every kind of image a game posts, in the order the games are listed in the README."""
    return (
        ImageType("Rocketball board", "rocketball", "a match's opening", _rocketball_board, True),
        ImageType("Rocketball round GIF", "rocketball", "every round", _rocketball_round, True),
        ImageType("Rollerball board", "rollerball", "every turn", _rollerball_board, True),
        ImageType(
            "Rollerball board 11x11",
            "rollerball",
            "every turn (5-6 players)",
            lambda: _rollerball_board(6, 11),
            True,
        ),
        ImageType("Rollerball hand", "rollerball", "a player's private panel", _rollerball_hand),
        ImageType(
            "Rollerball movement GIF",
            "rollerball",
            "a turn that moved balls",
            _rollerball_movement,
            True,
        ),
        ImageType(
            "Rollerball II track",
            "rollerball2",
            "no longer posted",
            _rb2_image("track"),
            replaced_by="Rollerball II scoreboard + roster",
        ),
        ImageType(
            "Rollerball II scoreboard", "rollerball2", "every turn", _rb2_image("scoreboard")
        ),
        ImageType("Rollerball II roster", "rollerball2", "every turn", _rb2_image("roster")),
        ImageType(
            "Rollerball II FAC section",
            "rollerball2",
            "a turn that read a FAC",
            lambda: _rb2_fac("event"),
        ),
        ImageType(
            "Rollerball II player card",
            "rollerball2",
            "a turn that rolled on a card, /rollerball2 card",
            _rb2_image("card"),
        ),
        ImageType(
            "Rollerball II box score pages", "rollerball2", "the end of a match", _rb2_image("box")
        ),
        ImageType(
            "Rollerball II FAC (index card)",
            "rollerball2",
            "no longer posted",
            _rb2_fac,
            replaced_by="Rollerball II FAC (phone)",
        ),
        ImageType(
            "Rollerball II FAC (phone)",
            "rollerball2",
            "/rollerball2 fac",
            lambda: _rb2_fac("event", phone=True),
        ),
        ImageType(
            "Rollerball II game card (one image)",
            "rollerball2",
            "no longer posted",
            _rb2_image("gamecard"),
            replaced_by="Rollerball II game card pages",
        ),
        ImageType(
            "Rollerball II game card pages",
            "rollerball2",
            "/rollerball2 gamecard",
            _rb2_image("gamecard pages"),
        ),
        ImageType("Rollerball II standings", "rollerball2", "a season's table", _rb2_standings),
        ImageType(
            "Rollerball II card sheet",
            "rollerball2",
            "/rollerball2 team cards (to print)",
            _rb2_image("sheet"),
            printable=True,
        ),
        ImageType(
            "Volleyball standings", "volleyball", "after each round", _volleyball("standings")
        ),
        ImageType("Volleyball results", "volleyball", "after each round", _volleyball("results")),
        ImageType(
            "Volleyball bracket",
            "volleyball",
            "after each cup round",
            _volleyball("bracket"),
        ),
        ImageType(
            "Tournament bracket (single elimination)",
            "tournament",
            "a knockout's card",
            _tournament_bracket(False),
        ),
        ImageType(
            "Tournament bracket (double elimination)",
            "tournament",
            "a double elimination's card",
            _tournament_bracket(True),
        ),
        ImageType(
            "Tournament standings",
            "tournament",
            "a Swiss, round robin or tables tournament's card",
            _tournament_standings,
        ),
        ImageType(
            "Volleyball cup draw",
            "volleyball",
            "a big cup round's draw",
            _volleyball("draw"),
        ),
        *(
            ImageType(
                f"{title} replay highlight GIF",
                game,
                "Highlights on a replay card",
                _replay_highlight(game),
            )
            for game, title in (
                ("rocketball", "Rocketball"),
                ("rollerball", "Rollerball"),
                ("rollerball2", "Rollerball II"),
            )
        ),
    )
