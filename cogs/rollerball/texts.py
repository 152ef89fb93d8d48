"""What Rollerball players read on Discord: what to type at each step, the move form, the hand
view, the rules summary. Plain functions of the engine's state (a view where it is private)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rules.rollerball import GameState, card_name, kind_of, view_for
from ui.formats import plural, possessive

# What may be typed at each step of the game (next_step(state).kind), said in every refusal.
FORMS = {
    "bid": "`bid 2 up-move energiser` (name each card you bid; `up-move energiser` is enough) "
    "or `bid 0`",
    "rebid": "`bid 1 replacer` (add cards so your total beats the highest bid) or `pass` "
    "(drop out)",
    "workman": "`workman e4` (any square, the centre too)",
    "ball": "`ball d1` (a track square with no base or workman)",
    "card": "`place up-move e2-e3` (a card from your hand on two free squares; a splitter's Y "
    "square first) or `pass` (place no more cards)",
    "score": "`bank` (a victory point) or `keep` (into your hand)",
    "take": "`take e2` (a card on the board) or `pass`",
    "discard": "`discard energiser` (a card from your hand)",
}
BASE_FORMS = {
    True: "`base c3` (a free corner square of rings 1-3: the small triangle on the board)",
    False: "`base c3` (a free track square outside the inner two rings)",
}
MOVE_FORMS = {
    True: "`move c3 d3`, `move d3` or `stay` (up to 3 squares orthogonally, never onto or "
    "through a ball)",
    False: "`move c3 d3`, `move d3` or `stay` (up to 3 squares in any direction, never onto or "
    "through a ball)",
}
ACTION_FORMS = {
    True: "`build up-move e2-e3` (a card from your hand, one square under your workman), "
    "`blow-up replacer` (discard a card to blow up the card under him), `replace down-move "
    "e2-e3` (play a Replacer on the card under him) or `pass`",
    False: "`build up-move e2-e3` (a card from your hand, one square under your workman), "
    "`replace down-move e2-e3` (play a Replacer on the card under him) or `pass`",
}


def forms(state: GameState, kind: str) -> str:
    """What may be typed now (rules/rollerball/face.py completes a short answer)."""
    later = state.settings.later
    if kind == "base":
        return BASE_FORMS[later]
    if kind == "move":
        return MOVE_FORMS[later]
    if kind == "action":
        return ACTION_FORMS[later]
    return FORMS.get(kind, "nothing: the game is over")


# ---- names -------------------------------------------------------------------------------------

SEAT_NAME = re.compile(r"\bPlayer ([1-6])\b('s\b)?")


def with_names(text: str, names: dict[int, str]) -> str:
    """The engine says "Player 2" ("Player 2's"); players read the name that seat has (and
    its possessive: "Chris' workman")."""

    def named(found: re.Match[str]) -> str:
        name = names.get(int(found[1]) - 1)
        if name is None:
            return found[0]
        return possessive(name) if found[2] else name

    return SEAT_NAME.sub(named, text)


def cards_text(cards: list[int]) -> str:
    """ "Up Move ×2, Energiser" for a list of card ids."""
    counts = Counter(card_name(kind_of(card)) for card in cards)
    return ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in sorted(counts.items()))


def typed_cards(cards: list[int]) -> str:
    """ "replacer split-up split-up": the cards as a player types them, each named (a bid
    names every card it puts down)."""
    return " ".join(sorted(kind_of(card) for card in cards))


# ---- the private view ------------------------------------------------------------------------------


def hand_text(
    state: GameState,
    seat: int,
    names: dict[int, str],
    *,
    stand_in: bool = False,
    resigned: bool = False,
    new: Sequence[int] = (),
    decision: str | None = None,
) -> str:
    """What only `seat` may see, from its view: its hand (and the cards `new` in it), its banked
    cards, its secret bid, the card it just earned, and what it decides now (`decision`). Of the
    others nothing: the board shows their counts."""
    view = view_for(state, seat)
    hand = view.hands[seat]
    limit = view.settings.hand_limit
    lines = [
        f"**Your hand** ({names.get(seat, f'Player {seat + 1}')}, player {seat + 1}): "
        f"{cards_text(hand) or 'no cards'} ({plural(len(hand)):card}; you draw up to "
        f"{limit} on your turn)."
    ]
    if new:
        lines.append(f"New since you last used your panel: **{cards_text(list(new))}**.")
    if hand:
        lines.append(f"To type them: `{typed_cards(hand)}`.")
    banked = view.victory[seat]
    lines.append(
        f"Victory points: {len(banked)} of {view.settings.target_vp}"
        + (f" (banked: {cards_text(banked)})." if banked else ".")
    )
    if view.phase == "bid":
        bid = view.bids[seat]
        if bid is None:
            lines.append("Your secret bid: not made yet.")
        else:
            lines.append(
                f"Your secret bid: {plural(len(bid)):card}"
                + (f" ({cards_text(bid)})" if bid else "")
                + ". The others see only that you have bid."
            )
    for decision_now in view.pending:
        if (
            decision_now.seat == seat
            and decision_now.kind == "score"
            and decision_now.card is not None
        ):
            lines.append(f"The card you earned: **{card_name(kind_of(decision_now.card))}**.")
            break
    if resigned:
        lines.append("You resigned: a computer plays your seat to the end.")
    elif stand_in:
        lines.append(
            "A computer plays your seat for now: press **Take my seat back** to play again."
        )
    elif view.over:
        lines.append("The game is over.")
    elif decision is not None:
        lines.append(f"**Your decision:** {decision}")
    else:
        lines.append(
            "Nothing to pick here now: what everyone sees (squares, the workman's move) is "
            "picked on the card in the thread, which shows whose turn it is."
        )
    return "\n".join(lines)
