"""ContextVsUsers: how the number of conversations that fit falls as each one gets longer,
for a 16-bit and an FP8 cache, with 8K / 32K / 128K marked."""

from __future__ import annotations

from typing import Any

import traitlets

from ..core.budget import max_context, users_that_fit
from ..core.errors import InputError
from . import traits
from .base import KVWidget

MARKS = (8192, 32768, 131072)
LINES = (("bf16", "16-bit cache"), ("fp8", "FP8 cache"))  # the two caches the chart compares
LINE_DTYPES = tuple(dt for dt, _ in LINES)


class ContextVsUsers(KVWidget):
    """Users against context on a log axis (1K..1M), the chosen point highlighted."""

    _render_file = "context_users.js"
    _inputs = (
        "model",
        "gpu",
        "num_gpus",
        "context",
        "weight_dtype",
        "kv_dtype",
        "utilization",
        "params",
        "y_scale",
    )
    _axes = {"marks": MARKS, "lines": LINES}

    model = traits.model()
    gpu = traits.gpu()
    num_gpus = traits.num_gpus()
    context = traits.context(8000)
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    utilization = traits.utilization()
    params = traits.params()
    # Log by default: 3 users at 128K and 800 at 1K are both readable only on a log axis.
    y_scale = traitlets.Unicode("log", help="'log' or 'linear' users axis").tag(sync=True)

    def compute(self) -> dict[str, Any]:
        m = self.get_model(self.model)
        if self.y_scale not in ("log", "linear"):
            raise InputError(f"y_scale must be 'log' or 'linear', got {self.y_scale!r}")
        common = dict(
            num_gpus=self.num_gpus,
            weight_dtype=self.weight_dtype,
            utilization=self.utilization,
            params=self.params_override(),
        )

        def users(context: int, kv: str) -> int:
            return users_that_fit(m, self.gpu, context, kv_dtype=kv, **common).users

        here = users_that_fit(m, self.gpu, self.context, kv_dtype=self.kv_dtype, **common)
        return {
            "model": m.name,
            "y_scale": self.y_scale,
            "gpu": here.gpu,
            "context": self.context,
            "kv_dtype": self.kv_dtype,
            "users": here.users,
            "kv_budget_bytes": here.kv_budget_bytes,  # what the GPUs keep for the cache
            "kv_per_user_bytes": here.kv_per_user_bytes,
            "users_by_dtype": {kv: users(self.context, kv) for kv in LINE_DTYPES},
            "marks": {str(t): {kv: users(t, kv) for kv in LINE_DTYPES} for t in MARKS},
            "max_context_one_user": max_context(m, self.gpu, 1, kv_dtype=self.kv_dtype, **common),
        }
