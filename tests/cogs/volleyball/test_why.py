"""A played round's Why? as kept and worded (cogs/volleyball/playing.py `why_of`,
cogs/volleyball/why.py `fitted`): the public report keeps the events anyone may read, a
manager's sheet its team's own; the answer is one embed however big the round, its rulings and
closing rules line kept, the manager's own events first."""

from __future__ import annotations

from cogs.volleyball.playing import why_of
from cogs.volleyball.why import fitted
from host.why import EMBED_TEXT
from rules.volleyball import all_computer_orders, new_league, run_round
from rules.volleyball.why import round_events


def played_round(teams: int):
    state = new_league([], total_teams=teams, seed=7)
    for _ in range(2):
        outcome = run_round(state, all_computer_orders(state))
        state = outcome.state
    return outcome.report


def test_a_report_keeps_the_public_events_and_a_sheet_its_teams_own():
    report = played_round(8)
    events = round_events(report)
    team = next(event.team for event in events if event.team)
    public, own = why_of(events, ""), why_of(events, team)
    teams = {name for m in report.matches for name in (m.home, m.away)}
    assert len(public) + sum(len(why_of(events, name)) for name in teams) == len(events)
    assert public and own and all(team in text for text, _ in own)
    assert not any("orders in" in text or "devotion" in text for text, _ in public)


def test_a_sixteen_team_rounds_why_fits_one_embed_with_its_rulings_and_own_events_first():
    report = played_round(16)
    events = round_events(report)
    team = next(event.team for event in events if event.team)
    public, own = why_of(events, ""), why_of(events, team)
    text, topics = fitted("**Mine**", own, "**Round 2**", public, 2)
    assert len(text) <= EMBED_TEXT
    assert text.startswith("**Mine**\n• ") and text.index("**Round 2**") > text.index(own[0][0])
    assert "more events of the round: every score is in `/volleyball results round:2`" in text
    assert text.endswith("Pick a topic below to read it, or `/volleyball rules`.")
    assert topics == ["A match"]
    for rule in ("R1", "R4", "R5", "R6"):
        assert f"**Ruling {rule}**" in text
    small, _ = fitted("", [], "**Round 2**", why_of(round_events(played_round(4)), ""), 2)
    assert "more event" not in small
