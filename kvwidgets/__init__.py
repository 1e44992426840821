"""kvwidgets: interactive explainers of LLM KV-cache memory for JupyterLab and course pages."""

from __future__ import annotations

from .api import (
    allocator_trace,
    as_model,
    cache_transfer,
    decode_ceiling,
    fewest_gpus,
    kv_slots_for,
    max_context,
    memory_budget,
    offload_vs_recompute,
    paged_vs_reserved,
    placement,
    prefill_seconds,
    prefix_sharing,
    reload_seconds,
    sglang_kv_report,
    users_that_fit,
    vllm_kv_report,
    vllm_report_from_tokens,
    vllm_start_check,
)
from .configs import PRESETS, list_presets, load_model
from .core import (
    GPU,
    GPUS,
    LINKS,
    STORAGE,
    ConfigError,
    Deployment,
    InputError,
    KVWidgetsError,
    Model,
    ModelSourceError,
    UnknownNameError,
    VLLMSettings,
    fmt_bytes,
    fmt_tokens,
    get_gpu,
    mtp_draft,
    parse_sglang_log,
    parse_vllm_log,
    sample_requests,
    sharing_saving,
    uniform_model,
)

__version__ = "0.1.0"

if __import__("sys").platform == "emscripten":  # JupyterLite's Pyodide kernel: no pandas there
    from .lite import install_note as _install_lite_note

    _install_lite_note()

_WIDGETS = {
    "PerTokenBytes",
    "UsersThatFit",
    "ContextVsUsers",
    "DecodeSpeed",
    "AttentionDesigns",
    "Scenario",
    "DecodeStep",
    "PagedBlocks",
    "OffloadOrRecompute",
    "MemoryOverTrace",
    "DeploymentRanks",
    "CacheTransfer",
}
__all__ = sorted(
    [n for n in dir() if not n.startswith("_") and n != "annotations"] + list(_WIDGETS) + ["tables", "export"]
)


def __getattr__(name: str):
    # Widgets pull in anywidget/plotly; import them only when asked for, so the
    # calculation API stays light (and importable where no widget stack is installed).
    if name in _WIDGETS:
        from . import widgets

        return getattr(widgets, name)
    if name in {"tables", "export"}:  # pandas / the page writer, also only on demand
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'kvwidgets' has no attribute {name!r}")
