"""Rollerball II audit: the figures of its old engine defects (docs/rules/rollerball2.md), measured again.

    python bench/rollerball2_audit.py [MATCHES] [--league TEAMS]

- "until the next new ball" absences: how many FACs each one cost (issue: 89 % cost 0);
- 3- and 5-minute penalties whose player came back to the bench because a substitute had taken
  his slot first (issue: 1,605 of 2,285);
- goals scored with no die rolled since the card was turned (issue: breakaways, 19 %);
- rosters: how many different experience mixes, and a league's spread of win rates against
  the spread pure chance would give (issue: sd 0.062 against 0.046).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rollerball2 import (
    HOME,
    apply,
    choose_action,
    double_round_robin,
    generate_roster,
    new_match,
    result,
)
from rules.rollerball2.content import load_content


def audit_matches(matches: int) -> None:
    names = load_content().team_names
    new_ball_costs: list[int] = []
    penalties = 0
    to_bench = 0
    goals = 0
    no_dice_goals = 0
    for i in range(matches):
        home = generate_roster(f"audit:{i}", names[(2 * i) % len(names)])
        away = generate_roster(f"audit:{i}", names[(2 * i + 1) % len(names)])
        state = new_match(f"audit:{i}", home, away)
        sent_off: dict[tuple[str, int], int] = {}
        rolled = False  # a die was rolled since the last card was turned (across decisions)
        while not state.over:
            before = {
                (side, number): out
                for side in ("home", "away")
                for number, out in state.team(side).out.items()
            }
            state, events = apply(state, choose_action(state))
            after = {
                (side, number): out
                for side in ("home", "away")
                for number, out in state.team(side).out.items()
            }
            for key in after:
                if key not in before:
                    sent_off[key] = state.fac_count
            for key, out in before.items():
                if key in after or key not in sent_off:
                    continue
                left_at = sent_off.pop(key)
                if out.until == "new_ball":
                    # Cards turned while he was off, not counting the one that sent him off.
                    new_ball_costs.append(state.fac_count - left_at - 1)
                # 3- and 5-minute penalties: out as long as the slot stays empty (6 or 10 FACs).
                served = not state.over  # at the final whistle every penalty simply ends
                if (
                    served
                    and out.reason == "penalty"
                    and out.until == "fac"
                    and out.fac - left_at in (6, 10)
                ):
                    penalties += 1
                    side, number = key
                    if state.team(side).lineup.get(out.slot) != number:
                        to_bench += 1
            for event in events:
                if event.kind == "card":
                    rolled = False
                if event.rolls:
                    rolled = True
                if event.kind == "goal":
                    goals += 1
                    no_dice_goals += not rolled
    zero = sum(cost == 0 for cost in new_ball_costs)
    print(f"{matches} matches (default coach, default line-ups)")
    print(
        f"'until the next new ball' absences: {len(new_ball_costs)}, cost 0 FACs: {zero} "
        f"({zero / max(1, len(new_ball_costs)):.0%}), median cost "
        f"{statistics.median(new_ball_costs) if new_ball_costs else 0} FACs"
    )
    print(
        f"3- and 5-minute penalties served: {penalties}; the player came back to find his slot "
        f"taken by a substitute: {to_bench}"
    )
    print(
        f"goals: {goals}; scored with no die rolled since the card was turned: {no_dice_goals} "
        f"({no_dice_goals / max(1, goals):.1%})"
    )


def audit_league(teams: int) -> None:
    names = [f"Team {n}" for n in range(teams)]
    rosters = {name: generate_roster("audit-league", name) for name in names}
    mixes = Counter(
        tuple(sorted(Counter((c.position, c.experience) for c in r.players).items()))
        for r in rosters.values()
    )
    points = dict.fromkeys(names, 0.0)
    played = dict.fromkeys(names, 0)
    for day_number, day in enumerate(double_round_robin(names)):
        for home_name, away_name in day:
            state = new_match(
                f"audit-league:{day_number}:{home_name}", rosters[home_name], rosters[away_name]
            )
            while not state.over:
                state, _ = apply(state, choose_action(state))
            final = result(state)
            home_points = 1.0 if final.winner == HOME else 0.5 if final.winner is None else 0.0
            points[home_name] += home_points
            points[away_name] += 1.0 - home_points
            played[home_name] += 1
            played[away_name] += 1
    rates = [points[name] / played[name] for name in names]
    chance = (0.25 / played[names[0]]) ** 0.5  # sd of a fair coin's win rate over the season
    print(
        f"league of {teams} generated teams, double round robin ({played[names[0]]} matches each)"
    )
    print(f"different experience mixes: {len(mixes)} of {teams} rosters")
    print(f"win-rate sd {statistics.pstdev(rates):.3f} (pure chance: {chance:.3f})")
    quality = Counter(rosters[name].quality for name in names)
    print(f"qualities: {dict(quality)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("matches", nargs="?", type=int, default=200)
    parser.add_argument("--league", type=int, default=12)
    args = parser.parse_args()
    audit_matches(args.matches)
    audit_league(args.league)


if __name__ == "__main__":
    main()
