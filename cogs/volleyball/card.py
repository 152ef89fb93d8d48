"""The league's status card: one message in the results channel, kept up to date in place,
that says where the league is (round, deadline as a Discord timestamp, which managed teams
have sent orders: names only, never what they sent, the last round's scores) and carries the
buttons a manager needs (Send orders, Edit with menus, Repeat last orders, My team) and, for
anyone, Follow and the latest round's Why? (cogs/volleyball/why.py), like the
webDiplomacy and DiplomacyGM boards that show who has not moved yet.

It is edited when orders come in, a manager joins or leaves, the league is paused, resumed
or changed, and posted again below the results after every round (the old card is deleted,
so the card is always the newest thing in the channel). A card someone deleted is posted
again. A card that cannot be edited or posted never stops what changed the league: the
failure is logged.

A lesson's league (docs/rules/volleyball.md "Learn by playing") has the same card with the
lesson's step above it and the lesson's buttons (cogs/volleyball/lesson_card.py).

It is shown under the league host's posting lock (`LeagueHost.posting_lock`), the one the
round's reports are sent under: two changes at once never post two cards, and the card
reposted below a round's results is never edited by a change drawn before them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.volleyball import lesson_card as lesson
from cogs.volleyball.components import LeagueButton, card_buttons
from cogs.volleyball.playing import decode, round_key
from cogs.volleyball.present import deadline_policies
from db import volleyball as store
from db.database import is_unavailable
from host.background import done_later
from host.follow import FollowButton
from host.locks import ShuttingDown
from host.posting import reopening
from rules.volleyball import LeagueState
from ui import shown
from ui.formats import due, plural
from ui.items import view_of

if TYPE_CHECKING:
    from cogs.volleyball.posting import Poster
    from db.volleyball import StoredLeague
    from host.leagues import LeagueHost

log = logging.getLogger(__name__)

FIELD_LIMIT = 1024
COLOUR = discord.Colour(0x0072B2)  # the renders' blue


def names_field(names: list[str], empty: str) -> str:
    """Team names one a line, cut to an embed field (the rest counted)."""
    if not names:
        return empty
    lines: list[str] = []
    for index, name in enumerate(names):
        line = f"• {shown(name)}"
        left = len(names) - index
        if sum(len(x) + 1 for x in lines) + len(line) + 20 > FIELD_LIMIT:
            lines.append(f"… and {left} more")
            break
        lines.append(line)
    return "\n".join(lines)


def status_line(stored: store.StoredLeague, state: LeagueState) -> str:
    season, number = round_key(state)
    if lesson.is_lesson(stored):
        return f"A lesson: season {season}, round {number}, played when the lesson says."
    if stored.status == "forming":
        return (
            "Forming: every seat without a manager is a computer team. `/volleyball team "
            "create` brings your team, `/volleyball take-seat` takes a computer team; an admin "
            "starts the season with `/volleyball league start`."
        )
    if stored.status == "paused":
        return (
            "Paused by an admin: no deadline until `/volleyball league resume`, which gives "
            "the round the time it had left."
        )
    deadline = f" due {due(stored.next_deadline)}" if stored.next_deadline else ""
    if state.season_over:
        line = f"Season {season} is over: ageing splits (AGEING lines){deadline}."
    else:
        line = f"Season {season}, round {number} of {state.total_rounds}: orders{deadline}."
    if (
        stored.next_deadline is not None
        and stored.set_deadline is not None
        and stored.next_deadline > stored.set_deadline + 60
    ):
        line += " Put off while managers were on vacation."
    return line


def card_embed(
    stored: store.StoredLeague,
    state: LeagueState,
    managers: dict[str, int],
    sent: set[str],
    missed: dict[str, int] | None = None,
    away: set[str] | None = None,
) -> discord.Embed:
    """The card for the league as it is: `managers` team -> user, `sent` the managed teams
    with orders on file for the round, `missed` their rounds in a row without orders (shown
    when the league hands such teams to the computer), `away` the teams whose manager is on
    vacation (shown when the league's deadline waits for them)."""
    embed = discord.Embed(title=shown(stored.name)[:256], colour=COLOUR)
    embed.description = status_line(stored, state)
    if not lesson.is_lesson(stored):
        embed.description += "\n" + deadline_policies(
            stored.hand_over_after, stored.vacation_pauses
        )
    managed = sorted(managers)
    missed, away = missed or {}, away or set()
    if stored.status != "forming":
        done = [t for t in managed if t in sent]
        waiting = [
            t
            + (" (on vacation)" if stored.vacation_pauses and t in away else "")
            + (
                f" (missed {missed[t]} of {stored.hand_over_after})"
                if stored.hand_over_after and missed.get(t)
                else ""
            )
            for t in managed
            if t not in sent
        ]
        embed.add_field(
            name=f"Orders in ({len(done)} of {len(managed)})",
            value=names_field(done, "none yet"),
            inline=True,
        )
        embed.add_field(
            name="Waiting for",
            value=names_field(waiting, "nobody: every manager has sent orders"),
            inline=True,
        )
    computers = len(state.league.teams) - len(managed)
    if computers:
        embed.add_field(
            name="Computer teams",
            value=f"{plural(computers):team} play by themselves; a user may take one over.",
            inline=False,
        )
    played = state.league.round_number - 1
    scores = [
        f"{'Cup' if r.fixture.competition == 'cup' else f'M{r.fixture.match_number}'}: "
        f"{shown(r.fixture.home)} {r.home_sets}-{r.away_sets} {shown(r.fixture.away)}"
        for r in state.league.results
        if r.fixture.round_number == played
    ]
    if played and scores:
        value = ""
        for index, line in enumerate(scores):
            tail = f"\n… and {len(scores) - index} more: `/volleyball results`"
            if len(value) + len(line) + 1 + len(tail) > FIELD_LIMIT:
                value += tail
                break
            value += ("\n" if value else "") + line
        embed.add_field(name=f"Round {played} results", value=value, inline=False)
    embed.set_footer(text="Names only, never orders. The buttons work on your own team.")
    return embed


@dataclass
class Prepared:
    """A card drawn from the database, ready to be shown (only Discord calls are left)."""

    stored: store.StoredLeague
    embed: discord.Embed


class StatusCard:
    """Posting and editing one league's card. `refresh` after a change; a command that
    answers the user first `prepare`s the card, answers, then `show`s it, so nothing but the
    Discord call itself is left after the answer; a change made where the answer comes later
    (the league's own operations a command calls) asks for `refresh_soon`, so the command's
    answer never waits on the card's edit: an edit in the channel counts against Discord's
    per-channel limit (5 in 5 s), and a command that waited for it before answering missed
    Discord's 3 seconds when managers took seats one after another."""

    def __init__(self, host: LeagueHost[StoredLeague], poster: Poster) -> None:
        self.host = host
        self.poster = poster
        self._due: set[int] = set()  # leagues whose refresh is scheduled and not begun
        self._tasks: set[asyncio.Task[None]] = set()

    def refresh_soon(self, league_id: int) -> None:
        """Refresh the card in the background, once for any number of asks before it begins
        (it reads the league when it begins, so it shows every change asked for before)."""
        if league_id in self._due:
            return
        self._due.add(league_id)
        task = asyncio.get_running_loop().create_task(self._refresh_due(league_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh_due(self, league_id: int) -> None:
        await asyncio.sleep(0)  # whoever asked answers first
        self._due.discard(league_id)
        try:
            await self.refresh(league_id)
        except ShuttingDown:
            pass  # the card is drawn from the stored league by the next refresh
        except Exception:
            log.exception("league %s: the status card could not be refreshed", league_id)

    async def refresh(self, league_id: int) -> None:
        """Edit the card to show the league as it is now (post it if there is none, or it
        was deleted)."""
        prepared = await self.prepare(league_id)
        if prepared is not None:
            await self._show_posting(prepared)

    async def repost(self, league_id: int) -> None:
        """Under the posting lock (a round's reports are being sent): delete the card and post
        it again below the newest messages."""
        prepared = await self.prepare(league_id)
        if prepared is not None:
            await self._shown(prepared, repost=True)

    async def prepare(self, league_id: int) -> Prepared | None:
        db = self.host.db
        stored = await store.load_league(db, league_id)
        if stored is None:
            return None
        state = decode(stored)
        managers = await store.managers(db, league_id)
        sent = set(await store.orders_on_file(db, league_id, *round_key(state)))
        missed = await store.missed_rounds(db, league_id) if stored.hand_over_after else {}
        away: set[str] = set()
        if stored.vacation_pauses:
            on_vacation = await self.host.on_vacation(list(managers.values()), time.time())
            away = {team for team, user in managers.items() if user in on_vacation}
        return Prepared(stored, card_embed(stored, state, managers, sent, missed, away))

    async def show(self, prepared: Prepared) -> None:
        """The card after a command's answer: what the answer said is saved, so a failure
        here never reaches the error reporter (it would tell "nothing was changed"). The
        posting lock needs the database: in an outage the card is drawn again once it
        answers; in a shutdown, by the next refresh."""
        league_id = prepared.stored.id
        try:
            await self._show_posting(prepared)
        except ShuttingDown:
            pass
        except Exception as error:
            if not is_unavailable(error):
                log.exception("league %s: the status card could not be shown", league_id)
                return
            done_later(
                f"league {league_id}'s status card", self.host.db, lambda: self.refresh(league_id)
            )

    async def _show_posting(self, prepared: Prepared) -> None:
        async with self.host.posting_lock(prepared.stored.id):
            await self._shown(prepared, repost=False)

    async def _shown(self, prepared: Prepared, *, repost: bool) -> None:
        try:
            await self._show(prepared, repost=repost)
        except discord.HTTPException as error:
            log.warning(
                "league %s: the status card could not be updated: %s", prepared.stored.id, error
            )

    async def _show(self, prepared: Prepared, *, repost: bool) -> None:
        stored, embed = prepared.stored, prepared.embed
        # A lesson's card is the league's real card with the lesson's step above it.
        content = lesson.card_text(stored) if lesson.is_lesson(stored) else None
        view = view_of(
            lesson.card_items(stored)
            if lesson.is_lesson(stored)
            else [
                *card_buttons(stored.id),
                FollowButton("league", f"volleyball:{stored.id}"),
                LeagueButton(stored.id, "why"),
            ]
        )
        channel = await self.poster.channel(stored)
        old = stored.card_message_id
        if old is not None and repost:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(old).delete()
        elif old is not None:
            try:  # a league played in a thread: an archived one is opened again
                await reopening(
                    self.host.bot,
                    channel,
                    lambda: channel.get_partial_message(old).edit(
                        content=content, embed=embed, view=view
                    ),
                )
                return
            except discord.NotFound:
                # Deleted, or posted anew by another change since this card was drawn.
                current = await store.card_of(self.host.db, stored.id)
                if current not in (None, old):
                    with contextlib.suppress(discord.NotFound):
                        await reopening(
                            self.host.bot,
                            channel,
                            lambda: channel.get_partial_message(current).edit(
                                content=content, embed=embed, view=view
                            ),
                        )
                        return
        posted = await channel.send(
            content, embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        await store.set_card(self.host.db, stored.id, posted.id)
