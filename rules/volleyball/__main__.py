"""Command line for the Volleyball engine.

python -m rules.volleyball season --teams 8 --seed 1 [--seasons 2] [--record FILE]
    plays whole seasons with computer managers and prints each final table and the
    Galaxy Cup winner (and the season-end events between seasons);
python -m rules.volleyball replay FILE
    replays a league record (rules.volleyball.season, record_*) and prints the final
    state as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules.volleyball.composed import division_sizes
from rules.volleyball.managers import (
    computer_ageing_splits,
    new_computer_league,
    play_computer_season,
)
from rules.volleyball.orders import VolleyballError
from rules.volleyball.rounds import play_round
from rules.volleyball.season import (
    LeagueState,
    end_season,
    parse_record,
    record_header,
    record_season_end,
    season_opening_events,
)


def run_seasons(teams: int, seed: int, seasons: int, record_path: str | None) -> LeagueState:
    sizes = division_sizes(teams)
    state = new_computer_league(teams, seed, divisions=sizes if len(sizes) > 1 else None)
    print("\n".join(season_opening_events(state)))
    print()
    record = record_header(state)
    for number in range(seasons):
        state, _reports = play_computer_season(state, record)
        several = len(state.league.divisions) > 1
        for division in state.league.divisions:
            where = f", division {division}" if several else ""
            print(f"Season {state.league.season}{where}, final table:")
            print(state.table(division).render_text())
        print(f"Galaxy Cup winner: {state.cup.winner}")
        if number < seasons - 1:
            splits = computer_ageing_splits(state)
            record.extend(record_season_end(state, splits))
            state, events = end_season(state, splits)
            print("\n".join(events))
            print()
    if record_path:
        Path(record_path).write_text("\n".join(record) + "\n", encoding="utf-8")
        print(f"Record written to {record_path}.")
    return state


def replay(path: str) -> LeagueState:
    state, steps = parse_record(Path(path).read_text(encoding="utf-8"))
    for step in steps:
        if step.kind == "play":
            if (step.season, step.round_number) != (
                state.league.season,
                state.league.round_number,
            ):
                raise VolleyballError(
                    f"The record plays season {step.season} round {step.round_number}, but the "
                    f"league is at season {state.league.season} round {state.league.round_number}."
                )
            state, _report = play_round(state, step.orders)
        else:
            state, _events = end_season(state, step.splits)
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.volleyball")
    commands = parser.add_subparsers(dest="command", required=True)
    season = commands.add_parser("season", help="play whole seasons with computer managers")
    season.add_argument("--teams", type=int, default=8)
    season.add_argument("--seed", type=int, default=1)
    season.add_argument("--seasons", type=int, default=1)
    season.add_argument("--record", help="write the league record to this file")
    replay_parser = commands.add_parser("replay", help="replay a league record")
    replay_parser.add_argument("file")
    args = parser.parse_args(argv)
    try:
        if args.command == "season":
            if args.teams < 2:
                parser.error("a league needs at least two teams")
            run_seasons(args.teams, args.seed, args.seasons, args.record)
        else:
            state = replay(args.file)
            print(json.dumps(state.to_dict(), indent=1, sort_keys=True))
    except VolleyballError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
