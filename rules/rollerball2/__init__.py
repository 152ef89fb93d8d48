"""Rollerball II: the card-driven sports simulation (seeds/000_294650d7333882fc.txt).

Modules: cards (player cards, FACs, effects), scoresheet (match result). The engine's public API
is documented here as it lands.
"""
