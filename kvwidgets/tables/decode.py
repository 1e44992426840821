"""Decode-speed ceilings across contexts and batch sizes (bandwidth-bound, ideal)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import pandas as pd

from ..api import as_model, decode_ceiling, users_that_fit
from ..core.gpus import GPU
from ..core.model import Model
from ..core.units import GB
from ._common import PAST_MAX, past_max

CONTEXTS: tuple[int, ...] = (1024, 8192, 32_768, 131_072)
BATCHES: tuple[int, ...] = (1, 8, 32, 64)


def decode_table(
    model: Model | str = "llama-3-8b",
    gpu: str | GPU = "H100-SXM",
    contexts: Sequence[int] = CONTEXTS,
    batches: Sequence[int] = BATCHES,
    *,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    num_gpus: int = 1,
    utilization: float = 0.9,
) -> pd.DataFrame:
    """One row per (context, batch): step time, tokens/s per user and in total, and the
    share of each step's reads that is KV cache. Real engines reach a fraction of these
    ceilings; the ratios between rows hold. "fits in memory" says whether `batch`
    conversations of that length fit at `utilization` (a ceiling for a batch that cannot
    be held is not reachable); "past max context" where the model was not built for it."""
    m = as_model(model)
    rows = []
    for ctx, batch in product(contexts, batches):
        d = decode_ceiling(
            m, gpu, ctx, batch, weight_dtype=weight_dtype, kv_dtype=kv_dtype, num_gpus=num_gpus
        )
        fit = users_that_fit(
            m,
            gpu,
            ctx,
            num_gpus=num_gpus,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            utilization=utilization,
        )
        rows.append(
            {
                "model": m.name,
                "GPU": d.gpu,
                "GPUs": d.num_gpus,
                "context (tokens)": ctx,
                "batch": batch,
                "weights read per step (GB)": d.weight_bytes_per_step / GB,
                "KV read per step (GB)": d.kv_bytes_per_step / GB,
                "step (ms)": d.step_ms,
                "tokens/s per user": d.tokens_per_s_per_user,
                "tokens/s total": d.tokens_per_s_total,
                "KV share of reads": d.kv_share,
                "fits in memory": fit.users >= batch,
                PAST_MAX: past_max(m, ctx),
            }
        )
    return pd.DataFrame(rows)
