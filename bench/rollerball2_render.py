"""Rollerball II render benchmark: median time and PNG size of each image.

    python bench/rollerball2_render.py [--repeat N]

Targets: each card image under 15 ms; a FAC under 10 ms median and every box score
page under 150 KB. A FAC is drawn on a palette canvas (render/rollerball2/palette.py). Times are for drawing and encoding from scratch with text
measurements and rasterised text lines memoised, as in a running bot whose deck repeats its
sections card after card; "cold" rows empty the text caches first (a line never drawn before);
one line shows a FAC served from the finished-PNG cache.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from render.rollerball2 import (
    _fac_png,
    _gamecard_png,
    palette,
    render_box_score_pages,
    render_card_sheet,
    render_fac,
    render_fac_section,
    render_gamecard,
    render_player_card,
    render_scoresheet,
    render_standings,
    render_track,
)
from render.rollerball2.text import _line_mask
from rules.rollerball2 import auto_play, generate_roster, new_match, result
from rules.rollerball2.cards import Effect, FastActionCard, Flow, PlayerCard, Section
from rules.rollerball2.coach import choose_action
from rules.rollerball2.engine import apply
from rules.rollerball2.scoresheet import Absence, MatchResult, PlayerLine, TeamSheet
from rules.rollerball2.season import GameScore, standings

CARD = PlayerCard(
    number=6,
    name="JONATHAN E.",
    position="skater",
    experience="star",
    team="Houston",
    offense=("EVT", "GOAL", "GOAL", "PASS", "GOAL", "GOAL", "Att", "Bkr", "GOAL", "Bkr"),
    defense=("Bkr", "Att", "LOSE", "Att", "GOAL", "EVT", "Att", "LOSE", "Att", "LOSE"),
)

# The seed's sample FAC: about as many words as a card holds.
FAC_TEXTS = (
    "STAR Skater4 in Control (roll on Skater's card vs opponent). If no STAR in Skater4, "
    "defensive team now in control (pick new action).",
    "Biker3",
    "Veteran attacker penalized three minutes for smashing player in face. Player out for "
    "remainder of match. If Star or Rookie attacker, hit knocks ball loose and it rolls into gutter.",
    "Attacking Biker throws spiked glove at opponent biker's tire causing puncture. Three minute "
    "penalty. Opposing biker out until next new ball for repairs.",
    "If Visiting team has a third catcher, he scoops up the ball. Otherwise, the Home Catcher1 "
    "has control.",
    "Any random visiting player (including bikers) cripples least experienced home player with "
    "dirty hit. Home players and fans attack visitor. Each coach must roll D10 and the result is "
    "number of matches their player must miss. If '0' is rolled, the player is killed.",
)
EFFECT = Effect(ops=(), flow=Flow("retain"))
FAC = FastActionCard(41, *(Section(text, EFFECT) for text in FAC_TEXTS))


def lineup() -> list[PlayerCard]:
    positions = ["biker"] * 3 + ["skater"] * 5 + ["catcher"] * 2
    experiences = ["star", "veteran", "rookie"]
    return [
        PlayerCard(
            number,
            f"PLAYER NUMBER {number}",
            position,
            experiences[number % 3],
            "Houston",
            CARD.offense,
            CARD.defense,
        )
        for number, position in enumerate(positions, start=1)
    ]


def team(name: str, side: str) -> TeamSheet:
    players = []
    for number in range(1, 26):
        position = "skater" if number <= 11 else ("biker" if number <= 18 else "catcher")
        played = number <= 6 or 12 <= number <= 15 or 19 <= number <= 21
        players.append(PlayerLine(number, f"PLAYER {number}", position, "veteran", on_track=played))
    players[0].goals, players[0].assists = 3, 1
    players[2].penalty_minutes = 6
    players[18].catches = 7
    players[12].casualties = [3, 9]
    players[4].injury, players[4].exit = "broken jaw, misses 3 matches", True
    return TeamSheet(name, side, players, [2, 0, 1, 1])


RESULT = MatchResult(
    home=team("Houston", "home"),
    away=team("Madrid", "away"),
    winner=None,
    overtime=False,
    facs_played=120,
    carry_over={"home": [Absence(5, "injury", "matches", 3, "broken jaw")], "away": []},
)


def measure(
    render: Callable[[], bytes], repeat: int, *, cold: bool, masks: bool = True
) -> tuple[float, float, bytes]:
    render()  # load the fonts and fill the measurement memo, as a running bot would have
    times = []
    png = b""
    for _ in range(repeat):
        if cold:
            _fac_png.cache_clear()  # time the drawing, not the finished-FAC cache
        if not masks:  # and every line rasterised afresh
            _line_mask.cache_clear()
            palette._line_mask.cache_clear()
            palette._line_indices.cache_clear()
        start = time.perf_counter()
        png = render()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000, png


def match_in_play():
    """A real match 70 actions in (someone may be in the box), and a finished one."""
    home, away = generate_roster(31, "Houston"), generate_roster(32, "Tokyo")
    state = new_match(1, home, away)
    for _ in range(70):
        state, _ = apply(state, choose_action(state))
    final, _ = auto_play(new_match(1, home, away))
    return state, result(final)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    cards = lineup()
    few = max(3, args.repeat // 6)
    playing, final = match_in_play()
    teams = [f"Team {n}" for n in range(8)]
    table = standings(teams, [GameScore(teams[n], teams[7 - n], n, 7 - n) for n in range(4)])
    cases: list[tuple] = [
        ("player card", lambda: render_player_card(CARD), args.repeat, True),
        ("FAC (seed sample)", lambda: render_fac(FAC), args.repeat, True),
        ("FAC, EVENT highlighted", lambda: render_fac(FAC, highlight="EVENT"), args.repeat, True),
        ("FAC, cold text (1st draw)", lambda: render_fac(FAC), args.repeat, True, False),
        ("FAC again (cached PNG)", lambda: render_fac(FAC), args.repeat, False),
        (
            "card, rolled row lit",
            lambda: render_player_card(CARD, ("offense", 4)),
            args.repeat,
            True,
        ),
        ("track (match in play)", lambda: render_track(playing), args.repeat, True),
        (
            "game card (uncached)",
            lambda: (_gamecard_png.cache_clear(), render_gamecard())[1],
            few,
            True,
        ),
        ("standings (8 teams)", lambda: render_standings("Season", table)[0], args.repeat, True),
        ("FAC section (EVENT)", lambda: render_fac_section(FAC, "EVENT"), args.repeat, True),
        ("card sheet (10 cards)", lambda: render_card_sheet(cards), few, True),
        ("box score (13 a side)", lambda: render_scoresheet(RESULT), few, True),
    ]
    # The best time shows the cost without other processes competing for the two cores.
    print(f"{'image':<26}{'median ms':>10}{'best ms':>9}{'KiB':>8}  size")
    for label, render, repeat, cold, *masks in cases:
        median, best, png = measure(
            render, repeat, cold=cold, masks=bool(masks[0]) if masks else True
        )
        width, height = Image.open(io.BytesIO(png)).size
        print(f"{label:<26}{median:>10.1f}{best:>9.1f}{len(png) / 1024:>8.1f}  {width}x{height}")
    start = time.perf_counter()
    pages = render_box_score_pages(final)
    elapsed = (time.perf_counter() - start) * 1000
    sizes = ", ".join(
        f"{len(png) / 1024:.0f} KiB {Image.open(io.BytesIO(png)).size[1]} px" for png in pages
    )
    print(f"box score pages ({len(pages)}, {elapsed:.0f} ms in all): {sizes}")


if __name__ == "__main__":
    main()
