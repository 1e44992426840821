"""vLLM's KV accounting for full-attention models, and a parser for its two start-up lines.

vLLM measures free memory at start-up, divides it into blocks of `block_size` tokens
across every layer, and logs
    GPU KV cache size: 396,272 tokens
    Maximum concurrency for 16,384 tokens per request: 24.19x
The concurrency is blocks / blocks one max-length request needs: how many requests
could use all of --max-model-len at once. It is not a cap on running requests.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .budget import memory_budget
from .errors import InputError, check_int
from .gpus import GPU
from .model import Model


@dataclass(frozen=True)
class VLLMReport:
    kv_cache_bytes: int        # per GPU
    num_blocks: int
    block_size: int
    gpu_kv_cache_tokens: int
    max_model_len: int
    max_concurrency: float

    def log_lines(self) -> str:
        return (f"GPU KV cache size: {self.gpu_kv_cache_tokens:,} tokens\n"
                f"Maximum concurrency for {self.max_model_len:,} tokens per request: {self.max_concurrency:.2f}x")


def _report(model: Model, tokens_budget_bytes: int, bpt: int, max_model_len: int, block_size: int) -> VLLMReport:
    block_bytes = bpt * block_size
    blocks = tokens_budget_bytes // block_bytes if tokens_budget_bytes > 0 else 0
    per_request = math.ceil(max_model_len / block_size)
    return VLLMReport(
        kv_cache_bytes=blocks * block_bytes,
        num_blocks=blocks,
        block_size=block_size,
        gpu_kv_cache_tokens=blocks * block_size,
        max_model_len=max_model_len,
        max_concurrency=blocks / per_request,
    )


def vllm_kv_report(
    model: Model,
    gpu: "str | GPU",
    *,
    max_model_len: int = 16384,
    utilization: float = 0.9,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    working_bytes: int = 0,
    block_size: int = 16,
    num_gpus: int = 1,
    params: int | None = None,
    memory: str = "marketed",
) -> VLLMReport:
    """What vLLM would log for a full-attention model: the pool left after weights and
    working memory, cut into blocks (per GPU under tensor parallelism)."""
    max_model_len = check_int("max_model_len", max_model_len, minimum=1)
    block_size = check_int("block_size", block_size, minimum=1)
    b = memory_budget(model, gpu, num_gpus=num_gpus, weight_dtype=weight_dtype, utilization=utilization,
                      working_bytes=working_bytes, params=params, memory=memory)
    bpt = model.kv_bytes_per_token(kv_dtype, tp=b.num_gpus)
    return _report(model, math.floor(b.per_gpu_kv_budget), bpt, max_model_len, block_size)


def vllm_report_from_tokens(model: Model, gpu_kv_cache_tokens: int, *, max_model_len: int,
                            kv_dtype: str = "bf16", block_size: int = 16, num_gpus: int = 1) -> VLLMReport:
    """Check a logged token count against the formula: bytes, blocks and concurrency."""
    tokens = check_int("gpu_kv_cache_tokens", gpu_kv_cache_tokens, minimum=1)
    block_size = check_int("block_size", block_size, minimum=1)
    bpt = model.kv_bytes_per_token(kv_dtype, tp=num_gpus)
    return _report(model, tokens * bpt, bpt, check_int("max_model_len", max_model_len, minimum=1), block_size)


_TOKENS = re.compile(r"GPU KV cache size:\s*([\d,]+)\s*tokens")
_CONC = re.compile(r"Maximum concurrency for\s*([\d,]+)\s*tokens per request:\s*([\d.]+)x")


def parse_vllm_log(text: str) -> dict:
    """Pull the KV numbers out of vLLM start-up output.

    Returns gpu_kv_cache_tokens, and where present max_model_len and max_concurrency.
    """
    m = _TOKENS.search(text or "")
    if not m:
        raise InputError("vLLM log: no line 'GPU KV cache size: N tokens' found in the text given")
    out: dict = {"gpu_kv_cache_tokens": int(m.group(1).replace(",", ""))}
    c = _CONC.search(text)
    if c:
        out["max_model_len"] = int(c.group(1).replace(",", ""))
        out["max_concurrency"] = float(c.group(2))
    return out
