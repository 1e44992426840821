"""Blocks that parallel samples and beams share (the PagedAttention paper's section 6.3).

vLLM keeps one physical copy of a block for every sequence that reaches it through the
same history, with a reference count, and copies a shared block only when a sequence
writes into it (copy-on-write: vllm/core/block_manager.py, BlockSpaceManager.append_slot
in vLLM 0.2.0 copies a last block whose ref_count > 1). The paper's Figure 15 measures
    saving = blocks saved by sharing / blocks without sharing
summed over the run. Without sharing every sequence holds ceil(length / block_size).

Parallel sampling (n samples of one prompt): the prompt's full blocks are shared by all
n; its last, part-filled block is copied for n - 1 of them at their first token; every
later block is each sample's own. The samples run to the request's output length (the
paper's benchmark ignores end-of-sequence tokens), so this is exact arithmetic.

Beam search (width k): the beams share every block written before their histories split.
Which beams split when depends on the model's token probabilities, which a trace does
not have. The genealogy here is the neutral one: at each step every new beam continues a
parent chosen uniformly at random among the k current beams (seeded). That is a model,
stated wherever the number is shown, not a measurement.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import InputError, check_int
from .request_lengths import check_requests, get_length_fit, sample_requests

MODES = ("parallel", "beam")


@dataclass(frozen=True)
class SharingSaving:
    mode: str  # "parallel" or "beam"
    width: int  # samples or beams per request
    block_size: int
    requests: int
    block_steps_unshared: int  # blocks held, summed over every step of every request
    block_steps_shared: int
    note: str  # what the number assumes

    @property
    def saving(self) -> float:
        """The paper's Figure 15 measure: blocks saved by sharing / blocks without sharing."""
        return 1 - self.block_steps_shared / self.block_steps_unshared


def _ceil_sum(x: int, b: int) -> int:
    """sum of ceil(L / b) for L = 1..x."""
    q, r = divmod(x, b)
    return b * q * (q + 1) // 2 + r * (q + 1)


def _parallel(p: int, o: int, n: int, b: int) -> tuple[int, int]:
    per_seq = _ceil_sum(p + o, b) - _ceil_sum(p, b)  # one sample, over its O steps
    full_prompt = p // b
    return n * per_seq, o * full_prompt + n * (per_seq - o * full_prompt)


def _beam(p: int, o: int, k: int, b: int, rng: random.Random) -> tuple[int, int]:
    """Physical blocks as a tree: a node per block, its parent the block before it.

    refs[node] = blocks after it + beams whose last block it is; a node at 0 is freed.
    """
    parent: list[int] = []
    refs: list[int] = []
    for j in range(-(-p // b)):  # the prompt's blocks, one chain
        parent.append(j - 1)
        refs.append(1)
    live = len(parent)
    lasts = [live - 1]  # the prompt is the one sequence before the first step
    unshared = shared = 0
    length = p

    def release(node: int) -> int:
        freed = 0
        while node >= 0:
            refs[node] -= 1
            if refs[node]:
                break
            freed += 1
            node = parent[node]
        return freed

    choices = rng.choices
    for _ in range(o):
        width = len(lasts)
        picks = choices(range(width), k=k)
        children = [0] * width
        for q in picks:
            children[q] += 1
        new_lasts = []
        if length % b == 0:  # every last block is full: each new beam starts a block
            for q in picks:
                parent.append(lasts[q])
                refs.append(1)
                refs[lasts[q]] += 1
                new_lasts.append(len(parent) - 1)
            live += k
            for q in range(width):
                live -= release(lasts[q])  # the old beam no longer ends there
        else:  # a part-filled last block: one child writes in place, the others copy it
            kept = [False] * width
            for q in picks:
                if not kept[q]:
                    kept[q] = True
                    new_lasts.append(lasts[q])
                else:
                    before = parent[lasts[q]]
                    parent.append(before)
                    refs.append(1)
                    if before >= 0:
                        refs[before] += 1
                    new_lasts.append(len(parent) - 1)
                    live += 1
            for q in range(width):
                if not children[q]:
                    live -= release(lasts[q])
        lasts = new_lasts
        length += 1
        unshared += k * (-(-length // b))
        shared += live
    return unshared, shared


def sharing_saving(
    requests: str | Iterable[Sequence[int]] = "alpaca",
    mode: str = "parallel",
    width: int = 2,
    *,
    num_requests: int = 300,
    seed: int = 0,
    block_size: int = 16,
    max_len: int | None = None,
) -> SharingSaving:
    """What sharing saves when each request runs `width` samples or beams.

    requests: a dataset name ("alpaca", "sharegpt") or (prompt, output) token pairs.
    The saving does not depend on the scheduler: summed over the run, every request
    contributes its own steps whenever it runs.
    """
    if mode not in MODES:
        raise InputError(f"mode must be 'parallel' or 'beam', got {mode!r}")
    width = check_int("width", width, minimum=1)
    block_size = check_int("block_size", block_size, minimum=1)
    if isinstance(requests, str):
        fit = get_length_fit(requests)
        reqs = sample_requests(fit.name, num_requests, seed=seed, max_len=max_len)
    else:
        reqs = check_requests(requests, 2048 if max_len is None else check_int("max_len", max_len, minimum=2))
    rng = random.Random(seed)
    unshared = shared = 0
    for p, o in reqs:
        if mode == "parallel":
            u, s = _parallel(p, o, width, block_size)
        else:
            u, s = _beam(p, o, width, block_size, rng)
        unshared += u
        shared += s
    if mode == "parallel":
        note = "Samples run to the request's output length; the prompt's full blocks are shared, its last block copied on write."
    else:
        note = (
            "Beam histories from a neutral model (each new beam continues a uniformly random current beam), "
            "not from a language model's probabilities; blocks shared until histories split, copied on write."
        )
    return SharingSaving(mode, width, block_size, len(reqs), unshared, shared, note)
