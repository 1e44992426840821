"""Attention designs side by side: one shape stored five ways, then real models.

The "shape" rows keep one model's layers and head size and change only how keys and
values are stored, so the differences are the design's alone (part 14's comparison).
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..api import as_model
from ..core.layers import FullAttentionSpec, LayerGroup, MLASpec, SlidingWindowSpec
from ..core.model import Model
from ..core.units import GB, KiB
from ._common import PAST_MAX, design, models_of, past_max

REAL_MODELS: tuple[str, ...] = ("llama-3-8b", "llama-3-70b", "deepseek-v3", "gpt-oss-120b", "gemma-3-27b")


def shape_variants(
    shape: Model | str, *, window: int = 1024, latent: tuple[int, int] = (512, 64)
) -> list[Model]:
    """The shape as MHA (a KV head per query head), its own GQA, MQA (one KV head), MLA
    (DeepSeek-V3's 512 + 64 latent on every layer) and a sliding hybrid (alternate layers
    keep a `window`-token window, as gpt-oss does)."""
    base = as_model(shape)
    full = [g.spec for g in base.groups if isinstance(g.spec, FullAttentionSpec)]
    if not full or base.num_query_heads is None:
        raise ValueError(f"shape: {base.name} needs full-attention layers and a query-head count to vary")
    spec, layers = full[0], base.num_layers
    heads, dim = spec.num_kv_heads, spec.head_size

    def variant(label: str, groups: tuple[LayerGroup, ...]) -> Model:
        return Model(f"{base.name} shape, {label}", groups, base.params, num_query_heads=base.num_query_heads)

    sliding = layers // 2
    return [
        variant(
            f"MHA ({base.num_query_heads} KV heads)",
            (LayerGroup(FullAttentionSpec(base.num_query_heads, dim), layers),),
        ),
        variant(f"GQA ({heads} KV heads)", (LayerGroup(FullAttentionSpec(heads, dim), layers),)),
        variant("MQA (1 KV head)", (LayerGroup(FullAttentionSpec(1, dim), layers),)),
        variant(f"MLA (latent {latent[0]} + {latent[1]})", (LayerGroup(MLASpec(*latent), layers),)),
        variant(
            f"GQA, {sliding} of {layers} layers sliding ({window:,}-token window)",
            (
                LayerGroup(SlidingWindowSpec(heads, dim, window=window), sliding),
                LayerGroup(FullAttentionSpec(heads, dim), layers - sliding),
            ),
        ),
    ]


def attention_designs_table(
    shape: Model | str = "llama-3-8b",
    models: Iterable[Model | str] | Model | str = REAL_MODELS,
    *,
    context: int = 32_768,
    kv_dtype: str = "bf16",
    window: int = 1024,
) -> pd.DataFrame:
    """Rows for the shape's five designs, then each real model. Bytes per token is the
    long-context cost; "per conversation" holds `context` tokens. "x smaller than its MHA
    form" compares like with like: a shape row against the shape stored as MHA, a real
    model against the same model stored as MHA (a KV head per query head; for MLA, full
    keys and values per head), never a model against another model's shape. "past max
    context" marks a row whose model (or shape's model) was not built for `context`."""
    variants = shape_variants(shape, window=window)
    mha = variants[0].kv_bytes_per_token(kv_dtype)
    rows = []
    for kind, m in [("shape", v) for v in variants] + [("model", m) for m in models_of(models)]:
        bpt = m.kv_bytes_per_token(kv_dtype)
        own_mha = mha if kind == "shape" else m.as_mha().kv_bytes_per_token(kv_dtype)
        rows.append(
            {
                "row": kind,
                "model": m.name,
                "attention design": design(m),
                "layers": m.num_layers,
                "bytes/token (B)": bpt,
                "bytes/token (KiB)": bpt / KiB,
                f"per conversation at {context:,} tokens (GB)": m.kv_bytes(context, kv_dtype) / GB,
                "x smaller than its MHA form": own_mha / bpt if bpt else float("inf"),
                PAST_MAX: past_max(m, context),
            }
        )
    return pd.DataFrame(rows)
