"""Teams: generated rosters of 25 player cards, lineups of 10, and carry-over between matches.

Seed clauses: "GAME COMPONENTS" (about 25 cards a team: 11 skaters, 7 bikers, 7 catchers),
"GAME SETUP" (three bikers, four skaters, two catchers and an extra skater or catcher on the
track) and "Player Tables" (offense and defense columns drawn separately from the tables).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.rollerball2.cards import (
    BIKER,
    CATCHER,
    EXPERIENCES,
    ROOKIE,
    SKATER,
    STAR,
    VETERAN,
    PlayerCard,
    card_problems,
)
from rules.rollerball2.content import BIKER_SLOTS, EXTRA_SLOTS, SLOTS, load_content
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.scoresheet import CARRY_KILLED, Absence

BASE_SLOTS = tuple(slot for slot in SLOTS if slot not in EXTRA_SLOTS)  # nine on every lineup

# The average mix of a generated roster (25 players). Each team tilts it (see roster_makeup).
ROSTER_MAKEUP = {
    SKATER: {STAR: 3, VETERAN: 5, ROOKIE: 3},
    BIKER: {STAR: 2, VETERAN: 3, ROOKIE: 2},
    CATCHER: {STAR: 2, VETERAN: 3, ROOKIE: 2},
}
EXPERIENCE_RANK = {STAR: 0, VETERAN: 1, ROOKIE: 2}
# A team's tilt: -2 (a rebuilding club) .. +2 (a dynasty), middle ones the most common.
TEAM_TILTS = (-2, -1, -1, 0, 0, 0, 1, 1, 2)
# Team quality, read from the experience printed on its cards: STARs minus ROOKIEs.
QUALITY_LABELS = ("contender", "average", "underdog")
CONTENDER_MARGIN = 4  # at least 4 more STARs than ROOKIEs
UNDERDOG_MARGIN = -4  # at least 4 more ROOKIEs than STARs
MAX_ROSTER = 40  # the most cards a team may hold (an import is refused beyond it)
FULL_ROSTER = 25  # seed GAME COMPONENTS: "approximately 25 cards per team"; signings stop here

Lineup = dict[str, int | None]  # slot -> uniform number, None for an empty slot


@dataclass
class Roster:
    """A team: its cards and who is out of this match for reasons carried over from earlier ones."""

    team: str
    players: list[PlayerCard]
    absences: list[Absence] = field(default_factory=list)

    def card(self, number: int) -> PlayerCard:
        for player in self.players:
            if player.number == number:
                return player
        raise RollerballError(f"{self.team} has no player wearing #{number}.")

    def absent(self) -> set[int]:
        """Uniform numbers who may not play the next match (injured, banned or dead)."""
        return {absence.number for absence in self.absences}

    def gone_for_good(self) -> set[int]:
        """Uniform numbers who will never play again: killed, or banned for life."""
        return {
            absence.number
            for absence in self.absences
            if absence.kind == CARRY_KILLED or absence.length in ("killed", "lifetime")
        }

    def experience_mix(self) -> dict[str, int]:
        """How many STAR, VETERAN and ROOKIE cards the team holds among the players who can
        still play (the dead and the banned for life keep their cards but no longer count)."""
        gone = self.gone_for_good()
        mix: dict[str, int] = dict.fromkeys(EXPERIENCES, 0)
        for card in self.players:
            if card.number not in gone:
                mix[card.experience] += 1
        return mix

    @property
    def quality(self) -> str:
        """'contender', 'average' or 'underdog': STARs minus ROOKIEs among the players who can
        still play (experience_mix). Not a hidden rating: anyone counting the experience printed
        on the cards of the living reaches the same word."""
        mix = self.experience_mix()
        margin = mix[STAR] - mix[ROOKIE]
        if margin >= CONTENDER_MARGIN:
            return "contender"
        if margin <= UNDERDOG_MARGIN:
            return "underdog"
        return "average"


def _deal_column(rng: random.Random, counts: dict[str, int]) -> tuple[str, ...]:
    column = [action for action, count in counts.items() for _ in range(count)]
    rng.shuffle(column)
    return tuple(column)


def make_card(
    rng: random.Random, number: int, name: str, position: str, experience: str, team: str
) -> PlayerCard:
    """A new card from the player tables: one random row for the offense column and, separately,
    one for the defense column, dealt into the ten D10 faces in a random order."""
    content = load_content()
    offense_row = rng.choice(content.offense_tables[position][experience])
    defense_row = rng.choice(content.defense_tables[position][experience])
    return PlayerCard(
        number=number,
        name=name,
        position=position,
        experience=experience,
        team=team,
        offense=_deal_column(rng, offense_row),
        defense=_deal_column(rng, defense_row),
    )


def roster_makeup(rng: random.Random) -> dict[str, dict[str, int]]:
    """One team's experience mix per position (docs/rules/rollerball2.md, "Rosters": a flat mix
    made every team alike and left the experience-dependent cards dead). The team's tilt moves STARs
    and ROOKIEs in opposite directions at every position (two a step for the eleven skaters), and
    each position wobbles by one more; counts per position stay 11 / 7 / 7. A weak team fields
    ROOKIEs, a strong one STARs in every skater slot."""
    tilt = rng.choice(TEAM_TILTS)
    makeup = {}
    for position, base in ROSTER_MAKEUP.items():
        size = sum(base.values())
        shift = tilt * (size // 4)  # skaters (11) move two a step, bikers and catchers (7) one
        stars = min(max(base[STAR] + shift + rng.randint(-1, 1), 0), size)
        rookies = min(max(base[ROOKIE] - shift + rng.randint(-1, 1), 0), size - stars)
        makeup[position] = {STAR: stars, VETERAN: size - stars - rookies, ROOKIE: rookies}
    return makeup


def new_player_name(rng: random.Random, used_names: set[str]) -> str:
    """A first name and surname from names.json not in `used_names` (which it then joins)."""
    content = load_content()
    while True:
        name = f"{rng.choice(content.first_names)} {rng.choice(content.surnames)}"
        if name not in used_names:
            used_names.add(name)
            return name


def generate_roster(seed: int | str, team_name: str) -> Roster:
    """25 named players (11 skaters, 7 bikers, 7 catchers) generated from `seed`, with the
    team's own experience mix (roster_makeup); the same seed and team name always give the
    same roster."""
    rng = random.Random(f"rollerball2-roster:{seed}:{team_name}")
    numbers = sorted(rng.sample(range(1, 100), 25))
    rng.shuffle(numbers)
    used_names: set[str] = set()
    players = []
    for position, by_experience in roster_makeup(rng).items():
        for experience in EXPERIENCES:
            for _ in range(by_experience[experience]):
                name = new_player_name(rng, used_names)
                number = numbers.pop()
                players.append(make_card(rng, number, name, position, experience, team_name))
    players.sort(key=lambda card: card.number)
    return Roster(team=team_name, players=players)


def roster_problems(roster: Roster, *, cards_checked: bool = False) -> list[str]:
    """Everything wrong with a roster, for people: every card against the seed's card rules
    (cards.card_problems, the same rules the player tables follow; not again when
    `cards_checked`), unique uniform numbers, 1 to MAX_ROSTER players, absences only for
    players on the roster."""
    problems = []
    if not roster.team.strip():
        problems.append("The team has no name.")
    if not 1 <= len(roster.players) <= MAX_ROSTER:
        problems.append(f"A roster holds 1 to {MAX_ROSTER} players, not {len(roster.players)}.")
    seen: set[int] = set()
    for card in roster.players:
        if not cards_checked:
            problems.extend(card_problems(card))
        if card.number in seen:
            problems.append(f"#{card.number} is worn twice.")
        seen.add(card.number)
    for absence in roster.absences:
        if absence.number not in seen:
            problems.append(f"An absence names #{absence.number}, who is not on the roster.")
    return problems


def validate_roster(roster: Roster, *, cards_checked: bool = False) -> None:
    """Raise RollerballError listing every problem (roster_problems) unless the roster is sound."""
    problems = roster_problems(roster, cards_checked=cards_checked)
    if problems:
        raise RollerballError(f"{roster.team or 'Roster'}: " + " ".join(problems))


def _best(candidates: list[PlayerCard]) -> PlayerCard | None:
    if not candidates:
        return None
    return min(candidates, key=lambda card: (EXPERIENCE_RANK[card.experience], card.number))


def default_lineup(roster: Roster) -> Lineup:
    """The ten players a coach would start: the most experienced available at each position,
    the extra slot to the best remaining skater or catcher (skater on a tie). Seed: "If, due to
    injury, you must place a skater in Catcher 1 or 2" -- a short-handed catcher slot takes a
    skater; a slot nobody can fill stays empty (None)."""
    absent = roster.absent()
    pool = [card for card in roster.players if card.number not in absent]
    lineup: Lineup = {}

    def take(slot: str, positions: tuple[str, ...]) -> None:
        for position in positions:
            best = _best([card for card in pool if card.position == position])
            if best is not None:
                pool.remove(best)
                lineup[slot] = best.number
                return
        lineup[slot] = None

    for slot in BIKER_SLOTS:
        take(slot, (BIKER,))
    for slot in ("Catcher1", "Catcher2"):
        take(slot, (CATCHER, SKATER))
    for slot in ("Skater1", "Skater2", "Skater3", "Skater4"):
        take(slot, (SKATER, CATCHER))
    best_skater = _best([card for card in pool if card.position == SKATER])
    best_catcher = _best([card for card in pool if card.position == CATCHER])
    if best_catcher is not None and (
        best_skater is None
        or EXPERIENCE_RANK[best_catcher.experience] < EXPERIENCE_RANK[best_skater.experience]
    ):
        take("Catcher3", (CATCHER,))
    else:
        take("Skater5", (SKATER, CATCHER))
    return lineup


@dataclass(frozen=True)
class LineupChange:
    """A slot of the saved line-up whose player may not play this match, and who plays it
    instead (None: nobody fit is left for it, and the slot stays empty)."""

    slot: str
    out: int | None
    replacement: int | None


def _slot_order(slot: str, card: PlayerCard) -> tuple[bool, int, int]:
    """The default coach's order for filling `slot`: its own position first, then STAR,
    VETERAN, ROOKIE, then the lower number."""
    own = BIKER if slot in BIKER_SLOTS else CATCHER if slot.startswith("Catcher") else SKATER
    return (card.position != own, EXPERIENCE_RANK[card.experience], card.number)


def match_lineup(roster: Roster, saved: Lineup | None) -> tuple[Lineup, list[LineupChange]]:
    """The line-up a match plays from the coach's saved one (None: the default line-up).
    Ruling (docs/rules/rollerball2.md, "Line-ups"): a saved player who may not play this match
    (injured, banned, dead, no longer on the roster, or not fit for his slot) is replaced by the
    default replacement, the best fit player on the bench for that slot in the default coach's
    order; every other slot plays as saved, and the saved line-up itself is kept (he returns to
    it when fit). A saved line-up without the ten slots is replaced by the default one whole."""
    if saved is None:
        return default_lineup(roster), []
    extras = [slot for slot in EXTRA_SLOTS if slot in saved]
    if len(extras) != 1 or set(saved) != set(BASE_SLOTS) | set(extras):
        fresh = default_lineup(roster)
        return fresh, [
            LineupChange(slot, saved.get(slot), fresh[slot])
            for slot in fresh
            if saved.get(slot) != fresh[slot]
        ]
    numbers = {card.number for card in roster.players}
    absent = roster.absent()
    lineup: Lineup = {}
    changes: list[LineupChange] = []
    seen: set[int] = set()
    gaps = []
    for slot in SLOTS:
        if slot not in saved:
            continue
        number = saved[slot]
        playable = number is None or (
            number in numbers
            and number not in absent
            and number not in seen
            and fits_slot(roster.card(number).position, slot)
        )
        if playable:
            lineup[slot] = number
            if number is not None:
                seen.add(number)
        else:
            lineup[slot] = None
            gaps.append((slot, number))
    for slot, number in gaps:
        bench = [
            card
            for card in roster.players
            if card.number not in absent
            and card.number not in seen
            and fits_slot(card.position, slot)
        ]
        best = min(bench, key=lambda card: _slot_order(slot, card), default=None)
        lineup[slot] = best.number if best is not None else None
        if best is not None:
            seen.add(best.number)
        changes.append(LineupChange(slot, number, lineup[slot]))
    return {slot: lineup[slot] for slot in SLOTS if slot in lineup}, changes


def fits_slot(position: str, slot: str) -> bool:
    """Seed GAME SETUP: bikers ride in the biker slots and only there; skaters and catchers fill
    the others (a skater may stand in a catcher slot and a catcher in a skater slot)."""
    return (position == BIKER) == (slot in BIKER_SLOTS)


def validate_lineup(roster: Roster, lineup: Lineup) -> None:
    """Raise RollerballError unless `lineup` is a legal starting ten for `roster`."""
    extras = [slot for slot in EXTRA_SLOTS if slot in lineup]
    expected = set(BASE_SLOTS) | set(extras)
    if len(extras) != 1 or set(lineup) != expected:
        raise RollerballError(
            "A lineup has Biker1-3, Skater1-4, Catcher1-2 and one extra slot: Skater5 or Catcher3."
        )
    seen: set[int] = set()
    absent = roster.absent()
    for slot, number in lineup.items():
        if number is None:
            continue
        card = roster.card(number)
        if number in seen:
            raise RollerballError(f"#{number} {card.name} is in the lineup twice.")
        seen.add(number)
        if number in absent:
            raise RollerballError(f"#{number} {card.name} is not available for this match.")
        if not fits_slot(card.position, slot):
            raise RollerballError(
                f"{slot} cannot be played by #{number} {card.name}, a {card.position}: "
                "bikers ride in the biker slots and only there."
            )


def roster_after_match(roster: Roster, new_absences: list[Absence]) -> Roster:
    """The roster for the next match: counted absences tick down by the match just missed,
    season/lifetime/killed ones stay, and this match's new absences are added. Injuries and
    bans that outlast the match carry over in the team's roster (docs/rules/rollerball2.md, "The
    scoresheet and what carries over")."""
    kept = []
    for absence in roster.absences:
        if absence.matches is None:
            kept.append(absence)
        elif absence.matches > 1:
            kept.append(
                Absence(
                    number=absence.number,
                    kind=absence.kind,
                    length=absence.length,
                    matches=absence.matches - 1,
                    reason=absence.reason,
                )
            )
    return Roster(team=roster.team, players=list(roster.players), absences=kept + new_absences)


def roster_new_season(roster: Roster) -> Roster:
    """The roster at the start of a new season: season-long injuries and bans are over; lifetime
    bans, the dead and counted absences stay."""
    kept = [absence for absence in roster.absences if absence.length != "season"]
    return Roster(team=roster.team, players=list(roster.players), absences=kept)
