"""Golden vectors: inputs across every preset, GPU, dtype, GPU count and context (windows'
edges and the 1M end included) with the outputs kvwidgets.core gives for them.

tests/widgets/test_kvcalc_node.py writes them fresh and runs tests/widgets/js/kvcalc.test.mjs
under Node, which must reproduce every one with kvwidgets/widgets/js/calc/: integers
exactly (as decimal strings, compared with BigInt), doubles to the last bit, and the same
error where the core refuses an input. Run as a script to write them somewhere:
    python3 -m tests.widgets.golden /tmp/golden.json
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from typing import Any

from kvwidgets.core import (
    DTYPE_BITS,
    GPUS,
    LINKS,
    STORAGE,
    ChunkedLocalSpec,
    CompressedMLASpec,
    CrossAttentionSpec,
    FullAttentionSpec,
    LayerGroup,
    MLASpec,
    RecurrentStateSpec,
    SlidingWindowSpec,
    block_plan,
    cache_transfer,
    decode_ceiling,
    decode_step_bytes,
    max_context,
    prefill_seconds,
    recompute_crossover,
    reload_seconds,
    users_that_fit,
)
from kvwidgets.core.dtypes import MIXED_WEIGHT_FORMATS
from kvwidgets.core.errors import KVWidgetsError
from kvwidgets.core.model import Model, uniform_model
from kvwidgets.core.units import fmt_bytes, fmt_tokens
from kvwidgets.data import measured
from kvwidgets.widgets import browser_data, designs

MAX_SAFE = 2**53 - 1
DTYPES = sorted(DTYPE_BITS)
# weights also take the mixed formats (mxfp4), which models without routed experts refuse
WEIGHT_DTYPES = DTYPES + sorted(MIXED_WEIGHT_FORMATS)
TPS = (1, 2, 3, 4, 8, 16, 32, 64)
UTILIZATIONS = (0.9, 0.5, 0.85, 0.95, 1.0, 0.333, 0.123456789, 1e-07, 0.7000000000000001)


def synthetic_models() -> list[Model]:
    """Shapes no preset may have yet: every layer kind, odd counts (int4 half bytes),
    K and V of different sizes, windows and chunks, recurrent state that TP splits."""
    return [
        uniform_model("t-mha-odd", 3, 5, 7, 1_000_003, query_heads=5),
        uniform_model("t-sliding-all", 32, 8, 128, 7_241_732_096, window=4096),
        Model(
            "t-hybrid",
            (LayerGroup(SlidingWindowSpec(8, 64, window=128), 18), LayerGroup(FullAttentionSpec(8, 64), 18)),
            116_829_156_672,
            num_query_heads=64,
        ),
        Model("t-kv-sizes", (LayerGroup(FullAttentionSpec(4, 192, 128), 27),), 15_000_000_001),
        Model(
            "t-chunked",
            (LayerGroup(ChunkedLocalSpec(8, 128, chunk=8192), 36), LayerGroup(FullAttentionSpec(8, 128), 12)),
            108_000_000_000,
            num_query_heads=40,
        ),
        Model("t-mla", (LayerGroup(MLASpec(512, 64), 61),), 671_026_419_200, num_query_heads=128),
        Model(
            "t-recurrent",
            (LayerGroup(RecurrentStateSpec(1_234_567), 36), LayerGroup(FullAttentionSpec(2, 256), 12)),
            80_000_000_000,
        ),
        Model("t-mqa", (LayerGroup(FullAttentionSpec(1, 128), 40),), 40_000_000_000),
        # cross-attention to a fixed count of image tokens beside self-attention (mllama)
        Model(
            "t-cross",
            (
                LayerGroup(FullAttentionSpec(8, 128), 32),
                LayerGroup(CrossAttentionSpec(8, 128, encoder_tokens=6_404), 8),
            ),
            10_670_220_835,
            num_query_heads=32,
        ),
        # MLA plus DeepSeek-V3.2's indexer cache: 132 B a token whatever the KV dtype
        Model(
            "t-mla-indexer", (LayerGroup(MLASpec(512, 64, 132), 61),), 671_919_536_648, num_query_heads=128
        ),
        # recurrent state in two dtypes (conv bf16, SSM fp32) beside a few attention layers
        Model(
            "t-recurrent-fp32",
            (
                LayerGroup(RecurrentStateSpec(2_134_016, 36_864, 2_097_152, "fp32"), 23),
                LayerGroup(FullAttentionSpec(2, 128), 6),
            ),
            31_600_000_000,
        ),
        # DeepSeek-V4-Flash's compressed layers (tests/configs/layouts/deepseek-v4-flash.json):
        # packed bytes whatever the KV dtype, entries per 4 or 128 tokens, compressor state
        Model(
            "t-compressed",
            (
                LayerGroup(CompressedMLASpec(128, 1, 584), 2),
                LayerGroup(CompressedMLASpec(128, 4, 584, 132, 8, 10_240), 21),
                LayerGroup(CompressedMLASpec(128, 128, 584, 0, 128, 4_096), 20),
            ),
            284_000_000_000,
        ),
        # an odd count of ratio-128 layers: 3 x 584 / 128 B a token leaves a fraction of a byte
        Model(
            "t-compressed-odd",
            (LayerGroup(CompressedMLASpec(16, 128, 584), 3), LayerGroup(FullAttentionSpec(1, 7, 6), 1)),
            999_999,
        ),
        # 13 numbers per token on 3 layers: in int4 an odd context leaves half a byte to round up
        Model(
            "t-int4-half-byte",
            (LayerGroup(FullAttentionSpec(1, 7, 6), 3), LayerGroup(RecurrentStateSpec(1_001), 1)),
            999_999,
        ),
    ]


def all_shapes() -> dict[str, dict[str, Any]]:
    shapes = dict(browser_data.preset_shapes())
    for m in [*synthetic_models(), *designs.design_models().values()]:
        shapes[m.name] = browser_data.model_shape(m)
    return shapes


def models() -> dict[str, Model]:
    out = {n: browser_data.preset_model(n) for n in browser_data.preset_shapes()}
    for m in [*synthetic_models(), *designs.design_models().values()]:
        out[m.name] = m
    return out


def contexts_for(m: Model) -> list[int]:
    """The usual ticks plus each window's edges, where a capped layer stops growing."""
    ts = {1, 2, 3, 99, 100, 1000, 1023, 1024, 4096, 8000, 8192, 32768, 131072, 1_000_000, 1_048_576}
    for g in m.groups:
        cap = g.spec.token_cap
        if cap:
            ts.update({cap - 1, cap, cap + 1})
    return sorted(t for t in ts if t >= 1)


def compressed_edges(m: Model) -> list[int]:
    """Where a compressed layer's window, compressor state and first entry end (it has no
    token_cap): checked for every such model beside contexts_for's ticks."""
    ts: set[int] = set()
    for g in m.groups:
        if isinstance(g.spec, CompressedMLASpec):
            for edge in (g.spec.window, g.spec.state_window, g.spec.ratio):
                ts.update({edge - 1, edge, edge + 1})
    return sorted(t for t in ts if t >= 1)


def _ints(d: dict[str, Any]) -> dict[str, Any]:
    """Integers as strings (BigInt in Node), everything else as it is."""
    return {k: str(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in d.items()}


def _attempt(fn, *args, **kwargs) -> tuple[Any, str | None]:
    try:
        return fn(*args, **kwargs), None
    except KVWidgetsError as e:
        return None, str(e)


def staircase_expect(
    m: Model, case: dict[str, Any], lo: int = 1024, hi: int = 1 << 20, exact_below: int = 256
) -> dict[str, Any]:
    """First context at which each user count <= exact_below (and the first <= it) is gone:
    max_context(u) + 1, with the users there. calc/budget.js usersStaircase must draw these steps."""
    opts = dict(
        num_gpus=case["num_gpus"],
        weight_dtype=case["weight_dtype"],
        kv_dtype=case["kv_dtype"],
        utilization=case["utilization"],
    )
    try:

        def users(t: int) -> int:
            return users_that_fit(m, case["gpu"], t, **opts).users

        u_lo, u_hi = users(lo), users(hi)
        drops = {}
        for u in range(u_hi + 1, min(u_lo, exact_below + 1) + 1):
            c = max_context(m, case["gpu"], u, **opts)
            if c is not None and lo < c + 1 < hi:
                drops[c + 1] = users(c + 1)
    except KVWidgetsError as e:
        return {"expect": None, "error": str(e)}
    return {
        "expect": {
            "users_lo": str(u_lo),
            "users_hi": str(u_hi),
            "drops": [[c, str(u)] for c, u in sorted(drops.items())],
        },
        "error": None,
    }


def build(
    seed: int = 20261130, n_users: int = 3000, n_decode: int = 3000, n_max: int = 200, n_stairs: int = 40
) -> dict[str, Any]:
    rng = random.Random(seed)
    ms = models()
    gpus = browser_data.gpu_rows()
    out: dict[str, Any] = {
        "shapes": all_shapes(),
        "gpus": gpus,
        "dtypes": dict(DTYPE_BITS),
        "weight_formats": browser_data.weight_formats(),
        "kv": [],
        "per_token": [],
        "users": [],
        "max_context": [],
        "decode": [],
        "staircase": [],
        "step": [],
        "blocks": [],
        "offload": [],
        "transfer": [],
        "limits": [],
        "units": [],
        "storage": {k: dataclasses.asdict(v) for k, v in STORAGE.items()},
        "links": {k: {"label": v.label, "gbps": v.gbps, "source": v.source} for k, v in LINKS.items()},
        "measured": {
            "models": list(measured.H200_PREFILL_MODELS),
            "gpu": measured.H200_PREFILL_GPU,
            "rows": measured.h200_prefill(),
        },
    }

    for name, m in ms.items():
        for kv in DTYPES:
            for tp in TPS:
                bpt, err = _attempt(m.kv_bytes_per_token, kv, tp)
                # its own error: a model capped everywhere costs 0 long-context on any split,
                # while its window-filling figure still needs the KV heads to split
                within, within_err = _attempt(m.kv_bytes_per_token_within_windows, kv, tp)
                out["per_token"].append(
                    {
                        "shape": name,
                        "kv_dtype": kv,
                        "tp": tp,
                        "expect": None if err else str(bpt),
                        "error": err,
                        "within": None if within_err else str(within),
                        "within_error": within_err,
                    }
                )
                for t in sorted({*contexts_for(m), *compressed_edges(m)}):
                    b, err = _attempt(m.kv_bytes, t, kv, tp)
                    by_kind = None if err else {k: str(v) for k, v in m.bytes_by_kind(t, kv, tp).items()}
                    out["kv"].append(
                        {
                            "shape": name,
                            "tokens": t,
                            "kv_dtype": kv,
                            "tp": tp,
                            "expect": None if err else str(b),
                            "by_kind": by_kind,
                            "error": err,
                        }
                    )

    # DecodeStep: the prefill and decode steps around every window's edge, every dtype.
    for name, m in ms.items():
        edges = sorted({c for g in m.groups for c in (g.spec.token_cap,) if c})
        prompts = sorted({1, 7, 100, 4096, *[max(1, e - 2) for e in edges]})
        for prompt in prompts:
            for generated in (0, 1, 2, 3, 1000):
                kv = rng.choice(DTYPES)
                got, err = _attempt(decode_step_bytes, m, prompt, generated, kv)
                expect = None
                if got is not None:
                    expect = _ints({k: v for k, v in dataclasses.asdict(got).items() if k != "groups"})
                    expect["groups"] = [_ints(dataclasses.asdict(g)) for g in got.groups]
                out["step"].append(
                    {
                        "shape": name,
                        "prompt": prompt,
                        "generated": generated,
                        "kv_dtype": kv,
                        "expect": expect,
                        "error": err,
                    }
                )
    for prompt, generated in ((0, 0), (5, -1)):
        _, err = _attempt(decode_step_bytes, ms["t-mla"], prompt, generated)
        out["step"].append(
            {
                "shape": "t-mla",
                "prompt": prompt,
                "generated": generated,
                "kv_dtype": "bf16",
                "expect": None,
                "error": err,
            }
        )

    names = sorted(ms)
    gpu_names = sorted(GPUS)

    # Every (shape, GPU) pair once, in order, then random pairs.
    pairs = [(n, g) for n in names for g in gpu_names]
    cursor = {"users": 0, "decode": 0}

    def pick(kind: str = "") -> dict[str, Any]:
        if kind and cursor[kind] < len(pairs):
            name, gpu = pairs[cursor[kind]]
            cursor[kind] += 1
        else:
            name, gpu = rng.choice(names), rng.choice(gpu_names)
        return {
            "shape": name,
            "gpu": gpu,
            "context": rng.choice(contexts_for(ms[name]) + [rng.randint(1, 2**20)]),
            "num_gpus": rng.choice(TPS),
            "weight_dtype": rng.choice(WEIGHT_DTYPES),
            "kv_dtype": rng.choice(DTYPES),
        }

    for i in range(n_users):
        case = pick("users")
        case["utilization"] = rng.choice(UTILIZATIONS)
        case["working_bytes"] = rng.choice([0, 0, 1_500_000_000, rng.randint(0, 10**10)])
        case["memory"] = "device" if i % 7 == 0 else "marketed"
        fit, err = _attempt(
            users_that_fit,
            ms[case["shape"]],
            case["gpu"],
            case["context"],
            num_gpus=case["num_gpus"],
            weight_dtype=case["weight_dtype"],
            kv_dtype=case["kv_dtype"],
            utilization=case["utilization"],
            working_bytes=case["working_bytes"],
            memory=case["memory"],
        )
        expect = None
        if fit is not None:
            # warnings are the widgets' limit lines (calc/model.js limitLines, the "limits" vectors);
            # max_context is the model's, which the widgets read from the shape
            expect = _ints(
                {k: v for k, v in dataclasses.asdict(fit).items() if k not in ("warnings", "max_context")}
            )
            expect["weights_fit"] = fit.weights_fit
        message = None if fit is None else fit.message  # calc/budget.js fitMessage, word for word
        out["users"].append({**case, "expect": expect, "error": err, "message": message})

    for _ in range(n_max):
        case = pick()
        case["utilization"] = rng.choice(UTILIZATIONS)
        case["users"] = rng.choice([1, 1, 2, 8, 64, rng.randint(1, 1000)])
        got, err = _attempt(
            max_context,
            ms[case["shape"]],
            case["gpu"],
            case["users"],
            num_gpus=case["num_gpus"],
            weight_dtype=case["weight_dtype"],
            kv_dtype=case["kv_dtype"],
            utilization=case["utilization"],
        )
        out["max_context"].append(
            {
                **case,
                "expect": None if got is None else str(got),
                "unlimited": err is None and got is None,
                "error": err,
            }
        )

    # ContextVsUsers' step line: where each user count drops, from the core's max_context.
    for _ in range(n_stairs):
        case = pick()
        case["utilization"] = rng.choice(UTILIZATIONS[:5])
        out["staircase"].append({**case, **staircase_expect(ms[case["shape"]], case)})

    # PagedBlocks: memory in blocks, reserving vs paging, a shared prefix.
    for _ in range(600):
        case = pick()
        used = rng.choice([1, 15, 16, 17, 1000, 8000, rng.randint(1, 200_000)])
        case.update(
            utilization=rng.choice(UTILIZATIONS[:5]),
            used_tokens=used,
            reserved_tokens=rng.choice([used, used + 1, 8192, 131072, used * 3]),
            block_size=rng.choice([16, 16, 8, 32, 1, 7]),
            users=rng.choice([1, 2, 4, 64, rng.randint(1, 5000)]),
            prefix_tokens=rng.choice([0, 15, 16, 500, used - 1, used, rng.randint(0, used)]),
        )
        got, err = _attempt(
            block_plan,
            ms[case["shape"]],
            case["gpu"],
            case["used_tokens"],
            case["reserved_tokens"],
            users=case["users"],
            prefix_tokens=case["prefix_tokens"],
            block_size=case["block_size"],
            kv_dtype=case["kv_dtype"],
            weight_dtype=case["weight_dtype"],
            num_gpus=case["num_gpus"],
            utilization=case["utilization"],
        )
        out["blocks"].append(
            {**case, "expect": None if got is None else _ints(dataclasses.asdict(got)), "error": err}
        )

    # OffloadOrRecompute: reload and ideal recompute times to the bit, and where they cross.
    for name in names:
        m = ms[name]
        for _ in range(4):
            gpu = rng.choice(gpu_names)
            kv = rng.choice(DTYPES)
            tier = rng.choice(sorted(STORAGE))
            speed = rng.choice(["low", "typical", "high"])
            params = rng.choice([None, None, 70_000_000_000])
            ctxs = [rng.choice(contexts_for(m)), rng.randint(1, 2**20), 1_048_576]
            rows = []
            for t in ctxs:
                reload_s, err = _attempt(reload_seconds, m, t, tier, kv_dtype=kv, speed=speed)
                pre, pre_err = _attempt(prefill_seconds, m, gpu, t, params=params)
                rows.append(
                    {"tokens": t, "reload": reload_s, "error": err, "prefill": pre, "prefill_error": pre_err}
                )
            cross, cross_err = _attempt(
                recompute_crossover, m, gpu, tier, kv_dtype=kv, speed=speed, params=params
            )
            out["offload"].append(
                {
                    "shape": name,
                    "gpu": gpu,
                    "kv_dtype": kv,
                    "tier": tier,
                    "speed": speed,
                    "params": params,
                    "rows": rows,
                    "crossover": cross,
                    "crossover_error": cross_err,
                }
            )

    # CacheTransfer: one conversation's cache over each link, against prefill and a decode
    # step, to the bit; the measured H200 prefill on its own shape, inside and outside its range.
    transfer_cases = [
        {"shape": n, "gpu": "H200", "context": t, "link": "pcie5-h200-measured", "tp": 1}
        for n in measured.H200_PREFILL_MODELS
        for t in (1024, 8192, 12_000, 32_768, 131_072)
    ]
    for name in names:
        for _ in range(4):
            transfer_cases.append(
                {
                    "shape": name,
                    "gpu": rng.choice(gpu_names),
                    "context": rng.choice(contexts_for(ms[name]) + [rng.randint(1, 2**20)]),
                    "link": rng.choice(sorted(LINKS)),
                    "tp": rng.choice(TPS),
                }
            )
    for case in transfer_cases:
        case["kv_dtype"] = rng.choice(DTYPES)
        case["weight_dtype"] = rng.choice(WEIGHT_DTYPES)
        case["params"] = rng.choice([None, None, 70_000_000_000])
        got, err = _attempt(
            cache_transfer,
            ms[case["shape"]],
            case["gpu"],
            case["context"],
            case["link"],
            tp=case["tp"],
            kv_dtype=case["kv_dtype"],
            weight_dtype=case["weight_dtype"],
            params=case["params"],
        )
        expect = None
        if got is not None:
            expect = {
                k: v
                for k, v in got.as_dict().items()
                if k not in ("link", "message", "model_name", "kv_dtype")
            }
            expect = _ints(expect)
        out["transfer"].append({**case, "expect": expect, "error": err})

    # Steps whose KV bytes pass 2^53, which the browser must refuse rather than round.
    huge = [
        {
            "shape": "MHA",
            "gpu": "H200",
            "context": 1_048_576,
            "num_gpus": 1,
            "weight_dtype": "bf16",
            "kv_dtype": "fp32",
            "batch": b,
        }
        for b in (8192, 16384, 1 << 20)
    ]
    for i in range(n_decode + len(huge)):
        case = huge[i - n_decode] if i >= n_decode else pick("decode")
        if i < n_decode:
            case["batch"] = rng.choice([1, 8, 32, 64, 128, 256, rng.randint(1, 4096)])
            # the widgets' `params` input (None = the model's own count), e.g. the seed's 70.0 B
            case["params"] = rng.choice([None, None, None, 70_000_000_000, rng.randint(10**9, 10**12)])
        m = ms[case["shape"]]
        d, err = _attempt(
            decode_ceiling,
            m,
            case["gpu"],
            case["context"],
            case["batch"],
            weight_dtype=case["weight_dtype"],
            kv_dtype=case["kv_dtype"],
            num_gpus=case["num_gpus"],
            params=case.get("params"),
        )
        too_large = False
        if d is not None:
            # The browser evaluates in doubles from integers it can hold exactly; beyond
            # 2^53 it must refuse rather than round differently from Python.
            weights = m.weight_bytes(case["weight_dtype"], case.get("params"))
            too_large = max(weights, d.kv_bytes_per_step) > MAX_SAFE
        expect = None if d is None or too_large else dataclasses.asdict(d)
        # Whether the batch can be held at this context (DecodeSpeed's solid vs dotted lines).
        fit, fit_err = _attempt(
            users_that_fit,
            m,
            case["gpu"],
            case["context"],
            num_gpus=case["num_gpus"],
            weight_dtype=case["weight_dtype"],
            kv_dtype=case["kv_dtype"],
            params=case.get("params"),
        )
        fits = None if fit is None else {"fits": case["batch"] <= fit.users, "max_batch": str(fit.users)}
        out["decode"].append(
            {
                **case,
                "expect": expect,
                "too_large": too_large,
                "error": err,
                "fits": fits,
                "fits_error": fit_err,
            }
        )
    # Bytes and tokens as core.units writes them, and Fit.message's GB figures: Python rounds
    # a float's exact value half to even (2.675 GB prints 2.67, 1.125 GB prints 1.12).
    counts = [0, 1, 1023, 1024, 1025, 1536, 1048575, 1048576, 999_999_999, 10**9, 10**12 - 1, 10**12]
    counts += [k * 10**6 + 5 * 10**s for k in (1, 2, 3, 1125, 2675, 1005, 3005) for s in (3, 4, 5)]
    counts += [1_125_000_000, 2_675_000_000, 1_005_000_000, 3_005_000_000, 12_345_678_901_234]
    counts += [rng.randint(0, 10 ** rng.randint(1, 15)) for _ in range(3000)]
    for n in counts:
        unit = rng.choice([None, None, "B", "KiB", "MiB", "GiB", "KB", "MB", "GB", "TB"])
        digits = rng.choice([0, 1, 2, 2, 3])
        out["units"].append(
            {
                "n": n,
                "unit": unit,
                "digits": digits,
                "bytes": fmt_bytes(n),
                "bytes_as": fmt_bytes(n, unit, digits),
                "gb1": f"{n / 1e9:,.1f}",  # core.budget.Fit.message
                "gb2": f"{n / 1e9:,.2f}",
                "tokens": fmt_tokens(n),
            }
        )

    # Which limit lines a widget shows beside its numbers (calc/model.js limitLines): the
    # rules read from the core's model (past_max_context, engine_notes) and its shape.
    shapes = out["shapes"]
    for name, m in ms.items():
        shape = shapes[name]
        for context in {1024, 8192, 8193, 131072, 1_048_576} | (
            {m.max_context, m.max_context + 1} if m.max_context else set()
        ):
            for weights, params in ((False, None), (True, None), (True, 7_000_000_000)):
                kinds = []
                if m.past_max_context(context):
                    kinds.append("past_max_context")
                if m.max_context and any(
                    g.get("kv_heads") is not None and (g.get("cap") or 0) >= m.max_context
                    for g in shape["groups"]
                ):
                    kinds.append("window_never_slides")
                kinds += ["engine_note"] * len(m.engine_notes)
                if weights and shape["params_estimated"] and not params:
                    kinds.append("params_estimated")
                out["limits"].append(
                    {
                        "shape": name,
                        "context": context,
                        "weights": weights,
                        "params": params,
                        "kinds": kinds,
                        "engine_notes": list(m.engine_notes),
                    }
                )
    return out


def write(path: str, **kwargs: Any) -> dict[str, int]:
    data = build(**kwargs)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return {k: len(v) for k, v in data.items() if isinstance(v, list)}


if __name__ == "__main__":
    print(write(sys.argv[1] if len(sys.argv) > 1 else "golden.json"))
