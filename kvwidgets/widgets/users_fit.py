"""UsersThatFit: the memory of the GPUs stacked up (weights, working area, the users' KV,
left over, reserve) and how many conversations fit, across 1, 2, 4 and 8 GPUs."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.budget import Fit, users_that_fit
from . import traits
from .base import KVWidget

GPU_COUNTS = (1, 2, 4, 8)


def fit_dict(fit: Fit) -> dict[str, Any]:
    out = dataclasses.asdict(fit)
    out.update(
        weights_fit=fit.weights_fit, loads_but_cannot_serve=fit.loads_but_cannot_serve, message=fit.message
    )
    return out


class UsersThatFit(KVWidget):
    """How many conversations of `context` tokens fit at once on `num_gpus` GPUs."""

    _render_file = "users_fit.js"
    _inputs = (
        "model",
        "gpu",
        "num_gpus",
        "context",
        "weight_dtype",
        "kv_dtype",
        "utilization",
        "memory",
        "working_bytes",
        "params",
    )
    _axes = {"gpu_counts": GPU_COUNTS}

    model = traits.model()
    gpu = traits.gpu()
    num_gpus = traits.num_gpus()
    context = traits.context(8192)
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    utilization = traits.utilization()
    memory = traits.memory()
    working_bytes = traits.working_bytes()
    params = traits.params()

    def _fit(self, num_gpus: int) -> Fit:
        return users_that_fit(
            self.get_model(self.model),
            self.gpu,
            self.context,
            num_gpus=num_gpus,
            weight_dtype=self.weight_dtype,
            kv_dtype=self.kv_dtype,
            utilization=self.utilization,
            working_bytes=self.working_bytes,
            memory=self.memory,
            params=self.params_override(),
        )

    def compute(self) -> dict[str, Any]:
        result = fit_dict(self._fit(self.num_gpus))  # raises on bad input: nothing changes
        by_gpus: dict[str, Any] = {}
        for n in GPU_COUNTS:  # a count that cannot split the KV heads is a fact, not an error
            try:
                by_gpus[str(n)] = fit_dict(self._fit(n))
            except Exception as exc:
                by_gpus[str(n)] = {"error": str(exc)}
        result["by_gpus"] = by_gpus
        return result
