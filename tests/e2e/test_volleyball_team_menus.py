"""My team's menus through the fake Discord (docs/rules/volleyball.md, "A manager's week"): the
private team sheet carries a menu of the player to train on OL, on DL, and of the player to put
on the transfer list. A pick is the order line a manager would type (`TRAIN: PLAYER OL`,
`/volleyball sell`), added to the orders on file and checked by the engine the same way: a pick
the rules refuse is answered privately with the engine's reason and changes nothing."""

from __future__ import annotations

import json

import pytest

from tests.e2e.forged import forged_click
from tests.e2e.stored import connect
from tests.e2e.test_volleyball_week import ROSTER  # a squad whose points fit the default budget
from tests.e2e.volleyball_lesson_clicks import sheet_menus

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

LEAGUE = "Menu League"
MENUS = [
    "Train a player's OL (+1, one training point)",
    "Train a player's DL (+1, one training point)",
    "Put a player on the transfer list (sell)",
]


def orders_on_file(bot) -> dict | None:
    with connect(bot) as conn:
        rows = conn.execute(
            "SELECT orders FROM volleyball_orders WHERE team = ?", ("Red Rockets",)
        ).fetchall()
    return json.loads(rows[0][0]) if rows else None


def everything(reply) -> str:
    return "\n".join([reply.text, *(f.text for f in reply.followups)])


async def test_my_team_trains_and_sells_by_its_menus_as_the_typed_lines_do(
    discord, bot, alice, owner, general
):
    await discord.slash(
        "volleyball league create", user=owner, name=LEAGUE, teams=6, every_hours=24
    )
    form = await discord.slash("volleyball team create", user=alice)
    await discord.submit_modal(form, {"name": "Red Rockets", "players": ROSTER})
    await discord.slash("volleyball league start", user=owner)

    last = await sheet_menus(discord, await discord.slash("volleyball team show", user=alice))
    assert [s.placeholder for s in last.selects] == MENUS
    names = [o.label for o in last.select(MENUS[2]).options]
    assert names == [line.rsplit(" ", 3)[0] for line in ROSTER.splitlines()]

    # round 1: no training points yet, so the engine refuses the training, as it refuses a
    # typed TRAIN line; nothing is stored
    train = await discord.select(last, MENUS[0], ["Anna Visser"], user=alice)
    assert train.ephemeral and "refused" in everything(train)
    assert "training points" in everything(train)
    assert orders_on_file(bot) is None

    # a sale: the SELL line on file, as /volleyball sell puts it
    sold = await discord.select(last, MENUS[2], ["Hans Berg"], user=alice)
    assert sold.ephemeral and "accepted" in everything(sold), everything(sold)
    assert (orders_on_file(bot) or {})["sales"] == [{"player": "Hans Berg", "minimum_price": 0}]
    # the same player twice: the engine's refusal, and the order on file stays one sale
    again = await discord.select(last, MENUS[2], ["Hans Berg"], user=alice)
    assert "already on the transfer list" in everything(again)
    assert len((orders_on_file(bot) or {})["sales"]) == 1
    # a second sale is added to the first, as `/volleyball sell` adds one
    await discord.select(last, MENUS[2], ["Gijs Kok"], user=alice)
    assert [s["player"] for s in (orders_on_file(bot) or {})["sales"]] == ["Hans Berg", "Gijs Kok"]


async def test_a_forged_pick_is_one_order_line_whatever_it_holds(discord, bot, alice, general):
    """A modified client can send any value for a menu: one that is not among the menu's options
    (here a player's name with a line break and a second order after it) is refused as every
    menu's is, privately, and no order is added."""
    last = await sheet_menus(discord, await discord.slash("volleyball team show", user=alice))
    before = (orders_on_file(bot) or {})["sales"]
    for brk in ("\n", "\r", "\u2028", "\x0b"):
        value = f"Anna Visser{brk}SELL: Femke Mol"
        forged = await forged_click(
            discord, last, last.select(MENUS[2]).custom_id, alice, values=[value]
        )
        assert forged.ephemeral and "not on offer" in forged.text, (repr(brk), forged.text)
        assert (orders_on_file(bot) or {})["sales"] == before, repr(brk)
