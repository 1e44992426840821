"""Dropping a conversation's cache: recompute it later, or park it off the GPU and copy it back."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from .decode import prefill_seconds
from .errors import InputError, check_int, unknown_name
from .gpus import GPU, get_gpu
from .model import Model


@dataclass(frozen=True)
class StorageTier:
    name: str
    label: str
    low_gbps: float
    typical_gbps: float
    high_gbps: float
    source: str


def _load() -> dict[str, StorageTier]:
    raw = json.loads(resources.files("kvwidgets.data").joinpath("storage.json").read_text())
    return {k: StorageTier(name=k, **v) for k, v in raw.items() if not k.startswith("_")}


STORAGE: Mapping[str, StorageTier] = MappingProxyType(_load())


def get_tier(tier: str | StorageTier) -> StorageTier:
    if isinstance(tier, StorageTier):
        return tier
    if tier not in STORAGE:
        raise unknown_name("storage tier", tier, STORAGE)
    return STORAGE[tier]


def reload_seconds(
    model: Model, tokens: int, tier: str = "cpu-pinned", *, kv_dtype: str = "bf16", speed: str = "typical"
) -> float:
    """Time to copy one conversation's cache back to the GPU from `tier`."""
    t = get_tier(tier)
    speeds = {"low": t.low_gbps, "typical": t.typical_gbps, "high": t.high_gbps}
    if speed not in speeds:
        raise InputError(f"speed must be 'low', 'typical' or 'high', got {speed!r}")
    gbps = speeds[speed]
    return model.kv_bytes(tokens, kv_dtype) / (gbps * 1e9)


@dataclass(frozen=True)
class OffloadRow:
    option: str
    seconds_low: float  # fastest case
    seconds_high: float  # slowest case
    source: str


def offload_vs_recompute(
    model: Model, gpu: str | GPU, tokens: int, *, kv_dtype: str = "bf16", params: int | None = None
) -> list[OffloadRow]:
    """Recompute (ideal prefill floor) beside copying back from each storage tier."""
    g = get_gpu(gpu)
    tokens = check_int("tokens", tokens, minimum=1)
    pre = prefill_seconds(model, g, tokens, params=params)
    rows = [
        OffloadRow(
            f"recompute on {g.name} ({g.bf16_tflops:,.0f} TFLOPS)",
            pre,
            pre,
            "2 x params x tokens / dense BF16 FLOPS, an ideal floor",
        )
    ]
    kv = model.kv_bytes(tokens, kv_dtype)
    for t in STORAGE.values():
        rows.append(
            OffloadRow(f"reload from {t.label}", kv / (t.high_gbps * 1e9), kv / (t.low_gbps * 1e9), t.source)
        )
    return rows


def tier_gbps(tier: str | StorageTier, speed: str = "typical") -> float:
    """A tier's copy speed: 'low', 'typical' or 'high' GB/s."""
    t = get_tier(tier)
    speeds = {"low": t.low_gbps, "typical": t.typical_gbps, "high": t.high_gbps}
    if speed not in speeds:
        raise InputError(f"speed must be 'low', 'typical' or 'high', got {speed!r}")
    return speeds[speed]


def context_grid(lo: int = 1024, hi: int = 1 << 20, per_doubling: int = 4) -> list[int]:
    """Token counts from lo to hi, `per_doubling` per doubling (the widget's x points)."""
    lo = check_int("lo", lo, minimum=1)
    hi = check_int("hi", hi, minimum=lo)
    out, i = [], 0
    while True:
        t = min(hi, math.floor(lo * 2 ** (i / per_doubling) + 0.5))  # half up, as JavaScript's Math.round
        if not out or t > out[-1]:
            out.append(t)
        if t >= hi:
            return out
        i += 1


def recompute_crossover(
    model: Model,
    gpu: str | GPU,
    tier: str,
    *,
    kv_dtype: str = "bf16",
    speed: str = "typical",
    params: int | None = None,
    lo: int = 1024,
    hi: int = 1 << 20,
) -> int | None:
    """Smallest context in [lo, hi] at which the faster of reloading from `tier` and the
    ideal recompute is no longer the one that is faster at `lo`; None if it never changes.

    Reload time follows the cache (linear, or flat past a window), the ideal recompute the
    tokens (linear), so for a model whose layers keep every token one is faster all along;
    windows and recurrent state make a crossing. Found on context_grid(lo, hi), then to
    the token by bisection (a second crossing between two grid points would be missed).
    """
    gbps = tier_gbps(tier, speed)

    def reload_first(t: int) -> bool:
        return model.kv_bytes(t, kv_dtype) / (gbps * 1e9) < prefill_seconds(model, gpu, t, params=params)

    return first_flip(reload_first, context_grid(lo, hi))


def first_flip(test: Callable[[int], bool], grid: Sequence[int]) -> int | None:
    """The smallest token count at which test(t) first differs from test(grid[0]): found
    between two grid points, then to the token by bisection; None if it never changes.
    (A second change between two grid points would be missed.)"""
    start = test(grid[0])
    prev = grid[0]
    for t in grid[1:]:
        if test(t) != start:
            a, b = prev, t  # a keeps the first answer, b does not
            while b - a > 1:
                mid = (a + b) // 2
                if test(mid) == start:
                    a = mid
                else:
                    b = mid
            return b
        prev = t
    return None
