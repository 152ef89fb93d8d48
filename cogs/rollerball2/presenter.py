"""Rollerball II's presenter on the match host: the live card and its buttons.

A turn message shows the scoreboard (score, period, FACs left, the ball, the penalty box), the
condensed play-by-play of the click, and one image of what was read last: the player card whose
row was just rolled, lit, or else the FAC section read. Both line-ups come with the Line-ups
button, in a private message. The last card carries the result and a Box score
button (the pages, each taller than a phone's screen, come in a message of their own). Seats: solo and simulate have one (the coach, or the bot), coaches mode two (home = 0,
away = 1). Everything else about running a match is the host's (host).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from cogs.rollerball2 import texts
from host import ButtonSpec, FormSpec, GameAdapter, Match, Step, TurnPost
from host.adapter import AUTO, bullets
from render.rollerball2 import (
    render_fac_section,
    render_player_card,
    render_scoreboard,
)
from rules.rollerball2 import (
    ENGINE,
    SIDES,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    NextCard,
    PlayUntil,
    Rb2Match,
    RollDie,
    RollerballError,
    SimulateRest,
    legal_actions,
    load_content,
    result,
    substitution_slots,
    three_stars,
)
from ui import shown

COLOUR = discord.Colour(0xCC79A7)


# The templates of the game's own buttons on the turn (ButtonSpec.custom_id: the host fills in
# the match and the version the turn was drawn for): the Substitute button
# (cogs/rollerball2/subs.py, two select menus), the box score and the line-ups
# (cogs/rollerball2/matches.py).
SUBSTITUTE_ID = r"rb2:sub:(?P<game>\d+):(?P<version>\d+)"
BOX_ID = r"rb2:box:(?P<game>\d+)"
LINEUPS_ID = r"rb2:lineups:(?P<game>\d+)"


class Rollerball2Adapter(GameAdapter):
    engine = ENGINE
    new_command = "match start"

    # ---- what a click or a typed move means ---------------------------------------------------

    def button_action(self, state: Rb2Match, seat: int, action: str, arg: str | None) -> Any:
        pending = state.engine.pending
        team = pending["team"] if pending else ""
        if action == "next":
            return NextCard()
        if action == "until":
            return PlayUntil("period" if arg == "period" else "event")
        if action == "sim":
            return SimulateRest()
        if action == "roll" and pending:
            return RollDie(team)
        if action == "catch" and pending:
            return CatcherChoice(team, arg == "roll")
        if action == "biker" and pending and arg:
            return ChooseBiker(team, arg)
        if action == "scorer" and pending and arg:
            return ChooseScorer(team, arg)
        raise RollerballError("That button does nothing any more: use the newest message.")

    def auto_label(self, match: Match) -> str | None:
        """Coaches decide, the bot rolls: in a coaches' match each coach may leave his die to
        the bot; the catcher's choice, substitutions and biker picks stay his."""
        return "rolling my die" if match.engine.mode == "coaches" else None

    # ---- how it looks -------------------------------------------------------------------------

    def seat_label(self, match: Match, seat: int) -> str:
        return texts.seat_label(match.engine, match.names, seat)

    def next_text(self, match: Match) -> str:
        return texts.next_text(match.engine, match.names)

    def score_text(self, match: Match) -> str:
        return texts.score_text(match.engine)

    def result_text(self, match: Match) -> str:
        return texts.final_text(match.engine)

    def resign_consequence(self, match: Match, seat: int) -> str:
        game: Rb2Match = match.engine
        if game.mode == "coaches":
            return (
                "If you resign, the default coach plays your team to the final whistle and the "
                "match counts as played (injuries and all)."
            )
        return "If you resign, the default coach plays both teams to the final whistle."

    def move_form(self, match: Match, seat: int) -> FormSpec:
        return FormSpec("Your move", "Move", "next · until · sub home Skater2 31")

    def happened(self, match: Match, step: Step) -> str:
        game: Rb2Match = step.after
        if step.texts is not None:
            lines = list(step.texts)
        else:
            lines = texts.condensed(step.events, highlights_only=game.mode == "simulate")
        limit = texts.FINAL_CARD_LINES if game.over else texts.CARD_LINES

        # A coach who left his die to the bot sees the last roll it made for him (rules page:
        # "Coaches decide, the bot rolls").
        def bot_rolled(line: str) -> bool:
            return bool(match.auto) and "coach rolls d10" in line

        return bullets(texts.card_lines(lines, limit, keep=bot_rolled), texts.MAX_EVENT_TEXT)

    def draw_turn(
        self, match: Match, step: Step, *, game_id: int, final: bool, picked: str | None = None
    ) -> TurnPost:
        game: Rb2Match = step.after
        state = game.engine
        parts: list[str] = []
        # One idea per image, each shown full width on a phone, the card one phone screen
        # tall: the scoreboard always; both line-ups (taller than half a screen) come with the
        # Line-ups button, to whoever asks, in a message of his own.
        files = [("scoreboard.png", render_scoreboard(state))]
        buttons: list[ButtonSpec] = []
        if game.over:
            # The result on one phone screen; the box score's pages (each taller than the
            # screen) come with the button, in a message of their own.
            stars = three_stars(result(state))
            if stars:
                parts.append(f"**Three stars:** {texts.stars_text(game, stars)}")
            parts.append(f"**{texts.final_text(game)}** **Box score** shows the box score.")
            if game.fixture_id is not None:
                parts.append("A season match: it counts in the table (`/rollerball2 season`).")
            buttons.append(ButtonSpec("Box score", "box", style="secondary", custom_id=BOX_ID))
        else:
            if game.mode != "simulate":
                parts.append(f"**Next:** {texts.next_text(game, match.names)}")
            files += self._rolled_images(step)
        if final and not game.over:
            buttons = [*self._buttons(game), *self._auto_button(game, match)]
        return TurnPost(
            title=texts.score_title(game, game_id),
            # No blank lines between the parts (each starts in bold or with a bullet): a blank
            # line costs the phone's screen a line the controls need.
            body="\n".join(part for part in parts if part),
            happened=self.happened(match, step),
            colour=COLOUR.value,
            images=list(files),
            # A live card's period and FACs left are on its scoreboard: no footer repeating
            # them in the phone screen's last lines.
            footer=texts.clock_footer(game) if game.over else "",
            buttons=buttons,
            rematch=False,
        )

    def replayed(self, match: Match, position: Any) -> Any:
        """A replay's position is the match's engine: it goes back into the stored match."""
        return replace(match.engine, engine=position)

    def milestones(self, match: Match, step: Step) -> list[str]:
        """A period's end gets a message in the thread telling the period: its score, its
        goals, penalties, injuries and bans; everything else is on the live card, redrawn in
        place, and in the record. A simulated match's periods are told in one message when it
        ends (its card shows the end, one phone screen tall: ruling D9). The notes on saved line-ups that had to change for the match get one in any mode
        (texts.milestones)."""
        return texts.milestones(step)

    def followed_milestones(self, match: Match, step: Step) -> list[str]:
        """A follower hears of the periods' ends, not of a coach's line-up notes."""
        notes = {shown(e.text) for e in step.events if e.kind == "lineup"}
        return [line for line in self.milestones(match, step) if line not in notes]

    def followed_teams(self, match: Match) -> list[str]:
        game = match.engine
        return [f"rollerball2:{team}" for team in (game.home_team_id, game.away_team_id) if team]

    @staticmethod
    def _rolled_images(step: Step) -> list[tuple[str, bytes]]:
        """One image of what was read last: the card of the last player-card roll, its row lit,
        or else the FAC section read last (a FAC's text is also in the play-by-play's words, so
        the card shows one image under the scoreboard and stays one phone screen tall)."""
        state = step.after.engine
        rolls = [
            roll
            for event in step.events
            for roll in event.rolls
            if roll.column in ("offense", "defense") and roll.number is not None
        ]
        if rolls:
            roll = rolls[-1]
            card = state.team(roll.side).roster.card(roll.number)
            return [("card.png", render_player_card(card, (roll.column, roll.face)))]
        cards = [e for e in step.events if e.kind == "card" and e.fac and e.section]
        if cards:
            fac = load_content().fac(cards[-1].fac)
            return [("fac.png", render_fac_section(fac, cards[-1].section))]
        return []

    @staticmethod
    def _buttons(game: Rb2Match) -> list[ButtonSpec]:
        state = game.engine
        pending = state.pending
        if pending is not None:
            team = state.team(pending["team"]).roster.team
            if pending["kind"] == "dice":
                return [ButtonSpec(f"Roll the die ({team})", "roll", style="success")]
            if pending["kind"] == "catcher_choice":
                return [
                    ButtonSpec("Roll on his card", "catch", "roll", style="success"),
                    ButtonSpec("Draw a new FAC (ACTION)", "catch", "draw"),
                ]
            buttons = []
            for action in legal_actions(state)[:20]:
                if not isinstance(action, ChooseBiker | ChooseScorer):
                    continue  # a pending choice offers only these
                slot = action.slot
                number = state.team(action.team).lineup[slot]
                name = state.team(action.team).card(number).name if number is not None else ""
                kind = "biker" if isinstance(action, ChooseBiker) else "scorer"
                buttons.append(ButtonSpec(f"{slot} #{number} {name}"[:80], kind, slot))
            return buttons
        buttons = [
            ButtonSpec("Next card", "next", style="success"),
            ButtonSpec("Play to next event", "until"),
            ButtonSpec("Play to period end", "until", "period", style="secondary"),
        ]
        if state.control is not None and substitution_slots(state, state.control):
            buttons.append(
                ButtonSpec(
                    "Substitute…",
                    "sub",
                    style="secondary",
                    custom_id=SUBSTITUTE_ID,
                )
            )
        buttons.append(ButtonSpec("Line-ups", "lineups", style="secondary", custom_id=LINEUPS_ID))
        if game.mode == "solo":
            buttons.append(ButtonSpec("Simulate the rest", "sim", style="danger"))
        return buttons

    @staticmethod
    def _auto_button(game: Rb2Match, match: Match) -> list[ButtonSpec]:
        if game.mode != "coaches":
            return []
        rolling = " and ".join(
            game.engine.team(SIDES[seat]).roster.team for seat in sorted(match.auto)
        )
        label = f"Bot rolls for: {rolling} (toggle mine)" if rolling else "Let the bot roll my die"
        return [ButtonSpec(label[:80], AUTO, style="secondary")]
