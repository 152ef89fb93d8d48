"""A newcomer's phone, 390 x 844: the tallest live card of each game, and the smallest text of
each posted image as the phone shows it.

    .venv/bin/python bench/phone_fit.py [--per-kind 2]

Cards: the cards a seeded match of each game draws (tests/sandbox/phone.py: the opening, the
first `--per-kind` cards of each set of images, the result), laid out by host/card.py as the bot
sends them, and Volleyball's public posts (a league of four: its start, its first two rounds'
results, as cogs/volleyball/posting.py sends them), posted to the local fake Discord and measured in the sandbox page in a headless
Chromium 390 x 844 (the message: author line, text, images, controls). Goal: at most one screen,
844 px. Images: each image type's smallest font (render/catalogue.py, render/textsize.py) at the
width a 390-px phone shows it in a card's gallery (298 px, measured in the same page by
tests/sandbox/test_phone_fit.py), not the file's width. Goal: at least 11 px.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.image_text_size import measure
from fakediscord import web
from fakediscord.server import FakeDiscord
from render.catalogue import image_types
from render.textsize import MIN_SHOWN_TEXT, SHOWN_WIDTH, shown_text
from tests.e2e.test_components_v2 import call
from tests.sandbox.conftest import browser_or_skip, local_page
from tests.sandbox.phone import (
    GAMES,
    HEIGHT_JS,
    IMAGES_LOADED_JS,
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
)


def card_heights(per_kind: int) -> dict[str, list[tuple[float, str]]]:
    """Each game's cards: (height in px at 390 wide, which card)."""
    fake = FakeDiscord(guild_name="Ballcourt Sandbox", rate_limits=False)  # posts at a test pace
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    found: dict[str, list[tuple[float, str]]] = {}
    try:
        with local_page(
            browser_or_skip(),
            Path(tempfile.mkdtemp(prefix="phone-fit-")),
            f"http://127.0.0.1:{fake.port}/?user={alice.id}&channel={general.id}",
            viewport={"width": SCREEN_WIDTH, "height": SCREEN_HEIGHT},
        ) as page:
            for game, cards in GAMES.items():
                for card in cards(per_kind):
                    path = f"/channels/{general.id}/messages"
                    status, posted = call(fake, "POST", path, card.payload, files=card.files)
                    assert status == 200, posted
                    page.wait_for_function(IMAGES_LOADED_JS, arg=posted["id"], timeout=20_000)
                    height = page.evaluate(HEIGHT_JS, posted["id"])
                    found.setdefault(game, []).append((height, card.moment))
    finally:
        fake.stop()
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-kind", type=int, default=2)
    args = parser.parse_args()
    print(f"phone {SCREEN_WIDTH} x {SCREEN_HEIGHT}: each card at most {SCREEN_HEIGHT} px tall")
    print(f"{'game':<16}{'cards':>6}{'tallest':>9}{'goal':>6}{'ratio':>7}  tallest card")
    for game, heights in card_heights(args.per_kind).items():
        tallest, moment = max(heights)
        verdict = "meets" if tallest <= SCREEN_HEIGHT else "misses"
        print(
            f"{game:<16}{len(heights):>6}{tallest:>9.0f}{SCREEN_HEIGHT:>6}"
            f"{tallest / SCREEN_HEIGHT:>7.2f}  {moment} ({verdict})"
        )
    print()
    print(
        f"images shown {SHOWN_WIDTH} px wide in a card on the phone; "
        f"smallest text at least {MIN_SHOWN_TEXT:.0f} px"
    )
    print(f"{'image':<38}{'file width':>11}{'font':>6}{'shown':>7}{'goal':>6}{'ratio':>7}")
    for kind in image_types():
        if kind.printable or kind.replaced_by:
            continue  # a sheet to print, or an image no cog posts any more
        sizes, smallest = measure(kind.draw)
        widest = max(width for width, _ in sizes)
        text = shown_text(smallest, widest)
        verdict = "meets" if text >= MIN_SHOWN_TEXT else "misses"
        print(
            f"{kind.name:<38}{widest:>11}{smallest:>6.0f}{text:>7.1f}{MIN_SHOWN_TEXT:>6.0f}"
            f"{text / MIN_SHOWN_TEXT:>7.2f}  ({verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
