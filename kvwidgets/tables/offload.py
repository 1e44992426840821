"""Offload vs recompute: time to bring one conversation's cache back, per storage tier."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..api import as_model, offload_vs_recompute
from ..core.gpus import GPU
from ..core.model import Model
from ..core.units import GB
from ._common import PAST_MAX, past_max

TOKENS: tuple[int, ...] = (1000, 8000, 32_000, 128_000)


def offload_table(
    model: Model | str = "llama-3-8b",
    gpu: str | GPU = "H100-SXM",
    tokens: Sequence[int] = TOKENS,
    *,
    kv_dtype: str = "bf16",
) -> pd.DataFrame:
    """One row per (conversation length, option): recompute (the ideal prefill floor at
    dense BF16) and reloading from each storage tier at its fastest and slowest speed.
    "x faster than recompute, best cases" compares like with like: the fastest copy
    against the ideal recompute floor, both best cases (setting the slowest copy against
    the ideal floor would make a tier whose fast drives beat recompute look slower than it).
    Measured prefill is set beside measured copies in notebook 08. "past max context"
    marks a length the model was not built for."""
    m = as_model(model)
    rows = []
    for t in tokens:
        options = offload_vs_recompute(m, gpu, t, kv_dtype=kv_dtype)
        recompute = options[0].seconds_low
        for o in options:
            rows.append(
                {
                    "model": m.name,
                    "tokens": t,
                    "cache (GB)": m.kv_bytes(t, kv_dtype) / GB,
                    "option": o.option,
                    "fastest (ms)": o.seconds_low * 1e3,
                    "slowest (ms)": o.seconds_high * 1e3,
                    "x faster than recompute, best cases": recompute / o.seconds_low,
                    "source": o.source,
                    PAST_MAX: past_max(m, t),
                }
            )
    return pd.DataFrame(rows)
