"""GPU table access. The facts themselves live in kvwidgets/data/gpus.json, one row per GPU."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from .errors import unknown_name
from .units import GB


@dataclass(frozen=True)
class GPU:
    name: str
    memory_gb: float  # marketed, in GB (10^9 bytes)
    bandwidth_gbps: float  # HBM / GDDR bandwidth, GB/s
    bf16_tflops: float  # dense BF16 tensor TFLOPS
    fp8: bool  # FP8 tensor cores (an FP8 KV cache runs natively)
    host_link: str
    host_link_gbps: float  # one direction
    source: str
    memory_type: str = ""
    device_bytes: int | None = None  # what the device reports, where measured
    aliases: tuple[str, ...] = ()

    @property
    def memory_bytes(self) -> int:
        return int(round(self.memory_gb * GB))

    @property
    def bandwidth_bytes_per_s(self) -> float:
        return self.bandwidth_gbps * GB

    def memory(self, which: str = "marketed") -> int:
        """Bytes of memory: 'marketed' (the series' convention) or 'device' (reported)."""
        if which == "marketed":
            return self.memory_bytes
        if which == "device":
            if self.device_bytes is None:
                from .errors import InputError

                raise InputError(
                    f"memory='device': no device-reported memory is recorded for {self.name}; "
                    "use memory='marketed'"
                )
            return self.device_bytes
        from .errors import InputError

        raise InputError(f"memory must be 'marketed' or 'device', got {which!r}")


def _load() -> dict[str, GPU]:
    raw = json.loads(resources.files("kvwidgets.data").joinpath("gpus.json").read_text())
    table = {}
    for name, row in raw.items():
        if name.startswith("_"):
            continue
        row = dict(row)
        row["aliases"] = tuple(row.get("aliases", ()))
        table[name] = GPU(name=name, **row)
    return table


GPUS: Mapping[str, GPU] = MappingProxyType(_load())


def _key(name: str) -> str:
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


_LOOKUP = {}
for _gpu in GPUS.values():
    for _n in (_gpu.name, *_gpu.aliases):
        _LOOKUP[_key(_n)] = _gpu


def get_gpu(gpu: str | GPU) -> GPU:
    """A GPU by name or alias, case- and punctuation-insensitive ('h100', 'H100 SXM')."""
    if isinstance(gpu, GPU):
        return gpu
    found = _LOOKUP.get(_key(gpu))
    if found is None:
        raise unknown_name("GPU", gpu, GPUS)
    return found
