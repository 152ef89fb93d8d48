"""Following (docs/async-play.md "Following"): anyone may follow a match (the Follow button on
its card), a player or a team (`/follow`), a league or a season (the Follow button on its card),
and hears of its milestones (a goal, a period's end, a set, a result, a round's results), each
once, never of every move.

How news reaches a follower is the one place that reads `/settings follows`: a mention where the
news is posted (the match's thread, the league's channel), a DM, or the daily digest; without a
choice, as their turns reach them (a DM if they chose DMs, else a mention; "never": nothing).
In their quiet hours news waits and comes as one DM when they end (or in the digest). A match's
players are never told as followers: their turns and results reach them already.

A player or team followed is followed on the server it was followed on: a follower never hears
of another server's matches.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord

from db import follows as store
from db import games as game_store
from db import settings as settings_store
from db import timers as timer_store
from db.database import is_unavailable
from host import background, notify
from host.adapter import Step
from host.match import COMPUTER_ID, DELETED_USER_ID, Match
from ui import UserError, fit, send_ephemeral
from ui.formats import plural
from ui.items import Control, view_of

if TYPE_CHECKING:
    from host.posted import Posted

log = logging.getLogger(__name__)

NEWS_EVENT = "follow_news"  # a follower's news held in quiet hours goes out: {"user_id": N}
# The news lines of one message at most: Discord's 2,000 characters less the title, the link,
# the line on how to stop it and room for a few mentions (more pinged: more messages, each
# with the whole text: host/notify.py `deliver`).
NEWS_AT_MOST = 1600
FOLLOWED = "You follow this"  # how a followed news line says why it reached you
DIGEST_SHOWN = 15  # followed news items a digest or a held DM lists; the rest are counted

Thing = tuple[str, str]  # (kind, target): ("match", "12"), ("team", "rollerball2:7")


@dataclass(frozen=True)
class Followable:
    """Something a user may follow, as the bot found it: what it is called, where it is, and
    who takes part (told already, so never as followers)."""

    kind: str
    target: str
    label: str  # "Rocketball match #12", "team Falcons", "Volleyball league Spring"
    guild_id: int | None
    members: frozenset[int] = frozenset()
    over: bool = False  # a finished match: nothing more to hear of


# Finds a league, a season or a team by its target ("volleyball:3"); each league cog registers
# its own kinds (`Follows.register`), so the host knows no league.
Finder = Callable[[str], Awaitable[Followable | None]]
# What /follow offers as the user types: (name shown, target) of a server's teams.
Chooser = Callable[[int, str], Awaitable[list[tuple[str, str]]]]


@dataclass
class Follows:
    """The bot's following service (`bot.matches.follows`)."""

    bot: Any
    finders: dict[tuple[str, str], Finder] = field(default_factory=dict)
    choosers: dict[str, Chooser] = field(default_factory=dict)

    def register(
        self, kind: str, game: str, finder: Finder, choices: Chooser | None = None
    ) -> None:
        """`finder` resolves targets "GAME:ID" of `kind` (a league, a season, a team);
        `choices` lists a server's teams for /follow (kind "team" only)."""
        self.finders[(kind, game)] = finder
        if choices is not None:
            self.choosers[game] = choices

    async def team_choices(self, guild_id: int, typed: str) -> list[tuple[str, str]]:
        """(name shown, target) of the server's teams of every game, for /follow team:."""
        found: list[tuple[str, str]] = []
        for choices in self.choosers.values():
            found += await choices(guild_id, typed)
        return found

    async def find(self, kind: str, target: str) -> Followable | None:
        if kind == "match":
            return await self.find_match(int(target)) if target.isdigit() else None
        if kind == "player":
            return None  # a player is found by /follow itself (a member of the server)
        finder = self.finders.get((kind, target.split(":", 1)[0]))
        return await finder(target) if finder is not None else None

    async def find_match(self, game_id: int) -> Followable | None:
        stored = await game_store.load_game(self.bot.db, game_id)
        if stored is None or stored.game not in self.bot.matches.adapters:
            return None
        adapter = self.bot.matches.adapters[stored.game]
        return Followable(
            "match",
            str(game_id),
            f"{adapter.title} match #{game_id}",
            stored.guild_id,
            frozenset(stored.players),
            over=stored.status in ("finished", "cancelled"),
        )

    # ---- following --------------------------------------------------------------------------

    async def follow(self, user_id: int, thing: Followable) -> str:
        """Follow `thing` for the user; what they are told."""
        if user_id in thing.members:
            raise UserError(
                f"You take part in {thing.label}: its turns and results reach you already."
            )
        if thing.over:
            raise UserError(f"{thing.label} is over: there is nothing more to hear of it.")
        try:
            new = await store.follow(
                self.bot.db, user_id, thing.kind, thing.target, thing.guild_id, thing.label
            )
        except store.TooManyFollows:
            raise UserError(
                f"You follow {store.FOLLOWS_AT_MOST} things already, the most one may: "
                "`/settings follows` lists them and lets you unfollow some."
            ) from None
        how = await self.how_news_reaches(user_id)
        if not new:
            return f"You follow {thing.label} already. Its milestones reach you {how}."
        return (
            f"You follow {thing.label}: its milestones (goals, ends of periods and sets, results, "
            f"rounds' results) reach you {how}, never every move."
        )

    async def unfollow(self, user_id: int, kind: str, target: str, label: str) -> str:
        if await store.unfollow(self.bot.db, user_id, kind, target):
            return f"You no longer follow {label}."
        return f"You were not following {label}: nothing changed."

    async def unfollow_named(self, user_id: int, value: str) -> str:
        """Unfollow what `value` names (a choice of `followed_choices`); what the user is told."""
        mine = await store.follows_of(self.bot.db, user_id)
        chosen = next((f for f in mine if choice_value(f.kind, f.target) == value.strip()), None)
        if chosen is None:
            raise UserError(
                "You don't follow that: pick one of the things you follow from the list "
                "(`/settings follows` lists them)."
            )
        return await self.unfollow(user_id, chosen.kind, chosen.target, chosen.label)

    async def followed_choices(self, user_id: int, typed: str) -> list[tuple[str, str]]:
        """(label, value) of what the user follows whose label holds `typed`."""
        typed = typed.casefold().strip()
        return [
            (f.label, choice_value(f.kind, f.target))
            for f in await store.follows_of(self.bot.db, user_id)
            if typed in f.label.casefold()
        ]

    async def listing(self, user_id: int) -> list[str]:
        """What the user follows and how its news reaches them, for /settings follows."""
        mine = await store.follows_of(self.bot.db, user_id)
        how = await self.how_news_reaches(user_id)
        if not mine:
            lines = ["You follow nothing. A card's Follow button or `/follow` follows something."]
        else:
            lines = [f"You follow {plural(len(mine)):thing} (at most {store.FOLLOWS_AT_MOST}):"]
            lines += [f"• {f.label}" for f in mine]
        lines.append(f"Their milestones reach you {how}.")
        return lines

    async def how_news_reaches(self, user_id: int) -> str:
        """How followed news reaches the user, in words (for their answers and /settings)."""
        settings = await settings_store.user_settings(self.bot.db, user_id)
        chosen = (await store.news_mode(self.bot.db, [user_id])).get(user_id)
        return MODE_TEXT[news_mode(settings, chosen)]

    # ---- news ---------------------------------------------------------------------------------

    async def tell(
        self,
        things: Sequence[Thing],
        guild_id: int | None,
        news: Sequence[tuple[str, str]],
        *,
        channel: discord.abc.Messageable,
        link: str,
        members: Iterable[int] = (),
        title: str = "",
    ) -> None:
        """Tell the followers of any of `things` each of `news` ((key, text): the key names the
        milestone, so each follower hears of it once), as each one's settings say: what they
        hear now in as few messages as fit, under `title` once (a news line held for later
        carries it); `members` take part and hear of it otherwise. Never raises: the news is a
        courtesy after what was saved and shown, and one refusal must not fail the move that
        made it. A database that stops answering delays the news until it answers
        (host/background.py), never loses it."""
        if not news:
            return

        async def attempt() -> None:
            skip = {*members, COMPUTER_ID, DELETED_USER_ID}
            followers = [
                user
                for user in await store.followers(self.bot.db, things, guild_id)
                if user not in skip
            ]
            if not followers:
                return
            settings = await settings_store.users_settings(self.bot.db, followers)
            chosen = await store.news_mode(self.bot.db, followers)
            now = time.time()
            told: dict[int, list[str]] = {}  # what each follower hears now, in order
            how: dict[int, str] = {}  # and how: by DM, or a mention where it is posted
            for key, text in news:
                for user in await store.record_news(self.bot.db, followers, key):
                    mode = news_mode(settings[user], chosen.get(user))
                    if mode == NOTHING:
                        continue
                    if mode == DIGEST or notify.in_quiet_hours(settings[user], now):
                        headed = f"**{title}**: {text}" if title else text
                        held = fit(f"{headed} · [open]({link})", 1000)
                        await store.hold_news(self.bot.db, user, key, held)
                        if mode != DIGEST:
                            await self.send_when_quiet_hours_end(settings[user], now)
                    else:
                        told.setdefault(user, []).append(text)
                        how[user] = mode
            # One message for what one move (one post) made, to everyone who hears the same:
            # a match simulated to its end is one ping, not one per period, and Discord's five
            # messages in five seconds a channel are not spent on it.
            together: dict[tuple[str, ...], notify.Pings] = {}
            for user, texts in told.items():
                pings = together.setdefault(tuple(texts), notify.Pings())
                (pings.dm if how[user] == "dm" else pings.thread).append(user)
            for texts, pings in together.items():
                for lines in in_messages(texts):
                    if title:
                        lines = f"**{title}**: {lines}"
                    await notify.deliver(
                        self.bot,
                        pings,
                        channel,
                        f"{lines} · [open]({link})\n-# {FOLLOWED}: `/settings follows` stops it.",
                        dm=f"{lines}\n-# {FOLLOWED} (`/settings follows` stops it).",
                        link=link,
                        lead=" ",
                    )

        try:
            await attempt()
        except Exception as error:
            if is_unavailable(error):
                background.done_later(
                    f"news to the followers of {things[:1]}", self.bot.db, attempt
                )
            else:
                log.exception("could not tell the followers of %s", things[:1])

    async def send_when_quiet_hours_end(
        self, settings: settings_store.UserSettings, now: float
    ) -> None:
        due = notify.quiet_hours_end(settings, now)
        async with self.bot.db.transaction() as conn:
            await timer_store.replace_timer(
                conn, NEWS_EVENT, {"user_id": settings.user_id}, due, now=now
            )

    async def on_news_timer(self, timer: timer_store.Timer) -> None:
        """A follower's quiet hours are over: what waited comes in one DM."""
        user_id = int(timer.payload["user_id"])
        waiting = await store.take_waiting(self.bot.db, user_id)
        if waiting:
            await notify.send_dms(
                self.bot, [user_id], waiting_text(waiting, "While your quiet hours lasted:")
            )

    async def digest_lines(self, user_id: int) -> list[str]:
        """The followed news waiting for the user's daily digest (taken: sent with it)."""
        waiting = await store.take_waiting(self.bot.db, user_id)
        return waiting_text(waiting, "What you follow:").split("\n") if waiting else []

    # ---- a match ------------------------------------------------------------------------------

    async def tell_match(
        self,
        adapter: Any,
        stored: game_store.StoredGame,
        match: Match,
        steps: Sequence[Step],
        *,
        channel: discord.abc.Messageable,
        card_id: int | None,
    ) -> None:
        """A match's milestones after `steps` (the adapter's `followed_milestones`, and its
        result when it ended) to its followers and its players' and teams' followers."""
        lines = [line for step in steps for line in adapter.followed_milestones(match, step)]
        title = f"{adapter.title} match #{stored.id}"
        news = [
            (f"match:{stored.id}:v{stored.version}:{index}", line)
            for index, line in enumerate(lines)
        ]
        if adapter.engine.is_over(match.engine):
            news.append((f"match:{stored.id}:result", adapter.result_text(match)))
        await self.tell(
            match_things(adapter, stored, match),
            stored.guild_id,
            news,
            channel=channel,
            link=notify.jump_url(stored, card_id),
            members=stored.players,
            title=title,
        )

    async def after_post(self, posted: Posted) -> None:
        """A post's hook, with its card: the match's milestones to its followers (a lesson is
        nobody's news)."""
        if posted.match.lesson is None:
            await self.tell_match(
                posted.adapter,
                posted.stored,
                posted.match,
                posted.steps,
                channel=posted.channel,
                card_id=posted.card_id,
            )

    # ---- /privacy -----------------------------------------------------------------------------

    async def describe_user(self, db: Any, user_id: int) -> list[str]:
        follows = await store.follows_of(db, user_id)
        if not follows:
            return []
        shown_labels = ", ".join(f.label for f in follows[:10])
        more = f" and {len(follows) - 10} more" if len(follows) > 10 else ""
        return [f"{plural(len(follows)):thing} you follow: {shown_labels}{more}"]

    async def forget_user(self, conn: Any, user_id: int, anonymous: int) -> None:
        await store.forget_user(conn, user_id)


def choice_value(kind: str, target: str) -> str:
    """What a choice of something followed carries (/unfollow): "team rollerball2:7"."""
    return f"{kind} {target}"


def match_things(adapter: Any, stored: game_store.StoredGame, match: Match) -> list[Thing]:
    """What a follower of a match may follow to hear of it: the match, each of its people, its
    teams (the adapter's `followed_teams`)."""
    people = [u for u in stored.players if u not in (COMPUTER_ID, DELETED_USER_ID)]
    return [
        ("match", str(stored.id)),
        *(("player", str(user)) for user in dict.fromkeys(people)),
        *(("team", team) for team in adapter.followed_teams(match)),
    ]


async def following_match(
    db: Any, adapter: Any, stored: game_store.StoredGame, match: Match
) -> int:
    """How many people follow a match (/live): the match itself, its players or its teams, on
    its server; its players not counted."""
    found = await store.followers(db, match_things(adapter, stored, match), stored.guild_id)
    return len(set(found) - set(stored.players))


# ---- how news reaches a follower ------------------------------------------------------------

DIGEST, NOTHING = "digest", "nothing"
MODE_TEXT = {
    "mention": "as a mention where the news is posted (the match's thread, the league's channel)",
    "dm": "by DM",
    DIGEST: "in your daily digest DM",
    NOTHING: "nowhere while your turns are never pinged (`/settings follows news:` picks a way)",
}


def news_mode(settings: settings_store.UserSettings, chosen: str | None) -> str:
    """ "mention", "dm", DIGEST or NOTHING for one follower: their choice in /settings follows,
    else as their turns reach them. A digest without a time of day set is a DM (there is no
    digest to wait for)."""
    mode = chosen
    if mode is None:
        mode = {"dm": "dm", "never": NOTHING}.get(settings.ping, "mention")
    if mode == DIGEST and settings.digest_minute is None:
        return "dm"
    return mode


def in_messages(texts: Sequence[str], limit: int = NEWS_AT_MOST) -> list[str]:
    """`texts` a line each, as few messages as fit: a line joins the message before while
    the message stays within `limit` characters (a line longer than that is cut)."""
    messages: list[str] = []
    for text in texts:
        line = fit(text, limit)
        if messages and len(messages[-1]) + 1 + len(line) <= limit:
            messages[-1] += "\n" + line
        else:
            messages.append(line)
    return messages


def waiting_text(items: list[str], heading: str) -> str:
    lines = [heading, *(f"• {item}" for item in items[:DIGEST_SHOWN])]
    if len(items) > DIGEST_SHOWN:
        lines.append(f"…and {len(items) - DIGEST_SHOWN} more.")
    return fit("\n".join(lines))


# ---- the Follow button -------------------------------------------------------------------------


class FollowButton(
    Control[discord.ui.Button],
    template=r"(?P<verb>follow|unfollow):(?P<kind>match|team|league|player):(?P<target>[a-z0-9:]+)",
):
    """Follow (or Unfollow) on a match's card, a league's card, a spectator's answer: who
    clicks follows the thing, and hears how to stop."""

    def __init__(self, kind: str, target: str, *, verb: str = "follow") -> None:
        super().__init__(
            discord.ui.Button(
                label="Follow" if verb == "follow" else "Unfollow",
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(verb=verb, kind=kind, target=target),
            )
        )
        self.verb, self.kind, self.target = verb, kind, target

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> FollowButton:
        return cls(match["kind"], match["target"], verb=match["verb"])

    async def act(self, interaction: discord.Interaction) -> None:
        # the bot's `matches` holds the one Follows (host/core.py)
        follows: Follows = cast(Any, interaction.client).matches.follows
        thing = await follows.find(self.kind, self.target)
        if self.verb == "unfollow":
            label = thing.label if thing is not None else "that"
            said = await follows.unfollow(interaction.user.id, self.kind, self.target, label)
            await send_ephemeral(interaction, said)
            return
        if thing is None:
            raise UserError("That no longer exists: there is nothing to follow.")
        said = await follows.follow(interaction.user.id, thing)
        await send_ephemeral(
            interaction, said, view=view_of([FollowButton(self.kind, self.target, verb="unfollow")])
        )
