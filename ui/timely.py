"""Every interaction answered within Discord's 3 seconds, whatever waits in front of it.

Discord gives the first response to an interaction 3 seconds ("Interactions", Receiving and
Responding: "Interactions must be responded to within 3 seconds"; later, 10062 Unknown
interaction and the player sees "The application did not respond"). A handler that waits (for a
match's lock, for a database behind a queue of other players' work, for an event loop busy
drawing fifty cards) can pass that without knowing. `TimelyResponse` takes the place of
discord.py's `interaction.response` for every interaction the bot lets in (host/gate.py): if
nothing has been sent ACKNOWLEDGE_AFTER_SECONDS after Discord created the interaction, it
acknowledges it itself (a command: "thinking", in public; a click or a form on a message: a
deferred update of that message), and the handler's own answer, whenever it comes, is carried
by the route Discord allows after that acknowledgement:

- `send_message` becomes the followup that replaces the thinking message (Create Followup
  Message), or a new message after a deferred update; a private answer after a public
  "thinking" is sent as a private followup, the thinking message saying "Answered privately."
  (Discord ignores the ephemeral flag of that first followup; see ui.replies.send_ephemeral);
- `edit_message` becomes an edit of the original response (Edit Original Interaction
  Response: the message the component is on, after a deferred update);
- `defer` does nothing more;
- a form (`send_modal`) can no longer open: Discord allows a modal only as the first response
  (Receiving and Responding, "Interaction Callback Type": MODAL is a response type, not a
  followup), so the player is told privately to press again.

An answer the handler has begun sending is never raced: the acknowledgement is sent only while
nothing is on its way, and a handler answering while the acknowledgement is on its way waits
for it and then takes the route above.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.utils import MISSING

from ui.replies import ANSWERED_PRIVATELY, thinking_in_public

log = logging.getLogger(__name__)

# Past this, with nothing sent yet, the interaction is acknowledged: late enough that a handler
# that merely waited its turn still answers with the real thing (a card drawn after a save), and
# early enough that the acknowledgement reaches Discord within its 3 s on a busy machine.
ACKNOWLEDGE_AFTER_SECONDS = 2.0

# response.send_message's keywords that a followup (Webhook.send) does not take
_NOT_FOR_FOLLOWUPS = ("delete_after",)
# response.edit_message's keywords that an edit of the original response does not take
_NOT_FOR_EDITS = ("delete_after", "suppress_embeds")
FORM_TOO_LATE = (
    "That took too long to open its form, so nothing was opened and nothing changed: press the "
    "button again."
)


class TimelyResponse(discord.InteractionResponse):
    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self._sending = 0  # the handler's answers on their way
        self._acknowledging = False  # the acknowledgement is on its way, or was sent
        self._acknowledged = False
        self._watch = asyncio.create_task(self._acknowledge_late(), name="timely-response")

    async def _acknowledge_late(self) -> None:
        parent = self._parent
        age = (discord.utils.utcnow() - parent.created_at).total_seconds()
        await asyncio.sleep(max(0.0, ACKNOWLEDGE_AFTER_SECONDS - age))
        if self.is_done() or self._sending:
            return
        self._acknowledging = True
        try:
            if parent.message is None:  # a command, or a form opened by one
                await super().defer(thinking=True)
            else:  # a click or a form on a message: that message is edited later
                await super().defer()
            self._acknowledged = True
        except discord.NotFound:  # Discord no longer knows it: it came in too late
            log.info("interaction %s expired before it could be acknowledged", parent.id)
        except discord.HTTPException as error:
            log.warning("could not acknowledge slow interaction %s: %r", parent.id, error)

    async def _was_acknowledged(self) -> bool:
        """Whether the acknowledgement was sent (the answer then takes its route after it);
        first waits for one on its way."""
        if self._acknowledging and not self._watch.done():
            await asyncio.shield(self._watch)
        return self._acknowledged

    async def _answer(self, send: Callable[[], Awaitable[Any]]) -> Any:
        self._sending += 1
        try:
            result = await send()
        finally:
            self._sending -= 1
        self._watch.cancel()  # answered: nothing to watch for
        return result

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        if await self._was_acknowledged():
            return None
        parent = super()
        return await self._answer(lambda: parent.defer(ephemeral=ephemeral, thinking=thinking))

    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        if not await self._was_acknowledged():
            parent = super()
            return await self._answer(lambda: parent.send_message(content, **kwargs))
        interaction = self._parent
        followup = {
            key: value
            for key, value in kwargs.items()
            if key not in _NOT_FOR_FOLLOWUPS and value is not MISSING
        }
        if followup.get("ephemeral") and await thinking_in_public(interaction):
            await interaction.edit_original_response(content=ANSWERED_PRIVATELY)
        await interaction.followup.send(MISSING if content is None else content, **followup)
        return None

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        if not await self._was_acknowledged():
            parent = super()
            return await self._answer(lambda: parent.send_modal(modal))
        await self.send_message(FORM_TOO_LATE, ephemeral=True)
        return None

    async def edit_message(self, **kwargs: Any) -> Any:
        if not await self._was_acknowledged():
            parent = super()
            return await self._answer(lambda: parent.edit_message(**kwargs))
        for key in _NOT_FOR_EDITS:
            kwargs.pop(key, None)
        await self._parent.edit_original_response(**kwargs)
        return None


def answer_in_time(interaction: discord.Interaction) -> None:
    """Give `interaction` a TimelyResponse (before anything has read `interaction.response`:
    discord.py keeps the first one it makes). Autocompletes answer at once with no text: they
    are left as they are."""
    if interaction.type not in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return
    interaction._cs_response = TimelyResponse(interaction)
