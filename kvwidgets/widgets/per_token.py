"""PerTokenBytes: the bytes one token adds to the cache, with the formula's numbers in it."""

from __future__ import annotations

from typing import Any

from ..core.errors import check_int
from . import browser_data, traits
from .base import KVWidget

# The conversation lengths the bar chart always shows (plus the chosen context).
BAR_CONTEXTS = (1024, 8192, 32768, 131072)


class PerTokenBytes(KVWidget):
    """2 x layers x KV heads x head dim x bytes, live, for any preset or loaded model."""

    _render_file = "per_token.js"
    _inputs = ("model", "kv_dtype", "context")
    _axes = {"bar_contexts": BAR_CONTEXTS}

    model = traits.model()
    kv_dtype = traits.kv_dtype()
    context = traits.context(8192)

    def compute(self) -> dict[str, Any]:
        m = self.get_model(self.model)
        context = check_int("context", self.context, minimum=1)
        kv = self.kv_dtype
        result: dict[str, Any] = {
            "model": m.name,
            "kv_dtype": kv,
            "context": context,
            "bytes_per_token": m.kv_bytes_per_token(kv),  # past every window (0 if all are capped)
            "bytes_per_token_within_windows": m.kv_bytes_per_token_within_windows(kv),
            # what each kind adds per token while under its window
            "bytes_per_token_by_kind": m.kv_bytes_per_token_by_kind(kv),
            "kv_bytes": m.kv_bytes(context, kv),
            "kv_bytes_by_kind": m.bytes_by_kind(context, kv),
            "per_context": {str(t): m.kv_bytes(t, kv) for t in (*BAR_CONTEXTS, context)},
            "mha_bytes_per_token": None,
            "mha_ratio": None,
        }
        mha = browser_data.mha_model(m)
        if mha is not None:
            # Measured while the windows fill: past them a sliding-everywhere model costs 0
            # either way, which would hide the mistake (Mistral 7B: 512 KiB, 4x).
            mha_bpt = mha.kv_bytes_per_token_within_windows(kv)
            result["mha_bytes_per_token"] = mha_bpt
            if result["bytes_per_token_within_windows"]:
                result["mha_ratio"] = mha_bpt / result["bytes_per_token_within_windows"]
        return result
