"""A Rollerball II season's matchday at its deadline (docs/rules/rollerball2.md, "On
Discord", rulings D7 and D12-D14), and the seasons as a league on the league host
(host/leagues/league_host.py): its unplayed fixtures settled, each once, under the season's
lock; a fixture whose match is open is settled on the match host (host/leagues/fixtures.py),
one never started is simulated; a matchday with a fixture unsettled stays open."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from cogs.rollerball2 import season_clock
from cogs.rollerball2.matches import Rollerball2Matches, match_options, registrar
from cogs.rollerball2.season_clock import DEADLINE_EVENT
from cogs.rollerball2.season_posts import fixture_line, post_results, team_names
from db import rollerball2 as store
from host.leagues import LeagueHost, Outcome, Round
from host.leagues.fixtures import settle_open_match
from host.listing import Entry, server_name
from host.notify import channel_link
from host.starting import play_out
from rules.rollerball2 import Deadline
from ui import shown

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)


async def simulate_fixture(
    bot: Ballcourt, adapter: Rollerball2Matches, fixture: store.Fixture, season: store.Season
) -> int | None:
    """A fixture nobody played by its deadline, simulated by the default coaches and stored
    finished at once (the saved line-ups, a player who may not play replaced as in any match).
    Its match id; None if one of its teams is busy or gone, or the fixture is settled already
    (store.FixtureTaken: its match is then the fixture)."""
    home = await store.load_team(bot.db, fixture.home_team_id)
    away = await store.load_team(bot.db, fixture.away_team_id)
    if home is None or away is None:
        return None
    options = await match_options(bot, home, away, "simulate")
    options["fixture_id"] = fixture.id
    try:
        game_id, _ = await play_out(
            bot.matches,
            adapter,
            options,
            guild_id=season.guild_id,
            channel_id=season.channel_id,
            names=["the bot"],
            on_create=registrar(season.guild_id, home, away, "simulate", fixture.id),
        )
    except (store.TeamBusy, store.FixtureTaken):
        return None
    return game_id


def _finish(adapter: Any, match: Any) -> tuple[int, Any]:
    seats = sorted(adapter.engine.actors(match.engine)) or [0]
    return seats[0], Deadline()


async def settle_matchday(
    bot: Ballcourt,
    adapter: Rollerball2Matches,
    season: store.Season,
    matchday: int,
    played_by: str | None = None,
) -> int:
    """Settle every unplayed fixture of the matchday (cogs/rollerball2/seasons.py, the rulings). The caller
    holds the season's lock, so a deadline and an admin's `season play` never settle one twice;
    a match under way is told why (its deadline passed, or `played_by`, an admin, played the
    matchday now). Returns how many fixtures it settled."""
    if played_by is None:
        reason = f"The deadline of {shown(season.name)}, matchday {matchday}, has passed"
        first = "The deadline passed first."
    else:
        reason = f"{shown(played_by)} played matchday {matchday} of {shown(season.name)} now"
        first = "The matchday was played first."
    settled = 0
    for fixture in await store.fixtures_of(bot.db, season.id, matchday):
        if fixture.how is not None:
            continue
        settled += 1
        running = await store.open_game_of_fixture(bot.db, fixture.id)
        if running is not None:
            game_id, status = running
            why = f"{reason}: the default coaches play this match to the end."
            if await settle_open_match(
                bot.matches, game_id, status, finish=_finish, first=first, why=why
            ):
                continue
        await simulate_fixture(bot, adapter, fixture, season)
    return settled


async def unsettled(bot: Ballcourt, season: store.Season, matchday: int) -> list[str]:
    """Under the season's lock, after settle_matchday: the matchday's fixtures still without a
    result, each with why ("Lima at Kobe: Kobe is playing match #12"). A matchday passes only
    when there is none (ruling D14)."""
    names = await team_names(bot, season)
    left = []
    for fixture in await store.fixtures_of(bot.db, season.id, matchday):
        if fixture.how is not None:
            continue
        why = "not settled"
        for team in (fixture.home_team_id, fixture.away_team_id):
            busy = await store.open_match_of(bot.db, team)
            if busy is not None:
                why = f"{shown(names.get(team, '?'))} is playing match #{busy}"
                break
        left.append(f"{fixture_line(fixture, names)}: {why}")
    return left


class Seasons:
    """Rollerball II's seasons on the league host (host/leagues/league_host.py `LeagueAdapter`):
    the host runs a matchday's deadline timer, the admins' pause, resume and extension, the
    coaches' vacations; at the deadline every unplayed fixture of the matchday is settled (the
    module docstring), the next matchday's deadline runs, and the results and the table are
    posted where the season was made. A timer of a paused season or of a matchday already over
    does nothing; a matchday whose deadline a coach's vacation puts off (ruling D12) waits
    instead."""

    lock_name = season_clock.LOCK_NAME
    deadline_event = DEADLINE_EVENT
    title = "the Rollerball II seasons"
    gone = "That season no longer exists."
    # None: a matchday that failed to settle keeps its fixtures for an admin's `season play`.
    retry_seconds: float | None = None

    def __init__(self, bot: Ballcourt, adapter: Rollerball2Matches) -> None:
        self.bot = bot
        self.adapter = adapter

    async def load_league(self, league_id: int) -> store.Season | None:
        return await store.load_season(self.bot.db, league_id)

    def refusal(self, league: store.Season, user_id: int) -> str | None:
        return None  # a season's controls check their own coach (a match's seat)

    def timer_target(self, payload: dict[str, Any]) -> tuple[int, Round]:
        return int(payload["season"]), (int(payload["matchday"]),)

    def round_of(self, league: store.Season) -> Round:
        return (league.current_matchday,)

    def deadline_runs(self, league: store.Season) -> bool:
        return league.paused_at is None and not league.over

    def vacations_count(self, league: store.Season) -> bool:
        return league.vacation_pauses

    async def waits(self, league: store.Season, now: float) -> bool:
        return await season_clock.waits(self.bot, league, now)

    async def play(self, league: store.Season, now: float) -> None:
        await settle_matchday(self.bot, self.adapter, league, league.current_matchday)

    async def unsettled(self, league: store.Season) -> list[str]:
        return await unsettled(self.bot, league, league.current_matchday)

    async def next_round(self, league: store.Season, now: float) -> None:
        await season_clock.advance(self.bot, league)

    async def retry_at(self, league: store.Season, moment: float) -> None:
        """The current matchday's timer again at `moment`, its deadlines as they are."""
        await store.save_season_time(
            self.bot.db,
            league,
            current_matchday=league.current_matchday,
            deadlines={},
            paused_at=league.paused_at,
            resumed_at=league.resumed_at,
            timer_event=DEADLINE_EVENT,
            due_at=moment,
        )
        self.bot.timers.wake()

    async def recount(self, league: store.Season) -> bool:
        return await season_clock.recount(self.bot, league)

    async def waiting_for(self, user_id: int) -> list[int]:
        return await store.seasons_waiting_for(self.bot.db, user_id)

    async def league_ids(self) -> list[int]:
        # A season's timer is written in the transaction that saves its time (save_season_time):
        # what a crash can leave undone is a matchday's results post.
        return await store.seasons_unposted(self.bot.db)

    async def held_back(self, guild_id: int) -> list[int]:
        return await store.seasons_unposted(self.bot.db, guild_id)

    async def repair(self, league: store.Season) -> None:
        pass  # its timer is never lost (above); its posts follow (published)

    async def published(self, league_id: int, outcome: Outcome) -> None:
        """A matchday played at its deadline (or one a crash left unposted): its results and
        the table where the season was made, and to its followers."""
        if outcome in ("played", "repaired"):
            await post_results(self.bot, league_id)

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        """/games: each fixture of the current matchday that a team the user coaches has still
        to start (a fixture being played is listed as the match it is), with its deadline."""
        found = []
        for waiting in await store.fixtures_to_play(self.bot.db, user_id):
            season, fixture = waiting.season, waiting.fixture
            if season.paused_at is not None:
                state = "paused by the season's admins"
            else:
                state = f"matchday {fixture.matchday}: **start your match** (`/rollerball2 match start`)"
            found.append(
                Entry(
                    season.paused_at is None,
                    f"Rollerball II season {shown(season.name)}",
                    server_name(self.bot, season.guild_id),
                    # one score order everywhere: the visitors first, at the home team
                    f"{shown(waiting.away)} at {shown(waiting.home)}",
                    state,
                    channel_link(season.guild_id, season.channel_id),
                    fixture.deadline if season.paused_at is None else None,
                    "deadline",
                )
            )
        return found


SeasonHost = LeagueHost[store.Season]
