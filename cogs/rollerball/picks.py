"""Rollerball moves picked, not typed (docs/rules/rollerball.md "On Discord"): the buttons and
menus of the live card and of a player's private panel, built from the engine's legal actions,
and the picks read back into actions.

What everyone may see is picked on the card: a square for a base, a workman or the ball, where
the workman moves, which card to take off the board. What needs your hand is picked on your
panel: the cards you bid, the card you place and then its squares, what your workman builds,
blows up or replaces, the card you discard, banking or keeping the card you earned. A pick that
leaves one legal move makes it; the others lead to the next pick (`Picked`). A finished pick is
the move's command (`format_action`) carried in the control, read back by the engine's own
parser, so a click and a typed move are one path.
"""

from __future__ import annotations

from collections import Counter

from host import FORM, ButtonSpec
from host.adapter import MAX_OPTIONS, Picked, SelectSpec, in_menus, play_button
from rules.rollerball import (
    ENGINE,
    SPLITTERS,
    Bid,
    BlowUp,
    Build,
    Discard,
    Pass,
    PlaceCard,
    Play,
    Replace,
    RollerballBoardError,
    Table,
    Take,
    card_name,
    geometry,
    kind_of,
    next_step,
)
from ui.formats import plural

Spec = ButtonSpec | SelectSpec
# The card shows at most 121 squares to pick from (a workman on the 11 x 11 board): 5 menus.
CARD_MENUS = 5
# The panel is a message of at most 5 rows: 4 menus and a row of buttons. Its largest pick is
# where a card goes in the set-up round, by its top or left square: at most 83 squares on an
# empty 11 x 11 board (tests/cogs/rollerball/test_picks.py walks every legal move).
PANEL_MENUS = 4
NO_PICK = "-"  # what "Back" to the first pick sends

TYPE_BUTTON = ButtonSpec("Type a move…", FORM, style="secondary")
# The square picks of the card: the command word and the menu's words.
SQUARE_PICKS = {
    "base": "Your base on",
    "workman": "Your workman on",
    "ball": "The ball on",
    "move": "Move your workman to",
    "take": "Take the card on",
}
# The steps decided on the panel: the card only says where.
PRIVATE_STEPS = frozenset({"bid", "rebid", "card", "action", "score", "discard"})
# The button that declines the step, on the card and on the panel alike.
PASS_LABELS = {"rebid": "Drop out", "card": "Pass (no more cards)", "action": "Pass"}


def legal_plays(table: Table, seat: int) -> list[Play]:
    """The seat's legal moves (resigning, always open, is never picked from a menu)."""
    return [play for play in ENGINE.legal_actions(table, seat) if isinstance(play, Play)]


def decode(table: Table, seat: int, arg: str) -> Play:
    """A control's move, read by the engine's parser and checked to be what the game waits for."""
    action = ENGINE.parse_action(table, seat, arg.replace("_", " "))
    assert isinstance(action, Play)
    return action


def _square_menus(
    action: str, words: str, squares: list[int], label, size: int, most: int, *, arg: str = ""
) -> list[SelectSpec]:
    """Menus of `squares` whose picks come back as `action` (and `arg` with the menu's number,
    so each menu has its own custom_id); each square shown as `label(square)`."""
    name = geometry(size).name
    return [
        SelectSpec(
            f"{words}… ({name(band[0])}–{name(band[-1])})",
            action,
            tuple((label(square), name(square)) for square in band),
            arg=f"{arg}{index}",
        )
        for index, band in enumerate(in_menus(sorted(squares), most))
    ]


def acting_seat(table: Table) -> int | None:
    seats = ENGINE.actors(table)
    return min(seats) if seats else None


# ---- the card: what everyone may see --------------------------------------------------------


def card_controls(table: Table) -> tuple[list[ButtonSpec], list[SelectSpec]]:
    """The card's buttons and menus for the decision the game waits for. Only public steps get
    menus here (a square, the workman's move, a card on the board); the others are picked on
    the private panel, and the card offers what needs no hand (Pass, Bank, the move form)."""
    seat = acting_seat(table)
    if seat is None:
        return [], []
    game = table.game
    kind = next_step(game).kind
    size = game.settings.board
    board = geometry(size)
    buttons: list[ButtonSpec] = []
    selects: list[SelectSpec] = []
    if kind in ("base", "workman", "ball"):
        squares = [play.action.square for play in legal_plays(table, seat)]

        def label(square: int) -> str:
            ring = board.ring(square)
            return f"{board.name(square)} · " + (f"ring {ring}" if ring else "the centre")

        selects = _square_menus(kind, SQUARE_PICKS[kind], squares, label, size, CARD_MENUS)
    elif kind == "move":
        start = game.workmen[seat]
        ends = [play.action.end for play in legal_plays(table, seat) if play.action.end != start]
        selects = _square_menus("move", SQUARE_PICKS["move"], ends, board.name, size, CARD_MENUS)
        buttons.append(ButtonSpec("Stay", "stay", style="secondary"))
    elif kind == "take":
        cards = {card.squares[0]: card for card in game.cards}
        squares = [
            play.action.square for play in legal_plays(table, seat) if isinstance(play.action, Take)
        ]

        def on_board(square: int) -> str:
            card = cards[square]
            a, b = (board.name(s) for s in card.squares)
            return f"{board.name(square)} · {card_name(card.kind)} {a}–{b}"

        selects = _square_menus("take", SQUARE_PICKS["take"], squares, on_board, size, CARD_MENUS)
        buttons.append(ButtonSpec("Take none", "pass", style="secondary"))
    elif kind in PASS_LABELS:
        buttons.append(_passing(kind))
    elif kind == "score":
        buttons += [
            ButtonSpec("Bank it (victory point)", "bank", style="success"),
            ButtonSpec("Keep it in hand", "keep", style="secondary"),
        ]
    if kind != "score":
        buttons.append(TYPE_BUTTON)
    return buttons, selects


def _passing(kind: str) -> ButtonSpec:
    return ButtonSpec(PASS_LABELS[kind], "pass", style="secondary")


def only_passing(table: Table) -> bool:
    """The deciding seat can only decline (no card it holds fits, its workman can do nothing):
    nothing is picked in its hand, the card's own button is all there is."""
    seat = acting_seat(table)
    kind = next_step(table.game).kind
    return (
        seat is not None
        and kind in PASS_LABELS
        and all(isinstance(play.action, Pass) for play in legal_plays(table, seat))
    )


def card_pick_action(table: Table, seat: int, action: str, value: str) -> Play:
    """A square picked on the card: its command, read by the engine (`move d3`, `base c3`)."""
    return decode(table, seat, f"{action}_{value}")


# ---- the panel: what needs your hand ---------------------------------------------------------


def _placement_label(action: PlaceCard | Build | Replace, size: int) -> str:
    name = geometry(size).name
    squares = sorted((action.first, action.second))
    text = "–".join(name(square) for square in squares)
    if action.kind in SPLITTERS:
        text += f", Y on {name(action.first)}"
    return text


def _placements(table: Table, seat: int, cls: type, kind: str) -> list[Play]:
    return [
        play
        for play in legal_plays(table, seat)
        if isinstance(play.action, cls) and play.action.kind == kind
    ]


def _top_left(play: Play) -> int:
    return min(play.action.first, play.action.second)


def _hand_menu(table: Table, seat: int, kind: str) -> list[Spec]:
    """The bid (or the raise in the open re-bid: at least as many cards as beat the highest
    total), picked from the cards in your hand."""
    hand = [kind_of(card) for card in table.game.hands[seat]]
    sizes = [
        len(play.action.kinds)
        for play in legal_plays(table, seat)
        if isinstance(play.action, Bid) and play.action.kinds
    ]
    options = tuple(
        (f"{card_name(card)} ({index + 1})", f"{card}.{index}") for index, card in enumerate(hand)
    )[:MAX_OPTIONS]
    controls: list[Spec] = []
    if options and sizes:
        controls.append(
            SelectSpec(
                "Pick the cards to bid"
                if kind == "bid"
                else f"Pick at least {plural(min(sizes)):card} to raise with",
                "bid",
                options,
                min_values=min(sizes),
                max_values=len(options),
            )
        )
    if kind == "bid":
        controls.append(ButtonSpec("Bid nothing (0 cards)", "bid-nothing", style="secondary"))
    else:
        controls.append(_passing(kind))
    return controls


def _counted(kinds: list[str], hand: list[int]) -> tuple[tuple[str, str], ...]:
    held = Counter(kind_of(card) for card in hand)
    return tuple(
        (card_name(kind) + (f" (×{held[kind]})" if held[kind] > 1 else ""), kind) for kind in kinds
    )


def _card_round(table: Table, seat: int, picked: str | None) -> list[Spec]:
    """The set-up round: the card, then its top or left square, then (if more than one way
    fits there) which way it lies."""
    size = table.game.settings.board
    name = geometry(size).name
    plays = [p for p in legal_plays(table, seat) if isinstance(p.action, PlaceCard)]
    passing = _passing("card")
    kind, _, square = (picked or "").partition(".")
    chosen = [play for play in plays if play.action.kind == kind]
    if not chosen:
        kinds = sorted({play.action.kind for play in plays})
        if not kinds:
            return [passing]
        options = _counted(kinds, table.game.hands[seat])
        return [SelectSpec("Pick the card to place", "card", options), passing]
    back = ButtonSpec("Back", "back", style="secondary")
    here = [play for play in chosen if name(_top_left(play)) == square]
    if not here:
        squares = sorted({_top_left(play) for play in chosen})
        return [
            *_square_menus(
                "at", "Its top or left square", squares, name, size, PANEL_MENUS, arg=f"{kind}."
            ),
            back,
            passing,
        ]
    return [
        *(
            play_button(ENGINE, _placement_label(play.action, size), play, "primary")
            for play in here
        ),
        ButtonSpec("Back", "back", kind, style="secondary"),
    ]


WORKMAN_VERBS = {Build: "build", BlowUp: "blow-up", Replace: "replace"}


def _workman_menu(table: Table, seat: int, picked: str | None) -> list[Spec]:
    """The workman's action: what he does (build a card of your hand, blow up the card under
    him by discarding one, replace it with one), then where the card goes."""
    size = table.game.settings.board
    plays = [p for p in legal_plays(table, seat) if not isinstance(p.action, Pass)]
    passing = _passing("action")
    verb, _, kind = (picked or "").partition(".")
    placing = {"build": Build, "replace": Replace}.get(verb)
    here = _placements(table, seat, placing, kind) if placing else []
    if here:
        return [
            *(
                play_button(ENGINE, _placement_label(play.action, size), play, "primary")
                for play in here
            ),
            ButtonSpec("Back", "back", style="secondary"),
        ]
    options: list[tuple[str, str]] = []
    for cls, verb in WORKMAN_VERBS.items():
        kinds = sorted(
            {
                play.action.discard if cls is BlowUp else play.action.kind
                for play in plays
                if isinstance(play.action, cls)
            }
        )
        for kind in kinds:
            what = card_name(kind)
            label = {
                "build": f"Build: {what}",
                "blow-up": f"Blow up the card under him, discarding {what}",
                "replace": f"Replace the card under him with: {what}",
            }[verb]
            options.append((label, f"{verb}.{kind}"))
    if not options:
        return [passing]
    return [SelectSpec("What your workman does", "use", tuple(options)), passing]


def panel_controls(table: Table, seat: int, picked: str | None) -> list[Spec]:
    """The choices on `seat`'s private panel now (none when it does not decide)."""
    if table.over or seat not in ENGINE.actors(table):
        return []
    kind = next_step(table.game).kind
    if picked == NO_PICK:
        picked = None
    if kind in ("bid", "rebid"):
        return _hand_menu(table, seat, kind)
    if kind == "card":
        return _card_round(table, seat, picked)
    if kind == "action":
        return _workman_menu(table, seat, picked)
    if kind == "score":
        return [
            ButtonSpec("Bank it (victory point)", "bank", style="success"),
            ButtonSpec("Keep it in hand", "keep", style="secondary"),
        ]
    if kind == "discard":
        return [
            play_button(ENGINE, f"Discard {card_name(play.action.kind)}", play, "primary")
            for play in legal_plays(table, seat)
            if isinstance(play.action, Discard)
        ]
    return []


def only_move(plays: list[Play]) -> Play | None:
    return plays[0] if len(plays) == 1 else None


def panel_pick(
    table: Table, seat: int, action: str, arg: str | None, values: list[str]
) -> Play | Picked:
    """A pick on the panel: the move it completes, or the next pick."""
    size = table.game.settings.board
    value = values[0] if values else ""
    if action == "bid":
        kinds = tuple(sorted(value.rsplit(".", 1)[0] for value in values))
        return Play(Bid(kinds), size)
    if action == "card":
        plays = [
            play
            for play in legal_plays(table, seat)
            if isinstance(play.action, PlaceCard) and play.action.kind == value
        ]
        if not plays:
            raise RollerballBoardError("You cannot place that card now: pick one from the menu.")
        return only_move(plays) or Picked(value)
    if action == "at":
        kind = (arg or "").rsplit(".", 1)[0]
        name = geometry(size).name
        plays = [
            play
            for play in _placements(table, seat, PlaceCard, kind)
            if name(_top_left(play)) == value
        ]
        if not plays:
            raise RollerballBoardError(
                "That card does not fit there now: pick a square from the menu."
            )
        return only_move(plays) or Picked(f"{kind}.{value}")
    if action == "use":
        verb, _, kind = value.partition(".")
        if verb == "blow-up":
            return decode(table, seat, f"blow-up_{kind}")
        cls = {"build": Build, "replace": Replace}.get(verb)
        plays = _placements(table, seat, cls, kind) if cls else []
        if not plays:
            raise RollerballBoardError("Your workman cannot do that now: pick from the menu.")
        return only_move(plays) or Picked(value)
    if action in SQUARE_PICKS:
        return card_pick_action(table, seat, action, value)
    raise RollerballBoardError("That menu does nothing any more.")


def where_text(table: Table) -> str:
    """Where the card says the decision it waits for is picked."""
    kind = next_step(table.game).kind
    if only_passing(table):
        return f"Nothing can be picked in your hand now: **{PASS_LABELS[kind]}** below."
    if kind == "score":
        return "Bank it or keep it below; **My hand** shows the card (only to you)."
    if kind in PRIVATE_STEPS:
        return "Pick it in **My hand** (only you see it), or type it."
    return "Pick it below, or type it."


def button_pick(table: Table, seat: int, action: str, arg: str | None) -> Play | Picked:
    """A picking button: back a pick (a finished move is the host's play_button)."""
    if action == "back":
        return Picked(arg or NO_PICK)
    raise RollerballBoardError("That button does nothing any more.")


# What the panel says the deciding player picks now, by step and by how far they have picked.
DECISIONS = {
    "bid": "your secret bid: pick the cards in the menu, or **Bid nothing**.",
    "rebid": "raise the bid with cards from the menu (your total must beat the highest), or "
    "**Drop out**.",
    "card": "place a card: pick it in the menu, then its top or left square; or **Pass** (you "
    "place no more cards).",
    "action": "use your workman: pick what he does in the menu, or **Pass**.",
    "score": "a ball ran over your base: **Bank it** as a victory point or **Keep it** in hand.",
    "discard": "your workman was hit: pick the card to discard.",
}


def decision_text(table: Table, seat: int, picked: str | None) -> str | None:
    """The panel's prompt for `seat`: what to pick now (None: nothing is picked on the panel
    now; a decision everyone may see is picked on the card)."""
    if table.over or seat not in ENGINE.actors(table):
        return None
    kind = next_step(table.game).kind
    if kind not in DECISIONS:
        return None  # picked on the card: the panel stays as it is
    if only_passing(table):
        return f"nothing can be picked in your hand now: **{PASS_LABELS[kind]}**."
    first, _, second = ("" if picked in (None, NO_PICK) else picked).partition(".")
    if kind == "card" and first and second:
        return (
            f"placing {card_name(first)} with its top or left square on {second}: pick how it lies."
        )
    if kind == "card" and first:
        return f"placing {card_name(first)}: pick its top or left square."
    if kind == "action" and first in ("build", "replace") and second:
        verb = "build" if first == "build" else "replace the card under him with"
        return f"{verb} {card_name(second)}: pick the squares it covers."
    return DECISIONS[kind]
