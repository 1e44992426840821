"""One decode step, in bytes: what the cache holds after it, what it reads and what it writes.

Prefill (step 0) computes the keys and values of the whole prompt at once and stores them.
Each decode step after it computes one new token's query, key and value in every layer:
the key and value rows are appended (one per layer and KV head; one latent row per MLA
layer; a recurrent layer rewrites its fixed state instead), the query is used by this
step's attention and then dropped, and attention reads every row the layer still holds.
A sliding (or chunked) layer holds at most its window, so past it each new row replaces
the oldest one; a full layer keeps every token.

Everything is read off the layer specs through Model, like the rest of kvwidgets.core.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dtypes import dtype_bits
from .errors import check_int
from .model import Model


@dataclass(frozen=True)
class GroupStep:
    """One layer group (`count` identical layers) at this step."""

    kind: str
    count: int
    cap: int | None  # tokens a layer holds at most (None = all; 0 = none, a recurrent state)
    held_tokens: int  # rows each layer holds now (0 for a layer that stores none)
    dropped_tokens: int  # rows each layer has let go (older than its window)
    bytes: int  # what the whole group holds, whole bytes


@dataclass(frozen=True)
class StepBytes:
    prompt_tokens: int
    generated: int  # decode steps taken after the prefill
    tokens: int  # prompt + generated
    phase: str  # "prefill" (step 0) or "decode"
    stored_bytes: int  # the cache after this step (one sequence, one GPU)
    read_bytes: int  # what this step's attention reads: every row held (0 for the prefill)
    written_bytes: int  # what this step writes: the prompt's rows, or one row per layer + any state
    groups: tuple[GroupStep, ...]


def decode_step_bytes(
    model: Model, prompt_tokens: int, generated: int = 0, kv_dtype: str = "bf16"
) -> StepBytes:
    """The cache of one sequence after the prefill of `prompt_tokens` and `generated` decode steps."""
    prompt_tokens = check_int("prompt_tokens", prompt_tokens, minimum=1)
    generated = check_int("generated", generated, minimum=0)
    bits = dtype_bits(kv_dtype, "kv_dtype")
    tokens = prompt_tokens + generated
    stored = model.kv_bytes(tokens, kv_dtype)
    groups = []
    for g in model.groups:
        s = g.spec
        stores_rows = s.numbers_per_token(1) > 0
        held = s.tokens_held(tokens) if stores_rows else 0  # a layer with no rows holds none
        groups.append(
            GroupStep(
                kind=s.kind,
                count=g.count,
                cap=s.token_cap,
                held_tokens=held,
                dropped_tokens=tokens - held if stores_rows else 0,
                bytes=-(-g.count * s.bits_held(tokens, bits) // 8) + g.count * s.fixed_bytes(1),
            )
        )
    if generated == 0:
        # the prefill writes the prompt's rows (and any state) and reads no earlier cache
        read, written = 0, stored
    else:
        # one new row in every layer (the window's oldest is overwritten once it is full),
        # plus every recurrent state rewritten in place
        state = sum(g.count * g.spec.fixed_bytes(1) for g in model.groups)
        read, written = stored, model.kv_bytes_per_token_within_windows(kv_dtype) + state
    return StepBytes(
        prompt_tokens=prompt_tokens,
        generated=generated,
        tokens=tokens,
        phase="prefill" if generated == 0 else "decode",
        stored_bytes=stored,
        read_bytes=read,
        written_bytes=written,
        groups=tuple(groups),
    )
