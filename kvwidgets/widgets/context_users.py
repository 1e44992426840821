"""ContextVsUsers: how the number of conversations that fit falls as each one gets longer,
for a 16-bit and an FP8 cache, with 8K / 32K / 128K marked."""

from __future__ import annotations

from typing import Any

import traitlets

from ..core.budget import max_context, users_that_fit
from ..core.errors import InputError
from . import traits
from .base import KVWidget
from .memo import remember_last

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
    context = traits.context(8192)
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
        # everything but the model, GPU, context and cache dtype, as users_that_fit takes it
        common = (
            ("num_gpus", self.num_gpus),
            ("weight_dtype", self.weight_dtype),
            ("utilization", self.utilization),
            ("params", self.params_override()),
        )
        here = users_that_fit(m, self.gpu, self.context, kv_dtype=self.kv_dtype, **dict(common))
        return {
            "model": m.name,
            "y_scale": self.y_scale,
            "gpu": here.gpu,
            "context": self.context,
            "kv_dtype": self.kv_dtype,
            "users": here.users,
            "kv_budget_bytes": here.kv_budget_bytes,  # what the GPUs keep for the cache
            "kv_per_user_bytes": here.kv_per_user_bytes,
            "users_by_dtype": users_by_dtype(m, self.gpu, self.context, common),
            "marks": self._marks(m, self.gpu, common),
            "max_context_one_user": self._max_context_one_user(m, self.gpu, self.kv_dtype, common),
        }

    # The marked contexts and the one-user limit do not read the context slider (nor
    # y_scale), so a slider step reuses them (memo.py).
    @remember_last
    def _marks(self, m: Any, gpu: str, common: tuple) -> dict[str, dict[str, int]]:
        return {str(t): users_by_dtype(m, gpu, t, common) for t in MARKS}

    @remember_last
    def _max_context_one_user(self, m: Any, gpu: str, kv_dtype: str, common: tuple) -> int | None:
        return max_context(m, gpu, 1, kv_dtype=kv_dtype, **dict(common))


def users_by_dtype(m: Any, gpu: str, context: int, common: tuple) -> dict[str, int]:
    """Conversations of `context` tokens that fit, for each cache dtype the chart draws."""
    return {kv: users_that_fit(m, gpu, context, kv_dtype=kv, **dict(common)).users for kv in LINE_DTYPES}
