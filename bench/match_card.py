"""The live match card through the local fake Discord, with the real bot.py in its own process:
how many messages a whole match leaves in its thread, how many requests a move costs (interaction
responses, which Discord does not count against the global rate limit, against everything else),
and how long a click takes until the card shows the new position.

    .venv/bin/python bench/match_card.py [--matches 10] [--games rollerball]

Each figure is printed with the goal it is compared to and their ratio (figure / goal: at most 1
meets it). Rollerball II's messages per match, per mode, are bench/rollerball2_thread.py's.
Seeds are fixed (GAME_SEED), so a run plays the same matches. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.interactions import MESSAGE_COMPONENT  # noqa: E402
from fakediscord.limits import BUTTON  # noqa: E402
from fakediscord.messages import Message  # noqa: E402
from fakediscord.model import Channel, User  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from rules.rollerball import (  # noqa: E402
    Bid,
    Move,
    Pass,
    Play,
    actors,
    choose_action,
    legal_actions,
    next_step,
    view_for,
)
from tests.e2e.cards import (  # noqa: E402
    card_game_id,
    current_card,
    is_card,
    is_result,
)
from tests.e2e.cards import stored_row as stored  # noqa: E402
from tests.e2e.rollerball_clicks import ClickingTable, stored_match  # noqa: E402


def line(name: str, figure: float, goal: float, unit: str = "") -> str:
    ratio = figure / goal if goal else float("inf")
    verdict = "meets" if ratio <= 1 else "misses"
    return f"{name:<58} {figure:8.2f}{unit}  goal {goal:g}{unit}  ratio {ratio:4.2f} ({verdict})"


def is_interaction_route(route: str) -> bool:
    """Interaction responses and edits of them: not under Discord's global rate limit."""
    _method, path = route.split(" ", 1)
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


class Bench:
    def __init__(self, discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord) -> None:
        self.discord, self.bot, self.fake = discord, bot, fake
        self.general = discord.default_channel
        self.players: dict[int, dict[str, User]] = {}  # start_matches': each match's by side
        self.teams = 0  # Rollerball II teams made so far, for a new pair's names
        self.tables = 0  # Rollerball tables started so far, for their players' names
        self.pairs = 0  # Rocketball matches started so far, for their players' names

    def thread_messages(self, thread) -> int:
        return len(self.discord.channel_messages(thread))

    async def thread_from(self, message, timeout: float = 30):
        """The thread started from `message` (it has the message's id, as on Discord): safe
        when several matches start at once, unlike the newest thread."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await self.fake.call(lambda: self._has_channel(message.id)):
                return self.fake.channel_handle(message.id)
            await asyncio.sleep(0.01)
        raise TimeoutError(f"no thread from message {message.id} within {timeout} s")

    async def _has_channel(self, channel_id: int) -> bool:
        return channel_id in self.fake.channels

    async def new_thread(self, known: int):
        while len(self.discord.threads(self.general)) == known:
            await asyncio.sleep(0.01)
        return self.discord.threads(self.general)[-1]

    # ---- Rocketball against the computer ---------------------------------------------------

    async def rocketball_vs_computer(self) -> tuple[float, float, float]:
        """(messages per round, interaction requests per move, other requests per move)."""
        from rules.rocketball import GameState, ai

        user = self.fake.add_user("solo")
        known = len(self.discord.threads(self.general))
        await self.discord.slash(
            "rocketball play-computer", user=user, channel=self.general, level="easy", target=3
        )
        thread = await self.new_thread(known)
        card = await self.discord.wait_for_message(thread, is_card, timeout=30, since=0)
        game_id = card_game_id(card)
        rng = random.Random(5)
        requests_before = len(self.fake.requests)
        moves = 0
        for _ in range(600):
            card = await current_card(self.discord, self.bot, thread, game_id, timeout=30)
            (status,) = stored(self.bot, "SELECT status FROM games WHERE id = ?", game_id)
            if status != "active":
                break
            (state_json,) = stored(
                self.bot, "SELECT json_extract(state, '$.engine') FROM games WHERE id = ?", game_id
            )
            state = GameState.from_json(state_json)
            action = ai.choose_action(state, "strong", rng)
            await self.play_rocketball(card, user, action)
            moves += 1
        routes = self.fake.requests[requests_before:]
        (rounds,) = stored(
            self.bot,
            "SELECT COUNT(*) FROM game_moves m, json_each(m.events) e"
            " WHERE m.game_id = ? AND e.value LIKE '%rolls d4 =%'",
            game_id,
        )
        await self.discord.wait_for_message(thread, is_result, timeout=30, since=0)
        messages = self.thread_messages(thread)
        interaction = sum(is_interaction_route(r) for r in routes)
        return messages / max(rounds, 1), interaction / moves, (len(routes) - interaction) / moves

    async def play_rocketball(self, card, user, action) -> None:
        from host.adapter import move_arg
        from rules.rocketball import ENGINE, Aim, Pass, Roll

        if isinstance(action, Roll):
            await self.discord.click(card, "Roll the d4", user=user, timeout=30)
        elif isinstance(action, Aim):
            await self.discord.click(card, f"Aim {action.facing}", user=user, timeout=30)
        elif isinstance(action, Pass):
            await self.discord.click(card, "Pass (no move possible)", user=user, timeout=30)
        else:
            square = getattr(action, "square", None) or action.from_square
            if not card.selects:  # the best moves come first: the square menus on request
                card = await self.discord.click(card, "Other squares…", user=user, timeout=30)
            menu = next(s for s in card.selects if square in [o.value for o in s.options])
            picked = await self.discord.select(card, menu.custom_id, [square], user=user)
            wanted = move_arg(ENGINE, action)
            button = next(b for b in picked.buttons if (b.custom_id or "").endswith(f":{wanted}"))
            await self.discord.click(picked, button.custom_id, user=user, timeout=30)

    # ---- Rollerball ---------------------------------------------------------------------------

    async def rollerball_table(self) -> dict[str, float]:
        """A table of three people and a computer (later edition, first to 5) played to the end
        with clicks and menus only, the people choosing as the sensible computer would 7 times
        in 10 and at random otherwise (tests/e2e/rollerball_clicks.py): the thread's messages
        against one per change of the player the game waits for plus the milestones, and the
        interactions each decision took."""
        ann, ben, cy = (self.fake.add_user(f"rb-{name}") for name in ("ann", "ben", "cy"))
        known = len(self.discord.threads(self.general))
        lobby = await self.discord.slash(
            "rollerball new", user=ann, channel=self.general, players=4, target=5
        )
        await self.discord.click(lobby, "Join", user=ben)
        await self.discord.click(lobby, "Join", user=cy)
        await self.discord.click(lobby, "Add computer", user=ann)
        await self.discord.click(lobby, "Start", user=ann)
        thread = await self.new_thread(known)
        card = await self.discord.wait_for_message(thread, is_card, timeout=30, since=0)
        game_id = card_game_id(card)
        table = ClickingTable(self.discord, self.bot, thread, game_id, {0: ann, 1: ben, 2: cy})
        rng = random.Random(21)
        requests_before = len(self.fake.requests)
        waiting_for, changes, most = None, 0, 0
        for _ in range(2000):
            _, status, match = stored_match(self.bot, game_id)
            if status != "active":
                break
            game = match.engine.game
            deciding = frozenset(actors(game))
            if deciding != waiting_for:  # the game now waits for someone else
                changes += 1
                waiting_for = deciding
            seat = min(deciding)
            before = table.interactions
            level = "sensible" if rng.random() < 0.7 else "random"  # players who mostly think
            play = Play(choose_action(view_for(game, seat), rng, level), game.settings.board)
            await table.play(seat, play)
            most = max(most, table.interactions - before)
        await self.discord.wait_for_message(thread, is_result, timeout=30, since=0)
        messages = self.discord.channel_messages(thread)
        milestones = sum(
            "banks the card" in m.text or "wins the bid" in m.text or is_result(m) for m in messages
        )
        routes = self.fake.requests[requests_before:]
        interaction = sum(is_interaction_route(r) for r in routes)
        return {
            "messages": len(messages),
            # the card itself, a message per change of player, one per milestone
            "goal": 1 + changes + milestones,
            "per decision": table.interactions / table.decisions,
            "most": most,
            "other": (len(routes) - interaction) / table.decisions,
            # each message but the card is a channel post; the card is redrawn through an
            # interaction (the click on it, or for a decision made on a panel the token of the
            # click on the card that opened the panel)
            "other floor": (len(messages) - 1) / table.decisions,
            "decisions": table.decisions,
        }

    # ---- latency -----------------------------------------------------------------------------

    async def start_matches(
        self, count: int, channels: list[Channel] | None = None, *, press_roll: bool = True
    ) -> list[tuple[Message, User]]:
        """`count` new Rocketball matches between people, each with its live card showing the
        first turn: (card, the player to move), in `channels` in turn (#general by default).
        Several may run at once. `press_roll`: the players press Roll the d4 themselves (their
        /settings me), so the first turn is a roll; else the bot rolls for them, as it does
        unless they say so, and the first turn is a chip to place."""
        matches = []
        for index in range(count):
            channel = (channels or [self.general])[index % len(channels or [self.general])]
            # named apart, as real players are: nothing drawn for one match serves another
            self.pairs += 1
            north = self.fake.add_user(f"north{self.pairs}")
            south = self.fake.add_user(f"south{self.pairs}")
            for player in (north, south) if press_roll else ():  # not rolled as the turn begins
                await self.discord.slash("settings me", user=player, channel=channel, dice="myself")
            reply = await self.discord.slash(
                "rocketball challenge", user=north, channel=channel, opponent=south
            )
            await self.discord.click(reply, "Accept", user=south)
            thread = await self.thread_from(reply)
            card = await self.discord.wait_for_message(thread, is_card, timeout=30, since=0)
            game_id = card_game_id(card)
            card = await current_card(self.discord, self.bot, thread, game_id)
            self.players[game_id] = {"N": north, "S": south}
            matches.append((card, self.mover(game_id)))
        return matches

    def mover(self, game_id: int) -> User:
        """The player to move in Rocketball match `game_id`, as it is stored."""
        (state,) = stored(self.bot, "SELECT state FROM games WHERE id = ?", game_id)
        return self.players[game_id][json.loads(state)["engine"]["to_move"]]

    async def in_play(self, matches: list[tuple[Message, User]]) -> list[tuple[Message, User]]:
        """Rocketball `matches` (started by `start_matches(press_roll=False)`) played on until
        both players have placed a chip, each clicking the card's suggested move: the next
        click is one of a match in play, whose players are at its card (no ping), not a
        match's first move, which pings the other player into its new thread."""
        for _ in range(2):
            await rolls_at_once(self.fake, matches, label="Suggested: …", shows=None)
            moved_on = []
            for card, _mover in matches:
                moved_on.append((self.discord.message(card), self.mover(card_game_id(card))))
            matches = moved_on
        return matches

    async def start_rollerball2_matches(self, count: int) -> list[tuple[Message, User]]:
        """`count` new solo Rollerball II matches, each with its live card showing the first
        turn: (card, its coach). A team plays one match at a time, so each match's coach has two
        new teams of his own. Several may run at once."""
        matches = []
        for _ in range(count):
            coach = self.fake.add_user("coach")
            self.teams += 2
            teams = [f"Home {self.teams}", f"Away {self.teams}"]
            for name in teams:
                await self.discord.slash("rollerball2 team create", user=coach, name=name)
            reply = await self.discord.slash(
                "rollerball2 match start",
                user=coach,
                channel=self.general,
                home=teams[0],
                away=teams[1],
                mode="solo",
            )
            if reply.ephemeral:
                raise RuntimeError(f"the match did not start: {reply.text}")
            thread = await self.thread_from(reply)
            card = await self.discord.wait_for_message(thread, is_card, timeout=30, since=0)
            card = await current_card(self.discord, self.bot, thread, card_game_id(card))
            matches.append((card, coach))
        return matches

    async def start_rollerball_matches(self, count: int) -> list[tuple[Message, User]]:
        """`count` new Rollerball tables of two people (later edition, 9 x 9), each clicked
        through its set-up and its first turn's workman move (tests/e2e/rollerball_clicks.py) to
        the workman's action: (card, the player to act). That player's Pass ends the turn and
        the next one begins with the balls moving, so the card's board is redrawn as the GIF of
        their moves."""
        tables = []
        for _ in range(count):
            # names of their own, as on a server: a hand drawn for one name is not another's
            self.tables += 1
            ann, ben = (self.fake.add_user(f"{name}{self.tables}") for name in ("ann", "ben"))
            lobby = await self.discord.slash(
                "rollerball new", user=ann, channel=self.general, players=2
            )
            await self.discord.click(lobby, "Join", user=ben)
            await self.discord.click(lobby, "Start", user=ann)
            thread = await self.thread_from(lobby)
            card = await self.discord.wait_for_message(thread, is_card, timeout=30, since=0)
            tables.append(
                ClickingTable(self.discord, self.bot, thread, card_game_id(card), {0: ann, 1: ben})
            )
        # one table after the other: the driver tells a click's answer by what changed after
        # it, which another table's clicks at the same moment would confuse
        for table in tables:
            await self._to_first_action(table)
        matches = []
        for table in tables:
            _, _, match = stored_match(self.bot, table.game_id)
            (seat,) = actors(match.engine.game)
            matches.append((await table.card(), table.users[seat]))
        return matches

    async def _to_first_action(self, table: Any) -> None:
        """Click `table` on to the first turn's workman action: nothing bid (and the tie
        dropped out of), no card placed, the workman staying; bases, workmen and balls where the sensible computer puts them."""
        for _ in range(100):
            _, _, match = stored_match(self.bot, table.game_id)
            game = match.engine.game
            kind = next_step(game).kind
            if kind == "action":
                return
            seat = min(actors(game))
            legal = legal_actions(game, seat)
            quick = [
                a
                for a in legal
                if isinstance(a, Pass)
                or (isinstance(a, Move) and a.start == a.end)
                or (isinstance(a, Bid) and not a.kinds)
            ]
            rng = random.Random(table.game_id)
            action = quick[0] if quick else choose_action(view_for(game, seat), rng, "sensible")
            await table.play(seat, Play(action, game.settings.board))
        raise RuntimeError(f"Rollerball #{table.game_id} did not reach a workman's action")

    async def click_to_card(self, count: int) -> list[float]:
        """`count` Rocketball matches; every mover clicks Roll at the same moment; time until
        each card shows the new position."""
        return await rolls_at_once(self.fake, await self.start_matches(count))


async def rolls_at_once(
    fake: FakeDiscord,
    matches: list[tuple[Message, User]],
    timeout: float = 60,
    refused: list[float] | None = None,
    label: str = "Roll the d4",
    shows: str | None = "rolls d4",
) -> list[float]:
    """Every mover clicks "Roll the d4" (`label`; one ending in "…": the button whose label begins
    with the rest, as "Suggested: …"; "#2": the card's second button) on their card at the same
    moment (the interactions sent one after the other, without waiting for the bot in between,
    as Discord would deliver them); milliseconds from each click to its card showing the roll
    (the text `shows`; None: any edit of the card), timed on the fake's own loop as each edit
    is stored (no polling from outside). With `refused` a list: a click the bot answered
    "nothing was changed" (the database did not answer in time), or answered after Discord's 3
    s, is timed there instead of failing the run."""

    async def run() -> list[float]:
        await fake.settle()  # the set-up's requests are over: only the clicks are timed
        pending: dict[int, tuple[dict, float, Any]] = {}
        for card, mover in matches:
            current = fake.messages[card.id]
            if label.endswith("…"):
                button = next(b for b in card.buttons if (b.label or "").startswith(label[:-1]))
            elif label.startswith("#"):
                button = card.buttons[int(label[1:]) - 1]
            else:
                button = card.button_labelled(label)
            record = fake.new_interaction(
                kind=MESSAGE_COMPONENT,
                user=mover,
                channel_id=card.channel_id,
                data={"custom_id": button.custom_id, "component_type": BUTTON},
                message=current,
            )
            pending[card.id] = (current, time.monotonic(), record)
            await fake.send_interaction(record)
        waits: list[float] = []

        def answered_nothing_changed(record: Any) -> bool:
            ids = [record.original_message_id, *record.followup_ids]
            return any(
                "nothing was changed" in fake.messages.get(i, {}).get("content", "") for i in ids
            )

        def missed_deadline(record: Any) -> bool:
            """Discord told the player "The application did not respond" (the fake's
            violation for this interaction, taken here as the run's figure)."""
            missed = [v for v in fake.violations if v.interaction_id == record.id]
            for violation in missed:
                violation.consumed = True
            return bool(missed)

        def shown() -> bool:
            for message_id, (before, sent, record) in list(pending.items()):
                now = fake.messages[message_id]
                if now is not before and (shows is None or shows in json.dumps(now)):
                    waits.append((time.monotonic() - sent) * 1000)
                    del pending[message_id]
                elif refused is not None and (
                    answered_nothing_changed(record) or missed_deadline(record)
                ):
                    refused.append((time.monotonic() - sent) * 1000)
                    del pending[message_id]
            return not pending or any(not v.consumed for v in fake.violations)

        await fake.wait_until(shown, timeout)
        broken = [v.description for v in fake.violations if not v.consumed]
        if broken or pending:
            raise RuntimeError(f"{len(pending)} cards not shown within {timeout} s; {broken}")
        return waits

    return await fake.call(run)


def start_bench(
    *,
    name: str = "bench",
    extensions: tuple[str, ...] = (),
    environment: dict[str, str] | None = None,
    spec_check: bool = True,
    rate_limits: bool = True,
) -> Bench:
    """A local fake Discord with #general and the real bot.py connected to it (SQLite in a new
    temporary folder, GAME_SEED=1): what every benchmark through the fake Discord starts with.
    `spec_check=False`: the fake does not check requests against Discord's OpenAPI description
    (CPU on this machine that real Discord spends on its own). `rate_limits=False`: the fake
    answers no 429 (Discord's limits are on otherwise, as in the tests), for a benchmark that
    times the bot and plays faster than people do (it says why where it turns them off)."""
    fake = FakeDiscord(spec_check=spec_check, rate_limits=rate_limits)
    general = fake.add_channel("general")
    fake.start()
    folder = Path(tempfile.mkdtemp(prefix=f"ballcourt-{name}-"))
    bot = BotProcess(
        fake,
        database_path=folder / f"{name}.db",
        log_path=folder / f"{name}.log",
        extra_extensions=extensions,
        extra_env={
            "GAME_SEED": "1",
            "LOG_LEVEL": "WARNING",
            "RENDER_PROCESSES": "auto",  # the bot's own default, not the test harness's
            **(environment or {}),
        },
    )
    try:
        bot.start()
    except BaseException:
        fake.stop()
        raise
    return Bench(DiscordDriver(fake, general), bot, fake)


def stop_bench(bench: Bench) -> None:
    """Stop the bot and the fake; the bot's logged errors make the run fail (a benchmark of a
    bot that broke is no figure)."""
    errors = bench.bot.new_errors()
    bench.bot.stop()
    bench.fake.stop()
    if errors:
        raise RuntimeError("the bot logged errors:\n" + "\n".join(errors))


async def measure_rollerball(bench: Bench) -> None:
    figures = await bench.rollerball_table()
    print(
        line(
            f"Rollerball table, {figures['decisions']:.0f} decisions: messages in the thread",
            figures["messages"],
            figures["goal"],
        )
    )
    print(line("Rollerball: interactions per decision, mean", figures["per decision"], 2))
    print(line("Rollerball: interactions for one decision, most", figures["most"], 4))
    print(
        line(
            "Rollerball: other (rate-limited) requests per decision",
            figures["other"],
            round(figures["other floor"], 2),
        )
    )


async def measure(bench: Bench, matches: int, games: str) -> None:
    if games == "rollerball":
        await measure_rollerball(bench)
        return
    per_round, interaction, other = await bench.rocketball_vs_computer()
    print(line("Rocketball vs computer: messages per round", per_round, 0.3))
    print(line("Rocketball vs computer: interaction requests per move", interaction, 2))
    print(line("Rocketball vs computer: other (rate-limited) requests per move", other, 0.5))
    await measure_rollerball(bench)
    for count in (1, matches):
        samples = sorted(await bench.click_to_card(count))
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
        goal = 120 if count > 1 else 60
        print(
            line(
                f"{count:>2} matches clicking at once: click -> card, median",
                statistics.median(samples),
                goal,
                " ms",
            )
        )
        print(line(f"{count:>2} matches clicking at once: click -> card, p99", p99, 1500, " ms"))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument(
        "--games", choices=("all", "rollerball"), default="all", help="rollerball: its table only"
    )
    args = parser.parse_args()
    # Timed clicks, played faster than people play: Discord's limits would time the waits
    # they make, not the bot (bench/rate_limits.py counts what the bot asks of them).
    bench = start_bench(rate_limits=False)
    try:
        asyncio.run(measure(bench, args.matches, args.games))
    finally:
        stop_bench(bench)


if __name__ == "__main__":
    main()
