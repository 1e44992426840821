"""Measured decode steps on one NVIDIA H200 (kvwidgets/data/h200/decode.csv), with provenance.

These are data to set beside the ideal ceilings, never expected values of the formulas:
the Llama-3-8B shape with random bf16 weights and a bf16 cache, one CUDA graph per
(batch, context), PyTorch 2.11 + CUDA 13.0. See kvwidgets/data/h200/README.md.
Standard library only, so the calculation layers may read it too.
"""

from __future__ import annotations

import csv
import functools
import io
from importlib import resources
from typing import Any

# Stated here once so a widget or notebook can cite the data without re-reading the README.
H200_DECODE_PROVENANCE = (
    "Measured on one NVIDIA H200 (2026-11-29): Llama-3-8B shape with random bf16 weights and "
    "a bf16 KV cache, PyTorch SDPA attention, one CUDA graph per (batch, context)"
)
H200_DECODE_MODEL = "llama-3-8b"
# Presets with exactly the measured shape and weights (Llama 3.1 8B differs only in its RoPE
# scaling and maximum context, neither of which changes the bytes a step reads).
H200_DECODE_MODELS = ("llama-3-8b", "llama-3.1-8b")
H200_DECODE_GPU = "H200"


def _h200_file(name: str) -> str:
    return resources.files("kvwidgets.data").joinpath("h200", name).read_text(encoding="utf-8")


@functools.cache
def _rows() -> tuple[dict[str, Any], ...]:
    out = []
    for row in csv.DictReader(io.StringIO(_h200_file("decode.csv"))):
        out.append(
            {
                "batch": int(row["batch"]),
                "context": int(row["context"]),
                "attention": row["attention"],
                "step_ms": float(row["step_ms"]),
                "tokens_per_s_per_user": float(row["tokens_per_s_per_user"]),
                "tokens_per_s_total": float(row["tokens_per_s_total"]),
                "bytes_per_step": int(row["bytes_per_step"]),
                "achieved_GBps": float(row["achieved_GBps"]),
            }
        )
    return tuple(out)


def h200_decode(attention: str = "sdpa") -> list[dict[str, Any]]:
    """Decode rows for one attention implementation ('sdpa', the fused kernel, by default)."""
    rows = [dict(r) for r in _rows() if r["attention"] == attention]
    if not rows:
        from ..core.errors import InputError

        known = sorted({r["attention"] for r in _rows()})
        raise InputError(f"attention must be one of {', '.join(known)}, got {attention!r}")
    return rows


# Prefill of one sequence on the same H200 (measure.json "prefill"): the time to compute a
# prompt's keys and values from scratch, which is what recomputing a dropped cache costs.
H200_PREFILL_PROVENANCE = (
    "Measured on one NVIDIA H200 (2026-11-29): prefill of one sequence, Llama-3-8B shape with "
    "random bf16 weights, PyTorch SDPA (flash) attention, no CUDA graphs"
)
H200_PREFILL_MODEL = "llama-3-8b"
# Presets with exactly the measured shape and parameter count: Llama 3.1 8B differs from
# Llama 3 8B only in its RoPE scaling and its maximum context, not in prefill's arithmetic.
H200_PREFILL_MODELS = ("llama-3-8b", "llama-3.1-8b")
H200_PREFILL_GPU = "H200"


@functools.cache
def _prefill_rows() -> tuple[dict[str, Any], ...]:
    import json

    rows = json.loads(_h200_file("measure.json"))["prefill"]
    return tuple(
        {
            "tokens": int(r["tokens"]),
            "seconds": float(r["prefill_ms"]) / 1e3,
            "achieved_tflops": float(r["achieved_TFLOPs"]),
        }
        for r in rows
    )


def h200_prefill() -> list[dict[str, Any]]:
    """Prefill rows (tokens, seconds, achieved TFLOP/s), shortest prompt first."""
    return sorted((dict(r) for r in _prefill_rows()), key=lambda r: r["tokens"])


def interpolate_log(rows: list[dict[str, Any]], tokens: int, key: str = "seconds") -> float | None:
    """rows[key] at `tokens`, straight between measured points on log-log axes (how the
    widget draws them); None outside the measured range: measurements are not extrapolated."""
    import math

    for r in rows:
        if r["tokens"] == tokens:
            return r[key]
    for a, b in zip(rows, rows[1:]):
        if a["tokens"] < tokens < b["tokens"]:
            f = (math.log(tokens) - math.log(a["tokens"])) / (math.log(b["tokens"]) - math.log(a["tokens"]))
            return math.exp(math.log(a[key]) + f * (math.log(b[key]) - math.log(a[key])))
    return None


def measured_crossing(reload_s_per: Any, rows: list[dict[str, Any]]) -> int | None:
    """First token count in the measured range where reload_s_per(t) (seconds to copy t
    tokens' cache back) and the measured prefill (log-log interpolation of rows, e.g.
    h200_prefill()) change order; None when they do not."""
    from ..core.offload import first_flip  # the same search the ideal crossovers use

    if not rows:
        return None

    def reload_first(t: int) -> bool:
        return reload_s_per(t) < interpolate_log(rows, t)

    return first_flip(reload_first, [r["tokens"] for r in rows])


def h200_host_copy_gbps() -> dict[str, float]:
    """Measured host-to-device / device-to-host copy speeds on the same H200 host (GB/s)."""
    import json

    return dict(json.loads(_h200_file("measure.json"))["host_copy"])
