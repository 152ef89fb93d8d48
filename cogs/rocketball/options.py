"""A Rocketball match's options as players type them: variants by name (with autocomplete),
the target score, Tug-of-War's swap interval."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from rules.rocketball import Settings
from ui import UserError, quote

VARIANTS = (
    "bumpers",
    "twisters",
    "gusts",
    "barricades",
    "moguls",
    "djinns",
    "tug_of_war",
    "assault",
    "drifting_winds",
)
VARIANT_ALIASES = {"tug": "tug_of_war", "drifting": "drifting_winds", "drift": "drifting_winds"}
VARIANTS_MAX_LENGTH = 150  # every variant's name, with separators, fits with room to spare


def parse_variants(text: str) -> list[str]:
    """ "bumpers, moguls tug-of-war" -> ["bumpers", "moguls", "tug_of_war"], or UserError naming
    the unknown word and the choices."""
    chosen: list[str] = []
    for word in re.split(r"[\s,;+]+", text.strip().lower()):
        if not word or word in ("none", "-"):
            continue
        name = word.replace("-", "_").rstrip("!")
        name = VARIANT_ALIASES.get(name, name)
        if name not in VARIANTS:
            raise UserError(
                f"{quote(word)} is not a Rocketball variant. Choose from: "
                + ", ".join(v.replace("_", "-") for v in VARIANTS)
                + " (`/rocketball rules` explains them)."
            )
        if name not in chosen:
            chosen.append(name)
    return chosen


SPECIAL_CHIPS = ("bumpers", "twisters", "gusts", "barricades")


def match_settings(variants: str, target: int, tug_rounds: int, special_chips: int = 7) -> Settings:
    names = parse_variants(variants)
    options: dict[str, Any] = {"target_score": target}
    if "tug_of_war" in names:
        options["tug_swap_rounds"] = tug_rounds
    for name in SPECIAL_CHIPS:
        if name in names:
            options[name] = special_chips
    settings = Settings.with_variants(names, **options)
    problems = settings.problems()
    if problems:
        raise UserError("Those options don't go together: " + " ".join(problems))
    return settings


def describe(settings: Settings) -> str:
    """ "first to 2; variants: bumpers, moguls" for the challenge message."""
    variants = ", ".join(n.replace("_", " ") for n in settings.variant_names()) or "none"
    return f"first to {settings.target_score}; variants: {variants}"


async def variants_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Offer the typed variants plus each one not yet chosen (Discord shows up to 25)."""
    words = [w for w in re.split(r"[\s,]+", current.lower()) if w]
    partial = "" if current.endswith((" ", ",")) or not words else words.pop()
    known = [w for w in words if w.replace("-", "_") in VARIANTS]
    base = " ".join(known)
    choices = []
    if base and not partial:
        choices.append(base)
    for variant in VARIANTS:
        shown = variant.replace("_", "-")
        if variant in [w.replace("-", "_") for w in known] or not shown.startswith(partial):
            continue
        choices.append(f"{base} {shown}".strip())
    return [app_commands.Choice(name=c[:100], value=c[:100]) for c in choices[:25]]
