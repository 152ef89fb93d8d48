"""Save and restore the fake Discord's world, so the sandbox survives a restart.

The bot's database (sandbox.db) remembers games by channel, message and user ids; a fake
Discord that forgot them after a restart would leave every game pointing at nothing. So the
sandbox writes the fake's state (ids, users, guilds, channels, threads, messages, the synced
command tree, the clock offset) to ``state.json`` and every stored file to ``files/`` in its data folder,
and reads them back on the next start. Interactions are not kept: like Discord's, their tokens
expire.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from fakediscord.clock import CLOCK
from fakediscord.model import Guild, StoredFile, User
from fakediscord.server import FakeDiscord, MessageMeta

STATE_VERSION = 1


def snapshot(fake: FakeDiscord) -> dict[str, Any]:
    """Everything worth keeping, as JSON (files without their bytes). Run on the fake's loop."""
    return {
        "version": STATE_VERSION,
        "last_snowflake": fake.ids._last,
        "clock_offset": CLOCK.offset,
        "application_id": fake.application_id,
        "bot_user": dataclasses.asdict(fake.bot_user),
        "users": [dataclasses.asdict(user) for user in fake.users.values()],
        "owner_id": fake.owner.id,
        "guilds": [dataclasses.asdict(guild) for guild in fake.guilds.values()],
        "members": {str(k): v for k, v in fake.members.items()},
        "member_permissions": {str(k): v for k, v in fake.member_permissions.items()},
        "channels": {str(k): v for k, v in fake.channels.items()},
        "channel_messages": {str(k): v for k, v in fake.channel_messages.items()},
        "dm_channels": {str(k): v for k, v in fake.dm_channels.items()},
        "messages": {str(k): v for k, v in fake.messages.items()},
        "message_meta": {
            str(k): {"ephemeral_for": m.ephemeral_for, "deleted": m.deleted, "version": m.version}
            for k, m in fake.message_meta.items()
        },
        "files": {
            str(k): {
                "filename": f.filename,
                "content_type": f.content_type,
                "description": f.description,
                "url": f.url,
                "extra": f.extra,
            }
            for k, f in fake.files.items()
        },
        "commands": {("global" if k is None else str(k)): v for k, v in fake.commands.items()},
        "thread_order": fake.thread_order,
    }


def save(fake: FakeDiscord, folder: Path) -> None:
    """Write state.json (atomically) and any file not yet on disk. Run on the fake's loop."""
    files = folder / "files"
    files.mkdir(parents=True, exist_ok=True)
    for file_id, stored in fake.files.items():
        path = files / str(file_id)
        if not path.exists():
            path.write_bytes(stored.data)
    partial = folder / "state.json.partial"
    partial.write_text(json.dumps(snapshot(fake)))
    os.replace(partial, folder / "state.json")


def load(fake: FakeDiscord, folder: Path) -> bool:
    """Replace a fresh fake's world with the saved one; False when there is none.
    Call before ``fake.start()``."""
    path = folder / "state.json"
    if not path.exists():
        return False
    state = json.loads(path.read_text())
    if state.get("version") != STATE_VERSION:
        raise ValueError(f"{path} is from another version of the sandbox; start with --reset")
    fake.ids._last = state["last_snowflake"]
    CLOCK.offset = float(state["clock_offset"])
    fake.application_id = state["application_id"]
    fake.users = {int(u["id"]): User(**u) for u in state["users"]}
    fake.bot_user = fake.users[int(state["bot_user"]["id"])]
    fake.owner = fake.users[int(state["owner_id"])]
    fake.guilds = {}
    for saved in _saved_guilds(state):
        guild = Guild(**saved)
        fake.guilds[guild.id] = guild
    fake.members = {int(k): v for k, v in state["members"].items()}
    fake.member_permissions = {int(k): v for k, v in state["member_permissions"].items()}
    fake.channels = {int(k): v for k, v in state["channels"].items()}
    fake.channel_messages = {int(k): v for k, v in state["channel_messages"].items()}
    fake.dm_channels = {int(k): v for k, v in state["dm_channels"].items()}
    fake.messages = {int(k): v for k, v in state["messages"].items()}
    fake.message_meta = {
        int(k): MessageMeta(
            ephemeral_for=m["ephemeral_for"], deleted=m["deleted"], version=m["version"]
        )
        for k, m in state["message_meta"].items()
    }
    fake.files = {}
    for key, info in state["files"].items():
        data_path = folder / "files" / key
        if data_path.exists():
            fake.files[int(key)] = StoredFile(id=int(key), data=data_path.read_bytes(), **info)
    fake.commands = {(None if k == "global" else int(k)): v for k, v in state["commands"].items()}
    fake.thread_order = list(state["thread_order"])
    for channel_id in fake.channels:  # open threads archive from now if left idle (days.py)
        fake.watch_thread(channel_id)
    return True


def _saved_guilds(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every saved guild, the first first. A world saved before the fake had several guilds
    kept one under "guild", with its bot role beside it."""
    if "guilds" in state:
        return state["guilds"]
    return [{**state["guild"], "bot_role_id": state["bot_role_id"]}]
