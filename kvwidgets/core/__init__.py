"""kvwidgets.core: the arithmetic of the KV cache, standard library only.

Everything a widget, table or notebook shows is computed here from a Model (layer
specs with counts) and a GPU row; nothing re-derives heads or windows elsewhere.
"""

from .allocator_trace import POLICIES, AllocatorTrace, PolicyRun, allocator_trace, kv_slots_for
from .budget import Budget, Fit, max_context, memory_budget, users_that_fit, utilization_fraction
from .decode import Decode, decode_ceiling, prefill_seconds
from .dtypes import DTYPE_BITS, dtype_bytes, dtype_name
from .errors import ConfigError, InputError, KVWidgetsError, ModelSourceError, UnknownNameError
from .fewest_gpus import Attempt, FewestGPUs, fewest_gpus
from .gpus import GPU, GPUS, get_gpu
from .layers import (
    ChunkedLocalSpec,
    CompressedMLASpec,
    CrossAttentionSpec,
    FullAttentionSpec,
    LayerGroup,
    LayerSpec,
    MLASpec,
    RecurrentStateSpec,
    SlidingWindowSpec,
    kv_heads_per_gpu,
)
from .model import Model, uniform_model
from .offload import (
    STORAGE,
    OffloadRow,
    StorageTier,
    context_grid,
    offload_vs_recompute,
    recompute_crossover,
    reload_seconds,
    tier_gbps,
)
from .paging import BlockPlan, PagedVsReserved, block_plan, blocks_for, own_blocks, paged_vs_reserved
from .placement import Deployment, Placement, RankMemory, VLLMPool, placement, vllm_pp_split
from .request_lengths import LengthFit, get_length_fit, length_fits, sample_requests
from .sampling_sharing import SharingSaving, sharing_saving
from .sglang import SGLangReport, parse_sglang_log, sglang_kv_report
from .sharing import PrefixSharing, prefix_sharing
from .step import GroupStep, StepBytes, decode_step_bytes
from .transfer import LINKS, CacheTransfer, Link, cache_transfer, get_link
from .units import GB, GiB, KiB, MiB, fmt_bytes, fmt_tokens
from .vllm import VLLMReport, mtp_draft, parse_vllm_log, vllm_kv_report, vllm_report_from_tokens
from .vllm_settings import VLLMSettings
from .vllm_start import StartCheck, StartFix, vllm_start_check

__all__ = [name for name in dir() if not name.startswith("_")]
