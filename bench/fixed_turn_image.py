"""The no-drawing floor of bench/busy_matches.py: loaded into the bot only by that benchmark
(EXTRA_EXTENSIONS=bench.fixed_turn_image), never shipped, no command or setting reaches it.

It replaces the game's drawing (BENCH_GAME: rocketball, the default, rollerball or rollerball2) with real
images drawn once at load time, of the usual size, so a turn costs everything it costs in play
(lock, load, engine, save, the card's layout, the upload of images of the usual size, the
response) except drawing them.
"""

from __future__ import annotations

import os
from typing import Any


def bench_game() -> str:
    """The game busy_matches.py measures (its --game), told to the bot's extensions."""
    return os.environ.get("BENCH_GAME", "rocketball")


def typical_round_gif() -> tuple[bytes, str]:
    """The median-sized round GIF of a seeded match, as the presenter would upload it."""
    from render.catalogue import ROCKETBALL_NAMES, rocketball_rounds
    from render.rocketball import render_round

    drawn = [render_round(*round_, ROCKETBALL_NAMES) for round_ in rocketball_rounds(3, 20)]
    gifs = sorted((image for image in drawn if image[1].endswith(".gif")), key=lambda i: len(i[0]))
    return gifs[len(gifs) // 2]


def typical_move_gif() -> tuple[bytes, str]:
    """The median-sized GIF of the balls' moves in a seeded two-player Rollerball game (later
    edition, 9 x 9), as the presenter would upload it."""
    from render.catalogue import ROLLERBALL_NAMES, rollerball_moves
    from render.rollerball import render_movement

    drawn = [render_movement(view, moved, ROLLERBALL_NAMES) for view, moved in rollerball_moves(2)]
    return sorted(drawn, key=len)[len(drawn) // 2], "move.gif"


def rollerball2_images() -> dict[str, bytes]:
    """A Rollerball II turn's images, drawn from a seeded match 70 actions in: its scoreboard,
    a player card with the row read lit, and a Fast Action Card's section."""
    from render.catalogue import rollerball2_match
    from render.rollerball2 import render_fac_section, render_player_card, render_scoreboard
    from rules.rollerball2 import load_content

    state, home, _final = rollerball2_match()
    fac = load_content().facs[0]
    return {
        "scoreboard.png": render_scoreboard(state),
        "card.png": render_player_card(home.players[0], ("offense", 4)),
        "fac.png": render_fac_section(fac, "event"),
    }


def typical_files() -> list[tuple[bytes, str]]:
    """What a turn of the measured game uploads: (bytes, filename) for each image. A Rollerball
    II match's first card read is a FAC: its card shows the scoreboard and the FAC's section."""
    if bench_game() == "rollerball2":
        images = rollerball2_images()
        return [(images[name], name) for name in ("scoreboard.png", "fac.png")]
    if bench_game() == "rollerball":
        return [typical_move_gif()]
    return [typical_round_gif()]


async def setup(bot: Any) -> None:
    if bench_game() == "rollerball2":
        from cogs.rollerball2 import presenter as rb2

        images = rollerball2_images()
        rb2.render_scoreboard = lambda state: images["scoreboard.png"]
        rb2.render_player_card = lambda card, roll=None: images["card.png"]
        rb2.render_fac_section = lambda fac, heading: images["fac.png"]
        return
    if bench_game() == "rollerball":
        from cogs.rollerball import presenter as rollerball

        data, name = typical_move_gif()
        rollerball.render_turn = lambda state, events, names=None: (name, data)
        return
    from cogs.rocketball import presenter

    image = typical_round_gif()

    def fixed_round(before: Any, events: Any, after: Any, names: Any = None) -> tuple[bytes, str]:
        return image

    presenter.render_round = fixed_round
