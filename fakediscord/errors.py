"""Discord's error answers: a handler raises ``RequestError`` and the REST layer answers with
its status and body (and records a violation when the bot broke a rule)."""

from __future__ import annotations

from typing import Any

from fakediscord import limits


class RequestError(Exception):
    """Answer the current request with Discord's error (and optionally record a violation)."""

    def __init__(
        self,
        status: int,
        body: dict[str, Any],
        *,
        violation: str | None = None,
        note: str = "",
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body
        self.violation = violation
        self.note = note
        self.headers = headers or {}


def not_found(what: str, code: int) -> RequestError:
    return RequestError(404, {"message": f"Unknown {what}", "code": code})


def form_error(errors: list[limits.FieldError]) -> RequestError:
    details = "; ".join(error.describe() for error in errors)
    return RequestError(
        400, limits.form_body_error(errors), violation="invalid_form_body", note=details
    )
