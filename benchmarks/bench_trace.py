"""How long the allocator trace takes: what a widget's kernel or a precomputed series pays.

A script, not a test: `python3 benchmarks/bench_trace.py [--repeat N]`. It prints the
machine, then the median (and min / max) of several runs of
  allocator_trace   300 ShareGPT requests through the four policies on the paper's
                    15,728 KV slots (OPT-13B on an A100-40GB), 200 sampled points
  the same          for Alpaca, and for 2,000 ShareGPT requests
  each policy       alone, to show where the time goes
  sharing_saving    parallel sampling (closed form) and beam search (simulated), 300
                    Alpaca requests, width 4
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Run from a checkout without installing: the package sits one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine, report, timed

from kvwidgets.core import allocator_trace, sharing_saving
from kvwidgets.data.reported import PAPER_KV_SLOTS_OPT13B_A100_40GB as SLOTS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs of each measurement (median reported)")
    args = ap.parse_args(argv)
    print("machine:", machine())
    report(
        "allocator_trace, ShareGPT, 300 requests, 4 policies",
        timed(lambda: allocator_trace("sharegpt", kv_slots=SLOTS, num_requests=300), args.repeat),
    )
    report(
        "allocator_trace, Alpaca, 300 requests, 4 policies",
        timed(lambda: allocator_trace("alpaca", kv_slots=SLOTS, num_requests=300), args.repeat),
    )
    report(
        "allocator_trace, ShareGPT, 2,000 requests, 4 policies",
        timed(lambda: allocator_trace("sharegpt", kv_slots=SLOTS, num_requests=2000), args.repeat),
    )
    for pol in ("max", "pow2", "oracle", "paged"):
        report(
            f"  of which {pol} alone (300 ShareGPT requests)",
            timed(lambda pol=pol: allocator_trace("sharegpt", kv_slots=SLOTS, policies=[pol]), args.repeat),
        )
    report(
        "sharing_saving, parallel x4, 300 Alpaca requests",
        timed(lambda: sharing_saving("alpaca", "parallel", 4), args.repeat),
    )
    report(
        "sharing_saving, beam x4, 300 Alpaca requests",
        timed(lambda: sharing_saving("alpaca", "beam", 4), args.repeat),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
