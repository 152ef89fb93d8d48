"""The board PNG and movement GIF, checked by sampling pixels where the state says things are."""

from __future__ import annotations

import io
from typing import cast

from PIL import Image, ImageChops, ImageStat
from PIL.GifImagePlugin import GifImageFile

from render.rollerball import PLAYER_COLOURS, render_board, render_movement, square_centre
from render.rollerball.layout import BALL_ENERGISED, BALL_NORMAL, CARD_BALL, CARD_TRACK, square_box
from rules.rollerball import BallsMoved, view_for
from rules.rollerball.actions import Pass
from rules.rollerball.engine import apply
from tests.support.rollerball_helpers import scenario, sq


def png(state) -> Image.Image:
    image = Image.open(io.BytesIO(render_board(state)))
    assert image.format == "PNG"
    return image.convert("RGB")


def close(colour, expected, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def test_bases_workmen_balls_and_cards_are_where_the_state_says():
    state = scenario(
        players=3,
        balls=["c1", ("g1", {"energised": True})],
        bases=("a9", "i1", "a1"),
        workmen=("e5", "c7", "e3"),
        cards=[("up-move", "d6", "d7"), ("energiser", "f9", "g9")],
    )
    image = png(view_for(state, None))
    for seat, base in enumerate(state.bases):
        assert base is not None
        left, top, right, bottom = square_box(9, base)
        # the middle-right of the base tile (clear of the number) has the player's colour
        assert close(image.getpixel((right - 10, (top + bottom) // 2)), PLAYER_COLOURS[seat])
    for seat, workman in enumerate(state.workmen):
        assert workman is not None
        x, y = square_centre(9, workman)
        assert close(image.getpixel((x - 11, y + 10)), PLAYER_COLOURS[seat])
    x, y = square_centre(9, sq("c1"))
    assert close(image.getpixel((x + 8, y - 8)), BALL_NORMAL, 10)
    x, y = square_centre(9, sq("g1"))
    assert close(image.getpixel((x + 8, y - 8)), BALL_ENERGISED)
    left, top, right, bottom = square_box(9, sq("d6"))
    assert close(image.getpixel((left + 12, top + 12)), CARD_TRACK)
    left, top, right, bottom = square_box(9, sq("g9"))
    assert close(image.getpixel((right - 12, top + 12)), CARD_BALL["energiser"])
    # an empty track square is neither
    left, top, right, bottom = square_box(9, sq("h6"))
    assert not close(image.getpixel((left + 30, top + 30)), CARD_TRACK)


def test_a_splitter_shows_its_y_on_the_y_square_only():
    state = scenario(cards=[("split-up", "d2", "d1")])
    image = png(state)
    yellow = BALL_ENERGISED

    def yellow_pixels(square):
        left, top, right, bottom = square_box(9, square)
        return sum(
            close(image.getpixel((x, y)), yellow, 30)
            for x in range(left, right, 2)
            for y in range(top, bottom, 2)
        )

    assert yellow_pixels(sq("d2")) > 40 and yellow_pixels(sq("d1")) == 0


def test_the_movement_gif_shows_the_ball_on_each_square_it_passes():
    state = scenario(balls=["c1"])
    state, events = apply(state, Pass(), 0)
    moved = next(e for e in events if isinstance(e, BallsMoved))
    gif = Image.open(io.BytesIO(render_movement(state, moved)))
    assert (
        isinstance(gif, GifImageFile) and gif.n_frames == 5
    )  # the start, then two sliding frames for each of two spaces
    seen = []
    for index in (0, 2, 4):
        gif.seek(index)
        frame = gif.convert("RGB")
        for name in ("c1", "d1", "e1"):
            x, y = square_centre(9, sq(name))
            if close(frame.getpixel((x + 8, y - 8)), BALL_NORMAL, 10):
                seen.append(name)
    assert seen == ["c1", "d1", "e1"]


def test_the_movement_gif_is_the_whole_board_ending_on_the_balls_paths():
    """The card shows one board after balls moved: the GIF is the board image's size (header,
    players and legend included) and its last frame, the position after the move, marks in red
    the squares each ball passed, and only those."""
    state = scenario(balls=["c1"])
    state, events = apply(state, Pass(), 0)
    moved = next(e for e in events if isinstance(e, BallsMoved))
    gif = Image.open(io.BytesIO(render_movement(state, moved)))
    assert isinstance(gif, GifImageFile) and gif.size == png(state).size
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")

    def red_between(start: str, end: str) -> bool:
        (x0, y0), (x1, y1) = square_centre(9, sq(start)), square_centre(9, sq(end))
        return close(last.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)), (200, 40, 40), 30)

    assert red_between("c1", "d1") and red_between("d1", "e1")
    assert not red_between("e1", "f1") and not red_between("b1", "c1")


def test_the_hand_in_its_colours_is_the_drawing_to_the_eye():
    """The panel's hand is sent in a palette of 256 (render/rollerball/hand.py): the same
    picture within a few shades, flat colours flat, in far fewer bytes."""
    from render.catalogue import ROLLERBALL_NAMES, rollerball_hand_view
    from render.rollerball import render_hand
    from render.rollerball.hand import hand_image

    view, seat = rollerball_hand_view()
    for new, earned in ((frozenset(), None), (frozenset(view.hands[seat][-1:]), 0)):
        drawn = hand_image(view, seat, ROLLERBALL_NAMES[seat], new=new, earned=earned)
        data = render_hand(view, seat, ROLLERBALL_NAMES[seat], new=new, earned=earned)
        sent = Image.open(io.BytesIO(data))
        assert sent.format == "PNG" and sent.mode == "P" and len(data) < 20_000
        shown = sent.convert("RGB")
        assert shown.size == drawn.size
        difference = ImageChops.difference(drawn, shown)
        extrema = cast("tuple[tuple[int, int], ...]", difference.getextrema())
        assert max(most for _, most in extrema) <= 48  # an edge of the type
        assert max(ImageStat.Stat(difference).mean) < 2  # the picture: a shade at most
        # no dithering: the drawing's colours, a few shades off, and no more of them
        area = drawn.width * drawn.height
        assert len(shown.getcolors(area) or []) <= len(drawn.getcolors(area) or [])


def test_a_hand_that_shows_the_same_is_not_drawn_again(monkeypatch):
    """An open panel is drawn again after every move: a hand showing what one drawn lately
    showed is that one's bytes; any change it shows (a card, NEW, the earned card, the name)
    draws it."""
    from render.catalogue import rollerball_hand_view
    from render.rollerball import hand as hand_module
    from render.rollerball import render_hand

    hand_module.hand_palette()  # made once, from a drawing of its own
    drawn = []
    real = hand_module._draw_hand

    def counting(shown):
        drawn.append(shown)
        return real(shown)

    monkeypatch.setattr(hand_module, "_draw_hand", counting)
    hand_module._hand_png.cache_clear()
    view, seat = rollerball_hand_view()
    first = render_hand(view, seat, "Ann")
    assert render_hand(view, seat, "Ann") == first and len(drawn) == 1
    newest = frozenset(view.hands[seat][-1:])
    marked = render_hand(view, seat, "Ann", new=newest)
    earned = render_hand(view, seat, "Ann", earned=0)
    other = render_hand(view, seat, "Bea")
    assert len(drawn) == 4 and len({first, marked, earned, other}) == 4
    assert hand_module._hand_png.cache_info().maxsize == 256  # about 3 MB at most
    hand_module._hand_png.cache_clear()
