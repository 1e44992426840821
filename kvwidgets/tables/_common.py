"""What every table shares: turning names into Models, and labelling a model's design."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..api import as_model
from ..core.model import Model

# Models the tables show when none are given: the series' examples plus one of each design.
DEFAULT_MODELS: tuple[str, ...] = (
    "llama-3-8b",
    "llama-3-70b",
    "mistral-7b-v0.1",
    "qwen3-8b",
    "gemma-3-27b",
    "gpt-oss-120b",
    "deepseek-v3",
)


def models_of(models: Model | str | Iterable[Model | str]) -> list[Model]:
    """One model or several (Models, preset names, configs: anything load_model takes)."""
    if isinstance(models, (Model, str, dict)):
        models = [models]
    return [as_model(m) for m in models]


def past_max(model: Model, context: int) -> bool:
    """The column every table with a context per row carries: True where the context is
    longer than the model's max_position_embeddings (the figure is arithmetic only there)."""
    return model.past_max_context(context)


PAST_MAX = "past max context"


def as_list(value, kind: type = str) -> list:
    """A single choice or a sequence of them (weight_dtype="fp8" or ["bf16", "fp8"])."""
    if isinstance(value, kind) or not isinstance(value, Sequence):
        return [value]
    return list(value)


def design(model: Model) -> str:
    """MHA / GQA / MQA / MLA / sliding window / hybrid, from the layer specs alone.

    MHA vs GQA needs the query-head count; without it a multi-head full layer is "GQA/MHA".
    """
    labels = []
    for g in model.groups:
        kind = g.spec.kind
        if kind in ("full", "sliding", "chunked"):
            heads = g.spec.num_kv_heads
            if heads == 1:
                label = "MQA"
            elif model.num_query_heads is None:
                label = "GQA/MHA"
            else:
                label = "MHA" if heads >= model.num_query_heads else "GQA"
            label = {"full": label, "sliding": f"sliding {label}", "chunked": f"chunked {label}"}[kind]
        else:
            label = {
                "mla": "MLA",
                "recurrent": "recurrent",
                "cross": "cross-attention",
                "compressed": "compressed MLA",
            }.get(kind, kind)
        if label not in labels:
            labels.append(label)
    return labels[0] if len(labels) == 1 else "hybrid: " + " + ".join(labels)


def kv_heads(model: Model) -> str:
    """KV heads of the full/sliding/chunked layers ("8", or "8 / 16" if they differ; "" for none)."""
    heads = sorted({g.spec.num_kv_heads for g in model.groups if hasattr(g.spec, "num_kv_heads")})
    return " / ".join(str(h) for h in heads)


def head_dim(model: Model) -> str:
    """Key head size ("128"), "192/128" where keys and values differ, "" for MLA/recurrent only."""
    dims = []
    for g in model.groups:
        if hasattr(g.spec, "num_kv_heads"):
            d = (
                f"{g.spec.head_size}"
                if g.spec.v_size == g.spec.head_size
                else f"{g.spec.head_size}/{g.spec.v_size}"
            )
            if d not in dims:
                dims.append(d)
    return " / ".join(dims)
