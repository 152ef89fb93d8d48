"""A click in the browser to the updated message shown (goal: median under 150 ms).

Starts a fresh sandbox, opens the page in headless Chromium (Debian's, via Playwright), runs
/help, then clicks the help message's Next/Previous buttons. Each sample is measured in the
page: from the click to the frame after the edited message (a new version) is in the DOM, so
it includes the page's request, the fake Discord, the bot's answer, the event stream and the
page's rendering.

Then Alice and Bob play Rocketball through the page, and each Roll/Aim click is measured to the
first change shown and to the next turn's board image shown (the bot draws it with Pillow).

    .venv/bin/python bench/sandbox_click.py [--clicks 40] [--game-clicks 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.sandbox.conftest import CHROMIUM_FLAGS, SandboxProcess, find_chromium  # noqa: E402

CLICK_TO_SHOWN = """async (id) => {
    const box = document.getElementById('messages');
    const message = () => box.querySelector(`.message[data-id="${id}"]`);
    const before = message().dataset.version;
    const button = [...message().querySelectorAll('button.btn')].find(b => !b.disabled);
    const started = performance.now();
    const shown = new Promise(resolve => {
        const watch = new MutationObserver(() => {
            if (message() && message().dataset.version !== before) {
                watch.disconnect();
                requestAnimationFrame(() => resolve(performance.now() - started));
            }
        });
        watch.observe(box, {childList: true, subtree: true, attributes: true});
    });
    button.click();
    return await shown;
}"""


GAME_CLICK = """async ([id, label]) => {
    const box = document.getElementById('messages');
    const message = box.querySelector(`.message[data-id="${id}"]`);
    const button = [...message.querySelectorAll('button.btn')].find(b => b.textContent === label);
    const versions = () => [...box.querySelectorAll('.message')].map(
        m => `${m.dataset.id}:${m.dataset.version}`).join();
    const before = versions();
    const known = new Set([...box.querySelectorAll('.message')].map(m => m.dataset.id));
    const started = performance.now();
    let first = null;
    const shown = new Promise(resolve => {
        const check = () => {
            // the bot's first visible answer: a message edited or posted (not the page's own
            // greying of the clicked button)
            if (first === null && versions() !== before) first = performance.now() - started;
            const fresh = [...box.querySelectorAll('.message')].filter(
                m => !known.has(m.dataset.id) && m.querySelector('img.media'));
            const image = fresh.length && fresh[fresh.length - 1].querySelector('img.media');
            if (image && image.complete && image.naturalWidth) {
                watch.disconnect();
                requestAnimationFrame(() => resolve([first, performance.now() - started]));
            } else if (image) {
                image.addEventListener('load', check, {once: true});
            }
        };
        const watch = new MutationObserver(check);
        watch.observe(box, {childList: true, subtree: true, attributes: true});
    });
    button.click();
    // a click whose answer has no new image (a message in words) is not counted
    const gaveUp = new Promise(resolve => setTimeout(() => resolve([first, null]), 15000));
    return await Promise.race([shown, gaveUp]);
}"""


def rocketball_clicks(page, sandbox, samples: int) -> list[tuple[float, float]]:
    """Alice and Bob play Rocketball through the page; each Roll/Aim click is measured to the
    first change shown and to the next turn's board image shown (decoded)."""
    import random
    import sqlite3

    from cogs.rocketball.presenter import RocketballAdapter
    from host import Match
    from rules.rocketball import ai
    from rules.rocketball.record import format_action

    def match() -> Match:
        with sqlite3.connect(sandbox.data / "sandbox.db") as conn:
            state = conn.execute("SELECT state FROM games ORDER BY id DESC LIMIT 1").fetchone()[0]
        return Match.from_json(RocketballAdapter(), state)

    def act_as(name: str) -> None:
        user_id = page.select_option("#user-select", label=name.capitalize())[0]
        page.wait_for_selector(f'body[data-user="{user_id}"]')

    for name in ("alice", "bob"):  # each presses the d4 (/settings me): the click timed here
        act_as(name)
        page.fill("#composer-input", "/settings me")
        page.locator('#suggestions .suggestion[data-command="settings me"]').click()
        page.locator("#opt-dice").select_option(label="I press Roll myself")
        page.locator("#send").click()
    act_as("alice")
    page.fill("#composer-input", "/rocketball challenge")
    page.locator('#suggestions .suggestion[data-command="rocketball challenge"]').click()
    page.locator("#opt-opponent").select_option(label="Bob")
    page.locator("#send").click()
    act_as("bob")
    challenge = page.locator("#messages .message", has_text="challenges you").last
    challenge.get_by_role("button", name="Accept").click()
    page.locator("#channel-list .channel.thread").last.click()
    seats = {"N": "alice", "S": "bob"}
    rng = random.Random(11)
    measured: list[tuple[float, float]] = []
    acted_on = None
    for _ in range(samples * 6):
        if len(measured) >= samples:
            break
        current = match()
        if current.engine.over:
            break
        act_as(seats[current.engine.to_move])
        turn = page.locator("#messages .message", has=page.locator("button.btn:not([disabled])"))
        # the next turn's message, not the one just acted on (its buttons go a moment later)
        page.wait_for_function(
            """(old) => {
                const turns = [...document.querySelectorAll('#messages .message')].filter(
                    m => m.querySelector('button.btn:not([disabled])'));
                return turns.length && turns[turns.length - 1].dataset.id !== old;
            }""",
            arg=acted_on,
        )
        page.wait_for_timeout(400)  # a player reads the board before clicking
        current = match()
        act_as(seats[current.engine.to_move])
        acted_on = turn.last.get_attribute("data-id")
        labels = turn.last.locator("button.btn:not([disabled])").all_inner_texts()
        if "Place or rotate a chip…" in labels:
            action = ai.choose_action(current.engine, "strong", rng)
            turn.last.get_by_role("button", name="Place or rotate a chip…").click()
            page.locator("#modal-backdrop").wait_for(state="visible")
            page.locator("#modal input").first.fill(format_action(action))
            page.locator("#modal-submit").click()
            page.wait_for_timeout(800)
            continue
        first, board = page.evaluate(GAME_CLICK, [acted_on, labels[0]])
        if first is not None and board is not None:
            measured.append((first, board))
    return measured


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--game-clicks", type=int, default=10)
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as folder:
        sandbox = SandboxProcess(Path(folder) / "data")
        sandbox.start()
        try:
            with sync_playwright() as playwright:
                context = playwright.chromium.launch_persistent_context(
                    str(Path(folder) / "profile"),
                    executable_path=chromium,
                    headless=True,
                    args=CHROMIUM_FLAGS,
                    viewport={"width": 1280, "height": 900},
                )
                page = context.pages[0] if context.pages else context.new_page()
                page.goto(sandbox.url)
                page.wait_for_selector("body[data-ready=true]")
                page.fill("#composer-input", "/help")
                page.locator('#suggestions .suggestion[data-command="help"]').click()
                page.locator("#send").click()
                help_message = page.locator("#messages .message", has_text="Page 1 of").last
                help_message.wait_for()
                message_id = help_message.get_attribute("data-id")
                page.wait_for_timeout(500)
                samples = [page.evaluate(CLICK_TO_SHOWN, message_id) for _ in range(args.clicks)]
                game = rocketball_clicks(page, sandbox, args.game_clicks)
                context.close()
        finally:
            sandbox.stop()
    samples.sort()
    print(f"browser click -> edited message shown, {len(samples)} clicks (help Next/Previous):")
    print(
        f"  median {statistics.median(samples):.0f} ms, "
        f"90th percentile {samples[int(len(samples) * 0.9) - 1]:.0f} ms, "
        f"worst {samples[-1]:.0f} ms (target: median < 150 ms)"
    )
    if game:
        firsts = sorted(first for first, _ in game)
        boards = sorted(board for _, board in game)
        print(f"Rocketball Roll/Aim click, {len(game)} clicks:")
        print(
            f"  to the first change shown: median {statistics.median(firsts):.0f} ms, "
            f"worst {firsts[-1]:.0f} ms"
        )
        print(
            f"  to the next turn's board image shown: median {statistics.median(boards):.0f} ms, "
            f"worst {boards[-1]:.0f} ms (includes the bot drawing the board)"
        )


if __name__ == "__main__":
    main()
