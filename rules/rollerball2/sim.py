"""Simulate many auto-played matches between generated teams and summarise them.

Used to tune the content (scoring, violence, star vs rookie, defensive bikers) and to produce the
distribution printed in docs/rules/rollerball2.md:  python -m rules.rollerball2 sim --matches 1000
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field

from rules.rollerball2.cards import BIKER, CATCHER, ROOKIE, SKATER, STAR, VETERAN
from rules.rollerball2.coach import auto_play
from rules.rollerball2.content import load_content
from rules.rollerball2.engine import new_match, result
from rules.rollerball2.roster import QUALITY_LABELS, Lineup, Roster, generate_roster
from rules.rollerball2.scoresheet import CARRY_KILLED


@dataclass
class Summary:
    matches: int = 0
    total_goals: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)
    injuries: list[int] = field(default_factory=list)
    deaths: int = 0
    bans: int = 0
    overtime: int = 0
    draws: int = 0
    home_wins: int = 0
    # experience -> [goals, player-matches on track] for skaters and catchers
    scoring: dict[str, list[int]] = field(
        default_factory=lambda: {STAR: [0, 0], VETERAN: [0, 0], ROOKIE: [0, 0]}
    )
    biker_answers: int = 0  # GOAL vs Bkr: a defensive biker answered the shot
    biker_stops: int = 0  # ... and no goal came of it
    biker_attacks: int = 0  # ATTACK (BIKER) sections read
    attacks: int = 0  # all ATTACK sections read
    # experience of the answering biker -> [answers, stops]
    biker_answers_by_experience: dict[str, list[int]] = field(
        default_factory=lambda: {STAR: [0, 0], VETERAN: [0, 0], ROOKIE: [0, 0]}
    )
    # team quality (Roster.quality) -> [points (win 1, draw 0.5), matches]
    by_quality: dict[str, list[float]] = field(
        default_factory=lambda: {label: [0.0, 0] for label in QUALITY_LABELS}
    )
    better_team: list[float] = field(default_factory=lambda: [0.0, 0])  # different qualities


def random_lineup(roster: Roster, rng: random.Random) -> Lineup:
    """Ten players picked at random by position, so rookies take the track as often as stars:
    the fair way to compare experience levels (the default coach starts his best players)."""
    by_position = {
        position: [card.number for card in roster.players if card.position == position]
        for position in (SKATER, BIKER, CATCHER)
    }
    for numbers in by_position.values():
        rng.shuffle(numbers)
    lineup: Lineup = {f"Biker{i}": by_position[BIKER][i - 1] for i in (1, 2, 3)}
    lineup.update({f"Skater{i}": by_position[SKATER][i - 1] for i in (1, 2, 3, 4)})
    lineup.update({f"Catcher{i}": by_position[CATCHER][i - 1] for i in (1, 2)})
    if rng.random() < 0.5:
        lineup["Skater5"] = by_position[SKATER][4]
    else:
        lineup["Catcher3"] = by_position[CATCHER][2]
    return lineup


def simulate(matches: int, seed: int | str, random_lineups: bool = False) -> Summary:
    """Play `matches` matches; match i pits two rosters generated from (seed, i), with the
    default lineups or (for the experience comparison) random ones."""
    names = load_content().team_names
    summary = Summary()
    for i in range(matches):
        home_name = names[(2 * i) % len(names)]
        away_name = names[(2 * i + 1) % len(names)]
        home = generate_roster(f"{seed}:{i}", home_name)
        away = generate_roster(f"{seed}:{i}", away_name)
        home_lineup: Lineup | None = None
        away_lineup: Lineup | None = None
        if random_lineups:
            rng = random.Random(f"rollerball2-sim-lineups:{seed}:{i}")
            home_lineup, away_lineup = random_lineup(home, rng), random_lineup(away, rng)
        match = new_match(
            f"{seed}:{i}", home, away, home_lineup=home_lineup, away_lineup=away_lineup
        )
        state, events = auto_play(match)
        final = result(state)
        summary.matches += 1
        summary.total_goals.append(final.home_score + final.away_score)
        kinds = Counter(event.kind for event in events)
        summary.penalties.append(kinds["penalty"])
        summary.injuries.append(kinds["injury"])
        summary.bans += kinds["ban"]
        summary.deaths += sum(
            absence.kind == CARRY_KILLED
            for absences in final.carry_over.values()
            for absence in absences
        )
        summary.overtime += final.overtime
        summary.draws += final.winner is None
        summary.home_wins += final.winner == "home"
        points = {"home": 1.0 if final.winner == "home" else 0.5 if final.winner is None else 0.0}
        points["away"] = 1.0 - points["home"]
        for side, team in (("home", home), ("away", away)):
            summary.by_quality[team.quality][0] += points[side]
            summary.by_quality[team.quality][1] += 1
        rank = {label: i for i, label in enumerate(QUALITY_LABELS)}  # 0 is the best
        if home.quality != away.quality:
            better = "home" if rank[home.quality] < rank[away.quality] else "away"
            summary.better_team[0] += points[better]
            summary.better_team[1] += 1
        for sheet in (final.home, final.away):
            for line in sheet.players:
                if line.on_track and line.position != BIKER:
                    summary.scoring[line.experience][0] += line.goals
                    summary.scoring[line.experience][1] += 1
        for event in events:
            if "answers the shot" in event.text:
                stopped = "(both sides read GOAL)" not in event.text
                summary.biker_answers += 1
                summary.biker_stops += stopped
                for experience, counts in summary.biker_answers_by_experience.items():
                    if f"({experience.upper()}) answers" in event.text:
                        counts[0] += 1
                        counts[1] += stopped
            elif event.kind == "card" and "ATTACK (" in event.text:
                summary.attacks += 1
                summary.biker_attacks += "ATTACK (BIKER)" in event.text
    return summary


def _histogram(values: list[int]) -> list[str]:
    counts = Counter(values)
    lines = []
    for value in range(min(values), max(values) + 1):
        share = counts[value] / len(values)
        lines.append(f"  {value:3d} | {'#' * round(share * 200):<40} {share:6.1%}")
    return lines


def format_summary(summary: Summary, seed: int | str, fair: Summary | None = None) -> str:
    goals = summary.total_goals
    n = summary.matches
    lines = [
        f"Rollerball II: {n} auto-played matches (seed {seed})",
        f"Total goals per match: mean {statistics.mean(goals):.2f}, median "
        f"{statistics.median(goals):g}, min {min(goals)}, max {max(goals)}, "
        f"stdev {statistics.pstdev(goals):.2f}",
        f"Matches with 5-15 goals: {sum(5 <= g <= 15 for g in goals) / n:.1%}",
        f"Penalties per match: mean {statistics.mean(summary.penalties):.2f}",
        f"Injuries per match: mean {statistics.mean(summary.injuries):.2f}",
        f"Deaths: {summary.deaths} in {n} matches ({summary.deaths / n:.2f} per match)",
        f"Bans: {summary.bans} ({summary.bans / n:.2f} per match)",
        f"Overtime played: {summary.overtime / n:.1%}; draws: {summary.draws / n:.1%}; "
        f"home wins: {summary.home_wins / n:.1%}",
    ]
    quality = ", ".join(
        f"{label} {points / played:.1%} ({int(played)})"
        for label, (points, played) in summary.by_quality.items()
        if played
    )
    lines.append(f"Points won by team quality (win 1, draw 1/2; team-matches): {quality}")
    if summary.better_team[1]:
        lines.append(
            f"Teams of different quality: the better one took {summary.better_team[0] / summary.better_team[1]:.1%} "
            f"of the points ({int(summary.better_team[1])} matches)"
        )
    for title, batch in (
        ("default lineups", summary),
        ("random lineups, a fair comparison", fair),
    ):
        if batch is None:
            continue
        lines.append(f"Goals per skater/catcher match played, by experience ({title}):")
        for experience in (STAR, VETERAN, ROOKIE):
            scored, played = batch.scoring[experience]
            rate = scored / played if played else 0.0
            lines.append(
                f"  {experience:8s} {rate:.3f}  ({scored} goals in {played} player-matches)"
            )
    stops = summary.biker_stops / summary.biker_answers if summary.biker_answers else 0.0
    lines.append(
        f"Defensive bikers: answered {summary.biker_answers / n:.2f} shots a match (GOAL vs Bkr), "
        f"stopped {stops:.1%} of them; {summary.biker_attacks / max(1, summary.attacks):.1%} of "
        f"attacks were by bikers"
    )
    if fair is not None:
        lines.append(
            "Shots stopped by the answering defensive biker, by experience (random lineups):"
        )
        for experience in (STAR, VETERAN, ROOKIE):
            answers, stopped = fair.biker_answers_by_experience[experience]
            if answers:
                lines.append(f"  {experience:8s} {stopped / answers:.1%}  ({answers} answers)")
    lines.append("Total goals per match (distribution):")
    lines.extend(_histogram(goals))
    return "\n".join(lines)
