"""DeploymentRanks: every GPU of a deployment as a bar (weights, cache, free), the rank that
fills first marked, switching between tensor, pipeline and data-parallel attention layouts.

The per-rank numbers are kvwidgets.core.placement's; the browser does not re-derive them.
Porting the placement rules (pipeline splits, where the embedding and LM head sit, expert
spreading, vLLM's per-stage pools) to js/calc is a larger piece than this widget, so the
kernel precomputes every offered layout at every offered context (`layouts` trait) and the
layout buttons and the context slider redraw from that table with no kernel. The model,
GPU, formats, utilization and GPU count need the kernel: a change there recomputes the
table (on a page with no kernel, the figure says so instead of drawing stale numbers).
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..core.errors import InputError, check_int
from ..core.gpus import get_gpu
from ..core.placement import Deployment, Placement, placement
from . import traits
from .base import KVWidget

# The context slider's stops: a doubling each from 1K to 1M (plus the context set from Python).
CONTEXTS = tuple(2**k for k in range(10, 21))
GPU_COUNTS = (1, 2, 3, 4, 8)
# what decides the table of layouts: any change here recomputes it
TABLE_INPUTS = ("model", "gpu", "tp", "pp", "dp", "ep", "context", "kv_dtype", "weight_dtype", "utilization")

# Each rank's fields that do not change with the context (the weights side of the bar).
STATIC_RANK_FIELDS = (
    "rank",
    "dp_rank",
    "stage",
    "tp_rank",
    "first_layer",
    "layers",
    "holds_embedding",
    "holds_lm_head",
    "local_experts",
    "embedding_bytes",
    "lm_head_bytes",
    "layer_weight_bytes",
    "expert_bytes",
    "weights_bytes",
    "cache_budget_bytes",
    "kv_bytes_per_token",
)


def layout_key(tp: int, pp: int, dp: int, ep: bool) -> str:
    """The table's key for one arrangement: "tp8-pp1-dp1-ep0"."""
    return f"tp{tp}-pp{pp}-dp{dp}-ep{int(ep)}"


def offered_layouts(
    tp: int, pp: int, dp: int, ep: bool, *, num_layers: int, has_experts: bool
) -> list[Deployment]:
    """The arrangements of the same GPUs the layout buttons offer: all tensor parallel, all
    pipeline stages, all data-parallel attention (with expert parallelism for a model with
    routed experts, as engines serve DeepSeek-style models), and the one chosen if it is
    none of these (TP 4 x PP 2)."""
    n = tp * pp * dp
    out = [Deployment(tp=n)]
    if n > 1:
        if n <= num_layers:
            out.append(Deployment(pp=n))
        out.append(Deployment(dp=n, ep=has_experts))
    chosen = Deployment(tp, pp, dp, ep)
    if chosen not in out:
        out.append(chosen)
    return out


def _context_row(p: Placement) -> dict[str, Any]:
    """What one placement adds at one context: the counts and each rank's cache."""
    return {
        "conversations": p.conversations,
        "replica_conversations": list(p.replica_conversations),
        "full_ranks": list(p.full_ranks),
        "summed_conversations": p.summed_conversations,
        "vllm_conversations": p.vllm_conversations,
        "vllm": [
            {
                "num_blocks": pool.num_blocks,
                "stage_blocks": list(pool.stage_blocks),
                "limiting_stage": pool.limiting_stage,
                "blocks_per_request": pool.blocks_per_request,
                "block_size": pool.block_size,
                "starts": pool.starts,
                "conversations": pool.conversations,
            }
            for pool in p.vllm
        ],
        "rank_conversations": [r.conversations for r in p.ranks],
        "kv_bytes_per_conversation": [r.kv_bytes_per_conversation for r in p.ranks],
        "message": p.message,
    }


def layout_table(place: Any, deployments: list[Deployment], contexts: list[int]) -> dict[str, Any]:
    """Per arrangement: its ranks' weights and budgets, and per context its counts.

    place(deployment, context) -> Placement. An arrangement the core refuses (KV heads that
    do not split over TP 3) keeps its message in "error": choosing it says why."""
    table: dict[str, Any] = {}
    for d in deployments:
        key = layout_key(d.tp, d.pp, d.dp, d.ep)
        entry: dict[str, Any] = {"tp": d.tp, "pp": d.pp, "dp": d.dp, "ep": d.ep, "label": d.describe()}
        try:
            first = place(d, contexts[0])
        except InputError as exc:
            entry["error"] = str(exc)
            table[key] = entry
            continue
        entry["ranks"] = [{f: getattr(r, f) for f in STATIC_RANK_FIELDS} for r in first.ranks]
        entry["usable_bytes"] = first.ranks[0].usable_bytes
        entry["working_bytes"] = first.ranks[0].working_bytes
        entry["weights_fit"] = first.weights_fit
        entry["notes"] = list(first.notes)
        rows = {str(contexts[0]): _context_row(first)}
        for c in contexts[1:]:
            rows[str(c)] = _context_row(place(d, c))
        entry["by_context"] = rows
        table[key] = entry
    return table


class DeploymentRanks(KVWidget):
    """Each GPU of a deployment: its weights, its cache and what is left, and the rank that fills first.

    tp / pp / dp / ep are the arrangement (core.placement's Deployment): tensor-parallel
    size, pipeline stages, data-parallel attention replicas, expert parallelism. The layout
    buttons offer TP, PP and DP attention over the same tp x pp x dp GPUs and the context
    slider a doubling per stop; both redraw in the browser from `layouts`, the kernel's
    placement for every offered layout at every offered context (the placement rules are not
    ported to the browser). Changing the model, GPU, formats, utilization or GPU count
    recomputes that table in the kernel. `result` is core.placement's answer for the inputs
    (Placement.as_dict()).
    """

    _render_file = "deployment_ranks.js"
    _inputs = ("model", "gpu", "tp", "pp", "dp", "ep", "context", "kv_dtype", "weight_dtype", "utilization")
    _axes = {"contexts": CONTEXTS, "gpu_counts": GPU_COUNTS}

    model = traits.model("llama-3.1-70b")
    gpu = traits.gpu("H100-SXM")
    tp = traitlets.Int(1, help="tensor-parallel size: GPUs sharing each layer").tag(sync=True)
    # Llama 3.1 70B over three pipeline stages of H100s: the first stage, which also holds
    # the embedding, fills first
    pp = traitlets.Int(3, help="pipeline stages, each a run of layers").tag(sync=True)
    dp = traitlets.Int(1, help="data-parallel attention replicas, each its own requests and cache").tag(
        sync=True
    )
    ep = traitlets.Bool(False, help="expert parallel: routed experts spread whole over tp x dp GPUs").tag(
        sync=True
    )
    context = traits.context(32768)
    kv_dtype = traits.kv_dtype()
    weight_dtype = traits.weight_dtype()
    utilization = traits.utilization()
    # layout key -> that arrangement's ranks and, per context, its counts (layout_table)
    layouts = traitlets.Dict().tag(sync=True)
    # the inputs `layouts` was computed for, so the browser can tell a stale table
    layouts_for = traitlets.Dict().tag(sync=True)

    def __init__(self, scenario: Any = None, **kwargs: Any) -> None:
        self._table_key: tuple | None = None
        super().__init__(scenario, **kwargs)

    def _place(self, d: Deployment, context: int) -> Placement:
        return placement(
            self.get_model(self.model),
            self.gpu,
            context,
            deployment=d,
            kv_dtype=self.kv_dtype,
            weight_dtype=self.weight_dtype,
            utilization=self.utilization,
        )

    def _refresh_table(self) -> None:
        """Recompute the layouts table when what decides it changed (not on a layout switch
        among the offered ones, nor on a context already in it)."""
        m = self.get_model(self.model)
        get_gpu(self.gpu)  # an unknown GPU is named before any layout is tried
        for name in ("tp", "pp", "dp"):
            check_int(name, getattr(self, name), minimum=1)
        offered = offered_layouts(
            self.tp, self.pp, self.dp, self.ep, num_layers=m.num_layers, has_experts=bool(m.num_experts)
        )
        contexts = sorted({*CONTEXTS, check_int("context", self.context, minimum=1)})
        keys = sorted(layout_key(d.tp, d.pp, d.dp, d.ep) for d in offered)
        # the Model itself, not its name: a model replaced under the same name is placed again
        key = (
            m,
            self.gpu,
            self.kv_dtype,
            self.weight_dtype,
            self.utilization,
            tuple(keys),
            tuple(contexts),
        )
        if self._table_key is not None and key == self._table_key:
            return
        table = layout_table(self._place, offered, contexts)
        self._table_key = key
        with self.hold_sync():
            self.layouts = table
            self.layouts_for = {
                "model": self.model,
                "gpu": self.gpu,
                "kv_dtype": self.kv_dtype,
                "weight_dtype": self.weight_dtype,
                "utilization": self.utilization,
                "num_gpus": self.tp * self.pp * self.dp,
                "contexts": contexts,
                "order": [layout_key(d.tp, d.pp, d.dp, d.ep) for d in offered],
            }

    def compute(self) -> dict[str, Any]:
        self._refresh_table()
        p = self._place(Deployment(self.tp, self.pp, self.dp, self.ep), self.context)
        out = p.as_dict()
        out["gpu_memory_bytes"] = get_gpu(self.gpu).memory_bytes
        return out
