"""Season end (seed rule 10): players grow older and lose points, some leave the team.

Seed rule 10: "At the end of the season all contractplayers leave the team, all sponsors end
their contract and all players with Age E go to the amateurs. All players with Age A untill
Age D become 'older' and loose points from their level(s) ... New talents get Age A, but they
don't loose any points of their level." The loss per step and the least a level loses are in
AGEING_STEPS. "When a level becomes lower than 1 points as a result of this ageing, a player
will leave the team" and "The ratio between both levels may not become higher than 3:1 due
to the ageing."

The pure arithmetic (`aged_levels`) is separate from applying it to a team (`age_team`) so it can be tested with worked numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import PlayerError
from rules.volleyball.models import Player, Team
from rules.volleyball.orders import AgeingSplit
from rules.volleyball.wording import did_you_mean, possessive

NEXT_AGE = {"A": "B", "B": "C", "C": "D", "D": "E"}

# Seed rule 10: (points lost in total, the least each level loses).
AGEING_STEPS: dict[str, tuple[int, int]] = {
    "A": (6, 2),
    "B": (10, 3),
    "C": (14, 4),
    "D": (14, 4),
}

MAX_RATIO = 3


class AgeingError(PlayerError):
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


# --- applied to a league ------------------------------------------------------------------


def ageing_split_problems(team: Team, splits: list[AgeingSplit]) -> list[str]:
    """Every problem with a manager's ageing splits for his team, each as a sentence."""
    problems: list[str] = []
    for split in splits:
        player = team.player(split.player)
        if player is None:
            roster = [p.name for p in team.players]
            problems.append(
                f"{team.name} has no player called {split.player}."
                + did_you_mean(split.player, roster)
            )
            continue
        if player.age not in AGEING_STEPS:
            problems.append(f"{player.name} does not lose points by ageing this season.")
            continue
        total, least = AGEING_STEPS[player.age]
        if split.ol_loss not in allowed_ol_losses(player.age):
            problems.append(
                f"{player.name} (Age {player.age}) loses {total} points with at least {least} "
                f"from each level: OL can lose {least} to {total - least}, not {split.ol_loss}."
            )
            continue
        chosen = aged_levels(player.age, player.ol, player.dl, split.ol_loss)
        keeping = [
            (loss, aged_levels(player.age, player.ol, player.dl, loss))
            for loss in allowed_ol_losses(player.age)
        ]
        keeping = [(loss, a) for loss, a in keeping if not a.leaves and not a.ratio_cut]
        if chosen.ratio_cut and keeping:
            # Rule 10 "The ratio between both levels may not become higher
            # than 3:1 due to the ageing": a split that breaks it is refused, not cut.
            options = " or ".join(f"OL loss {loss} ({a.ol}/{a.dl})" for loss, a in keeping)
            problems.append(
                f"{player.name} (Age {player.age}, {player.ol}/{player.dl}) losing "
                f"{split.ol_loss} OL and {total - split.ol_loss} DL would be "
                f"{player.ol - split.ol_loss}/{player.dl - total + split.ol_loss}, above 3:1; "
                f"choose {options}."
            )
    return problems


def age_team(
    team: Team, splits: list[AgeingSplit], events: list[str], public: list[str] | None = None
) -> None:
    """Rule 10 for one team: contract players and the sponsor leave, Age E players go to the
    amateurs, Age A-D players grow older and lose points, talents become Age A.

    `events` gets the team's own lines (its sponsor, its players' ages and levels, its
    talents: what docs/rules/volleyball.md "What the public sees" keeps for its manager); `public`
    (default `events`) the contract players leaving, whom the whole league bids on.

    Rulings: Age E players leave without compensation (rule 10 names none); a talent still at
    0/0 (fewer than four qualifying matches) stays a talent into the next season instead of
    becoming an Age A player without levels; season counters (training per level, spying
    orders, talents scouted) start again.
    """
    chosen = {s.player.casefold(): s.ol_loss for s in splits}
    if team.sponsor is not None:
        events.append(f"{possessive(team.name)} sponsor {team.sponsor} ends its contract.")
    team.sponsor = None
    kept: list[Player] = []
    for player in team.players:
        if player.is_contract:
            (events if public is None else public).append(
                f"Contract player {player.name} leaves {team.name}."
            )
            continue
        if player.age == "E":
            events.append(f"{player.name} (Age E) leaves {team.name} for the amateurs.")
            continue
        if player.is_talent:
            if player.ol > 0 or player.dl > 0:
                player.age = "A"
                player.talent_matches = 0
                events.append(
                    f"Talent {player.name} becomes an Age A player at {player.ol}/{player.dl}."
                )
            else:
                events.append(f"Talent {player.name} has not yet got his 2/2 and stays a talent.")
        else:
            old_age = player.age
            result = aged_levels(old_age, player.ol, player.dl, chosen.get(player.name.casefold()))
            player.age = NEXT_AGE[old_age]
            player.ol, player.dl = result.ol, result.dl
            if result.leaves:
                events.append(
                    f"{player.name} ages to {player.age} ({result.ol}/{result.dl}): a level "
                    f"below 1, so he leaves {team.name} for the amateurs."
                )
                continue
            note = (
                f", {result.ratio_cut} more lost to keep the 3:1 ratio" if result.ratio_cut else ""
            )
            events.append(
                f"{player.name} ages to {player.age}: -{result.ol_loss} OL, -{result.dl_loss} DL"
                f"{note}, now {player.ol}/{player.dl}."
            )
        player.trained_ol = 0
        player.trained_dl = 0
        player.lack_of_devotion = False
        kept.append(player)
    team.players = kept
    team.spies_used = 0
    team.talents_scouted = 0
