"""DecodeSpeed: the bandwidth ceiling of decoding, per user and in total, against context,
the bytes one step reads (weights vs KV), and measured H200 points beside the ideal."""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from ..core.budget import max_context, users_that_fit
from ..core.decode import decode_ceiling
from ..data import measured as measured_data
from . import traits
from .base import KVWidget
from .memo import remember_last

BATCHES = (1, 8, 32, 64, 128, 256)  # result["by_batch"]: the batches measured on the H200
LINES = (1, 8, 64, 256)  # the batch lines drawn (plus the chosen batch): few enough to read


class DecodeSpeed(KVWidget):
    """Tokens/s ceilings for several batch sizes; measured H200 points for llama-3-8b."""

    _render_file = "decode_speed.js"
    _inputs = ("model", "gpu", "num_gpus", "context", "batch", "weight_dtype", "kv_dtype", "params")
    _axes = {"batches": BATCHES, "lines": LINES}

    model = traits.model()
    gpu = traits.gpu("H200")
    num_gpus = traits.num_gpus()
    context = traits.context(8192)
    batch = traits.batch(1)
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    params = traits.params()
    # The H200 rows (sdpa attention) and where they came from; drawn only for their model/GPU.
    measured = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.measured = {
            "model": measured_data.H200_DECODE_MODEL,
            "models": list(measured_data.H200_DECODE_MODELS),  # presets of the measured shape
            "gpu": measured_data.H200_DECODE_GPU,
            "provenance": measured_data.H200_DECODE_PROVENANCE,
            "rows": [
                {k: r[k] for k in ("batch", "context", "tokens_per_s_per_user", "tokens_per_s_total")}
                for r in measured_data.h200_decode("sdpa")
            ],
        }

    def compute(self) -> dict[str, Any]:
        m = self.get_model(self.model)
        opts = dict(
            weight_dtype=self.weight_dtype,
            kv_dtype=self.kv_dtype,
            num_gpus=self.num_gpus,
            params=self.params_override(),
        )
        result = dataclasses.asdict(decode_ceiling(m, self.gpu, self.context, self.batch, **opts))
        result["model"] = m.name
        # The ceiling assumes the batch's caches are all in GPU memory; say whether they can
        # be, with users_that_fit's arithmetic at the engine's default utilization (0.9).
        fit = users_that_fit(m, self.gpu, self.context, **opts)
        result["max_batch"] = fit.users
        result["fits"] = self.batch <= fit.users
        fits_up_to = self._fits_up_to(
            m, self.gpu, self.num_gpus, self.weight_dtype, self.kv_dtype, opts["params"]
        )
        result["by_batch"] = {
            str(b): {
                **{k: getattr(d, k) for k in ("tokens_per_s_per_user", "tokens_per_s_total", "step_s")},
                "fits_up_to": fits_up_to[b],
            }
            for b in BATCHES
            for d in [decode_ceiling(m, self.gpu, self.context, b, **opts)]
        }
        result["shows_measured"] = (
            m.name in measured_data.H200_DECODE_MODELS
            and result["gpu"] == measured_data.H200_DECODE_GPU
            and self.num_gpus == 1
        )
        return result

    @remember_last
    def _fits_up_to(
        self, m: Any, gpu: str, num_gpus: int, weight_dtype: str, kv_dtype: str, params: int | None
    ) -> dict[int, int | None]:
        """Per batch line, the longest context at which that many sequences fit (None: no
        limit); the line is solid up to here and dotted beyond. A bisection per line, and
        independent of the context and batch inputs, so a slider step reuses it."""
        opts = dict(num_gpus=num_gpus, weight_dtype=weight_dtype, kv_dtype=kv_dtype, params=params)
        return {b: max_context(m, gpu, b, **opts) for b in BATCHES}
