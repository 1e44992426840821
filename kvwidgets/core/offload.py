"""Dropping a conversation's cache: recompute it later, or park it off the GPU and copy it back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Mapping

from .decode import prefill_seconds
from .errors import InputError, check_int, unknown_name
from .gpus import GPU, get_gpu
from .model import Model


@dataclass(frozen=True)
class StorageTier:
    name: str
    label: str
    low_gbps: float
    typical_gbps: float
    high_gbps: float
    source: str


def _load() -> dict[str, StorageTier]:
    raw = json.loads(resources.files("kvwidgets.data").joinpath("storage.json").read_text())
    return {k: StorageTier(name=k, **v) for k, v in raw.items() if not k.startswith("_")}


STORAGE: Mapping[str, StorageTier] = MappingProxyType(_load())


def get_tier(tier: "str | StorageTier") -> StorageTier:
    if isinstance(tier, StorageTier):
        return tier
    if tier not in STORAGE:
        raise unknown_name("storage tier", tier, STORAGE)
    return STORAGE[tier]


def reload_seconds(model: Model, tokens: int, tier: str = "cpu-pinned", *,
                   kv_dtype: str = "bf16", speed: str = "typical") -> float:
    """Time to copy one conversation's cache back to the GPU from `tier`."""
    t = get_tier(tier)
    speeds = {"low": t.low_gbps, "typical": t.typical_gbps, "high": t.high_gbps}
    if speed not in speeds:
        raise InputError(f"speed must be 'low', 'typical' or 'high', got {speed!r}")
    gbps = speeds[speed]
    return model.kv_bytes(tokens, kv_dtype) / (gbps * 1e9)


@dataclass(frozen=True)
class OffloadRow:
    option: str
    seconds_low: float   # fastest case
    seconds_high: float  # slowest case
    source: str


def offload_vs_recompute(model: Model, gpu: "str | GPU", tokens: int, *, kv_dtype: str = "bf16",
                         params: int | None = None) -> list[OffloadRow]:
    """Recompute (ideal prefill floor) beside copying back from each storage tier."""
    g = get_gpu(gpu)
    tokens = check_int("tokens", tokens, minimum=1)
    pre = prefill_seconds(model, g, tokens, params=params)
    rows = [OffloadRow(f"recompute on {g.name} ({g.bf16_tflops:,.0f} TFLOPS)", pre, pre,
                       "2 x params x tokens / dense BF16 FLOPS, an ideal floor")]
    kv = model.kv_bytes(tokens, kv_dtype)
    for t in STORAGE.values():
        rows.append(OffloadRow(f"reload from {t.label}", kv / (t.high_gbps * 1e9), kv / (t.low_gbps * 1e9), t.source))
    return rows
