"""How long a reader waits for a JupyterLite notebook, with and without precompiled modules.

A script, not a test: `.venv/bin/python benchmarks/bench_lite_start.py [--rounds N] [--notebook NAME]`.

Builds the site twice with scripts/lite.sh (as published, and with --no-precompile: the
kernel's modules as source only, as before scripts/pyodide_precompile.py), serves both
from 127.0.0.1 and, N rounds, opens NAME in each in turn in a fresh offline Chromium: from
the page load until Run All has finished and the kernel is idle. Alternating the two
keeps a busy machine's noise out of the ratio. Prints each round, the medians of wall
time and of the machine's CPU time (/proc/stat, so Chromium's workers count), their
ratio, and the size of the two sites' static/pyodide.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.lite.test_lite_site import _Handler, run_all  # noqa: E402


def busy_ticks() -> int:
    """CPU ticks the whole machine has spent busy (every core, every process)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return sum(fields) - fields[3] - fields[4]  # minus idle and iowait


def build(out: Path, *extra: str) -> None:
    subprocess.run(
        ["bash", str(REPO / "scripts" / "lite.sh"), str(out), *extra], check=True, capture_output=True
    )


def serve(site: Path) -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    server.requests = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def open_and_run(playwright, base: str, notebook: str) -> tuple[float, float]:
    """Seconds and CPU-seconds from a fresh browser's page load to Run All done."""
    ticks, started = busy_ticks(), time.perf_counter()
    browser = playwright.chromium.launch(
        executable_path=chromium_path(),
        headless=True,
        args=[*CHROMIUM_ARGS, "--proxy-server=http://127.0.0.1:9"],
    )
    try:
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        text = run_all(page, base, notebook)
        if "Traceback" in text:
            raise SystemExit(f"{notebook} failed in {base}:\n{text[-2000:]}")
    finally:
        browser.close()
    return time.perf_counter() - started, (busy_ticks() - ticks) / 100


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--notebook", default="01_keys_and_values.ipynb")
    args = parser.parse_args()
    from bench_core import machine
    from playwright.sync_api import sync_playwright

    print("machine:", machine())

    with tempfile.TemporaryDirectory(prefix="kvw-bench-lite-") as tmp:
        sites = {"precompiled": Path(tmp) / "precompiled", "source only": Path(tmp) / "source"}
        print("building both sites (scripts/lite.sh) ...", flush=True)
        build(sites["precompiled"])
        build(sites["source only"], "--no-precompile")
        bases = {name: serve(site) for name, site in sites.items()}
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in sites}
        with sync_playwright() as playwright:
            for round_ in range(1, args.rounds + 1):
                for name, base in bases.items():
                    wall, cpu = open_and_run(playwright, base, args.notebook)
                    runs[name].append((wall, cpu))
                    print(f"round {round_} {name:>12}: {wall:5.1f} s, {cpu:5.1f} CPU-s", flush=True)
        print(f"\n{args.notebook}, page load to Run All done, median of {args.rounds}:")
        medians = {name: [statistics.median(r[i] for r in rs) for i in (0, 1)] for name, rs in runs.items()}
        for name, (wall, cpu) in medians.items():
            size = sum(p.stat().st_size for p in (sites[name] / "static" / "pyodide").iterdir())
            print(f"  {name:>12}: {wall:5.1f} s, {cpu:5.1f} CPU-s; static/pyodide {size / 1e6:.1f} MB")
        (w1, c1), (w0, c0) = medians["precompiled"], medians["source only"]
        print(f"  precompiled / source only: wall {w1 / w0:.2f}, CPU {c1 / c0:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
