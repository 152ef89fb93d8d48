"""The no-drawing floor of bench/busy_matches.py: loaded into the bot only by that benchmark
(EXTRA_EXTENSIONS=bench.fixed_turn_image), never shipped, no command or setting reaches it.

It replaces the Rocketball presenter's drawing with one real round GIF drawn once at load time
(the median-sized round of a seeded match), so a turn costs everything it costs in play (lock,
load, engine, save, the card's layout, the upload of an image of the usual size, the response)
except drawing its image.
"""

from __future__ import annotations

from typing import Any


def typical_round_gif() -> tuple[bytes, str]:
    """The median-sized round GIF of a seeded match, as the presenter would upload it."""
    from render.catalogue import ROCKETBALL_NAMES, rocketball_rounds
    from render.rocketball import render_round

    drawn = [render_round(*round_, ROCKETBALL_NAMES) for round_ in rocketball_rounds(3, 20)]
    gifs = sorted((image for image in drawn if image[1].endswith(".gif")), key=lambda i: len(i[0]))
    return gifs[len(gifs) // 2]


async def setup(bot: Any) -> None:
    from cogs.rocketball import presenter

    image = typical_round_gif()

    def fixed_round(before: Any, events: Any, after: Any, names: Any = None) -> tuple[bytes, str]:
        return image

    presenter.render_round = fixed_round
