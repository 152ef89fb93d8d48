"""Training with training points (seed rule 6, results sequence step 1) and the NMR training.

Seed rule 6: "Players can gain points on their level by training. These training is only
possible by using Training Points (TP) ... There are some restrictions for the training:
- each player can gain only one point per level in a round
- the ratio between both levels of a player can not become higher than 3:1
- the total of both levels of a player can not become higher than 35
- each level of a player can not be trained more than 5 points each season, except for new
  talents". A talent can be trained only once he has his 2/2 levels ("From that moment on
they can also be trained, not before"); contract players can't be trained (rule 7).

One training point buys one level point (ruling: the seed names no other price).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.volleyball.models import Player, SeasonConfig, Team
from rules.volleyball.orders import TrainingOrder
from rules.volleyball.wording import did_you_mean, possessive

MAX_GAIN_PER_LEVEL_PER_ROUND = 1
MAX_RATIO = 3
MAX_LEVEL_TOTAL = 35
MAX_TRAINED_PER_LEVEL_PER_SEASON = 5


@dataclass(frozen=True)
class TrainableLevels:
    """What the training rules need to know about one player."""

    name: str
    ol: int
    dl: int
    trained_ol: int  # points trained on OL this season so far
    trained_dl: int
    is_talent: bool  # a new talent (AGE_TALENT): no seasonal limit once trainable
    trainable: bool  # False for contract players and talents still at 0/0
    why_not_trainable: str = ""


def _ratio_grows(ol: int, dl: int, new_ol: int, new_dl: int) -> bool:
    """True when max/min of the new levels is higher than of the old ones."""
    return max(new_ol, new_dl) * min(ol, dl) > max(ol, dl) * min(new_ol, new_dl)


def training_problems(player: TrainableLevels, ol_gain: int, dl_gain: int) -> list[str]:
    """Every reason the training of `player` by (ol_gain, dl_gain) is refused, as sentences."""
    problems: list[str] = []
    if ol_gain == 0 and dl_gain == 0:
        return problems
    who = player.name
    if not player.trainable:
        return [player.why_not_trainable or f"{who} cannot be trained."]
    for label, gain in (("OL", ol_gain), ("DL", dl_gain)):
        if gain < 0:
            problems.append(f"{who}: training cannot take points off {label}.")
        elif gain > MAX_GAIN_PER_LEVEL_PER_ROUND:
            problems.append(
                f"{who} can gain only one point per level in a round, not {gain} on {label}."
            )
    if problems:
        return problems
    new_ol, new_dl = player.ol + ol_gain, player.dl + dl_gain
    # "can not become higher than 3:1": training the weaker level of a player who is (by some
    # other rule) already past 3:1 brings him closer and stays allowed.
    if max(new_ol, new_dl) > MAX_RATIO * min(new_ol, new_dl) and _ratio_grows(
        player.ol, player.dl, new_ol, new_dl
    ):
        problems.append(
            f"{who} would have {new_ol}/{new_dl}: the ratio between OL and DL "
            f"may not become higher than {MAX_RATIO}:1."
        )
    if new_ol + new_dl > MAX_LEVEL_TOTAL:
        problems.append(
            f"{who} would have {new_ol + new_dl} level points; the total may not exceed "
            f"{MAX_LEVEL_TOTAL}."
        )
    if not player.is_talent:
        for label, gain, done in (
            ("OL", ol_gain, player.trained_ol),
            ("DL", dl_gain, player.trained_dl),
        ):
            if gain and done + gain > MAX_TRAINED_PER_LEVEL_PER_SEASON:
                problems.append(
                    f"{possessive(who)} {label} has already been trained {done} points this season; "
                    f"a level can be trained at most {MAX_TRAINED_PER_LEVEL_PER_SEASON} points a "
                    "season."
                )
    return problems


def nmr_training(
    players: list[TrainableLevels], training_points: int
) -> list[tuple[str, int, int]]:
    """Rule 12's NMR training: what the GM trains when a team sends no orders.

    Ruling (docs/rules/volleyball.md): the GM spends the team's training points one point at
    a time, going through the players in roster order, on the lower level first (the higher
    one if the lower cannot be trained), then a second pass for the other level, within every
    rule-6 limit. Returns (player, ol_gain, dl_gain) for each trained player.
    """
    gains: dict[str, list[int]] = {}
    remaining = training_points
    for _pass in range(2):  # each pass adds at most one point per player
        for player in players:
            if remaining <= 0:
                break
            ol_gain, dl_gain = gains.get(player.name, [0, 0])
            lower_first = ["ol", "dl"] if player.ol <= player.dl else ["dl", "ol"]
            for level in lower_first:
                trial = (ol_gain + 1, dl_gain) if level == "ol" else (ol_gain, dl_gain + 1)
                # training_problems also refuses a second point on a level this round.
                if not training_problems(player, *trial):
                    gains[player.name] = list(trial)
                    remaining -= 1
                    break
    return [(name, g[0], g[1]) for name, g in gains.items() if g[0] or g[1]]


# --- applying training to a team (results sequence step 1) --------------------------------


def trainable_levels(player: Player) -> TrainableLevels:
    """The training view of a team's player, with the reason he cannot be trained if so."""
    why = ""
    if player.is_contract:
        why = f"{player.name} is a contract player; contract players can't be trained."
    elif player.is_talent and player.ol == 0 and player.dl == 0:
        why = (
            f"{player.name} is a new talent still at 0/0; talents can be trained once they "
            "have played four matches of at least two sets and got their 2/2 levels."
        )
    return TrainableLevels(
        name=player.name,
        ol=player.ol,
        dl=player.dl,
        trained_ol=player.trained_ol,
        trained_dl=player.trained_dl,
        is_talent=player.is_talent,
        trainable=not why,
        why_not_trainable=why,
    )


def training_order_problems(team: Team, orders: list[TrainingOrder]) -> list[str]:
    """Every problem with a team's training orders, each as a sentence: unknown players, a
    player named twice, each rule-6 limit, and more points than the team's TP."""
    problems: list[str] = []
    seen: set[str] = set()
    points = 0
    for order in orders:
        player = team.player(order.player)
        if player is None:
            problems.append(
                f"{team.name} has no player called {order.player} to train."
                + did_you_mean(order.player, [p.name for p in team.players])
            )
            continue
        if player.name in seen:
            problems.append(f"{player.name} is in the training orders twice; list him once.")
            continue
        seen.add(player.name)
        problems.extend(training_problems(trainable_levels(player), order.ol_gain, order.dl_gain))
        points += max(order.ol_gain, 0) + max(order.dl_gain, 0)
    if points > team.training_points:
        problems.append(
            f"The training uses {points} training points but {team.name} has only "
            f"{team.training_points}."
        )
    return problems


def apply_training(team: Team, orders: list[tuple[str, int, int]], events: list[str]) -> None:
    """Train the players (orders already checked): one TP per level point gained."""
    for name, ol_gain, dl_gain in orders:
        player = team.known_player(name)
        player.ol += ol_gain
        player.dl += dl_gain
        player.trained_ol += ol_gain
        player.trained_dl += dl_gain
        team.training_points -= ol_gain + dl_gain
        events.append(f"{team.name}: {player.name} trains to {player.ol}/{player.dl}.")


def nmr_training_for(team: Team) -> list[tuple[str, int, int]]:
    """Rule 12's NMR training for a team (see `nmr_training`)."""
    return nmr_training([trainable_levels(p) for p in team.players], team.training_points)


def training_points_earned(
    config: SeasonConfig, matches_played: int, matches_won: int, sets_won: int
) -> int:
    """Rule 6: the TP a team gains "automatically each round based on the results", by the
    season configuration's rule: a fixed amount, plus amounts per match played (the TP
    "depend on the number of matches that are played"), per match won and per set won."""
    return (
        config.training_points_per_round
        + config.training_points_per_match_played * matches_played
        + config.training_points_per_match_won * matches_won
        + config.training_points_per_set_won * sets_won
    )
