"""A Rocketball action made the way a player makes it: by clicking and picking on the live card
(never typing); a chip is placed by picking its square, then what to do there."""

from __future__ import annotations

from host.adapter import move_arg
from rules.rocketball import ENGINE
from rules.rocketball.actions import Aim, Pass, Roll


async def click_action(discord, card, user, action, **how) -> None:
    """`how`: the driver's options for each click (`settle=False`, `timeout=30`)."""
    if isinstance(action, Roll):
        await discord.click(card, "Roll the d4", user=user, **how)
    elif isinstance(action, Aim):
        await discord.click(card, f"Aim {action.facing}", user=user, **how)
    elif isinstance(action, Pass):
        await discord.click(card, "Pass (no move possible)", user=user, **how)
    else:
        square = getattr(action, "square", None) or action.from_square
        if not card.selects:  # the best moves come first: the square menus on request
            card = await discord.click(card, "Other squares…", user=user, **how)
        menu = next(s for s in card.selects if square in [o.value for o in s.options])
        picked = await discord.select(card, menu.custom_id, [square], user=user, **how)
        assert picked.response_type == 7 and f"Square {square}" in picked.text
        wanted = move_arg(ENGINE, action)
        button = next(b for b in picked.buttons if (b.custom_id or "").endswith(f":{wanted}"))
        await discord.click(picked, button.custom_id, user=user, **how)
