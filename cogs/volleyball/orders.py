"""A manager's orders and private answers (docs/rules/volleyball.md, "A manager's week"): the
orders form and the team form opened, the orders a manager sends (a form, an upload, an order
line's command, the editor's line-ups, last round's repeated) checked and stored under the
league's lock (the league host's), the team sheet, and a public post's details.

An answer is the manager's first sight: it says once what changed, what is on file, what is
still missing and every warning; refused orders change nothing, and the answer lists every
problem with its line. The status card, which shows who has sent orders, is edited right after.
"""

from __future__ import annotations

import asyncio
import json
import time

import discord

from cogs import bot_of
from cogs.volleyball.answers import answer, missing_line
from cogs.volleyball.components import OrdersForm, RetryButton, TeamForm, team_order_selects
from cogs.volleyball.forms import (
    JoinedBoxes,
    changed_lines,
    on_file_line,
    order_boxes,
    roster_text,
)
from cogs.volleyball.league import Leagues
from cogs.volleyball.playing import decode, round_key, round_name
from cogs.volleyball.posting import MAX_FILES, files_of
from cogs.volleyball.present import season_start_lines, team_sheet_messages
from cogs.volleyball.seats import free_seat
from db import volleyball as store
from rules.volleyball import (
    LeagueState,
    OrderCheck,
    RoundOrders,
    Team,
    format_orders_text,
    generated_roster,
    generated_team_name,
    repeat_lineups,
    round_fixtures,
    submit_orders,
    team_fixtures,
)
from ui import Markup, UserError, item, shown
from ui.formats import due, plural, timestamp
from ui.items import view_of


def orders_of(interaction: discord.Interaction) -> Orders:
    """The Volleyball cog's orders, found through discord.py's cog registry (`Bot.get_cog`):
    the bot itself knows no game, and the editor stands below the cog."""
    orders = getattr(bot_of(interaction).get_cog("Volleyball"), "orders", None)
    if not isinstance(orders, Orders):
        raise RuntimeError("the Volleyball cog, whose league this is, is not loaded")
    return orders


class Orders:
    """A manager's orders in the leagues (the module docstring)."""

    def __init__(self, leagues: Leagues) -> None:
        self.leagues = leagues

    @property
    def db(self):
        return self.leagues.db

    async def my_team(self, stored: store.StoredLeague, state: LeagueState, user_id: int) -> Team:
        name = await store.team_of(self.db, stored.id, user_id)
        team = state.league.team(name) if name is not None else None
        if team is None:
            raise UserError(
                f"You don't manage a team in {shown(stored.name)}. `/volleyball team create` "
                "makes one; `/volleyball take-seat` takes over a computer team."
            )
        return team

    async def managed(
        self, league_id: int, user_id: int
    ) -> tuple[store.StoredLeague, LeagueState, Team]:
        """The league as stored, its state, and the team the user manages in it."""
        stored = await self.leagues.load(league_id, by=user_id)
        state = decode(stored)
        return stored, state, await self.my_team(stored, state, user_id)

    async def open_orders_form(self, interaction: discord.Interaction, league_id: int) -> None:
        stored, state, team = await self.managed(league_id, interaction.user.id)
        if state.season_over:
            raise UserError(
                "The season is over: send your ageing splits (AGEING: PLAYER OL N lines) with "
                "`/volleyball orders upload`, or leave them to the bot's default."
            )
        on_file = await self.orders_on_file(stored, state, team.name)
        season, number = round_key(state)
        kept = await store.kept_form(self.db, stored.id, interaction.user.id, "orders")
        fields = (
            kept.fields if kept and (kept.season, kept.round_number) == (season, number) else None
        )
        boxes = order_boxes(state, team, on_file, fields)
        await interaction.response.send_modal(
            OrdersForm(stored.id, season, number, boxes, kept=fields is not None)
        )

    async def open_team_form(
        self,
        interaction: discord.Interaction,
        league_id: int,
        seat: str | None,
        name: str = "",
        *,
        made: bool = False,
    ) -> None:
        """The team form (rule 1), with the text of a refused one when there is one; `made`
        ("Make me a team") fills it with a legal roster the bot made (generated_roster,
        seeded by the league and the manager), to send as it is or edit first."""
        stored = await self.leagues.load(league_id, by=interaction.user.id)
        state = decode(stored)
        current = await store.team_of(self.db, stored.id, interaction.user.id)
        if current is not None:
            raise UserError(f"You manage {shown(current)} in {shown(stored.name)} already.")
        chosen = free_seat(stored, state, seat)
        config = state.league.config
        fields: dict[str, str] = {}
        if made:
            seed = f"{stored.settings.get('seed', stored.id)}:{interaction.user.id}"
            taken = [t.name for t in state.league.teams if t.name != chosen.name]
            players = await asyncio.to_thread(generated_roster, config, seed)
            fields = {
                "name": name or generated_team_name(seed, taken),
                "players": roster_text(players),
            }
        else:
            kept = await store.kept_form(self.db, stored.id, interaction.user.id, "team")
            fields = kept.fields if kept is not None else {}
        await interaction.response.send_modal(
            TeamForm(
                stored.id,
                state.league.teams.index(chosen),
                config,
                fields.get("name", name),
                fields.get("players", ""),
                made=made,
            )
        )

    async def show_sheet(self, interaction: discord.Interaction, league_id: int) -> None:
        """The manager's team sheet, ephemerally, with the menus of the orders a sheet leads to
        (a player to train, a player to sell: components.TEAM_ORDERS) while a round is open."""
        messages = await self.sheet_messages(league_id, interaction.user.id)
        _, state, team = await self.managed(league_id, interaction.user.id)
        menus = None if state.season_over else view_of(team_order_selects(league_id, team))
        await answer(interaction, messages, already_packed=True, view=menus)

    async def sheet_messages(self, league_id: int, user_id: int) -> list[str]:
        """The manager's team sheet: the last round's (with its private lines), or the team
        as it is now."""
        stored, state, team = await self.managed(league_id, user_id)
        season, number = round_key(state)
        last = await store.report_for(self.db, stored.id, season, number - 1, team.name)
        if last is not None and last.user_id == user_id:
            return last.messages
        return team_sheet_messages(stored.name, state, team.name, self.deadline(stored))

    @staticmethod
    def deadline(stored: store.StoredLeague) -> float | None:
        return stored.next_deadline if stored.status == "running" else None

    async def orders_on_file(
        self, stored: store.StoredLeague, state: LeagueState, team: str
    ) -> RoundOrders | None:
        season, number = round_key(state)
        text = await store.team_orders(self.db, stored.id, season, number, team)
        return None if text is None else RoundOrders.from_dict(json.loads(text))

    async def submit(
        self,
        interaction: discord.Interaction,
        league_id: int,
        text: str,
        *,
        whole: bool,
        for_round: tuple[int, int] | None = None,
        joined: JoinedBoxes | None = None,
        adding: str | None = None,
        lineups: RoundOrders | None = None,
        form: dict[str, str] | None = None,
        heading: list[str] | None = None,
    ) -> OrderCheck | None:
        """A manager's orders (a message: forms and order lines). `whole`: the text replaces
        everything on file (the orders form shows all of it); otherwise it is a piece that
        replaces only the kinds it contains; with `adding` (an order line's label, "BID:") the
        line is added to the lines of that kind on file instead. With `lineups` (the orders
        editor's line-ups, or last round's repeated) those are the piece, replacing the
        line-ups of their matches, and `text` is only what comes back as a file if the round
        was played meanwhile. `form` is the orders form's boxes as sent: refused, they are kept
        (store.keep_form) and a Fix and send again button opens the form with them.

        Accepted orders are stored; the answer says once what changed, what is on file, what
        is still missing and every warning. Refused ones change nothing, and the answer lists
        every problem with its line. Returns the check (None when the round had moved on)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.leagues.host.lock(league_id):
            stored, state, team = await self.managed(league_id, interaction.user.id)
            key = round_key(state)
            if for_round is not None and key != for_round:
                await answer(
                    interaction,
                    [
                        f"Round {for_round[1]} was played after you opened the form, so nothing "
                        "was stored. Your text is attached: send what still applies with "
                        "`/volleyball orders upload`."
                    ],
                    attachment=("my-orders.txt", text),
                )
                return None
            self.require_before_deadline(stored, state)
            on_file = await self.orders_on_file(stored, state, team.name)
            if adding and on_file is not None:
                # The line is added to the lines of its kind on file; a line given twice is
                # two orders, which the engine refuses where the rules do (ruling 32).
                kept = [
                    line
                    for line in format_orders_text(on_file).splitlines()
                    if line.upper().startswith(adding)
                ]
                text = "\n".join([*kept, text])
            if lineups is not None:
                check = await asyncio.to_thread(
                    submit_orders,
                    state,
                    team.name,
                    orders=lineups,
                    kinds={"matches"},
                    on_file=on_file,
                )
            else:
                check = await asyncio.to_thread(
                    submit_orders,
                    state,
                    team.name,
                    text=text,
                    on_file=None if whole else on_file,
                )
            if check.accepted:
                try:
                    await store.save_orders(
                        self.db,
                        stored,
                        season=key[0],
                        round_number=key[1],
                        team=team.name,
                        orders=json.dumps(check.orders.to_dict()),
                        user_id=interaction.user.id,
                    )
                except store.StaleLeagueError:
                    raise UserError(
                        "The league changed while your orders were checked; nothing was "
                        "stored. Send them again."
                    ) from None
                await store.drop_form(self.db, stored.id, interaction.user.id, "orders")
            elif form is not None:
                await store.keep_form(
                    self.db,
                    stored.id,
                    interaction.user.id,
                    "orders",
                    season=key[0],
                    round_number=key[1],
                    fields=form,
                )
        what = round_name(state)
        view = None
        if check.accepted:
            changed = changed_lines(state, team, on_file, check.orders)
            deadline = self.deadline(stored)
            lines: list[str] = [
                Markup(
                    f"**Orders for {what} accepted** ({shown(team.name)})"
                    + (f", due {due(deadline)}." if deadline else ".")
                ),
            ]
            lines += heading or []
            lines.append("Changed:" if changed else "Changed: nothing.")
            lines += [item(line) for line in changed]
            lines.append(on_file_line(check.orders))
            # What is missing in one line (the engine's warnings say it per match).
            other = [w for w in check.warnings if not w.startswith("No line-up")]
            missing = missing_line(state, team, check.orders)
            if missing:
                lines.append(missing)
            if other:
                lines.append("Warnings:")
                lines += [item(w) for w in other]
            lines.append(
                Markup(
                    "`/volleyball orders show` lists them in full, `/volleyball preview` the "
                    "totals per set."
                )
            )
        else:
            problems = [joined.where(p) if joined else p for p in check.problems]
            kept_text = (
                "Your orders on file stay as they were (`/volleyball orders show`)."
                if on_file is not None
                else "Nothing was stored."
            )
            lines = [
                Markup(
                    f"**Orders for {what} refused** ({shown(team.name)}): "
                    f"{plural(len(problems)):problem}. {kept_text}"
                ),
                *(item(p) for p in problems),
            ]
            if form is not None:
                lines.append(
                    Markup(
                        "Your text is kept: **Fix and send again** opens the form with it "
                        "(so does `/volleyball orders send`)."
                    )
                )
                view = view_of([RetryButton(league_id, "orders")])
            if check.warnings:
                lines.append("Warnings:")
                lines += [item(w) for w in check.warnings]
        # The card shows who has sent orders: drawn now, shown right after the answer (the
        # answer is the manager's first sight; the card's edit is Discord's call only).
        card = await self.leagues.card.prepare(league_id) if check.accepted else None
        await answer(interaction, lines, view=view)
        if card is not None:
            await self.leagues.card.show(card)
        return check

    async def repeat_orders(self, interaction: discord.Interaction, league_id: int) -> None:
        """Last round's line-ups for this round's matches, adjusted to the team as it is
        (rules.volleyball.repeat_lineups) and checked like any orders."""
        stored, state, team = await self.managed(league_id, interaction.user.id)
        if state.season_over:
            raise UserError(
                "The season is over: no matches to give line-ups for. Send your ageing splits "
                "with `/volleyball orders upload`, or leave them to the bot."
            )
        last = await store.last_orders(self.db, stored.id, team.name, round_key(state))
        previous = RoundOrders.from_dict(json.loads(last[2])) if last else None
        if last is None or previous is None or not previous.matches:
            raise UserError(
                f"{shown(team.name)} has no line-ups from an earlier round to repeat: "
                "`/volleyball orders send` or `/volleyball orders edit` writes them."
            )
        fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team.name)
        allowance = state.league.config.home_advantage_points(state.league.round_number)
        repeated = repeat_lineups(
            team,
            previous,
            fixtures,
            allowance,
            league_matches=state.league.config.matches_per_round,
        )
        heading: list[str] = [
            f"Your line-ups of round {last[1]} repeated"
            + (", changed where they had to be:" if repeated.changes else " as they were.")
        ]
        heading += [item(c) for c in repeated.changes]
        await self.submit(
            interaction,
            league_id,
            "",
            whole=False,
            for_round=round_key(state),
            lineups=repeated.orders,
            heading=heading,
        )

    @staticmethod
    def bot_deadline_known(stored: store.StoredLeague) -> bool:
        return stored.status == "running" and stored.next_deadline is not None

    def require_before_deadline(self, stored: store.StoredLeague, state: LeagueState) -> None:
        """Orders after the deadline are refused: the round is being played."""
        if self.bot_deadline_known(stored) and time.time() >= (stored.next_deadline or 0):
            raise UserError(
                f"The deadline for {round_name(state)} passed "
                f"{timestamp(stored.next_deadline or 0, 'R')}; it is being played now. Send "
                "your orders for the next round once its results are out."
            )

    async def show_details(
        self,
        interaction: discord.Interaction,
        league_id: int,
        season: int,
        round_number: int,
        what: str,
    ) -> None:
        """A public post's details button (components.DETAILS), answered to the clicker only:
        the round's every set and who played (this season's rounds: a season's results are
        cleared when it closes), the table and the cup's bracket as they are now, or what the
        GM publishes for the season."""
        stored = await self.leagues.load(league_id, by=interaction.user.id)
        state = decode(stored)
        now = state.league.season
        name = shown(stored.name)
        if what == "season":
            await answer(interaction, season_start_lines(state))
            return
        if what == "sets" and season != now:
            raise UserError(
                f"Season {season} of {name} is over, and its rounds' sets with it; "
                "`/volleyball history` has each team's results."
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = state.league.round_number - 1
        if what == "sets":
            images = await self.leagues.poster.images(state, ["results"], round_number)
            caption = f"{name}, season {season}, round {round_number}: every set and who played."
        elif what == "table":
            images = await self.leagues.poster.images(state, ["standings"])
            after = f"after round {played}" if played else "before its first round"
            caption = f"{name}, season {now}: the table {after}."
        else:
            images = await self.leagues.poster.images(state, ["cup"])
            caption = f"{name}, season {now}: the Galaxy Cup."
        for start in range(0, len(images), MAX_FILES):
            await interaction.followup.send(
                caption if start == 0 else f"{caption} (more)",
                files=files_of(images[start : start + MAX_FILES]),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
