"""The Rocketball rules engine: new_game, legal_actions and apply.

A round (Seed, Play): 1. the windbag holder rolls the d4 and the ball moves; 2. the holder
places the chip drawn from the windbag, or rotates a chip (or, with Drifting Winds, drifts
one); 3. the windbag passes. A goal ends the round at once: the field is reset and the start
table is rolled again. With Assault both balls move together, then both players place (the
holder first) and the second placer takes the windbag.

`apply` never changes the state it is given: it works on a copy and returns it with the events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules.rocketball import placement
from rules.rocketball.actions import (
    Action,
    Aim,
    Drift,
    Pass,
    Place,
    Resign,
    Roll,
    Rotate,
    record_line,
)
from rules.rocketball.dice import Dice
from rules.rocketball.errors import RocketballError
from rules.rocketball.events import (
    SETUP,
    TURN,
    AimEvent,
    DrawEvent,
    DriftEvent,
    Event,
    GameOverEvent,
    GoalEvent,
    MoveEvent,
    PassEvent,
    PlaceEvent,
    ResetEvent,
    RotateEvent,
    StartEvent,
    Step,
    SwapEvent,
    WindbagEvent,
)
from rules.rocketball.movement import BallMover, roll_d4
from rules.rocketball.state import (
    CENTRE,
    CHIP_KINDS,
    DIRECTION_NAMES,
    DIRECTIONS,
    DJINN,
    FIELD_SQUARES,
    PHASE_AIM,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_ROLL,
    PLAYER_NAMES,
    VORTEX,
    Ball,
    Chip,
    GameState,
    Settings,
    is_goal_square,
    other,
    turn_clockwise,
    turn_counterclockwise,
)
from rules.rocketball.turn import describe_next, next_step

# Seed, Starting the game: die result -> (ball facing, player who begins with the windbag).
START_TABLE = {1: ("N", "N"), 2: ("E", "N"), 3: ("S", "S"), 4: ("W", "S")}
# Ruling (Assault!): North's ball starts on c1, South's on e11, each facing the far goal: a half
# turn apart and in different columns, so they do not meet head-on in the first rounds.
ASSAULT_HOMES = {"N": ("c1", "S"), "S": ("e11", "N")}


def new_game(seed: int, settings: Settings | None = None) -> tuple[GameState, list[Event]]:
    """A fresh match: empty field, full windbag, the start table rolled (an event)."""
    settings = settings or Settings()
    problems = settings.problems()
    if problems:
        raise RocketballError(" ".join(problems))
    state = GameState(
        seed=seed,
        settings=settings,
        rng=Dice(seed),
        score={"N": 0, "S": 0},
        balls=[],
        chips={},
        bag={},
        removed={},
        windbag="N",
        to_move="N",
        phase=PHASE_ROLL,
        # Seed, Tug-of-War: "the object is to guide the rocketball into your own goal".
        goals_reversed=settings.tug_of_war,
    )
    events: list[Event] = []
    _reset_field(state, events)
    if any((settings.bumpers, settings.twisters, settings.gusts, settings.barricades)):
        events[0].rules += ("R19",)  # how many of each special chip the creator put in
    return state, events


def _reset_field(state: GameState, events: list[Event]) -> None:
    """Seed: "Reset the board to its starting configuration ... and roll the die again to
    determine a new rocketball facing and starting player." Every chip goes back in the
    windbag, blasted barricades and spent djinns too (docs/rules/rocketball.md, "A turn" and the
    ruling on "Reset the board")."""
    state.chips = {}
    state.bag = state.settings.initial_bag()
    state.removed = {kind: 0 for kind in CHIP_KINDS}
    state.last_rotated = {"N": None, "S": None}
    state.placed_this_round = []
    state.placers = []
    state.pending_aim = []
    state.drawn = None
    roll = roll_d4(state)
    facing, holder = START_TABLE[roll]
    if state.settings.assault:
        state.balls = [
            Ball(home, home_facing, owner, home)
            for owner, (home, home_facing) in ASSAULT_HOMES.items()
        ]
        text = (
            f"d4 = {roll}: {PLAYER_NAMES[holder]} begins with the windbag. The balls start on "
            f"c1 (North's, facing South) and e11 (South's, facing North)."
        )
    else:
        state.balls = [Ball(CENTRE, facing)]
        text = (
            f"d4 = {roll}: the ball starts on {CENTRE} facing {DIRECTION_NAMES[facing]} and "
            f"{PLAYER_NAMES[holder]} begins with the windbag."
        )
    state.windbag = holder
    state.to_move = holder
    state.phase = PHASE_ROLL
    rules = (SETUP,)
    if state.settings.assault:
        rules += ("Variant: Assault!", "R13")
    if state.settings.tug_of_war:
        rules += ("Variant: Tug-of-War", "R12")
    events.append(StartEvent("start", text, roll, facing, holder, rules=rules))


# --- legal actions --------------------------------------------------------------------------

# Prebuilt immutable actions keep legal_actions cheap (it may list ~400 of them): for each
# placeable kind (or djinn pick), square -> the Place actions on that square, one per facing.
_PLACE_ACTIONS: dict[tuple[str, bool], dict[str, tuple[Place, ...]]] = {}
_ROTATIONS = {sq: (Rotate(sq, True), Rotate(sq, False)) for sq in FIELD_SQUARES}
_ROLL = [Roll()]
_AIMS = tuple(Aim(direction) for direction in DIRECTIONS)
_PASS = Pass()


def _placements(kind: str, djinn: bool) -> dict[str, tuple[Place, ...]]:
    key = (kind, djinn)
    by_square = _PLACE_ACTIONS.get(key)
    if by_square is None:
        facings = placement.facings_for(kind)
        named_kind = kind if djinn else None
        by_square = _PLACE_ACTIONS[key] = {
            square: tuple(Place(square, facing, named_kind) for facing in facings)
            for square in FIELD_SQUARES
        }
    return by_square


def legal_actions(state: GameState) -> list[Action]:
    """Everything `state.to_move` may do now. Resign is always allowed and not listed.

    The order is fixed (placements by kind, square and facing, then rotations, then drifts),
    so a seeded choice among them is reproducible."""
    phase = state.phase
    if phase == PHASE_ROLL:
        return list(_ROLL)
    if phase == PHASE_AIM:
        return list(_AIMS)
    if phase != PHASE_PLACE:
        return []
    actions: list[Action] = []
    extend = actions.extend  # a plain loop of extend is the fastest way to flatten these
    djinn = state.drawn == DJINN
    for kind in placement.placeable_kinds(state):
        by_square = _placements(kind, djinn)
        for square in placement.placement_squares(state, kind):
            extend(by_square[square])
    for square in placement.rotatable_squares(state):
        extend(_ROTATIONS[square])
    if state.settings.drifting_winds:
        actions.extend(Drift(a, b) for a, b in placement.drift_moves(state))
    # docs/rules/rocketball.md, "A turn": if a player can neither place nor rotate, they pass.
    return actions or [_PASS]


def random_action(state: GameState, rng: random.Random) -> Action:
    """A uniformly random legal action: exactly `rng.choice(legal_actions(state))`, the same
    draw from `rng` and the same action, without listing every action (random play and
    benchmarks call this once per action; a place step can offer ~300 actions)."""
    if state.phase != PHASE_PLACE:
        return rng.choice(legal_actions(state))
    djinn = state.drawn == DJINN
    # Each block of actions in legal_actions' order: (squares, actions per square, lookup).
    blocks: list[tuple[list[str], int, Mapping[str, Sequence[Action]]]] = []
    for kind in placement.placeable_kinds(state):
        squares = placement.placement_squares(state, kind)
        blocks.append((squares, len(placement.facings_for(kind)), _placements(kind, djinn)))
    blocks.append((placement.rotatable_squares(state), 2, _ROTATIONS))
    drifts = placement.drift_moves(state) if state.settings.drifting_winds else []
    total = sum(len(squares) * width for squares, width, _ in blocks) + len(drifts)
    if total == 0:
        return rng.choice([_PASS])
    # choice(range(n)) draws exactly as choice() on any sequence of length n.
    index = rng.choice(range(total))
    for squares, width, by_square in blocks:
        size = len(squares) * width
        if index < size:
            return by_square[squares[index // width]][index % width]
        index -= size
    return Drift(*drifts[index])


# --- apply ----------------------------------------------------------------------------------


def apply(
    state: GameState, action: Action, player: str | None = None
) -> tuple[GameState, list[Event]]:
    """Apply `action` for the player to move (or `player`, checked when given).

    Returns (new_state, events); raises RocketballError and leaves `state` untouched when the
    action is not allowed now.
    """
    if state.phase == PHASE_OVER:
        raise RocketballError("The match is over.")
    if isinstance(action, Resign):
        if action.player not in ("N", "S"):
            raise RocketballError("Only North or South can resign.")
        actor = action.player
    else:
        actor = state.to_move
        if player is not None and player != actor:
            raise RocketballError(
                f"It's {PLAYER_NAMES[actor]}'s turn: {PLAYER_NAMES[player]} must wait."
            )
    new = state.copy()
    events: list[Event] = []
    if isinstance(action, Resign):
        _finish(new, other(actor), "resign", events, "")
    elif isinstance(action, Roll):
        _expect_phase(state, PHASE_ROLL, "roll the die")
        _roll(new, events)
    elif isinstance(action, Aim):
        _expect_phase(state, PHASE_AIM, "aim the ball")
        _aim(new, action, events)
    elif isinstance(action, Place | Rotate | Drift | Pass):
        _expect_phase(state, PHASE_PLACE, "place or rotate a chip")
        _place_step(new, action, events)
    else:
        raise RocketballError("That is not a Rocketball action.")
    new.history = new.history.appended(record_line(actor, action))
    return new, events


_PHASE_DOING = {
    PHASE_ROLL: "roll the die",
    PHASE_AIM: "aim the ball on the centre square",
    PHASE_PLACE: "place or rotate a chip",
}


def _expect_phase(state: GameState, phase: str, doing: str) -> None:
    if state.phase != phase:
        who = PLAYER_NAMES[state.to_move]
        raise RocketballError(
            f"You can't {doing} now: {who} must {_PHASE_DOING.get(state.phase, 'wait')}."
        )


def _finish(
    state: GameState, winner: str | None, reason: str, events: list[Event], text: str
) -> None:
    state.phase = PHASE_OVER
    state.winner = winner
    state.draw = winner is None
    state.end_reason = reason
    if state.drawn is not None:  # resigned mid place step: the drawn chip goes back in the bag
        state.bag[state.drawn] += 1
        state.drawn = None
    if winner is None:
        result = "The match is drawn."
    elif reason == "resign":
        # A resignation once read "North wins 0-0!"; it says who resigned instead.
        result = f"{PLAYER_NAMES[other(winner)]} resigns: {PLAYER_NAMES[winner]} wins the match."
    else:
        result = f"{PLAYER_NAMES[winner]} wins {state.score[winner]}-{state.score[other(winner)]}!"
    full_text = f"{text} {result}" if text else result
    rules = ("Variant: Assault!", "R14") if reason == "collision" else (TURN,)
    events.append(GameOverEvent("game_over", full_text, winner, reason, rules=rules))


# --- moving the ball ------------------------------------------------------------------------


def _roll(state: GameState, events: list[Event]) -> None:
    """Seed: "The player holding the windbag must roll the die once and move the rocketball
    that many squares." Assault: both balls, one roll each, moving together."""
    roller = state.to_move
    # The roll is made for the holder (R18); Assault rolls once per ball, moved together (R14).
    rules = (TURN, "R18") + (("Variant: Assault!", "R14") if state.settings.assault else ())
    movers = []
    for index, ball in enumerate(state.balls):
        roll = roll_d4(state)
        owner = f"{PLAYER_NAMES[ball.owner]}'s ball" if ball.owner else "the ball"
        events.append(
            MoveEvent(
                "move",
                f"{PLAYER_NAMES[roller]} rolls d4 = {roll} for {owner} on {ball.square}.",
                roller,
                index,
                roll,
                ball.square,
                ball.facing,
                rules=rules,
            )
        )
        movers.append((index, BallMover(state, ball, roll), events[-1]))
    _run_movers(state, movers, events)


def _aim(state: GameState, action: Aim, events: list[Event]) -> None:
    """Seed, Moguls: "place the rocketball in the center square facing any direction, roll
    the die and move the rocketball accordingly, then finish their turn as they normally
    would." """
    if action.facing not in DIRECTIONS:
        raise RocketballError("Aim the ball North, East, South or West (N, E, S or W).")
    index = state.pending_aim.pop(0)
    ball = state.balls[index]
    ball.facing = action.facing
    player = state.to_move
    events.append(
        AimEvent(
            "aim",
            f"{PLAYER_NAMES[player]} aims the ball on {ball.square} {DIRECTION_NAMES[action.facing]}.",
            player,
            index,
            action.facing,
            rules=("Variant: Moguls", "R10"),
        )
    )
    roll = roll_d4(state)
    move = MoveEvent(
        "move",
        f"{PLAYER_NAMES[player]} rolls d4 = {roll} for the ball on {ball.square}.",
        player,
        index,
        roll,
        ball.square,
        ball.facing,
        rules=("Variant: Moguls", "R10"),
    )
    events.append(move)
    _run_movers(state, [(index, BallMover(state, ball, roll), move)], events)


def _run_movers(
    state: GameState, movers: list[tuple[int, BallMover, MoveEvent]], events: list[Event]
) -> None:
    """Move the balls in lockstep (one step each per tick), then settle goals, collisions and
    what comes next."""
    goals: list[tuple[int, str]] = []
    collided_on: str | None = None
    if len(state.balls) == 1:  # the usual game: one ball, no lockstep (the hot path)
        index, mover, _ = movers[0]
        while not mover.finished:
            mover.advance()
            if mover.goal is not None:
                goals.append((index, mover.goal))
                break
    else:  # Assault: two balls move in lockstep, one step each per tick
        while any(not mover.finished for _, mover, _ in movers):
            for index, mover, _ in movers:
                if not mover.finished:
                    mover.advance()
                    if mover.goal is not None:
                        goals.append((index, mover.goal))
            # Assault: an own-goal restart happens at once, then the balls may collide.
            for index, goal in list(goals):
                ball = state.balls[index]
                if ball.owner is not None and goal == ball.owner:
                    goals.remove((index, goal))
                    mover = next(m for i, m, _ in movers if i == index)
                    ball.square, ball.facing = ASSAULT_HOMES[ball.owner]
                    mover.steps.append(
                        Step(
                            ball.square,
                            ball.facing,
                            "own_goal",
                            f"{PLAYER_NAMES[ball.owner]}'s ball went into its own goal and "
                            f"restarts on {ball.square}",
                        )
                    )
            first, second = state.balls
            if first.square == second.square and not is_goal_square(first.square):
                collided_on = first.square
                for _, mover, _ in movers:
                    mover.steps.append(
                        Step(
                            mover.ball.square,
                            mover.ball.facing,
                            "collision",
                            f"collides with the other ball on {first.square}",
                        )
                    )
                break
            if goals:
                break  # a goal ends the round at once
    for index, mover, move in movers:
        move.steps = mover.steps
        if mover.steps:
            path = "; ".join(step.text for step in mover.steps)
            owner = state.balls[index].owner
            subject = f"{PLAYER_NAMES[owner]}'s ball" if owner else "The ball"
            move.text = f"{move.text} {subject} {path}."
        if mover.out:
            state.pending_aim.append(index)
    if collided_on is not None:
        # Ruling (Assault!): the explosion ends the match; the higher score wins, else a draw.
        north, south = state.score["N"], state.score["S"]
        winner = "N" if north > south else "S" if south > north else None
        _finish(
            state,
            winner,
            "collision",
            events,
            f"The balls collide on {collided_on} in a colossal explosion!",
        )
        return
    if goals:
        _score(state, goals, events)
        return
    if state.pending_aim:
        state.phase = PHASE_AIM
        state.to_move = state.windbag
        return
    _start_place_step(state, events)


def _scorer_for(state: GameState, goal: str) -> str:
    """Seed: the North goal means the South player scores, and the mirror; Tug-of-War
    reverses it (each player aims for their own goal)."""
    return goal if state.goals_reversed else other(goal)


def _score(state: GameState, goals: list[tuple[int, str]], events: list[Event]) -> None:
    for _, goal in goals:
        scorer = _scorer_for(state, goal)
        state.score[scorer] += 1
        goal_name = "North" if goal == "N" else "South"
        events.append(
            GoalEvent(
                "goal",
                f"GOAL! The ball is in the {goal_name} goal: {PLAYER_NAMES[scorer]} scores, "
                f"North {state.score['N']} - South {state.score['S']}.",
                scorer,
                goal,
                dict(state.score),
                rules=(TURN, "Variant: Tug-of-War") if state.goals_reversed else (TURN,),
            )
        )
    _end_round(state, events)
    target = state.settings.target_score
    leaders = [p for p in ("N", "S") if state.score[p] >= target]
    if leaders:
        # Both can only reach the target together in Assault; then the higher score wins.
        north, south = state.score["N"], state.score["S"]
        winner = "N" if north > south else "S" if south > north else None
        _finish(state, winner, "score", events, "")
        return
    events.append(
        ResetEvent(
            "reset", "Every chip goes back in the windbag and the field is reset.", rules=("R4",)
        )
    )
    _reset_field(state, events)


def _end_round(state: GameState, events: list[Event]) -> None:
    """Count a full round; Tug-of-War swaps the goals every N rounds (docs/rules/rocketball.md,
    Tug-of-War)."""
    state.rounds += 1
    swap_every = state.settings.tug_swap_rounds
    if state.settings.tug_of_war and swap_every > 0 and state.rounds % swap_every == 0:
        state.goals_reversed = not state.goals_reversed
        aim = "their OWN goal" if state.goals_reversed else "the opponent's goal"
        events.append(
            SwapEvent(
                "swap",
                f"Tug-of-War: the goals swap! Everyone now aims for {aim}.",
                state.goals_reversed,
                rules=("Variant: Tug-of-War", "R12"),
            )
        )


# --- placing, rotating, drifting ------------------------------------------------------------


def _start_place_step(state: GameState, events: list[Event]) -> None:
    state.phase = PHASE_PLACE
    if not state.placers:
        holder = state.windbag
        # Seed, Assault!: the holder places first, then the other player, who takes the bag.
        state.placers = [holder, other(holder)] if state.settings.assault else [holder]
    state.to_move = state.placers[0]
    _draw(state, events)


def _draw(state: GameState, events: list[Event]) -> None:
    """The chip is drawn at random from the windbag at the start of the place step, so the
    player sees it before choosing to place or rotate (docs/rules/rocketball.md, the ruling on
    Djinns: "If you choose to rotate a chip, the djinn does nothing special")."""
    total = sum(state.bag.values())
    player = state.to_move
    if total == 0:
        state.drawn = None
        events.append(
            DrawEvent(
                "draw",
                f"The windbag is empty: {PLAYER_NAMES[player]} can't draw.",
                player,
                "",
                rules=(TURN,),
            )
        )
        return
    pick = int(state.rng.random() * total)
    for kind in CHIP_KINDS:
        pick -= state.bag[kind]
        if pick < 0:
            break
    state.bag[kind] -= 1
    state.drawn = kind
    if kind == DJINN:
        text = f"{PLAYER_NAMES[player]} draws a djinn: they may pick any chip from the windbag to place."
    elif kind == VORTEX:
        text = ""  # "draws a vortex chip" every base-game turn is noise; the event stays, silent
    else:
        text = f"{PLAYER_NAMES[player]} draws a {kind} chip from the windbag."
    rules = (TURN,)
    if kind == DJINN:
        rules += ("Variant: Djinns", "R2")
    if state.settings.assault:
        rules += ("Variant: Assault!", "R16")  # the holder places first, then the other player
    events.append(DrawEvent("draw", text, player, kind, rules=rules))


def _place_step(state: GameState, action: Action, events: list[Event]) -> None:
    player = state.to_move
    name = PLAYER_NAMES[player]
    drawn = state.drawn
    placed_kind: str | None = None
    state.last_rotated[player] = None
    if isinstance(action, Place):
        kind = _placed_kind(state, action)
        problem = placement.placement_problem(state, kind, action.square)
        if problem:
            raise RocketballError(problem)
        facing = _check_facing(kind, action.facing)
        state.chips[action.square] = Chip(kind, facing)
        placed_kind = kind
        state.placed_this_round.append(action.square)
        where = f"on {action.square}" + (f" facing {DIRECTION_NAMES[facing]}" if facing else "")
        text = f"{name} places a {kind} {where}."
        rules = (TURN, "R3")  # which chips have a facing
        if kind != VORTEX:  # a special chip's limits: walls, goals, other special chips
            rules += ("Variants", "R5", "R6", "R7")
        if drawn == DJINN:
            text = f"{name} uses the djinn to pick a {kind} and places it {where}."
            rules += ("Variant: Djinns", "R11")
        events.append(PlaceEvent("place", text, player, kind, action.square, facing, rules=rules))
    elif isinstance(action, Rotate):
        problem = placement.rotate_problem(state, action.square)
        if problem:
            raise RocketballError(problem)
        chip = state.chips[action.square]
        turn = turn_clockwise if action.clockwise else turn_counterclockwise
        assert chip.facing is not None
        state.chips[action.square] = Chip(chip.kind, turn(chip.facing))
        state.last_rotated[player] = action.square
        way = "clockwise" if action.clockwise else "counterclockwise"
        facing = state.chips[action.square].facing or ""
        events.append(
            RotateEvent(
                "rotate",
                f"{name} turns the {chip.kind} on {action.square} {way}: it now faces "
                f"{DIRECTION_NAMES[facing]}.",
                player,
                action.square,
                facing,
                action.clockwise,
                rules=(TURN,),
            )
        )
    elif isinstance(action, Drift):
        if not state.settings.drifting_winds:
            raise RocketballError("Drifting chips is only allowed with the Drifting Winds variant.")
        problem = placement.drift_problem(state, action.from_square, action.to_square)
        if problem:
            raise RocketballError(problem)
        chip = state.chips.pop(action.from_square)
        state.chips[action.to_square] = chip
        events.append(
            DriftEvent(
                "drift",
                f"{name} drifts the {chip.kind} from {action.from_square} to {action.to_square}.",
                player,
                chip.kind,
                action.from_square,
                action.to_square,
                rules=("Variant: Drifting Winds", "R17"),
            )
        )
    else:  # Pass
        if legal_actions(state) != [Pass()]:
            raise RocketballError(
                "You can only pass when you can neither place nor rotate a chip: "
                "you must place or rotate one."
            )
        events.append(
            PassEvent(
                "pass",
                f"{name} can neither place nor rotate a chip and passes.",
                player,
                rules=(TURN,),
            )
        )
    _return_drawn(state, drawn, placed_kind, events)
    state.placers.pop(0)
    if state.placers:
        state.to_move = state.placers[0]
        _draw(state, events)
        return
    _end_round(state, events)
    state.windbag = other(state.windbag)
    state.to_move = state.windbag
    state.phase = PHASE_ROLL
    state.placed_this_round = []
    events.append(
        WindbagEvent(
            "windbag",
            f"The windbag passes to {PLAYER_NAMES[state.windbag]}.",
            state.windbag,
            rules=(TURN,),
        )
    )


def _placed_kind(state: GameState, action: Place) -> str:
    drawn = state.drawn
    if drawn is None:
        raise RocketballError("The windbag is empty: rotate a chip instead.")
    if drawn != DJINN:
        if action.kind is not None and action.kind != drawn:
            raise RocketballError(f"You drew a {drawn} chip: that is the chip you place.")
        return drawn
    if action.kind is None:
        raise RocketballError(
            "You drew a djinn: say which chip to take from the windbag, e.g. `c4 N vortex`."
        )
    if action.kind == DJINN or state.bag.get(action.kind, 0) <= 0:
        raise RocketballError(f"There is no {action.kind} chip in the windbag to pick.")
    return action.kind


def _check_facing(kind: str, facing: str | None) -> str | None:
    facings = placement.facings_for(kind)
    if facings == (None,):
        if facing is not None:
            raise RocketballError(f"A {kind} has no facing: just give the square.")
        return None
    if facing not in facings:
        raise RocketballError(f"Say which way the {kind} faces: N, E, S or W (e.g. `c4 N`).")
    return facing


def _return_drawn(
    state: GameState, drawn: str | None, placed_kind: str | None, events: list[Event]
) -> None:
    """The chip drawn but not placed goes back in the windbag. Seed, Djinns: "Remove the djinn
    from play at the end of the turn"; a djinn's picked chip leaves the windbag."""
    state.drawn = None
    if drawn is None:
        return
    if drawn == DJINN:
        state.removed[DJINN] += 1
        if placed_kind is not None:
            state.bag[placed_kind] -= 1
        return
    if placed_kind is None:
        state.bag[drawn] += 1


def turn_prompt(state: GameState) -> str:
    """One sentence telling the channel who must do what now, without display names: kept for
    the callers that used it; it is `describe_next(next_step(state))` (turn.py)."""
    return describe_next(next_step(state))
