"""Season end (seed rule 10): players grow older and lose points, some leave the team.

Seed rule 10: "At the end of the season all contractplayers leave the team, all sponsors end
their contract and all players with Age E go to the amateurs. All players with Age A untill
Age D become 'older' and loose points from their level(s) ... New talents get Age A, but they
don't loose any points of their level." The loss per step and the least a level loses are in
AGEING_STEPS. "When a level becomes lower than 1 points as a result of this ageing, a player
will leave the team" and "The ratio between both levels may not become higher than 3:1 due
to the ageing."

The pure arithmetic (`aged_levels`) is separate from applying it to a league (`end_season`
in this module works on the League model) so it can be tested with worked numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

NEXT_AGE = {"A": "B", "B": "C", "C": "D", "D": "E"}

# Seed rule 10: (points lost in total, the least each level loses).
AGEING_STEPS: dict[str, tuple[int, int]] = {
    "A": (6, 2),
    "B": (10, 3),
    "C": (14, 4),
    "D": (14, 4),
}

MAX_RATIO = 3


class AgeingError(ValueError):
    """A manager's ageing split that the rules do not allow, with a readable message."""


@dataclass(frozen=True)
class AgedLevels:
    """The outcome of one player's ageing step."""

    ol: int
    dl: int
    ol_loss: int
    dl_loss: int
    leaves: bool  # a level fell below 1: the player goes to the amateurs
    ratio_cut: int  # extra points cut off the higher level to keep the 3:1 ratio


def allowed_ol_losses(age: str) -> range:
    """The OL losses a manager may choose for a player of `age` (the rest comes off DL)."""
    total, least = AGEING_STEPS[age]
    return range(least, total - least + 1)


def _ratio_ok(ol: int, dl: int) -> bool:
    return max(ol, dl) <= MAX_RATIO * min(ol, dl)


def default_ol_loss(age: str, ol: int, dl: int) -> int:
    """The split used when the manager gives none (ruling, docs/rules/volleyball.md).

    Prefer a split that keeps both levels at 1 or more and the ratio at most 3:1; among those,
    the one closest to splitting the loss in proportion to the two levels (so a player keeps
    his profile); ties go to the smaller OL loss.
    """
    total, _least = AGEING_STEPS[age]
    proportional = total * ol / max(ol + dl, 1)

    def preference(ol_loss: int) -> tuple[int, int, float, int]:
        new_ol, new_dl = ol - ol_loss, dl - (total - ol_loss)
        stays = new_ol >= 1 and new_dl >= 1
        return (
            0 if stays else 1,
            0 if stays and _ratio_ok(new_ol, new_dl) else 1,
            abs(ol_loss - proportional),
            ol_loss,
        )

    return min(allowed_ol_losses(age), key=preference)


def aged_levels(age: str, ol: int, dl: int, ol_loss: int | None = None) -> AgedLevels:
    """One player's levels after the ageing step from `age` to the next age.

    `ol_loss` is the manager's choice (None: `default_ol_loss`). A split outside the allowed
    range raises AgeingError. When both levels stay at 1 or more but the ratio would exceed
    3:1, the higher level is cut to three times the lower (ruling: the rule says the ratio
    "may not become higher than 3:1", so the excess is lost as well).
    """
    if age not in AGEING_STEPS:
        raise AgeingError(f"Age {age} players do not lose points by ageing.")
    total, least = AGEING_STEPS[age]
    if ol_loss is None:
        ol_loss = default_ol_loss(age, ol, dl)
    if ol_loss not in allowed_ol_losses(age):
        raise AgeingError(
            f"An Age {age} player loses {total} points with at least {least} from each level, "
            f"so OL can lose {least} to {total - least} points, not {ol_loss}."
        )
    dl_loss = total - ol_loss
    new_ol, new_dl = ol - ol_loss, dl - dl_loss
    if new_ol < 1 or new_dl < 1:
        return AgedLevels(max(new_ol, 0), max(new_dl, 0), ol_loss, dl_loss, True, 0)
    cut = 0
    if new_ol > MAX_RATIO * new_dl:
        cut = new_ol - MAX_RATIO * new_dl
        new_ol -= cut
    elif new_dl > MAX_RATIO * new_ol:
        cut = new_dl - MAX_RATIO * new_ol
        new_dl -= cut
    return AgedLevels(new_ol, new_dl, ol_loss, dl_loss, False, cut)
