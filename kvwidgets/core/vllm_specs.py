"""A Model's layers as the per-layer cache specs vLLM builds (v1/kv_cache_interface.py).

Each kvwidgets LayerSpec becomes at most one vLLM spec per layer, sized for one GPU:
  full / MLA   FullAttentionSpec / MLAAttentionSpec, a page holds block_size tokens
  sliding      SlidingWindowSpec (window kept, plus the tokens in flight)
  chunked      ChunkedLocalAttentionSpec (one chunk, plus the tokens in flight)
  cross        CrossAttentionSpec (encoder tokens, reserved up to max_num_batched_tokens)
  recurrent    MambaSpec: one page is the whole state, whatever the length
Layers that store nothing (a layer reading another layer's KV) get no spec: vLLM skips
layers with a KV-sharing target when it collects specs. DeepSeek-V3.2's indexer is a
layer of its own in vLLM (DeepseekV32IndexerCache, model_executor/models/deepseek_v2.py).

Only the LayerSpec interface is read (kind, numbers_per_token, token_cap, fixed_bytes),
plus the MLA fields, so layer kinds added later work unchanged where they fit one of
these shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from .dtypes import dtype_bytes, dtype_name
from .errors import InputError
from .layers import kv_heads_per_gpu
from .model import Model

# Families vLLM groups as "one type" (UniformTypeKVCacheSpecs.is_uniform_type): MLA specs
# subclass FullAttentionSpec (0.11.0 v1/kv_cache_interface.py; 0.33.0 registers MLAAttentionSpec
# with uniform_type_base_spec=FullAttentionSpec in v1/core/single_type_kv_cache_manager.py).
FAMILY = {
    "full": "full",
    "mla": "full",
    "indexer": "full",
    "sliding": "sliding",
    "chunked": "chunked",
    "mamba": "mamba",
    "cross": "cross",
}

# --kv-cache-dtype values a vLLM cache takes (bf16/fp16 = "auto" for a 16-bit model).
VLLM_KV_DTYPES = ("bf16", "fp16", "fp8", "fp32")

# DeepSeek-V3.2 with an fp8 cache stores each token's latent as 656 bytes, "FP8 with scale"
# (0.11.0 v1/kv_cache_interface.py MLAAttentionSpec.page_size_bytes, cache_dtype_str
# "fp8_ds_mla"; 0.33.0 v1/attention/backends/mla/flashmla_sparse.py).
FP8_DS_MLA_BYTES = 656
# The indexer keeps index_head_dim fp8 keys plus one 4-byte scale per 128 of them
# (0.11.0 / 0.33.0 model_executor/models/deepseek_v2.py: head_dim + head_dim // 128 * 4, uint8).
INDEXER_QUANT_BLOCK = 128


@dataclass(frozen=True)
class CacheSpec:
    """One layer's vLLM cache spec on one GPU.

    per_token   bytes a token takes in this layer (attention kinds; 0 for mamba)
    state       bytes of one sequence's state (mamba; 0 otherwise)
    span        sliding window, chunk, or encoder tokens (cross); None for full
    padded      page size after vLLM pads it to match the others (None: not padded)
    full_from   for a sliding/chunked layer the hybrid allocator is off for: its old kind
    checkpoint  for a mamba layer: the prefill-checkpoint pages it keeps beside its state
    """

    kind: str
    per_token: int
    block_size: int
    what: str
    state: int = 0
    span: int | None = None
    padded: int | None = None
    full_from: str | None = None
    checkpoint: int = 0  # mamba: prefill-checkpoint pages a request adds in "align" mode (0.33)

    @property
    def family(self) -> str:
        return FAMILY[self.kind]

    @property
    def unpadded_page(self) -> int:
        return self.state if self.kind == "mamba" else self.block_size * self.per_token

    @property
    def page(self) -> int:
        """Bytes of one block of this layer (page_size_bytes in vLLM)."""
        return self.unpadded_page if self.padded is None else self.padded

    def label(self) -> str:
        if self.full_from:
            return f"{self.what} ({self.full_from} layer sized as full)"
        return self.what


def _bytes(numbers: int, kv_dtype: str, field: str) -> int:
    b = numbers * dtype_bytes(kv_dtype, "kv_dtype")
    if Fraction(b).denominator != 1:
        raise InputError(
            f"{field}: {numbers} numbers at kv_dtype={kv_dtype!r} is not a whole number of bytes"
        )
    return int(b)


def _indexer_bytes(spec) -> int:
    """Bytes a token takes in the indexer cache beside an MLA layer (0: no indexer).

    The layer gives them directly (index_bytes) or as its key size (index_head_dim)."""
    if getattr(spec, "index_bytes", 0):
        return int(spec.index_bytes)
    for name in ("index_head_dim", "indexer_head_dim"):
        d = getattr(spec, name, None)
        if d:
            return int(d) + int(d) // INDEXER_QUANT_BLOCK * 4
    return 0


def layer_cache_specs(
    model: Model, *, kv_dtype: str, tp: int, block_size: int
) -> list[tuple[CacheSpec, int]]:
    """(spec, layer count) per distinct vLLM spec, in the model's group order.

    Identical specs are merged, as vLLM buckets layers by spec equality
    (kv_cache_planning.py / kv_cache_utils.py: same_type_layers keyed by the spec).
    """
    kv_dtype = dtype_name(kv_dtype, "kv_dtype")
    if kv_dtype not in VLLM_KV_DTYPES:
        raise InputError(f"kv_dtype={kv_dtype!r}: a vLLM KV cache is one of {', '.join(VLLM_KV_DTYPES)}")
    out: dict[CacheSpec, int] = {}

    def add(spec: CacheSpec, count: int) -> None:
        out[spec] = out.get(spec, 0) + count

    for group in model.groups:
        s = group.spec
        numbers = s.numbers_per_token(tp)
        fixed = s.fixed_bytes(tp)
        cap = s.token_cap
        kind = s.kind
        if numbers == 0 and fixed == 0:
            continue  # stores nothing (KV shared with another layer): no spec in vLLM
        if numbers == 0 and cap == 0:
            add(CacheSpec("mamba", 0, block_size, f"{kind} state {fixed:,} B", state=fixed), group.count)
            continue
        if kind == "cross":
            # CrossAttentionSpec: the encoder's tokens only (v1/kv_cache_interface.py, both versions);
            # the layer says how many a request holds, vLLM reserves for the scheduler's maximum
            encoder = getattr(s, "encoder_tokens", None) or cap or 0
            heads = getattr(s, "num_kv_heads", None)
            shape = (
                f"{kv_heads_per_gpu(heads, tp)} KV heads x {s.head_size}" if heads else f"{numbers} numbers"
            )
            add(
                CacheSpec(
                    "cross",
                    _bytes(numbers, kv_dtype, "cross layer"),
                    block_size,
                    f"cross-attention to {encoder:,} encoder tokens, {shape}",
                    span=encoder,
                ),
                group.count,
            )
            continue
        if fixed:
            raise InputError(
                f"layer kind {kind!r} keeps both per-token entries and a fixed state; "
                "vLLM has no single spec for that"
            )
        if kind == "mla":
            latent = getattr(s, "kv_lora_rank", None)
            rope = getattr(s, "qk_rope_head_dim", 0)
            latent_numbers = latent + rope if latent is not None else numbers
            idx = _indexer_bytes(s)
            if idx and kv_dtype == "fp8":
                per_token, what = (
                    FP8_DS_MLA_BYTES,
                    f"MLA latent {latent_numbers} as fp8_ds_mla ({FP8_DS_MLA_BYTES} B)",
                )
            else:
                per_token, what = (
                    _bytes(latent_numbers, kv_dtype, "MLA latent"),
                    f"MLA latent {latent_numbers}",
                )
            add(CacheSpec("mla", per_token, block_size, what), group.count)
            if idx:
                add(
                    CacheSpec("indexer", idx, block_size, f"indexer keys, fp8 + scales ({idx} B a token)"),
                    group.count,
                )
            continue
        heads = getattr(s, "num_kv_heads", None)
        shape = (
            f"{kv_heads_per_gpu(heads, tp)} KV heads x {getattr(s, 'head_size', '?')}"
            if heads
            else f"{numbers} numbers"
        )
        per_token = _bytes(numbers, kv_dtype, f"{kind} layer")
        if cap is None:
            add(CacheSpec("full", per_token, block_size, f"full, {shape}"), group.count)
        elif kind == "sliding":
            add(
                CacheSpec("sliding", per_token, block_size, f"sliding {cap:,}, {shape}", span=cap),
                group.count,
            )
        elif kind == "chunked":
            add(
                CacheSpec("chunked", per_token, block_size, f"chunked {cap:,}, {shape}", span=cap),
                group.count,
            )
        else:
            raise InputError(
                f"layer kind {kind!r} (keeps at most {cap:,} tokens): kvwidgets has no vLLM cache rule for it"
            )
    if not out:
        raise InputError(f"model {model.name!r} stores no KV cache in any layer")
    return list(out.items())


def attention_page_per_token(specs: list[tuple[CacheSpec, int]]) -> tuple[int, bool]:
    """Bytes per token of the model's attention, as vLLM sizes it when aligning mamba pages,
    and whether it is MLA (ModelConfig.get_num_kv_heads / get_head_size describe one
    attention shape: the first attention layer's here)."""
    for spec, _ in specs:
        if spec.kind in ("full", "sliding", "chunked", "mla"):
            return spec.per_token, spec.kind == "mla"
    raise InputError("no attention layer to align the mamba state pages with")


def with_block_size(specs: list[tuple[CacheSpec, int]], block_size: int) -> list[tuple[CacheSpec, int]]:
    return [(replace(s, block_size=block_size) if s.kind != "mamba" else s, n) for s, n in specs]


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def gib(n: int) -> float:
    return n / 2**30
