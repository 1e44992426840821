"""Cache per conversation across context lengths: the table to keep beside you when
someone asks for "128K context" (part 14 promises it; this builds it for any model)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from ..core.model import Model
from ..core.units import GB, KiB, fmt_tokens
from ._common import DEFAULT_MODELS, PAST_MAX, models_of

# 1K ... 1M in the UI's convention (K = 1,024 tokens), as the seed's column heads.
CONTEXTS: tuple[int, ...] = (1024, 8192, 32_768, 131_072, 1_048_576)


def context_column(context: int) -> str:
    return f"{fmt_tokens(context)} tokens (GB)"


def cache_per_conversation_table(
    models: Iterable[Model | str] | Model | str = DEFAULT_MODELS,
    contexts: Sequence[int] = CONTEXTS,
    *,
    kv_dtype: str = "bf16",
) -> pd.DataFrame:
    """One row per model: KV cache of one conversation at each context, in GB (10^9 bytes).

    Windowed layers are capped at their window, so hybrids grow by their full layers only.
    "max context" is the model's own limit where the config gives one: columns past it
    are what the formula says, not something the model can run, and the last column,
    "past max context", names them ("128K, 1M") in each model's row.
    """
    rows = []
    for m in models_of(models):
        row = {
            "model": m.name,
            "KV dtype": kv_dtype,
            "bytes/token (KiB)": m.kv_bytes_per_token(kv_dtype) / KiB,
            "max context (tokens)": m.max_context if m.max_context else pd.NA,
        }
        for c in contexts:
            row[context_column(c)] = m.kv_bytes(c, kv_dtype) / GB
        # the columns whose context this model cannot run, named in its own row
        past = [fmt_tokens(c) for c in contexts if m.past_max_context(c)]
        row[PAST_MAX] = ", ".join(past) if past else "none"
        rows.append(row)
    df = pd.DataFrame(rows)
    df["max context (tokens)"] = df["max context (tokens)"].astype("Int64")
    return df
