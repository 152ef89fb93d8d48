"""Volleyball on Discord: a league that runs itself at its deadlines. The engine is
rules.volleyball; this package holds the commands (cog.py), the league service (league.py),
playing a round with what is on file (playing.py), sending its reports (posting.py), the forms
and modals (forms.py, components.py), deadlines, season settings and the rules pages."""

from cogs.volleyball.cog import setup

__all__ = ["setup"]
