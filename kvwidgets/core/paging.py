"""Reserving the longest possible conversation vs paging (PagedAttention).

A contiguous reservation is sized for the maximum length; pages (blocks, 16 tokens by
default in vLLM) are handed out as a conversation grows, so the only waste is the
part-empty last block.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .budget import users_that_fit
from .errors import check_int
from .gpus import GPU
from .model import Model


def blocks_for(tokens: int, block_size: int = 16) -> int:
    tokens = check_int("tokens", tokens)
    block_size = check_int("block_size", block_size, minimum=1)
    return math.ceil(tokens / block_size)


@dataclass(frozen=True)
class PagedVsReserved:
    used_tokens: int
    reserved_tokens: int
    block_size: int
    users_reserved: int
    users_paged: int
    reserved_waste: float      # share of a reservation left empty
    paged_waste: float         # share of a paged conversation's blocks left empty
    mean_paged_waste_tokens: float  # half a block on average


def paged_vs_reserved(
    model: Model,
    gpu: "str | GPU",
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
