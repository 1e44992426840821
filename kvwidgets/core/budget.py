"""GPU memory budget: how many conversations fit, and the longest context for N users.

Convention from the series (SEED_FACTS.md): usable memory is marketed GB x utilization
(0.9, vLLM's default), weights are params x bytes per param, the working area is 0
unless given, and
    users = floor((memory x utilization x GPUs - weights) / (KV bytes per token x tokens)).
We compute per GPU under tensor parallelism, which equals the pooled formula while
the KV heads split evenly and charges the copies when GPUs outnumber KV heads.
Arithmetic is exact (Fractions), so a boundary case never flips on float rounding.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from .errors import InputError, check_int
from .gpus import GPU, get_gpu
from .model import Model


@functools.lru_cache(maxsize=256)
def _decimal_fraction(x: float) -> Fraction:
    # Parsing the repr is most of a users_that_fit call; sweeps repeat the same few values.
    return Fraction(repr(x))


def utilization_fraction(utilization: float) -> Fraction:
    """0.9 -> Fraction(9, 10) exactly (via its shortest decimal repr)."""
    if isinstance(utilization, bool) or not isinstance(utilization, (int, float, Fraction)):
        raise InputError(f"utilization must be a number in (0, 1], got {utilization!r}")
    if isinstance(utilization, float) and not math.isfinite(
        utilization
    ):  # Fraction() rejects nan/inf unclearly
        raise InputError(f"utilization must be in (0, 1] (0.9 keeps 10% free), got {utilization!r}")
    u = Fraction(utilization) if isinstance(utilization, Fraction) else _decimal_fraction(float(utilization))
    if not 0 < u <= 1:
        raise InputError(f"utilization must be in (0, 1] (0.9 keeps 10% free), got {utilization!r}")
    return u


@dataclass(frozen=True)
class Budget:
    """Memory of the GPUs once weights and the working area are paid (totals over all GPUs)."""

    gpu: GPU
    num_gpus: int
    memory_bytes: int  # marketed (or device) bytes x GPUs
    usable_bytes: int  # x utilization
    reserve_bytes: int  # what utilization keeps free
    weights_bytes: int
    working_bytes: int  # per GPU x GPUs
    kv_budget_bytes: int  # usable - weights - working (negative: the weights do not fit)
    per_gpu_kv_budget: Fraction

    @property
    def weights_fit(self) -> bool:
        return self.kv_budget_bytes >= 0


def memory_budget(
    model: Model,
    gpu: str | GPU,
    *,
    num_gpus: int = 1,
    weight_dtype: str = "bf16",
    utilization: float = 0.9,
    working_bytes: int = 0,
    params: int | None = None,
    memory: str = "marketed",
) -> Budget:
    g = get_gpu(gpu)
    n = check_int("num_gpus", num_gpus, minimum=1)
    u = utilization_fraction(utilization)
    working = check_int("working_bytes", working_bytes)
    per_gpu_mem = g.memory(memory)
    weights = model.weight_bytes(weight_dtype, params)
    # Exact, in integers over the utilization's denominator q (u = p / q): the same values
    # as Fraction arithmetic step by step, at a fraction of the cost in sweeps.
    p, q = u.numerator, u.denominator
    usable = per_gpu_mem * p * n // q
    kv_total_q = per_gpu_mem * p * n - (weights + working * n) * q  # (usable - weights - working) x q
    return Budget(
        gpu=g,
        num_gpus=n,
        memory_bytes=per_gpu_mem * n,
        usable_bytes=usable,
        reserve_bytes=per_gpu_mem * n - usable,
        weights_bytes=weights,
        working_bytes=working * n,
        kv_budget_bytes=kv_total_q // q,
        per_gpu_kv_budget=Fraction(kv_total_q, q * n),
    )


@dataclass(frozen=True)
class Fit:
    """users_that_fit's answer with its breakdown in bytes (totals over all GPUs)."""

    users: int
    context: int
    num_gpus: int
    gpu: str
    memory_bytes: int
    usable_bytes: int
    reserve_bytes: int
    weights_bytes: int
    working_bytes: int
    kv_budget_bytes: int
    kv_per_user_bytes: int  # one conversation, all GPUs (copies included)
    kv_used_bytes: int  # users x kv_per_user
    left_over_bytes: int  # budget the users leave unused (0 if weights do not fit)
    # limits the number alone would hide: a context past the model's max_position_embeddings,
    # an architecture serving engines no longer run or a caveat on how its config was read
    # (Model.context_warning, Model.engine_notes), weights from an estimated parameter count
    warnings: tuple[str, ...] = ()

    @property
    def weights_fit(self) -> bool:
        return self.kv_budget_bytes >= 0

    @property
    def loads_but_cannot_serve(self) -> bool:
        """The weights load, but not even one conversation of this length fits."""
        return self.weights_fit and self.users == 0

    @property
    def message(self) -> str:
        if not self.weights_fit:
            return (
                f"The weights ({self.weights_bytes / 1e9:,.1f} GB) do not fit in the usable "
                f"{self.usable_bytes / 1e9:,.1f} GB: the model does not even load."
            )
        if self.users == 0:
            return (
                f"Loads but cannot serve: {self.kv_budget_bytes / 1e9:,.2f} GB is left after the weights, "
                f"less than one {self.context:,}-token conversation needs "
                f"({self.kv_per_user_bytes / 1e9:,.2f} GB)."
            )
        return f"{self.users:,} conversations of {self.context:,} tokens fit at once."


def users_that_fit(
    model: Model,
    gpu: str | GPU,
    context: int = 8000,
    *,
    num_gpus: int = 1,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    utilization: float = 0.9,
    working_bytes: int = 0,
    params: int | None = None,
    memory: str = "marketed",
) -> Fit:
    """How many conversations of `context` tokens fit at once (floor, never negative)."""
    context = check_int("context", context, minimum=1)
    b = memory_budget(
        model,
        gpu,
        num_gpus=num_gpus,
        weight_dtype=weight_dtype,
        utilization=utilization,
        working_bytes=working_bytes,
        params=params,
        memory=memory,
    )
    per_gpu_user = model.kv_bytes(context, kv_dtype, tp=b.num_gpus)
    if per_gpu_user <= 0:
        raise InputError(f"context={context} holds no KV bytes for {model.name}; users would be unbounded")
    budget = b.per_gpu_kv_budget
    users = max(0, budget.numerator // (budget.denominator * per_gpu_user))  # floor(budget / per user)
    kv_user = per_gpu_user * b.num_gpus
    return Fit(
        users=users,
        context=context,
        num_gpus=b.num_gpus,
        gpu=b.gpu.name,
        memory_bytes=b.memory_bytes,
        usable_bytes=b.usable_bytes,
        reserve_bytes=b.reserve_bytes,
        weights_bytes=b.weights_bytes,
        working_bytes=b.working_bytes,
        kv_budget_bytes=b.kv_budget_bytes,
        kv_per_user_bytes=kv_user,
        kv_used_bytes=users * kv_user,
        left_over_bytes=max(0, b.kv_budget_bytes - users * kv_user),
        warnings=tuple(
            w
            for w in (model.context_warning(context), *model.engine_notes, params_warning(model, params))
            if w
        ),
    )


def params_warning(model: Model, params: int | None) -> str | None:
    """A sentence when the weights come from a parameter count the loader estimated."""
    if params is not None or not model.params_estimated:
        return None
    return (
        f"{model.name}'s weights are sized from an estimated parameter count ({model.params:,}, "
        "counted from its config, not read from a checkpoint); pass params= if you have a published one"
    )


def max_context(
    model: Model,
    gpu: str | GPU,
    users: int = 1,
    *,
    num_gpus: int = 1,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    utilization: float = 0.9,
    working_bytes: int = 0,
    params: int | None = None,
    memory: str = "marketed",
    limit: int = 1 << 40,
) -> int | None:
    """The longest context at which `users` conversations still fit (the inverse).

    0 if not even a 1-token conversation fits; None if there is no limit below `limit`
    (every layer windowed or recurrent, so a sequence stops growing).
    """
    users = check_int("users", users, minimum=1)
    b = memory_budget(
        model,
        gpu,
        num_gpus=num_gpus,
        weight_dtype=weight_dtype,
        utilization=utilization,
        working_bytes=working_bytes,
        params=params,
        memory=memory,
    )

    def fits(t: int) -> bool:
        return users * model.kv_bytes(t, kv_dtype, tp=b.num_gpus) <= b.per_gpu_kv_budget

    if not fits(1):
        return 0
    if fits(limit):
        return None
    lo, hi = 1, limit  # fits(lo) and not fits(hi): kv_bytes never falls as t grows
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
