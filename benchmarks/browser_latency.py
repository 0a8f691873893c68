"""Click-to-redraw latency of the table page in a real browser.

A person (headless Chromium, driven by Playwright, Debian's ``/usr/bin/chromium``)
plays Slobberhannes against three random bots on a local ``kartentisch serve``.
The page itself measures each of the person's card clicks: from the click
(``performance.now()`` in a capture listener) to the first animation frame
after the page drew the server's answer (its root's ``data-version`` passed the
version the action was sent on). That is what a person waits for: the request
over the WebSocket, the server's check, store and broadcast, and the page's
redraw. Reports the median, p90, p99 and the maximum in milliseconds.

    python benchmarks/browser_latency.py --clicks 200
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from web_load import free_port, percentile, start_server, stop_server

CHROMIUM = "/usr/bin/chromium"

#: Installed in the page before anything else: the click and redraw times.
MEASURE = """
window.__latencies = [];
let pending = null;
document.addEventListener("click", (event) => {
  if (event.target.closest(".hand-card.playable")) pending = performance.now();
}, true);
const watch = () => {
  const app = document.getElementById("app");
  if (!app) return setTimeout(watch, 10);
  new MutationObserver(() => {
    if (pending === null || app.dataset.sent === undefined) return;
    if (Number(app.dataset.version) <= Number(app.dataset.sent)) return;
    const started = pending;
    pending = null;
    requestAnimationFrame(() => window.__latencies.push(performance.now() - started));
  }).observe(app, { attributes: true, attributeFilter: ["data-version"] });
};
watch();
"""


def run(clicks: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(port, Path(tmp), Path(tmp) / "server.log")
        url = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
                )
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.add_init_script(MEASURE)
                page = context.new_page()
                page.set_default_timeout(30_000)
                done = 0
                tables = 0
                latencies: list[float] = []
                while done < clicks:
                    body = {
                        "game": "slobberhannes",
                        "name": "Ann",
                        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3,
                        "options": {"target": 100},
                    }
                    created = page.request.post(
                        f"{url}/api/tables",
                        data=json.dumps(body),
                        headers={"content-type": "application/json"},
                    )
                    table = created.json()
                    if "id" not in table:
                        raise RuntimeError(f"the table was not created: {table}")
                    tables += 1
                    page.goto(f"{url}/t/{table['id']}#seat={table['seat']}&token={table['token']}")
                    page.locator(".hand-card.playable").first.wait_for()
                    # A new page: its own list of latencies.
                    for here in range(1, page.locator(".hand-card").count() + 1):  # one deal
                        card = page.locator(".hand-card.playable").first
                        card.wait_for()
                        page.evaluate(
                            "() => { delete document.getElementById('app').dataset.sent; }"
                        )
                        card.click()
                        done += 1
                        page.wait_for_function("n => window.__latencies.length >= n", arg=here)
                        if done >= clicks:
                            break
                    latencies += page.evaluate("window.__latencies")
                browser.close()
        finally:
            stop_server(server)
    ordered = sorted(latencies)
    return {
        "clicks": len(ordered),
        "tables": tables,
        "median_ms": statistics.median(ordered),
        "p90_ms": percentile(ordered, 0.90),
        "p99_ms": percentile(ordered, 0.99),
        "max_ms": ordered[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=200, help="card clicks to measure")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    started = time.monotonic()
    result = run(args.clicks)
    result["seconds"] = round(time.monotonic() - started, 1)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['clicks']} clicks at {result['tables']} tables: median "
            f"{result['median_ms']:.1f} ms, p90 {result['p90_ms']:.1f} ms, "
            f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms "
            f"({result['seconds']} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
