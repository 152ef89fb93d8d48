"""Write data/rollerball2/facs.json: the 60 Fast Action Cards of the bot's Rollerball II deck.

The deck is authored here as six lists of section writers (one per FAC section) in the spirit of
the seed's sample card; card N takes the N-th entry of each list, so every card has all six
sections, each with its text and the structured effect the engine runs. Edit the wording or the
mix here, run `python data/rollerball2/make_facs.py`, and the loader re-validates the JSON.
facs.json is the content the bot reads; this script is only the authoring tool.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "facs.json"


def cond(who, experiences=(), positions=()):
    c = {"who": who}
    if experiences:
        c["experiences"] = list(experiences)
    if positions:
        c["positions"] = list(positions)
    return c


def eff(flow, ops=(), when=None, otherwise=None, who="", defender=""):
    f = {"kind": flow}
    if who:
        f["who"] = who
    if defender:
        f["defender"] = defender
    e = {"ops": list(ops), "flow": f}
    if when is not None:
        e["when"] = when
        e["otherwise"] = otherwise
    return e


def pen(who, length):
    return {"kind": "penalty", "who": who, "length": length}


def inj(who, length, note, by="", matches=0):
    op = {"kind": "injury", "who": who, "length": length, "note": note}
    if by:
        op["by"] = by
    if matches:
        op["matches"] = matches
    return op


def ban(who, length, matches=0):
    op = {"kind": "ban", "who": who, "length": length}
    if matches:
        op["matches"] = matches
    return op


def rest(who, length):
    return {"kind": "rest", "who": who, "length": length}


def goal(who, assist=""):
    op = {"kind": "goal", "who": who}
    if assist:
        op["assist"] = assist
    return op


# --- ACTION (60) -----------------------------------------------------------------------------
# "offense" is the team in control. Mostly a named player takes control and rolls, depending on
# his experience (the seed: "The game will favor STAR players").

SKATER_SLOTS = ["Skater1", "Skater2", "Skater3", "Skater4"]


def action_sections():
    out = []
    star_only = [("Skater1", "star"), ("Skater2", "star"), ("Skater3", "star"), ("Skater4", "star")]
    for slot, exp in star_only * 2:
        out.append(
            (
                f"{slot} has the ball if he is a STAR (roll on his card vs his man). Anyone less "
                f"gets his pocket picked: the defense takes control (pick new action).",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    when=cond(f"offense.{slot}", [exp]),
                    otherwise=eff("turnover"),
                ),
            )
        )
    for slot in SKATER_SLOTS * 2:
        out.append(
            (
                f"STAR or VETERAN {slot} gathers the ball in stride (roll on his card vs his "
                f"opponent). A ROOKIE in {slot} over-skates it and the team in control must "
                f"pick a new action.",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    when=cond(f"offense.{slot}", ["star", "veteran"]),
                    otherwise=eff("retain"),
                ),
            )
        )
    for slot in ["Skater1", "Skater2", "Skater3", "Skater4"]:
        out.append(
            (
                f"{slot} takes a hand-off from the ball handler and is in control (roll vs his "
                f"opponent). If {slot} is empty, the handler keeps it (pick new action).",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    when=cond(f"offense.{slot}"),
                    otherwise=eff("retain"),
                ),
            )
        )
    shadows = [
        ("Skater1", "Biker2"),
        ("Skater3", "Biker1"),
        ("Skater2", "Biker3"),
        ("Skater4", "Biker2"),
    ]
    for slot, biker in shadows:
        out.append(
            (
                f"{slot} in control, but defensive {biker} rides him down the rail: roll on "
                f"{slot}'s card vs {biker} instead of his usual opponent. If {slot} is empty, the "
                f"team in control picks a new action.",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    defender=f"defense.{biker}",
                    when=cond(f"offense.{slot}"),
                    otherwise=eff("retain"),
                ),
            )
        )
    for slot in ["Skater2", "Skater4", "Skater1", "Skater3"]:
        out.append(
            (
                f"Interception! A STAR or VETERAN defensive {slot} reads the play and takes "
                f"control (roll on his card vs his opponent). Otherwise the team in control "
                f"keeps the ball (pick new action).",
                eff(
                    "control",
                    who=f"defense.{slot}",
                    when=cond(f"defense.{slot}", ["star", "veteran"]),
                    otherwise=eff("retain"),
                ),
            )
        )
    for slot in ["Skater4", "Skater2"]:
        out.append(
            (
                f"A STAR or VETERAN defensive {slot} steps in front of the ball handler and "
                f"strips him: defensive team now in control (pick new action). A ROOKIE defender "
                f"is burned and the ball handler drives on (roll on his card vs his opponent).",
                eff(
                    "turnover",
                    when=cond(f"defense.{slot}", ["star", "veteran"]),
                    otherwise=eff("control", who="handler"),
                ),
            )
        )
    for slot in ["Skater3", "Skater1"]:
        out.append(
            (
                f"Breakaway! A STAR {slot} races clear of the pack with nobody between him and "
                f"the goal: he is in control (roll on his card vs [Position Empty]). A VETERAN "
                f"there is in control (roll vs his opponent); a ROOKIE loses the ball to the "
                f"defense.",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    defender="open",
                    when=cond(f"offense.{slot}", ["star"]),
                    otherwise=eff(
                        "control",
                        who=f"offense.{slot}",
                        when=cond(f"offense.{slot}", ["veteran"]),
                        otherwise=eff("turnover"),
                    ),
                ),
            )
        )
    for slot in ["Skater2", "Skater4", "Skater3", "Skater1"]:
        out.append(
            (
                f"{slot} cuts to the inside lane and takes control (roll vs his opponent); a ROOKIE "
                f"in {slot} panics under pressure and the defense takes the ball.",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    when=cond(f"offense.{slot}", ["star", "veteran"]),
                    otherwise=eff("turnover"),
                ),
            )
        )
    for slot in ["Skater4", "Skater1", "Skater2", "Skater3"]:
        out.append(
            (
                f"A VETERAN {slot} slows the game down and is in control (roll vs his opponent). "
                f"Anyone else in {slot} is ignored: the team in control picks a new action.",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    when=cond(f"offense.{slot}", ["veteran"]),
                    otherwise=eff("retain"),
                ),
            )
        )
    for _ in range(6):
        out.append(
            (
                "Ball handler stays in control and drives for the goal (roll on his card vs his "
                "opponent).",
                eff("control", who="handler"),
            )
        )
    for biker in ["Biker1", "Biker2", "Biker3", "Biker1"]:
        out.append(
            (
                f"Ball handler drives for the goal, but defensive {biker} cuts across the banking "
                f"to meet him: roll on the handler's card vs {biker}.",
                eff("control", who="handler", defender=f"defense.{biker}"),
            )
        )
    for slot in ["Catcher1", "Catcher2"]:
        out.append(
            (
                f"{slot} calls for the ball and carries it up the track (roll on his card vs the "
                f"opposing {slot}). If {slot} is empty, the ball handler keeps it (pick new "
                f"action).",
                eff(
                    "control",
                    who=f"offense.{slot}",
                    when=cond(f"offense.{slot}"),
                    otherwise=eff("retain"),
                ),
            )
        )
    out.append(
        (
            "Ball handler is pinned against the rail by the pack; the ball squirts into the gutter "
            "(ball fires).",
            eff("fire"),
        )
    )
    out.append(
        (
            "Ball handler loses his footing on the banked curve; the defense pounces and takes "
            "control (pick new action).",
            eff("turnover"),
        )
    )
    out.append(
        (
            "Defensive Skater2 hooks the ball handler's skate: three-minute penalty. The ball is "
            "dead and fires again.",
            eff("fire", ops=[pen("defense.Skater2", "3min")]),
        )
    )
    out.append(
        (
            "Defensive Biker1 cuts across the infield illegally: three-minute penalty. The ball "
            "is dead and fires again.",
            eff("fire", ops=[pen("defense.Biker1", "3min")]),
        )
    )
    out.append(
        (
            "Random skater or catcher of the defense (Random Player chart) is sent off for "
            "holding: three minutes. The team in control keeps the ball (pick new action).",
            eff("retain", ops=[pen("defense.random_skater_catcher", "3min")]),
        )
    )
    out.append(
        (
            "STAR ball handler shakes off two checks and is in control (roll vs his opponent). "
            "Any other handler is swarmed and the defense takes control.",
            eff(
                "control", who="handler", when=cond("handler", ["star"]), otherwise=eff("turnover")
            ),
        )
    )
    out.append(
        (
            "The extra skater (Skater5) slips in behind the defense and is in control (roll vs "
            "his opponent). If there is no Skater5, the team in control picks a new action.",
            eff(
                "control",
                who="offense.Skater5",
                when=cond("offense.Skater5"),
                otherwise=eff("retain"),
            ),
        )
    )
    out.append(
        (
            "Defense collapses on the ball: a STAR or VETERAN defensive Catcher1 smothers it and "
            "is in control (roll vs his opponent). Otherwise the ball rolls into the gutter.",
            eff(
                "control",
                who="defense.Catcher1",
                when=cond("defense.Catcher1", ["star", "veteran"]),
                otherwise=eff("fire"),
            ),
        )
    )
    assert len(out) == 60, len(out)
    return out


# --- BIKER ID (60) ---------------------------------------------------------------------------


def biker_sections():
    out = []
    for n in [1, 2, 3] * 12:
        out.append((f"Biker{n}", eff("tow", who=f"offense.Biker{n}")))
    for n in [1, 2, 3] * 4:
        out.append(
            (
                f"Biker{n}. If he is a ROOKIE he misses the hand-off and the ball is knocked "
                f"loose: defensive team now in control (pick new action).",
                eff(
                    "tow",
                    who=f"offense.Biker{n}",
                    when=cond(f"offense.Biker{n}", ["star", "veteran"]),
                    otherwise=eff("turnover"),
                ),
            )
        )
    for n, m in [(1, 2), (2, 3), (3, 1), (1, 3), (2, 1), (3, 2)]:
        out.append(
            (
                f"Biker{n}; if Biker{n} is off the track, Biker{m} swings in.",
                eff(
                    "tow",
                    who=f"offense.Biker{n}",
                    when=cond(f"offense.Biker{n}"),
                    otherwise=eff("tow", who=f"offense.Biker{m}"),
                ),
            )
        )
    for n in [2, 3, 1]:
        out.append(
            (
                f"Biker{n} guns it and the ball handler loses his grip: he tumbles and the ball "
                f"rolls into the gutter.",
                eff("fire"),
            )
        )
    for n, m in [(1, 3), (3, 2), (2, 1)]:
        out.append(
            (
                f"A STAR ball handler waves in Biker{n}; anyone else has to settle for Biker{m}.",
                eff(
                    "tow",
                    who=f"offense.Biker{n}",
                    when=cond("handler", ["star"]),
                    otherwise=eff("tow", who=f"offense.Biker{m}"),
                ),
            )
        )
    assert len(out) == 60, len(out)
    return out


# --- ATTACK (SKATER/CATCHER) (60): the attacker is a defensive skater or catcher ---------------


def attack_skater_sections():
    t = []
    t.append(
        (
            "A VETERAN attacker drives a forearm into the player's face: three minutes, and the "
            "player is done for the match. A STAR or ROOKIE attacker only jars the ball loose and "
            "it trickles into the gutter.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "3min"),
                    inj("victim", "match", "smashed face", by="attacker"),
                ],
                when=cond("attacker", ["veteran"]),
                otherwise=eff("fire"),
            ),
        )
    )
    t.append(
        (
            "Clean shoulder check. The ball handler rides it out and keeps control (pick new action).",
            eff("retain"),
        )
    )
    t.append(
        (
            "Elbow to the throat: attacker penalized three minutes. Ball fires again.",
            eff("fire", ops=[pen("attacker", "3min")]),
        )
    )
    t.append(
        (
            "Crunching hit knocks the ball loose; attacker's team now in control (pick new action).",
            eff("turnover"),
        )
    )
    t.append(
        (
            "Player slammed to the track, wind knocked out of him: out until the next new ball. "
            "No penalty; ball rolls into the gutter.",
            eff("fire", ops=[inj("victim", "new_ball", "winded")]),
        )
    )
    t.append(
        (
            "Attacker rakes a studded glove across the player's face: five minutes. Player out "
            "for the rest of the period with a cut over the eye.",
            eff("fire", ops=[pen("attacker", "5min"), inj("victim", "period", "cut over the eye")]),
        )
    )
    t.append(
        (
            "A ROOKIE attacker misses and crashes into the rail: out until the next new ball, and "
            "the team in control keeps the ball. A STAR or VETERAN strips the ball: defense in "
            "control.",
            eff(
                "turnover",
                when=cond("attacker", ["star", "veteran"]),
                otherwise=eff("retain", ops=[inj("attacker", "new_ball", "dazed")]),
            ),
        )
    )
    t.append(
        (
            "Knee-on-knee. Player carried off; his coach rolls D10 for the number of matches he "
            "misses (a 0 means his career and his life are over). Attacker three minutes.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "3min"),
                    inj("victim", "d10_matches", "shattered knee", by="attacker"),
                ],
            ),
        )
    )
    t.append(
        (
            "Attacker swings his fist like a club: ejected for the rest of the match. Player's jaw "
            "broken: out for two matches.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "match"),
                    inj("victim", "matches", "broken jaw", by="attacker", matches=2),
                ],
            ),
        )
    )
    t.append(
        (
            "Both men drop their gloves and trade punches: three minutes each. Ball fires again.",
            eff("fire", ops=[pen("attacker", "3min"), pen("victim", "3min")]),
        )
    )
    t.append(
        (
            "STAR attacker drives the player head-first into the wall and no penalty is called. "
            "His coach rolls D10 for the matches he misses; a 0 means he is dead. Any other "
            "attacker: 10-minute misconduct for spearing; player out until the next new ball.",
            eff(
                "fire",
                ops=[
                    inj("victim", "d10_matches", "driven head-first into the wall", by="attacker")
                ],
                when=cond("attacker", ["star"]),
                otherwise=eff(
                    "fire",
                    ops=[pen("attacker", "10min"), inj("victim", "new_ball", "speared")],
                ),
            ),
        )
    )
    t.append(
        (
            "Hit sends the player over the rail into the crowd: concussion, out for the rest of "
            "the match. Attacker three minutes for charging.",
            eff(
                "fire",
                ops=[pen("attacker", "3min"), inj("victim", "match", "concussion", by="attacker")],
            ),
        )
    )
    t.append(
        (
            "Attacker hooks the player's arm: the ball pops loose and the attacker's team takes "
            "control. No call.",
            eff("turnover"),
        )
    )
    t.append(
        (
            "Late hit after the ball is gone: five minutes for the attacker. Player shaken up, out "
            "until the next new ball.",
            eff("fire", ops=[pen("attacker", "5min"), inj("victim", "new_ball", "shaken up")]),
        )
    )
    t.append(
        (
            "Player sees the hit coming and ducks it; the attacker sails past. Team in control "
            "keeps the ball (pick new action).",
            eff("retain"),
        )
    )
    t.append(
        (
            "Attacker spears the player in the ribs: cracked ribs, out for the rest of the "
            "period. Five minutes for spearing.",
            eff("fire", ops=[pen("attacker", "5min"), inj("victim", "period", "cracked ribs")]),
        )
    )
    t.append(
        (
            "A STAR or VETERAN player spins away from the hit and keeps the ball (pick new "
            "action). A ROOKIE is flattened and coughs it up: attacker's team in control.",
            eff(
                "retain",
                when=cond("victim", ["star", "veteran"]),
                otherwise=eff("turnover"),
            ),
        )
    )
    t.append(
        (
            "Attacker grabs the player's helmet and twists: neck injury, out for the season. No "
            "penalty; the referee was watching the crowd.",
            eff("fire", ops=[inj("victim", "season", "neck injury", by="attacker")]),
        )
    )
    t.append(
        (
            "Player and attacker crash together in a heap: both out until the next new ball.",
            eff(
                "fire",
                ops=[inj("victim", "new_ball", "crashed"), inj("attacker", "new_ball", "crashed")],
            ),
        )
    )
    t.append(
        (
            "Attacker argues the call and earns a 10-minute misconduct. Play goes on: the team in "
            "control keeps the ball against a man short (pick new action).",
            eff("retain", ops=[pen("attacker", "10min")]),
        )
    )
    # Each of these 20 results is printed on three cards (as in any FAC deck, results repeat).
    return t * 3


# --- ATTACK (BIKER) (60): the attacker is a defensive biker ------------------------------------


def attack_biker_sections():
    t = []
    t.append(
        (
            "The attacking biker hurls a spiked glove at the player: three minutes. The player "
            "limps off for repairs until the next new ball.",
            eff("fire", ops=[pen("attacker", "3min"), inj("victim", "new_ball", "spiked glove")]),
        )
    )
    t.append(
        (
            "Biker runs the player down from behind: broken leg, out for D10 matches (a 0 kills "
            "him). Five minutes for the biker.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "5min"),
                    inj("victim", "d10_matches", "broken leg", by="attacker"),
                ],
            ),
        )
    )
    t.append(
        (
            "Biker clips the player with his handlebar: the ball is knocked loose and the biker's "
            "team takes control.",
            eff("turnover"),
        )
    )
    t.append(
        (
            "Biker swings a chain, misses, and lays his bike down: out until the next new ball. "
            "The team in control keeps the ball.",
            eff("retain", ops=[inj("attacker", "new_ball", "laid his bike down")]),
        )
    )
    t.append(
        (
            "Biker and player tangle and come up swinging: three minutes each.",
            eff("fire", ops=[pen("attacker", "3min"), pen("victim", "3min")]),
        )
    )
    t.append(
        (
            "Biker fishtails past without contact. Team in control keeps the ball (pick new action).",
            eff("retain"),
        )
    )
    t.append(
        (
            "Biker rams a ROOKIE into the wall at full throttle: killed. A STAR or VETERAN rolls "
            "with it and is only out until the next new ball. Biker five minutes.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "5min"),
                    inj("victim", "killed", "killed by a bike at full throttle", by="attacker"),
                ],
                when=cond("victim", ["rookie"]),
                otherwise=eff(
                    "fire", ops=[pen("attacker", "5min"), inj("victim", "new_ball", "rammed")]
                ),
            ),
        )
    )
    t.append(
        (
            "Biker drags the player by the collar for half a lap: out for the rest of the match "
            "with torn shoulder ligaments. Ten-minute misconduct for the biker.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "10min"),
                    inj("victim", "match", "torn shoulder", by="attacker"),
                ],
            ),
        )
    )
    t.append(
        (
            "STAR or VETERAN biker knocks the ball free and his team takes control. A ROOKIE "
            "biker is called for tripping: three minutes.",
            eff(
                "turnover",
                when=cond("attacker", ["star", "veteran"]),
                otherwise=eff("fire", ops=[pen("attacker", "3min")]),
            ),
        )
    )
    t.append(
        (
            "Biker rides over the player's hand: broken fingers, out for the rest of the period. "
            "No call.",
            eff("fire", ops=[inj("victim", "period", "broken fingers")]),
        )
    )
    t.append(
        (
            "Biker ejected for the match for deliberately driving into a fallen player, who is "
            "out for three matches with cracked ribs.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "match"),
                    inj("victim", "matches", "cracked ribs", by="attacker", matches=3),
                ],
            ),
        )
    )
    t.append(
        (
            "Biker's hit sends the player spinning, but he keeps the ball (pick new action).",
            eff("retain"),
        )
    )
    t.append(
        (
            "Biker loops a chain around the player's leg (a skate or a biker's boot): twisted "
            "ankle, out for the rest of the period. Three minutes for the biker.",
            eff("fire", ops=[pen("attacker", "3min"), inj("victim", "period", "twisted ankle")]),
        )
    )
    t.append(
        (
            "A ROOKIE biker is knocked off his machine by his own target: he is out until the "
            "next new ball and the team in control keeps the ball. A STAR or VETERAN biker bowls "
            "the player over and the ball rolls into the gutter.",
            eff(
                "fire",
                when=cond("attacker", ["star", "veteran"]),
                otherwise=eff("retain", ops=[inj("attacker", "new_ball", "thrown from his bike")]),
            ),
        )
    )
    t.append(
        (
            "Biker crushes the player against the rail: fractured pelvis, out for the season. "
            "The biker is ejected for the match.",
            eff(
                "fire",
                ops=[
                    pen("attacker", "match"),
                    inj("victim", "season", "fractured pelvis", by="attacker"),
                ],
            ),
        )
    )
    # Each of these 15 results is printed on four cards.
    return t * 4


# --- THE BALL FIRES (60) ---------------------------------------------------------------------


def fires_sections():
    out = []
    side_word = {"home": "Home", "away": "Visiting"}
    other = {"home": "away", "away": "home"}
    for side in ["home", "away"] * 4:
        for n in (1, 2):
            out.append(
                (
                    f"{side_word[side]} Catcher{n} catches it cleanly.",
                    eff("catch", who=f"{side}.Catcher{n}"),
                )
            )
    for side in ["home", "away"] * 3:
        for n in (1, 2):
            o = other[side]
            out.append(
                (
                    f"A STAR or VETERAN {side_word[side]} Catcher{n} snares the ball. A ROOKIE "
                    f"can't hold it and {side_word[o]} Catcher{n} scoops it up.",
                    eff(
                        "catch",
                        who=f"{side}.Catcher{n}",
                        when=cond(f"{side}.Catcher{n}", ["star", "veteran"]),
                        otherwise=eff("catch", who=f"{o}.Catcher{n}"),
                    ),
                )
            )
    for side in ["away", "home"] * 3:
        for n in (2, 1):
            out.append(
                (
                    f"{side_word[side]} Catcher{n} juggles the ball: a STAR or VETERAN hangs on, a "
                    f"ROOKIE lets it drop and it rolls into the gutter.",
                    eff(
                        "catch",
                        who=f"{side}.Catcher{n}",
                        when=cond(f"{side}.Catcher{n}", ["star", "veteran"]),
                        otherwise=eff("fire"),
                    ),
                )
            )
    for side in ["away", "home"] * 2:
        o = other[side]
        out.append(
            (
                f"The ball drops behind the play: a {side_word[side]} third catcher (Catcher3), if "
                f"there is one, gathers it; if not, the {side_word[o]} Catcher1 takes it.",
                eff(
                    "catch",
                    who=f"{side}.Catcher3",
                    when=cond(f"{side}.Catcher3", positions=["catcher"]),
                    otherwise=eff("catch", who=f"{o}.Catcher1"),
                ),
            )
        )
    for side in ["home", "away"] * 2:
        for n in (1, 2):
            out.append(
                (
                    f"Ball fired at over 170 MPH! A STAR {side_word[side]} Catcher{n} catches it. "
                    f"Anyone else is knocked flat (out until the next new ball) and the ball "
                    f"bounces into the gutter.",
                    eff(
                        "catch",
                        who=f"{side}.Catcher{n}",
                        when=cond(f"{side}.Catcher{n}", ["star"]),
                        otherwise=eff(
                            "fire",
                            ops=[inj(f"{side}.Catcher{n}", "new_ball", "knocked flat by the ball")],
                        ),
                    ),
                )
            )
    for side in ["home", "away"]:
        for n in (2, 3):
            out.append(
                (
                    f"The ball caroms off the rail and {side_word[side]} Skater{n} snags it on the "
                    f"bounce.",
                    eff("catch", who=f"{side}.Skater{n}"),
                )
            )
    for _ in range(4):
        out.append(("Misfire! The ball skitters along the gutter and is fired again.", eff("fire")))
    assert len(out) == 60, len(out)
    return out


# --- EVENT (60) ------------------------------------------------------------------------------


def event_sections():
    t = []
    t.append(
        (
            "A random player of the team in control (bikers included) takes out the least "
            "experienced defender with a cheap shot, and the defenders and the fans pile onto "
            "him. Each coach rolls D10: his man misses that many matches; a 0 and he is dead.",
            eff(
                "fire",
                ops=[
                    inj(
                        "defense.least_experienced",
                        "d10_matches",
                        "crippled by a dirty hit",
                        by="offense.random_player",
                    ),
                    inj("offense.random_player", "d10_matches", "beaten by players and fans"),
                ],
            ),
        )
    )
    t.append(
        (
            "Ball handler is gasping for air: forced to rest until the next new ball. The ball "
            "rolls into the gutter.",
            eff("fire", ops=[rest("handler", "new_ball")]),
        )
    )
    t.append(
        (
            "Match fixing uncovered! A random defending player (Random Player chart) is banned "
            "for life and marched off the track. Play goes on (team in control picks new action).",
            eff("retain", ops=[ban("defense.random_player", "lifetime")]),
        )
    )
    t.append(
        (
            "A bottle from the stands hits a random player of the team in control: out for the "
            "rest of the period. Ball fires again.",
            eff("fire", ops=[inj("offense.random_player", "period", "hit by a bottle")]),
        )
    )
    t.append(
        (
            "Bench-clearing brawl! The ball handler and his defender get five minutes each.",
            eff("fire", ops=[pen("handler", "5min"), pen("defender", "5min")]),
        )
    )
    t.append(
        (
            "The crowd roars the ball handler on: a STAR scores (GOAL). Anyone else is in control "
            "(roll vs his opponent).",
            eff(
                "fire",
                ops=[goal("handler")],
                when=cond("handler", ["star"]),
                otherwise=eff("control", who="handler"),
            ),
        )
    )
    t.append(
        (
            "Corporate executives in the box order both teams to play on. Nothing changes (team "
            "in control picks new action).",
            eff("retain"),
        )
    )
    t.append(
        (
            "Drug test results arrive: a random skater or catcher of the team in control is "
            "banned for the rest of the season.",
            eff("retain", ops=[ban("offense.random_skater_catcher", "season")]),
        )
    )
    t.append(
        (
            "Power failure in the arena! The lights come back and the ball is fired again.",
            eff("fire"),
        )
    )
    t.append(
        (
            "A random defender collapses from exhaustion: forced to rest for the rest of the "
            "period.",
            eff("retain", ops=[rest("defense.random_player", "period")]),
        )
    )
    t.append(
        (
            "Bribed referee hands a random defender a 10-minute misconduct for 'attitude'.",
            eff("retain", ops=[pen("defense.random_player", "10min")]),
        )
    )
    t.append(
        (
            "Fans pelt the track with debris; the ball handler skids and the defense takes control.",
            eff("turnover"),
        )
    )
    t.append(
        (
            "Club doctors pull a random defending skater or catcher for a 'routine check': out "
            "until the next new ball.",
            eff("retain", ops=[rest("defense.random_skater_catcher", "new_ball")]),
        )
    )
    t.append(
        (
            "A fan leaps the rail and tackles a random player of the team in control: sprained "
            "ankle, out for one match. The fan is dragged off and the ball fires again.",
            eff(
                "fire",
                ops=[inj("offense.random_player", "matches", "sprained ankle", matches=1)],
            ),
        )
    )
    t.append(
        (
            "The league suspends a random defending player two matches for a pre-match interview.",
            eff("retain", ops=[ban("defense.random_player", "matches", matches=2)]),
        )
    )
    t.append(
        (
            "The coach of the team in control calls a set play: a STAR or VETERAN Skater2 breaks "
            "into the clear and is in control (roll vs his opponent). Otherwise nothing comes of "
            "it (pick new action).",
            eff(
                "control",
                who="offense.Skater2",
                when=cond("offense.Skater2", ["star", "veteran"]),
                otherwise=eff("retain"),
            ),
        )
    )
    t.append(
        (
            "Riot in the stands! Play stops; a random Home player and a random Visiting player "
            "are sent to the dressing room for the rest of the period. The ball is fired again.",
            eff(
                "fire",
                ops=[rest("home.random_player", "period"), rest("away.random_player", "period")],
            ),
        )
    )
    t.append(
        (
            "Ball handler trips on debris and breaks his wrist: out for two matches.",
            eff("fire", ops=[inj("handler", "matches", "broken wrist", matches=2)]),
        )
    )
    t.append(
        (
            "The defender shoves the referee: ejected for the match. The team in control keeps "
            "the ball (pick new action).",
            eff("retain", ops=[pen("defender", "match")]),
        )
    )
    t.append(
        (
            "Television timeout. Both teams catch their breath and the ball is fired again.",
            eff("fire"),
        )
    )
    # Each of these 20 events is printed on three cards.
    return t * 3


def build() -> dict:
    sections = {
        "action": action_sections(),
        "biker_id": biker_sections(),
        "attack_skater": attack_skater_sections(),
        "attack_biker": attack_biker_sections(),
        "ball_fires": fires_sections(),
        "event": event_sections(),
    }
    # Spread each list over the deck with a different stride so that the same mix does not line
    # up card after card (stride coprime with 60).
    strides = {
        "action": 1,
        "biker_id": 7,
        "attack_skater": 11,
        "attack_biker": 13,
        "ball_fires": 17,
        "event": 19,
    }
    cards = []
    for i in range(60):
        card: dict[str, Any] = {"index": i + 1}
        for key, entries in sections.items():
            assert len(entries) == 60, (key, len(entries))
            text, effect = entries[(i * strides[key]) % 60]
            card[key] = {"text": text, "effect": effect}
        cards.append(card)
    return {
        "about": "The 60 Fast Action Cards of Ballcourt's Rollerball II deck, written by "
        "make_facs.py. Each section has its text for people and the effect the engine runs.",
        "cards": cards,
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
