"""How long the core takes: one full calculation, and a 10,000-point sweep.

A script, not a test: `python3 benchmarks/bench_core.py [--repeat N]`. It prints the
machine, then the median (and min / max) of several runs of
  one calculation   users_that_fit + decode_ceiling + kv_bytes, Llama 3 8B on an H100
  sweep             100 contexts x 100 batch sizes = 10,000 points, each point a
                    decode_ceiling and a users_that_fit (what a heat map or a slider
                    sweep in a widget would ask for)
and, to show where the time goes, the sweep's parts on their own.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

# Run from a checkout without installing: the package sits one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kvwidgets as kw
from kvwidgets import core


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        if names:
            cpu = f"{names[0]} ({len(names)} logical CPUs seen)"
    except OSError:
        pass
    load = ", load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    return (
        f"{platform.system()} {platform.release()}; {cpu}; Python {platform.python_version()} "
        f"({platform.python_implementation()}){load}"
    )


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def report(label: str, seconds: list[float], per: int = 1) -> None:
    med = statistics.median(seconds)
    unit, scale = ("ms", 1e3) if med >= 1e-3 else ("us", 1e6)
    line = (
        f"{label:<52} median {med * scale:9.2f} {unit}  (min {min(seconds) * scale:.2f}, "
        f"max {max(seconds) * scale:.2f}; {len(seconds)} runs)"
    )
    if per > 1:
        line += f"  = {med / per * 1e6:.2f} us per point"
    print(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs of each measurement (median reported)")
    args = ap.parse_args(argv)

    model = kw.load_model("llama-3-8b")
    gpu = kw.get_gpu("H100-SXM")
    contexts = [1024 * (i + 1) for i in range(100)]  # 1K .. 100K tokens
    batches = list(range(1, 101))

    def one():
        core.users_that_fit(model, gpu, 8000)
        core.decode_ceiling(model, gpu, 8192, 8)
        model.kv_bytes(8192)

    def one_by_name():  # the public wrappers, resolving "llama-3-8b" and "H100" each time
        kw.users_that_fit("llama-3-8b", "H100", 8000)
        kw.decode_ceiling("llama-3-8b", "H100", 8192, 8)

    def sweep():
        for c in contexts:
            for b in batches:
                core.decode_ceiling(model, gpu, c, b)
                core.users_that_fit(model, gpu, c)

    def sweep_decode_only():
        for c in contexts:
            for b in batches:
                core.decode_ceiling(model, gpu, c, b)

    def sweep_fit_only():
        for c in contexts:
            for _b in batches:
                core.users_that_fit(model, gpu, c)

    def sweep_kv_bytes_only():
        for c in contexts:
            for _b in batches:
                model.kv_bytes(c)

    def sweep_budget_once():
        # What a batch API could do: the memory budget does not depend on context or batch,
        # so compute it once and keep only kv_bytes and integer division per point.
        b = core.memory_budget(model, gpu)
        num, den = b.per_gpu_kv_budget.numerator, b.per_gpu_kv_budget.denominator
        weights = model.weight_bytes()
        bw = gpu.bandwidth_gbps * 1e9
        for c in contexts:
            kv = model.kv_bytes(c)
            users = num // (den * kv)
            for b_ in batches:
                step = (weights + b_ * kv) / bw
                _ = (users, 1 / step)

    print("machine:", machine())
    print(f"model: {model.describe()}; GPU: {gpu.name}")
    n_one = 2000
    report(
        "one calculation (users + decode + kv_bytes)",
        [t / n_one for t in timed(lambda: [one() for _ in range(n_one)], args.repeat)],
    )
    report(
        "same through kw.* with names (load_model each call)",
        [t / 200 for t in timed(lambda: [one_by_name() for _ in range(200)], args.repeat)],
    )
    points = len(contexts) * len(batches)
    report(f"sweep, {points:,} points (decode + users)", timed(sweep, args.repeat), per=points)
    report("  of which decode_ceiling alone", timed(sweep_decode_only, args.repeat), per=points)
    report("  of which users_that_fit alone", timed(sweep_fit_only, args.repeat), per=points)
    report("  of which Model.kv_bytes alone", timed(sweep_kv_bytes_only, args.repeat), per=points)
    report(
        "sweep with the budget hoisted (a batch API's cost)",
        timed(sweep_budget_once, args.repeat),
        per=points,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
