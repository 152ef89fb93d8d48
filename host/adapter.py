"""What a game gives the match host besides its engine: how a match looks and is operated.

A game's cog makes one `GameAdapter` (its presenter, holding the game's engine face) and
registers it with `bot.matches`. The rules are the engine's (rules/face.py); everything that is
not about the game (challenges, threads, seats, locks, saves, timers, records, resigning) is the
host's. Seats are numbered 0..n-1 in the order of the match's players.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from rules.errors import PlayerError

if TYPE_CHECKING:
    from db.database import Connection, Database
    from db.games import StoredGame
    from host.match import Match
    from rules.face import Engine

T = TypeVar("T")

FORM = "form"  # the button action that opens the game's move form
AUTO = "auto"  # the button action that leaves a player's routine actions to the bot, or back
PLAY = "do"  # the button action that makes one move: its arg is the move as the engine writes it
MAX_OPTIONS = 25  # Discord: the options of one select menu


@dataclass(frozen=True)
class ButtonSpec:
    """A button for what comes next; `action` and `arg` come back to `button_action`. The style
    is a discord.ButtonStyle name ("primary", "secondary", "success", "danger"): plain data, so
    a turn can be drawn in another process."""

    label: str
    action: str
    arg: str | None = None
    style: str = "primary"
    # A button the game handles itself (its own DynamicItem, e.g. one that opens select menus):
    # that control's template; the host fills in its `game` (and `version`) groups and sends a
    # plain button with the id made.
    custom_id: str | None = None


@dataclass(frozen=True)
class FormSpec:
    """The typed-move form (a modal with one text input)."""

    title: str
    label: str
    placeholder: str


@dataclass(frozen=True)
class Step:
    """One message's worth of play: the position before, the engine's events, the position
    after. `texts` replaces the events' own texts when they come from the database (a turn
    posted again at start-up)."""

    before: Any
    events: Sequence[Any]  # the engine's events (rules/face.py Event), as the presenter reads them
    after: Any
    texts: list[str] | None = None


@dataclass(frozen=True)
class SelectSpec:
    """A select menu of picks built from the engine's legal actions: the chosen values come back
    to `select_action` with `action` and `arg` (an earlier pick, for a move picked in stages)."""

    placeholder: str
    action: str
    options: tuple[tuple[str, str], ...]  # (label, value); at most 25, Discord's limit
    arg: str | None = None
    min_values: int = 1
    max_values: int = 1


def play_button(
    engine: Engine[Any, Any], label: str, action: Any, style: str = "success"
) -> ButtonSpec:
    """A button that makes `action`: the host reads it back with the engine's parser (the
    notation the bot prints and players type), so a click and a typed move are one path."""
    return ButtonSpec(label, PLAY, move_arg(engine, action), style)


def move_arg(engine: Engine[Any, Any], action: Any) -> str:
    """A move in a custom_id: the engine's notation, underscores for spaces."""
    return engine.format_action(action).replace(" ", "_")


def bullets(lines: Iterable[str], limit: int) -> str:
    """What a step did, a line each behind a bullet (TurnPost.happened); past `limit` characters
    cut after the last whole line that fits, with a last line saying the rest is in the match's
    record."""
    text = "\n".join(f"• {line}" for line in lines if line)
    if len(text) > limit:
        text = text[: limit - 40].rsplit("\n", 1)[0] + "\n• … (the rest is in the record)"
    return text


def in_menus(items: Sequence[T], most: int) -> list[list[T]]:
    """`items` in order, in as few menus of at most MAX_OPTIONS as they need, of even sizes
    (77 squares: four menus of 20, 19, 19, 19, not 25, 25, 25, 2). ValueError when they need
    more than `most` menus."""
    count = -(-len(items) // MAX_OPTIONS)
    if count > most:
        raise ValueError(f"{len(items)} options need {count} menus, more than {most}")
    size, extra = divmod(len(items), count or 1)
    bands, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        bands.append(list(items[start:end]))
        start = end
    return bands


@dataclass(frozen=True)
class Picked:
    """What `select_action` or `button_action` returns for a pick that is not yet a move (a
    square chosen, its facing still to come): the card is redrawn for `arg`, nothing is saved."""

    arg: str


@dataclass
class TurnPost:
    """The live match card as the game draws it: a title, what happened, the status (what
    happens next), images shown large, a footer, the controls. Plain data: a turn can be drawn
    in another process. `images` holding None for the bytes are already on the card (a redraw
    for a pick keeps them)."""

    title: str
    body: str  # what happens next (and anything else about the position after the step)
    colour: int
    images: list[tuple[str, bytes | None]] = field(default_factory=list)
    # What happened in the step, in words (a bullet line an event): the card shows this of
    # every step of a batch, the player's own move and then the replies, above the last
    # step's `body` (docs/rules: every roll, step, turn and goal is said in words).
    happened: str = ""
    footer: str = ""
    buttons: list[ButtonSpec] = field(default_factory=list)
    selects: list[SelectSpec] = field(default_factory=list)
    rematch: bool = False  # offer a Rematch button (the match is over)


class GameAdapter(ABC):
    """The game's presenter: how a hosted match looks and is operated (labels, texts, images,
    controls, forms). The rules are the engine's: the host drives `engine` (rules/face.py) for
    everything a match does (new state, whose turn, apply, outcome, records) and asks the
    presenter only how to show it and what a click means."""

    engine: Engine[Any, Any]  # the game's face, `rules.GAME.ENGINE`
    new_command: str = "challenge"  # the subcommand that starts a match (named in hints)
    # The label of the button that shows a player what only they may see (None: nothing hidden).
    private_label: str | None = None
    # The command group holding the standard match commands ("rollerball2 match"), set by
    # host.commands.add_match_commands; None: the game's own group.
    match_group: str | None = None
    # The game's routine actions (a roll with no choice in it: `engine.auto_action`) are made for
    # every player as soon as their turn begins, unless the player's /settings me says they
    # press them themselves; False: only a player who asks (`auto_label`'s toggle) leaves them.
    rolls_for_players: bool = False
    # A pick (a square chosen, what to do there still to come) is drawn on the card's image
    # (draw_turn draws it for `picked`); False: the card's images stay as they are for a pick.
    marks_picks: bool = False

    def command(self, name: str) -> str:
        """A standard match command as a player types it: "/rocketball board"."""
        return f"/{self.match_group or self.game} {name}"

    @property
    def game(self) -> str:
        """The games table's kind and the command group, e.g. "rocketball"."""
        return self.engine.name

    @property
    def title(self) -> str:
        """ "Rocketball": as players read it."""
        return self.engine.title

    # ---- what a click or a typed move means ---------------------------------------------------

    def parse_text(self, state: Any, seat: int, text: str) -> Any:
        """A typed move (the engine's notation); a game may add to the refusal every form a
        move can take."""
        return self.engine.parse_action(state, seat, text)

    def clicked(self, state: Any, seat: int, action: str, arg: str | None) -> Any:
        """What a button of the card or the panel means: a `play_button`'s move, read with the
        engine's parser; any other button is the game's own (`button_action`)."""
        if action == PLAY and arg:
            return self.engine.parse_action(state, seat, arg.replace("_", " "))
        return self.button_action(state, seat, action, arg)

    @abstractmethod
    def button_action(self, state: Any, seat: int, action: str, arg: str | None) -> Any:
        """The action (or a `Picked` for a move picked in stages) of one of the game's own
        buttons (a roll, a pass, a step back in a pick)."""

    # ---- how it looks -------------------------------------------------------------------------

    @abstractmethod
    def seat_label(self, match: Match, seat: int) -> str:
        """A seat as players read it, e.g. "North (Alice)"."""

    def said(self, match: Match, text: str) -> str:
        """An event's text as the card says it (the engine's "Player 1" made a name, escaped):
        the card, its milestones and Why? word an event alike."""
        return text

    @abstractmethod
    def next_text(self, match: Match) -> str:
        """What happens next, e.g. "North (Alice) rolls the d4." (reminders, refusals)."""

    def score_text(self, match: Match) -> str:
        """The score as the card shows it to everyone, e.g. "North 2-1 South" (/live); "" when
        the game keeps none. Public facts only: never a hand, a bid's size or a secret pick."""
        return ""

    @abstractmethod
    def result_text(self, match: Match) -> str:
        """How a finished match ended, once, e.g. "South (Bob) wins 2-1: North resigned."."""

    @abstractmethod
    def draw_turn(
        self, match: Match, step: Step, *, game_id: int, final: bool, picked: str | None = None
    ) -> TurnPost:
        """The card for `step` (runs in a worker thread: no Discord calls). Only the last step
        of a batch (`final`) carries controls; `picked` is an earlier pick of a move picked in
        stages (the controls for the rest of it; no images need drawing then)."""

    @abstractmethod
    def happened(self, match: Match, step: Step) -> str:
        """What `step` did, in words, as its card says it (TurnPost.happened; `bullets`). The
        steps of a batch before its last are told by this alone, not drawn: the card shows the
        last step's images only. No image is drawn for it (runs on the event loop)."""

    def milestones(self, match: Match, step: Step) -> list[str]:
        """What in `step` deserves a message of its own in the thread, for someone scrolling
        back (a goal, a penalty, the end of a period); the card shows everything else."""
        return []

    def replayed(self, match: Match, position: Any) -> Any:
        """A replay's position (rules/replay.py: the engine's `plays`) as the match stores its
        state, for `milestones` and `draw_turn`; the same by default."""
        return position

    def followed_milestones(self, match: Match, step: Step) -> list[str]:
        """What in `step` a follower hears of (host/follow.py): the thread's milestones unless
        the game says otherwise."""
        return self.milestones(match, step)

    def followed_teams(self, match: Match) -> list[str]:
        """The teams playing, as a follower follows them ("rollerball2:7"; host/follow.py):
        whoever follows one of them hears of this match's milestones. None by default."""
        return []

    def auto_label(self, match: Match) -> str | None:
        """What a player may leave to the bot in this match (e.g. "rolling my die"), or None."""
        return None

    def select_action(
        self, state: Any, seat: int, action: str, arg: str | None, values: list[str]
    ) -> Any:
        """The action (or a further `Picked`) for values chosen in one of the card's selects."""
        raise PlayerError("That menu does nothing any more.")

    def move_form(self, match: Match, seat: int) -> FormSpec:
        return FormSpec("Your move", "Your move", "")

    # ---- several players, hidden information, absent players ----------------------------------

    def private_view(
        self, match: Match, seat: int, *, since: Any = None
    ) -> tuple[str, list[tuple[str, bytes]]]:
        """What only `seat` may see now (its hand), as text and image files: the player's private
        panel (host/panels.py), opened by the `private_label` button and the game's hand command.
        `since` is the engine state when the seat last looked at its panel (None: not known),
        so what arrived since can be marked new."""
        return ("There is nothing hidden in this game: the board shows everything.", [])

    def private_controls(
        self, match: Match, seat: int, picked: str | None
    ) -> list[ButtonSpec | SelectSpec]:
        """The choices that need what only `seat` sees (cards to bid, a card to play), on its
        private panel; `picked` is an earlier pick of a move picked in stages."""
        return []

    def resign_consequence(self, match: Match, seat: int) -> str:
        """What resigning does, said before the player confirms it."""
        return "If you resign, the match ends now and you lose it."

    # ---- what follows from a finished match ---------------------------------------------------

    async def on_finished(self, conn: Connection, stored: StoredGame, match: Match) -> None:
        """Write the game's statistics inside the transaction that saves the last move."""
        return None

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        """Remove what the game's own tables hold about a user (/privacy)."""
        return None

    async def describe_user(self, db: Database, user_id: int) -> list[str]:
        """Lines saying what the game's own tables hold about a user (/privacy)."""
        return []
