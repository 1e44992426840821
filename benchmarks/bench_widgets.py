"""What the widgets cost: bytes sent and saved, kernel time per change, browser redraw.

A script, not a test: `python3 benchmarks/bench_widgets.py [--changes N] [--moves N]`.
Per widget it prints, beside the targets:

  state     bytes JupyterLab receives for the widget itself when it is displayed: the
            JSON of its synced state (ESM and CSS included, as anywidget sends them)
            plus any binary buffers. plotly.js and the shared library
            (static/library.js) are not in it: they travel once per kernel in
            the SharedAssets model, printed on its own line
                                                                target <= 0.5 MB
  kernel    Python time of one input-trait change (the observer recomputing with
            kvwidgets.core and the update message JSON-encoded as the kernel would
            send it); median of N changes of each input trait, the slowest trait's
            median is the widget's figure                       target <= 2 ms
            (bench_kernel.py compares these with another commit, per input)
  redraw    in Chromium, on the exported page (no kernel): an input event on the
            context slider until plotly's plotly_afterplot; median of several moves
            after two warm-ups                                  target <= 33 ms
  menu      the same for each menu (model, GPU, dtypes) and the utilization slider;
            the slowest control's median                        target <= 33 ms
  drawn     exported page: navigation start until every widget has drawn
                                                                target <= 500 ms
            (and the same for one page holding all five)
            (the SVG explainers, which draw synchronously in the event: DecodeStep's
            Step button, PagedBlocks' context slider, are timed until the new diagram
            has its style and layout, which the timing forces as plotly forces its
            own; waiting for the next animation frame instead measured mostly where
            headless Chromium's frame fell, and moved against the work done)

then pages and notebooks with several widgets, built with nbconvert (a kernel runs):

  notebooks/index.ipynb executed with widget state saved     target <= 1.5 MB
  nbconvert --execute --to html pages with 1 / 3 / 5 widgets   target (5) <= 2 MB,
            and, for the 5-widget page served on 127.0.0.1 with the scripts of
            kvwidgets.export.offline_assets beside it, navigation start to every
            widget drawn (plotly.js evaluated once for the page)

Chromium is Debian's (KVW_CHROMIUM, else /usr/bin/chromium); --no-browser skips the
browser columns, --no-pages the nbconvert runs, --no-lab the live JupyterLab:

  first plot  in a live JupyterLab (three widget cells run one by one): from the
            widget's output appearing to its first plot; the first widget on the
            page evaluates plotly.js, the others reuse it            target <= 500 ms
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# Run from a checkout without installing: the package sits one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_core import machine
from bench_kernel import TARGET_MS as TARGET_KERNEL_MS
from bench_kernel import WIDGETS, kernel_ms

import kvwidgets as kw

# Widgets drawn as an SVG diagram (no plotly): the control whose event the redraw is timed from.
SVG_REDRAW = {"DecodeStep": ("step", "click"), "PagedBlocks": ("context", "slider")}
TARGET_STATE_BYTES = 500_000
TARGET_REDRAW_MS = 33.0
TARGET_DRAWN_MS = 500.0
TARGET_NOTEBOOK_BYTES = 1_500_000
TARGET_PAGE_BYTES = 2_000_000
REPO = Path(__file__).resolve().parent.parent

# Context slider stops to move between on the page: 16 stops per doubling from 1K,
# so stop 64 is 16,384 tokens and stop 80 is 32,768.
SLIDER_STOPS = (64, 80)

REDRAW_JS = """async ({ moves, stops }) => {
    const slider = document.querySelector('[data-kv="context"]');
    const gd = document.querySelector('.kv-plot');
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const times = [];
    for (let i = 0; i < moves + 2; i++) {
        const drawn = new Promise((resolve) => gd.once('plotly_afterplot', resolve));
        const t0 = performance.now();
        slider.value = String(stops[i % stops.length]);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        await drawn;
        if (i >= 2) times.push(performance.now() - t0);  // two warm-ups
        await frame();  // let the page paint before the next move
    }
    return times;
}"""


REDRAW_SVG_JS = """async ({ moves, stops, control, how }) => {
    const el = document.querySelector(`[data-kv="${control}"]`);
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const times = [];
    for (let i = 0; i < moves + 2; i++) {
        const before = document.querySelector('.kv-diagram svg');
        const t0 = performance.now();
        if (how === "click") el.click();
        else { el.value = String(stops[i % stops.length]); el.dispatchEvent(new Event('input', { bubbles: true })); }
        const svg = document.querySelector('.kv-diagram svg');
        if (svg === before) throw new Error(`${control} did not redraw`);
        svg.getBoundingClientRect();  // the style and layout of the new diagram, as plotly forces its own
        if (i >= 2) times.push(performance.now() - t0);
        await frame();  // let the page paint before the next move
    }
    return times;
}"""


# Menus (and the utilization slider) timed on the page: two values to alternate between.
MENUS = {
    "model": ["qwen3-8b", "llama-3-8b"],
    "gpu": ["H200", "H100-SXM"],
    "kv_dtype": ["fp8", "bf16"],
    "weight_dtype": ["fp8", "bf16"],
    "utilization": ["0.8", "0.9"],
}

MENU_JS = """async ({ menus, moves }) => {
    const gd = document.querySelector('.kv-plot');
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const out = {};
    for (const [name, values] of Object.entries(menus)) {
        const control = document.querySelector(`[data-kv="${name}"]`);
        if (!control) continue;
        const event = control.tagName === 'SELECT' ? 'change' : 'input';
        const times = [];
        for (let i = 0; i < moves + 2; i++) {
            const drawn = new Promise((resolve) => gd.once('plotly_afterplot', resolve));
            const t0 = performance.now();
            control.value = values[i % 2];
            control.dispatchEvent(new Event(event, { bubbles: true }));
            await drawn;
            if (i >= 2) times.push(performance.now() - t0);
            await frame();
        }
        out[name] = times;
    }
    return out;
}"""

ALL_DRAWN_JS = """(n) => {
    const plots = [...document.querySelectorAll('.kv-plot')];
    return plots.length === n && plots.every((p) => p.querySelector('svg.main-svg') && p.data && p.data.length > 0);
}"""


def state_bytes(widget) -> dict[str, int]:
    """Sizes of what the comm_open message carries for this widget."""
    from ipywidgets.widgets.widget import _remove_buffers

    state, _paths, buffers = _remove_buffers(widget.get_state())
    return {
        "total": len(json.dumps(state).encode()) + sum(len(memoryview(b).cast("B")) for b in buffers),
        "esm": len(widget._esm.encode()),
        "css": len((widget._css or "").encode()),
    }


def launch(pw):
    executable = os.environ.get("KVW_CHROMIUM") or "/usr/bin/chromium"
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    return pw.chromium.launch(executable_path=executable, headless=True, args=args)


def browser_ms(names: list[str], moves: int) -> dict[str, tuple[float, float, dict[str, float]]]:
    """name -> (median slider redraw ms, navigation to drawn ms, {menu: median ms}) on the exported page."""
    from playwright.sync_api import sync_playwright

    out = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        browser = launch(pw)
        for name in names:
            path = Path(folder) / f"{name}.html"
            getattr(kw, name)().to_html(path)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            # offline, as a course page opened from disk would be
            page.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith(("file:", "blob:", "data:"))
                    else route.abort()
                ),
            )
            page.goto(path.as_uri())
            page.wait_for_selector("html[data-kvw-export='ready']", state="attached")
            load_ms = page.evaluate("window.kvwExport.readyMs")
            if name in SVG_REDRAW:
                control, how = SVG_REDRAW[name]
                times = page.evaluate(
                    REDRAW_SVG_JS,
                    {"moves": moves, "stops": list(SLIDER_STOPS), "control": control, "how": how},
                )
                menus = {}  # no plotly graph to time menus on
            else:
                times = page.evaluate(REDRAW_JS, {"moves": moves, "stops": list(SLIDER_STOPS)})
                menus = page.evaluate(MENU_JS, {"menus": MENUS, "moves": moves})
            out[name] = (
                statistics.median(times),
                load_ms,
                {k: statistics.median(v) for k, v in menus.items()},
            )
            page.close()
        # all five on one page: five standalone ESMs, plotly.js started once
        path = Path(folder) / "all.html"
        kw.export.to_html([getattr(kw, name)() for name in names], path)
        loads = []
        for _ in range(3):
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith(("file:", "blob:", "data:"))
                    else route.abort()
                ),
            )
            page.goto(path.as_uri())
            page.wait_for_selector("html[data-kvw-export='ready']", state="attached")
            loads.append(page.evaluate("window.kvwExport.readyMs"))
            page.close()
        out["all"] = (0.0, statistics.median(loads), {})
        browser.close()
    return out


def write_pages(checkout: Path, folder: Path, names: list[str]) -> None:
    """Exported pages of each widget, written by the kvwidgets of `checkout` (its own process)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import kvwidgets as kw\n"
        "for n in sys.argv[3:]: getattr(kw, n)().to_html(f'{sys.argv[2]}/{n}.html')"
    )
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    subprocess.run([sys.executable, "-c", code, str(checkout), str(folder), *names], check=True, env=env)


def compare_redraws(other: Path, names: list[str], moves: int, rounds: int) -> int:
    """Slider redraws on the exported pages of this checkout and of `other`, alternately in
    one browser: per round and widget, both pages (which one first alternates by round),
    the median of `moves` redraws each; printed as the median over rounds."""
    from playwright.sync_api import sync_playwright

    here = Path(__file__).resolve().parent.parent
    times: dict[tuple[str, str], list[float]] = {}
    work: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        dirs = {"other": Path(folder) / "other", "this": Path(folder) / "this"}
        for key, checkout in (("other", other), ("this", here)):
            dirs[key].mkdir()
            write_pages(checkout, dirs[key], names)
        browser = launch(pw)
        for r in range(rounds):
            for name in names:
                for key in ("other", "this") if r % 2 == 0 else ("this", "other"):
                    page = browser.new_page(viewport={"width": 1200, "height": 900})
                    page.goto((dirs[key] / f"{name}.html").as_uri())
                    page.wait_for_selector("html[data-kvw-export='ready']", state="attached")
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Performance.enable")
                    before = task_seconds(cdp)
                    if name in SVG_REDRAW:
                        control, how = SVG_REDRAW[name]
                        arg = {"moves": moves, "stops": list(SLIDER_STOPS), "control": control, "how": how}
                        ms = page.evaluate(REDRAW_SVG_JS, arg)
                    else:
                        ms = page.evaluate(REDRAW_JS, {"moves": moves, "stops": list(SLIDER_STOPS)})
                    times.setdefault((name, key), []).append(statistics.median(ms))
                    # every task of the main thread while moving (script, style, layout, paint)
                    work.setdefault((name, key), []).append((task_seconds(cdp) - before) * 1000 / (moves + 2))
                    page.close()
        browser.close()
    for title, table in (
        (
            f"exported-page redraw, ms (median over {rounds} alternating rounds of the median of {moves} moves)",
            times,
        ),
        ("main-thread work per move, ms (all its tasks: script, style, layout, paint; mean per round)", work),
    ):
        print(title)
        # paired: the two pages of one round ran next to each other, under the same load
        print(f"{'widget':<18} {'other':>8} {'this':>8} {'this/other':>10} {'paired':>8}")
        ratios, paired = [], []
        for name in names:
            a = statistics.median(table[(name, "other")])
            b = statistics.median(table[(name, "this")])
            pair = statistics.median(y / x for x, y in zip(table[(name, "other")], table[(name, "this")]))
            ratios.append(b / a)
            paired.append(pair)
            print(f"{name:<18} {a:>8.2f} {b:>8.2f} {b / a:>10.3f} {pair:>8.3f}")
        geo = statistics.geometric_mean(ratios)
        print(
            f"{'geometric mean':<18} {'':>8} {'':>8} {geo:>10.3f} {statistics.geometric_mean(paired):>8.3f}"
        )
    return 0


def task_seconds(cdp) -> float:
    """Chromium's running total of the page's main-thread task time (Performance.getMetrics)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def run_nbconvert(cells: list[str], folder: Path, name: str, to: str) -> Path:
    """Execute a notebook of `cells` with nbconvert (widget state stored) into folder/name.<ext>."""
    import nbformat

    source = folder / f"{name}.ipynb"
    nbformat.write(
        nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell(c) for c in cells],
            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        ),
        source,
    )
    return nbconvert_file(source, folder, name, to)


def nbconvert_file(source: Path, folder: Path, name: str, to: str) -> Path:
    from kvwidgets.export.offline import NBCONVERT_FLAGS

    flags = list(NBCONVERT_FLAGS) if to == "html" else []
    cmd = [
        sys.executable,
        "-m",
        "jupyter",
        "nbconvert",
        "--execute",
        "--to",
        to,
        *flags,
        "--output-dir",
        str(folder),
        "--output",
        name,
        str(source),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=source.parent)
    if proc.returncode != 0:
        raise SystemExit(f"nbconvert failed on {source}:\n{proc.stderr[-3000:]}")
    return folder / f"{name}.{'html' if to == 'html' else 'ipynb'}"


def page_figures(browser_too: bool) -> dict:
    """Sizes of notebooks/index.ipynb executed with state and of 1/3/5-widget nbconvert pages."""
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        index = nbconvert_file(REPO / "notebooks" / "index.ipynb", folder, "index-executed", "notebook")
        data = index.read_bytes()
        out["index"] = (len(data), len(gzip.compress(data)))
        for n in (1, 3, 5):
            cells = ["import kvwidgets as kw"] + [f"kw.{name}()" for name in WIDGETS[:n]]
            page = run_nbconvert(cells, folder, f"widgets{n}", "html").read_bytes()
            out[n] = (len(page), len(gzip.compress(page)))
        if browser_too:
            from kvwidgets.export import offline_assets

            offline_assets(folder)
            out["drawn5"] = served_page_drawn_ms(folder, "widgets5.html", 5)
    return out


def served_page_drawn_ms(folder: Path, name: str, n: int, runs: int = 3) -> float:
    """Median of `runs` loads: navigation start until all n widgets drew (only 127.0.0.1 reachable)."""
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/{name}"
    times = []
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            for _ in range(runs):
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                page.route(
                    "**/*",
                    lambda route: route.continue_() if "//127.0.0.1:" in route.request.url else route.abort(),
                )
                page.goto(url)
                page.wait_for_function(ALL_DRAWN_JS, arg=n, polling="raf", timeout=60_000)
                times.append(page.evaluate("performance.now()"))
                page.close()
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    return statistics.median(times)


# Recorded in the page from its start: for each widget output JupyterLab adds, when it
# appeared (the cell's display message handled, so about when the cell finished) and
# when its plot first had an SVG.
LAB_WATCH_JS = """(() => {
    window.kvwFirstPlots = [];
    const seen = new Map();
    const scan = () => {
        for (const out of document.querySelectorAll('.jp-OutputArea-output')) {
            if (!seen.has(out)) { const row = { out: performance.now(), plot: null }; seen.set(out, row); window.kvwFirstPlots.push(row); }
            const row = seen.get(out);
            if (row.plot === null && out.querySelector('.kv-plot svg.main-svg')) row.plot = performance.now();
        }
    };
    // a MutationObserver runs right after the change that added the node, even while the
    // main thread stays busy (where an animation-frame poll would wait)
    new MutationObserver(scan).observe(document, { childList: true, subtree: true });
})();"""

LAB_CELLS = ["import kvwidgets as kw", "kw.UsersThatFit()", "kw.ContextVsUsers()", "kw.DecodeSpeed()"]


def lab_first_plots_ms() -> list[tuple[float, float]]:
    """Live JupyterLab (the browser tests' server), for three widget cells run one after
    another with Shift+Enter: ms from each widget output appearing to its first plot, and
    from the key press to the first plot (kernel time and messages included)."""
    from playwright.sync_api import sync_playwright

    from tests.browser.jupyterlab import LabServer

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        lab = LabServer(Path(tmp))
        lab.write_notebook("first_plot.ipynb", LAB_CELLS)
        browser = launch(pw)
        try:
            lab.start()
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.add_init_script(LAB_WATCH_JS)
            page.set_default_timeout(60_000)
            page.goto(lab.lab_url("first_plot.ipynb"))
            page.wait_for_selector(".jp-Notebook .jp-Cell")
            lab.wait_kernel_ready("first_plot.ipynb", page.wait_for_timeout)
            # one cell at a time, as a reader runs them: Shift+Enter, then wait for its plot
            page.locator(".jp-Notebook .jp-Cell").nth(0).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Escape")  # command mode: Shift+Enter runs and moves on
            page.keyboard.press("Shift+Enter")
            page.wait_for_selector(".jp-Notebook .jp-Cell >> nth=0 >> .jp-InputPrompt:has-text('[1]')")
            pressed = []
            for n in range(1, len(LAB_CELLS)):
                pressed.append(page.evaluate("performance.now()"))
                page.keyboard.press("Shift+Enter")
                page.wait_for_function(
                    f"window.kvwFirstPlots.length === {n} && window.kvwFirstPlots.every(r => r.plot !== null)",
                    polling=100,
                    timeout=120_000,
                )
            rows = page.evaluate("window.kvwFirstPlots")
        finally:
            browser.close()
            lab.stop()
    return [(r["plot"] - r["out"], r["plot"] - t) for r, t in zip(rows, pressed)]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def mark(ok: bool) -> str:
    return "ok" if ok else "OVER"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=40, help="changes of each input trait (default 40)")
    parser.add_argument("--moves", type=int, default=15, help="slider moves timed in Chromium (default 15)")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium timings")
    parser.add_argument("--no-pages", action="store_true", help="skip the nbconvert notebook and page sizes")
    parser.add_argument(
        "--no-lab", action="store_true", help="skip the first-plot timing in a live JupyterLab"
    )
    parser.add_argument(
        "--compare-with",
        metavar="CHECKOUT",
        help="only time exported-page redraws, of this checkout and of CHECKOUT (another "
        "kvwidgets checkout, e.g. a git worktree of main) alternately in one browser",
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="alternating rounds for --compare-with (default 5)"
    )
    parser.add_argument(
        "--widgets", nargs="+", choices=WIDGETS, default=WIDGETS, help="only these widgets (default: all)"
    )
    args = parser.parse_args()

    print(machine())
    if args.compare_with:
        return compare_redraws(Path(args.compare_with).resolve(), args.widgets, args.moves, args.rounds)
    print(
        f"kvwidgets {kw.__version__}; {args.changes} changes per trait; {args.moves} slider moves per widget\n"
    )
    sizes = {name: state_bytes(getattr(kw, name)()) for name in WIDGETS}
    kernel = {name: kernel_ms(getattr(kw, name), args.changes) for name in WIDGETS}
    browser = {} if args.no_browser else browser_ms(WIDGETS, args.moves)

    head = (
        f"{'widget':<18} {'state (KB)':>10} {'<=500':>5}  {'kernel ms':>9} {'<=2':>4}  {'slowest trait':<13}"
        f"  {'redraw ms':>9} {'<=33':>4}  {'menu ms':>7} {'<=33':>4} {'slowest menu':<12}  {'drawn ms':>8} {'<=500':>5}"
    )
    print(head)
    print("-" * len(head))
    failed = False
    for name in WIDGETS:
        size = sizes[name]["total"]
        slow_trait, (slow_ms, _) = max(kernel[name].items(), key=lambda kv: kv[1][0])
        row = (
            f"{name:<18} {size / 1000:>10,.1f} {mark(size <= TARGET_STATE_BYTES):>5}  "
            f"{slow_ms:>9.2f} {mark(slow_ms <= TARGET_KERNEL_MS):>4}  {slow_trait:<13}"
        )
        failed |= size > TARGET_STATE_BYTES or slow_ms > TARGET_KERNEL_MS
        if name in browser:
            redraw, load, menus = browser[name]
            menu, menu_ms = max(menus.items(), key=lambda kv: kv[1]) if menus else ("(no plot)", 0.0)
            row += (
                f"  {redraw:>9.1f} {mark(redraw <= TARGET_REDRAW_MS):>4}  {menu_ms:>7.1f} "
                f"{mark(menu_ms <= TARGET_REDRAW_MS):>4} {menu:<12}  {load:>8,.0f} {mark(load <= TARGET_DRAWN_MS):>5}"
            )
            failed |= redraw > TARGET_REDRAW_MS or menu_ms > TARGET_REDRAW_MS or load > TARGET_DRAWN_MS
        print(row)

    if "all" in browser:
        print(
            f"{'all, 1 page':<17} exported page drawn after {browser['all'][1]:,.0f} ms (median of 3 loads; "
            f"plotly.js started once)"
        )
    from kvwidgets.widgets.shared_assets import shared_assets

    bundle = len(json.dumps(shared_assets().get_state()).encode())
    print(
        f"{'shared model':<17} {bundle / 1000:>10,.1f}        (SharedAssets: plotly.js + the library, "
        "once per kernel and page)"
    )

    print("\nstate split (bytes): ESM (loader + render code) / CSS / everything else")
    for name in WIDGETS:
        s = sizes[name]
        print(f"  {name:<17} {s['esm']:>10,} / {s['css']:>6,} / {s['total'] - s['esm'] - s['css']:>8,}")

    if browser:
        print("\nbrowser ms per menu change, median, exported page")
        for name in WIDGETS:
            print(f"  {name:<17} " + ", ".join(f"{k} {v:.1f}" for k, v in browser[name][2].items()))

    print("\nkernel ms per change, median, and the update message's bytes, by input trait")
    for name in WIDGETS:
        cells = ", ".join(f"{t} {ms:.2f} ({b:,} B)" for t, (ms, b) in kernel[name].items())
        print(f"  {name:<17} {cells}")

    if not args.no_pages:
        pages = page_figures(browser_too=not args.no_browser)
        print("\nnotebooks and pages with widget state (nbconvert --execute), bytes (gzip)")
        size, packed = pages["index"]
        print(
            f"  notebooks/index.ipynb executed, state saved   {size:>10,} ({packed:>9,})  "
            f"{mark(size <= TARGET_NOTEBOOK_BYTES)} (<= 1.5 MB)"
        )
        failed |= size > TARGET_NOTEBOOK_BYTES
        for n in (1, 3, 5):
            size, packed = pages[n]
            note = f"  {mark(size <= TARGET_PAGE_BYTES)} (<= 2 MB)" if n == 5 else ""
            print(
                f"  nbconvert html page, {n} widget{'s' if n > 1 else ' '}               {size:>10,} ({packed:>9,}){note}"
            )
        failed |= pages[5][0] > TARGET_PAGE_BYTES
        if "drawn5" in pages:
            drawn = pages["drawn5"]
            print(f"  5-widget page served offline: all drawn after {drawn:,.0f} ms (median of 3 loads)")
    if not args.no_browser and not args.no_lab:
        firsts = lab_first_plots_ms()
        print(
            "\nlive JupyterLab, cells run one by one, ms to the first plot (target <= 500 after the output shows)"
        )
        print(f"  {'cell':<22} {'from output':>11}        {'from Shift+Enter':>16}")
        for cell, (ms, from_key) in zip(LAB_CELLS[1:], firsts):
            print(f"  {cell:<22} {ms:>11,.0f} {mark(ms <= TARGET_DRAWN_MS):>6}  {from_key:>16,.0f}")
        failed |= any(ms > TARGET_DRAWN_MS for ms, _ in firsts)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
