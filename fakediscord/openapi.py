"""Every request the bot makes, checked against Discord's published OpenAPI description.

The description (discord/discord-api-spec, ``specs/openapi.json``, MIT) is not in this
repository: it lies beside it, at ``../shared/discord-openapi/openapi.json`` from the project's
root (``DISCORD_OPENAPI_SPEC`` names another file). Where it is missing, as in a user's own
clone, the check is off and one log line says so; under ``CI=true`` a missing description is an
error.

For each route the bot calls (path template and method), the request body (JSON, or the
``payload_json`` part of a multipart upload) is validated against the operation's schema by a
validator compiled once, on first use, and kept for the process (fastjsonschema: generated
Python, about a millisecond a message). A request the description does not know, or a body it
rejects, is answered 400 50035 and recorded as a violation, so the test that made it fails. On a
rejection the errors are listed in full by jsonschema (slower, only then).

The description is looser than Discord in places (content up to 4000 characters, no embed
total, no custom_id uniqueness): the hand-written limits in limits.py stay, and run as well.
Where the bot and the description disagree and the bot is wrong, the disagreement is listed in
``KNOWN_BOT_DEVIATIONS`` until the bot is fixed; where the description is wrong, in
``SPEC_CORRECTIONS``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import marshal
import os
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import referencing
    from jsonschema.exceptions import ValidationError

log = logging.getLogger(__name__)

SPEC_ENV = "DISCORD_OPENAPI_SPEC"
SPEC_RELATIVE = Path("shared") / "discord-openapi" / "openapi.json"
REPO_ROOT = Path(__file__).resolve().parents[1]

# Formats the description uses beyond JSON Schema's own. fastjsonschema checks a format on
# strings only (int32, int64 and double describe numbers, whose type is checked), and as
# regular expressions the generated code stands alone (so it can be cached on disk).
FORMATS: dict[str, str] = {
    "int32": ".*",
    "int64": ".*",
    "double": ".*",
    "snowflake": r"^(0|[1-9][0-9]*)$",
    "nonce": ".*",
}
# The routes nearly every bot calls, compiled in the background as soon as the description is
# loaded (each takes 0.2-1.5 s to compile the first time): a first click is not slowed by it.
HOT_ROUTES = [
    ("PUT", "/applications/{application_id}/commands"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("POST", "/channels/{channel_id}/threads"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
]
CACHE_VERSION = 1  # bump when the way validators are generated changes


@dataclass(frozen=True)
class Allowance:
    """One disagreement between a request and the description that is let through: on this
    route (``METHOD /template``), at a JSON path starting with ``path`` (dotted), with an
    error message containing ``message``. ``why`` says who is wrong and why."""

    route: str
    path: str
    message: str
    why: str

    def covers(self, route: str, error_path: str, error_message: str) -> bool:
        return (
            self.route in (route, "*")
            and error_path.startswith(self.path)
            and self.message in error_message
        )


# The bot sends something the description rejects and the bot is wrong: each is a bug to fix
# in the bot (cogs/), listed here only until then so the suite stays green. Keep it empty.
KNOWN_BOT_DEVIATIONS: list[Allowance] = []

# The description rejects something Discord accepts: the description is wrong, the bot is
# right. Each is a schema of components/schemas replaced before anything is compiled.
SPEC_CORRECTIONS: dict[str, tuple[dict[str, Any], str]] = {
    "SnowflakeType": (
        {
            "anyOf": [
                {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
                {"type": "integer", "minimum": 0},
            ]
        },
        "Discord sends snowflakes as strings but accepts integers in requests (Reference: "
        "Snowflakes; discord.py has always sent ids as integers, and the index of a new "
        "upload as the attachment's id, 0, 1, ...); the description allows strings only",
    ),
}


@dataclass(frozen=True)
class SpecError:
    path: str  # dotted JSON path in the body ("" for the body itself)
    message: str
    code: str = "OPENAPI_SCHEMA_VIOLATION"  # as Discord names it, where it has a name

    def describe(self) -> str:
        return f"{self.path or '(body)'}: {self.message}"


def find_spec() -> Path | None:
    """The description's file: ``DISCORD_OPENAPI_SPEC``, else ``../shared/...`` from the
    project's root (for a git worktree, also from the main checkout's root)."""
    if os.environ.get(SPEC_ENV):
        return Path(os.environ[SPEC_ENV])
    roots = [REPO_ROOT]
    git = REPO_ROOT / ".git"
    if git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/<name>"
        text = git.read_text().strip()
        gitdir = Path(text.split(":", 1)[1].strip()) if text.startswith("gitdir:") else None
        if gitdir is not None and len(gitdir.parents) > 2:
            roots.append(gitdir.parents[2])
    for root in roots:
        candidate = root.parent / SPEC_RELATIVE
        if candidate.is_file():
            return candidate
    return None


class SpecUnavailable(RuntimeError):
    """CI=true and no OpenAPI description: the check is required there."""


_LOCK = threading.Lock()
_LOADED: dict[Path, SpecCheck] = {}
_ANNOUNCED_MISSING = False


def usable() -> bool:
    """Whether the check can run here (the description found, the test tools installed),
    asked without a word: the sandbox checks requests where it can and says nothing where it
    cannot (a newcomer installs requirements.txt only)."""
    if find_spec() is None:
        return False
    try:
        import fastjsonschema  # noqa: F401
        import jsonschema  # noqa: F401
    except ImportError:
        return False
    return True


def load() -> SpecCheck | None:
    """The check for this process (one per description file, its validators shared by every
    fake), or None with one log line when the description is missing (SpecUnavailable under
    CI=true)."""
    global _ANNOUNCED_MISSING
    path = find_spec()
    if path is None or not path.is_file():
        where = path or REPO_ROOT.parent / SPEC_RELATIVE
        if os.environ.get("CI") == "true":
            raise SpecUnavailable(
                f"Discord's OpenAPI description is required under CI=true: no file at {where}"
            )
        if not _ANNOUNCED_MISSING:
            _ANNOUNCED_MISSING = True
            log.warning(
                "Discord's OpenAPI description is not at %s: the fake Discord does not check "
                "requests against it (its own limits still apply)",
                where,
            )
        return None
    try:  # test tools (requirements-dev.txt); the sandbox runs without them
        import fastjsonschema  # noqa: F401
        import jsonschema  # noqa: F401
    except ImportError as missing:
        if os.environ.get("CI") == "true":
            raise SpecUnavailable(f"the OpenAPI check needs {missing.name}") from missing
        if not _ANNOUNCED_MISSING:
            _ANNOUNCED_MISSING = True
            log.warning(
                "%s is not installed (requirements-dev.txt): the fake Discord does not check "
                "requests against Discord's OpenAPI description",
                missing.name,
            )
        return None
    with _LOCK:
        if path not in _LOADED:
            check = SpecCheck(json.loads(path.read_text()))
            _LOADED[path] = check
            threading.Thread(target=check.warm, name="openapi-warm", daemon=True).start()
        return _LOADED[path]


class SpecCheck:
    """Validators for the description's operations, compiled on first use."""

    def __init__(self, spec: dict[str, Any]) -> None:
        spec = {**spec, "components": {**spec["components"]}}
        spec["components"]["schemas"] = {
            **spec["components"]["schemas"],
            **{name: schema for name, (schema, _) in SPEC_CORRECTIONS.items()},
        }
        self.spec = _consts_as_enums(spec)
        self._lock = threading.Lock()
        self._validators: dict[tuple[str, str], Callable[[Any], Any] | None] = {}
        self._route_locks: dict[tuple[str, str], threading.Lock] = {}
        self._fingerprint: str | None = None
        self._registry: referencing.Registry | None = None
        self.checked: Counter[str] = Counter()  # "METHOD /template" -> bodies validated
        # literal segments before parameters: /users/@me is not /users/{user_id}
        self._routes = sorted(
            (
                (template.count("{"), template, _template_pattern(template))
                for template in spec["paths"]
            ),
            key=lambda entry: entry[0],
        )

    def template_of(self, method: str, path: str) -> str | None:
        """The description's path template for a request, if it has this operation."""
        for _, template, pattern in self._routes:
            if pattern.match(path) and method.lower() in self.spec["paths"][template]:
                return template
        return None

    def check(self, method: str, path: str, body: Any, *, has_body: bool) -> list[SpecError]:
        """What the description rejects in this request (allowances removed); [] if none."""
        template = self.template_of(method, path)
        if template is None:
            return [SpecError("", f"the description has no operation {method} {path}")]
        route = f"{method} {template}"
        operation = self.spec["paths"][template][method.lower()]
        request_body = operation.get("requestBody")
        if request_body is None:
            if has_body and body not in ({}, [], None):
                return [SpecError("", f"{route} takes no request body")]
            return []
        if not has_body:
            if request_body.get("required"):
                return [SpecError("", f"{route} needs a request body")]
            return []
        import fastjsonschema

        validate = self._validator(method, template)
        if validate is None:
            return []
        self.checked[route] += 1
        try:
            validate(body)
        except fastjsonschema.JsonSchemaValueException:
            pass
        else:
            return []
        errors = self._explain(method, template, body)
        return [
            error
            for error in errors
            if not any(
                allowance.covers(route, error.path, error.message)
                for allowance in KNOWN_BOT_DEVIATIONS
            )
        ]

    def _schema_pointer(self, method: str, template: str) -> str | None:
        content = self.spec["paths"][template][method.lower()]["requestBody"].get("content", {})
        if "application/json" not in content:
            return None
        escaped = template.replace("~", "~0").replace("/", "~1")
        return f"#/paths/{escaped}/{method.lower()}/requestBody/content/application~1json/schema"

    def warm(self, routes: list[tuple[str, str]] | None = None) -> None:
        """Have the validators of these routes (default HOT_ROUTES) ready."""
        for method, template in routes or HOT_ROUTES:
            if template in self.spec["paths"]:
                self._validator(method, template)

    def _validator(self, method: str, template: str) -> Callable[[Any], Any] | None:
        key = (method, template)
        if key in self._validators:
            return self._validators[key]
        with self._lock:  # one lock per route: a request waits only for its own route
            route_lock = self._route_locks.setdefault(key, threading.Lock())
        with route_lock:
            if key not in self._validators:
                pointer = self._schema_pointer(method, template)
                self._validators[key] = None if pointer is None else self._compile(key, pointer)
            return self._validators[key]

    def _compile(self, key: tuple[str, str], pointer: str) -> Callable[[Any], Any]:
        """The route's validator: generated by fastjsonschema (without detailed exceptions: a
        third of the code; jsonschema explains a rejection), its compiled code kept in the
        user's cache folder so that the next process loads it in a millisecond."""
        import fastjsonschema

        cached = self._cache_file(key)
        code = None
        if cached is not None and cached.is_file():
            with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
                code = marshal.loads(cached.read_bytes())
        if code is None:
            source = fastjsonschema.compile_to_code(
                {"$ref": pointer, "paths": self.spec["paths"], **_components(self.spec)},
                formats=FORMATS,
                detailed_exceptions=False,
            )
            code = compile(source, f"<openapi validator {key[0]} {key[1]}>", "exec")
            if cached is not None:
                with contextlib.suppress(OSError):
                    partial = cached.with_suffix(f".{os.getpid()}.tmp")
                    partial.write_bytes(marshal.dumps(code))
                    partial.replace(cached)
        namespace: dict[str, Any] = {}
        exec(code, namespace)  # code this module generated from the description
        return namespace["validate"]

    def _cache_file(self, key: tuple[str, str]) -> Path | None:
        import fastjsonschema

        folder = _cache_folder()
        if folder is None:
            return None
        if self._fingerprint is None:
            spec_text = json.dumps(self.spec, sort_keys=True).encode()
            self._fingerprint = hashlib.sha256(spec_text).hexdigest()
        name = "|".join(
            (
                str(CACHE_VERSION),
                sys.version,
                fastjsonschema.VERSION,
                json.dumps(FORMATS, sort_keys=True),
                self._fingerprint,
                *key,
            )
        )
        return folder / (hashlib.sha256(name.encode()).hexdigest()[:32] + ".marshal")

    def _explain(self, method: str, template: str, body: Any) -> list[SpecError]:
        """Every error, each at its deepest useful point (for a union: the closest branch)."""
        import jsonschema
        import referencing
        from referencing.jsonschema import DRAFT202012

        pointer = self._schema_pointer(method, template)
        if self._registry is None:
            resource = DRAFT202012.create_resource(self.spec)
            self._registry = referencing.Registry().with_resource("urn:discord-openapi", resource)
        validator = jsonschema.Draft202012Validator(
            {"$ref": f"urn:discord-openapi{pointer}"}, registry=self._registry
        )
        found = [_as_discord(_deepest(error)) for error in validator.iter_errors(body)]
        return found or [SpecError("", "rejected by the description")]


def _cache_folder() -> Path | None:
    """Where compiled validators are kept: $XDG_CACHE_HOME (or ~/.cache)/ballcourt; None
    (compile every time) where that cannot be written."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "ballcourt" / "openapi-validators"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def _consts_as_enums(node: Any) -> Any:
    """The same schema, faster to check: the description spells each enumeration (component
    types, button styles, ...) as a oneOf of consts, which a compiled validator tries one
    branch, and one exception, at a time; an enum of the same values means the same."""
    if isinstance(node, list):
        return [_consts_as_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {key: _consts_as_enums(value) for key, value in node.items()}
    branches = result.get("oneOf")
    if (
        isinstance(branches, list)
        and branches
        and all(isinstance(b, dict) and "const" in b and "$ref" not in b for b in branches)
    ):
        values = [branch["const"] for branch in branches]
        if len({repr(value) for value in values}) == len(values):  # distinct: exactly one
            del result["oneOf"]
            result["enum"] = values
    return result


def _components(spec: dict[str, Any]) -> dict[str, Any]:
    return {"components": spec.get("components", {})}


def _as_discord(error: ValidationError) -> SpecError:
    """A schema error worded as Discord words the same refusal (its Invalid Form Body codes
    and messages), so a limit the description and limits.py share reads the same either way."""
    path = [str(part) for part in error.absolute_path]
    keyword = error.validator
    # the schema's value for the keyword (jsonschema leaves it unset only on errors it did not
    # raise while validating)
    limit: Any = error.validator_value
    code, message = "OPENAPI_SCHEMA_VIOLATION", error.message
    if keyword in ("maxLength", "maxItems"):
        code, message = "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
    elif keyword in ("minLength", "minItems"):
        code, message = "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."
    elif keyword == "maximum":
        code, message = "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
    elif keyword == "minimum":
        code, message = "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
    elif keyword in ("enum", "const"):
        choices = limit if keyword == "enum" else [limit]
        code = "BASE_TYPE_CHOICES"
        message = f"Value must be one of {tuple(choices)}."
    elif keyword == "required" and isinstance(error.instance, dict):
        missing = [name for name in limit if name not in error.instance]
        path += missing[:1]
        code, message = "BASE_TYPE_REQUIRED", "This field is required"
    elif keyword == "pattern":
        code = "STRING_TYPE_REGEX"
        message = f"String value did not match validation regex ({limit})."
    elif keyword == "additionalProperties":
        code = "UNKNOWN_FIELD"
    return SpecError(".".join(path), message, code)


def _deepest(error: ValidationError) -> ValidationError:
    """The error to show for a failed union (oneOf/anyOf of component or callback types): the
    branch whose ``type`` matched, else jsonschema's best match, descending."""
    from jsonschema.exceptions import best_match, relevance

    while error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
        # a branch is not the one meant if its discriminator ("type") or the JSON type of
        # the value itself does not match
        matching = [
            errors
            for errors in branches.values()
            if not any(
                list(sub.relative_path) == ["type"]
                or (sub.validator == "type" and not sub.relative_path)
                for sub in errors
            )
        ]
        if len(matching) == 1:
            # one step down only (best_match would descend on its own, past the branch)
            error = max(matching[0], key=relevance)
        else:
            better = best_match(error.context)
            if better is None:
                break
            error = better
    return error


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile(
        "^" + "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts) + "$"
    )
