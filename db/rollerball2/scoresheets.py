"""A finished Rollerball II match's result as the matches table stores it (JSON)."""

from __future__ import annotations

import json
from dataclasses import asdict

from rules.rollerball2.scoresheet import Absence, MatchResult, Moment, PlayerLine, TeamSheet


def result_to_json(result: MatchResult) -> str:
    return json.dumps(asdict(result), separators=(",", ":"))


def _sheet(data: dict) -> TeamSheet:
    return TeamSheet(
        team=data["team"],
        side=data["side"],
        players=[PlayerLine(**line) for line in data["players"]],
        score_by_period=list(data["score_by_period"]),
    )


def result_from_json(text: str) -> MatchResult:
    data = json.loads(text)
    return MatchResult(
        home=_sheet(data["home"]),
        away=_sheet(data["away"]),
        winner=data["winner"],
        overtime=data["overtime"],
        facs_played=data["facs_played"],
        carry_over={
            side: [Absence(**absence) for absence in absences]
            for side, absences in data["carry_over"].items()
        },
        moments=[Moment(**moment) for moment in data.get("moments", [])],
    )
