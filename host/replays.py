"""The replay card: a finished match watched again step by step, by anyone in its server
(`/GAME replay`, the Replay button of the final card). Each step is drawn by the game's own
renderer from the match's record after the record is verified against its dice commitment
(rules/replay.py, render/replay.py): what the card shows is what the dice and the players did.
The set-up's card needs only the seed's hash checked (`opened`); the whole record is replayed
once, after that card is sent, before any later step is shown (`checked`, `check_later`).

The card is private (ephemeral): a spectator watches at their own pace, several people at
different steps at once, and nothing is posted into the match's thread, where its story and
its talk stay. Its buttons carry the match and the step they lead to, so they work after a
restart: each click reads the stored match again (a finished match no longer changes).
A match still being played has no replay: its seed is secret until it ends.

Every replay goes through here, whatever hosts its match (`Watched`): a hosted match (the games
table, its adapter) and a kind a cog registers (`register`: a Volleyball league's match, whose
record the league stores once its round is played; docs/rules/volleyball.md ruling 57). Its
buttons carry the kind.

Each step shows when it was played (the moves' saves, rules/replay.py `step_times`) and how far
into the match that was. **Highlights** on the card posts, privately, a short animation of the
match's milestones (render/replay.py `highlight`), a few seconds each, after a deferral (a long
match takes longer than Discord's 3 s to draw), within the upload limit Discord gives the
interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db.player_games import saves_of
from host.adapter import GameAdapter, Step
from host.base import core_of
from host.card import MAX_CARD_TEXT
from host.match import Match
from render.replay import HIGHLIGHT_MOMENTS, frame, highlight, replayable
from rules.records import RecordError
from rules.replay import IN_PLAY, Position, Replay, opened, step_times
from ui import UserError
from ui.formats import span, timestamp
from ui.items import Control
from ui.text import fit

if TYPE_CHECKING:
    from host.base import Core

# A replay opened and played is kept for the next clicks (a match's record is the key: a
# finished match's record never changes, and a changed one is verified again).
KEPT_REPLAYS = 8
# What the whole check of a record found is kept longer, by the record's hash (a few dozen
# bytes each): a replay opened again after its positions were let go replays nothing twice.
KEPT_CHECKS = 4096
# Draw longer than this and the click is acknowledged first (Discord waits 3 s for an answer).
DEFER_AFTER_SECONDS = 1.5
OPEN = "open"  # the final card's button: a new replay card, at the set-up
MARK = "mark"  # Next milestone: the first milestone after the button's step, found on the click
MATCH = ""  # the kind of a hosted match (the games table); a cog registers its own kinds


@dataclass(frozen=True)
class Watched:
    """A finished match as its replay reads it, whatever hosts it (module docstring): its
    kind and number (the buttons carry both), the game, its revealed record, the commitment
    published before its first roll, the saves' times, how the card names its seats and its
    result, where its record is fetched (None: the card's Record button sends it) and what of
    a step makes a milestone."""

    kind: str
    game_id: int
    game: str
    title: str
    text: str
    published: str | None
    saves: list[tuple[float, list[str]]]
    labels: tuple[str, ...]
    result: str
    record_command: str | None
    milestones: Callable[[Position], Sequence[str]]
    committed: str = "before the first move"  # when the commitment was published
    say: Callable[[Position], str] | None = None  # a step's move in words (None: `words`)
    heading: str = ""  # the match as the card's title names it ("" : "Rocketball #12")

    @property
    def named(self) -> str:
        return self.heading or f"{self.title} #{self.game_id}"

    def label(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"Seat {seat + 1}"

    def words(self, position: Position) -> str:
        """The step's move in words, the card's first line (`say`: the kind's own words)."""
        if self.say is not None:
            return self.say(position)
        if position.number == 0:
            return "**The set-up**"
        if position.seat is not None:
            return f"**{self.label(position.seat)}:** `{position.move}`"
        return f"`{position.move}`"


def of_match(adapter: GameAdapter, match: Match, game_id: int, text: str, saves) -> Watched:
    """A hosted match's `Watched` (its adapter names its seats, words its result and finds
    its milestones)."""

    def milestones(position: Position) -> list[str]:
        before, after = (adapter.replayed(match, at) for at in (position.before, position.after))
        return adapter.milestones(match, Step(before, position.events, after))

    return Watched(
        MATCH,
        game_id,
        adapter.game,
        adapter.title,
        text,
        match.commitment,
        saves,
        tuple(adapter.seat_label(match, seat) for seat in range(len(match.names))),
        adapter.result_text(match),
        adapter.command("record"),
        milestones,
    )


# A kind's finished match, by its number, for someone in this interaction: a UserError saying
# why there is none (not found, still being played, not theirs to see).
Finder = Callable[["Core", discord.Interaction, int], Awaitable[Watched]]
_finders: dict[str, Finder] = {}


def register(kind: str, finder: Finder) -> None:
    """A cog's kind of replayed match (letters: it is part of the buttons' custom ids)."""
    if not kind.isalpha():
        raise ValueError(f"a replay kind is letters, not {kind!r}")
    _finders[kind] = finder


class ReplayButton(
    Control[discord.ui.Button],
    template=r"replay:(?:(?P<kind>[a-z]{1,8}):)?(?P<id>\d+):(?P<step>\d+):(?P<how>[a-z]{1,10})",
):
    """A step of a match's replay: `how` names the button (each id must be unique in the
    card, and two buttons may lead to the same step). Next milestone (MARK) carries the
    card's own step: the milestone after it is found on the click. `kind`: whose match
    (MATCH: a hosted one; the ids made before kinds have none)."""

    def __init__(
        self,
        game_id: int,
        step: int,
        how: str,
        *,
        label: str = "Replay",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        kind: str = MATCH,
    ) -> None:
        custom_id = self.id_for(kind=kind or None, id=game_id, step=step, how=how)
        super().__init__(
            discord.ui.Button(label=label, style=style, disabled=disabled, custom_id=custom_id)
        )
        self.game_id, self.step, self.how, self.kind = game_id, step, how, kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> ReplayButton:
        kind = match["kind"] or MATCH
        return cls(int(match["id"]), int(match["step"]), match["how"], kind=kind)

    async def act(self, interaction: discord.Interaction) -> None:
        await show(
            core_of(interaction),
            interaction,
            self.game_id,
            self.step,
            new=self.how == OPEN,
            mark=self.how == MARK,
            kind=self.kind,
        )


def opener(game_id: int, label: str = "Replay ▶", *, kind: str = MATCH) -> ReplayButton:
    """The final card's button (and /games'): this match's replay, privately, from the set-up."""
    return ReplayButton(game_id, 0, OPEN, label=label, kind=kind)


class HighlightButton(
    Control[discord.ui.Button], template=r"highlight:(?:(?P<kind>[a-z]{1,8}):)?(?P<id>\d+)"
):
    """The replay card's Highlights: the match's milestones as a short animation."""

    def __init__(self, game_id: int, *, kind: str = MATCH) -> None:
        super().__init__(
            discord.ui.Button(
                label="Highlights 🎞",
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(kind=kind or None, id=game_id),
            )
        )
        self.game_id, self.kind = game_id, kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> HighlightButton:
        return cls(int(match["id"]), kind=match["kind"] or MATCH)

    async def act(self, interaction: discord.Interaction) -> None:
        await post_highlight(core_of(interaction), interaction, self.game_id, kind=self.kind)


class RecordButton(Control[discord.ui.Button], template=r"record:(?P<kind>[a-z]{1,8}):(?P<id>\d+)"):
    """The replay card's Record, for a kind with no command that gives it: the revealed
    record as a file, privately, for `python -m rules verify FILE`."""

    def __init__(self, game_id: int, *, kind: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Record 📄",
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(kind=kind, id=game_id),
            )
        )
        self.game_id, self.kind = game_id, kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> RecordButton:
        return cls(int(match["id"]), kind=match["kind"])

    async def act(self, interaction: discord.Interaction) -> None:
        watched = await finished(core_of(interaction), interaction, self.game_id, self.kind)
        await interaction.response.send_message(
            f"The record of {watched.named}: check it with "
            "`python -m rules verify FILE`, draw it with `python -m render replay FILE DIR`.",
            file=discord.File(
                io.BytesIO(watched.text.encode()),
                filename=f"{watched.game}-{self.kind}{self.game_id}.txt",
            ),
            ephemeral=True,
        )


class Prepared:
    """A verified replay with what its cards need, found as they are first asked for (the
    first card needs only the set-up: bench/replay.py): each milestone's step and lines (the
    thread's words), and when each step was played (None: not known)."""

    def __init__(self, watched: Watched, replay: Replay) -> None:
        self.watched, self.replay = watched, replay
        self._marks: dict[int, tuple[str, ...]] = {}
        self._scanned = 0  # the steps before this one were looked at for milestones
        self._times: tuple[float | None, ...] = ()
        self._lock = threading.Lock()  # two clicks' worker threads may ask at once

    def _scan(self, upto: int) -> None:
        with self._lock:
            while self._scanned <= min(upto, len(self.replay) - 1):
                lines = self.watched.milestones(self.replay.position(self._scanned))
                if lines:
                    self._marks[self._scanned] = tuple(lines)
                self._scanned += 1

    def next_milestone(self, step: int) -> int | None:
        """The first milestone after `step` (None: none is left)."""
        for index in range(step + 1, len(self.replay)):
            self._scan(index)
            if index in self._marks:
                return index
        return None

    @property
    def milestones(self) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """Every milestone, (step, lines), in order."""
        self._scan(len(self.replay) - 1)
        return tuple(sorted(self._marks.items()))

    def time(self, step: int) -> float | None:
        if step >= len(self._times):
            self._times = step_times(self.replay, self.watched.saves, upto=step)
        return self._times[step]


_kept: OrderedDict[tuple[str, int, str], Prepared] = OrderedDict()
_checks: OrderedDict[tuple[str, int, str], bool] = OrderedDict()  # True: the record checked out
_checks_lock = threading.Lock()
_kept_lock = threading.Lock()


def record_key(watched: Watched) -> tuple[str, int, str]:
    """A match's record as the caches know it: its kind, its number and the record's SHA-256."""
    return watched.kind, watched.game_id, hashlib.sha256(watched.text.encode()).hexdigest()


def prepare(watched: Watched) -> Prepared:
    """The record opened against the commitment published when the match began (the seed's
    hash: enough for the set-up), its lines replayed whole only when a later step is asked
    for (`checked`); kept for the next clicks (runs in a worker thread)."""
    key = record_key(watched)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    replay = opened(
        watched.text, watched.game, published=watched.published, checked=_checks.get(key, False)
    )
    with _kept_lock:  # two clicks' worker threads may have opened it at once: one is kept
        prepared = _kept.setdefault(key, Prepared(watched, replay))
        while len(_kept) > KEPT_REPLAYS:
            _kept.popitem(last=False)
    return prepared


def checked(prepared: Prepared) -> None:
    """Every line of the record replayed and its [Result] compared, once per record (kept by
    its hash); RecordError with the reasons for one that fails (runs in a worker thread)."""
    key = record_key(prepared.watched)
    try:
        prepared.replay.check()
    except RecordError:
        _keep_check(key, False)
        raise
    _keep_check(key, True)


def _keep_check(key: tuple[str, int, str], fair: bool) -> None:
    with _checks_lock:  # the background check and a click's may finish at once
        _checks[key] = fair
        _checks.move_to_end(key)
        while len(_checks) > KEPT_CHECKS:
            _checks.popitem(last=False)


async def command(
    host: Core, interaction: discord.Interaction, adapter: GameAdapter, match_id: int | None
) -> None:
    """`/GAME replay [match]`: the match asked for (in this server), else the user's latest
    finished one."""
    if match_id is None:
        stored = await game_store.latest_game_of(
            host.bot.db, game=adapter.game, user_id=interaction.user.id, statuses=("finished",)
        )
        if stored is None:
            raise UserError(
                f"You have no finished {adapter.title} matches to replay yet: name one with "
                "`match` (its number is on its card)."
            )
        match_id = stored.id
    await show(host, interaction, match_id, 0, new=True)


async def finished(
    host: Core, interaction: discord.Interaction, game_id: int, kind: str = MATCH
) -> Watched:
    """The finished match `game_id` of `kind`, as the replay reads it; a UserError saying why
    there is none. A hosted match is replayed in its own server, and by its players anywhere
    (/games lists their finished matches in a DM too): a record is fetched only in its server
    for the same reason (host/results.py), which does not hold for the people who played it."""
    if kind != MATCH:
        finder = _finders.get(kind)
        if finder is None:
            raise UserError("This replay is not kept any more.")
        return await finder(host, interaction, game_id)
    stored = await game_store.load_game(host.bot.db, game_id)
    adapter = host.adapters.get(stored.game) if stored is not None else None
    if (
        stored is None
        or adapter is None
        or (stored.guild_id != interaction.guild_id and interaction.user.id not in stored.players)
        or stored.status in ("pending", "cancelled")
    ):
        raise UserError(f"There is no match #{game_id} with moves in this server.")
    if not replayable(adapter.game):
        raise UserError(f"{adapter.title} matches cannot be replayed step by step yet.")
    if stored.status != "finished":
        raise UserError(f"{adapter.title} match #{game_id}: {IN_PLAY}")
    match = Match.from_json(adapter, stored.state)
    text = adapter.engine.record(match.engine, salt=match.salt, reveal=True, names=match.names)
    return of_match(adapter, match, game_id, text, await saves_of(host.bot.db, game_id))


async def show(
    host: Core,
    interaction: discord.Interaction,
    game_id: int,
    step: int,
    *,
    new: bool,
    mark: bool = False,
    kind: str = MATCH,
) -> None:
    """The replay card of match `game_id` (of `kind`) at `step` (`mark`: at the first
    milestone after it): a new private message (`new`), else the clicked replay card redrawn
    in place.

    The set-up's card needs only the seed checked against the commitment (rules/replay.py
    `opened`); the whole record is replayed and checked in the background once that card is
    sent, so the first frame costs about a turn (bench/replay.py), and any later step waits
    for that check (a record that fails it is refused with the reason)."""
    watched = await finished(host, interaction, game_id, kind)
    drawing = asyncio.ensure_future(asyncio.to_thread(draw, watched, step, mark))
    done, _ = await asyncio.wait({drawing}, timeout=DEFER_AFTER_SECONDS)
    if not done:  # a long record checked for the first time: acknowledge, privately
        if new:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    prepared, view, (filename, image) = await drawing  # a RecordError: the reason, privately
    file = discord.File(io.BytesIO(image), filename=filename)
    if interaction.response.is_done():
        await interaction.edit_original_response(view=view, attachments=[file])
    elif new:
        await interaction.response.send_message(view=view, file=file, ephemeral=True)
    else:
        await interaction.response.edit_message(view=view, attachments=[file])
    if not prepared.replay.checked:
        check_later(prepared)


_checking: set[asyncio.Task[None]] = set()  # the background checks running (kept referenced)


def check_later(prepared: Prepared) -> None:
    """The record's whole check started in a worker thread after its first card is sent: the
    next click finds it done (or waits for the rest of it). A record that fails is refused
    on that click; here the failure is only kept."""

    def work() -> None:
        with contextlib.suppress(RecordError):
            checked(prepared)

    task = asyncio.ensure_future(asyncio.to_thread(work))
    _checking.add(task)
    task.add_done_callback(_checking.discard)


def draw(
    watched: Watched, step: int, mark: bool = False
) -> tuple[Prepared, discord.ui.LayoutView, tuple[str, bytes]]:
    """The card at `step` (runs in a worker thread): the record opened, checked whole before
    any step after the set-up, the step's frame."""
    prepared = prepare(watched)
    last = len(prepared.replay) - 1
    if step > 0 or mark:
        checked(prepared)
    if mark:
        step = prepared.next_milestone(step) or last
    step = min(step, last)
    drawn = frame(prepared.replay, step)
    return prepared, card(prepared, step, drawn[0]), drawn


def moments(prepared: Prepared) -> list[tuple[int, str]]:
    """A highlight's moments, (step, caption): the set-up with who played, the milestones
    (evenly chosen when there are more than fit) and the last step with the result."""
    watched = prepared.watched
    last = len(prepared.replay) - 1
    players = ", ".join(watched.labels)
    marks = [(index, " · ".join(lines)) for index, lines in prepared.milestones if index < last]
    room = HIGHLIGHT_MOMENTS - 2
    if len(marks) > room:
        marks = [marks[round(i * (len(marks) - 1) / max(room - 1, 1))] for i in range(room)]
    ending = " · ".join(next((lines for index, lines in prepared.milestones if index == last), ()))
    result = watched.result
    return [
        (0, f"{watched.named}: {players}"),
        *marks,
        (last, f"{ending} · {result}" if ending else result),
    ]


def plain(text: str) -> str:
    """A caption drawn into an image: Discord's markdown and escapes taken out (an image shows
    the characters, not their formatting)."""
    text = re.sub(r"<@!?\d+>", "", text)
    return re.sub(r"\\(.)", r"\1", text.replace("**", "").replace("__", "").replace("`", ""))


async def post_highlight(
    host: Core, interaction: discord.Interaction, game_id: int, *, kind: str = MATCH
) -> None:
    """The highlight of match `game_id`, privately, after a deferral (drawing every moment of
    a long match takes longer than Discord's 3 s)."""
    watched = await finished(host, interaction, game_id, kind)
    await interaction.response.defer(ephemeral=True, thinking=True)

    def work() -> bytes:
        prepared = prepare(watched)
        checked(prepared)
        chosen = [(index, plain(caption)) for index, caption in moments(prepared)]
        return highlight(prepared.replay, chosen)

    image = await asyncio.to_thread(work)
    limit = interaction.filesize_limit
    if len(image) > limit:
        raise UserError(
            f"The highlight of {watched.named} is {len(image):,} bytes, over the "
            f"{limit:,} bytes Discord takes here: step through it with the replay instead."
        )
    await interaction.followup.send(
        f"**Highlights · {watched.named}** (verified against the dice commitment)",
        file=discord.File(io.BytesIO(image), filename=f"highlights-{kind}{game_id}.gif"),
        ephemeral=True,
    )


def clock_line(prepared: Prepared, step: int) -> str | None:
    """When the step was played and how far into the match (None: not known)."""
    when, began = prepared.time(step), prepared.time(0)
    if when is None:
        return None
    if step == 0 or began is None:
        return f"🕒 {timestamp(when)}: the match began"
    return f"🕒 {timestamp(when)} · {span(when - began)} into the match"


def card(prepared: Prepared, step: int, filename: str) -> discord.ui.LayoutView:
    """The replay card: the step, the move in words, when it was played, the frame (uploaded
    as `filename`), the controls."""
    watched, replay = prepared.watched, prepared.replay
    game_id, kind = watched.game_id, watched.kind
    position = replay.position(step)
    last = len(replay) - 1
    lines = [f"### Replay · {watched.named} · step {step} of {last}", watched.words(position)]
    if (clock := clock_line(prepared, step)) is not None:
        lines.append(clock)
    lines += [f"• {text}" for text in position.texts]
    if step == last:
        lines.append(f"**{watched.result}**")
    view = discord.ui.LayoutView(timeout=None)
    box = discord.ui.Container()
    box.add_item(discord.ui.TextDisplay(fit("\n".join(lines), MAX_CARD_TEXT)))
    box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{filename}")))
    every = (
        "every step replays from it"
        if replay.checked
        else "this set-up is what it dealt; every later step is checked to replay from it "
        "before it is shown"
    )
    fetch = (
        f"`{watched.record_command}` gives the record."
        if watched.record_command
        else "**Record** gives the record."
    )
    box.add_item(
        discord.ui.TextDisplay(
            f"-# Verified: the revealed seed matches the dice commitment published "
            f"{watched.committed}, and {every}. {fetch}"
        )
    )
    # Next milestone carries this step and finds the milestone when clicked: looking for it
    # here would replay lines ahead of the card (the set-up's card replays none).
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for target, how, label, off in (
        (0, "start", "⏮ Start", step == 0),
        (max(step - 1, 0), "back", "◀", step == 0),
        (min(step + 1, last), "next", "▶", step == last),
        (step, MARK, "Next milestone", step == last),
        (last, "end", "End ⏭", step == last),
    ):
        style = discord.ButtonStyle.primary if how == "next" else discord.ButtonStyle.secondary
        row.add_item(
            ReplayButton(game_id, target, how, label=label, style=style, disabled=off, kind=kind)
        )
    box.add_item(row)
    more: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    more.add_item(HighlightButton(game_id, kind=kind))
    if not watched.record_command:
        more.add_item(RecordButton(game_id, kind=kind))
    box.add_item(more)
    view.add_item(box)
    return view
