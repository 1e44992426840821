"""One small spec class per kind of attention layer (after vLLM's kv_cache_interface.py).

Each spec answers the same questions for one layer:
  numbers_per_token(tp)  numbers stored per token on one GPU under tensor parallelism tp
  token_cap              how many tokens the layer keeps at most (None = all of them)
  fixed_bytes            bytes held per sequence whatever its length (recurrent state)
and from those, bytes per token and bytes held for a sequence of T tokens.
Everything else in kvwidgets reads these; nothing re-derives heads or windows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .dtypes import dtype_bits, dtype_bytes
from .errors import InputError, check_int


def kv_heads_per_gpu(num_kv_heads: int, tp: int) -> int:
    """KV heads one GPU stores under tensor parallelism.

    Heads are split evenly across GPUs; when GPUs outnumber KV heads each GPU keeps a
    full copy of one head (vLLM replicates them), so the shares add up to more than
    the whole. Like vLLM we refuse splits that do not divide.
    """
    tp = check_int("num_gpus", tp, minimum=1)
    if tp <= num_kv_heads:
        if num_kv_heads % tp:
            raise InputError(
                f"num_gpus={tp} does not divide num_key_value_heads={num_kv_heads}; "
                "tensor parallelism needs the KV heads split evenly (try a divisor of the KV heads)"
            )
        return num_kv_heads // tp
    if tp % num_kv_heads:
        raise InputError(
            f"num_gpus={tp} is not a multiple of num_key_value_heads={num_kv_heads}; "
            "with more GPUs than KV heads each head must be copied to a whole number of GPUs"
        )
    return 1


@dataclass(frozen=True)
class LayerSpec:
    """Base class: a layer that stores nothing (kept for symmetry)."""

    kind = "none"

    def numbers_per_token(self, tp: int = 1) -> int:
        return 0

    @property
    def token_cap(self) -> int | None:
        return None

    def fixed_bytes(self, tp: int = 1) -> int:
        return 0

    # Derived answers; subclasses only describe their shape.
    def bytes_per_token(self, kv_dtype: str = "bf16", tp: int = 1) -> Fraction:
        return self.numbers_per_token(tp) * dtype_bytes(kv_dtype, "kv_dtype")

    def tokens_held(self, tokens: int) -> int:
        tokens = check_int("tokens", tokens)
        return tokens if self.token_cap is None else min(tokens, self.token_cap)

    def bits_held(self, tokens: int, bits: int, tp: int = 1) -> int:
        """Bits the stored tokens take at `bits` per number (fixed state not included).

        A whole number, so a Model can add its layers in integers and divide by 8 once:
        exactly the sum of the Fractions bytes_for gives (Model sums these; bytes_for is the
        per-layer answer for readers and property tests).
        """
        return self.tokens_held(tokens) * self.numbers_per_token(tp) * bits

    def bytes_for(self, tokens: int, kv_dtype: str = "bf16", tp: int = 1) -> Fraction:
        """Bytes this layer holds for one sequence of `tokens` tokens."""
        return Fraction(self.bits_held(tokens, dtype_bits(kv_dtype, "kv_dtype"), tp), 8) + self.fixed_bytes(tp)

    def describe(self) -> str:
        return self.kind


@dataclass(frozen=True)
class FullAttentionSpec(LayerSpec):
    """MHA / GQA / MQA: every token keeps one key and one value per KV head.

    head_size_v defaults to head_size (they differ in a few models, e.g. MLA written as MHA).
    """

    num_kv_heads: int
    head_size: int
    head_size_v: int | None = None
    kind = "full"

    def __post_init__(self) -> None:
        check_int("num_key_value_heads", self.num_kv_heads, minimum=1)
        check_int("head_dim", self.head_size, minimum=1)
        if self.head_size_v is not None:
            check_int("v_head_dim", self.head_size_v, minimum=1)

    @property
    def v_size(self) -> int:
        return self.head_size if self.head_size_v is None else self.head_size_v

    def numbers_per_token(self, tp: int = 1) -> int:
        return kv_heads_per_gpu(self.num_kv_heads, tp) * (self.head_size + self.v_size)

    def describe(self) -> str:
        v = "" if self.head_size_v is None else f"/{self.v_size}"
        return f"{self.kind}: {self.num_kv_heads} KV heads x {self.head_size}{v}"


@dataclass(frozen=True)
class SlidingWindowSpec(FullAttentionSpec):
    """Attends to the last `window` tokens only, so it never holds more than that."""

    window: int = 0
    kind = "sliding"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_int("sliding_window", self.window, minimum=1)

    @property
    def token_cap(self) -> int | None:
        return self.window

    def describe(self) -> str:
        return super().describe() + f", window {self.window:,}"


@dataclass(frozen=True)
class ChunkedLocalSpec(FullAttentionSpec):
    """Chunked local attention (Llama 4): attends within fixed chunks of `chunk` tokens.

    At most one chunk is held; like vLLM we size the layer for a whole chunk.
    """

    chunk: int = 0
    kind = "chunked"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_int("attention_chunk_size", self.chunk, minimum=1)

    @property
    def token_cap(self) -> int | None:
        return self.chunk

    def describe(self) -> str:
        return super().describe() + f", chunk {self.chunk:,}"


@dataclass(frozen=True)
class MLASpec(LayerSpec):
    """Multi-head latent attention (DeepSeek-V2/V3): one compressed latent per token.

    The latent (kv_lora_rank numbers) plus the shared positional key (qk_rope_head_dim)
    is all that is stored; keys and values are expanded inside the kernel. It is not
    split by tensor parallelism: every GPU keeps the whole latent.
    """

    kv_lora_rank: int
    qk_rope_head_dim: int
    kind = "mla"

    def __post_init__(self) -> None:
        check_int("kv_lora_rank", self.kv_lora_rank, minimum=1)
        check_int("qk_rope_head_dim", self.qk_rope_head_dim, minimum=0)

    def numbers_per_token(self, tp: int = 1) -> int:
        check_int("num_gpus", tp, minimum=1)
        return self.kv_lora_rank + self.qk_rope_head_dim

    def describe(self) -> str:
        return f"mla: latent {self.kv_lora_rank} + rope {self.qk_rope_head_dim}"


@dataclass(frozen=True)
class RecurrentStateSpec(LayerSpec):
    """Linear-attention / state-space layer: a fixed state per sequence, whatever its length.

    state_bytes is the whole layer's state (its own dtype, usually not the KV dtype);
    under tensor parallelism it is split like the heads it belongs to.
    """

    state_bytes: int
    kind = "recurrent"

    def __post_init__(self) -> None:
        check_int("state_bytes", self.state_bytes, minimum=0)

    @property
    def token_cap(self) -> int | None:
        return 0

    def fixed_bytes(self, tp: int = 1) -> int:
        tp = check_int("num_gpus", tp, minimum=1)
        return math.ceil(self.state_bytes / tp)

    def describe(self) -> str:
        return f"recurrent: {self.state_bytes:,} B state"


@dataclass(frozen=True)
class LayerGroup:
    """`count` identical layers."""

    spec: LayerSpec
    count: int

    def __post_init__(self) -> None:
        check_int("layer count", self.count, minimum=1)
