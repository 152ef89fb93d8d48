"""Tournaments on Discord (see cog.py)."""

from cogs.tournament.cog import setup

__all__ = ["setup"]
