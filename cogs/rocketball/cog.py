"""Rocketball on Discord: challenges, turns through buttons and a typed-move modal, a computer
opponent, reminders and forfeits, records, stats.

Every move goes the same way (`_play`): take the game's lock, load it, check the clicker may act
and the button is current, acknowledge, apply the action with the engine (and the computer's
replies), save state + events in one versioned transaction, then post the new turn message with
the board and the move's animation in the match thread.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    UserError,
    register_user_errors,
    report_error,
    require_bot_permissions,
)
from cogs.rocketball import presentation
from cogs.rocketball.match import (
    COMPUTER_ID,
    COMPUTER_LEVELS,
    DEFAULT_FORFEIT_MINUTES,
    DEFAULT_REMIND_MINUTES,
    SEATS,
    Match,
    seat_of,
    user_of,
)
from db import games as game_store
from db import rocketball as results_store
from render.rocketball import render_board, render_move_gif, turn_squares
from rules.rocketball import ai
from rules.rocketball.actions import Action, Aim, Pass, Resign, Roll
from rules.rocketball.engine import apply, new_game
from rules.rocketball.errors import RocketballError
from rules.rocketball.events import Event, MoveEvent
from rules.rocketball.record import format_action, parse_command, to_record
from rules.rocketball.state import PHASE_OVER, PHASE_ROLL, PLAYER_NAMES, GameState, Settings, other

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

GAME = "rocketball"
REMIND_EVENT = "rocketball_remind"
FORFEIT_EVENT = "rocketball_forfeit"
STALE_BUTTON = (
    "That button is from an earlier turn. Use the newest message in the match thread, "
    "or `/rocketball board` to post a fresh one."
)
NEEDED_PERMISSIONS = ("send_messages", "embed_links", "attach_files")

register_user_errors(RocketballError)


@dataclass(frozen=True)
class Turn:
    """One message's worth of play: the position before, the position after, what happened."""

    before: GameState
    after: GameState
    events: list[Event]


VARIANTS = (
    "bumpers",
    "twisters",
    "gusts",
    "barricades",
    "moguls",
    "djinns",
    "tug_of_war",
    "assault",
    "drifting_winds",
)
VARIANT_ALIASES = {"tug": "tug_of_war", "drifting": "drifting_winds", "drift": "drifting_winds"}


def parse_variants(text: str) -> list[str]:
    """ "bumpers, moguls tug-of-war" -> ["bumpers", "moguls", "tug_of_war"], or UserError naming
    the unknown word and the choices."""
    chosen: list[str] = []
    for word in re.split(r"[\s,;+]+", text.strip().lower()):
        if not word or word in ("none", "-"):
            continue
        name = word.replace("-", "_").rstrip("!")
        name = VARIANT_ALIASES.get(name, name)
        if name not in VARIANTS:
            raise UserError(
                f"`{word}` is not a Rocketball variant. Choose from: "
                + ", ".join(v.replace("_", "-") for v in VARIANTS)
                + " (`/rocketball rules` explains them)."
            )
        if name not in chosen:
            chosen.append(name)
    return chosen


def match_settings(variants: str, target: int, tug_rounds: int) -> Settings:
    names = parse_variants(variants)
    options: dict[str, Any] = {"target_score": target}
    if "tug_of_war" in names:
        options["tug_swap_rounds"] = tug_rounds
    settings = Settings.with_variants(names, **options)
    problems = settings.problems()
    if problems:
        raise UserError("Those options don't go together: " + " ".join(problems))
    return settings


async def variants_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Offer the typed variants plus each one not yet chosen (Discord shows up to 25)."""
    words = [w for w in re.split(r"[\s,]+", current.lower()) if w]
    partial = "" if current.endswith((" ", ",")) or not words else words.pop()
    known = [w for w in words if w.replace("-", "_") in VARIANTS]
    base = " ".join(known)
    choices = []
    if base and not partial:
        choices.append(base)
    for variant in VARIANTS:
        shown = variant.replace("_", "-")
        if variant in [w.replace("-", "_") for w in known] or not shown.startswith(partial):
            continue
        choices.append(f"{base} {shown}".strip())
    return [app_commands.Choice(name=c[:100], value=c[:100]) for c in choices[:25]]


MATCH_OPTION_HELP = {
    "target": "Points needed to win (default 2)",
    "variants": "Variants, e.g. bumpers moguls assault (see /rocketball rules)",
    "tug_rounds": "Tug-of-War: the target goals swap every this many full rounds (default 10)",
    "remind_hours": "Ping a player who has not moved after this many hours (default 24)",
}


class RocketballButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rkt:(?P<game>\d+):(?P<version>\d+):(?P<action>[a-z]+)(?::(?P<arg>[A-Za-z0-9]+))?",
):
    """Every Rocketball button. The custom_id carries the game, the version it was drawn for and
    the action, so a click after a restart finds its game and a stale click is recognised."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        arg: str | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        custom_id = f"rkt:{game_id}:{version}:{action}" + (f":{arg}" if arg else "")
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id))
        self.game_id, self.version, self.action, self.arg = game_id, version, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> RocketballButton:
        return cls(int(match["game"]), int(match["version"]), match["action"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Rocketball")
        try:
            await cog.on_button(interaction, self)
        except Exception as error:  # buttons bypass the tree's error handler
            await report_error(interaction, error)


def turn_view(game_id: int, version: int, state: GameState) -> discord.ui.View | None:
    """The buttons for what comes next, bound to this game at this version."""
    buttons = presentation.turn_buttons(state)
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for label, action, arg, style in buttons:
        view.add_item(RocketballButton(game_id, version, action, arg, label=label, style=style))
    return view


class MoveModal(discord.ui.Modal):
    """The short coordinate input. Its submit is handled by the cog's interaction listener (by
    custom_id), so a form opened before a restart still works after it."""

    def __init__(self, game_id: int, version: int, hint: str) -> None:
        super().__init__(title="Your move", custom_id=f"rktmove:{game_id}:{version}", timeout=None)
        self.move: discord.ui.TextInput = discord.ui.TextInput(
            label="Move (square + facing, or rotate)",
            placeholder=hint[:100],
            max_length=40,
        )
        self.add_item(self.move)


def _text_inputs(components: list[dict[str, Any]]) -> list[str]:
    """Values of the text inputs in a modal submit, whatever the nesting Discord used."""
    values: list[str] = []
    for component in components:
        if "value" in component:
            values.append(str(component["value"]))
        values.extend(_text_inputs(component.get("components", [])))
        if "component" in component:
            values.extend(_text_inputs([component["component"]]))
    return values


class Rocketball(commands.Cog):
    group = app_commands.Group(
        name="rocketball", description="Rocketball: steer the ball with vortex chips"
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        timers = self.bot.get_cog("Timers")
        timers.register(REMIND_EVENT, self.on_remind_timer)
        timers.register(FORFEIT_EVENT, self.on_forfeit_timer)

    # ---- commands ----------------------------------------------------------------------------

    @group.command(name="challenge", description="Challenge someone to a Rocketball match")
    @app_commands.describe(
        opponent="Who you challenge",
        forfeit_hours="After this many hours without a move the opponent may claim the win (72)",
        **MATCH_OPTION_HELP,
    )
    @app_commands.autocomplete(variants=variants_autocomplete)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        target: app_commands.Range[int, 1, 9] = 2,
        variants: str = "",
        tug_rounds: app_commands.Range[int, 1, 50] = 10,
        remind_hours: app_commands.Range[int, 1, 168] = DEFAULT_REMIND_MINUTES // 60,
        forfeit_hours: app_commands.Range[int, 1, 720] = DEFAULT_FORFEIT_MINUTES // 60,
    ) -> None:
        require_bot_permissions(interaction, *NEEDED_PERMISSIONS)
        if forfeit_hours <= remind_hours:
            raise UserError(
                "forfeit_hours must be longer than remind_hours: a player is reminded first, "
                "and only later may their opponent claim the match."
            )
        if opponent.id == interaction.user.id:
            raise UserError("You can't challenge yourself. Try `/rocketball play-computer`.")
        if opponent.bot:
            raise UserError(
                "Bots can't play Rocketball. To play the computer, use `/rocketball play-computer`."
            )
        settings = match_settings(variants, target, tug_rounds)
        await self._refuse_duplicate(interaction.channel_id, interaction.user.id, opponent.id)
        state, _ = new_game(self.bot.seed_source.randrange(2**31), settings)
        match = Match(
            engine=state,
            remind_minutes=remind_hours * 60,
            forfeit_minutes=forfeit_hours * 60,
            names={"N": interaction.user.display_name, "S": opponent.display_name},
        )
        game_id = await game_store.create_game(
            self.bot.db,
            game=GAME,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            players=[interaction.user.id, opponent.id],
            state=match.to_json(),
        )
        variants = ", ".join(n.replace("_", " ") for n in settings.variant_names()) or "none"
        view = discord.ui.View(timeout=None)
        view.add_item(
            RocketballButton(
                game_id, 0, "accept", label="Accept", style=discord.ButtonStyle.success
            )
        )
        view.add_item(
            RocketballButton(
                game_id, 0, "decline", label="Decline", style=discord.ButtonStyle.danger
            )
        )
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you to Rocketball "
            f"(match #{game_id}: first to {target}; variants: {variants}). "
            f"{interaction.user.mention} plays North, you play South.",
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )

    @group.command(name="play-computer", description="Play Rocketball against the computer")
    @app_commands.describe(level="How strong the computer plays", **MATCH_OPTION_HELP)
    @app_commands.choices(
        level=[app_commands.Choice(name=level, value=level) for level in COMPUTER_LEVELS]
    )
    @app_commands.autocomplete(variants=variants_autocomplete)
    @app_commands.guild_only()
    async def play_computer(
        self,
        interaction: discord.Interaction,
        level: app_commands.Choice[str],
        target: app_commands.Range[int, 1, 9] = 2,
        variants: str = "",
        tug_rounds: app_commands.Range[int, 1, 50] = 10,
        remind_hours: app_commands.Range[int, 1, 168] = DEFAULT_REMIND_MINUTES // 60,
    ) -> None:
        require_bot_permissions(interaction, *NEEDED_PERMISSIONS)
        settings = match_settings(variants, target, tug_rounds)
        await self._refuse_duplicate(interaction.channel_id, interaction.user.id, COMPUTER_ID)
        await interaction.response.defer(thinking=True)
        state, events = new_game(self.bot.seed_source.randrange(2**31), settings)
        match = Match(
            engine=state,
            computer=level.value,
            remind_minutes=remind_hours * 60,
            names={"N": interaction.user.display_name, "S": f"Computer ({level.value})"},
        )
        game_id = await game_store.create_game(
            self.bot.db,
            game=GAME,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            players=[interaction.user.id, COMPUTER_ID],
            state=match.to_json(),
            status="active",
        )
        await interaction.followup.send(
            f"{interaction.user.mention} (North) takes on the computer ({level.value}, South): "
            f"Rocketball match #{game_id}."
        )
        message = await interaction.original_response()
        stored = await game_store.load_game(self.bot.db, game_id)
        await self._start_match(stored, match, events, message)

    @group.command(name="move", description="Type your move, e.g. c4 N or rotate c4 cw")
    @app_commands.describe(move="c4 N (place), rotate c4 cw, drift c4 c5, aim E, roll or pass")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        stored = await self._game_here(interaction)
        await self._play(interaction, stored.id, stored.version, text=move)

    @group.command(name="board", description="Show the board of the match here (and its buttons)")
    async def board(self, interaction: discord.Interaction) -> None:
        stored = await self._game_here(interaction, include_pending=False)
        match = Match.from_json(stored.state)
        await interaction.response.defer()
        turn = Turn(match.engine, match.engine, [])
        await self._send_turn(interaction.followup, stored, match, turn)

    @group.command(name="resign", description="Resign your match here (or withdraw a challenge)")
    async def resign(self, interaction: discord.Interaction) -> None:
        stored = await self._game_here(interaction)
        if stored.status == "pending":
            async with self.bot.game_locks(stored.id):
                text = await self._cancel_challenge(stored, interaction.user.id)
            await interaction.response.send_message(text)
            return
        seat = seat_of(stored.players, interaction.user.id)
        await self._play(interaction, stored.id, stored.version, action=Resign(seat))

    @group.command(name="record", description="The game record of your latest match, as a file")
    @app_commands.describe(match_id="A match number (default: your latest)")
    async def record(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        if match_id is None:
            mine = await game_store.find_games(
                self.bot.db,
                game=GAME,
                user_id=interaction.user.id,
                statuses=("active", "finished"),
            )
            if not mine:
                raise UserError("You have no Rocketball matches yet.")
            stored = mine[0]
        else:
            stored = await game_store.load_game(self.bot.db, match_id, game=GAME)
            if stored is None or stored.status in ("pending", "cancelled"):
                raise UserError(f"There is no Rocketball match #{match_id} with moves to record.")
        match = Match.from_json(stored.state)
        text = to_record(match.engine)
        await interaction.response.send_message(
            f"Record of Rocketball match #{stored.id} (replay it with "
            "`python -m rules.rocketball replay FILE`).",
            file=discord.File(io.BytesIO(text.encode()), filename=f"rocketball-{stored.id}.txt"),
            ephemeral=True,
        )

    @group.command(name="rules", description="How Rocketball is played here, with the rulings")
    async def rules(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Rocketball: the rules as the bot plays them",
            description=presentation.RULES_SUMMARY,
            colour=presentation.COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="stats", description="Wins, losses and goals in Rocketball")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        target = user or interaction.user
        stats = await results_store.player_stats(self.bot.db, target.id)
        embed = discord.Embed(
            title=f"Rocketball: {target.display_name}", colour=presentation.COLOUR
        )
        if stats.played == 0:
            embed.description = "No finished matches yet."
        else:
            embed.add_field(name="Played", value=str(stats.played))
            embed.add_field(name="Won", value=str(stats.wins))
            embed.add_field(name="Lost", value=str(stats.losses))
            if stats.draws:
                embed.add_field(name="Drawn", value=str(stats.draws))
            embed.add_field(
                name="Goals", value=f"{stats.goals_for} for, {stats.goals_against} against"
            )
            embed.add_field(
                name="Against the computer",
                value=f"{stats.vs_computer_wins} won of {stats.vs_computer_played}",
            )
        await interaction.response.send_message(embed=embed)

    # ---- finding a match ---------------------------------------------------------------------

    async def _refuse_duplicate(
        self, channel_id: int | None, user_id: int, opponent_id: int
    ) -> None:
        for stored in await game_store.find_games(self.bot.db, game=GAME, channel_id=channel_id):
            if {user_id, opponent_id} == set(stored.players):
                raise UserError(
                    f"You already have Rocketball match #{stored.id} with them in this channel. "
                    "Finish it (or `/rocketball resign`) before starting another."
                )

    async def _game_here(
        self, interaction: discord.Interaction, *, include_pending: bool = True
    ) -> game_store.StoredGame:
        """The caller's match in this channel or thread (or, for spectators, the only one)."""
        here = await game_store.find_games(
            self.bot.db, game=GAME, channel_id=interaction.channel_id
        )
        if not include_pending:
            here = [g for g in here if g.status == "active"]
        mine = [g for g in here if interaction.user.id in g.players]
        if mine:
            return mine[0]
        if here and not include_pending:
            return here[0]
        raise UserError(
            "There is no Rocketball match of yours here. Start one with `/rocketball challenge`."
        )

    # ---- buttons and the typed move ----------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction, button: RocketballButton) -> None:
        if button.action in ("accept", "decline"):
            await self._answer_challenge(interaction, button)
        elif button.action == "claim":
            await self._claim_forfeit(interaction, button)
        elif button.action == "move":
            await self._open_move_form(interaction, button)
        elif button.action == "roll":
            await self._play(interaction, button.game_id, button.version, action=Roll())
        elif button.action == "pass":
            await self._play(interaction, button.game_id, button.version, action=Pass())
        elif button.action == "aim" and button.arg in ("N", "E", "S", "W"):
            await self._play(interaction, button.game_id, button.version, action=Aim(button.arg))
        else:
            raise UserError("That button does nothing any more.")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        found = re.fullmatch(r"rktmove:(\d+):(\d+)", custom_id)
        if not found:
            return
        values = _text_inputs((interaction.data or {}).get("components", []))
        try:
            await self._play(
                interaction, int(found[1]), int(found[2]), text=values[0] if values else ""
            )
        except Exception as error:
            await report_error(interaction, error)

    async def _open_move_form(
        self, interaction: discord.Interaction, button: RocketballButton
    ) -> None:
        stored, match = await self._load_for_move(interaction, button.game_id, button.version)
        drawn = match.engine.drawn
        hint = "e.g. c4 N · rotate c4 cw"
        if drawn == "djinn":
            hint = "djinn: square, facing and chip, e.g. c4 N vortex"
        elif drawn and drawn not in ("vortex", "gust"):
            hint = f"{drawn} chip: just the square, e.g. e5 · or rotate c4 cw"
        if match.engine.settings.drifting_winds:
            hint += " · drift c4 c5"
        await interaction.response.send_modal(MoveModal(stored.id, stored.version, hint))

    async def _load_for_move(
        self, interaction: discord.Interaction, game_id: int, version: int
    ) -> tuple[game_store.StoredGame, Match]:
        """Load the game and check that this user may move now, with a current button."""
        stored = await game_store.load_game(self.bot.db, game_id, game=GAME)
        if stored is None:
            raise UserError("That Rocketball match no longer exists.")
        seat = seat_of(stored.players, interaction.user.id)
        if seat is None:
            raise UserError(
                f"You're watching match #{game_id}: only its two players can move. "
                "Start your own with `/rocketball challenge`."
            )
        if stored.status != "active":
            raise UserError(f"Match #{game_id} is not being played ({stored.status}).")
        match = Match.from_json(stored.state)
        if match.engine.phase != PHASE_OVER and match.engine.to_move != seat:
            mover = presentation.player_label(match, stored.players, match.engine.to_move)
            raise UserError(f"It's not your turn: {mover} is holding the windbag.")
        if version != stored.version:
            raise UserError(STALE_BUTTON)
        return stored, match

    async def _play(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        *,
        action: Action | None = None,
        text: str | None = None,
    ) -> None:
        """Apply one player action (and the computer's replies), save, and post the result."""
        async with self.bot.game_locks(game_id):
            if isinstance(action, Resign):
                stored = await game_store.load_game(self.bot.db, game_id, game=GAME)
                if stored is None or stored.status != "active":
                    raise UserError("That match is not being played.")
                match = Match.from_json(stored.state)
            else:
                stored, match = await self._load_for_move(interaction, game_id, version)
            seat = seat_of(stored.players, interaction.user.id)
            if action is None:
                action = parse_command(text or "", seat)
            before = match.engine
            # Validate with the engine before acknowledging, so a mistake gets a plain message.
            after, events = apply(before, action)
            if interaction.type is discord.InteractionType.application_command:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
            turns = [Turn(before, after, events)]
            if match.computer and after.phase != PHASE_OVER and after.to_move == "S":
                turns += await asyncio.to_thread(
                    self._computer_turns, after, match.computer, stored.id, stored.version
                )
            match.engine = turns[-1].after
            all_events = [event for turn in turns for event in turn.events]
            stored = await self._save(stored, match, interaction.user.id, action, all_events)
        await self._after_move(interaction, stored, match, turns)

    @staticmethod
    def _computer_turns(state: GameState, level: str, game_id: int, version: int) -> list[Turn]:
        """The computer plays until it is the human's turn again (or the match ends), as one
        Turn per round of its own. Its RNG is seeded from the game and move number, so the
        same position at the same move gets the same choices."""
        rng = random.Random(f"rocketball:{game_id}:{version}")
        turns: list[Turn] = []
        current = Turn(state, state, [])
        while state.phase != PHASE_OVER and state.to_move == "S":
            if state.phase == PHASE_ROLL and current.events:
                turns.append(current)
                current = Turn(state, state, [])
            choice = ai.choose_action(state, level, rng)
            state, new_events = apply(state, choice)
            current = Turn(current.before, state, current.events + new_events)
        if current.events:
            turns.append(current)
        return turns

    async def _save(
        self,
        stored: game_store.StoredGame,
        match: Match,
        actor_id: int,
        action: Action,
        events: list[Event],
    ) -> game_store.StoredGame:
        finished = match.engine.phase == PHASE_OVER
        also = None
        if finished:

            async def also(conn):
                await results_store.record_results(conn, stored.id, self._results(stored, match))

        saved = await game_store.save_move(
            self.bot.db,
            stored,
            state=match.to_json(),
            actor_id=actor_id,
            action=format_action(action),
            events=[event.text for event in events],
            status="finished" if finished else None,
            also=also,
        )
        await self._reschedule_timers(saved, match)
        return saved

    def _results(
        self, stored: game_store.StoredGame, match: Match
    ) -> list[results_store.PlayerResult]:
        state = match.engine
        how = "forfeit" if match.forfeited_by else (state.end_reason or "score")
        results = []
        for seat in SEATS:
            user_id = user_of(stored.players, seat)
            opponent = user_of(stored.players, other(seat))
            if state.winner is None:
                outcome = "draw"
            else:
                outcome = "win" if state.winner == seat else "loss"
            results.append(
                results_store.PlayerResult(
                    user_id=user_id,
                    opponent_id=opponent,
                    result=outcome,
                    goals_for=state.score[seat],
                    goals_against=state.score[other(seat)],
                    vs_computer=opponent == COMPUTER_ID,
                    how=how,
                )
            )
        return results

    async def _after_move(
        self,
        interaction: discord.Interaction,
        stored: game_store.StoredGame,
        match: Match,
        turns: list[Turn],
    ) -> None:
        # The old message's buttons are spent: remove them so nobody clicks a stale one.
        if interaction.type is discord.InteractionType.component:
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                log.warning("could not clear the buttons of match %s's old message", stored.id)
        target = await self._match_channel(stored, interaction)
        for index, turn in enumerate(turns):
            await self._send_turn(target, stored, match, turn, final=index == len(turns) - 1)
        if interaction.type is discord.InteractionType.application_command:
            await interaction.followup.send(
                f"Done: see match #{stored.id}'s latest message.", ephemeral=True
            )

    async def _match_channel(self, stored: game_store.StoredGame, interaction: discord.Interaction):
        channel_id = stored.thread_id or stored.channel_id
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                channel = interaction.channel
        return channel

    async def _send_turn(
        self, target, stored: game_store.StoredGame, match: Match, turn: Turn, *, final: bool = True
    ) -> None:
        """Post a turn message: the events in words, the board after them, the move's
        animation, and (on the last message of a batch) the buttons for what comes next."""
        state = turn.after
        moved = any(isinstance(e, MoveEvent) for e in turn.events)
        names = {seat: self._display_name(stored.players, seat, match) for seat in SEATS}
        board, gif = await asyncio.to_thread(
            self._draw, state, turn.before, turn.events, names, moved
        )
        files = [discord.File(io.BytesIO(board), filename="board.png")]
        if gif is not None:
            files.append(discord.File(io.BytesIO(gif), filename="move.gif"))
        embed = presentation.turn_embed(
            stored.id, match, stored.players, state, turn.events, has_gif=gif is not None
        )
        kwargs: dict[str, Any] = {"embed": embed, "files": files}
        if final:
            view = turn_view(stored.id, stored.version, state)
            if view is not None:
                kwargs["view"] = view
            mover = user_of(stored.players, state.to_move)
            if state.phase != PHASE_OVER and mover != COMPUTER_ID:
                kwargs["content"] = f"<@{mover}>, your move."
        await target.send(**kwargs)

    @staticmethod
    def _draw(state, before, events, names, animate):
        board = render_board(state, names=names, highlight=turn_squares(events))
        gif = render_move_gif(before, events, names=names) if animate else None
        return board, gif

    def _display_name(self, players: tuple[int, ...], seat: str, match: Match) -> str:
        if seat in match.names:
            return match.names[seat]
        user_id = user_of(players, seat)
        if user_id == COMPUTER_ID:
            return f"Computer ({match.computer})"
        user = self.bot.get_user(user_id)
        return user.display_name if user else PLAYER_NAMES[seat]

    # ---- challenges, forfeits, reminders -----------------------------------------------------

    async def _answer_challenge(
        self, interaction: discord.Interaction, button: RocketballButton
    ) -> None:
        async with self.bot.game_locks(button.game_id):
            stored = await game_store.load_game(self.bot.db, button.game_id, game=GAME)
            if stored is None or stored.status != "pending":
                raise UserError("That challenge has already been answered.")
            challenger, challenged = stored.players
            if interaction.user.id != challenged:
                if interaction.user.id == challenger and button.action == "decline":
                    pass  # a challenger may withdraw with Decline
                else:
                    raise UserError(f"Only <@{challenged}> can answer this challenge.")
            if button.action == "decline":
                text = await self._cancel_challenge(stored, interaction.user.id)
                await interaction.response.edit_message(content=text, view=None)
                return
            await interaction.response.edit_message(
                content=f"Rocketball match #{stored.id}: <@{challenger}> (North) vs "
                f"<@{challenged}> (South). Play in the thread below.",
                view=None,
            )
            match = Match.from_json(stored.state)
            _, events = new_game(match.engine.seed, match.engine.settings)
            stored = await game_store.save_move(
                self.bot.db,
                stored,
                state=stored.state,
                actor_id=interaction.user.id,
                action="accept",
                events=[e.text for e in events],
                status="active",
            )
            await self._start_match(stored, match, events, interaction.message)

    async def _cancel_challenge(self, stored: game_store.StoredGame, actor_id: int) -> str:
        """End a challenge nobody accepted: declined by the challenged player, or withdrawn by
        the challenger. Returns what the channel is told."""
        challenger = stored.players[0]
        what = "withdrawn" if actor_id == challenger else "declined"
        text = f"Rocketball challenge #{stored.id} was {what}."
        await game_store.save_move(
            self.bot.db,
            stored,
            state=stored.state,
            actor_id=actor_id,
            action=what,
            events=[text],
            status="cancelled",
        )
        return text

    async def _start_match(self, stored, match: Match, events: list[Event], message) -> None:
        """Open the match thread off the announcement (or play in the channel if threads are
        not allowed there), post the start, and let the computer move if it holds the windbag."""
        target = message.channel
        try:
            thread = await message.create_thread(
                name=f"Rocketball #{stored.id}", auto_archive_duration=1440
            )
        except discord.HTTPException:
            log.info("no thread for match %s; playing in the channel", stored.id)
        else:
            target = thread
            await game_store.set_thread(self.bot.db, stored.id, thread.id)
            stored = await game_store.load_game(self.bot.db, stored.id)
        turns = [Turn(match.engine, match.engine, events)]
        if match.computer and match.engine.to_move == "S":
            async with self.bot.game_locks(stored.id):
                turns += await asyncio.to_thread(
                    self._computer_turns, match.engine, match.computer, stored.id, stored.version
                )
                match.engine = turns[-1].after
                all_events = [e for turn in turns[1:] for e in turn.events]
                stored = await self._save(stored, match, COMPUTER_ID, Roll(), all_events)
        for index, turn in enumerate(turns):
            await self._send_turn(target, stored, match, turn, final=index == len(turns) - 1)
        await self._reschedule_timers(stored, match)

    async def _reschedule_timers(self, stored: game_store.StoredGame, match: Match) -> None:
        timers = self.bot.get_cog("Timers")
        await timers.cancel(REMIND_EVENT, game_id=stored.id)
        await timers.cancel(FORFEIT_EVENT, game_id=stored.id)
        state = match.engine
        if stored.status != "active" or state.phase == PHASE_OVER:
            return
        if user_of(stored.players, state.to_move) == COMPUTER_ID:
            return
        payload = {"game_id": stored.id, "version": stored.version}
        await timers.schedule(REMIND_EVENT, match.remind_minutes * 60, payload)
        if COMPUTER_ID not in stored.players:
            await timers.schedule(FORFEIT_EVENT, match.forfeit_minutes * 60, payload)

    async def _still_waiting(self, payload: dict[str, Any]):
        stored = await game_store.load_game(self.bot.db, payload["game_id"], game=GAME)
        if stored is None or stored.status != "active" or stored.version != payload["version"]:
            return (
                None  # somebody moved since: nothing to do (this also makes the handler idempotent)
            )
        return stored

    async def on_remind_timer(self, timer) -> None:
        stored = await self._still_waiting(timer.payload)
        if stored is None:
            return
        match = Match.from_json(stored.state)
        mover = user_of(stored.players, match.engine.to_move)
        channel = self.bot.get_channel(stored.thread_id or stored.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(stored.thread_id or stored.channel_id)
        await channel.send(
            f"<@{mover}>, Rocketball match #{stored.id} is waiting for your move "
            f"(`/rocketball board` shows it again)."
        )

    async def on_forfeit_timer(self, timer) -> None:
        stored = await self._still_waiting(timer.payload)
        if stored is None:
            return
        match = Match.from_json(stored.state)
        waiting = user_of(stored.players, other(match.engine.to_move))
        channel = self.bot.get_channel(stored.thread_id or stored.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(stored.thread_id or stored.channel_id)
        view = discord.ui.View(timeout=None)
        view.add_item(
            RocketballButton(
                stored.id,
                stored.version,
                "claim",
                label="Claim the win",
                style=discord.ButtonStyle.danger,
            )
        )
        await channel.send(
            f"<@{waiting}>, your opponent has not moved in match #{stored.id} for "
            f"{match.forfeit_minutes // 60} hours. You may claim the match as a forfeit.",
            view=view,
        )

    async def _claim_forfeit(
        self, interaction: discord.Interaction, button: RocketballButton
    ) -> None:
        async with self.bot.game_locks(button.game_id):
            stored = await game_store.load_game(self.bot.db, button.game_id, game=GAME)
            if stored is None or stored.status != "active":
                raise UserError("That match is not being played any more.")
            if stored.version != button.version:
                raise UserError("Your opponent has moved since: the match goes on.")
            match = Match.from_json(stored.state)
            absent = match.engine.to_move
            if interaction.user.id != user_of(stored.players, other(absent)):
                raise UserError("Only the player who is waiting can claim this match.")
            before = match.engine
            match.engine, events = apply(before, Resign(absent))
            match.forfeited_by = absent
            await interaction.response.defer()
            stored = await self._save(stored, match, interaction.user.id, Resign(absent), events)
        await self._after_move(interaction, stored, match, [Turn(before, match.engine, events)])


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(RocketballButton)
    await bot.add_cog(Rocketball(bot))
