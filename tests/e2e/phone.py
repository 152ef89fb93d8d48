"""How tall each message is on a phone: the fake Discord's own page (the sandbox's client) in
a headless Chromium at 390 x 844, as the user who reads it. Used by the tests that hold a
message to one phone screen and by bench/volleyball_newcomer.py. And a post's image, attached
or one tap away (`post_image`)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tests.sandbox.conftest import find_chromium, local_page

PHONE = {"width": 390, "height": 844}  # the phone tests/sandbox uses


@dataclass
class Shown:
    """A message as the phone shows it: its height, its text (white space folded) and the
    heights of its text and of each row of its controls."""

    height: int
    text: str
    parts: list[int] = field(default_factory=list)


def message_heights(
    port: int, user_id: int, channel_id: int, shots: Path | None = None
) -> list[Shown]:
    """Every message of the channel that the user sees (theirs and the public ones), tallest
    first; with `shots`, each one's screenshot saved there. Raises RuntimeError without a
    Chromium."""
    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError("no Chromium (Debian: apt-get install chromium)")
    profile = Path(tempfile.mkdtemp(prefix="ballcourt-phone-"))
    url = f"http://127.0.0.1:{port}/?user={user_id}&channel={channel_id}"
    with local_page(chromium, profile, url, viewport=PHONE) as page:
        page.wait_for_selector("#messages .message")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#messages img')].every(i => i.complete)"
        )
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            for index, message in enumerate(page.locator("#messages .message").all()):
                message.screenshot(path=str(shots / f"message-{index}.png"))
        found = page.evaluate(
            """() => [...document.querySelectorAll('#messages .message')].map(m => [
                Math.round(m.getBoundingClientRect().height),
                (m.innerText || '').replace(/\\s+/g, ' '),
                [...m.querySelectorAll(':scope .content, :scope .action-row')].map(
                    p => Math.round(p.getBoundingClientRect().height))])"""
        )
    shown = [Shown(int(h), str(t), [int(p) for p in parts]) for h, t, parts in found]
    return sorted(shown, key=lambda s: -s.height)


async def post_image(discord, post, label: str, filename: str, user):
    """A public post's image: attached when it fits one phone screen with the post, else
    behind the post's button, whose answer only the clicker sees."""
    attached = [a for a in post.attachments if a.filename == filename]
    if attached:
        return attached[0].image()
    reply = await discord.click(post, label, user=user)
    answers = [reply, *reply.followups]
    found = [a for m in answers for a in m.attachments if a.filename == filename]
    assert found, [(m.content, [a.filename for a in m.attachments]) for m in answers]
    assert all(m.ephemeral for m in answers if m.attachments)
    return found[0].image()
