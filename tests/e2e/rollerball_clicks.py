"""Playing Rollerball through the fake Discord with clicks and menus only, as a player does: what
everyone may see is picked on the live card, what needs your hand on your private panel (opened
with My hand, then kept up to date by the bot). Used by tests/e2e/test_rollerball.py and
bench/match_card.py.

A player's choice is given as an engine action; the clicks that make it are found on the
controls the bot drew (a finished pick carries the move's command in its custom_id), never
built here, so a move the controls do not offer fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cogs.rollerball.picks import PRIVATE_STEPS
from cogs.rollerball.presenter import RollerballAdapter
from fakediscord.driver import DiscordDriver
from fakediscord.messages import Message
from fakediscord.model import Channel, User
from host import Match
from host.adapter import move_arg
from rules.rollerball import (
    ENGINE,
    Bank,
    Bid,
    BlowUp,
    Build,
    Keep,
    Move,
    Pass,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    PlaceWorkman,
    Play,
    Replace,
    Take,
    geometry,
    next_step,
)
from tests.e2e.cards import current_card, posted
from tests.e2e.stored import HasDatabase, connect

MOVE_CONTROL = re.compile(r"match:(\d+):(\d+):(do|pick|pdo|ppick):")
# The card's button that passes, by the step it passes in.
CARD_PASS = {
    "rebid": "Drop out",
    "card": "Pass (no more cards)",
    "action": "Pass",
    "take": "Take none",
}


def stored_match(bot, game_id: int) -> tuple[int, str, Match]:
    with connect(bot) as conn:
        version, status, state = conn.execute(
            "SELECT version, status, state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return version, status, Match.from_json(RollerballAdapter(), state)


def spent_controls(discord, bot, game_id: int, messages) -> list[str]:
    """Enabled move controls, on the messages a player can see, that could only answer "from an
    earlier turn": drawn for another version than the stored one, except a panel's bid for a
    seat still bidding (a secret bid is not made stale by another seat's)."""
    version, status, match = stored_match(bot, game_id)
    table = match.engine
    with connect(bot) as conn:
        players = [
            user
            for (user,) in conn.execute(
                "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
    bidding = set()
    if status == "active" and next_step(table.game).kind == "bid":
        bidding = {players[seat] for seat, bid in enumerate(table.game.bids) if bid is None}
    found = []
    for message in messages:
        now = discord.message(message)
        if now.deleted:
            continue
        controls = [*now.buttons, *now.selects]
        for control in controls:
            if getattr(control, "disabled", False):
                continue
            parsed = MOVE_CONTROL.match(control.custom_id or "")
            if not parsed or int(parsed[1]) != game_id:
                continue
            drawn_for = int(parsed[2])
            if drawn_for == version and status == "active":
                continue
            if status == "active" and now.ephemeral_for in bidding and parsed[3] == "ppick":
                continue
            found.append(f"{control.custom_id} on {now.text[:80]!r} (stored version {version})")
    return found


@dataclass
class ClickingTable:
    """People at a Rollerball table who only click: `users` by seat."""

    discord: DiscordDriver
    bot: HasDatabase
    thread: Channel
    game_id: int
    users: dict[int, User]
    panels: dict[int, Message] = field(default_factory=dict)  # each seat's newest panel
    all_panels: list[Message] = field(default_factory=list)
    interactions: int = 0
    decisions: int = 0
    panel_decisions: int = 0  # made on a panel (the card is redrawn through its opening token)
    card_ids: set[int] = field(default_factory=set)
    how: dict = field(default_factory=dict)  # the driver's options for each click (settle=False)

    async def card(self):
        card = await current_card(self.discord, self.bot, self.thread, self.game_id)
        self.card_ids.add(card.id)
        return card

    async def _click(self, message, custom_id: str, user):
        self.interactions += 1
        return await self.discord.click(message, custom_id, user=user, **self.how)

    async def _select(self, message, custom_id: str, values: list[str], user):
        self.interactions += 1
        return await self.discord.select(message, custom_id, values, user=user, **self.how)

    def _note_panel(self, seat: int, reply) -> None:
        if reply.ephemeral and reply.ephemeral_for == self.users[seat].id:
            if reply.id not in {p.id for p in self.all_panels}:
                self.all_panels.append(reply)
            self.panels[seat] = reply

    async def open_panel(self, seat: int):
        """The seat's panel: the open one, redrawn by the bot, if it offers choices; else a
        fresh one from My hand on the card."""
        panel = self.panels.get(seat)
        if panel is not None:
            panel = self.discord.message(panel)
            if panel.buttons or panel.selects:
                return panel
        card = await self.card()
        self.interactions += 1
        panel = await self.discord.click(card, "My hand", user=self.users[seat], **self.how)
        self._note_panel(seat, panel)
        return panel

    async def play(self, seat: int, play: Play) -> None:
        """Make `play` for `seat` with clicks and menus, and wait for the card to show it."""
        version, _, match = stored_match(self.bot, self.game_id)
        kind = next_step(match.engine.game).kind
        action = play.action
        user = self.users[seat]
        self.decisions += 1
        card = await self.card()
        name = geometry(play.size).name
        if isinstance(action, Pass) and kind in CARD_PASS:
            answer = await self._click(card, CARD_PASS[kind], user)
        elif isinstance(action, (Bank, Keep)):
            label = "Bank it (victory point)" if isinstance(action, Bank) else "Keep it in hand"
            answer = await self._click(card, label, user)
        elif isinstance(action, Move) and action.start == action.end:
            answer = await self._click(card, "Stay", user)
        elif kind not in PRIVATE_STEPS:
            assert isinstance(action, Move | PlaceBall | PlaceBase | PlaceWorkman | Take), action
            square = action.end if isinstance(action, Move) else action.square
            value = name(square)
            menu = next(s for s in card.selects if value in [o.value for o in s.options])
            answer = await self._select(card, menu.custom_id, [value], user)
        else:
            answer = await self._on_panel(seat, play, version)
            self.panel_decisions += 1
        assert not answer.ephemeral or answer.ephemeral_for == user.id, answer.text
        assert "earlier turn" not in answer.text, answer.text
        await self.card()
        after, _, _ = stored_match(self.bot, self.game_id)
        assert after > version, f"{action} was not taken: {answer.text[:300]}"
        await posted(self.bot, self.game_id)  # its panels redrawn too, as a player sees them

    async def _on_panel(self, seat: int, play: Play, version: int):
        """Pick `play` on the seat's panel: the finished pick's button where the panel offers
        it, else the next pick (the cards of a bid, the card, its square, the workman's deed)."""
        user = self.users[seat]
        action = play.action
        name = geometry(play.size).name
        panel = await self.open_panel(seat)
        finished = f":{move_arg(ENGINE, play)}" if not isinstance(action, Bid) else None
        for _ in range(5):
            menus = {s.custom_id.split(":")[4]: s for s in panel.selects}
            button = next(
                (b for b in panel.buttons if finished and (b.custom_id or "").endswith(finished)),
                None,
            )
            if button is not None and button.custom_id is not None:
                answer = await self._click(panel, button.custom_id, user)
            elif isinstance(action, Bid) and not action.kinds:
                answer = await self._click(panel, "Bid nothing (0 cards)", user)
            elif isinstance(action, Bid):
                options = list(menus["bid"].options)
                values = []
                for wanted in action.kinds:
                    option = next(o for o in options if o.value.split(".")[0] == wanted)
                    options.remove(option)
                    values.append(option.value)
                answer = await self._select(panel, menus["bid"].custom_id, values, user)
            elif isinstance(action, PlaceCard) and "card" in menus:
                answer = await self._select(panel, menus["card"].custom_id, [action.kind], user)
            elif isinstance(action, PlaceCard):
                top_left = name(min(action.first, action.second))
                menu = next(
                    s
                    for s in panel.selects
                    if s.custom_id.split(":")[4] == "at"
                    and top_left in [o.value for o in s.options]
                )
                answer = await self._select(panel, menu.custom_id, [top_left], user)
            elif isinstance(action, (Build, Replace, BlowUp)):
                verb = {Build: "build", Replace: "replace", BlowUp: "blow-up"}[type(action)]
                kind = action.discard if isinstance(action, BlowUp) else action.kind
                answer = await self._select(panel, menus["use"].custom_id, [f"{verb}.{kind}"], user)
            else:
                raise AssertionError(f"no control on the panel for {action}: {panel.text}")
            self._note_panel(seat, answer)
            now, _, _ = stored_match(self.bot, self.game_id)
            if now > version:
                return answer
            panel = answer
        raise AssertionError(f"{action} took more than five picks")
