"""KV memory over a request trace, per allocator, and what sharing saves (PagedAttention paper).

Shares are percentages of the KV slots; the paper's own figures sit beside ours where the
setting is the paper's (kvwidgets.data.reported keeps them once, with their source).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..api import allocator_trace
from ..core.allocator_trace import AllocatorTrace
from ..core.sampling_sharing import sharing_saving
from ..data.reported import (
    PAPER_BATCH,
    PAPER_KV_SLOTS_OPT13B_A100_40GB,
    PAPER_KV_USE,
    PAPER_MAX_LEN,
    PAPER_SHARING_SAVING,
)

USE_COLUMNS = {
    "token_states": "token states (%)",
    "reserved": "reserved, not yet written (%)",
    "internal": "never written (%)",
    "rounding": "allocator rounding (%)",
    "free": "free (%)",
}


def _trace(trace: AllocatorTrace | None, kwargs) -> AllocatorTrace:
    if trace is not None:
        return trace
    return allocator_trace(**kwargs)


def _is_papers_setting(t: AllocatorTrace) -> bool:
    return (
        t.kv_slots == PAPER_KV_SLOTS_OPT13B_A100_40GB
        and t.max_len == PAPER_MAX_LEN
        and t.block_size == 16
        and t.dataset in PAPER_BATCH
    )


def allocator_table(trace: AllocatorTrace | None = None, **kwargs) -> pd.DataFrame:
    """One row per policy: mean share of the KV slots by use, and the batch it sustains.

    Give a trace from allocator_trace, or its arguments (requests=..., kv_slots=... or
    model=..., gpu=...). In the paper's setting (ShareGPT or Alpaca, 15,728 slots, 2,048
    tokens, blocks of 16) the paper's Figure 2 token share and Figure 13 batch are added.
    """
    t = _trace(trace, kwargs)
    paper = _is_papers_setting(t)
    rows = []
    for pol, run in t.runs.items():
        row = {"policy": run.label}
        row.update({col: run.mean_shares[k] * 100 for k, col in USE_COLUMNS.items()})
        row["batch (requests)"] = run.mean_running
        row["steps to finish"] = run.total_steps
        row["steps with a request waiting"] = run.saturated_steps
        row["preemptions"] = run.preemptions
        if paper:
            use = PAPER_KV_USE.get(pol, {}) if t.dataset == "sharegpt" else {}
            row["paper: token states (%)"] = use["token_states"] * 100 if "token_states" in use else None
            row["paper: batch (requests)"] = PAPER_BATCH[t.dataset][pol]
        rows.append(row)
    return pd.DataFrame(rows)


def allocator_series(trace: AllocatorTrace | None = None, **kwargs) -> pd.DataFrame:
    """Long format for a stacked chart: one row per (step, policy, use) with its share (%)."""
    t = _trace(trace, kwargs)
    rows = []
    for run in t.runs.values():
        for j, step in enumerate(t.steps):
            for k, col in USE_COLUMNS.items():
                rows.append(
                    {
                        "step": step,
                        "policy": run.label,
                        "use": col.removesuffix(" (%)"),
                        "share (%)": getattr(run, k)[j] * 100,
                        "running": run.running[j],
                    }
                )
    return pd.DataFrame(rows)


def sharing_table(
    datasets: Sequence[str] = ("alpaca", "sharegpt"),
    widths: Sequence[int] = (2, 4, 6),
    *,
    num_requests: int = 2000,
    seed: int = 0,
    block_size: int = 16,
) -> pd.DataFrame:
    """What parallel sampling and beam search save by sharing blocks (the paper's Figure 15).

    "paper (%)" is Figure 15's value where the paper prints one (Alpaca); "model" says what
    the number assumes (beam histories come from a neutral model, not a language model).
    """
    rows = []
    for ds in datasets:
        for mode in ("parallel", "beam"):
            for w in widths:
                s = sharing_saving(ds, mode, w, num_requests=num_requests, seed=seed, block_size=block_size)
                paper = PAPER_SHARING_SAVING.get((ds, mode), {}).get(w)
                rows.append(
                    {
                        "dataset": ds,
                        "mode": "parallel sampling" if mode == "parallel" else "beam search",
                        "samples or beams": w,
                        "saving (%)": s.saving * 100,
                        "paper (%)": None if paper is None else paper * 100,
                        "model": s.note,
                    }
                )
    return pd.DataFrame(rows)
