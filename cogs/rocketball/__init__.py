"""Rocketball on Discord (see cog.py)."""

from cogs.rocketball.cog import setup

__all__ = ["setup"]
