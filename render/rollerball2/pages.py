"""Rollerball II pages built from tables: the game card, the box score in pages, the standings.

The game card is the seed's "Game Card" (Action Matrix summary, Random Player chart and penalty
length legend) as one image; the box score is the seed's ScoreSheet split into phone-sized pages
(summary with the scoring and penalty summary and three stars, then one page per team); the
standings table follows rules.rollerball2.season.
"""

from __future__ import annotations

from render.common import BLUE, GREEN, INK, ORANGE, PURPLE, SKY, VERMILION, YELLOW
from render.rollerball2.tables import WIDE, Column, PageLayout, Row, Table, paginate
from rules.rollerball2.cards import PRINTED_FACES, face_label
from rules.rollerball2.content import EMPTY, EXTRA, load_content
from rules.rollerball2.scoresheet import MatchResult
from rules.rollerball2.season import DRAW_POINTS, WIN_POINTS, StandingRow
from rules.rollerball2.stats import three_stars

# What each Action Matrix outcome means at the table, in a few words (the seed's full wording
# is in data/rollerball2/charts.json and docs/rules/rollerball2.md).
OUTCOME_WORDS = {
    "goal": "GOAL",
    "retain": "Team keeps the ball: next FAC, ACTION",
    "defensive_biker": "Defense picks a biker: his D10 is both results",
    "biker_duel": "Next FAC, BIKER ID: biker vs biker, 2D10",
    "tow": "Next FAC, BIKER ID: the biker's D10 replaces the offense",
    "goal_biker_assist": "GOAL; pick a biker for the assist",
    "attack": "Next FAC, ATTACK section",
    "turnover": "Defense takes the ball",
    "steal": "Steal and breakaway: one D10 on the stealer's OFFENSE",
    "pass_goal": "GOAL for any skater, the passer assists",
    "event": "Next FAC, EVENT section",
}
SIDE_COLOURS = {"home": ORANGE, "away": BLUE}


def _codes(codes: tuple[str, ...]) -> str:
    return ", ".join("[Position Empty]" if code == EMPTY else code for code in codes)


def _chart_slot(slot: str) -> str:
    return "extra (Skater5 or Catcher3)" if slot == EXTRA else slot


def gamecard_page() -> PageLayout:
    """The seed's Game Card as one tall image, 800 px wide: matrix, Random Player chart,
    penalty legend (the phone's version is `gamecard_pages`)."""
    [page] = paginate("ROLLERBALL II · GAME CARD", [], list(_gamecard_tables()), 10_000, WIDE)
    return page


def gamecard_pages() -> list[PageLayout]:
    """The Game Card as three phone pages, one table each: the Action Matrix, the Random
    Player chart, the penalty lengths."""
    tables = _gamecard_tables()
    return [
        paginate(f"GAME CARD · {number} of {len(tables)}", [], [table], 10_000)[0]
        for number, table in enumerate(tables, start=1)
    ]


def _gamecard_tables() -> tuple[Table, Table, Table]:
    """The seed's Game Card: matrix, Random Player chart, penalty legend."""
    content = load_content()
    matrix = Table(
        "ACTION MATRIX (offense result vs defense result)",
        (Column("Offense", 100, bold=True), Column("Defense", 130), Column("What happens", 0)),
        tuple(
            Row((_codes(line.offense), _codes(line.defense), OUTCOME_WORDS[line.outcome]))
            for line in content.matrix
        ),
        stripe=ORANGE,
        note="GOAL on OFFENSE, Bkr on DEFENSE: the defense's biker answers. An empty defending "
        "slot is [Position Empty].",
    )
    chart = Table(
        "RANDOM PLAYER CHART (roll a D10)",
        (
            Column("D10", 50, "center", bold=True),
            Column("Player", 0),
            Column("Skater/Catcher", 190),
        ),
        tuple(
            Row(
                (
                    face_label(face),
                    _chart_slot(content.random_player[face - 1]),
                    _chart_slot(content.random_skater_catcher[face - 1]),
                )
            )
            for face in PRINTED_FACES
        ),
        stripe=PURPLE,
        note="Player: bikers included. Skater/Catcher: never a biker. A die showing 0 is row 0.",
    )
    penalties = Table(
        "PENALTY LENGTHS",
        (
            Column("Penalty", 0, bold=True),
            Column("Minutes", 84, "center"),
            Column("Out (FACs)", 90, "center"),
            Column("Man short", 90, "center"),
        ),
        tuple(
            Row(
                (
                    legend.label,
                    str(legend.minutes) if legend.minutes else "left",
                    str(legend.facs) if legend.facs else key,
                    str(legend.shorthanded_facs),
                )
            )
            for key, legend in content.penalties.items()
        ),
        stripe=VERMILION,
        note="A Penalty Expires marker goes that many FACs down the pile; his slot stays empty "
        "for the man-short FACs. 'left': the minutes left in the period or match.",
    )
    return matrix, chart, penalties


# --- box score pages -------------------------------------------------------------------------


def _team_names(result: MatchResult) -> dict[str, str]:
    return {"home": result.home.team, "away": result.away.team}


def _summary_tables(result: MatchResult) -> list[Table]:
    names = _team_names(result)
    stars = three_stars(result)
    star_rows = []
    for rank, (side, line) in enumerate(stars, start=1):
        did = []
        for count, word in (
            (line.goals, "G"),
            (line.assists, "A"),
            (line.catches, "C"),
            (len(line.casualties), "KO"),
        ):
            if count:
                did.append(f"{count} {word}")
        star_rows.append(
            Row(
                (("★" * (4 - rank)), f"#{line.number} {line.name}", names[side], ", ".join(did)),
                tag=SIDE_COLOURS[side],
            )
        )
    tables = [
        Table(
            "THREE STARS",
            (
                Column("", 66, "center", bold=True),
                Column("Player", 0, bold=True),
                Column("Team", 100),
                Column("Match", 96),
            ),
            tuple(star_rows),
            stripe=YELLOW,
            note="3 a goal, 2 an assist, 1 a catch, 1 a casualty, 1 for the winners.",
        )
    ]
    goals = [m for m in result.moments if m.kind == "goal"]
    tables.append(
        Table(
            "SCORING SUMMARY",
            (
                Column("Time", 104, bold=True),
                Column("Goal (assist)", 0),
                Column("Score", 66, "center", bold=True),
            ),
            tuple(
                Row(
                    (
                        m.clock,
                        f"{names[m.side]}: #{m.number} {m.name}"
                        + (f" (#{m.assist} {m.assist_name})" if m.assist is not None else ""),
                        m.detail,
                    ),
                    tag=SIDE_COLOURS[m.side],
                )
                for m in goals
            )
            or (Row(("", "No goals", "")),),
            stripe=GREEN,
            note=f"Score: {result.away.team} (visitors) first. Time: period and minutes of play.",
        )
    )
    penalties = [m for m in result.moments if m.kind == "penalty"]
    tables.append(
        Table(
            "PENALTY SUMMARY",
            (
                Column("Time", 104, bold=True),
                Column("Player", 0),
                Column("Penalty", 150),
            ),
            tuple(
                Row(
                    (m.clock, f"{names[m.side]}: #{m.number} {m.name}", m.detail),
                    tag=SIDE_COLOURS[m.side],
                )
                for m in penalties
            )
            or (Row(("", "No penalties", "")),),
            stripe=VERMILION,
        )
    )
    return tables


def box_summary_pages(result: MatchResult, result_line: str) -> list[PageLayout]:
    """The box score's summary: the result and score by period, three stars, scoring and
    penalty summaries with clock times; as many pages as the match needs."""
    away, home = result.away, result.home
    periods = max(len(away.score_by_period), len(home.score_by_period), 4)
    labels = ["1", "2", "3", "4", "OT"][:periods]
    by_period = Table(
        "SCORE BY PERIOD",
        (
            Column("Team", 0, bold=True),
            *(Column(label, 44, "center") for label in labels),
            Column("T", 52, "center", bold=True),
        ),
        tuple(
            Row(
                (
                    f"{sheet.team}",
                    *(
                        str(sheet.score_by_period[i]) if i < len(sheet.score_by_period) else "0"
                        for i in range(periods)
                    ),
                    str(sheet.score),
                ),
                tag=SIDE_COLOURS[sheet.side],
            )
            for sheet in (away, home)
        ),
        stripe=INK,
        note="Visitors first, as on the seed's scoresheet (orange: home, blue: visitors).",
    )
    return paginate("BOX SCORE", [result_line], [by_period, *_summary_tables(result)])


# --- standings -------------------------------------------------------------------------------


def standings_page(title: str, rows: list[StandingRow]) -> list[PageLayout]:
    """The season table (rules.rollerball2.season.standings order), best first."""
    table = Table(
        "STANDINGS",
        (
            Column("#", 30, "center", bold=True),
            Column("Team", 0, bold=True),
            Column("GP", 40, "center"),
            Column("W", 34, "center"),
            Column("L", 34, "center"),
            Column("T", 34, "center"),
            Column("GF", 40, "center"),
            Column("GA", 40, "center"),
            Column("Diff", 50, "center"),
            Column("Pts", 44, "center", bold=True),
        ),
        tuple(
            Row(
                (
                    str(place),
                    row.team,
                    str(row.played),
                    str(row.won),
                    str(row.lost),
                    str(row.drawn),
                    str(row.goals_for),
                    str(row.goals_against),
                    f"{row.goal_difference:+d}" if row.goal_difference else "0",
                    str(row.points),
                ),
                fill=(255, 243, 196) if place == 1 and row.played else None,
            )
            for place, row in enumerate(rows, start=1)
        ),
        stripe=SKY,
        note=f"GP played · W won · L lost · T tied (draws) · GF goals for · GA against · "
        f"Pts: {WIN_POINTS} a win, {DRAW_POINTS} a draw; ties by goal difference, then goals.",
    )
    return paginate(title, [], [table])
