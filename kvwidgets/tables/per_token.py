"""Bytes per token across models: the first number to read off any config."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..core.model import Model
from ..core.units import KiB
from ._common import DEFAULT_MODELS, design, head_dim, kv_heads, models_of

KINDS = (
    ("full", "full layers"),
    ("sliding", "sliding layers"),
    ("chunked", "chunked layers"),
    ("cross", "cross-attention layers"),
    ("mla", "MLA layers"),
    ("compressed", "compressed layers"),
    ("recurrent", "recurrent layers"),
)


def bytes_per_token_table(models: Iterable[Model | str] | Model | str = DEFAULT_MODELS) -> pd.DataFrame:
    """One row per model: design, layers by kind, KV heads, head dim, long-context bytes per token.

    "bytes/token" is what each extra token adds once a conversation is longer than every
    window (sliding layers then add nothing); KiB = 1,024 bytes.
    """
    rows = []
    for m in models_of(models):
        bf16, fp8 = m.kv_bytes_per_token("bf16"), m.kv_bytes_per_token("fp8")
        row = {"model": m.name, "attention design": design(m), "layers": m.num_layers}
        row.update({label: m.count(kind) for kind, label in KINDS})
        mla = [g.spec for g in m.groups if g.spec.kind == "mla"]
        row.update(
            {
                "KV heads": kv_heads(m),
                "head dim": head_dim(m),
                "MLA latent (numbers)": mla[0].kv_lora_rank + mla[0].qk_rope_head_dim if mla else pd.NA,
                "bytes/token bf16 (B)": bf16,
                "bytes/token fp8 (B)": fp8,
                "bytes/token bf16 (KiB)": bf16 / KiB,
            }
        )
        rows.append(row)
    df = pd.DataFrame(rows)
    df["MLA latent (numbers)"] = df["MLA latent (numbers)"].astype("Int64")
    return df
