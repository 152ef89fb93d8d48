"""The league host: what every league shares (Volleyball's leagues, Rollerball II's seasons),
beside the match host. `admins.py` says who runs a league."""

from host.leagues.admins import is_league_admin, require_league_admin

__all__ = ["is_league_admin", "require_league_admin"]
