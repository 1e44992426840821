"""Ideal speed ceilings: decode is bandwidth-bound, prefill is compute-bound.

Decode: each step reads every weight once (shared by the batch) plus each sequence's
own KV cache, so step time = (weights + batch x KV bytes) / bandwidth. Real engines
reach a fraction of this; the ratios between contexts and batches hold.
Prefill (and recomputing a dropped cache): 2 x params x tokens FLOPs at dense BF16,
counting for a mixture of experts only the parameters a token runs through.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import check_int, check_positive
from .gpus import GPU, get_gpu
from .model import Model


@dataclass(frozen=True)
class Decode:
    context: int
    batch: int
    num_gpus: int
    gpu: str
    bandwidth_gbps: float  # per GPU
    weight_bytes_per_step: float  # per GPU
    kv_bytes_per_step: int  # per GPU, the whole batch
    step_s: float
    tokens_per_s_per_user: float
    tokens_per_s_total: float
    kv_share: float  # of the bytes read each step
    crossover_batch: int | None  # smallest batch whose KV reads pass the weights

    @property
    def step_ms(self) -> float:
        return self.step_s * 1e3


def decode_ceiling(
    model: Model,
    gpu: str | GPU,
    context: int = 8192,
    batch: int = 1,
    *,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    num_gpus: int = 1,
    params: int | None = None,
    bandwidth_gbps: float | None = None,
) -> Decode:
    """Bandwidth ceiling of one decode step with `batch` sequences of `context` tokens.

    Under tensor parallelism each GPU reads its share of weights and KV in parallel
    (communication is left out: this is a ceiling).
    """
    g = get_gpu(gpu)
    context = check_int("context", context, minimum=1)
    batch = check_int("batch", batch, minimum=1)
    n = check_int("num_gpus", num_gpus, minimum=1)
    bw_gbps = g.bandwidth_gbps if bandwidth_gbps is None else check_positive("bandwidth_gbps", bandwidth_gbps)
    if model.num_experts:
        # A mixture of experts reads only the experts its batch routed to (expected value).
        weights = model.decode_weight_bytes(batch, weight_dtype, params) / n
    else:
        weights = model.weight_bytes(weight_dtype, params) / n
    kv_seq = model.kv_bytes(context, kv_dtype, tp=n)
    kv = batch * kv_seq
    step = (weights + kv) / (bw_gbps * 1e9)
    # Against all the weights: a batch large enough to rival them touches every expert.
    all_weights = model.weight_bytes(weight_dtype, params) / n
    crossover = math.floor(all_weights / kv_seq) + 1 if kv_seq > 0 else None
    return Decode(
        context=context,
        batch=batch,
        num_gpus=n,
        gpu=g.name,
        bandwidth_gbps=bw_gbps,
        weight_bytes_per_step=weights,
        kv_bytes_per_step=kv,
        step_s=step,
        tokens_per_s_per_user=1 / step,
        tokens_per_s_total=batch / step,
        kv_share=kv / (weights + kv),
        crossover_batch=crossover,
    )


def prefill_seconds(
    model: Model,
    gpu: str | GPU,
    tokens: int,
    *,
    num_gpus: int = 1,
    params: int | None = None,
) -> float:
    """Ideal floor for prefilling (or recomputing) `tokens` tokens: 2 x params x tokens / FLOPS.

    Attention's own FLOPs are left out, as in the series; they matter at long context.
    """
    g = get_gpu(gpu)
    tokens = check_int("tokens", tokens, minimum=1)
    n = check_int("num_gpus", num_gpus, minimum=1)
    p = model.active_params(params)  # an MoE token runs only its experts
    return 2 * p * tokens / (g.bf16_tflops * 1e12 * n)
