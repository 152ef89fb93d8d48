"""What checking each request against Discord's OpenAPI description costs the fake Discord.

Posts the same messages to a fake with the check off (the floor) and on: a plain message with
buttons, an embed with fields, and a Components V2 match card with an upload, each through
the REST API as the bot sends them, over one keep-alive connection. Prints the median time a
post takes each way and their ratio, the median time of the validation alone, and the one-off
compile time of the route's validator.

    .venv/bin/python bench/openapi_check.py [--posts 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fakediscord import limits, openapi
from fakediscord.server import FakeDiscord

ROW = {
    "type": 1,
    "components": [
        {"type": 2, "style": 1, "label": f"Move {n}", "custom_id": f"move:{n}"} for n in range(5)
    ],
}
PAYLOADS = {
    "buttons": {"content": "Alice to move", "components": [ROW]},
    "embed": {
        "embeds": [
            {
                "title": "Round 3",
                "description": "x" * 400,
                "fields": [
                    {"name": f"Team {n}", "value": "12 pts", "inline": True} for n in range(6)
                ],
                "image": {"url": "attachment://board.png"},
            }
        ]
    },
    "v2 card": {
        "flags": limits.FLAG_IS_COMPONENTS_V2,
        "components": [
            {
                "type": 17,
                "accent_color": 0x2E86DE,
                "components": [
                    {
                        "type": 9,
                        "components": [{"type": 10, "content": "## Score 1-0"}],
                        "accessory": {"type": 11, "media": {"url": "attachment://board.png"}},
                    },
                    {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                    {"type": 14},
                    {"type": 10, "content": "Alice to move. " * 20},
                    ROW,
                ],
            }
        ],
    },
}
PNG = b"\x89PNG\r\n\x1a\n" + bytes(2000)


async def post_all(fake: FakeDiscord, channel_id: int, payload: dict, posts: int) -> list[float]:
    url = f"{fake.api_base}/channels/{channel_id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    times = []
    async with aiohttp.ClientSession() as http:
        for _ in range(posts):
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(payload))
            form.add_field("files[0]", PNG, filename="board.png", content_type="image/png")
            started = time.perf_counter()
            async with http.post(url, data=form, headers=headers) as answer:
                await answer.read()
                assert answer.status == 200, await answer.text()
            times.append(time.perf_counter() - started)
    return times


def measure(spec_check: bool, payload: dict, posts: int) -> float:
    # Hundreds of posts to one channel, timed: the cost of the check, not Discord's limit of
    # 5 posts per 5 s, which would make every post after the fifth wait.
    fake = FakeDiscord(spec_check=spec_check, rate_limits=False)
    channel = fake.add_channel("bench")
    fake.start()
    try:
        times = asyncio.run(post_all(fake, channel.id, payload, posts))
    finally:
        fake.stop()
    return statistics.median(times[5:])  # the first posts compile the validator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--posts", type=int, default=200)
    args = parser.parse_args()
    check = openapi.load()
    if check is None:
        sys.exit("no OpenAPI description beside the repository: nothing to measure")
    started = time.perf_counter()
    check._validator("POST", "/channels/{channel_id}/messages")
    compile_ms = (time.perf_counter() - started) * 1000
    print(f"validator for POST /channels/{{channel_id}}/messages compiled in {compile_ms:.0f} ms")
    validate = check._validator("POST", "/channels/{channel_id}/messages")
    assert validate is not None
    print(
        f"{'message':<10} {'post, check off (floor)':>24} {'post, check on':>15} {'ratio':>6}"
        f" {'validation alone':>17}"
    )
    for name, payload in PAYLOADS.items():
        floor = measure(False, payload, args.posts)
        checked = measure(True, payload, args.posts)
        body = {**payload, "attachments": [{"id": 0, "filename": "board.png"}]}
        alone = []
        for _ in range(args.posts):
            started = time.perf_counter()
            validate(body)
            alone.append(time.perf_counter() - started)
        print(
            f"{name:<10} {floor * 1000:>21.2f} ms {checked * 1000:>12.2f} ms "
            f"{checked / floor:>5.2f}x {statistics.median(alone) * 1000:>14.3f} ms"
        )


if __name__ == "__main__":
    main()
