"""The data every widget's JavaScript evaluates, sent once per widget: model shapes, GPU rows, dtype sizes.

Python sends these once per widget; the browser then evaluates the closed forms in
js/calc/ from them, so no control ever waits for the kernel. The numbers come from
kvwidgets.core (Model.shape(), the GPU table, DTYPE_BITS): nothing is restated here.
"""

from __future__ import annotations

import functools
from typing import Any

from .. import configs
from ..core import DTYPE_BITS, GPUS
from ..core.dtypes import MIXED_WEIGHT_FORMATS
from ..core.model import Model

# The models the notebooks work with, in the order the model menu lists them first; every
# other preset sits behind the menu's "more models" group (tests/widgets check this list
# against the presets the notebooks name).
SERIES_MODELS = (
    "llama-3-8b",
    "llama-3.1-8b",
    "llama-3-70b",
    "llama-3.1-70b",
    "deepseek-v3",
    "gpt-oss-120b",
    "gpt-oss-20b",
    "gemma-3-27b",
    "falcon-7b",
    "qwen2.5-7b",
    "qwen3-32b",
)
# Presets kept for checks against small reference models, not for serving questions: last.
LAST_MODELS = ("gpt2",)
# The menu's "more models" group: current releases (2025 on) whose cache the series' models
# do not show (MLA with a sparse indexer, linear attention, Mamba and short-convolution
# hybrids, chunked local attention, layers without attention) and the largest dense Llama.
# Every other preset (gpt2, Mistral 7B v0.1, Phi-3 mini...) stays out of the menu and still
# loads by name: the menu then shows it as the chosen entry.
MORE_MODELS = (
    "deepseek-v3.2",
    "gemma-4-26b-a4b",
    "kimi-linear-48b-a3b",
    "lfm2-1.2b",
    "llama-3.1-405b",
    "llama-3.3-nemotron-super-49b",
    "llama-4-scout",
    "mimo-v2-flash",
    "minimax-text-01",
    "nemotron-3-nano-30b-a3b",
    "qwen3-8b",
    "qwen3-next-80b-a3b",
)


def preset_names() -> tuple[str, ...]:
    """The presets of kvwidgets.configs, in menu order: the series' models, the others
    alphabetically, then LAST_MODELS."""
    names = configs.list_presets()
    first = [n for n in SERIES_MODELS if n in names]
    last = [n for n in LAST_MODELS if n in names]
    return (*first, *sorted(n for n in names if n not in first and n not in last), *last)


def series_models() -> list[str]:
    """The presets the model menu shows before its "more models" group."""
    names = configs.list_presets()
    return [n for n in SERIES_MODELS if n in names]


def more_models() -> list[str]:
    """The presets of the model menu's "more models" group, in menu order."""
    names = configs.list_presets()
    return [n for n in MORE_MODELS if n in names]


@functools.cache
def preset_model(name: str) -> Model:
    return configs.load_model(name)


def mha_model(model: Model) -> Model | None:
    """The model stored as if every query head had its own K and V (the "query heads by
    mistake" number); None when the model does not say its query heads."""
    as_mha = getattr(model, "as_mha", None)  # Model.as_mha() arrives with the configs work
    try:
        if callable(as_mha):
            return as_mha()
        if model.num_query_heads and model.count("mla") == 0:
            return model.with_kv_heads(model.num_query_heads)
    except Exception:  # a model the conversion does not cover: show no mistake line
        return None
    return None


def mha_groups(model: Model) -> list[dict[str, Any]] | None:
    """The MHA form's groups that grow with the context: js/calc uses them only for bytes
    per token, to which fixed state (cap 0) adds nothing."""
    mha = mha_model(model)
    return None if mha is None else [g for g in mha.shape()["groups"] if g.get("cap") != 0]


def model_shape(model: Model) -> dict[str, Any]:
    """Model.shape() plus what the widgets show beside it (the MHA-mistake layers)."""
    shape = model.shape()
    shape["mha_groups"] = mha_groups(model)
    # the longest context the model was trained for (max_position_embeddings), for warnings
    shape.setdefault("max_context", model.max_context)
    # the loader's own estimate (not a published count): the weights line says so
    shape.setdefault("params_estimated", model.params_estimated)
    # serving engines that no longer run this architecture (configs/engine_support.py)
    if model.engine_notes:  # js/calc/model.js limitLines reads a missing list as none
        shape.setdefault("engine_notes", list(model.engine_notes))
    return shape


@functools.cache
def _preset_shapes(names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    shapes = {}
    for name in names:
        try:
            shapes[name] = model_shape(preset_model(name))
        except Exception:  # a preset that fails to load must not take every widget down
            continue
    return shapes


def preset_shapes() -> dict[str, dict[str, Any]]:
    """name -> shape for every preset that loads (a fresh copy each call)."""
    return {k: dict(v) for k, v in _preset_shapes(preset_names()).items()}


def gpu_rows() -> dict[str, dict[str, Any]]:
    """The GPU table as the browser needs it (bytes as integers, computed by core.GPU)."""
    return {
        name: {
            "name": g.name,
            "memory_bytes": g.memory_bytes,
            "device_bytes": g.device_bytes,
            "bandwidth_gbps": g.bandwidth_gbps,
            "bf16_tflops": g.bf16_tflops,
            "fp8": g.fp8,
            "memory_type": g.memory_type,
        }
        for name, g in GPUS.items()
    }


def dtype_bits() -> dict[str, int]:
    return dict(DTYPE_BITS)


def weight_formats() -> dict[str, dict[str, list[int]]]:
    """Mixed weight formats as the browser reads them: bits as [numerator, denominator]."""
    return {
        name: {
            "routed": [routed.numerator, routed.denominator],
            "other": [other.numerator, other.denominator],
        }
        for name, (routed, other) in MIXED_WEIGHT_FORMATS.items()
    }
