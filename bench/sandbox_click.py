"""A click in the browser to the updated message shown (issue 15: median under 150 ms).

Starts a fresh sandbox, opens the page in headless Chromium (Debian's, via Playwright), runs
/help, then clicks the help message's Next/Previous buttons. Each sample is measured in the
page: from the click to the frame after the edited message (a new version) is in the DOM, so
it includes the page's request, the fake Discord, the bot's answer, the event stream and the
page's rendering.

    .venv/bin/python bench/sandbox_click.py [--clicks 40]
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clicks", type=int, default=40)
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


if __name__ == "__main__":
    main()
