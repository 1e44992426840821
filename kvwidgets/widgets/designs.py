"""AttentionDesigns: bytes per token of MHA, GQA, MQA, MLA and a sliding hybrid on one
shape (Llama 3 8B's), and what real models of each design hold per conversation."""

from __future__ import annotations

from typing import Any

import traitlets

from ..core.errors import InputError, check_int
from ..core.layers import FullAttentionSpec, LayerGroup, MLASpec, SlidingWindowSpec
from ..core.model import Model
from . import browser_data, traits
from .base import KVWidget

# The one shape every design is drawn on: Llama 3 8B (32 layers, 32 query heads,
# 8 KV heads, head dim 128). MLA takes DeepSeek-V3's latent (512) + rope key (64).
LAYERS, QUERY_HEADS, KV_HEADS, HEAD_DIM = 32, 32, 8, 128
MLA_LATENT, MLA_ROPE = 512, 64
WINDOWS = (128, 1024)
DESIGN_ORDER = ("MHA", "GQA", "MQA", "MLA", "Sliding hybrid {window}")  # chart order
# the 3.1 Llamas (Llama 3's shapes, built for 131,072 tokens): the widget opens at 128K, past
# the 8,192 tokens Llama 3 was trained for
REAL_MODELS = ("llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "gpt-oss-120b", "gemma-3-27b")
_PARAMS = 8_030_261_248  # unused by these charts; a Model needs one


def _design(name: str, *groups: tuple[Any, int]) -> Model:
    return Model(name, tuple(LayerGroup(spec, n) for spec, n in groups), _PARAMS, num_query_heads=QUERY_HEADS)


def design_models() -> dict[str, Model]:
    """label -> Model for each design, all on the Llama 3 8B shape."""
    half = LAYERS // 2
    designs = {
        "MHA": _design("MHA", (FullAttentionSpec(QUERY_HEADS, HEAD_DIM), LAYERS)),
        "GQA": _design("GQA", (FullAttentionSpec(KV_HEADS, HEAD_DIM), LAYERS)),
        "MQA": _design("MQA", (FullAttentionSpec(1, HEAD_DIM), LAYERS)),
        "MLA": _design("MLA", (MLASpec(MLA_LATENT, MLA_ROPE), LAYERS)),
    }
    for w in WINDOWS:  # half the layers slide (GQA heads), half attend to everything
        designs[f"Sliding hybrid {w}"] = _design(
            f"Sliding hybrid {w}",
            (FullAttentionSpec(KV_HEADS, HEAD_DIM), half),
            (SlidingWindowSpec(KV_HEADS, HEAD_DIM, window=w), LAYERS - half),
        )
    return designs


class AttentionDesigns(KVWidget):
    """MHA / GQA / MQA / MLA / sliding hybrid side by side, at a short and a long context."""

    _render_file = "designs.js"
    _inputs = ("kv_dtype", "context", "window", "short_context", "x_scale")
    _axes = {"windows": WINDOWS, "designs": DESIGN_ORDER}

    kv_dtype = traits.kv_dtype()
    context = traits.context(131072)
    window = traitlets.Int(1024, help="window of the hybrid's sliding layers (128 or 1024)").tag(sync=True)
    short_context = traitlets.Int(1024, help="the short conversation compared with `context`").tag(sync=True)
    # linear by default: it shows the 4x step from MHA to GQA at its true size (on a log axis
    # it is a small part of a bar); log keeps the short context's bars readable
    x_scale = traitlets.Unicode("linear", help="'linear' or 'log' bar axis").tag(sync=True)
    real = traitlets.List().tag(sync=True)  # real model names that loaded

    def __init__(self, **kwargs: Any) -> None:
        self._design_models = design_models()
        super().__init__(**kwargs)

    def default_shapes(self) -> dict[str, Any]:
        shapes = {label: browser_data.model_shape(m) for label, m in self._design_models.items()}
        presets = browser_data.preset_shapes()
        real = [n for n in REAL_MODELS if n in presets]
        shapes.update({n: presets[n] for n in real})
        self.real = real
        return shapes

    def get_model(self, name: str) -> Model:
        return self._design_models.get(name) or super().get_model(name)

    def compute(self) -> dict[str, Any]:
        kv = self.kv_dtype
        long_ctx = check_int("context", self.context, minimum=1)
        short = check_int("short_context", self.short_context, minimum=1)
        if self.x_scale not in ("log", "linear"):
            raise InputError(f"x_scale must be 'log' or 'linear', got {self.x_scale!r}")
        if self.window not in WINDOWS:
            raise InputError(f"window must be one of {', '.join(map(str, WINDOWS))}, got {self.window!r}")
        shown = [label.format(window=self.window) for label in DESIGN_ORDER]

        def row(m: Model) -> dict[str, int]:
            return {
                "bytes_per_token": m.kv_bytes_per_token(kv),
                "short": m.kv_bytes(short, kv),
                "long": m.kv_bytes(long_ctx, kv),
            }

        return {
            "kv_dtype": kv,
            "context": long_ctx,
            "short_context": short,
            "x_scale": self.x_scale,
            # query heads that share one stored K/V head (MLA: all of them share one latent)
            "query_heads_per_kv_head": {
                label: QUERY_HEADS // n for label, n in (("MHA", QUERY_HEADS), ("GQA", KV_HEADS), ("MQA", 1))
            },
            "designs": {label: row(self._design_models[label]) for label in shown},
            "models": {n: row(self.get_model(n)) for n in self.real},
            # real models drawn past the context they were trained for (the page warns)
            "past_max_context": [n for n in self.real if self.get_model(n).past_max_context(long_ctx)],
        }
