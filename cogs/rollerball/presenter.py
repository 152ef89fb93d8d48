"""Rollerball's (the board game's) presenter on the match host: the live card, its buttons, the
move form, the hand only its owner sees.

Seats are the lobby's order (seat 0 opened the table); the engine calls them "Player 1".. and
the texts here put the players' names in. Everything else about running a game (the lobby,
threads, locks, saves, timers, records, stand-ins) is the host's (host)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from cogs.rollerball import picks, texts
from host import ButtonSpec, FormSpec, GameAdapter, Match, Step, TurnPost
from host.adapter import Picked, SelectSpec, bullets
from render.rollerball import render_hand, render_turn
from rules.rollerball import (
    ENGINE,
    Bank,
    Bid,
    Keep,
    Move,
    Pass,
    Play,
    Resign,
    RollerballBoardError,
    Table,
    describe_next_step,
    geometry,
    next_step,
    view_for,
)
from ui import quote, shown
from ui.formats import plural

COLOUR = discord.Colour(0x009E73)
MAX_EVENT_TEXT = 3300  # leave room in the 4096-character description for the prompt
WIN_EVENT = " wins with "  # the engine's win event; the host says the result once itself


def names_by_seat(match: Match, *, as_text: bool = True) -> dict[int, str]:
    """Display names by seat: escaped for a message (`as_text`), as typed for an image."""
    return {seat: shown(name) if as_text else name for seat, name in enumerate(match.names)}


class RollerballAdapter(GameAdapter):
    engine = ENGINE
    new_command = "new"
    private_label = "My hand"

    # ---- what a click or a typed move means ---------------------------------------------------

    def parse_text(self, state: Table, seat: int, text: str) -> Play | Resign:
        """A typed command (the engine face completes it for the step: `d3` while moving is
        `move d3`); the refusal names every form accepted now."""
        try:
            return ENGINE.parse_action(state, seat, text)
        except RollerballBoardError as error:
            said = str(error)
            if "Commands:" in said:  # the engine's list of every command: say this step's
                said = f"{quote(text)} is not a move I know."
            accepted = texts.forms(state.game, next_step(state.game).kind)
            raise RollerballBoardError(f"{said} Now you can type: {accepted}.") from None

    def button_action(self, state: Table, seat: int, action: str, arg: str | None) -> Play | Picked:
        game = state.game
        size = game.settings.board
        if action == "pass":
            return Play(Pass(), size)
        workman = game.workmen[seat]
        if action == "stay" and workman is not None:
            return Play(Move(workman, workman), size)
        if action == "bank":
            return Play(Bank(), size)
        if action == "bid-nothing":
            return Play(Bid(()), size)
        if action == "keep":
            return Play(Keep(), size)
        return picks.button_pick(state, seat, action, arg)

    # ---- how it looks -------------------------------------------------------------------------

    def seat_label(self, match: Match, seat: int) -> str:
        name = shown(match.names[seat]) if seat < len(match.names) else ""
        return name or f"Player {seat + 1}"

    def next_text(self, match: Match) -> str:
        if match.engine.over:
            return self.result_text(match)
        return describe_next_step(match.engine.game, names_by_seat(match))

    def score_text(self, match: Match) -> str:
        """Each seat's victory points: banked face down, but how many is on the board."""
        piles = match.engine.game.victory
        return (
            ", ".join(
                f"{self.seat_label(match, seat)} {len(pile)}" for seat, pile in enumerate(piles)
            )
            + " VP"
        )

    def result_text(self, match: Match) -> str:
        table: Table = match.engine
        game = table.game
        names = names_by_seat(match)
        winners = table.final_winners
        who = " and ".join(names.get(s, f"Player {s + 1}") for s in winners) or "Nobody"
        points = len(game.victory[winners[0]]) if winners else 0
        vp = f"{plural(points):victory point}"
        won = f"{plural(len(winners)):wins|share the win!}"
        if table.ended_by_resignation:
            gone = " and ".join(names.get(s, f"Player {s + 1}") for s in table.resigned)
            text = f"{who} {won} with {vp}: {gone} resigned."
        elif game.turn_number > game.settings.turn_limit:
            text = f"The turn limit is reached: {who} {won} with {vp}."
        else:
            text = f"{who} {won} with {vp}!"
        if match.forfeited_by is not None:
            text += f" {names.get(match.forfeited_by)} did not move in time."
        return text

    def happened(self, match: Match, step: Step) -> str:
        said = step.texts
        if said is None:
            said = [event.text for event in step.events if WIN_EVENT not in event.text]
        return bullets((self.said(match, text) for text in said if text), MAX_EVENT_TEXT)

    def draw_turn(
        self, match: Match, step: Step, *, game_id: int, final: bool, picked: str | None = None
    ) -> TurnPost:
        table: Table = step.after
        game = table.game
        drawn = names_by_seat(match, as_text=False)
        public = view_for(game, None)  # hands only counted, no deck order, no open bids
        files = [render_turn(public, step.events, drawn)]
        moved = files[0][0] == "move.gif"
        prompt = (
            f"**{self.result_text(match)}**" if table.over else f"**Next:** {self.next_text(match)}"
        )
        if final and not table.over:
            prompt += " " + picks.where_text(table)
        turn = f" · turn {game.turn_number}" if game.turn_number else ""
        title = f"Rollerball #{game_id}{turn}"
        # Each player's victory points are on the board, beside their name.
        footer = f"{game.settings.edition} edition · first to {game.settings.target_vp}"
        if moved:
            footer += " · red lines: the balls' paths"
        buttons, selects = picks.card_controls(table) if final and not table.over else ([], [])
        return TurnPost(
            title=title,
            body=prompt,
            happened=self.happened(match, step),
            colour=COLOUR.value,
            images=list(files),
            footer=footer[:1000],
            buttons=buttons,
            selects=selects,
            rematch=False,  # a table of 2-6 is set up again with /rollerball new
        )

    def said(self, match: Match, text: str) -> str:
        return texts.with_names(text, names_by_seat(match))

    def replayed(self, match: Match, position: Any) -> Any:
        """A replay's position is the board: it goes back into the stored table."""
        return replace(match.engine, game=position)

    def milestones(self, match: Match, step: Step) -> list[str]:
        """A banked victory point and the bid's winner get a message of their own in the
        thread; every other event stays on the live card and in the record."""
        if step.texts is not None:
            return []
        return [
            self.said(match, event.text)
            for event in step.events
            if ("banks the card" in event.text or "wins the bid" in event.text)
        ]

    def move_form(self, match: Match, seat: int) -> FormSpec:
        """The form is shown only to the player who opened it, so it may name their hand."""
        game = match.engine.game
        kind = next_step(game).kind
        hand = texts.typed_cards(game.hands[seat]) or "no cards"
        board = game.settings.board
        last = "k11" if board == 11 else "i9"
        workman = game.workmen[seat] if game.workmen else None
        where = f"your workman is on {geometry(board).name(workman)}" if workman is not None else ""
        spec = {
            "bid": ("Your secret bid", "Cards you bid (or 0)", f"e.g. up-move energiser · {hand}"),
            "rebid": ("Raise the bid", "Cards you add", f"e.g. replacer · hand: {hand}"),
            "base": ("Place your base", "Square, e.g. c3", f"a1 to {last}"),
            "workman": ("Place your workman", "Square, e.g. e4", "any square"),
            "ball": ("Place the ball", "Square, e.g. d1", "a track square, no base or workman"),
            "card": ("Place a card", "Card and squares", f"e.g. up-move e2-e3 · hand: {hand}"),
            "move": ("Move your workman", "Square (or stay)", f"e.g. d3 · {where}"),
            "action": (
                "Use your workman",
                "build / blow-up / replace",
                f"e.g. build up-move e2-e3 · hand: {hand}",
            ),
            "take": ("Take a card", "Square of a card", "e.g. e2"),
            "discard": ("Discard a card", "Card", f"hand: {hand}"),
        }
        title, label, hint = spec.get(kind, ("Your move", "Your move", ""))
        return FormSpec(title, label, hint[:100])

    def private_view(
        self, match: Match, seat: int, *, since: Any = None
    ) -> tuple[str, list[tuple[str, bytes]]]:
        """The panel: your hand as text and as an image (render/rollerball/hand.py), both from
        your seat's view; NEW on the cards that were not in it at `since` (the game as it was
        when you last looked at your panel), and what you decide now."""
        table: Table = match.engine
        view = view_for(table.game, seat)
        before = view_for(since.game, seat).hands[seat] if isinstance(since, Table) else None
        new = [card for card in view.hands[seat] if before is not None and card not in before]
        stand_in = seat in match.computers and seat < table.game.players
        text = texts.hand_text(
            table.game,
            seat,
            names_by_seat(match),
            stand_in=stand_in and seat not in table.resigned,
            resigned=seat in table.resigned,
            new=new,
            decision=picks.decision_text(table, seat, None),
        )
        earned = next((d.card for d in view.pending if d.seat == seat and d.kind == "score"), None)
        image = render_hand(
            view,
            seat,
            names_by_seat(match, as_text=False).get(seat, f"Player {seat + 1}"),
            new=frozenset(new),
            earned=earned,
        )
        return text, [("hand.png", image)]

    def private_controls(
        self, match: Match, seat: int, picked: str | None
    ) -> list[ButtonSpec | SelectSpec]:
        """What needs your hand is picked on your panel, built from your seat's legal actions:
        the bid or a raise, the card you place and its squares, your workman's action, the card
        you discard, banking or keeping the card you earned (cogs/rollerball/picks.py)."""
        return picks.panel_controls(match.engine, seat, picked)

    def select_action(
        self, state: Table, seat: int, action: str, arg: str | None, values: list[str]
    ) -> Play | Picked:
        return picks.panel_pick(state, seat, action, arg, values)

    def resign_consequence(self, match: Match, seat: int) -> str:
        table: Table = match.engine
        others = [s for s in table.in_game() if s != seat]
        people = [s for s in table.humans if s in others]
        names = names_by_seat(match)
        if len(others) == 1:
            return f"If you resign, the game ends now and {names.get(others[0])} wins."
        if not people:
            return (
                "If you resign, the game ends now: of the seats still in it, the most victory "
                "points win."
            )
        return (
            "If you resign, you lose; a computer plays your seat to the end (it banks no "
            "victory points) and the others play on."
        )
