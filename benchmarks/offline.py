"""The offline app's numbers (docs/offline.md), in Debian's chromium through Playwright.

The app is built with ``trashcards build-static`` and served by a plain static file
server on 127.0.0.1 that answers unknown addresses with ``404.html`` as GitHub Pages does
(no Python game server: a table "On this device" needs none).

- **Transfer size of a first visit**, compressed (gzip -9, what a static host sends), split
  into the shell (pages, styles, catalogs, icons, the page scripts) and the rules runtime
  (``static/js/local/``: engine, bots, worker, transport).
- **Time to a playable table**: from the lobby's "Create the table" (On this device)
  to the moment the table page lets the player act, on a first visit (nothing cached)
  and offline from the service worker's cache; each also with a throttled 4G profile
  (DevTools network emulation: 40 ms latency, 9 Mbit/s down, 1.5 Mbit/s up, 4× CPU
  slow-down).
- **A local bot's decision**: ``decide()`` of each local level on the views of seeded
  matches, timed in the page (``performance.now()``, which Chromium rounds to 0.1 ms: each
  view's decision is timed 50 times over and divided), 50th and 99th percentiles.
- **A hint on this device** (``static/js/local/hint.js``, its default budget of 0.5 s
  and at least 8 deals) at decision points of seeded matches: 50th and 95th percentiles,
  and the deals it managed.

    python benchmarks/offline.py [--runs 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from quantiles import percentile
from trashcards.web.offline import build_static
from trashcards.web.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web" / "browser"))
from statichost import static_host

FOUR_G = {"offline": False, "latency": 40, "downloadThroughput": 9_000_000 / 8,
          "uploadThroughput": 1_500_000 / 8}


def transfer_sizes(site: Path) -> dict[str, int]:
    """Bytes (gzip -9) a first visit transfers: everything the worker caches, split."""
    shell = runtime = 0
    for path in site.rglob("*"):
        if not path.is_file() or path.name == "404.html" or (path.parent != site and \
                path.relative_to(site).parts[0] in ("t", "p", "rules", "review")):
            continue
        size = len(gzip.compress(path.read_bytes(), 9))
        if "/js/local/" in path.as_posix():
            runtime += size
        else:
            shell += size
    return {"shell_gzip_bytes": shell, "runtime_gzip_bytes": runtime}


def _create_and_wait(page: Any, base: str) -> float:
    """From clicking Create (On this device) to a playable table, in ms."""
    page.wait_for_selector("#seat-rows li")
    page.check("#on-device")
    began = time.perf_counter()
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/local-**")
    page.wait_for_function("document.body.dataset.acting !== ''"
                           " && document.body.dataset.acting !== undefined")
    return (time.perf_counter() - began) * 1000


def _context(browser: Any, throttle: bool) -> tuple[Any, Any]:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.add_init_script("window.trashBotDelay = 0;")
    if throttle:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", FOUR_G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return context, page


def time_to_table(browser: Any, base: str, runs: int, throttle: bool) -> dict[str, list[float]]:
    first: list[float] = []
    offline: list[float] = []
    for _ in range(runs):
        context, page = _context(browser, throttle)
        began = time.perf_counter()
        page.goto(f"{base}/")
        lobby_ms = (time.perf_counter() - began) * 1000
        first.append(lobby_ms + _create_and_wait(page, base))
        page.evaluate("navigator.serviceWorker.ready")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        began = time.perf_counter()
        page.goto(f"{base}/")
        lobby_ms = (time.perf_counter() - began) * 1000
        offline.append(lobby_ms + _create_and_wait(page, base))
        context.close()
    return {"first_visit_ms": first, "offline_ms": offline}


BOT_TIMING = """async () => {
  const REPEAT = 50;  // performance.now() is coarse: time 50 decisions on each view
  const engine = await import('/static/js/local/engine.js');
  const { decide } = await import('/static/js/local/bots.js');
  const out = {};
  for (const bot of ['sometimes', 'kid', 'greedy']) {
    const times = [];
    for (let seed = 0; seed < 40; seed += 1) {
      const rng = new engine.PyRandom(seed);
      const rules = engine.makeRules({preset: seed % 2 ? 'call-trash' : 'standard'});
      let state = engine.newMatch(rules, ['a', 'b', 'c'].slice(0, 2 + seed % 2));
      for (let n = 0; n < 3000 && state.phase !== 'match_over'; n += 1) {
        const seat = engine.toAct(state);
        let move;
        if (seat === null) {
          move = engine.sampleChance(state, rng);
        } else {
          const view = engine.view(state, seat);
          const began = performance.now();
          for (let k = 0; k < REPEAT; k += 1) decide(bot, view, rng, rules);
          times.push((performance.now() - began) / REPEAT);
          move = decide(bot, view, rng, rules);
        }
        state = engine.apply(state, move, seat).state;
      }
    }
    out[bot] = times;
  }
  return out;
}"""


HINT_TIMING = """async () => {
  const engine = await import('/static/js/local/engine.js');
  const { decide } = await import('/static/js/local/bots.js');
  const { hint } = await import('/static/js/local/hint.js');
  const times = [];
  const samples = [];
  for (let seed = 0; seed < 8; seed += 1) {
    const rng = new engine.PyRandom(seed);
    const preset = ['standard', 'call-trash', 'kids', 'jokers'][seed % 4];
    const rules = engine.makeRules({preset});
    let state = engine.newMatch(rules, ['a', 'b', 'c'].slice(0, 2 + seed % 2));
    for (let n = 0; n < 3000 && state.phase !== 'match_over'; n += 1) {
      const seat = engine.toAct(state);
      if (seat !== null && n % 37 === 5) {
        const began = performance.now();
        const answer = hint(engine.view(state, seat), rules, new engine.PyRandom(n));
        times.push(performance.now() - began);
        samples.push(answer.samples);
      }
      const move = seat === null ? engine.sampleChance(state, rng)
        : decide('greedy', engine.view(state, seat), rng, rules);
      state = engine.apply(state, move, seat).state;
    }
  }
  return {times, samples};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per figure")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build_static(Settings().static_dir, Settings().templates_dir, site)
        sizes = transfer_sizes(site)
        with static_host(site) as base:  # as GitHub Pages serves it (the browser tests' host)
            executable = shutil.which("chromium") or shutil.which("chromium-browser")
            results: dict[str, Any] = {"sizes": sizes}
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=executable, args=["--no-sandbox", "--headless"])
                results["local"] = time_to_table(browser, base, args.runs, throttle=False)
                results["4g"] = time_to_table(browser, base, args.runs, throttle=True)
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{base}/")
                bots = page.evaluate(BOT_TIMING)
                hints = page.evaluate(HINT_TIMING)
                browser.close()
    results["bots_ms"] = {bot: {"decisions": len(t), "p50": percentile(t, 0.5),
                                "p99": percentile(t, 0.99)} for bot, t in bots.items()}
    results["hint_ms"] = {"hints": len(hints["times"]), "p50": percentile(hints["times"], 0.5),
                          "p95": percentile(hints["times"], 0.95),
                          "max": max(hints["times"]),
                          "samples_median": statistics.median(hints["samples"]),
                          "samples_min": min(hints["samples"])}
    print(f"first visit transfer (gzip): shell {sizes['shell_gzip_bytes'] / 1024:.1f} KiB, "
          f"rules runtime {sizes['runtime_gzip_bytes'] / 1024:.1f} KiB")
    for profile in ("local", "4g"):
        for key in ("first_visit_ms", "offline_ms"):
            values = results[profile][key]
            print(f"{profile:5s} {key:15s} median {statistics.median(values):7.0f} ms  "
                  f"max {max(values):7.0f} ms  ({len(values)} runs)")
    for bot, figures in results["bots_ms"].items():
        print(f"bot {bot:9s} p50 {figures['p50'] * 1000:.1f} µs  "
              f"p99 {figures['p99'] * 1000:.1f} µs  "
              f"({figures['decisions']} decisions)")
    figures = results["hint_ms"]
    print(f"hint p50 {figures['p50']:.0f} ms  p95 {figures['p95']:.0f} ms  "
          f"max {figures['max']:.0f} ms  ({figures['hints']} hints; deals per hint: median "
          f"{figures['samples_median']}, min {figures['samples_min']})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
