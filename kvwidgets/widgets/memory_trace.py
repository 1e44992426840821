"""MemoryOverTrace: where "60-80% of KV memory wasted" comes from (the PagedAttention paper).

One stream of requests through four allocators (core.allocator_trace: Orca reserving the
maximum, the output rounded up to a power of two, the exact length, and vLLM's paged
blocks), drawn as memory over time stacked by use, one panel per allocator.

Python draws the request lengths (the seeded RNG stays here) for both datasets and sends
them in `lengths`; the browser runs the same deterministic allocators
(js/calc/allocator_trace.js, held to the core by tests/widgets/test_trace_node.py), so every
control redraws with no kernel. `result` is core.allocator_trace's answer for the inputs.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from ..core.allocator_trace import POLICIES, POLICY_LABELS, allocator_trace, kv_slots_for
from ..core.errors import InputError, check_int
from ..core.request_lengths import get_length_fit, length_fits, sample_requests
from ..data.reported import PAPER_BATCH, PAPER_KV_SLOTS_OPT13B_A100_40GB, PAPER_KV_USE, PAPER_MAX_LEN
from . import traits
from .base import KVWidget

BLOCK_SIZES = (8, 16, 32)  # vLLM's --block-size choices on CUDA; 16 is its default (and the paper's)
REQUEST_COUNTS = (300, 1000, 3000)
VIEWS = ("all", *POLICIES)
POINTS = 200  # steps sampled per series
SIZING = ("model", "gpu", "num_gpus", "weight_dtype", "kv_dtype")  # what sizes the memory when kv_slots is 0


class MemoryOverTrace(KVWidget):
    """KV memory over a request trace, stacked by use, for Orca's three reservations and vLLM's paging.

    kv_slots: token slots of KV memory (default: the paper's OPT-13B on an A100-40GB,
    15,728); 0 sizes them from model, gpu, num_gpus, weight_dtype and kv_dtype. Giving or
    changing one of those here sets kv_slots to 0 unless kv_slots is given too: the trace
    then runs on what that model leaves on that GPU. In the browser their menus are off
    while kv_slots is the paper's (they would change nothing), saying so beside them.
    seed: the request lengths' seed (a new seed draws new lengths in Python).
    """

    _render_file = "memory_trace.js"
    _inputs = (
        "dataset",
        "num_requests",
        "kv_slots",
        "model",
        "gpu",
        "num_gpus",
        "weight_dtype",
        "kv_dtype",
        "block_size",
        "view",
    )
    _axes = {
        "block_sizes": BLOCK_SIZES,
        "request_counts": REQUEST_COUNTS,
        "views": VIEWS,
        "points": (POINTS,),
    }

    dataset = traitlets.Unicode("sharegpt", help="where the request lengths come from").tag(sync=True)
    num_requests = traitlets.Int(1000, help="requests in the trace").tag(sync=True)
    kv_slots = traitlets.Int(
        PAPER_KV_SLOTS_OPT13B_A100_40GB, help="token slots of KV memory; 0 = what the model leaves on the GPU"
    ).tag(sync=True)
    model = traits.model()
    gpu = traits.gpu()
    num_gpus = traits.num_gpus()
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    block_size = traitlets.Int(16, help="tokens per block (paged)").tag(sync=True)
    view = traitlets.Unicode("all", help="'all' panels, or one policy's").tag(sync=True)
    seed = traitlets.Int(0, help="seed of the request lengths").tag(sync=True)
    # dataset -> [prompt, output, prompt, output, ...] for the first len/2 requests of that seed
    lengths = traitlets.Dict().tag(sync=True)
    # the lengths' provenance and the paper's published figures, shown in the fold
    reference = traitlets.Dict().tag(sync=True)

    def __init__(self, scenario: Any = None, **kwargs: Any) -> None:
        self._lengths_for: tuple[int, int] | None = None
        if "kv_slots" not in kwargs and any(k in kwargs for k in SIZING):
            kwargs["kv_slots"] = 0  # a model or GPU given: trace the memory it leaves
        super().__init__(scenario, **kwargs)
        self.observe(self._on_seed, names=["seed"])

    def refresh(self) -> None:
        self._sample_lengths()
        self.reference = _reference()
        super().refresh()

    def _on_seed(self, change: dict[str, Any]) -> None:
        self.refresh()

    def _on_input(self, change: dict[str, Any]) -> None:
        if change["name"] == "view":  # which panels are drawn: nothing to recompute
            if self.view not in VIEWS:
                self.error = _bad_view(self.view)
            elif self.error.startswith("view must"):
                self.refresh()
            return
        if change["name"] in SIZING and self.kv_slots != 0:
            self.kv_slots = 0  # its observer recomputes
            return
        super()._on_input(change)

    def _sample_lengths(self) -> None:
        """The first max(3,000, num_requests) requests of each dataset, drawn with `seed`.

        sample_requests draws request by request, so the first n of a longer draw are the
        n requests allocator_trace(dataset, num_requests=n, seed=seed) runs.
        """
        try:
            count = max(REQUEST_COUNTS[-1], check_int("num_requests", self.num_requests, minimum=1))
            seed = check_int("seed", self.seed)
        except InputError:
            return  # compute() names the field
        if self._lengths_for == (count, seed):
            return
        out = {}
        for name in length_fits():
            out[name] = [x for pair in sample_requests(name, count, seed=seed) for x in pair]
        self.lengths = out
        self._lengths_for = (count, seed)

    def compute(self) -> dict[str, Any]:
        fit = get_length_fit(self.dataset)
        if self.block_size not in BLOCK_SIZES:
            raise InputError(
                f"block_size must be one of {', '.join(map(str, BLOCK_SIZES))}, got {self.block_size!r}"
            )
        if self.view not in VIEWS:
            raise InputError(_bad_view(self.view))
        slots = check_int("kv_slots", self.kv_slots)
        if slots == 0:
            m = self.get_model(self.model)
            slots = kv_slots_for(
                m,
                self.gpu,
                kv_dtype=self.kv_dtype,
                num_gpus=self.num_gpus,
                weight_dtype=self.weight_dtype,
            )
        trace = allocator_trace(
            fit.name,
            kv_slots=slots,
            num_requests=self.num_requests,
            seed=self.seed,
            block_size=self.block_size,
            points=POINTS,
        )
        return {
            "dataset": trace.dataset,
            "num_requests": len(trace.requests),
            "seed": trace.seed,
            "kv_slots": trace.kv_slots,
            "block_size": trace.block_size,
            "max_len": trace.max_len,
            "watermark_blocks": trace.watermark_blocks,
            "steps": list(trace.steps),
            "runs": {p: dataclasses.asdict(r) for p, r in trace.runs.items()},
            "notes": list(trace.notes),
        }


def _bad_view(view: object) -> str:
    return f"view must be one of {', '.join(VIEWS)}, got {view!r}"


def _reference() -> dict[str, Any]:
    fits = length_fits()
    any_fit = next(iter(fits.values()))
    return {
        "paper_kv_slots": PAPER_KV_SLOTS_OPT13B_A100_40GB,
        "paper_max_len": PAPER_MAX_LEN,
        "paper_kv_use": PAPER_KV_USE,
        "paper_batch": PAPER_BATCH,
        "labels": POLICY_LABELS,
        "fits": {
            name: {
                "label": f.label,
                "input_mean": f.input_mean,
                "output_mean": f.output_mean,
                "input_sigma": f.input_sigma,
                "output_sigma": f.output_sigma,
                "max_input": f.max_input,
            }
            for name, f in fits.items()
        },
        "source": any_fit.source,
        "spread_assumption": any_fit.spread_assumption,
    }
