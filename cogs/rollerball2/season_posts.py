"""A Rollerball II season's posts and texts (docs/rules/rollerball2.md, "On Discord"): its
fixtures as every list writes them, its table as an image, a matchday's results posted where
the season was made (once each, after the matchday is saved), and its followers told
(host/follow.py)."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from cogs.rollerball2 import season_clock
from cogs.rollerball2.teams import (
    NO_MENTIONS,
)
from db import rollerball2 as store
from host.follow import Followable, FollowButton
from host.leagues.league_host import post_in_order, posting_lock
from host.notify import channel_link
from render.rollerball2 import render_standings
from rules.rollerball2 import (
    GameScore,
    score_line,
    standings,
)
from ui import channel_by_id, fit, shown
from ui.formats import timestamp as when
from ui.items import view_of

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)


def fixture_line(fixture: store.Fixture, names: dict[int, str]) -> str:
    """A fixture as the schedule and the results list it, in the one score order
    (score_line): "Madrid 5 at Houston 6 (simulated), match #12", "Madrid at Houston"."""
    home = shown(names.get(fixture.home_team_id, "?"))
    away = shown(names.get(fixture.away_team_id, "?"))
    line = score_line(away, fixture.away_goals, home, fixture.home_goals)
    if fixture.how is None:
        return line
    how = " (simulated)" if fixture.how == "simulated" else ""
    return f"{line}{how}, match #{fixture.game_id}"


def schedule_fields(
    season: store.Season,
    fixtures: list[store.Fixture],
    names: dict[int, str],
    played_only: bool = False,
) -> list[tuple[str, str]]:
    """A field per matchday (with `played_only`, per matchday with a fixture played): its
    deadline in force (none while the season is paused) and its fixtures."""
    fields = []
    for matchday in range(1, season.matchdays + 1):
        day = [f for f in fixtures if f.matchday == matchday]
        shown_day = [f for f in day if f.how is not None] if played_only else day
        if not shown_day:
            continue
        lines = [fixture_line(f, names) for f in shown_day]
        if season.paused_at is not None and matchday >= season.current_matchday:
            title = f"Matchday {matchday} · no deadline while paused"
        else:
            title = f"Matchday {matchday} · deadline {when(min(f.deadline for f in day))}"
        fields.append((title[:256], fit("\n".join(lines), 1024)))
    return fields


def deadline_policies(season: store.Season) -> str:
    """What happens at a season's deadlines and what its admins may do (rulings D7, D10-D13):
    the season's card (its creation, schedule and table) says it."""
    if season.vacation_pauses:
        away = (
            "A coach's vacation (`/settings vacation`) puts off the deadline of the matchday "
            "whose fixture of theirs is not played yet."
        )
    else:
        away = "Matchdays are played at their deadline whoever is on vacation."
    return (
        f"At a deadline the default coaches play every fixture not played. {away} Admins may "
        "extend a matchday (`/rollerball2 season extend`), pause the season (`season pause`, "
        "`season resume`) or play a matchday now (`season play`)."
    )


async def season_status(bot: Ballcourt, season: store.Season) -> str:
    """Where the season stands: the current matchday's deadline (put off for vacations, or
    none while paused), then its policies."""
    if season.over:
        line = "Every matchday has been played."
    elif season.paused_at is not None:
        line = (
            f"Paused by an admin since {when(season.paused_at)}: no deadline runs until "
            f"`/rollerball2 season resume`, which gives matchday {season.current_matchday} "
            "the time it had left."
        )
    else:
        clock = await season_clock.clock_of(bot, season)
        due = clock.deadline(season.current_matchday)
        line = (
            f"Matchday {season.current_matchday} of {season.matchdays} is due "
            f"{when(due, 'R')} ({when(due)})."
        )
        if due < time.time() - 60:
            line += (
                " It stays open until its fixtures' teams are free of their other matches, "
                "then is settled (ruling D14)."
            )
        elif clock.put_off:
            line += " Put off while coaches were on vacation."
    return f"{line}\n{deadline_policies(season)}"


async def team_names(bot: Ballcourt, season: store.Season) -> dict[int, str]:
    return {team_id: name for team_id, name, _ in await store.team_names(bot.db, season.guild_id)}


async def table_rows(bot: Ballcourt, season: store.Season) -> list:
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id)
    teams = [names[t] for t in await store.season_team_ids(bot.db, season.id) if t in names]
    scores = [
        GameScore(names[f.home_team_id], names[f.away_team_id], f.home_goals, f.away_goals)
        for f in fixtures
        if f.how is not None and f.home_goals is not None and f.away_goals is not None
    ]
    return standings(teams, scores)


async def standings_files(bot: Ballcourt, season: store.Season) -> list[discord.File]:
    rows = await table_rows(bot, season)
    pages = await asyncio.to_thread(render_standings, f"{season.name} standings", rows)
    return [
        discord.File(io.BytesIO(page), filename=f"standings-{index}.png")
        for index, page in enumerate(pages, start=1)
    ]


async def matchday_text(
    bot: Ballcourt, season: store.Season, matchday: int, why: str | None = None
) -> str:
    """The matchday's results; `why` it was settled, else as its stored deadline tells."""
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id, matchday)
    lines = [fixture_line(f, names) for f in fixtures]
    return fit(
        f"**{shown(season.name)}, matchday {matchday}**: {why or settled_why(fixtures)}\n"
        + "\n".join(f"• {line}" for line in lines)
        + "\n`/rollerball2 match boxscore match_id:` shows a match's box score again; "
        "`/rollerball2 match record match_id:` gives its verifiable record."
    )


def settled_why(fixtures: list[store.Fixture]) -> str:
    """Why a matchday posted later was settled (docs/rules/rollerball2.md, ruling D8): an
    admin's play before the deadline saved that moment as its deadline (season_clock.advance),
    earlier than the one set."""
    early = any(f.set_deadline is not None and f.deadline < f.set_deadline - 1 for f in fixtures)
    return "played early by the season's admins." if early else "the deadline has passed."


Send = Callable[..., Awaitable[object]]  # a channel's send, or an interaction's followup


async def post_results(
    bot: Ballcourt,
    season_id: int,
    said: dict[int, str] | None = None,
    answer: Send | None = None,
) -> set[int]:
    """Post the results of every matchday settled and not posted yet, oldest first, each
    marked posted once it was; the matchdays posted (`said`: a matchday's text as its admin's
    answer gave it). `answer`: the admin's answer in the season's own channel, which posts them
    there, those a missing permission held back included (an answer to a command needs no
    permission of the channel's), so the channel shows them in order and once each; should it
    fail (the command's time is up) the channel's own posting takes over. Its settling saved
    the matchday first, so a crash between the two leaves it for the start-up repair
    (LeagueHost) to post, once. Under a lock of the league host's, not the season's (a command
    on the season must not wait behind Discord's limits on posts): one poster at a time, so
    none is posted twice."""
    posted: set[int] = set()
    texts: dict[int, str] = {}
    async with posting_lock(bot, season_clock.LOCK_NAME, season_id):
        season = await store.load_season(bot.db, season_id)
        if season is None:
            return posted

        async def send(matchday: int) -> None:
            nonlocal answer
            text = (said or {}).get(matchday) or await matchday_text(bot, season, matchday)
            texts[matchday] = text
            if answer is not None:
                try:
                    return await announce_text(bot, season, text, answer)
                except discord.HTTPException as error:
                    log.warning("season %s: the admin's answer failed: %s", season.id, error)
                    answer = None  # the channel's own posting takes over
            await announce_text(bot, season, text)

        async def sent(matchday: int) -> None:
            await tell_followers(bot, season, matchday, texts[matchday])
            await store.mark_posted(bot.db, season.id, matchday)
            posted.add(matchday)

        await post_in_order(
            f"season {season.id}",
            range(season.posted_matchday + 1, season.current_matchday),
            send,
            sent,
            lambda matchday: f"matchday {matchday}",
        )
    return posted


async def announce_text(
    bot: Ballcourt, season: store.Season, text: str, answer: Send | None = None
) -> None:
    """Post a matchday's results and the table where the season was made (or as `answer`)."""
    files = await standings_files(bot, season)
    send = answer or (await channel_by_id(bot, season.channel_id)).send
    await send(text, files=files, view=follow_view(season), allowed_mentions=NO_MENTIONS)


# ---- following (host/follow.py) -------------------------------------------------------------


def follow_view(season: store.Season) -> discord.ui.View:
    """Follow under the season's card and each matchday's results."""
    return view_of([FollowButton("league", f"rollerball2:{season.id}")])


async def coaches(bot: Ballcourt, season: store.Season) -> set[int]:
    teams = await store.season_team_ids(bot.db, season.id)
    return {
        owner
        for team_id, _, owner in await store.team_names(bot.db, season.guild_id)
        if team_id in teams
    }


async def followable(bot: Ballcourt, target: str) -> Followable | None:
    """The season "rollerball2:ID" as a follower follows it: its coaches are told already."""
    season_id = target.split(":", 1)[1]
    season = await store.load_season(bot.db, int(season_id)) if season_id.isdigit() else None
    if season is None:
        return None
    return Followable(
        "league",
        target,
        f"Rollerball II season {shown(season.name)}",
        season.guild_id,
        frozenset(await coaches(bot, season)),
        over=season.over,
    )


async def tell_followers(bot: Ballcourt, season: store.Season, matchday: int, text: str) -> None:
    """A matchday's results to the followers of the season and of its teams, once each."""
    teams = await store.season_team_ids(bot.db, season.id)
    await bot.matches.follows.tell(
        [("league", f"rollerball2:{season.id}"), *(("team", f"rollerball2:{t}") for t in teams)],
        season.guild_id,
        [(f"rollerball2:season:{season.id}:matchday:{matchday}", text.split("\n`/")[0])],
        channel=await channel_by_id(bot, season.channel_id),
        link=channel_link(season.guild_id, season.channel_id),
        members=await coaches(bot, season),
    )
