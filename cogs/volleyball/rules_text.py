"""`/volleyball rules`: how the game and the league work here, in a few short pages. The whole
rules page with every ruling is docs/rules/volleyball.md; these pages summarise it for a
manager in Discord (every game shows its rulings to its players)."""

from __future__ import annotations

RULES_PAGES: dict[str, str] = {
    "league": (
        "**Volleyball: the league** (Rien Kooy's play-by-e-mail game; the bot is the game master)\n"
        "- A league has seats; free seats are computer teams. Bring your own team with "
        "`/volleyball team create` (at least six players, NAME AGE OL DL; the season's player "
        "points per age, each level at least 1, at most 2:1, at most 24 points a player; "
        "`make_me_a_team:True` fills the form with a legal team that fields all five sets; "
        "six players tire out after set 3), or take over a computer team with "
        "`/volleyball take-seat`.\n"
        "- A round is two league matches (and a Galaxy Cup match in cup rounds). Send your "
        "orders before the deadline; they may be sent in pieces and changed until then. The "
        "league's card in the results channel shows the deadline and who has sent orders, with "
        "buttons: Send orders, Edit with menus, Repeat last orders (last round's line-ups for "
        "this round, adjusted to your team as it is) and My team.\n"
        "- At the deadline the bot plays the round: the results channel gets one post with the "
        "scores and the news, one phone screen, its buttons showing every set and who played, "
        "the table and the cup (the ones that fit are images below it); you get your "
        "private team sheet by DM (the result, your money and what to do next first).\n"
        "- No orders: your team plays the NMR line-up (your last line-up without points) and "
        "makes no bids (rule 12). The card says the league's policies: after so many rounds "
        "in a row without orders the computer takes the team (`/volleyball take-seat` takes it "
        "back), and whether your vacation (`/settings vacation`) puts the deadline off.\n"
        "- Table: 2 points a win; then set difference, rally-point difference, sets won."
    ),
    "orders": (
        "**Orders: one form per match** (`/volleyball orders send` fills it in for you with "
        "every set and your home advantage; `/volleyball orders edit` builds the line-ups with "
        "menus; a form with a mistake keeps your text)\n"
        "```\nVOLLEYBALL\nHOMEPLAY            (or OUTBOUND: as the schedule says)\n"
        "MATCH NO.: 1\nAGAINST: Blue Whales\nSET 1\nAnna Visser 1       (name, position code)\n"
        "... six players a set\nTACTICAL CONCEPT: 2\nRISK FACTOR: 7\n"
        "HOME ADV. Pts. OL: 10 DL: 4\nDEVOTION Pts. OL: 6 DL: 0\nSPECIAL Pts. OL: 0 DL: 0\n"
        "SET 2 ... SET 5\n```\n"
        "Positions: 1 setter (OL +20 %, DL -2), 2 attacker (OL +10 %, DL -1), 3 allround, "
        "4 defender (DL +10 %, OL -1), 5 blocker (DL +20 %, OL -2); at most two setters and two "
        "blockers. Concepts: 1 AC (5 setters/attackers, risk 9-12), 2 OC (4, risk 6-9), 3 NC "
        "(risk 3-9), 4 DC (4 blockers/defenders, risk 3-6), 5 WC (5, risk 0-3). A player tires "
        "5 points a set played and gets 3 back a set rested. Home advantage for home matches "
        "only; devotion at most 30 a match (each 3 points a 3 % risk of half levels next match), "
        "special points at most 40 a match from the season's pool."
    ),
    "lines": (
        "**Order lines** (in the order lines box, an upload, or a command):\n"
        "```\nTRAIN: Anna Visser OL        (OL, DL or OL DL: a point each)\n"
        "SPONSOR: Champion Cola\nSCOUT: Nina Nieuw\nSPY: Blue Whales match 2 detail\n"
        "SELL: Piet Put min 300\nBID: Piet Put from Red Rockets 350\n"
        "GM BID: R2P1 250 name Jan Jansen\nCONTRACT: Ilse Muur 150 for 3 rounds\n"
        "AGEING: Anna Visser OL 3     (between seasons)\n```\n"
        "`LABEL: none` clears that kind of order. A message replaces the kinds of order it "
        "contains and keeps the rest on file; `/volleyball bid`, `sell` and `spy` add one order "
        "to those on file. Orders with a problem are refused whole, with every problem listed, "
        "and what was on file stays. `/volleyball market` lists what is open for bids."
    ),
    "rulings": (
        "**Rulings** (where the seed is unclear; all of them, with the clause each interprets, "
        "are in docs/rules/volleyball.md)\n"
        "- A rally: the serving side scores with its scoring chance (OL / (OL + their DL), then "
        "the concepts' ARF), else the serve passes; sets to 15 by two.\n"
        "- What the public sees: scores by set and who played. Totals, concepts, risk, points "
        "and levels are your own, and sold by spy reports ($300, $550 with levels).\n"
        "- A form's AGAINST and HOMEPLAY/OUTBOUND must match the schedule for its MATCH NO.; a "
        "match without a line-up plays the NMR line-up (you are warned when you send).\n"
        "- Deadlines: after a round the next deadline is the schedule's next one at least half "
        "a period after now and the deadline passed, so an early, late or extended round does "
        "not shorten the next. A pause gives the round back the time it had left.\n"
        "- Orders are checked again when the round is played; orders that no longer fit (a "
        "player sold meanwhile) are not played, your team plays the NMR line-up and your "
        "sheet says why."
    ),
}
TOPICS = tuple(RULES_PAGES)
