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
    "a bf16 KV cache, PyTorch SDPA attention, one CUDA graph per (batch, context); "
    "kvwidgets/data/h200/README.md"
)
H200_DECODE_MODEL = "llama-3-8b"
H200_DECODE_GPU = "H200"


def _h200_file(name: str) -> str:
    return resources.files("kvwidgets.data").joinpath("h200", name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def _rows() -> tuple[dict[str, Any], ...]:
    out = []
    for row in csv.DictReader(io.StringIO(_h200_file("decode.csv"))):
        out.append({
            "batch": int(row["batch"]),
            "context": int(row["context"]),
            "attention": row["attention"],
            "step_ms": float(row["step_ms"]),
            "tokens_per_s_per_user": float(row["tokens_per_s_per_user"]),
            "tokens_per_s_total": float(row["tokens_per_s_total"]),
            "bytes_per_step": int(row["bytes_per_step"]),
            "achieved_GBps": float(row["achieved_GBps"]),
        })
    return tuple(out)


def h200_decode(attention: str = "sdpa") -> list[dict[str, Any]]:
    """Decode rows for one attention implementation ('sdpa', the fused kernel, by default)."""
    rows = [dict(r) for r in _rows() if r["attention"] == attention]
    if not rows:
        from ..core.errors import InputError

        known = sorted({r["attention"] for r in _rows()})
        raise InputError(f"attention must be one of {', '.join(known)}, got {attention!r}")
    return rows


@functools.lru_cache(maxsize=None)
def _prefill_rows() -> tuple[dict[str, Any], ...]:
    import json

    raw = json.loads(_h200_file("measure.json"))["prefill"]
    return tuple({"tokens": int(r["tokens"]), "prefill_ms": float(r["prefill_ms"]),
                  "achieved_TFLOPs": float(r["achieved_TFLOPs"])} for r in raw)


def h200_prefill() -> list[dict[str, Any]]:
    """Measured prefill of one sequence on one H200 (Llama-3-8B shape, bf16, PyTorch SDPA,
    no graphs): tokens, prefill_ms, achieved_TFLOPs. Data to set beside the ideal floor
    2 x params x tokens / FLOPS, never its expected value; kvwidgets/data/h200/README.md."""
    return [dict(r) for r in _prefill_rows()]


def h200_host_copy_gbps() -> dict[str, float]:
    """Measured host-to-device / device-to-host copy speeds on the same H200 host (GB/s)."""
    import json

    return dict(json.loads(_h200_file("measure.json"))["host_copy"])
