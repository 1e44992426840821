"""How long vLLM's accounting takes: one report, and a from-tokens back-solve.

A script, not a test: `python3 benchmarks/bench_vllm.py [--repeat N]`. For a full-attention,
a sliding-hybrid, an MLA (alone, and with an MTP draft under decode context parallel 8)
and a mamba-hybrid model it prints the median (min / max) time of
  report       vllm_kv_report from a given pool (groups, blocks, tokens, concurrency)
  from tokens  vllm_report_from_tokens (a binary search over block counts)
  explain      report.explain()
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_core import machine

import kvwidgets as kw
from kvwidgets.core import FullAttentionSpec, LayerGroup, Model, RecurrentStateSpec

GiB = 2**30


def timed(fn, repeat: int) -> str:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return f"{statistics.median(runs) * 1e3:8.3f} ms (min {min(runs) * 1e3:.3f}, max {max(runs) * 1e3:.3f})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    print(machine())
    state = ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2
    models = {
        "llama-3-8b (full)": kw.load_model("llama-3-8b"),
        "gemma-3-27b (sliding hybrid)": kw.load_model("gemma-3-27b"),
        "deepseek-v3 (MLA)": kw.load_model("deepseek-v3"),
        "qwen3-next-like (mamba hybrid)": Model(
            "qwen3-next-like",
            (LayerGroup(RecurrentStateSpec(state), 36), LayerGroup(FullAttentionSpec(2, 256), 12)),
            80 * 10**9,
        ),
    }
    deepseek = models["deepseek-v3 (MLA)"]
    engine = {
        "deepseek-v3 (MLA, MTP, DCP 8)": dict(
            num_gpus=8, decode_context_parallel_size=8, draft=kw.mtp_draft(deepseek), num_speculative_tokens=1
        )
    }
    models["deepseek-v3 (MLA, MTP, DCP 8)"] = deepseek
    for name, m in models.items():
        flags = engine.get(name, {})
        for version in ("0.11", "0.33"):

            def report(m=m, version=version, flags=flags):
                return kw.vllm_kv_report(
                    m,
                    "H100",
                    max_model_len=32_768,
                    kv_cache_memory_bytes=40 * GiB,
                    vllm_version=version,
                    **flags,
                )

            r = report()
            print(f"{name:32s} {version}  report      {timed(report, args.repeat)}")
            print(
                f"{name:32s} {version}  from tokens {timed(lambda m=m, r=r, version=version, flags=flags: kw.vllm_report_from_tokens(m, r.gpu_kv_cache_tokens, max_model_len=32_768, vllm_version=version, gpu='H100', **flags), args.repeat)}"
            )
            print(f"{name:32s} {version}  explain     {timed(r.explain, args.repeat)}")


if __name__ == "__main__":
    main()
