"""Reserving the longest possible conversation vs paging (PagedAttention).

A contiguous reservation is sized for the maximum length; pages (blocks, 16 tokens by
default in vLLM) are handed out as a conversation grows, so the only waste is the
part-empty last block.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .budget import users_that_fit
from .errors import InputError, check_int
from .gpus import GPU
from .model import Model


def blocks_for(tokens: int, block_size: int = 16) -> int:
    tokens = check_int("tokens", tokens)
    block_size = check_int("block_size", block_size, minimum=1)
    return math.ceil(tokens / block_size)


def own_blocks(tokens: int, *, finished: bool, block_size: int = 16) -> int:
    """Blocks a request holds as its own: one per `block_size` tokens while its turn runs,
    none once the turn has finished (a chat's next message is a new request).

    vLLM 0.11 vllm/v1/core/kv_cache_manager.py, KVCacheManager.free: a finished request's
    blocks lose its reference and, once no running request shares them, go back to the free
    block queue. With prefix caching they keep their contents there, so a later request may
    reuse them, but any request that needs a block may take one (least recently used
    first): they are evictable cache, no longer the finished request's own.
    """
    tokens = check_int("tokens", tokens)
    return 0 if finished else blocks_for(tokens, block_size)


@dataclass(frozen=True)
class PagedVsReserved:
    used_tokens: int
    reserved_tokens: int
    block_size: int
    users_reserved: int
    users_paged: int
    reserved_waste: float  # share of a reservation left empty
    paged_waste: float  # share of a paged conversation's blocks left empty
    mean_paged_waste_tokens: float  # half a block on average


def paged_vs_reserved(
    model: Model,
    gpu: str | GPU,
    used_tokens: int = 8000,
    reserved_tokens: int = 131072,
    *,
    block_size: int = 16,
    **fit_kwargs,
) -> PagedVsReserved:
    used_tokens = check_int("used_tokens", used_tokens, minimum=1)
    reserved_tokens = check_int("reserved_tokens", reserved_tokens, minimum=used_tokens)
    paged_tokens = blocks_for(used_tokens, block_size) * block_size
    reserved = users_that_fit(model, gpu, reserved_tokens, **fit_kwargs).users
    paged = users_that_fit(model, gpu, paged_tokens, **fit_kwargs).users
    return PagedVsReserved(
        used_tokens=used_tokens,
        reserved_tokens=reserved_tokens,
        block_size=block_size,
        users_reserved=reserved,
        users_paged=paged,
        reserved_waste=1 - used_tokens / reserved_tokens,
        paged_waste=(paged_tokens - used_tokens) / paged_tokens,
        mean_paged_waste_tokens=(block_size - 1) / 2,
    )


@dataclass(frozen=True)
class BlockPlan:
    """GPU memory counted in blocks of `block_size` tokens (vLLM's pages).

    One block holds block_size tokens' rows in every layer: block_bytes = block_size x
    the bytes a token adds while every window is filling, on every GPU (copies of KV
    heads included). That is how vLLM sizes a page for a model whose layers all keep
    every token (vllm/v1/core/kv_cache_utils.py: num_blocks = available memory //
    page size // layers); for layers with windows it counts blocks an engine could free
    once they slide out, so it is the upper bound of what paging needs there.
    """

    block_size: int
    block_bytes: int  # one block, every layer, all GPUs
    kv_budget_bytes: int  # memory left for the cache (core.budget.memory_budget)
    total_blocks: int  # blocks that budget holds
    used_tokens: int  # tokens one request holds now
    reserved_tokens: int  # the maximum length a request may reach
    reserved_blocks: int  # per request, reserving the maximum
    paged_blocks: int  # per request, paging: ceil(used / block_size)
    last_block_tokens: int  # tokens in a paged request's last block (1..block_size)
    reserved_waste: float  # share of a reservation's slots left empty
    paged_waste: float  # share of a paged request's slots left empty
    users_reserved: int  # requests that fit, reserving the maximum each
    users_paged: int  # requests that fit, paging
    users: int  # requests sharing the prefix
    prefix_tokens: int
    shared_blocks: int  # the prefix's full blocks, stored once for every user
    own_blocks: int  # each user's blocks after the shared ones
    blocks_unshared: int  # users x paged_blocks: every user keeps its own prefix
    blocks_shared: int  # shared_blocks + users x own_blocks
    users_sharing: int  # requests that fit when they share the prefix


def _fit(budget: int, blocks: int, block_bytes: int) -> int:
    return max(0, budget // (blocks * block_bytes)) if budget > 0 else 0


def block_plan(
    model: Model,
    gpu: str | GPU,
    used_tokens: int = 1000,
    reserved_tokens: int = 8192,
    *,
    users: int = 4,
    prefix_tokens: int = 500,
    block_size: int = 16,
    kv_dtype: str = "bf16",
    **budget_kwargs,
) -> BlockPlan:
    """Reserving the maximum vs paging, and `users` requests sharing a `prefix_tokens` prefix.

    Prefix caching shares whole blocks only (vLLM hashes full blocks: a prefix's last,
    part-filled block is each user's own), so the shared blocks are prefix // block_size.
    """
    from .budget import memory_budget

    used_tokens = check_int("used_tokens", used_tokens, minimum=1)
    reserved_tokens = check_int("reserved_tokens", reserved_tokens, minimum=used_tokens)
    block_size = check_int("block_size", block_size, minimum=1)
    users = check_int("users", users, minimum=1)
    prefix_tokens = check_int("prefix_tokens", prefix_tokens, minimum=0)
    if prefix_tokens >= used_tokens:
        raise InputError(
            f"prefix_tokens must be less than used_tokens ({used_tokens:,}): each conversation adds "
            f"tokens of its own after the shared prefix, got {prefix_tokens:,}"
        )
    budget = memory_budget(model, gpu, **budget_kwargs)
    n = budget.num_gpus
    block_bytes = model.kv_bytes_per_token_within_windows(kv_dtype, tp=n) * n * block_size
    if block_bytes <= 0:
        raise InputError(f"{model.name} stores nothing per token, so it has no blocks to page")
    reserved_blocks = blocks_for(reserved_tokens, block_size)
    paged = blocks_for(used_tokens, block_size)
    shared = prefix_tokens // block_size
    own = blocks_for(used_tokens - shared * block_size, block_size)
    kv_budget = budget.kv_budget_bytes
    free_for_users = kv_budget - shared * block_bytes
    return BlockPlan(
        block_size=block_size,
        block_bytes=block_bytes,
        kv_budget_bytes=kv_budget,
        total_blocks=max(0, kv_budget // block_bytes),
        used_tokens=used_tokens,
        reserved_tokens=reserved_tokens,
        reserved_blocks=reserved_blocks,
        paged_blocks=paged,
        last_block_tokens=used_tokens - (paged - 1) * block_size,
        reserved_waste=(reserved_blocks * block_size - used_tokens) / (reserved_blocks * block_size),
        paged_waste=(paged * block_size - used_tokens) / (paged * block_size),
        users_reserved=_fit(kv_budget, reserved_blocks, block_bytes),
        users_paged=_fit(kv_budget, paged, block_bytes),
        users=users,
        prefix_tokens=prefix_tokens,
        shared_blocks=shared,
        own_blocks=own,
        blocks_unshared=users * paged,
        blocks_shared=shared + users * own,
        users_sharing=_fit(free_for_users, own, block_bytes),
    )
