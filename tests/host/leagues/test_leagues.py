"""Who runs a league (host/leagues/admins.py, shared by Volleyball's leagues and Rollerball II's
seasons): Manage Server or Administrator, the server's league admin role, the league's own."""

from types import SimpleNamespace
from typing import Any

from host.leagues import is_league_admin


def member(*roles: int, manage: bool = False, administrator: bool = False) -> Any:
    return SimpleNamespace(
        permissions=SimpleNamespace(manage_guild=manage, administrator=administrator),
        user=SimpleNamespace(roles=[SimpleNamespace(id=role) for role in roles]),
    )


def test_server_admins_or_a_league_role_run_a_league():
    assert is_league_admin(member(manage=True))
    assert is_league_admin(member(administrator=True))
    assert not is_league_admin(member(77))
    assert is_league_admin(member(5, 77), [None, 77])
    assert not is_league_admin(member(5), [77, None])
    # a member outside a server (a DM) has no roles at all
    outside: Any = SimpleNamespace(permissions=member().permissions, user=None)
    assert not is_league_admin(outside, [77])
