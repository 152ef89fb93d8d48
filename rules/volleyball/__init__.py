"""Volleyball (Rien Kooy's play-by-e-mail league, seeds/003) as a pure engine; the bot is the GM.

Modules: orders (order dataclasses and the seed's position/concept codes), models (players,
teams, season configuration, league). More to follow: creation, match, orderform.
"""
