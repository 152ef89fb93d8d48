"""The league host: what every league shares (Volleyball's leagues, Rollerball II's seasons),
beside the match host. `admins.py` says who runs a league; `league_host.py` holds a league's lock,
its deadline timer, the admins' pause, resume and extension, the vacations that put a deadline
off, the start-up repair and the lines of /games, behind the `LeagueAdapter` each league
implements; `fixtures.py` settles a fixture whose match is open at its deadline;
`reminders.py` the reminders before a deadline, for a league whose adapter says
who is still missing orders (docs/architecture.md, "A league's deadline")."""

from host.leagues.admins import is_league_admin, require_league_admin
from host.leagues.league_host import LeagueAdapter, LeagueHost, Outcome, Round
from host.leagues.reminders import LeagueReminders, Reminder, ReminderAdapter

__all__ = [
    "LeagueAdapter",
    "LeagueHost",
    "LeagueReminders",
    "Outcome",
    "Reminder",
    "ReminderAdapter",
    "Round",
    "is_league_admin",
    "require_league_admin",
]
