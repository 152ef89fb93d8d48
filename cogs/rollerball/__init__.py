"""Rollerball, the ring board game for 2-6 players, on Discord (see cog.py)."""

from cogs.rollerball.cog import setup

__all__ = ["setup"]
