"""Discord's open bugs the fake can reproduce, each off unless a test turns it on (the bot must
survive them, but the suite's other tests measure other things).

``gallery_edit``: "PATCHing with CV2 breaks media uploads" (discord/discord-api-docs issue 7529,
open as of this writing). Editing an interaction's original response (after a defer, or after
a first response) into a Components v2 message whose media gallery shows a file uploaded in that
same edit (``attachment://NAME``) is refused with 400 and a claim that the unfurled media
attachment is not found; the same layout works as an initial response or a separate followup,
and an edit that uploads no new file, or a gallery of files already on the message, is
unaffected (the report's steps). The error body follows Discord's form-error shape (Reference,
"Error Messages"), the code the report quotes. The report's "defer or otherwise edit" may
take in an edit of the message through the channel as well: ``gallery_edit_channel`` refuses
that too (the harsher reading).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fakediscord.errors import RequestError
from fakediscord.limits import ATTACHMENT_SCHEME, MEDIA_GALLERY


@dataclass
class KnownBugs:
    gallery_edit: bool = False
    gallery_edit_channel: bool = False
    refused: int = 0  # how many requests a bug refused

    def check_interaction_edit(self, payload: dict[str, Any], uploads: dict[int, tuple]) -> None:
        """For an edit through an interaction token: raise the bug's refusal where it bites."""
        if self.gallery_edit:
            self._check_gallery(payload, uploads)

    def check_channel_edit(self, payload: dict[str, Any], uploads: dict[int, tuple]) -> None:
        """For an edit of a message through its channel (the harsher reading)."""
        if self.gallery_edit_channel:
            self._check_gallery(payload, uploads)

    def _check_gallery(self, payload: dict[str, Any], uploads: dict[int, tuple]) -> None:
        if not uploads:
            return
        uploaded = {name for name, _type, _data in uploads.values()}
        if any(
            url.removeprefix(ATTACHMENT_SCHEME) in uploaded
            for url in _gallery_urls(payload.get("components") or [])
        ):
            self.refused += 1
            raise RequestError(
                400,
                {
                    "message": "Invalid Form Body",
                    "code": 50035,
                    "errors": {
                        "components": {
                            "_errors": [
                                {
                                    "code": "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                    "message": "Unfurled media attachment not found.",
                                }
                            ]
                        }
                    },
                },
            )


def _gallery_urls(components: list[dict[str, Any]]) -> list[str]:
    """The media addresses of every media gallery in a component tree."""
    urls = []
    for component in components:
        if component.get("type") == MEDIA_GALLERY:
            urls += [
                str((item.get("media") or {}).get("url") or "")
                for item in component.get("items") or []
            ]
        urls += _gallery_urls(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            urls += _gallery_urls([accessory])
    return urls
