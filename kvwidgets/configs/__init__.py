"""Turning Hugging Face configs (dict, file, folder, Hub repo id) and bundled presets into Models.

    load_model(source, *, params=None, name=None, token=None, revision=None) -> Model
    list_presets()  -> sorted preset names
    PRESETS         -> {preset name: one-line description}

Modules: fields (reading a config with provenance), defaults (library defaults per
model_type), layer_plan (which layers are full / sliding / chunked / recurrent),
recurrent (state-size estimate), families (architectures read their own way: Kimi
Linear, MiMo-V2, Nemotron NAS, Zamba2, Mamba, LFM2, RecurrentGemma, MiniMax, MiniCPM3),
cache_fields (the config fields that decide the cache, and the check that each one present
was read), params (parameter estimate), checkpoint (exact counts from safetensors
headers), hf_config (dict -> Model), presets, hub (the only place huggingface_hub is
imported), loader (load_model).
"""

from __future__ import annotations

from .hf_config import model_from_config
from .loader import load_model
from .presets import list_presets, preset_descriptions

PRESETS: dict[str, str] = preset_descriptions()

__all__ = ["load_model", "list_presets", "PRESETS", "model_from_config"]
