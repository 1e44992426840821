"""vLLM's KV cache groups: which layers share a block table, the page, and blocks per request.

The steps follow vLLM's own order:
  1. a mamba hybrid raises the attention block size until an attention page holds the
     mamba state, then pads the state page to it (0.11.0 model_executor/models/config.py
     HybridAttentionMambaModelConfig; 0.33.0 platforms/interface.py _align_hybrid_block_size);
  2. with the hybrid allocator off, sliding and chunked layers are sized as full attention
     (unify_hybrid_kv_cache_specs: 0.11.0 v1/core/kv_cache_utils.py, 0.33.0 v1/core/kv_cache_planning.py);
  3. get_kv_cache_groups: one spec -> one group; one type (e.g. all full attention with
     different head sizes) -> one group whose page is the sum of the layers' pages;
     otherwise groups of `group_size` layers of one kind, padded to that size
     (_get_kv_cache_groups_uniform_page_size), all with one page size.
The bytes one block id costs across the pool are group_size x page (the layers of a group
each hold one page of the block), so num_blocks = memory // (group_size x page).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .errors import InputError
from .vllm_rules import VersionRules
from .vllm_specs import (
    CacheSpec,
    ChunkedLocalCache,
    MambaCache,
    RequestDemand,
    attention_page_per_token,
    cdiv,
    with_block_size,
)


@dataclass(frozen=True)
class KVCacheGroup:
    """One KV cache group: layers sharing a block table (KVCacheGroupSpec in vLLM)."""

    kind: str  # full, sliding, chunked, mla, indexer, mamba, cross (or "full+mla"...)
    layers: int  # real layers in the group
    padding: int  # empty slots that pad it to the group size (they still take memory)
    page_bytes: int  # bytes of one block of the group (per layer; summed for a one-type group)
    block_size: int  # tokens per block in this group
    blocks_per_request: int  # blocks one request at max_model_len holds in this group
    what: str  # the layers, in words
    rule: str  # how blocks_per_request was counted, in words with numbers


@dataclass(frozen=True)
class Plan:
    groups: tuple[KVCacheGroup, ...]
    bytes_per_block: int  # memory one block id takes across all groups' layers
    layout: str  # "one spec", "one type", "hybrid"
    hybrid_allocator: bool  # False when vLLM switched it off (or was told to)
    block_size: int  # attention block size after any mamba alignment
    page_size: int  # the common page (hybrid / one spec), or the summed page (one type)
    group_size: int  # layers per group (hybrid), else all layers
    padding_layers: int
    needed_bytes: int  # what vLLM's start-up check asks for one max-length request
    notes: tuple[str, ...]  # what vLLM logs or decides on the way, in words


def _align_mamba(
    specs, rules: VersionRules, block_size: int, max_model_len: int, mamba_mode: str, checkpoint_grid: int = 1
):
    """Step 1: attention block size raised so one attention page holds the mamba state; the
    state page padded to the attention page. Returns (specs, block_size, notes)."""
    notes: list[str] = []
    mamba = [s for s, _ in specs if isinstance(s, MambaCache)]
    attention = [s for s, _ in specs if not isinstance(s, MambaCache)]
    # a mamba spec's block_size: max_model_len in mode "none", the attention block size in
    # "align" (0.11.0 v1/worker/gpu_model_runner.py; 0.33.0 MambaModelConfig mamba_block_size)
    if not mamba or not attention:
        mamba_bs = max_model_len if mamba_mode == "none" else block_size
        return (
            [(replace(s, block_size=mamba_bs) if isinstance(s, MambaCache) else s, n) for s, n in specs],
            block_size,
            notes,
        )
    a1, is_mla = attention_page_per_token(specs)
    state = max(s.state for s in mamba)
    if is_mla and rules.version == "0.11":
        # 0.11.0 HybridAttentionMambaModelConfig sizes the attention page as a FullAttentionSpec
        # (K and V: 2 x the MLA latent a token), so the padded state page would be twice an MLA
        # page, and 0.11 has no rule for pages of two sizes; no 0.11.0 model pairs MLA with state layers
        raise InputError(
            "vLLM 0.11 cannot run MLA with mamba / linear-attention layers: it sizes the attention page as "
            "full attention (twice the MLA latent), and the pages would not match "
            "(model_executor/models/config.py HybridAttentionMambaModelConfig); use vllm_version='0.33'"
        )
    if rules.version == "0.11":
        k = rules.mamba_block_alignment
        needed = k * cdiv(state, k * a1)
    else:
        # kernel alignment: the backend's smallest kernel block (16 for FlashAttention /
        # FlashInfer) but never below --block-size; then a multiple of 16.
        # An MLA hybrid (Kimi-Linear: MLA + KDA) aligns to 128: "TRTLLM/FlashInfer MLA decode
        # kernels require the physical number of kernel blocks to be aligned to 128 /
        # kernel_block_size" (0.33.0 platforms/interface.py _align_hybrid_block_size), with the
        # MLA page a token as MLAAttentionSpec(block_size=1) sizes it: the latent, one "head".
        # FlashMLA's own smallest block (64) divides 128, so its rounding changes nothing.
        k = max(rules.mamba_block_alignment, block_size)
        if is_mla:
            k = max(k, rules.mla_mamba_block_alignment)
        if mamba_mode == "align":  # prefill checkpoints land on block boundaries
            k = k * checkpoint_grid // math.gcd(k, checkpoint_grid)
        needed = k * cdiv(state, k * a1)
        needed = rules.mamba_block_alignment * cdiv(needed, rules.mamba_block_alignment)
    if block_size < needed:
        notes.append(
            f"Setting attention block size to {needed} tokens to ensure that attention page size "
            f"is >= mamba page size ({needed} x {a1:,} B per token >= {state:,} B of state)."
        )
        block_size = needed
    page = block_size * a1
    specs = with_block_size(specs, block_size)
    mamba_bs = max_model_len if mamba_mode == "none" else block_size
    out = []
    for s, n in specs:
        if isinstance(s, MambaCache):
            s = replace(s, block_size=mamba_bs, padded=page if page > s.state else None)
        out.append((s, n))
    if page > state:
        notes.append(
            f"Padding mamba page size by {100 * (page - state) / state:.2f}% to ensure that mamba page "
            f"size and attention page size are exactly equal ({state:,} B -> {page:,} B)."
        )
    return out, block_size, notes


def _promote_local(specs):
    """Step 2 (hybrid allocator off): sliding and chunked layers become full attention for
    allocation when the model also has full attention; their compute still slides
    (unify_hybrid_kv_cache_specs: 0.11.0 v1/core/kv_cache_utils.py; 0.33.0
    v1/core/kv_cache_planning.py _promote_local_kv_cache_specs)."""
    families = {s.family for s, _ in specs}
    if "full" not in families or not ({"sliding", "chunked"} & families):
        return specs, False
    return [(s.sized_as_full(), n) for s, n in specs], True


def _merge_equal(specs):
    """vLLM buckets layers by spec equality; a sliding layer sized as full equals a full layer of
    the same shape (FullAttentionSpec.merge keeps the window only as a note), so the numbers
    decide, not the words saying where a spec came from."""
    merged: dict[CacheSpec, list[tuple[CacheSpec, int]]] = {}
    for s, n in specs:
        merged.setdefault(replace(s, what="", full_from=None), []).append((s, n))
    out = []
    for key, parts in merged.items():
        n = sum(c for _, c in parts)
        if len(parts) == 1:
            out.append((parts[0][0], n))
            continue
        plain = [s for s, _ in parts if not s.full_from]
        base = plain[0].what if plain else "full, " + parts[0][0].what.split(", ", 1)[-1]
        labels = " + ".join(
            f"{c} {s.full_from} sized as full" if s.full_from else f"{c} {s.kind}" for s, c in parts
        )
        out.append((replace(key, what=f"{base} ({labels})"), n))
    return out


def _one_type(specs, rules: VersionRules) -> bool:
    """UniformTypeKVCacheSpecs.is_uniform_type (v1/kv_cache_interface.py, both versions): one
    block size, one family, and for sliding / chunked one window; 0.33 also wants one mamba
    page size (MambaSpec.is_uniform_with_collection)."""
    kinds = [s for s, _ in specs]
    if len({s.block_size for s in kinds}) > 1:
        return False
    return kinds[0].one_type_with(kinds, rules.version)


def _unify_pages(specs, rules: VersionRules):
    """0.33 unify_kv_cache_spec_page_size: pages smaller than the largest get a block size
    raised by the ratio when it divides, else a padded page (not MLA); mamba pages are padded."""
    pages = {s.page for s, _ in specs}
    if len(pages) <= 1:
        return specs, []
    if not rules.unifies_page_sizes:
        raise InputError(
            f"vLLM {rules.version} cannot group these layers: their pages differ "
            f"({', '.join(f'{p:,} B' for p in sorted(pages))}) and get_kv_cache_groups has no rule for that "
            "(NotImplementedError in v1/core/kv_cache_utils.py)"
        )
    top = max(pages)
    out, notes = [], []
    for s, n in specs:
        if s.page == top:
            out.append((s, n))
        elif isinstance(s, MambaCache):
            out.append((replace(s, padded=top), n))
            notes.append(f"{s.label()}: state page padded to {top:,} B.")
        elif top % s.page == 0:
            r = top // s.page
            out.append((replace(s, block_size=s.block_size * r), n))
            notes.append(
                f"{s.label()}: block size raised x{r} to {s.block_size * r} tokens so its page "
                f"matches the largest ({top:,} B)."
            )
        elif s.paddable:
            out.append((replace(s, padded=top), n))
            notes.append(f"{s.label()}: page padded from {s.page:,} B to {top:,} B.")
        else:
            raise InputError(
                f"vLLM {rules.version} cannot unify the page sizes: the {s.label()} page ({s.page:,} B) does not "
                f"divide the largest ({top:,} B) and MLA pages cannot be padded "
                "(unify_kv_cache_spec_page_size, v1/core/kv_cache_planning.py)"
            )
    return out, notes


def plan_kv_cache(
    specs: list[tuple[CacheSpec, int]],
    rules: VersionRules,
    *,
    max_model_len: int,
    block_size: int,
    hybrid: bool | None,
    max_num_batched_tokens: int,
    async_scheduling: bool,
    mamba_cache_mode: str,
    checkpoint_grid: int = 1,
    dcp: int = 1,
    speculative_blocks: int = 0,
) -> Plan:
    """The layers' specs grouped as the vLLM version groups them: mamba pages aligned, the
    hybrid allocator's switch applied, equal specs merged, then one spec, one type or hybrid
    groups; needed_bytes is the version's start-up check for one max-length request."""
    _refuse_dcp_011(specs, rules, dcp)
    demand = _request_demand(
        rules,
        max_model_len,
        max_num_batched_tokens,
        async_scheduling,
        mamba_cache_mode,
        dcp,
        speculative_blocks,
    )
    notes: list[str] = []
    specs, block_size, mamba_notes = _align_mamba(
        specs, rules, block_size, max_model_len, mamba_cache_mode, checkpoint_grid
    )
    notes += mamba_notes
    # 0.11 checks one request fits against each worker's own specs before grouping (and before
    # the hybrid allocator's switch-off resizes sliding layers): get_kv_cache_configs
    layer_specs = specs
    specs, hybrid = _hybrid_switch(specs, hybrid, notes)
    specs = _merge_equal(specs)
    if len(specs) == 1:
        plan = _one_spec_plan(specs[0], demand, hybrid, block_size, notes)
    elif _one_type(specs, rules):
        plan = _one_type_plan(specs, demand, hybrid, block_size, notes)
    elif not hybrid:
        raise InputError(
            f"vLLM {rules.version} cannot run this model with the hybrid KV cache manager off: its layers "
            f"({', '.join(s.label() for s, _ in specs)}) cannot be made one kind (unify_hybrid_kv_cache_specs)"
        )
    else:
        plan = _hybrid_plan(specs, rules, demand, block_size, notes)
    if rules.version == "0.11":
        return replace(plan, needed_bytes=_needed_011(layer_specs, demand))
    return plan


def _refuse_dcp_011(specs: list[tuple[CacheSpec, int]], rules: VersionRules, dcp: int) -> None:
    """InputError for the layer kinds vLLM 0.11 does not run under decode context parallelism."""
    if dcp > 1 and rules.version == "0.11":
        # 0.11.0 v1/core/single_type_kv_cache_manager.py: "DCP not support chunked local attn now",
        # "DCP not support mamba now" (asserts in ChunkedLocalAttentionManager / MambaManager)
        for s, _ in specs:
            if isinstance(s, (ChunkedLocalCache, MambaCache)):
                raise InputError(
                    f"decode_context_parallel_size={dcp}: vLLM 0.11 does not run {s.kind} layers under decode "
                    "context parallelism (single_type_kv_cache_manager.py)"
                )


def _request_demand(
    rules: VersionRules,
    max_model_len: int,
    batched: int,
    async_scheduling: bool,
    mamba_cache_mode: str,
    dcp: int,
    speculative_blocks: int,
) -> RequestDemand:
    """What one max-length request asks of each spec; async scheduling (0.33) keeps a second
    batch in flight."""
    in_flight = batched * (2 if async_scheduling and rules.version != "0.11" else 1)
    in_flight_words = f"2 x {batched:,} in flight" if in_flight != batched else f"{batched:,} batched"
    return RequestDemand(
        max_model_len=max_model_len,
        in_flight=in_flight,
        in_flight_words=in_flight_words,
        batched=batched,
        mamba_mode=mamba_cache_mode,
        dcp=dcp,
        speculative_blocks=speculative_blocks,
    )


def _needed_011(layer_specs: list[tuple[CacheSpec, int]], demand: RequestDemand) -> int:
    """check_enough_kv_cache_memory (0.11.0): every layer's own max usage, no padding layers."""
    return sum(n * s.blocks_per_request(demand)[0] * s.page for s, n in layer_specs)


def _hybrid_switch(
    specs: list[tuple[CacheSpec, int]], hybrid: bool | None, notes: list[str]
) -> tuple[list[tuple[CacheSpec, int]], bool]:
    """Whether the hybrid allocator runs, and the specs it leaves (local layers promoted to full
    attention when it is off); what it decides is added to notes."""
    # Chunked local attention turns it off by default in both versions (0.11.0
    # config/__init__.py VllmConfig.__post_init__; 0.33.0 config/vllm.py, "latency regression
    # when using chunked local attention with the hybrid KV cache manager").
    if hybrid is None:
        hybrid = not any(isinstance(s, ChunkedLocalCache) for s, _ in specs)
        if not hybrid:
            notes.append(
                "Hybrid KV cache manager switched off: the model uses chunked local attention "
                "(vLLM's default unless VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1)."
            )
    if not hybrid:
        specs, promoted = _promote_local(specs)
        if promoted:
            notes.append(
                "Hybrid KV cache manager is disabled: sliding-window and chunked layers keep every "
                "token in the cache, as full attention does (their compute still skips the rest)."
            )
    return specs, hybrid


def _one_spec_plan(
    spec: tuple[CacheSpec, int],
    demand: RequestDemand,
    hybrid: bool,
    block_size: int,
    notes: list[str],
) -> Plan:
    """Every layer the same spec: one group, a block spans all layers. needed_bytes as 0.33
    checks it (plan_kv_cache puts 0.11's own check in its place)."""
    s, n = spec
    b, rule = s.blocks_per_request(demand)
    group = KVCacheGroup(s.kind, n, 0, s.page, s.block_size, b, s.label(), rule)
    bpb = n * s.page
    return Plan((group,), bpb, "one spec", hybrid, block_size, s.page, n, 0, bpb * b, tuple(notes))


def _one_type_plan(
    specs: list[tuple[CacheSpec, int]],
    demand: RequestDemand,
    hybrid: bool,
    block_size: int,
    notes: list[str],
) -> Plan:
    """One kind of layer with different page sizes: one group whose block spans all of them."""
    total_layers = sum(n for _, n in specs)
    page = sum(n * s.page for s, n in specs)
    per = [(s.blocks_per_request(demand), s) for s, _ in specs]
    (b, rule), _ = max(per, key=lambda x: x[0][0])
    kinds = "+".join(dict.fromkeys(s.kind for s, _ in specs))
    what = "; ".join(f"{n} x {s.label()}" for s, n in specs)
    group = KVCacheGroup(kinds, total_layers, 0, page, specs[0][0].block_size, b, what, rule)
    notes.append(
        f"One group of every layer: the layers are one kind with different page sizes, so a "
        f"block spans all of them ({page:,} B)."
    )
    return Plan((group,), page, "one type", hybrid, block_size, page, total_layers, 0, page * b, tuple(notes))


def _hybrid_plan(
    specs: list[tuple[CacheSpec, int]],
    rules: VersionRules,
    demand: RequestDemand,
    block_size: int,
    notes: list[str],
) -> Plan:
    """Several kinds: pages unified, then each kind's layers cut into groups of one size, the
    short ones padded; a block id spans one layer of every group."""
    specs, unify_notes = _unify_pages(specs, rules)
    notes += unify_notes
    page = specs[0][0].page
    counts = [n for _, n in specs]
    group_size = min(counts)
    if rules.group_size_up_to_1_5 and max(counts) < min(counts) * 1.5:
        group_size = max(counts)
    groups: list[KVCacheGroup] = []
    padding_total = 0
    for s, n in specs:
        parts = cdiv(n, group_size)
        pad = group_size - n % group_size
        if pad != group_size:
            notes.append(
                f"Add {pad} padding layers, may waste at most {pad / n * 100:.2f}% KV cache memory "
                f"({s.label()}: {n} layers in {parts} groups of {group_size})."
            )
        b, rule = s.blocks_per_request(demand)
        for i in range(parts):
            layers = len(range(i, n, parts))
            padding_total += group_size - layers
            groups.append(
                KVCacheGroup(s.kind, layers, group_size - layers, s.page, s.block_size, b, s.label(), rule)
            )
    bpb = group_size * page
    needed = bpb * sum(g.blocks_per_request for g in groups)
    return Plan(
        tuple(groups), bpb, "hybrid", True, block_size, page, group_size, padding_total, needed, tuple(notes)
    )
