"""Rollerball II on Discord (see cog.py): teams, matches on the shared host, seasons, stats."""

from cogs.rollerball2.cog import setup

__all__ = ["setup"]
