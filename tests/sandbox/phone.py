"""Each game's live card as a 390 x 844 phone shows it: the cards a seeded match really draws
(the presenter's `draw_turn`, laid out by `host.card.build_card`, the same payload the bot sends),
and Volleyball's public posts (a league's start and its rounds' results, as its poster sends
them), posted to the fake Discord and measured in the sandbox page in a real Chromium.

Shared by tests/sandbox/test_phone_fit.py (each card fits one screen) and bench/card_height.py
(the tallest card of each game, against the screen's height).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from host import GameAdapter, Match, Step
from host.card import build_card

SCREEN_WIDTH, SCREEN_HEIGHT = 390, 844  # a common phone (iPhone 12-15), in CSS px
FLAG_IS_COMPONENTS_V2 = 1 << 15


@dataclass
class Card:
    """One card: which game and moment, the message payload and its uploads."""

    game: str
    moment: str
    payload: dict[str, Any]
    files: dict[str, bytes]


def _card(game: str, moment: str, adapter: GameAdapter, match: Match, step: Step) -> Card:
    over = adapter.engine.is_over(step.after)
    post = adapter.draw_turn(match, step, game_id=7, final=True)
    deadline = None if over else "Time for this move: until Monday 9:00 (in 2 days)."
    view, files = build_card(7, 3, post, deadline=deadline)
    uploads = {file.filename or "image.png": file.fp.read() for file in files}
    payload = {"flags": FLAG_IS_COMPONENTS_V2, "components": view.to_components()}
    return Card(game, moment, payload, uploads)


def _played(
    game: str,
    adapter: GameAdapter,
    options: dict[str, Any],
    names: list[str],
    choose: Callable[[Any, int, random.Random], Any],
    *,
    actions: int,
    per_kind: int,
    finish: Callable[[Any], Any] | None = None,
) -> Iterator[Card]:
    """A seeded match played by `choose`: its opening card, the first `per_kind` cards of each
    set of images a card carries (a board alone, a board with its movement, ...), and the card
    after `finish` (the last action: the result card) if given."""
    engine = adapter.engine
    rng = random.Random(20261129)
    state, events = engine.new_state(11, options)
    match = Match(engine=state, names=names, salt="00", commitment="c")
    yield _card(game, "opening", adapter, match, Step(state, list(events), state))
    seen: dict[tuple[str, ...], int] = {}
    for number in range(actions):
        if engine.is_over(state):
            break
        seat = min(engine.actors(state))
        before = state
        state, events = engine.apply(state, seat, choose(state, seat, rng))
        match.engine = state
        step = Step(before, list(events), state)
        post = adapter.draw_turn(match, step, game_id=7, final=True)
        kinds = tuple(sorted(name.rsplit("-", 1)[0] for name, _ in post.images))
        if seen.get(kinds, 0) < per_kind:
            seen[kinds] = seen.get(kinds, 0) + 1
            yield _card(game, f"action {number + 1}: {', '.join(kinds)}", adapter, match, step)
    if finish is not None and not engine.is_over(state):
        before = state
        seat = min(engine.actors(state))
        state, events = engine.apply(state, seat, finish(state))
        match.engine = state
        yield _card(game, "the result", adapter, match, Step(before, list(events), state))


def rocketball_cards(per_kind: int = 2, actions: int = 400) -> Iterator[Card]:
    from cogs.rocketball.presenter import RocketballAdapter

    adapter = RocketballAdapter()
    levels = {0: "strong", 1: "easy"}
    yield from _played(
        "Rocketball",
        adapter,
        {},
        ["Alice", "Computer (easy)"],
        lambda state, seat, rng: adapter.engine.computer_action(state, seat, levels[seat], rng),
        actions=actions,
        per_kind=per_kind,
    )


def rollerball_cards(per_kind: int = 2, actions: int = 600) -> Iterator[Card]:
    from cogs.rollerball.presenter import RollerballAdapter

    adapter = RollerballAdapter()
    yield from _played(
        "Rollerball",
        adapter,
        {"players": 4},
        ["Alice", "Bob", "Computer (sensible)", "Dora"],
        lambda state, seat, rng: adapter.engine.computer_action(state, seat, "random", rng),
        actions=actions,
        per_kind=per_kind,
    )


def rollerball2_solo_options() -> dict[str, Any]:
    """A solo Rollerball II match of two generated teams with their default line-ups."""
    from rules.rollerball2 import default_lineup, generate_roster
    from rules.rollerball2.state import roster_to_json

    home, away = generate_roster(1, "Houston"), generate_roster(2, "Tokyo")
    return {
        "mode": "solo",
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": default_lineup(home),
        "away_lineup": default_lineup(away),
        "home_team_id": 1,
        "away_team_id": 2,
    }


def rollerball2_cards(per_kind: int = 2, actions: int = 60) -> Iterator[Card]:
    from cogs.rollerball2.presenter import Rollerball2Adapter
    from rules.rollerball2.modes import SimulateRest

    adapter = Rollerball2Adapter()
    yield from _played(
        "Rollerball II",
        adapter,
        rollerball2_solo_options(),
        ["Alice"],
        lambda state, seat, rng: adapter.engine.computer_action(state, seat, "default coach", rng),
        actions=actions,
        per_kind=per_kind,
        finish=lambda state: SimulateRest(),
    )


class _Recorded:
    """A channel that keeps what the poster sends it, as the messages' payloads."""

    def __init__(self) -> None:
        self.sent: list[tuple[dict[str, Any], dict[str, bytes]]] = []

    async def send(self, content: str = "", *, files: Any = (), view: Any = None, **_: Any) -> None:
        payload: dict[str, Any] = {"content": content}
        if view is not None:
            payload["components"] = view.to_components()
        self.sent.append((payload, {file.filename: file.fp.read() for file in files}))


def volleyball_posts(per_kind: int = 2, rounds: int = 2) -> Iterator[Card]:
    """A newcomer's league of four (one managed team, three computer teams): the post that
    starts it and the first `rounds` rounds' results posts (a cup round first), each message
    as cogs/volleyball/posting.py sends it to the results channel."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from cogs.volleyball.playing import league_begins_report, play_round_reports
    from cogs.volleyball.posting import Poster
    from db.volleyball import NewReport, StoredLeague, StoredReport
    from rules.volleyball.managers import new_computer_league

    name, deadline = "Newcomer League", 1_800_000_000.0
    state = new_computer_league(4, seed=390)
    managers = {state.league.teams[0].name: 1234}
    stored = StoredLeague(
        7, 1, name, 5, None, None, 1, {}, {}, 0, 0.0, "running", "", 1, deadline, None, None
    )
    channel = _Recorded()
    poster = Poster(None)  # type: ignore[arg-type]  # only the channel is asked for

    async def the_channel(_stored: StoredLeague) -> _Recorded:
        return channel

    poster.channel = the_channel  # type: ignore[method-assign]

    def posted(moment: str, state: Any, report: NewReport, round_number: int) -> Iterator[Card]:
        stored_report = StoredReport(
            0,
            7,
            state.league.season,
            round_number,
            "",
            None,
            report.messages,
            report.images,
            False,
            report.why,  # a round's post has its Why? button, as the bot sends it
        )
        channel.sent.clear()
        # its own thread: the caller may be inside an event loop (Playwright's)
        with ThreadPoolExecutor(1) as worker:
            worker.submit(asyncio.run, poster.send(stored, state, stored_report)).result()
        for index, (payload, files) in enumerate(channel.sent, start=1):
            yield Card("Volleyball", f"{moment}, message {index}", payload, files)

    begins = league_begins_report(name, "every Sunday at 18:00 UTC", state, deadline, managers)
    yield from posted("the league begins", state, begins, 0)
    for number in range(1, rounds + 1):
        state, reports, _ = play_round_reports(name, state, managers, {}, deadline)
        yield from posted(f"round {number} results", state, reports[0], number)


GAMES: dict[str, Callable[..., Iterator[Card]]] = {
    "Rocketball": rocketball_cards,
    "Rollerball": rollerball_cards,
    "Rollerball II": rollerball2_cards,
    "Volleyball": volleyball_posts,
}

# The card's height as the page shows it: the whole message (author line, container, controls).
HEIGHT_JS = """id => {
    const message = document.querySelector(`#messages .message[data-id="${id}"]`);
    return message ? message.getBoundingClientRect().height : -1;
}"""
IMAGES_LOADED_JS = """id => [...document.querySelectorAll(
    `#messages .message[data-id="${id}"] img`)].every(img => img.complete && img.naturalWidth > 0)"""
