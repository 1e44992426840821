"""PagedBlocks: GPU memory cut into blocks of 16 tokens (PagedAttention).

Two pictures of the same arithmetic (core.paging.block_plan, js/calc/paging.js blockPlan): one
request reserved at its maximum length against the same request paged block by block
(its last block part-empty), with the requests that fit in the cache either way; and
N users whose requests start with the same P-token prefix, its full blocks stored once
and each user's own blocks after them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from ..core.errors import InputError
from ..core.paging import block_plan
from . import traits
from .base import KVWidget

BLOCK_SIZES = (8, 16, 32)  # vLLM's --block-size choices on CUDA; 16 is its default


class PagedBlocks(KVWidget):
    """Reserving the maximum vs paging; a prefix shared by several users, in blocks."""

    _render_file = "paged_blocks.js"
    _inputs = (
        "model",
        "gpu",
        "weight_dtype",
        "kv_dtype",
        "context",
        "used_tokens",
        "users",
        "prefix_tokens",
        "block_size",
    )
    _axes = {"block_sizes": BLOCK_SIZES}

    model = traits.model()
    gpu = traits.gpu()
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    context = traits.context(8192)  # the maximum length a request may reach: what a reservation holds
    used_tokens = traitlets.Int(1000, help="tokens a request holds now").tag(sync=True)
    users = traitlets.Int(4, help="users whose requests share the prefix").tag(sync=True)
    prefix_tokens = traitlets.Int(500, help="tokens of the shared prefix (system prompt, documents)").tag(
        sync=True
    )
    block_size = traitlets.Int(16, help="tokens per block").tag(sync=True)

    def compute(self) -> dict[str, Any]:
        if self.block_size not in BLOCK_SIZES:
            raise InputError(
                f"block_size must be one of {', '.join(map(str, BLOCK_SIZES))}, got {self.block_size!r}"
            )
        conflicts = input_conflicts(self.used_tokens, self.prefix_tokens, self.context)
        if conflicts:
            raise InputError(" ".join(conflicts))
        m = self.get_model(self.model)
        plan = block_plan(
            m,
            self.gpu,
            self.used_tokens,
            self.context,
            users=self.users,
            prefix_tokens=self.prefix_tokens,
            block_size=self.block_size,
            kv_dtype=self.kv_dtype,
            weight_dtype=self.weight_dtype,
        )
        result = dataclasses.asdict(plan)
        result.update(
            model=m.name,
            gpu=self.gpu,
            kv_dtype=self.kv_dtype,
            has_windows=any(g.spec.token_cap is not None for g in m.groups),
        )
        return result


def input_conflicts(used: object, prefix: object, max_len: object) -> list[str]:
    """Sentences for inputs that cannot hold together, word for word what the browser's
    failure panel says (js/widgets/paged_blocks.js), so that the kernel's error and the
    panel are one message, shown once. Values that are not whole numbers are left to
    block_plan, which names the field."""

    def whole(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    out = []
    if whole(used) and whole(prefix) and prefix >= used:
        out.append(
            f"The shared prefix (prefix_tokens, {prefix:,}) must be shorter than the tokens used "
            f"(used_tokens, {used:,}): each conversation adds tokens of its own after it."
        )
    if whole(used) and whole(max_len) and used > max_len:
        out.append(
            f"The tokens used (used_tokens, {used:,}) must fit in the maximum length a reservation "
            f"holds (context, {max_len:,})."
        )
    return out
