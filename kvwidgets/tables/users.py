"""Users that fit across GPUs, contexts and dtype choices, with the cases that cannot serve marked."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

import pandas as pd

from ..api import users_that_fit
from ..core.gpus import GPU, get_gpu
from ..core.model import Model
from ..core.units import GB
from ._common import PAST_MAX, as_list, models_of, past_max

GPUS_SHOWN: tuple[str, ...] = ("L4", "L40S", "A100-80GB", "H100-SXM", "H200", "B200", "MI300X")
CONTEXTS: tuple[int, ...] = (8192, 32_768, 131_072)

SERVES = "serves"
CANNOT_SERVE = "loads but cannot serve"
DOES_NOT_LOAD = "does not load"


def users_table(
    models: Iterable[Model | str] | Model | str = ("llama-3-8b", "llama-3-70b"),
    gpus: Iterable[str | GPU] | str = GPUS_SHOWN,
    contexts: Sequence[int] = CONTEXTS,
    *,
    weight_dtype: str | Sequence[str] = "bf16",
    kv_dtype: str | Sequence[str] = "bf16",
    num_gpus: int | Sequence[int] = 1,
    utilization: float = 0.9,
    working_bytes: int = 0,
    memory: str = "marketed",
) -> pd.DataFrame:
    """One row per (model, GPU, GPUs, weight dtype, KV dtype, context), long format.

    weight_dtype, kv_dtype and num_gpus take one choice or a list of them. "status" is
    "serves", "loads but cannot serve" (weights fit, not one conversation does) or
    "does not load" (the weights alone pass the usable memory). "past max context" is True
    where the context is longer than the model's maximum. Memory in GB = 10^9 bytes.
    """
    gpu_rows = [get_gpu(g) for g in as_list(gpus, (str, GPU))]
    rows = []
    for m, g, n, wd, kd, ctx in product(
        models_of(models),
        gpu_rows,
        as_list(num_gpus, int),
        as_list(weight_dtype),
        as_list(kv_dtype),
        contexts,
    ):
        fit = users_that_fit(
            m,
            g,
            ctx,
            num_gpus=n,
            weight_dtype=wd,
            kv_dtype=kd,
            utilization=utilization,
            working_bytes=working_bytes,
            memory=memory,
        )
        status = DOES_NOT_LOAD if not fit.weights_fit else CANNOT_SERVE if fit.users == 0 else SERVES
        rows.append(
            {
                "model": m.name,
                "GPU": g.name,
                "GPUs": n,
                "weight dtype": wd,
                "KV dtype": kd,
                "context (tokens)": ctx,
                "usable memory (GB)": fit.usable_bytes / GB,
                "weights (GB)": fit.weights_bytes / GB,
                "left for KV (GB)": fit.kv_budget_bytes / GB,
                "per conversation (GB)": fit.kv_per_user_bytes / GB,
                "users": fit.users,
                "status": status,
                PAST_MAX: past_max(m, ctx),
            }
        )
    return pd.DataFrame(rows)


def users_grid(table: pd.DataFrame) -> pd.DataFrame:
    """users_table pivoted for reading: one row per setup, one column per context.

    Cells are the user count, or the status where nothing can be served; a count for a
    context past the model's maximum reads "3 (past max context)".
    """
    cell = table["users"].astype(object).where(table["status"] == SERVES, table["status"])
    if PAST_MAX in table:
        cell = cell.where(~table[PAST_MAX], cell.astype(str) + f" ({PAST_MAX})")
    keys = ["model", "GPU", "GPUs", "weight dtype", "KV dtype"]
    grid = table.assign(cell=cell).pivot(index=keys, columns="context (tokens)", values="cell")
    grid.columns = [f"{c:,} tokens" for c in grid.columns]
    return grid
