"""Rocketball's presenter on the match host: the live card, its buttons and menus, the move form.

Seat 0 is North (the challenger), seat 1 South. Everything else about running a match is the
host's (host)."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import discord

from host import FORM, ButtonSpec, FormSpec, GameAdapter, Match, Step, TurnPost
from host.adapter import Picked, SelectSpec, bullets, in_menus, play_button
from render.rocketball import prepare_round, render_board, render_round
from rules.rocketball import (
    ENGINE,
    Action,
    Aim,
    Drift,
    GameState,
    MoveEvent,
    Pass,
    Place,
    RocketballError,
    Roll,
    Rotate,
    describe_next,
    format_action,
    legal_actions,
    next_step,
    parse_command,
    suggested_actions,
)
from ui import rulebook, shown

SEATS = ("N", "S")


class Controls(NamedTuple):
    """A card's buttons and menus, and the moves its buttons make in one click, the suggested
    one first."""

    buttons: list[ButtonSpec]
    selects: list[SelectSpec]
    one_click: tuple[Action, ...] = ()


# The rules page in Discord: each variant's topic carries its rows of the rulings table.
RULEBOOK = rulebook.register(
    rulebook.Rulebook(
        "rocketball",
        colour=0xD55E00,
        label={"Variants": "Variant"},
        groups=(
            ("Bumpers", ("bumper",)),
            ("Twisters", ("twister",)),
            ("Gusts", ("gust",)),
            ("Barricades", ("barricade",)),
            ("Moguls", ("mogul",)),
            ("Djinns", ("djinn",)),
            ("Tug-of-War", ("tug-of-war",)),
            ("Assault!", ("assault",)),
            ("Drifting Winds", ("drifting winds",)),
        ),
    )
)
COLOUR = discord.Colour(0xD55E00)
MAX_EVENT_TEXT = 3500  # leave room in the 4096-character description for the prompt


MAX_SQUARE_SELECTS = 4  # 77 squares at most: four menus
MAX_PICK_BUTTONS = 20
BEST_MOVES = 3  # the suggestion and the next best moves, as buttons before the square menus
# The card's pick that shows the square menus: the best moves come first as buttons, and the
# menus of every open square (up to four rows) only when asked for, so that the board, what
# happened and the controls fit one phone screen together.
SQUARES = "squares"
BACK = "-"  # the pick of the Back button: no square
FACINGS = {"N": "North ↑", "E": "East →", "S": "South ↓", "W": "West ←"}


def names_by_seat(match: Match, *, as_text: bool = True) -> dict[str, str]:
    """Display names by side: escaped for a message (`as_text`), as typed for an image."""
    return {
        seat: shown(name) if as_text else name
        for seat, name in zip(SEATS, match.names, strict=False)
    }


def square_order(square: str) -> tuple[int, str]:
    return int(square[1:]), square[0]


def moves_by_square(state: GameState) -> dict[str, list[tuple[str, Any]]]:
    """The legal placements, rotations and drifts, by the square they start on, each with the
    label of its button."""
    found: dict[str, list[tuple[str, Any]]] = {}
    for action in legal_actions(state):
        if isinstance(action, Place):
            what = f"{action.kind} " if action.kind else ""
            facing = f"facing {FACINGS[action.facing]}" if action.facing else "here"
            found.setdefault(action.square, []).append((f"Place {what}{facing}", action))
        elif isinstance(action, Rotate):
            turn = "clockwise ↻" if action.clockwise else "counterclockwise ↺"
            found.setdefault(action.square, []).append((f"Rotate {turn}", action))
        elif isinstance(action, Drift):
            label = f"Drift to {action.to_square}"
            found.setdefault(action.from_square, []).append((label, action))
    return found


def square_label(state: GameState, square: str) -> str:
    chip = state.chips.get(square)
    return f"{square} (chip there: rotate or drift)" if chip else square


class RocketballAdapter(GameAdapter):
    engine = ENGINE
    # The d4 that begins a round has no choice in it: it is rolled as the turn begins, unless
    # a player presses it themselves (docs/rules/rocketball.md "The roll is made for you").
    rolls_for_players = True
    # A picked square is marked on the board the card shows (its images are drawn anew).
    marks_picks = True

    # ---- what a click or a typed move means ---------------------------------------------------

    def parse_text(self, state: GameState, seat: int, text: str) -> Any:
        """A typed move; a mistake is answered with every form a move can take (the rules
        page's "Typing moves", so the two never disagree)."""
        try:
            return parse_command(text, SEATS[seat])
        except RocketballError as error:
            forms = RULEBOOK.find("Typing moves").pages[0]
            raise RocketballError(f"{error}\n**Moves are typed like this:** {forms}") from None

    def button_action(self, state: GameState, seat: int, action: str, arg: str | None) -> Any:
        if action == "back":
            return Picked(BACK)
        if action == SQUARES:
            return Picked(SQUARES)
        if action == "roll":
            return Roll()
        if action == "pass":
            return Pass()
        if action == "aim" and arg in ("N", "E", "S", "W"):
            return Aim(arg)
        raise RocketballError("That button does nothing any more.")

    def auto_label(self, match: Match) -> str | None:
        return "rolling the d4"

    # ---- how it looks -------------------------------------------------------------------------

    def seat_label(self, match: Match, seat: int) -> str:
        name = shown(match.names[seat]) if seat < len(match.names) else ""
        side = ("North", "South")[seat]
        return f"{side} ({name})" if name else side

    def next_text(self, match: Match) -> str:
        return describe_next(next_step(match.engine), names_by_seat(match))

    def score_text(self, match: Match) -> str:
        north, south = next_step(match.engine).score
        return f"North {north}-{south} South"

    def result_text(self, match: Match) -> str:
        text = self.next_text(match)
        if match.forfeited_by is not None:
            text += f" {self.seat_label(match, match.forfeited_by)} did not move in time."
        return text

    def happened(self, match: Match, step: Step) -> str:
        # The result is said once, in the message that pings the players: not again here.
        texts = step.texts
        if texts is None:
            texts = [e.text for e in step.events if e.kind != "game_over"]
        return bullets(texts, MAX_EVENT_TEXT)

    def draw_turn(
        self, match: Match, step: Step, *, game_id: int, final: bool, picked: str | None = None
    ) -> TurnPost:
        state = step.after
        names = names_by_seat(match, as_text=False)  # drawn in the image as typed
        moved = any(isinstance(event, MoveEvent) for event in step.events)
        # The card always shows the field: after a roll the ball's path as a GIF ending on the
        # board, else the board with the squares the turn touched highlighted. A redraw for a
        # pick keeps the image the card has.
        images: list[tuple[str, bytes | None]] = []
        square = picked if picked not in (BACK, SQUARES) else None
        controls = self._controls(state, picked) if final else Controls([], [])
        if picked is None:
            image, filename = render_round(step.before, step.events, state, names)
            images.append((filename, image))
            if final:  # what the worker can draw of the next round while this card is read
                # a computer's roll comes with its chip, in the same message: not predicted
                rolled_for = frozenset(
                    SEATS[seat] for seat in match.auto if seat not in match.computers
                )
                prepare_round(state, names, likely=controls.one_click, rolled_for=rolled_for)
        else:  # a pick: the board with the picked square marked (Back: none)
            marked = [square] if square else []
            images.append(("board.png", render_board(state, highlight=marked, names=names)))
        if state.over:
            prompt = f"**{self.result_text(match)}**"
        elif square:
            prompt = (
                f"**{self.next_text(match)}** Square {square} (marked on the board): pick what "
                "to do there."
            )
        elif picked == SQUARES:
            prompt = f"**{self.next_text(match)}** Pick the square for your chip."
        else:
            prompt = f"**Next:** {self.next_text(match)}"
        variants = ", ".join(name.replace("_", " ") for name in state.settings.variant_names())
        footer = f"First to {state.settings.target_score}"
        if variants:
            footer += f" · variants: {variants}"
        if moved:
            footer += " · the animation shows the ball's path"
        return TurnPost(
            title=f"Rocketball #{game_id} · North {state.score['N']} – {state.score['S']} South",
            body=prompt,
            happened=self.happened(match, step),
            colour=COLOUR.value,
            images=images,
            footer=footer,
            buttons=controls.buttons,
            selects=controls.selects,
            rematch=state.over,
        )

    def milestones(self, match: Match, step: Step) -> list[str]:
        """A goal is worth a message of its own: someone scrolling back sees the score move."""
        return [f"⚽ {e.text}" for e in step.events if e.kind == "goal"]

    @staticmethod
    def _controls(state: GameState, picked: str | None) -> Controls:
        """Moves are picked, not typed: roll and aim are buttons; a chip is placed, rotated or
        drifted with one click on the suggested move or one of the next best, or by picking its
        square (Other squares…: the menus of the open squares) and then what to do there. The
        form stays for typing."""
        step = next_step(state)
        if step.kind == "roll":
            return Controls([ButtonSpec("Roll the d4", "roll")], [])
        if step.kind == "aim":
            return Controls([ButtonSpec(f"Aim {d}", "aim", d) for d in "NESW"], [])
        if step.kind != "place":
            return Controls([], [])
        if step.options == ("pass",):
            return Controls([ButtonSpec("Pass (no move possible)", "pass", style="secondary")], [])
        by_square = moves_by_square(state)
        typing = ButtonSpec("Type a move…", FORM, style="secondary")
        if picked and picked in by_square:
            moves = by_square[picked]
            buttons = [
                play_button(ENGINE, label, action) for label, action in moves[:MAX_PICK_BUTTONS]
            ]
            return Controls([*buttons, ButtonSpec("Back", "back", style="secondary")], [])
        selects = [
            SelectSpec(
                f"Squares {chunk[0]}–{chunk[-1]}",
                "square",
                tuple((square_label(state, square), square) for square in chunk),
                arg=str(band),  # each menu its own custom_id
            )
            for band, chunk in enumerate(
                in_menus(sorted(by_square, key=square_order), MAX_SQUARE_SELECTS)
            )
        ]
        if picked == SQUARES:
            return Controls([ButtonSpec("Back", "back", style="secondary"), typing], selects)
        best = suggested_actions(state, random.Random(state.seed + len(state.history)), BEST_MOVES)
        suggest = play_button(ENGINE, f"Suggested: {format_action(best[0])}", best[0])
        # Keyed by the action itself (a frozen dataclass, equal when its command text is):
        # formatting every legal move's text to look up four was a quarter of this method.
        labels = {
            action: f"{square} · {label}"
            for square, moves in by_square.items()
            for label, action in moves
        }
        others = [action for action in best[1:] if action in labels]
        buttons = [
            play_button(ENGINE, labels[action], action, style="primary") for action in others
        ]
        squares = ButtonSpec("Other squares…", SQUARES, style="secondary")
        return Controls([suggest, *buttons, squares, typing], [], (best[0], *others))

    def select_action(
        self, state: GameState, seat: int, action: str, arg: str | None, values: list[str]
    ) -> Any:
        if action == "square" and len(values) == 1 and values[0] in moves_by_square(state):
            return Picked(values[0])
        raise RocketballError("That square is not open for your chip now: pick one from the menu.")

    def move_form(self, match: Match, seat: int) -> FormSpec:
        state = match.engine
        drawn = state.drawn
        hint = "e.g. c4 N · rotate c4 cw"
        if drawn == "djinn":
            hint = "djinn: square, facing and chip, e.g. c4 N vortex"
        elif drawn and drawn not in ("vortex", "gust"):
            hint = f"{drawn} chip: just the square, e.g. e5 · or rotate c4 cw"
        if state.settings.drifting_winds:
            hint += " · drift c4 c5"
        return FormSpec("Your move", "Move (square + facing, or rotate)", hint)
