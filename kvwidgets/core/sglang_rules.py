"""SGLang's start-up defaults that size the KV pool, as SGLang 0.5.23 sets them.

Every rule names the file and function of the sglang 0.5.23 wheel (python/sglang/srt/...)
it restates. SGLang measures GPU memory in MiB for its defaults (nvidia-smi's
memory.total) and in GiB (2**30 bytes, printed as "GB") for the pool.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError, check_int
from .gpus import GPU, get_gpu

SGLANG_VERSION = "0.5.23"
GiB = 2**30
MiB = 2**20

# nvidia-smi --query-gpu=memory.total (MiB), what utils/common.py get_nvgpu_memory_capacity
# reads. Only values seen in public nvidia-smi output are kept:
#   H100 80GB HBM3 / H100 PCIe: "0MiB / 81559MiB" (nvidia-smi tables pasted in many public
#   READMEs and issues, e.g. the H100 80GB HBM3 and H100 PCIe rows);
#   L40S: "1MiB / 46068MiB" (sgl-project/sglang#13023).
NVIDIA_SMI_TOTAL_MIB = {"H100-SXM": 81559, "H100-PCIe": 81559, "L40S": 46068}

# sglang 0.5.23 torch dtypes the pool logs ("KV Cache is allocated. dtype: torch.bfloat16")
TORCH_KV_DTYPES = {"bf16": "torch.bfloat16", "fp16": "torch.float16", "fp8": "torch.float8_e4m3fn"}
KV_DTYPE_BYTES = {"bf16": 2, "fp16": 2, "fp8": 1}


def kv_dtype_bytes(kv_dtype: str) -> int:
    """Bytes of one stored number (torch element size of --kv-cache-dtype)."""
    key = str(kv_dtype).strip().lower()
    if key not in KV_DTYPE_BYTES:
        raise InputError(
            f"kv_dtype {kv_dtype!r}: the SGLang accounting takes {', '.join(KV_DTYPE_BYTES)} "
            "(SGLang's fp4/mxfp8 caches add scale buffers that are not modelled)"
        )
    return KV_DTYPE_BYTES[key]


def gpu_memory_mib(gpu: str | GPU | None, given: int | None) -> tuple[int, str]:
    """The GPU's memory as SGLang's defaults read it (MiB) and where the figure came from."""
    if given is not None:
        return check_int("gpu_memory_mib", given, minimum=1), "gpu_memory_mib, given"
    if gpu is None:
        raise InputError("gpu_memory_mib: give a GPU or its memory in MiB (nvidia-smi memory.total)")
    g = get_gpu(gpu)
    if g.name in NVIDIA_SMI_TOTAL_MIB:
        return NVIDIA_SMI_TOTAL_MIB[
            g.name
        ], f"{g.name}: nvidia-smi memory.total {NVIDIA_SMI_TOTAL_MIB[g.name]} MiB"
    if g.device_bytes is not None:
        return g.device_bytes // MiB, f"{g.name}: device-reported memory"
    raise InputError(
        f"gpu_memory_mib: no nvidia-smi memory.total is recorded for {g.name}; pass gpu_memory_mib "
        f"(known: {', '.join(sorted(NVIDIA_SMI_TOTAL_MIB))})"
    )


@dataclass(frozen=True)
class GPUDefaults:
    """What `handle_gpu_memory_settings` picks from the GPU's memory (arg_groups/memory_hook.py)."""

    chunked_prefill_size: int
    decode_max_bs: int


def gpu_defaults(gpu_mem_mib: int, tp_size: int) -> GPUDefaults:
    """chunked_prefill_size and the decode CUDA-graph max batch by GPU memory and TP size
    (0.5.23 arg_groups/memory_hook.py handle_gpu_memory_settings, "GPU-dependent capacity
    defaults")."""
    if gpu_mem_mib < 20 * 1024:  # T4, 4080
        return GPUDefaults(2048, 8)
    if gpu_mem_mib < 35 * 1024:  # A10, 4090, 5090
        return GPUDefaults(4096, 48 if tp_size < 4 else 160)
    if gpu_mem_mib < 60 * 1024:  # A100 40GB, L40
        return GPUDefaults(4096, 32 if tp_size < 4 else 160)
    if gpu_mem_mib < 160 * 1024:  # H100, A100 80GB, H20, H200
        return GPUDefaults(8192, 256 if tp_size < 4 else 512)
    return GPUDefaults(16384, 512)  # B200, MI300


def prefill_graph_sizes(max_bs: int) -> list[int]:
    """Token counts the prefill CUDA graph captures (0.5.23 arg_groups/cuda_graph_hook.py
    generate_prefill_cuda_graph_batch_sizes)."""
    sizes = (
        list(range(4, 33, 4))
        + list(range(48, 257, 16))
        + list(range(288, 513, 32))
        + list(range(576, 1025, 64))
        + list(range(1280, 4097, 256))
        + list(range(4608, max_bs + 1, 512))
    )
    return [s for s in sizes if s <= max_bs]


@dataclass(frozen=True)
class MemFraction:
    value: float
    reserved_mib: float
    chunked_prefill_size: int
    decode_max_bs: int
    words: str


def default_mem_fraction_static(
    gpu_mem_mib: int,
    *,
    tp_size: int = 1,
    pp_size: int = 1,
    chunked_prefill_size: int | None = None,
    mla: bool = False,
) -> MemFraction:
    """SGLang's default --mem-fraction-static: (GPU memory - reserved) / GPU memory, rounded
    to 3 decimals (0.5.23 arg_groups/memory_hook.py handle_gpu_memory_settings, "Static
    memory and runtime headroom"), on its common path: CUDA, CUDA graphs on for decode and
    (the CUDA default, model_executor/cuda_graph_config.py default_prefill_backend) prefill,
    no post-capture sizing (SGLANG_ENABLE_POST_CAPTURE_KV_SIZING is off by default), no
    data-parallel attention, no DeepEP, no disaggregation, not a vision model.

    reserved (MiB) = 512 + max(chunked_prefill_size, 2048) x 1.5 + tp x pp / 8 x 1024
                     + decode max_bs x 2 + (prefill graph sizes x 8, or 1536 with MLA)
    raised to at least 10,240 on a GPU of more than 60 GiB (reserve_for_graph_mb)."""
    tp = check_int("tp_size", tp_size, minimum=1)
    pp = check_int("pp_size", pp_size, minimum=1)
    d = gpu_defaults(gpu_mem_mib, tp)
    chunk = (
        d.chunked_prefill_size
        if chunked_prefill_size is None
        else check_int("chunked_prefill_size", chunked_prefill_size, minimum=1)
    )
    activation = max(chunk, 2048)
    decode_graph = d.decode_max_bs * 2
    # prefill graph max_bs is the chunk, capped at 8192 for MLA; MLA reserves 1.5 GiB flat
    prefill_graph = 1.5 * 1024 if mla else len(prefill_graph_sizes(chunk)) * 8
    reserved = 512 + activation * 1.5 + tp * pp / 8 * 1024 + decode_graph + prefill_graph
    floor = gpu_mem_mib > 60 * 1024
    if floor:
        reserved = max(reserved, 10 * 1024)
    value = round((gpu_mem_mib - reserved) / gpu_mem_mib, 3)
    words = (
        f"default mem_fraction_static = round(({gpu_mem_mib:,} - {reserved:,.0f}) / {gpu_mem_mib:,}, 3) = "
        f"{value} (reserved MiB: 512 + {activation:,} x 1.5 activations + {tp * pp}/8 x 1024 parallel slack "
        f"+ decode graphs {d.decode_max_bs} x 2 + prefill graphs {prefill_graph:,.0f}"
        + (", at least 10,240 on a GPU over 60 GiB" if floor else "")
        + ")"
    )
    return MemFraction(value, reserved, chunk, d.decode_max_bs, words)


def max_running_requests(tokens: int, context_len: int, given: int | None = None) -> int:
    """Requests SGLang runs at once (0.5.23 mem_cache/kv_cache_configurator.py
    resolve_max_num_reqs): int(tokens / context_len x 512) kept within 2,048..4,096, or the
    value given, and never more than half the pool's tokens."""
    if given is not None:
        return min(check_int("max_running_requests", given, minimum=1), tokens // 2)
    estimated = max(min(int(tokens / context_len * 512), 4096), 2048)
    return min(estimated, tokens // 2)
