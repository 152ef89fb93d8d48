"""Discord's rate limits, as the fake answers them: 429 with ``retry_after`` and the rate-limit
headers, from a global bucket and per-route buckets, and 40003 when DMs are opened too fast.

What Discord documents (developer documentation, Topics > Rate Limits,
https://discord.com/developers/docs/topics/rate-limits):

- "Limits are applied to individual bots ... both on a per-route basis and globally."
- Global: "All bots can make up to 50 requests per second to our API", and "Interaction
  endpoints are not bound to the bot's Global Rate Limit" (section "Global Rate Limit"): the
  interaction callback and the interaction token's webhook routes (followups, edits of the
  original response) count against no global bucket.
- Per-route limits "often account for top-level resources within the path": channels, guilds,
  webhooks (webhook id + token); two channels have separate buckets (section "Rate Limits").
- Headers (section "Header Format"): ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch
  seconds), ``-Reset-After`` (seconds), ``-Bucket`` (a hash naming the limit), and on a 429
  ``X-RateLimit-Global`` (global limit) and ``X-RateLimit-Scope`` (``user``, ``global`` or
  ``shared``); ``Retry-After`` as on any 429.
- The 429 body (section "Exceeding A Rate Limit"): ``message``, ``retry_after`` (seconds, a
  float), ``global`` (bool), and ``code`` for some limits.

Discord publishes no per-route figures ("rate limits should not be hard coded into your app":
the headers say them). The fake uses the figures Discord's headers report for these routes
(message sends and edits 5 per 5 s per channel, deletes 5 per second, reactions one per
0.25 s), as a bot reads them in ``X-RateLimit-Limit`` / ``-Reset-After``.

A real 429 also comes with ``Via: 1.1 google`` (Discord's load balancer): discord.py treats a
429 without a ``Via`` header as a Cloudflare ban and does not retry it, so the fake sends it.

JSON error 40003 "You are opening direct messages too fast" (Topics > Opcodes and Status Codes,
JSON Error Codes) has no published threshold either: the fake refuses a DM channel opened past
``dm_opens`` (count, seconds) only where a test or benchmark sets it.

``RateLimits.usage`` keeps, per bucket, the most requests it took in any one of its windows:
what bench/ compares with the limit.

On by default, in every test and in the sandbox, as on Discord; ``FakeDiscord(rate_limits=False)``
or the environment's ``FAKEDISCORD_RATE_LIMITS=0`` turns the refusals off (the counting goes on)
for a benchmark or test that measures something else and says why.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections import deque
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

GLOBAL_LIMIT = 50  # requests per second, per bot (Rate Limits, "Global Rate Limit")
GLOBAL_WINDOW = 1.0


@dataclass(frozen=True)
class Rule:
    """A per-route limit: requests matching `pattern` (method and path) share a bucket per
    top-level resource (the pattern's `major` group); `limit` requests per `window` seconds."""

    name: str  # also the X-RateLimit-Bucket hash the fake reports
    method: str
    pattern: re.Pattern[str]
    limit: int
    window: float


def _rule(name: str, method: str, pattern: str, limit: int, window: float) -> Rule:
    return Rule(name, method, re.compile(pattern + "$"), limit, window)


_CHANNEL = r"/channels/(?P<major>\d+)"
RULES: list[Rule] = [
    _rule("message-create", "POST", _CHANNEL + r"/messages", 5, 5.0),
    _rule("message-edit", "PATCH", _CHANNEL + r"/messages/\d+", 5, 5.0),
    _rule("message-delete", "DELETE", _CHANNEL + r"/messages/\d+", 5, 1.0),
    _rule("reaction", "PUT", _CHANNEL + r"/messages/\d+/reactions/[^/]+/@me", 1, 0.25),
    _rule("reaction", "DELETE", _CHANNEL + r"/messages/\d+/reactions/[^/]+/@me", 1, 0.25),
    _rule("channel-edit", "PATCH", _CHANNEL, 5, 5.0),
    _rule("thread-create", "POST", _CHANNEL + r"(/messages/\d+)?/threads", 5, 5.0),
    # an interaction token's webhook: a bucket per token (webhook id + token), no global one
    _rule("interaction-webhook", "POST", r"/webhooks/\d+/(?P<major>[^/]+)", 5, 2.0),
    _rule("interaction-webhook", "PATCH", r"/webhooks/\d+/(?P<major>[^/]+)/messages/[^/]+", 5, 2.0),
]


def is_interaction_route(method: str, path: str) -> bool:
    """The interaction callback and the interaction token's webhook: not under the global
    limit (Rate Limits, "Global Rate Limit")."""
    return path.startswith(("/interactions/", "/webhooks/"))


@dataclass
class Window:
    """A fixed window: opened by its first request, `count` requests in it so far."""

    started: float
    count: int = 0


@dataclass
class Verdict:
    """What the rate limits make of one request: headers for the answer, or a refusal."""

    headers: dict[str, str] = field(default_factory=dict)
    status: int | None = None  # 429 or 400 when refused
    body: dict | None = None


@dataclass
class RateLimits:
    """The fake's buckets. ``enabled`` False: nothing is limited (for tests that measure
    something else); usage is counted either way."""

    enabled: bool = True
    global_limit: int = GLOBAL_LIMIT
    rules: list[Rule] = field(default_factory=lambda: list(RULES))
    # (count, seconds): more DM channels opened than this in that time is 40003; None: never
    dm_opens: tuple[int, float] | None = None
    windows: dict[str, Window] = field(default_factory=dict)
    # bucket name -> the most requests any one of its windows took (all resources together
    # for a per-route rule: the busiest channel); "global" -> the busiest second
    usage: dict[str, int] = field(default_factory=dict)
    limits: dict[str, tuple[int, float]] = field(default_factory=dict)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (route, scope) of each 429
    _dm_opened: deque[float] = field(default_factory=deque)

    def reset(self) -> None:
        """Discord's figures again, every bucket empty (between tests sharing a fake)."""
        self.global_limit = GLOBAL_LIMIT
        self.rules = list(RULES)
        self.dm_opens = None
        self.windows.clear()
        self._dm_opened.clear()

    def reset_usage(self) -> None:
        """Count usage from now on (a benchmark's measured part)."""
        self.usage.clear()
        self.windows.clear()

    def set_limit(self, name: str, limit: int, window: float | None = None) -> None:
        """Change a rule's figures (a test forcing a 429 sooner); "global" for the global one."""
        if name == "global":
            self.global_limit = limit
            return
        self.rules = [
            Rule(r.name, r.method, r.pattern, limit, window or r.window) if r.name == name else r
            for r in self.rules
        ]

    def admit(self, method: str, path: str, now: float | None = None) -> Verdict:
        now = time.monotonic() if now is None else now
        wall = time.time()
        verdict = Verdict()
        if method == "POST" and path == "/users/@me/channels" and self.dm_opens is not None:
            count, seconds = self.dm_opens
            while self._dm_opened and now - self._dm_opened[0] > seconds:
                self._dm_opened.popleft()
            if len(self._dm_opened) >= count:
                verdict.status = 400
                verdict.body = {
                    "message": "You are opening direct messages too fast.",
                    "code": 40003,
                }
                return verdict
            self._dm_opened.append(now)
        rule = next((r for r in self.rules if r.method == method and r.pattern.match(path)), None)
        route_window: Window | None = None
        if rule is not None:
            match = rule.pattern.match(path)
            major = (match.groupdict().get("major") if match else None) or ""
            route_window = self._window(f"{rule.name}:{major}", rule.window, now)
            remaining = rule.limit - route_window.count
            reset_after = max(0.0, route_window.started + rule.window - now)
            if self.enabled and remaining <= 0:
                return self._refuse(
                    verdict, rule.name, rule.limit, reset_after, wall, "user", f"{method} {path}"
                )
        global_window: Window | None = None
        if not is_interaction_route(method, path):
            global_window = self._window("global", GLOBAL_WINDOW, now)
            if self.enabled and global_window.count >= self.global_limit:
                reset_after = max(0.0, global_window.started + GLOBAL_WINDOW - now)
                return self._refuse(
                    verdict,
                    None,
                    self.global_limit,
                    reset_after,
                    wall,
                    "global",
                    f"{method} {path}",
                )
            global_window.count += 1
            self._used("global", global_window.count, self.global_limit, GLOBAL_WINDOW)
        if rule is not None and route_window is not None:
            route_window.count += 1
            self._used(rule.name, route_window.count, rule.limit, rule.window)
            reset_after = max(0.0, route_window.started + rule.window - now)
            verdict.headers = {
                "X-RateLimit-Limit": str(rule.limit),
                "X-RateLimit-Remaining": str(max(0, rule.limit - route_window.count)),
                "X-RateLimit-Reset": f"{wall + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": rule.name,
            }
        return verdict

    def _window(self, key: str, length: float, now: float) -> Window:
        window = self.windows.get(key)
        if window is None or now - window.started >= length:
            window = self.windows[key] = Window(now)
        return window

    def _used(self, name: str, count: int, limit: int, window: float) -> None:
        self.usage[name] = max(self.usage.get(name, 0), count)
        self.limits[name] = (limit, window)

    def _refuse(
        self,
        verdict: Verdict,
        bucket: str | None,
        limit: int,
        reset_after: float,
        wall: float,
        scope: str,
        route: str,
    ) -> Verdict:
        is_global = scope == "global"
        verdict.status = 429
        verdict.body = {
            "message": "You are being rate limited.",
            "retry_after": round(reset_after, 3),
            "global": is_global,
        }
        verdict.headers = {
            "Retry-After": str(math.ceil(reset_after)),
            "Via": "1.1 google",
            "X-RateLimit-Scope": scope,
        }
        if is_global:
            verdict.headers["X-RateLimit-Global"] = "true"
        else:
            verdict.headers.update(
                {
                    "X-RateLimit-Limit": str(limit),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{wall + reset_after:.3f}",
                    "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                    "X-RateLimit-Bucket": bucket or "global",
                }
            )
        self.refused.append((bucket or "global", scope))
        # a warning, so a failing test's captured log says which request waited and how long
        log.warning(
            "429 to %s (%s bucket, scope %s): retry after %.2f s",
            route,
            bucket or "global",
            scope,
            reset_after,
        )
        return verdict
