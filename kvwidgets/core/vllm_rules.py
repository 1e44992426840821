"""What differs between the vLLM versions kvwidgets reproduces, one row per version.

Read from the wheels themselves (`pip download vllm==0.11.0 --no-deps`, and 0.33.0);
every field names the file it comes from. Paths are inside the `vllm/` package.
Only versions whose source was read are offered: a rule guessed for another version
would give numbers that look exact and are not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InputError


@dataclass(frozen=True)
class VersionRules:
    version: str
    # "GPU KV cache size: N tokens":
    #   "blocks_per_group"  num_blocks // num_groups * min block size
    #                       (0.11.0 v1/core/kv_cache_utils.py, get_kv_cache_config_from_groups)
    #   "concurrency"       int(max_concurrency * max_model_len)
    #                       (0.33.0 v1/core/kv_cache_utils.py, get_kv_cache_capacity)
    tokens_rule: str
    # Group size of the hybrid allocator: the smallest layer count per kind; 0.33 takes the
    # largest instead when it is under 1.5 x the smallest
    # (0.33.0 v1/core/kv_cache_planning.py, _get_kv_cache_groups_uniform_page_size).
    group_size_up_to_1_5: bool
    # Layers whose pages differ in size: 0.11 has no rule for it (get_kv_cache_groups raises
    # NotImplementedError); 0.33 raises the block size of the smaller pages when the largest
    # is a multiple, else pads them (0.33.0 kv_cache_planning.py, unify_kv_cache_spec_page_size).
    unifies_page_sizes: bool
    # Sliding / chunked layers reserve room for the tokens in flight: 0.11 one batch of
    # max_num_batched_tokens (0.11.0 v1/kv_cache_interface.py, SlidingWindowSpec.max_memory_usage_bytes);
    # 0.33 every concurrent batch: 2 with async scheduling, which is on by default
    # (0.33.0 config/vllm.py, max_in_flight_tokens / max_concurrent_batches; async default at
    # "Enable async scheduling unless there is an incompatible option").
    async_scheduling_default: bool
    # Mamba state pages a request holds: 0.11 one (0.11.0 kv_cache_interface.py MambaSpec);
    # 0.33 one in mamba_cache_mode "none", two in "align", and "align" is chosen whenever
    # prefix caching is on, its default for hybrid models (0.33.0 config/cache.py
    # enable_prefix_caching=True; model_executor/models/config.py MambaModelConfig).
    mamba_cache_mode_default: str
    # The block size the attention layers of a mamba hybrid are raised to is a multiple of
    # this; 0.33 also keeps it >= the block size and, for MLA, >= 128
    # (0.11.0 model_executor/models/config.py HybridAttentionMambaModelConfig;
    #  0.33.0 platforms/interface.py _align_hybrid_block_size).
    mamba_block_alignment: int
    mla_mamba_block_alignment: int
    # One log line or two (0.33.0 kv_cache_utils.py update_kv_cache_capacity logs them together).
    one_line_log: bool
    # --gpu-memory-utilization default (0.11.0 config/cache.py 0.9; 0.33.0 config/cache.py 0.92).
    utilization_default: float
    # max_num_batched_tokens default of `vllm serve` (engine/arg_utils.py, default_max_num_batched_tokens):
    # (GiB threshold, tokens) tried in order; GPUs named A100 skip the 70 GiB tier.
    batched_tokens_tiers: tuple[tuple[int, int], ...]


RULES: dict[str, VersionRules] = {
    "0.11": VersionRules(
        version="0.11",
        tokens_rule="blocks_per_group",
        group_size_up_to_1_5=False,
        unifies_page_sizes=False,
        async_scheduling_default=False,
        mamba_cache_mode_default="none",
        mamba_block_alignment=16,
        mla_mamba_block_alignment=16,
        one_line_log=False,
        utilization_default=0.9,
        batched_tokens_tiers=((70, 8192),),  # 0.11.0 engine/arg_utils.py ~L1605
    ),
    "0.33": VersionRules(
        version="0.33",
        tokens_rule="concurrency",
        group_size_up_to_1_5=True,
        unifies_page_sizes=True,
        async_scheduling_default=True,
        mamba_cache_mode_default="align",
        mamba_block_alignment=16,
        mla_mamba_block_alignment=128,
        one_line_log=True,
        utilization_default=0.92,
        batched_tokens_tiers=((160, 16384), (70, 8192)),  # 0.33.0 engine/arg_utils.py ~L2973
    ),
}
SMALL_GPU_BATCHED_TOKENS = 2048  # `vllm serve` on a GPU under the tiers (both versions' arg_utils.py)


def version_rules(version: object) -> VersionRules:
    """'0.33', '0.33.0', '0.11.1' -> the rules read from that minor version's wheel."""
    m = re.fullmatch(r"v?(\d+)\.(\d+)(?:\.\d+)?(?:\S*)", str(version).strip())
    key = f"{m.group(1)}.{m.group(2)}" if m else None
    if key not in RULES:
        raise InputError(
            f"vllm_version={version!r}: kvwidgets reproduces vLLM {' and '.join(sorted(RULES))} "
            "(rules read from those wheels); give one of them"
        )
    return RULES[key]


def default_max_num_batched_tokens(
    rules: VersionRules, gpu_name: str | None, device_bytes: int | None
) -> int:
    """What `vllm serve` picks when --max-num-batched-tokens is not given (chunked prefill on)."""
    if device_bytes is None:
        return 8192
    gib = device_bytes / 2**30
    for threshold, tokens in rules.batched_tokens_tiers:
        if gib >= threshold and (threshold >= 160 or "a100" not in (gpu_name or "").lower()):
            return tokens
    return SMALL_GPU_BATCHED_TOKENS


# ---- 0.33's prefill checkpoints of mamba layers (mamba cache mode "align" only) -------------
# A layer that can export its state from inside a prefill keeps one more state page a request
# (MambaSpec.num_prefill_checkpoint_blocks = 1, counted by max_memory_usage_bytes in
# 0.33.0 v1/kv_cache_interface.py):
#   Mamba-2     always (model_executor/layers/mamba/mamba_mixer2.py, get_kv_cache_spec)
#   GDN         when FlashInfer runs its prefill, which also puts blocks on a 64-token grid
#               (model_executor/layers/mamba/gdn/qwen_gdn_linear_attn.py; the grid is
#               FLASHINFER_GDN_CHECKPOINT_ALIGNMENT in v1/attention/backends/gdn_attn.py,
#               applied by platforms/interface.py _align_hybrid_block_size). FlashInfer is
#               chosen on Hopper, and on Blackwell with 128-wide keys and CUDA >= 13
#               (_resolve_gdn_prefill_backend), assumed here for the B200.
#   Mamba-1     never (MambaMixer keeps the default spec)
MAMBA_KINDS = ("mamba1", "mamba2", "gdn")
GDN_CHECKPOINT_ALIGNMENT = 64
FLASHINFER_GDN_GPU_PREFIXES = ("H100", "H200", "H20", "H800", "GH200", "B200", "B300", "GB200", "GB300")


def mamba_checkpoint(
    rules: VersionRules, mode: str, kind: str | None, gpu_name: str | None
) -> tuple[int, int, str]:
    """(extra state pages a request holds, token grid for the block size, why) for 0.33's
    prefill checkpoints; (0, 1, "") where there are none."""
    if rules.version == "0.11" or mode != "align" or kind in (None, "mamba1"):
        return 0, 1, ""
    if kind not in MAMBA_KINDS:
        # e.g. KDA (Kimi-Linear) exports checkpoints only on its FlashKDA prefill
        # (0.33.0 model_executor/layers/mamba/kda_checkpoint.py), lightning attention never
        return (
            0,
            1,
            (
                f"State layers of kind {kind!r}: counted without a prefill-checkpoint page (kvwidgets has read "
                "that rule for Mamba-2 and Gated DeltaNet only)."
            ),
        )
    if kind == "mamba2":
        return (
            1,
            1,
            (
                "Mamba-2 layers export a prefill checkpoint: a request holds 2 + 1 state pages in "
                "'align' mode (mamba_mixer2.py)."
            ),
        )
    on_flashinfer = bool(gpu_name) and gpu_name.upper().startswith(FLASHINFER_GDN_GPU_PREFIXES)
    if not on_flashinfer:
        return (
            0,
            1,
            (
                "Gated DeltaNet prefill runs on Triton here (FlashInfer's runs on Hopper and Blackwell): "
                "no prefill checkpoint page."
            ),
        )
    return (
        1,
        GDN_CHECKPOINT_ALIGNMENT,
        (
            "FlashInfer's Gated DeltaNet prefill exports checkpoints: a request holds 2 + 1 state pages in 'align' "
            f"mode and blocks are a multiple of {GDN_CHECKPOINT_ALIGNMENT} tokens (qwen_gdn_linear_attn.py, gdn_attn.py)."
        ),
    )
