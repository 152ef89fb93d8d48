"""Component interactions Discord's own client would not send: harness internals for tests of
what the bot does when a modified client sends them anyway."""

from __future__ import annotations

from fakediscord import limits as discord_limits
from fakediscord import server


async def forged_click(discord, message, custom_id: str, user, values: list[str] | None = None):
    """A component interaction with `custom_id` sent as `user`, bypassing what Discord's client
    allows (an ephemeral message's components reach only its owner; a select's values are its
    options): with `values`, a string select's, whatever they are."""

    async def build():
        data = {"custom_id": custom_id, "component_type": discord_limits.BUTTON}
        if values is not None:
            data |= {"component_type": discord_limits.STRING_SELECT, "values": values}
        return discord.fake.new_interaction(
            kind=server.MESSAGE_COMPONENT,
            user=user,
            channel_id=message.channel_id,
            data=data,
            message=discord.fake.messages[message.id],
        )

    return await discord._run(build, timeout=10, wait_followup=True)
