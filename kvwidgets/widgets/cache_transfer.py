"""CacheTransfer: one conversation's cache moved from a prefill GPU to a decode GPU
(disaggregated serving), and how long that takes against prefilling it again and against
one decode step.

Every number is core.transfer.cache_transfer's: one rank's share of the cache over the
chosen link (each of the `tp` ranks over its own link, in parallel), the ideal prefill
floor and one decode step's bandwidth ceiling on the same GPUs, and, for the Llama-3-8B
shape on one H200, the prefill measured there. The browser redraws from the links' table
and the model's shape (calc/transfer.js, held to the core by golden vectors).
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..core.transfer import LINKS, cache_transfer
from ..data import measured as measured_data
from . import traits
from .base import KVWidget

# Tensor-parallel sizes the menu offers: each GPU of the prefill group sends its share
# to its counterpart in the decode group.
TP_SIZES = (1, 2, 4, 8, 16)


class CacheTransfer(KVWidget):
    """Time to move one conversation's cache between GPUs over a link, against prefill and decode."""

    _render_file = "cache_transfer.js"
    _inputs = ("model", "gpu", "context", "kv_dtype", "weight_dtype", "link", "tp", "params")
    _axes = {"tp_sizes": TP_SIZES}

    model = traits.model("llama-3.1-8b")
    gpu = traits.gpu("H200")  # the GPU the measured prefill ran on
    context = traits.context(8192)
    kv_dtype = traits.kv_dtype()
    weight_dtype = traits.weight_dtype()
    link = traitlets.Unicode("nvlink4", help="the link the cache crosses (a key of kw.LINKS)").tag(sync=True)
    tp = traitlets.Int(1, help="GPUs under tensor parallelism on each side").tag(sync=True)
    params = traits.params()
    links = traitlets.Dict().tag(sync=True)  # name -> label, GB/s one way, source
    measured = traitlets.Dict().tag(sync=True)  # the H200 prefill rows and where they came from

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.links = {k: {"label": v.label, "gbps": v.gbps, "source": v.source} for k, v in LINKS.items()}
        self.measured = {
            "models": list(measured_data.H200_PREFILL_MODELS),
            "gpu": measured_data.H200_PREFILL_GPU,
            "provenance": measured_data.H200_PREFILL_PROVENANCE,
            "rows": measured_data.h200_prefill(),
        }

    def compute(self) -> dict[str, Any]:
        m = self.get_model(self.model)
        params = self.params_override()

        def over(link: str) -> Any:
            return cache_transfer(
                m,
                self.gpu,
                self.context,
                link,
                tp=self.tp,
                kv_dtype=self.kv_dtype,
                weight_dtype=self.weight_dtype,
                params=params,
            )

        chosen = over(self.link)
        result = chosen.as_dict()
        result["link"] = chosen.link.name
        result["link_gbps"] = chosen.link.gbps
        # every link's move time, as the figure's rows draw them
        result["seconds_by_link"] = {name: over(name).seconds for name in LINKS}
        return result
