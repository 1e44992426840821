"""One small spec class per kind of attention layer (after vLLM's kv_cache_interface.py).

Each spec answers the same questions for one layer:
  numbers_per_token(tp)  numbers stored per token on one GPU under tensor parallelism tp
                         (in the KV-cache dtype)
  token_bits(bits, tp)   bits one stored token takes: those numbers at `bits` each, plus
                         any part kept in a fixed format whatever the KV dtype (the FP8
                         keys and scales of DeepSeek-V3.2's indexer)
  token_cap              how many context tokens the layer keeps at most (None = all of
                         them, 0 = it never grows with the context)
  tokens_held(T)         tokens it holds for a sequence of T (a cross-attention layer holds
                         the image tokens, whatever T)
  fixed_bytes            bytes held per sequence whatever its length (recurrent state)
and from those, bytes per token and bytes held for a sequence of T tokens.
Everything else in kvwidgets reads these; nothing re-derives heads or windows.

browser_data() is the spec's part of Model.shape(), the JSON the widgets' JavaScript
reads (js/calc/layers.js): each class adds its own fields, so a new kind writes its
browser data beside its rule instead of in a chain of isinstance tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .dtypes import dtype_bits
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

    def token_bits(self, bits: int, tp: int = 1) -> int:
        """Bits one stored token takes on one GPU when a KV number takes `bits`."""
        return self.numbers_per_token(tp) * bits

    @property
    def grows(self) -> bool:
        """True when the layer stores more as the context grows (up to its cap)."""
        return self.token_cap != 0

    # Derived answers; subclasses only describe their shape.
    def bytes_per_token(self, kv_dtype: str = "bf16", tp: int = 1) -> Fraction:
        return Fraction(self.token_bits(dtype_bits(kv_dtype, "kv_dtype"), tp), 8)

    def tokens_held(self, tokens: int) -> int:
        tokens = check_int("tokens", tokens)
        return tokens if self.token_cap is None else min(tokens, self.token_cap)

    def bits_held(self, tokens: int, bits: int, tp: int = 1) -> int:
        """Bits the stored tokens take at `bits` per number (fixed state not included).

        A whole number, so a Model can add its layers in integers and divide by 8 once:
        exactly the sum of the Fractions bytes_for gives (Model sums these; bytes_for is the
        per-layer answer for readers and property tests).
        """
        return self.tokens_held(tokens) * self.token_bits(bits, tp)

    def bytes_for(self, tokens: int, kv_dtype: str = "bf16", tp: int = 1) -> Fraction:
        """Bytes this layer holds for one sequence of `tokens` tokens."""
        return Fraction(self.bits_held(tokens, dtype_bits(kv_dtype, "kv_dtype"), tp), 8) + self.fixed_bytes(
            tp
        )

    def describe(self) -> str:
        return self.kind

    def browser_data(self) -> dict[str, Any]:
        """The numbers js/calc/layers.js evaluates for this layer (dtype applied there).

        Leaves out what is the default in the browser: "cap" when the layer keeps every
        token (null), "fixed_bytes" when it holds no fixed state (0). Every widget ships
        one shape per preset, so the bytes count."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.token_cap is not None:
            data["cap"] = self.token_cap
        if self.fixed_bytes(1):
            data["fixed_bytes"] = self.fixed_bytes(1)
        return data


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

    def browser_data(self) -> dict[str, Any]:
        return {
            **super().browser_data(),
            "kv_heads": self.num_kv_heads,
            "head_k": self.head_size,
            "head_v": self.v_size,
        }


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
class CrossAttentionSpec(FullAttentionSpec):
    """Cross-attention to an encoder's tokens (Llama 3.2 Vision's image tokens, Whisper's
    audio frames): keys and values of the encoder's tokens only, a fixed count per
    sequence, never the text. Whisper's count is max_source_positions (see
    configs/families.py, whisper).

    encoder_tokens is what vLLM allocated for one sequence: vLLM 0.10.2 (the last release
    with this model), vllm/model_executor/models/mllama.py,
    MllamaMultiModalProcessor.apply: tiles of the images x calc_token_per_chunk(image_size)
    = (image_size // 14) ** 2 + 1 tokens per tile.
    """

    encoder_tokens: int = 0
    kind = "cross"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_int("encoder tokens", self.encoder_tokens, minimum=0)

    @property
    def token_cap(self) -> int | None:
        return 0

    def tokens_held(self, tokens: int) -> int:
        check_int("tokens", tokens)
        return self.encoder_tokens

    def describe(self) -> str:
        return super().describe().replace("full:", "cross:", 1) + f", {self.encoder_tokens:,} encoder tokens"

    def browser_data(self) -> dict[str, Any]:
        # the image tokens are held whatever the context, so the browser adds them as they are
        return {**super().browser_data(), "fixed_tokens": self.encoder_tokens}


@dataclass(frozen=True)
class MLASpec(LayerSpec):
    """Multi-head latent attention (DeepSeek-V2/V3): one compressed latent per token.

    The latent (kv_lora_rank numbers) plus the shared positional key (qk_rope_head_dim)
    is all that is stored; keys and values are expanded inside the kernel. It is not
    split by tensor parallelism: every GPU keeps the whole latent.

    index_bytes: DeepSeek-V3.2's sparse-attention indexer keeps its own cache beside the
    latent, one key of index_head_dim numbers per token and layer, always in FP8 with one
    float32 scale per 128 numbers, whatever the KV dtype. vLLM 0.33.0,
    vllm/model_executor/models/deepseek_v2.py, Indexer.__init__: DeepseekV32IndexerCache(
    head_dim=index_head_dim + index_head_dim // quant_block_size * 4, dtype=torch.uint8),
    quant_block_size = 128, so 128 + 4 = 132 bytes; its get_kv_cache_spec gives
    num_kv_heads=1, max_tp_shards=1 (a whole copy on every GPU, like the latent).
    """

    kv_lora_rank: int
    qk_rope_head_dim: int
    index_bytes: int = 0
    kind = "mla"

    def __post_init__(self) -> None:
        check_int("kv_lora_rank", self.kv_lora_rank, minimum=1)
        check_int("qk_rope_head_dim", self.qk_rope_head_dim, minimum=0)
        check_int("index_bytes", self.index_bytes, minimum=0)

    def numbers_per_token(self, tp: int = 1) -> int:
        check_int("num_gpus", tp, minimum=1)
        return self.kv_lora_rank + self.qk_rope_head_dim

    def token_bits(self, bits: int, tp: int = 1) -> int:
        return self.numbers_per_token(tp) * bits + self.index_bytes * 8

    def describe(self) -> str:
        index = f" + indexer {self.index_bytes} B" if self.index_bytes else ""
        return f"mla: latent {self.kv_lora_rank} + rope {self.qk_rope_head_dim}{index}"

    def browser_data(self) -> dict[str, Any]:
        data = {**super().browser_data(), "latent": self.kv_lora_rank + self.qk_rope_head_dim}
        if self.index_bytes:
            data["index_bytes"] = self.index_bytes  # per token, in its fixed FP8 format
        return data


@dataclass(frozen=True)
class CompressedMLASpec(LayerSpec):
    """DeepSeek-V4 attention: a sliding latent, compressed entries and the compressor's state.

    One layer keeps, as vLLM 0.33.0 allocates them (vllm/models/deepseek_v4/):
      - the last `window` tokens' latents whole (attention.py, DeepseekV4MLAAttention.__init__
        builds DeepseekV4SWACache; v1/attention/backends/mla/sparse_swa.py,
        DeepseekV4SWACache.get_kv_cache_spec: SlidingWindowMLASpec, one head, every GPU);
      - with ratio > 1, one compressed entry per `ratio` tokens (attention.py,
        DeepseekV4MLAAttention.get_kv_cache_spec: MLAAttentionSpec, tokens_per_state=ratio),
        and for ratio 4 an indexer key per entry, `index_bytes` each (DeepseekV4Indexer.
        __init__ -> DeepseekV4IndexerCache.get_kv_cache_spec, tokens_per_state=ratio);
      - the compressor's float32 state for the group of tokens still being compressed,
        `state_token_bytes` per token over the last `state_window` tokens (compressor.py,
        CompressorStateCache.get_kv_cache_spec: SlidingWindowMLASpec, window coff x ratio).
    Every part is in its own packed format whatever the KV dtype (entry_bytes: fp8_ds_mla,
    584 B), and whole on every GPU (max_tp_shards=1), so neither bits nor tp changes it.
    token_bits is what each token adds for good, (entry + index) / ratio bits, a fraction
    when ratio does not divide it, 0 for a layer that only keeps its window: the window and
    the compressor state are bounded parts of every sequence, counted in bits_held. So the
    layer has no token_cap (it keeps compressing however long the context grows).
    """

    window: int
    ratio: int
    entry_bytes: int
    index_bytes: int = 0
    state_window: int = 0
    state_token_bytes: int = 0
    kind = "compressed"

    def __post_init__(self) -> None:
        check_int("sliding_window", self.window, minimum=1)
        check_int("compress_ratio", self.ratio, minimum=1)
        check_int("entry_bytes", self.entry_bytes, minimum=1)
        check_int("index_bytes", self.index_bytes, minimum=0)
        check_int("state_window", self.state_window, minimum=0)
        check_int("state_token_bytes", self.state_token_bytes, minimum=0)
        if self.ratio == 1 and (self.index_bytes or self.state_window):
            raise InputError(
                "a layer with compress_ratio 1 keeps only its window: no indexer, no compressor state"
            )

    def token_bits(self, bits: int, tp: int = 1) -> int | Fraction:  # type: ignore[override]
        check_int("num_gpus", tp, minimum=1)
        if self.ratio == 1:
            return 0
        per = Fraction((self.entry_bytes + self.index_bytes) * 8, self.ratio)
        return per.numerator if per.denominator == 1 else per

    def entries(self, tokens: int) -> int:
        """Compressed entries a sequence of `tokens` holds: one per whole group of `ratio`."""
        tokens = check_int("tokens", tokens)
        return tokens // self.ratio if self.ratio > 1 else 0

    def bits_held(self, tokens: int, bits: int, tp: int = 1) -> int:
        check_int("num_gpus", tp, minimum=1)
        tokens = check_int("tokens", tokens)
        window = min(tokens, self.window) * self.entry_bytes
        compressed = self.entries(tokens) * (self.entry_bytes + self.index_bytes)
        state = min(tokens, self.state_window) * self.state_token_bytes
        return (window + compressed + state) * 8

    def browser_data(self) -> dict[str, Any]:
        # every part in its own packed format: bytes, not numbers at the KV dtype
        data = {
            **super().browser_data(),
            "window": self.window,
            "ratio": self.ratio,
            "entry_bytes": self.entry_bytes,
        }
        if self.index_bytes:
            data["index_bytes"] = self.index_bytes  # per compressed entry
        if self.state_window:
            data.update(state_window=self.state_window, state_token_bytes=self.state_token_bytes)
        return data

    def describe(self) -> str:
        if self.ratio == 1:
            return f"compressed: window {self.window:,} x {self.entry_bytes} B, no compression"
        index = f" + indexer {self.index_bytes} B" if self.index_bytes else ""
        return (
            f"compressed: window {self.window:,} x {self.entry_bytes} B + 1 entry per {self.ratio} tokens "
            f"x {self.entry_bytes} B{index} + state {self.state_window} x {self.state_token_bytes:,} B"
        )


@dataclass(frozen=True)
class RecurrentStateSpec(LayerSpec):
    """Linear-attention / state-space layer: a fixed state per sequence, whatever its length.

    state_bytes is the whole layer's state (its own dtype, usually not the KV dtype);
    under tensor parallelism it is split like the heads it belongs to. conv_bytes and
    ssm_bytes, when given, are its two tensors as vLLM allocates them (mamba_utils.py:
    a convolution window in the model dtype, the SSM / delta-rule state in
    mamba_ssm_cache_dtype) and add up to state_bytes; ssm_dtype names the latter.
    conv_kernel, when given, is the convolution's width: conv_bytes holds conv_kernel - 1
    rows, and an engine running draft tokens keeps one more row per draft token.
    """

    state_bytes: int
    conv_bytes: int | None = None
    ssm_bytes: int | None = None
    ssm_dtype: str | None = None
    conv_kernel: int | None = None
    kind = "recurrent"

    def __post_init__(self) -> None:
        check_int("state_bytes", self.state_bytes, minimum=0)
        if (self.conv_bytes is None) != (self.ssm_bytes is None):
            raise InputError("give both conv_bytes and ssm_bytes of a recurrent state, or neither")
        if self.conv_bytes is not None:
            check_int("conv_bytes", self.conv_bytes, minimum=0)
            check_int("ssm_bytes", self.ssm_bytes, minimum=0)
            if self.conv_kernel is not None:
                check_int("conv_kernel", self.conv_kernel, minimum=2)
            if self.conv_bytes + self.ssm_bytes != self.state_bytes:
                raise InputError(
                    f"conv_bytes {self.conv_bytes:,} + ssm_bytes {self.ssm_bytes:,} must equal "
                    f"state_bytes {self.state_bytes:,}"
                )

    @property
    def token_cap(self) -> int | None:
        return 0

    def fixed_bytes(self, tp: int = 1) -> int:
        tp = check_int("num_gpus", tp, minimum=1)
        return math.ceil(self.state_bytes / tp)

    def describe(self) -> str:
        dtype = f" (SSM state {self.ssm_dtype})" if self.ssm_dtype else ""
        return f"recurrent: {self.state_bytes:,} B state{dtype}"


@dataclass(frozen=True)
class LayerGroup:
    """`count` identical layers."""

    spec: LayerSpec
    count: int

    def __post_init__(self) -> None:
        check_int("layer count", self.count, minimum=1)

    def browser_data(self) -> dict[str, Any]:
        """The spec's browser data with the layer count after its kind (the order the
        synced JSON has always had, so a widget's state is unchanged byte for byte)."""
        spec = self.spec.browser_data()
        return {"kind": spec.pop("kind"), "count": self.count, **spec}
