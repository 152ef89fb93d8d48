"""Every interaction answered within Discord's 3 seconds, whatever waits in front of it.

Discord gives the first response to an interaction 3 seconds ("Interactions", Receiving and
Responding: "Interactions must be responded to within 3 seconds"; later, 10062 Unknown
interaction and the player sees "The application did not respond"). A handler that waits (for a
match's lock, for a database behind a queue of other players' work, for an event loop busy
drawing fifty cards) can pass that without knowing. `TimelyResponse` takes the place of
discord.py's `interaction.response` for every interaction the bot lets in (host/gate.py): if
nothing has been sent ACKNOWLEDGE_AFTER_SECONDS after Discord created the interaction (on an
event loop found busy, ACKNOWLEDGE_BUSY_AFTER_SECONDS), it acknowledges it itself (a command: "thinking", in public; a click or a form on a message: a
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
for it and then takes the route above. So the rule is at the start of each answer, where its
size is known: Discord has a response only once all of it has arrived (a round's image takes
a second and more to upload on a loaded machine), so an answer is the first response itself
only while it begins early (ACKNOWLEDGE_AFTER_SECONDS; one carrying a file,
UPLOAD_WITHIN_SECONDS). One that begins later is preceded by the acknowledgement, sent then (a
message of its own: "thinking", private if the answer is), and takes the route above, whose
token lasts 15 minutes ("Followup Messages"). A click answered at once is still answered by
its one response.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.utils import MISSING

from ui.replies import ANSWERED_PRIVATELY, thinking_in_public

log = logging.getLogger(__name__)

# With nothing sent this long (seconds since Discord created the interaction), it is
# acknowledged; an answer that begins later follows an acknowledgement. Late enough that a
# handler that merely waited its turn still answers with the real thing in one response (a card
# drawn after a save; a private "the database is unavailable" after a statement's 1.5 s, which
# after a public "thinking" would leave the channel an "Answered privately."), early enough that
# the acknowledgement, a few bytes, reaches Discord within its 3 s on a busy machine.
ACKNOWLEDGE_AFTER_SECONDS = 2.0
# Unless the event loop is busy (a pile-up of clicks and commands, cards being drawn): then the
# acknowledgement itself takes long to leave, so it is sent at this already. Busy: the loop woke
# the watch BUSY_LOOP_SECONDS or more after it was due here, its own lateness the measure of
# the loop's.
ACKNOWLEDGE_BUSY_AFTER_SECONDS = 1.5
BUSY_LOOP_SECONDS = 0.1
# An answer carrying files (a round's image, an upload of tens to hundreds of KB) goes as the
# first response only if it begins within this: its bytes take time to reach Discord (a second
# and more on a loaded machine or a slow link), and Discord has a response only once all of it
# has arrived, so it needs what is left of the 3 s more than a text does.
UPLOAD_WITHIN_SECONDS = 1.0

# response.send_message's keywords that a followup (Webhook.send) does not take
_NOT_FOR_FOLLOWUPS = ("delete_after",)
# response.edit_message's keywords that an edit of the original response does not take
_NOT_FOR_EDITS = ("delete_after", "suppress_embeds")
FORM_TOO_LATE = (
    "That took too long to open its form, so nothing was opened and nothing changed: press the "
    "button again."
)


def uploads(answer: dict[str, Any]) -> bool:
    """Whether an answer's keywords (send_message's or edit_message's) upload a file: `file`,
    `files`, or a new file among an edit's `attachments` (an attachment already on the message
    is kept by its id, not sent again)."""
    if answer.get("file", MISSING) is not MISSING or answer.get("files"):
        return True
    attachments = answer.get("attachments", MISSING)
    return attachments is not MISSING and any(
        isinstance(item, discord.File) for item in attachments
    )


class TimelyResponse(discord.InteractionResponse):
    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self._received = time.monotonic()
        self._sending = 0  # the handler's answers on their way
        self._acknowledging = False  # the acknowledgement is on its way, or was sent
        self._acknowledgement_over = asyncio.Event()  # it was sent, or Discord refused it
        # Discord's refusal of the acknowledgement (10062: it came too late): the interaction
        # has no response, so no edit of one nor a followup exists; every later answer hears it
        self._refused: discord.HTTPException | None = None
        self._thinking_privately = False  # acknowledged by an ephemeral "thinking"
        self._watch = asyncio.create_task(self._acknowledge_late(), name="timely-response")

    def age(self) -> float:
        """Seconds since Discord created the interaction, as near as the bot can tell: its
        snowflake's time read on the bot's clock, or, if more, the time since the bot received
        it. A clock behind Discord's understates the first (the second never overstates it);
        a clock ahead overstates it, which only acknowledges earlier."""
        created = (discord.utils.utcnow() - self._parent.created_at).total_seconds()
        return max(created, time.monotonic() - self._received)

    async def _acknowledge_late(self) -> None:
        await asyncio.sleep(max(0.0, ACKNOWLEDGE_BUSY_AFTER_SECONDS - self.age()))
        if self.age() - ACKNOWLEDGE_BUSY_AFTER_SECONDS < BUSY_LOOP_SECONDS:
            await asyncio.sleep(max(0.0, ACKNOWLEDGE_AFTER_SECONDS - self.age()))
        if self.is_done() or self._sending:
            return
        await self._acknowledge()

    async def _acknowledge(self, *, thinking: bool = False, ephemeral: bool = False) -> None:
        """Acknowledge the interaction: a command (or a form opened by one), or `thinking`
        (the answer is a message of its own), with "thinking" (`ephemeral`: seen by its user
        alone); a click or a form on a message with a deferred update (that message is edited
        later). A refusal is logged and kept: the interaction then has no response to edit or
        follow, and every later answer raises it (`_was_acknowledged`)."""
        parent = self._parent
        self._acknowledging = True
        try:
            if parent.message is None or thinking:
                await super().defer(thinking=True, ephemeral=ephemeral)
                self._thinking_privately = ephemeral
            else:
                await super().defer()
        except discord.NotFound as error:  # Discord no longer knows it: it came in too late
            log.info("interaction %s expired before it could be acknowledged", parent.id)
            self._refused = error
        except discord.HTTPException as error:
            log.warning("could not acknowledge slow interaction %s: %r", parent.id, error)
            self._refused = error
        finally:
            self._acknowledgement_over.set()

    async def _was_acknowledged(self) -> bool:
        """Whether the acknowledgement was sent (the answer then takes its route after it);
        first waits for one on its way. One Discord refused is raised: the answer gets the
        error a late first response would, and its caller's route for an expired interaction."""
        if not self._acknowledging:
            return False
        # the acknowledgement's own end, not the watch task's: the watch is cancelled, not
        # awaited, when an answer acknowledged the interaction itself
        await self._acknowledgement_over.wait()
        if self._refused is not None:
            raise self._refused
        return True

    async def _follows(self, answer: dict[str, Any], *, thinking: bool = False) -> bool:
        """Whether an answer beginning now (its keywords) takes the route after an
        acknowledgement: one was sent, or it begins too late to be the first response itself
        (past ACKNOWLEDGE_AFTER_SECONDS, or past UPLOAD_WITHIN_SECONDS with a file to upload),
        and then the acknowledgement is sent first."""
        if await self._was_acknowledged():
            return True
        if self.is_done() or self._sending:
            # answered already (discord.py says so as it always does), or another answer is on
            # its way: this one is tried as the first response
            return False
        within = UPLOAD_WITHIN_SECONDS if uploads(answer) else ACKNOWLEDGE_AFTER_SECONDS
        if self.age() < within:
            return False
        self._watch.cancel()
        await self._acknowledge(thinking=thinking, ephemeral=bool(answer.get("ephemeral")))
        return await self._was_acknowledged()

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
        if not await self._follows(kwargs, thinking=True):
            parent = super()
            return await self._answer(lambda: parent.send_message(content, **kwargs))
        interaction = self._parent
        followup = {
            key: value
            for key, value in kwargs.items()
            if key not in _NOT_FOR_FOLLOWUPS and value is not MISSING
        }
        if (
            followup.get("ephemeral")
            and not self._thinking_privately
            and await thinking_in_public(interaction)
        ):
            await interaction.edit_original_response(content=ANSWERED_PRIVATELY)
        await interaction.followup.send(MISSING if content is None else content, **followup)
        return None

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        # a form is a few bytes, and can only ever be the first response: never acknowledged
        # first
        if not await self._was_acknowledged():
            parent = super()
            return await self._answer(lambda: parent.send_modal(modal))
        await self.send_message(FORM_TOO_LATE, ephemeral=True)
        return None

    async def edit_message(self, **kwargs: Any) -> Any:
        if not await self._follows(kwargs):
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
