"""SGLang's KV accounting for a model, as SGLang 0.5.23 sizes its pool, and a log parser.

SGLang measures the free GPU memory twice: before the weights load (the baseline B) and
after them (A), and gives the cache what is left once it keeps B x (1 - mem_fraction_static)
free for activations and CUDA graphs (mem_cache/kv_cache_configurator.py
KVCacheConfigurator._profile_available_bytes):
    rest = A - B x (1 - mem_fraction_static)           in GiB, as floats
    max_total_num_tokens = int(rest x 2**30) // cell_size, floored to page_size
(model_executor/pool_configurator.py DefaultPoolConfigurator.calculate_pool_sizes). cell_size
is the bytes one token takes in every layer of the pool (sglang_layout). It then logs
    KV Cache is allocated. dtype: torch.bfloat16, #tokens: N, K size: X GB, V size: Y GB
with X and Y the buffers' bytes / 2**30 to 2 decimals (memory_pool.py
KVCache._finalize_allocation_log; MLA logs one "KV size"), and later
    max_total_num_tokens=N, chunked_prefill_size=..., max_running_requests=M, context_len=L, ...
Unlike vLLM there are no blocks per group and no concurrency figure: the pool is one count
of token slots, and max_running_requests is a cap derived from it.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from .dtypes import dtype_name
from .errors import InputError, check_int
from .gpus import GPU
from .model import Model
from .sglang_layout import Layout, Pool, model_layout
from .sglang_rules import (
    SGLANG_VERSION,
    TORCH_KV_DTYPES,
    GiB,
    default_mem_fraction_static,
    gpu_defaults,
    gpu_memory_mib,
    kv_dtype_bytes,
    max_running_requests,
)


@dataclass(frozen=True)
class PoolSize:
    """One allocated pool: its tokens and the K and V bytes SGLang logs for it."""

    label: str
    tokens: int
    k_bytes: int
    v_bytes: int  # 0 for MLA, whose one buffer is in k_bytes

    def log_line(self, kv_dtype: str) -> str:
        name = f"{self.label} KV Cache" if self.label else "KV Cache"
        head = f"{name} is allocated. dtype: {TORCH_KV_DTYPES[kv_dtype]}, #tokens: {self.tokens}, "
        if self.v_bytes == 0:
            return head + f"KV size: {self.k_bytes / GiB:.2f} GB"
        return head + f"K size: {self.k_bytes / GiB:.2f} GB, V size: {self.v_bytes / GiB:.2f} GB"


@dataclass(frozen=True)
class SGLangReport:
    max_total_num_tokens: int  # what the scheduler logs (the Full pool's tokens in a hybrid)
    pools: tuple[PoolSize, ...]
    cell_size: float  # bytes per token of max_total_num_tokens (a hybrid adds ratio x the SWA pool)
    rest_memory_bytes: int  # memory given to the pool, per GPU
    page_size: int
    max_running_requests: int
    context_len: int
    chunked_prefill_size: int
    mem_fraction_static: float | None
    layout: str
    kv_dtype: str = "bf16"
    num_gpus: int = 1
    model_name: str = ""
    sglang_version: str = SGLANG_VERSION
    memory_source: str = ""
    swa_full_tokens_ratio: float | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def k_size_gb(self) -> float:
        """K bytes of the first pool / 2**30 (SGLang's "GB"), before the log rounds it."""
        return self.pools[0].k_bytes / GiB

    @property
    def v_size_gb(self) -> float:
        return self.pools[0].v_bytes / GiB

    @property
    def kv_cache_bytes(self) -> int:
        return sum(p.k_bytes + p.v_bytes for p in self.pools)

    def log_lines(self) -> str:
        """The lines SGLang would log for the pool, and the numbers of its summary line."""
        lines = []
        if self.layout == "hybrid_swa":
            full, swa = self.pools
            lines.append(
                f"Use sliding window memory pool. full_layer_tokens={full.tokens}, swa_layer_tokens={swa.tokens}"
            )
        lines += [p.log_line(self.kv_dtype) for p in self.pools]
        lines.append(
            f"max_total_num_tokens={self.max_total_num_tokens}, chunked_prefill_size={self.chunked_prefill_size}, "
            f"max_running_requests={self.max_running_requests}, context_len={self.context_len}"
        )
        return "\n".join(lines)

    def explain(self) -> str:
        out = [
            f"SGLang {self.sglang_version} accounting for {self.model_name or 'the model'}: {self.kv_dtype} cache, "
            f"page_size {self.page_size}"
            + (f", tensor parallel {self.num_gpus} (figures per GPU)" if self.num_gpus > 1 else "")
            + ".",
            f"Memory for the pool: {self.rest_memory_bytes:,} B = {self.rest_memory_bytes / GiB:.2f} GiB "
            f"({self.memory_source}).",
            *self.notes,
            f"max_total_num_tokens = {self.rest_memory_bytes:,} // {self.cell_size:,g} B a token, floored to "
            f"page_size {self.page_size} = {self.max_total_num_tokens:,}.",
            f"max_running_requests = {self.max_running_requests:,} (int(tokens / context_len {self.context_len:,} x "
            "512) kept within 2,048..4,096, at most half the tokens).",
        ]
        return "\n".join(out)

    def as_dict(self) -> dict:
        return asdict(self)


def _pool_size(pool: Pool, tokens: int, page_size: int, nbytes: int) -> PoolSize:
    # Each layer's buffer has tokens + page_size rows (memory_pool.py
    # MHATokenToKVPool._kv_buffer_shapes, MLATokenToKVPool._create_buffers).
    rows = tokens + page_size
    return PoolSize(
        pool.label,
        tokens,
        pool.layers * rows * pool.k_numbers * nbytes,
        pool.layers * rows * pool.v_numbers * nbytes,
    )


def _floor(x: int, page: int) -> int:
    return x // page * page


def _pool_tokens(
    layout: Layout, rest: int, *, nbytes: int, page: int, ratio: float, max_total_tokens: int | None
) -> tuple[int, tuple[int, ...], float]:
    """(max_total_num_tokens, tokens of each pool, cell size) for `rest` bytes."""
    if layout.kind != "hybrid_swa":
        cell = layout.pools[0].numbers_per_token * nbytes
        # pool_configurator.py DefaultPoolConfigurator.calculate_pool_sizes
        tokens = _floor(rest // cell, page)
        if max_total_tokens is not None:  # kv_cache_configurator.py _apply_token_constraints
            tokens = _floor(min(tokens, max_total_tokens), page)
        return tokens, (tokens,), cell
    full, swa = layout.pools
    # HybridSWAPoolConfigurator._recompute_cell_size: full bytes + ratio x SWA bytes a token
    cell = full.numbers_per_token * nbytes + ratio * (swa.numbers_per_token * nbytes)
    tokens = int(rest // cell)
    if max_total_tokens is not None:
        tokens = min(tokens, max_total_tokens)
    # HybridSWAPoolConfigurator._solve_pool_sizes
    full_tokens = _floor(tokens, page)
    swa_tokens = _floor(int(full_tokens * ratio), page)
    if swa.window + page >= swa_tokens:  # MemoryPoolConfigurator.validate_swa_pool_size
        raise InputError(
            f"swa_full_tokens_ratio: the SWA pool ({swa_tokens} tokens) cannot hold one request: SGLang needs "
            f"more than sliding_window_size ({swa.window}) + page_size ({page}); raise the ratio or the memory"
        )
    return full_tokens, (full_tokens, swa_tokens), cell


@dataclass(frozen=True)
class _Budget:
    rest: int
    source: str
    fraction: float | None
    notes: tuple[str, ...]


def _budget(
    model: Model,
    *,
    tp: int,
    mem_fraction_static: float | None,
    mib: int | None,
    mib_source: str,
    mla: bool,
    chunked_prefill_size: int | None,
    free_memory_gb: float | None,
    weights_gb: float | None,
    available_after_weights_gb: float | None,
    weight_dtype: str,
    params: int | None,
) -> _Budget:
    notes = []
    fraction = mem_fraction_static
    if fraction is None:
        if mib is None:
            raise InputError("mem_fraction_static: give it, or a GPU whose memory sets SGLang's default")
        mf = default_mem_fraction_static(mib, tp_size=tp, chunked_prefill_size=chunked_prefill_size, mla=mla)
        fraction = mf.value
        notes.append(mf.words + f"; GPU memory from {mib_source}.")
    elif not (isinstance(fraction, (int, float)) and 0 < fraction <= 1):
        raise InputError(f"mem_fraction_static must be a number in (0, 1], got {fraction!r}")
    if free_memory_gb is None:
        if mib is None:
            raise InputError("free_memory_gb: give the free memory before the weights load, or a GPU")
        free_memory_gb = mib / 1024
        notes.append(
            f"Free memory before the weights taken as the whole GPU ({free_memory_gb:.2f} GiB); a real run has "
            "the CUDA context and NCCL already resident (its 'Load weight begin. avail mem' line), about 1 GiB less."
        )
    if available_after_weights_gb is None:
        if weights_gb is None:
            weights_gb = model.weight_bytes(weight_dtype, params) / tp / GiB
            notes.append(f"Weights {weights_gb:.2f} GiB per GPU: parameters x {weight_dtype} / {tp} GPU(s).")
        available_after_weights_gb = free_memory_gb - weights_gb
    # kv_cache_configurator.py _profile_available_bytes: the slack is the baseline's share
    rest_gb = available_after_weights_gb - free_memory_gb * (1 - fraction)
    if rest_gb <= 0:
        minimum = 1 - available_after_weights_gb / free_memory_gb
        raise InputError(
            f"mem_fraction_static={fraction}: the weights leave no GPU memory for the KV cache; SGLang refuses to "
            f"start and asks for more than {minimum:.4f} (1 - available after weights / free before)"
        )
    source = (
        f"{available_after_weights_gb:.2f} GiB free after the weights - {free_memory_gb:.2f} GiB x "
        f"(1 - {fraction}) = {rest_gb:.4f} GiB"
    )
    return _Budget(int(rest_gb * GiB), source, fraction, tuple(notes))


def sglang_kv_report(
    model: Model,
    gpu: str | GPU | None = None,
    *,
    num_gpus: int = 1,
    kv_dtype: str = "bf16",
    mem_fraction_static: float | None = None,
    page_size: int = 1,
    context_length: int | None = None,
    chunked_prefill_size: int | None = None,
    max_running_requests: int | None = None,
    max_total_tokens: int | None = None,
    swa_full_tokens_ratio: float = 0.8,
    hybrid_swa: bool | None = None,
    free_memory_gb: float | None = None,
    weights_gb: float | None = None,
    available_after_weights_gb: float | None = None,
    kv_cache_memory_bytes: int | None = None,
    gpu_memory_mib: int | None = None,
    weight_dtype: str = "bf16",
    params: int | None = None,
) -> SGLangReport:
    """What SGLang 0.5.23 would allocate and log on one of `num_gpus` tensor-parallel GPUs.

    The pool's memory is kv_cache_memory_bytes when given; otherwise SGLang's rule on
    free_memory_gb (free GiB before the weights: a log's "Load weight begin. avail mem"),
    available_after_weights_gb (its "Load weight end. avail mem") or weights_gb (its "mem
    usage"; by default parameters x weight_dtype / num_gpus) and mem_fraction_static (by
    default SGLang's heuristic from the GPU's memory, gpu_memory_mib or the GPU table).
    page_size is 1 unless given (SGLang picks it from the attention backend: 1 for
    FlashInfer, FA3 and Triton; 64 for FlashMLA). hybrid_swa says whether SGLang runs the
    model's sliding layers in a separate SWA pool (known for gpt-oss and MiMo-V2).
    `.log_lines()` gives the predicted lines, `.explain()` the working.
    """
    tp = check_int("num_gpus", num_gpus, minimum=1)
    kv = dtype_name(kv_dtype, "kv_dtype")
    nbytes = kv_dtype_bytes(kv)
    page = check_int("page_size", page_size, minimum=1)
    if not 0 < swa_full_tokens_ratio <= 1:
        raise InputError(f"swa_full_tokens_ratio must be in (0, 1], got {swa_full_tokens_ratio!r}")
    if max_total_tokens is not None:
        check_int("max_total_tokens", max_total_tokens, minimum=1)
    layout = model_layout(model, tp=tp, hybrid_swa=hybrid_swa)
    mib, mib_source = _gpu_mib(
        gpu, gpu_memory_mib, needed=mem_fraction_static is None and kv_cache_memory_bytes is None
    )
    if kv_cache_memory_bytes is not None:
        b = _Budget(
            check_int("kv_cache_memory_bytes", kv_cache_memory_bytes, minimum=1),
            "kv_cache_memory_bytes, per GPU",
            mem_fraction_static,
            (),
        )
    else:
        b = _budget(
            model,
            tp=tp,
            mem_fraction_static=mem_fraction_static,
            mib=mib,
            mib_source=mib_source,
            mla=layout.kind == "mla",
            chunked_prefill_size=chunked_prefill_size,
            free_memory_gb=free_memory_gb,
            weights_gb=weights_gb,
            available_after_weights_gb=available_after_weights_gb,
            weight_dtype=weight_dtype,
            params=params,
        )
    tokens, per_pool, cell = _pool_tokens(
        layout,
        b.rest,
        nbytes=nbytes,
        page=page,
        ratio=swa_full_tokens_ratio,
        max_total_tokens=max_total_tokens,
    )
    if tokens <= 0:  # pool_configurator.py MemoryPoolConfig.__post_init__
        raise InputError(
            f"mem_fraction_static: not enough memory for one page of {page} token(s) of {cell:,g} B; SGLang says "
            "'Not enough memory. Please try to increase --mem-fraction-static.'"
        )
    context = _context_length(model, context_length)
    chunk = _chunked_prefill(chunked_prefill_size, mib, tp)
    pools = tuple(_pool_size(p, t, page, nbytes) for p, t in zip(layout.pools, per_pool))
    return SGLangReport(
        max_total_num_tokens=tokens,
        pools=pools,
        cell_size=cell,
        rest_memory_bytes=b.rest,
        page_size=page,
        max_running_requests=max_running_requests_for(tokens, context, max_running_requests),
        context_len=context,
        chunked_prefill_size=chunk,
        mem_fraction_static=b.fraction,
        layout=layout.kind,
        kv_dtype=kv,
        num_gpus=tp,
        model_name=model.name,
        memory_source=b.source,
        swa_full_tokens_ratio=swa_full_tokens_ratio if layout.kind == "hybrid_swa" else None,
        notes=(layout.words + ".", *b.notes, *layout.notes),
    )


def _gpu_mib(gpu: str | GPU | None, gpu_memory_mib: int | None, *, needed: bool) -> tuple[int | None, str]:
    """The GPU's memory in MiB as nvidia-smi reports it, and where that comes from; (None, "")
    when no GPU is named, or when it is unknown but not needed (the pool size is given)."""
    if gpu is None and gpu_memory_mib is None:
        return None, ""
    try:
        return gpu_memory_mib_for(gpu, gpu_memory_mib)
    except InputError:
        if needed:
            raise
        return None, ""


def _context_length(model: Model, context_length: int | None) -> int:
    context = context_length if context_length is not None else model.max_context
    if context is None:
        raise InputError("context_length: the model does not say its context; give context_length")
    return check_int("context_length", context, minimum=1)


def _chunked_prefill(chunked_prefill_size: int | None, mib: int | None, tp: int) -> int:
    """The chunk given, else SGLang's default for the GPU's memory."""
    if chunked_prefill_size is not None:
        return chunked_prefill_size
    # memory_hook.py handle_gpu_memory_settings: by GPU memory, 4096 when it is unknown
    return gpu_defaults(mib, tp).chunked_prefill_size if mib is not None else 4096


# the rule functions under names that do not clash with sglang_kv_report's keywords
gpu_memory_mib_for = gpu_memory_mib
max_running_requests_for = max_running_requests


_GB = r"([\d.]+)\s*GB"
_KV_LINE = re.compile(
    r"(?:(Full|SWA) )?KV Cache is allocated\.(?: dtype: ([\w.]+),)?(?: #tokens: (\d+),)? "
    r"(?:K size: " + _GB + r", V size: " + _GB + r"|KV size: " + _GB + ")"
)
_WEIGHT_END = re.compile(r"Load weight end\..*?avail mem=" + _GB + r"(?:, mem usage=" + _GB + ")?")
_WEIGHT_BEGIN = re.compile(r"Load weight begin\. avail mem=" + _GB)
_SUMMARY_FIELDS = (
    "max_total_num_tokens",
    "chunked_prefill_size",
    "max_prefill_tokens",
    "max_running_requests",
    "context_len",
)
_SWA_POOL = re.compile(r"full_layer_tokens=(\d+), swa_layer_tokens=(\d+)")
_ARG = {
    "mem_fraction_static": re.compile(r"mem_fraction_static=([\d.]+)"),
    "tp_size": re.compile(r"\btp_size=(\d+)"),
    "page_size": re.compile(r"\bpage_size=(\d+)"),
    "model_path": re.compile(r"model_path='([^']*)'"),
    "kv_cache_dtype": re.compile(r"kv_cache_dtype='([^']*)'"),
}


def parse_sglang_log(text: str) -> dict:
    """Pull the KV numbers out of SGLang start-up output (lines every rank repeats are read once).

    Returns kv_pools: a list of {label, dtype, tokens, k_size_gb, v_size_gb} or {..., kv_size_gb}
    (GB here is 2**30 bytes, to 2 decimals) from the "KV Cache is allocated" lines, one per
    distinct pool (a speculative draft's pool is logged the same way and is listed too), and where
    present: free_before_weights_gb ("Load weight begin. avail mem"), available_after_weights_gb
    and weights_gb ("Load weight end. ... avail mem=..., mem usage=..."), full_layer_tokens /
    swa_layer_tokens, the fields of the "max_total_num_tokens=..." line (available_gpu_mem_gb
    among them), and mem_fraction_static, tp_size, page_size, model_path, kv_cache_dtype from
    the server_args line.
    """
    text = text or ""
    pools = []
    for m in _KV_LINE.finditer(text):
        label, dtype, tokens, k, v, kv = m.groups()
        pool = {"label": label or "", "dtype": dtype or "", "tokens": int(tokens) if tokens else None}
        if kv is not None:
            pool["kv_size_gb"] = float(kv)
        else:
            pool["k_size_gb"], pool["v_size_gb"] = float(k), float(v)
        if pool not in pools:  # every TP rank logs the same pools, in any interleaving
            pools.append(pool)
    if not pools:
        raise InputError("SGLang log: no line 'KV Cache is allocated. ... K size: X GB, V size: Y GB' found")
    out: dict = {"kv_pools": pools}
    if (w := _WEIGHT_BEGIN.search(text)) is not None:
        out["free_before_weights_gb"] = float(w.group(1))
    if (w := _WEIGHT_END.search(text)) is not None:
        out["available_after_weights_gb"] = float(w.group(1))
        if w.group(2) is not None:
            out["weights_gb"] = float(w.group(2))
    if (s := _SWA_POOL.search(text)) is not None:
        out["full_layer_tokens"], out["swa_layer_tokens"] = int(s.group(1)), int(s.group(2))
    summary = next((line for line in text.splitlines() if "max_total_num_tokens=" in line), "")
    for name in _SUMMARY_FIELDS:
        if (f := re.search(rf"\b{name}=(\d+)", summary)) is not None:
            out[name] = int(f.group(1))
    if (a := re.search(r"available_gpu_mem=" + _GB, summary)) is not None:
        out["available_gpu_mem_gb"] = float(a.group(1))
    for name, pattern in _ARG.items():
        if (f := pattern.search(text)) is not None:
            value = f.group(1)
            out[name] = (
                float(value)
                if name == "mem_fraction_static"
                else int(value)
                if name.endswith("size")
                else value
            )
    return out
