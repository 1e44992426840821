"""vLLM's KV cache groups as a table: one row per group, what a block and a request cost."""

from __future__ import annotations

import pandas as pd

from ..api import as_model, vllm_kv_report
from ..core.model import Model
from ..core.units import KiB


def vllm_groups_table(model: Model | str = "gpt-oss-120b", gpu=None, **report_args) -> pd.DataFrame:
    """One row per KV cache group of vllm_kv_report(model, gpu, **report_args): its layers,
    padding slots, block size, page, and the blocks one max-length request takes.

    The report itself (num_blocks, logged tokens, concurrency, explain()) is in
    `DataFrame.attrs["report"]`, so a notebook can show the table and the log lines together.
    """
    m = as_model(model)
    r = vllm_kv_report(m, gpu, **report_args)
    rows = [
        {
            "group": i,
            "kind": g.kind,
            "layers": g.layers,
            "padding layers": g.padding,
            "layer spec": g.what,
            "block (tokens)": g.block_size,
            "page (KiB)": g.page_bytes / KiB,
            "blocks per request": g.blocks_per_request,
            "share of a request's blocks": g.blocks_per_request / r.blocks_per_request,
        }
        for i, g in enumerate(r.groups)
    ]
    df = pd.DataFrame(rows)
    df.attrs["report"] = r
    return df
