"""Phone readability of every image the games post: the smallest text as a 390-px phone shows it.

    python bench/image_text_size.py

For each image type (render/catalogue.py: a seeded sample of each), the fonts Pillow really
rasterised while drawing it (render/textsize.py) and the image's size give the smallest text
on the screen: smallest font size x shown width / image width, the image being shown at most
SHOWN_WIDTH (298) px wide in a card on a 390-px phone. Goal: at least 11 px. Boards
are also held to at most 4:3 portrait (height / width <= 1.33), so a desktop window shows the
whole board with its card. Printable sheets are listed but not held to the phone rule, nor are
the older images a cog still posts until it switches to their phone versions (named).
Columns: image, size (px, the largest page for a set of pages), smallest font, shown width,
smallest shown text, goal, ratio to the goal (>= 1.00 passes), height/width.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from render.catalogue import image_types
from render.textsize import (
    BOARD_MAX_RATIO,
    MIN_SHOWN_TEXT,
    SHOWN_WIDTH,
    recorded_text_sizes,
    shown_scale,
    shown_text,
)


def measure(draw) -> tuple[list[tuple[int, int]], float]:
    """The pages' sizes and the smallest font drawn (px)."""
    with recorded_text_sizes() as sizes:
        drawn = draw()
    pages = drawn if isinstance(drawn, list) else [drawn]
    return [Image.open(io.BytesIO(page)).size for page in pages], min(sizes)


def main() -> int:
    print(
        f"phone: images shown at most {SHOWN_WIDTH} px wide; goal {MIN_SHOWN_TEXT:.0f} px; "
        f"boards at most {BOARD_MAX_RATIO:.2f} tall per px wide"
    )
    head = f"{'image':<34}{'size':>10}{'font':>6}{'shown':>7}{'text':>7}{'goal':>6}{'ratio':>7}{'h/w':>6}"
    print(head)
    failures = []
    for kind in image_types():
        sizes, smallest = measure(kind.draw)
        widest = max(width for width, _ in sizes)
        # Every page is held to the rule: the widest page shows its text smallest.
        text = shown_text(smallest, widest)
        tallest = max(height / width for width, height in sizes)
        width, height = max(sizes, key=lambda size: size[1] / size[0])
        label = kind.name + ("" if kind.ours else " *")
        note = ""
        if kind.printable:
            note = "  (printable sheet: not held to the phone rule)"
        elif kind.replaced_by:
            note = f"  (no longer posted: the phone gets {kind.replaced_by})"
        elif text < MIN_SHOWN_TEXT or (kind.board and tallest > BOARD_MAX_RATIO + 0.01):
            failures.append(kind.name)
            note = "  <- below the goal" if text < MIN_SHOWN_TEXT else "  <- taller than 4:3"
        print(
            f"{label:<34}{f'{width}x{height}':>10}{smallest:>6.0f}"
            f"{widest * shown_scale(widest):>7.0f}{text:>7.1f}{MIN_SHOWN_TEXT:>6.0f}"
            f"{text / MIN_SHOWN_TEXT:>7.2f}{tallest:>6.2f}{note}"
        )
    unheld = [kind.name for kind in image_types() if not kind.ours]
    if unheld:
        print(f"* not held to the phone rule yet: {', '.join(unheld)}")
    print(f"{len(failures)} image types below the goal: {', '.join(failures) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
