"""Game records: a header, then one line per action: `P2 move c3 d3`.

Header: [Game], [Edition], [Players], [Board], [Target], [TurnLimit], [Commitment] always;
[Seed] and [Salt] only once revealed (the host's provably fair dice, rules.fairness); [Result]
when the game is over. While the secret bid is open the record leaves the bids out."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules import fairness
from rules.rollerball.actions import parse_command
from rules.rollerball.engine import apply, new_game
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.movement import seat_name
from rules.rollerball.state import GameState, Settings

GAME = "rollerball"
HEADER = re.compile(r'^\[(\w+) "([^"]*)"\]$')
LINE = re.compile(r"^P(\d+) (.+)$")


def commitment(seed: int, salt: str) -> str:
    """The published hash of this game's seed (rules.fairness, game name "rollerball")."""
    return fairness.commitment(GAME, seed, salt)


def result_text(state: GameState) -> str:
    return ", ".join(seat_name(s) for s in state.winners) if state.over else ""


def public_log(state: GameState) -> list[tuple[int, str]]:
    """The action lines anyone may read now: no bids while the secret bid is open."""
    if state.phase == "bid":
        return [(seat, text) for seat, text in state.log if not text.startswith("bid")]
    return list(state.log)


def to_record(state: GameState, commitment_hex: str, salt: str | None = None) -> str:
    """The record. Pass `salt` only when the seed is revealed (the game is over)."""
    s = state.settings
    lines = [
        f'[Game "{GAME}"]',
        f'[Edition "{s.edition}"]',
        f'[Players "{s.players}"]',
        f'[Board "{s.board}"]',
        f'[Target "{s.target_vp}"]',
        f'[TurnLimit "{s.turn_limit}"]',
        f'[Commitment "{commitment_hex}"]',
    ]
    if salt is not None:
        lines += [f'[Seed "{state.seed}"]', f'[Salt "{salt}"]']
    if state.over:
        lines.append(f'[Result "{result_text(state)}"]')
    lines.append("")
    lines += [f"P{seat + 1} {text}" for seat, text in public_log(state)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Record:
    headers: dict[str, str]
    moves: list[tuple[int, str]]

    @property
    def settings(self) -> Settings:
        h = self.headers
        return Settings(
            edition=h.get("Edition", "later"),
            players=int(h.get("Players", 4)),
            board=int(h.get("Board", 9)),
            target_vp=int(h.get("Target", 5)),
            turn_limit=int(h.get("TurnLimit", 0)),
        )


def parse_record(text: str) -> Record:
    headers: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if match := HEADER.match(line):
            headers[match[1]] = match[2]
        elif match := LINE.match(line):
            moves.append((int(match[1]) - 1, match[2]))
        else:
            raise RollerballBoardError(f"line {number}: cannot read “{line[:40]}”")
    return Record(headers, moves)


def replay(text: str) -> GameState:
    """Replay a revealed record to its final state (raises RollerballBoardError naming the line)."""
    record = parse_record(text)
    if "Seed" not in record.headers:
        raise RollerballBoardError(
            "This record has no seed yet: it is revealed when the game ends."
        )
    settings = record.settings
    state, _ = new_game(int(record.headers["Seed"]), settings)
    for index, (seat, command) in enumerate(record.moves, 1):
        try:
            workman = state.workmen[seat] if 0 <= seat < settings.players else None
            state, _ = apply(state, parse_command(command, settings.board, workman), seat)
        except (RollerballBoardError, IndexError) as error:
            raise RollerballBoardError(f"move {index} (P{seat + 1} {command}): {error}") from None
    return state


def verify(text: str) -> list[str]:
    """What does not match in a revealed record (empty list: OK): the commitment against the
    seed and salt, every action's legality on replay, the stated result."""
    record = parse_record(text)
    problems = []
    h = record.headers
    if "Seed" not in h or "Salt" not in h:
        return ["the record has no revealed seed and salt"]
    if not fairness.verify_commitment(GAME, int(h["Seed"]), h["Salt"], h.get("Commitment", "")):
        problems.append("the commitment does not match the revealed seed and salt")
    try:
        state = replay(text)
    except RollerballBoardError as error:
        return [*problems, f"replay failed at {error}"]
    if h.get("Result", "") != result_text(state):
        problems.append(
            f'the result says "{h.get("Result", "")}" but the replay gives "{result_text(state)}"'
        )
    return problems
