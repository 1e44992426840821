"""What each widget costs: bytes sent, kernel time per change, browser redraw.

A script, not a test: `python3 benchmarks/bench_widgets.py [--changes N] [--moves N]`.
Per widget it prints, beside the targets:

  state     bytes JupyterLab receives when the widget is displayed: the JSON of its
            synced state (ESM and CSS included, as anywidget sends them) plus any
            binary buffers                                      target <= 1.5 MB
  kernel    Python time of one input-trait change (the observer recomputing with
            kvwidgets.core and the update message JSON-encoded as the kernel would
            send it); median of N changes of each input trait, the slowest trait's
            median is the widget's figure                       target <= 5 ms
  redraw    in Chromium, on the exported page (no kernel): an input event on the
            context slider until plotly's plotly_afterplot; median of several moves
            after two warm-ups                                  target <= 50 ms
            (the SVG explainers, which draw synchronously in the event: DecodeStep's
            Step button, PagedBlocks' context slider, until the next animation frame,
            i.e. the frame that paints the new diagram)

then the per-trait kernel medians. Chromium is Debian's (KVW_CHROMIUM, else
/usr/bin/chromium); --no-browser skips the redraw column.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run from a checkout without installing: the package sits one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kvwidgets as kw  # noqa: E402
from bench_core import machine  # noqa: E402  (same folder: the machine line both print)

WIDGETS = ["PerTokenBytes", "UsersThatFit", "ContextVsUsers", "DecodeSpeed", "AttentionDesigns",
           "DecodeStep", "PagedBlocks", "OffloadOrRecompute"]
# Widgets drawn as an SVG diagram (no plotly): the control whose event the redraw is timed from.
SVG_REDRAW = {"DecodeStep": ("step", "click"), "PagedBlocks": ("context", "slider")}
TARGET_STATE_BYTES = 1_500_000
TARGET_KERNEL_MS = 5.0
TARGET_REDRAW_MS = 50.0

# For each input trait, second values to alternate with the widget's own: the first
# that differs from it, chosen to change the answer (qwen3-8b has another KV shape
# than llama-3-8b; the H200 more memory than the H100).
OTHER_VALUES = {
    "model": ["qwen3-8b", "llama-3-8b"],
    "gpu": ["H200", "H100-SXM"],
    "num_gpus": [2, 1],
    "context": [32768, 8192],
    "batch": [16, 1],
    "weight_dtype": ["fp8", "bf16"],
    "kv_dtype": ["fp8", "bf16"],
    "utilization": [0.8, 0.9],
    "memory": ["device", "marketed"],
    "working_bytes": [4_000_000_000, 0],
    "window": [128, 1024],
    "short_context": [2048, 1024],
    "x_scale": ["linear", "log"],
    "y_scale": ["linear", "log"],
    "params": [70_000_000_000, 0],
    "prompt_tokens": [4096, 100],
    "generated": [50, 0],
    "used_tokens": [3000, 1000],
    "users": [16, 4],
    "prefix_tokens": [900, 500],
    "block_size": [32, 16],
}
# The same trait name with another kind of value in one widget.
OTHER_VALUES_IN = {"DecodeStep": {"speed": [30, 5]}, "OffloadOrRecompute": {"speed": ["low", "typical"]}}

# Traits whose other value needs another input first: only the H200 has a measured
# device-reported memory in the GPU table.
NEEDS = {"memory": {"gpu": "H200"}}

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
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const times = [];
    for (let i = 0; i < moves + 2; i++) {
        const before = document.querySelector('.kv-diagram svg');
        const t0 = performance.now();
        if (how === "click") el.click();
        else { el.value = String(stops[i % stops.length]); el.dispatchEvent(new Event('input', { bubbles: true })); }
        if (document.querySelector('.kv-diagram svg') === before) throw new Error(`${control} did not redraw`);
        const t1 = await frame();
        if (i >= 2) times.push(t1 - t0);
        await new Promise((r) => setTimeout(r, 0));
    }
    return times;
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


def encode_like_a_kernel(widget) -> list[int]:
    """Make the widget's comm JSON-encode every message (as ipykernel's session does),
    so a change's time includes building and encoding its update; return the sizes."""
    sent: list[int] = []

    def publish_msg(msg_type, data=None, metadata=None, buffers=None, **keys):
        sent.append(len(json.dumps(data, allow_nan=False).encode()))

    widget.comm.publish_msg = publish_msg
    return sent


def kernel_ms(name: str, changes: int) -> dict[str, tuple[float, int]]:
    """trait -> (median ms per change, median update bytes)."""
    widget = getattr(kw, name)()
    sent = encode_like_a_kernel(widget)
    out = {}
    others = {**OTHER_VALUES, **OTHER_VALUES_IN.get(name, {})}
    for trait in widget._inputs:
        if trait not in others:
            print(f"  ({name}.{trait}: no second value to alternate with; not timed)")
            continue
        widget.reset()  # each trait from the widget's starting inputs...
        for other, value in NEEDS.get(trait, {}).items():
            setattr(widget, other, value)  # ...plus what its second value needs
        own = getattr(widget, trait)
        values = [next(v for v in others[trait] if v != own), own]
        times, sizes = [], []
        for i in range(changes):
            sent.clear()
            t0 = time.perf_counter()
            setattr(widget, trait, values[i % 2])
            times.append((time.perf_counter() - t0) * 1e3)
            sizes.append(sum(sent))
            assert not widget.error, f"{name}.{trait} = {values[i % 2]!r}: {widget.error}"
        out[trait] = (statistics.median(times), int(statistics.median(sizes)))
    widget.close()
    return out


def browser_ms(names: list[str], moves: int) -> dict[str, tuple[float, float]]:
    """name -> (median redraw ms, page load to drawn ms) on the exported page."""
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("KVW_CHROMIUM") or "/usr/bin/chromium"
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"]
    out = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=args)
        for name in names:
            path = Path(folder) / f"{name}.html"
            getattr(kw, name)().to_html(path)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            # offline, as a course page opened from disk would be
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(("file:", "blob:", "data:"))
                       else route.abort())
            page.goto(path.as_uri())
            page.wait_for_selector("html[data-kvw-export='ready']", state="attached")
            load_ms = page.evaluate("window.kvwExport.readyMs")
            if name in SVG_REDRAW:
                control, how = SVG_REDRAW[name]
                times = page.evaluate(REDRAW_SVG_JS, {"moves": moves, "stops": list(SLIDER_STOPS), "control": control,
                                                      "how": how})
            else:
                times = page.evaluate(REDRAW_JS, {"moves": moves, "stops": list(SLIDER_STOPS)})
            out[name] = (statistics.median(times), load_ms)
            page.close()
        browser.close()
    return out


def mark(ok: bool) -> str:
    return "ok" if ok else "OVER"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=40, help="changes of each input trait (default 40)")
    parser.add_argument("--moves", type=int, default=15, help="slider moves timed in Chromium (default 15)")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium redraw timing")
    args = parser.parse_args()

    print(machine())
    print(f"kvwidgets {kw.__version__}; {args.changes} changes per trait; {args.moves} slider moves per widget\n")
    sizes = {name: state_bytes(getattr(kw, name)()) for name in WIDGETS}
    kernel = {name: kernel_ms(name, args.changes) for name in WIDGETS}
    browser = {} if args.no_browser else browser_ms(WIDGETS, args.moves)

    head = (f"{'widget':<18} {'state (KB)':>11} {'<=1500':>6}  {'kernel ms':>9} {'<=5':>4}  {'slowest trait':<13}"
            f"  {'redraw ms':>9} {'<=50':>4}  {'page drawn ms':>13}")
    print(head)
    print("-" * len(head))
    failed = False
    for name in WIDGETS:
        size = sizes[name]["total"]
        slow_trait, (slow_ms, _) = max(kernel[name].items(), key=lambda kv: kv[1][0])
        row = (f"{name:<18} {size / 1000:>11,.1f} {mark(size <= TARGET_STATE_BYTES):>6}  "
               f"{slow_ms:>9.2f} {mark(slow_ms <= TARGET_KERNEL_MS):>4}  {slow_trait:<13}")
        failed |= size > TARGET_STATE_BYTES or slow_ms > TARGET_KERNEL_MS
        if name in browser:
            redraw, load = browser[name]
            row += f"  {redraw:>9.1f} {mark(redraw <= TARGET_REDRAW_MS):>4}  {load:>13,.0f}"
            failed |= redraw > TARGET_REDRAW_MS
        print(row)

    print("\nstate split (bytes): ESM (plotly.js basic bundle + render code) / CSS / everything else")
    for name in WIDGETS:
        s = sizes[name]
        print(f"  {name:<17} {s['esm']:>10,} / {s['css']:>6,} / {s['total'] - s['esm'] - s['css']:>8,}")

    print("\nkernel ms per change, median, and the update message's bytes, by input trait")
    for name in WIDGETS:
        cells = ", ".join(f"{t} {ms:.2f} ({b:,} B)" for t, (ms, b) in kernel[name].items())
        print(f"  {name:<17} {cells}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
