"""OffloadOrRecompute: bring one conversation's cache back from CPU memory or an SSD, or
compute it again, against context length.

Reload time is the cache's bytes over the tier's copy speed (core.offload.reload_seconds,
kvwidgets/data/storage.json); recompute is the ideal prefill floor, 2 x active params x
tokens / dense BF16 FLOPS (core.decode.prefill_seconds), and beside it the prefill measured
on one H200 for the Llama-3-8B shape (kvwidgets/data/h200), which grows faster than the
ideal because attention's own work grows with the square of the tokens. Where a reload
line crosses a recompute line the cheaper way changes.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from ..core.decode import prefill_seconds
from ..core.errors import InputError, check_int
from ..core.gpus import get_gpu
from ..core.offload import STORAGE, recompute_crossover, reload_seconds, tier_gbps
from ..data import measured as measured_data
from ..data.measured import measured_crossing
from . import traits
from .base import KVWidget
from .memo import remember_last

SPEEDS = ("low", "typical", "high")


def measured_rows(m: Any, g: Any) -> list[dict[str, Any]]:
    """The H200 prefill rows when the widget shows them (a model of the measured shape on
    the measured GPU), else []."""
    if m.name in measured_data.H200_PREFILL_MODELS and g.name == measured_data.H200_PREFILL_GPU:
        return measured_data.h200_prefill()
    return []


class OffloadOrRecompute(KVWidget):
    """Seconds to reload one conversation's cache from each tier vs recomputing it."""

    _render_file = "offload.js"
    _inputs = ("model", "gpu", "kv_dtype", "context", "speed", "bands", "params")
    _axes = {"speeds": SPEEDS}

    model = traits.model()
    gpu = traits.gpu("H200")
    kv_dtype = traits.kv_dtype()
    context = traits.context(8192)  # Llama 3 8B's own maximum (max_position_embeddings)
    # The slow end by default: there the cheaper way changes inside the chart (recompute wins
    # a short conversation from pageable CPU memory or an older SSD, reload a long one);
    # at the typical speeds reloading is faster at every length for this model.
    speed = traitlets.Unicode("low", help="copy speed of each tier: 'low', 'typical' or 'high'").tag(
        sync=True
    )
    # each tier's range (slow to fast end) as a band around its line, on request
    bands = traitlets.Bool(False, help="shade each tier's range of copy speeds").tag(sync=True)
    params = traits.params()
    storage = traitlets.Dict().tag(sync=True)  # tier -> label, low/typical/high GB/s, source
    measured = traitlets.Dict().tag(sync=True)  # the H200 prefill rows and where they came from

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.storage = {k: dataclasses.asdict(v) for k, v in STORAGE.items()}
        self.measured = {
            "model": measured_data.H200_PREFILL_MODEL,
            "models": list(measured_data.H200_PREFILL_MODELS),  # presets of the measured shape
            "gpu": measured_data.H200_PREFILL_GPU,
            "provenance": measured_data.H200_PREFILL_PROVENANCE,
            "rows": measured_data.h200_prefill(),
        }

    def compute(self) -> dict[str, Any]:
        if self.speed not in SPEEDS:
            raise InputError(f"speed must be 'low', 'typical' or 'high', got {self.speed!r}")
        m = self.get_model(self.model)
        g = get_gpu(self.gpu)
        t = check_int("context", self.context, minimum=1)
        params = self.params_override()
        kv = self.kv_dtype
        reload = {
            name: {s: reload_seconds(m, t, name, kv_dtype=kv, speed=s) for s in SPEEDS} for name in STORAGE
        }
        recompute = prefill_seconds(m, g, t, params=params)
        rows = measured_rows(m, g)
        measured = measured_data.interpolate_log(rows, t) if rows else None
        options = {f"reload from {name}": reload[name][self.speed] for name in STORAGE}
        options["recompute (ideal)"] = recompute
        return {
            "model": m.name,
            "gpu": g.name,
            "context": t,
            "kv_dtype": kv,
            "speed": self.speed,
            "kv_bytes": m.kv_bytes(t, kv),
            "reload_seconds": reload,
            "recompute_seconds": recompute,
            "measured_seconds": measured,
            "shows_measured": bool(rows),
            "fastest": min(options, key=options.get),
            "crossovers": self._crossings(m, g, kv, self.speed, params),
            "params_estimated": "ESTIMATE" in str(m.params_source) and not params,
        }

    @remember_last
    def _crossings(self, m: Any, g: Any, kv: str, speed: str, params: int | None) -> dict[str, Any]:
        """Per tier, the context where reloading and recomputing change order (ideal and
        measured). Independent of the context slider, so a slider step reuses it (memo.py)."""
        rows = measured_rows(m, g)
        crossings = {}
        for name in STORAGE:
            gbps = tier_gbps(name, speed)
            crossings[name] = {
                "ideal": recompute_crossover(m, g, name, kv_dtype=kv, speed=speed, params=params),
                "measured": measured_crossing(lambda x, gbps=gbps: m.kv_bytes(x, kv) / (gbps * 1e9), rows)
                if rows
                else None,
            }
        return crossings
