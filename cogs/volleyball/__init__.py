"""Volleyball on Discord: a league that runs itself at its deadlines (issue 12). The engine is
rules.volleyball; this package holds the commands (cog.py), the league service (league.py),
the forms and modals (forms.py, components.py), deadlines and season settings."""

from cogs.volleyball.cog import setup

__all__ = ["setup"]
