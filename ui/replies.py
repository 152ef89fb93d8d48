"""How the bot answers a user: errors they caused get their message, ephemerally; anything else
is logged with its traceback and the user hears that it failed. The one place errors from
commands and components end."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from db.database import CommitUnknown, is_unavailable
from db.games import StaleGameError
from rules.errors import PlayerError
from ui.permissions import missing_permissions_text, refused_for_permission, refused_text
from ui.text import fit

log = logging.getLogger(__name__)

UNEXPECTED_ERROR = (
    "Something went wrong on our side and it has been logged. Nothing was changed: try again, "
    "and if it keeps happening tell the server's admins."
)

BUSY = (
    "This match is busy with another move that is taking long. Nothing of yours was changed: "
    "try again in a minute."
)
UNAVAILABLE = (
    "The database is unavailable right now, so nothing was changed: try again shortly. If it "
    "lasts, tell the server's admins."
)
MAYBE_SAVED = (
    "The database stopped answering while this was being saved, so it may have been saved or "
    "not. Look again in a minute (a match's board command shows it as it is stored) before "
    "trying again."
)
STALE = (
    "Another move on this match was saved first, so yours was not: nothing of yours was "
    "changed. Look at the latest turn message and try again."
)


class UserError(PlayerError):
    """A mistake the user can fix outside any engine (a bad option, someone else's match): the
    message is shown to them, ephemerally, as it is. Engines raise their own PlayerError.
    `offer`: controls shown with it (a spectator's Follow)."""

    def __init__(self, message: str = "", *, offer: Sequence[discord.ui.Item[Any]] = ()) -> None:
        super().__init__(message)
        self.offer = tuple(offer)


class LookupFailed(UserError, app_commands.AppCommandError):
    """An option that names something that is not there (a league, a team, a season): raised by
    an app-command transformer, it reaches the tree's error handler unwrapped and the player
    reads its message as it is."""


class LookupOption(app_commands.Transformer):
    """An option that names something (a team, a season, a league): `find` turns the typed name
    into it, and a UserError saying what is there becomes LookupFailed. Subclasses give `find`,
    their `autocomplete` and `max_length` (the option's string limit)."""

    max_length = 100

    @property
    def max_value(self) -> int:
        return self.max_length

    async def find(self, interaction: discord.Interaction, value: str) -> Any:
        raise NotImplementedError

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        try:
            return await self.find(interaction, str(value))
        except UserError as error:
            raise LookupFailed(str(error)) from None


# What Discord's own check failures mean to a player.
def _check_failure_text(error: app_commands.AppCommandError) -> str | None:
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return f"You need the {needed} permission to do that."
    if isinstance(error, app_commands.BotMissingPermissions):
        return missing_permissions_text(error.missing_permissions)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command only works in a server channel, not in DMs."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.TransformerError):
        return f"`{error.value}` is not a valid value there."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use that command here."
    return None


def user_message_for(error: BaseException) -> str | None:
    """The player-facing text for an error they caused, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, PlayerError):
        return str(error)
    if isinstance(error, StaleGameError):  # the version check on save refused a stale move
        return STALE
    if isinstance(error, CommitUnknown):  # never "nothing was changed": it may have been
        return MAYBE_SAVED
    if is_unavailable(error):  # db/database.py: a server down or stalled, a file gone
        return UNAVAILABLE
    if isinstance(error, app_commands.AppCommandError):
        return _check_failure_text(error)
    return None


# What the channel sees in place of "thinking..." when a command that acknowledged publicly then
# answers its user alone (send_ephemeral).
ANSWERED_PRIVATELY = "Answered privately."


async def send_ephemeral(interaction: discord.Interaction, content: str, **kwargs) -> None:
    """Answer ephemerally whether or not the interaction was already acknowledged. An expired
    interaction gets nothing visible (never a public ping): it is logged instead.

    After a public "thinking" acknowledgement nothing has replaced yet, Discord ignores the
    ephemeral flag of the first followup: it takes the place of the thinking message and stays
    public (Receiving and Responding, "Create Followup Message": after a deferred channel
    message the endpoint acts as an edit of the original response, and "the ephemeral flag
    will be ignored"). Commands check what they can before acknowledging; for what they can
    only find out later (a lock held by a deadline, then the season is over), the thinking
    message becomes a neutral line first, and the answer follows as a second, private message."""
    content = fit(content)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=True, **kwargs)
            return
        if await thinking_in_public(interaction):
            await interaction.edit_original_response(content=ANSWERED_PRIVATELY)
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    except discord.HTTPException as error:
        if not interaction_expired(error):
            raise
        log.info("interaction of user %s expired before it was answered", interaction.user.id)


async def thinking_in_public(interaction: discord.Interaction) -> bool:
    """Whether the interaction's response is still a public "thinking" placeholder (a
    deferred channel message, not ephemeral, that no followup or edit has replaced): read
    back through the interaction's token, which no global rate limit counts."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return False
    original = await interaction.original_response()
    return original.flags.loading and not original.flags.ephemeral


# Discord's "Unknown interaction" and "Unknown Webhook": the interaction's 3 s ran out before
# the bot answered; "Invalid Webhook Token" (401): its 15 minutes for follow-ups and edits did
# (interactions/receiving-and-responding, "Followup Messages").
EXPIRED_CODES = (10062, 10015, 50027)


def interaction_expired(error: BaseException) -> bool:
    original = getattr(error, "original", error)
    return isinstance(original, discord.HTTPException) and original.code in EXPIRED_CODES


def _what(interaction: discord.Interaction) -> object:
    return getattr(interaction.command, "qualified_name", None) or (interaction.data or {}).get(
        "custom_id"
    )


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place errors from commands and components end: a user's mistake gets its
    message; a database that is unavailable gets "try again shortly" and one log line (the
    outage itself is logged once, by db/database.py); an interaction that expired before the
    bot answered is logged as such; Discord refusing what the bot did for a permission it lacks
    there (a moderator took it away) is told with the permission's name, privately, else in the
    channel; anything else is logged with its traceback and the user hears that it failed."""
    if interaction_expired(error):
        log.warning(
            "interaction %s of user %s expired before it was answered (%s)",
            _what(interaction),
            interaction.user.id,
            "the database was slow or unavailable" if is_unavailable(error) else "too slow",
        )
        return
    message = user_message_for(error)
    if message is None and refused_for_permission(error):
        message = refused_text(interaction)
        log.warning(
            "Discord refused %s by user %s for a missing permission (%s)",
            _what(interaction),
            interaction.user.id,
            getattr(error, "original", error),
        )
    if message in (UNAVAILABLE, MAYBE_SAVED):
        log.info(
            "told user %s the database is unavailable (%s)", interaction.user.id, _what(interaction)
        )
    if message is None:
        original = getattr(error, "original", error)
        log.error(
            "unexpected error in %s by user %s",
            _what(interaction),
            interaction.user.id,
            exc_info=(type(original), original, original.__traceback__),
        )
        message = UNEXPECTED_ERROR
    extra: dict[str, Any] = {}
    offered = getattr(getattr(error, "original", error), "offer", ())
    if offered:
        view = discord.ui.View(timeout=None)
        for item in offered:
            view.add_item(item)
        extra["view"] = view
    try:
        await send_ephemeral(interaction, message, **extra)
    except discord.HTTPException as failure:
        if interaction_expired(failure):
            log.warning(
                "interaction of user %s expired before it was answered", interaction.user.id
            )
        elif refused_for_permission(failure):
            await tell_in_channel(interaction, message)
        else:
            log.exception("could not tell user %s about an error", interaction.user.id)
    except Exception:
        # The reporter is where errors end: its own failure never goes up to discord.py. While
        # the bot stops, discord.py's HTTP session is closed ("Session is closed"): expected.
        if interaction.client.is_closed():
            log.warning(
                "could not tell user %s about an error: the bot is stopping", interaction.user.id
            )
        else:
            log.exception("could not tell user %s about an error", interaction.user.id)


async def tell_in_channel(interaction: discord.Interaction, message: str) -> None:
    """`message` for the user in the channel their interaction came from (or a thread's
    channel), when Discord refused even the private answer; if it refuses there too, logged."""
    channel = interaction.channel
    places = [channel, channel.parent if isinstance(channel, discord.Thread) else None]
    for place in places:
        if not isinstance(place, discord.abc.Messageable):
            continue
        try:
            await place.send(
                fit(f"{interaction.user.mention} {message}"),
                allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
            )
            return
        except discord.HTTPException as failure:
            log.info(
                "could not tell user %s in channel %s: %s", interaction.user.id, place, failure
            )
    log.warning("could not tell user %s about an error anywhere", interaction.user.id)


async def edit_clicked(interaction: discord.Interaction, **changes: Any) -> None:
    """Change the message a click (or a form's submit) came from: through the interaction's
    response, or, when it was acknowledged already (a deferred update, sent because the click
    had to wait), by editing its original message, which for a component's interaction is
    that message (Receiving and Responding: "Edit Original Interaction Response";
    DEFERRED_UPDATE_MESSAGE "edit the original message later")."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)
