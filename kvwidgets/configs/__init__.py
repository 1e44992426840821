"""Turning Hugging Face configs (dict, file, folder, Hub repo id) and presets into Models.

Placeholder so the package imports; the real loader lands with the configs work.
"""

from __future__ import annotations

from ..core.model import Model, uniform_model

_TEMP = {
    "llama-3-8b": lambda: uniform_model("llama-3-8b", 32, 8, 128, 8_030_261_248, query_heads=32),
    "llama-3-70b": lambda: uniform_model("llama-3-70b", 80, 8, 128, 70_553_706_496, query_heads=64),
}


def load_model(source, *, params=None, name=None, token=None, revision=None) -> Model:
    m = _TEMP[source]()
    return m.with_params(params) if params else m
