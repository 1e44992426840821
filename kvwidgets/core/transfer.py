"""Moving one conversation's cache between GPUs (disaggregated prefill and decode).

A prefill GPU computes the cache, a decode GPU needs all of it: the bytes cross a link.
Under tensor parallelism each rank holds its share (an MLA latent whole on every rank)
and sends it over its own link, the ranks in parallel, so the time is one rank's bytes
over one link. The question is how that time compares with recomputing the prompt
(prefill) and with one decode step. Link bandwidths are the published line rates in
kvwidgets/data/links.json, plus the host copy measured on an H200 (kvwidgets/data/h200).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from importlib import resources
from types import MappingProxyType

from .decode import decode_ceiling, prefill_seconds
from .errors import check_int, unknown_name
from .gpus import GPU, get_gpu
from .model import Model

MEASURED_LINK = "pcie5-h200-measured"


@dataclass(frozen=True)
class Link:
    name: str
    label: str
    gbps: float  # one direction, GB/s (10^9 bytes)
    source: str

    @property
    def bytes_per_s(self) -> float:
        return self.gbps * 1e9


def _load() -> dict[str, Link]:
    from ..data.measured import h200_host_copy_gbps

    raw = json.loads(resources.files("kvwidgets.data").joinpath("links.json").read_text())
    table = {
        k: Link(k, v["label"], float(v["gbps"]), v["source"]) for k, v in raw.items() if not k.startswith("_")
    }
    pinned = h200_host_copy_gbps()["h2d_pinned_GBps"]
    table[MEASURED_LINK] = Link(
        MEASURED_LINK,
        "PCIe Gen5 x16 host copy, measured on an H200",
        pinned,
        "Measured on one NVIDIA H200 host (2026-11-29): 4 GiB host-to-device copy from pinned memory "
        "(kvwidgets/data/h200/measure.json, host_copy.h2d_pinned_GBps)",
    )
    return table


LINKS: Mapping[str, Link] = MappingProxyType(_load())


def get_link(link: str | Link) -> Link:
    if isinstance(link, Link):
        return link
    found = LINKS.get(str(link).strip().lower())
    if found is None:
        raise unknown_name("link", link, LINKS)
    return found


@dataclass(frozen=True)
class CacheTransfer:
    model_name: str
    context: int
    kv_dtype: str
    link: Link
    tp: int
    bytes_per_rank: int  # one rank's share of the conversation's cache
    bytes_all_ranks: int  # every rank's share added (copies of replicated heads / latents included)
    bytes_one_copy: int  # the cache on one GPU (tp = 1): what a single link would carry
    seconds: float  # bytes_per_rank over the link, ranks in parallel
    prefill_seconds: float  # ideal floor of prefilling the context on the tp GPUs
    decode_step_seconds: float  # ideal one decode step, batch 1, at this context
    measured_prefill_seconds: float | None  # H200, Llama-3-8B shape only, inside the measured range

    @property
    def vs_prefill(self) -> float:
        return self.seconds / self.prefill_seconds

    @property
    def vs_decode_step(self) -> float:
        return self.seconds / self.decode_step_seconds

    def as_dict(self) -> dict:
        out = asdict(self)
        out.update(vs_prefill=self.vs_prefill, vs_decode_step=self.vs_decode_step, message=self.message)
        return out

    @property
    def message(self) -> str:
        return (
            f"{self.bytes_per_rank / 1e9:,.3f} GB a rank over {self.link.label} "
            f"({self.link.gbps:g} GB/s): {self.seconds * 1e3:,.2f} ms, "
            f"{self.vs_prefill:.2g}x the ideal prefill ({self.prefill_seconds * 1e3:,.1f} ms) and "
            f"{self.vs_decode_step:.3g} decode steps ({self.decode_step_seconds * 1e3:,.2f} ms each)."
        )


def _measured_prefill(model: Model, gpu: GPU, context: int, tp: int) -> float | None:
    from ..data.measured import H200_PREFILL_GPU, H200_PREFILL_MODELS, h200_prefill, interpolate_log

    if tp != 1 or gpu.name != H200_PREFILL_GPU or model.name not in H200_PREFILL_MODELS:
        return None
    return interpolate_log(h200_prefill(), context)


def cache_transfer(
    model: Model,
    gpu: str | GPU,
    context: int,
    link: str | Link = "nvlink4",
    *,
    tp: int = 1,
    kv_dtype: str = "bf16",
    weight_dtype: str = "bf16",
    params: int | None = None,
) -> CacheTransfer:
    """Time to move one `context`-token conversation's cache from a prefill to a decode
    deployment of `tp` GPUs each, one link per GPU, set against prefill and a decode step."""
    g = get_gpu(gpu)
    context = check_int("context", context, minimum=1)
    tp = check_int("tp", tp, minimum=1)
    ln = get_link(link)
    per_rank = model.kv_bytes(context, kv_dtype, tp=tp)
    step = decode_ceiling(
        model, g, context, 1, weight_dtype=weight_dtype, kv_dtype=kv_dtype, num_gpus=tp, params=params
    )
    return CacheTransfer(
        model_name=model.name,
        context=context,
        kv_dtype=kv_dtype,
        link=ln,
        tp=tp,
        bytes_per_rank=per_rank,
        bytes_all_ranks=per_rank * tp,
        bytes_one_copy=model.kv_bytes(context, kv_dtype, tp=1),
        seconds=per_rank / ln.bytes_per_s,
        prefill_seconds=prefill_seconds(model, g, context, num_gpus=tp, params=params),
        decode_step_seconds=step.step_s,
        measured_prefill_seconds=_measured_prefill(model, g, context, tp),
    )
