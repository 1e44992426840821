"""A Model's layers as the per-layer cache specs vLLM builds (v1/kv_cache_interface.py).

One class per vLLM spec, each answering for itself what vLLM's class answers:
  page          bytes of one block (page_size_bytes), padded when vLLM pads it
  blocks_per_request(demand)
                blocks one request at max_model_len holds (max_memory_usage_bytes /
                page_size_bytes), with the rule in words
  FullAttentionCache   FullAttentionSpec: a page holds block_size tokens, every token kept
  MLACache             MLAAttentionSpec (a FullAttentionSpec): one latent per token
  IndexerCache         DeepSeek-V3.2's indexer keys, a layer of its own in vLLM
                       (DeepseekV32IndexerCache, model_executor/models/deepseek_v2.py)
  SlidingWindowCache   SlidingWindowSpec: the window kept, plus the tokens in flight
  ChunkedLocalCache    ChunkedLocalAttentionSpec: one chunk, plus the tokens in flight
  CrossAttentionCache  CrossAttentionSpec: encoder tokens, reserved up to max_num_batched_tokens
  MambaCache           MambaSpec: one page is the whole state, whatever the length
Each kvwidgets LayerSpec becomes at most one vLLM spec per layer, sized for one GPU.
Layers that store nothing (a layer reading another layer's KV) get no spec: vLLM skips
layers with a KV-sharing target when it collects specs.

Only the LayerSpec interface is read (kind, numbers_per_token, token_cap, fixed_bytes),
plus the MLA fields, so layer kinds added later work unchanged where they fit one of
these shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from .dtypes import PACKED_KV_FORMATS, PackedKVFormat, dtype_bytes, dtype_name
from .errors import InputError
from .layers import kv_heads_per_gpu
from .model import Model

# --kv-cache-dtype values a vLLM cache takes (bf16/fp16 = "auto" for a 16-bit model); the
# packed formats below 8 bits are in dtypes.PACKED_KV_FORMATS.
VLLM_KV_DTYPES = ("bf16", "fp16", "fp8", "fp32")

# DeepSeek-V3.2 with an fp8 cache stores each token's latent as 656 bytes, "FP8 with scale"
# (0.11.0 v1/kv_cache_interface.py MLAAttentionSpec.page_size_bytes, cache_dtype_str
# "fp8_ds_mla"; 0.33.0 v1/attention/backends/mla/flashmla_sparse.py).
FP8_DS_MLA_BYTES = 656
# The indexer keeps index_head_dim fp8 keys plus one 4-byte scale per 128 of them
# (0.11.0 / 0.33.0 model_executor/models/deepseek_v2.py: head_dim + head_dim // 128 * 4, uint8).
INDEXER_QUANT_BLOCK = 128


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def gib(n: int) -> float:
    return n / 2**30


@dataclass(frozen=True)
class RequestDemand:
    """What one request at max_model_len asks of a spec: the vllm_config fields that
    max_memory_usage_bytes reads.

    in_flight           tokens scheduled but not yet freed (max_in_flight_tokens in 0.33)
    batched             max_num_batched_tokens (the encoder budget of a cross layer)
    mamba_mode          mamba_cache_mode, "none" or "align"
    dcp                 decode context parallel size: the tokens split over its ranks
    speculative_blocks  extra state pages a request keeps for draft tokens (MambaSpec
                        num_speculative_blocks; 0 where the version does not count them)
    """

    max_model_len: int
    in_flight: int
    in_flight_words: str
    batched: int
    mamba_mode: str
    dcp: int = 1
    speculative_blocks: int = 0


@dataclass(frozen=True)
class CacheSpec:
    """One layer's vLLM cache spec on one GPU (KVCacheSpec in vLLM).

    per_token   bytes a token takes in this layer (attention kinds; 0 for mamba)
    padded      page size after vLLM pads it to match the others (None: not padded)
    full_from   for a sliding/chunked layer the hybrid allocator is off for: its old kind
    """

    per_token: int
    block_size: int
    what: str
    padded: int | None = None
    full_from: str | None = None

    kind: ClassVar[str] = ""  # the name this spec is shown under
    # Specs vLLM groups as "one type" (UniformTypeKVCacheSpecs.is_uniform_type): MLA specs
    # subclass FullAttentionSpec (0.11.0 v1/kv_cache_interface.py; 0.33.0 registers
    # MLAAttentionSpec with uniform_type_base_spec=FullAttentionSpec).
    family: ClassVar[str] = ""
    # ModelConfig.get_num_kv_heads / get_head_size describe this layer's shape (the model's
    # attention, which sizes the mamba alignment); not the indexer or a cross layer
    model_attention: ClassVar[bool] = False
    # unify_kv_cache_spec_page_size may pad this page (0.33.0 v1/core/kv_cache_planning.py)
    paddable: ClassVar[bool] = True

    @property
    def unpadded_page(self) -> int:
        return self.block_size * self.per_token

    @property
    def page(self) -> int:
        """Bytes of one block of this layer (page_size_bytes in vLLM)."""
        return self.unpadded_page if self.padded is None else self.padded

    def label(self) -> str:
        if self.full_from:
            return f"{self.what} ({self.full_from} layer sized as full)"
        return self.what

    def blocks_per_request(self, demand: RequestDemand) -> tuple[int, str]:
        """Blocks one request at max_model_len holds, and the rule in words."""
        raise NotImplementedError

    def sized_as_full(self) -> CacheSpec:
        """This spec with the hybrid allocator off (unify_hybrid_kv_cache_specs)."""
        return self

    def one_type_with(self, others: list[CacheSpec], version: str) -> bool:
        """is_uniform_with_collection: every spec of one family."""
        return all(o.family == self.family for o in others)


@dataclass(frozen=True)
class FullAttentionCache(CacheSpec):
    """FullAttentionSpec: every token of the request kept."""

    kind: ClassVar[str] = "full"
    family: ClassVar[str] = "full"
    model_attention: ClassVar[bool] = True

    def blocks_per_request(self, demand: RequestDemand) -> tuple[int, str]:
        bs, L = self.block_size, demand.max_model_len
        if demand.dcp > 1:
            # each DCP rank keeps cdiv(max_model_len, dcp) tokens of a request
            # (FullAttentionSpec.max_memory_usage_bytes, 0.11.0 and 0.33.0 v1/kv_cache_interface.py)
            local = cdiv(L, demand.dcp)
            n = cdiv(local, bs)
            return n, f"cdiv(cdiv({L:,}, {demand.dcp} DCP ranks) = {local:,}, {bs}) = {n:,}"
        return cdiv(L, bs), f"cdiv({L:,}, {bs}) = {cdiv(L, bs):,}"


@dataclass(frozen=True)
class MLACache(FullAttentionCache):
    """MLAAttentionSpec: one latent per token, no separate V; its page cannot be padded."""

    kind: ClassVar[str] = "mla"
    paddable: ClassVar[bool] = False


@dataclass(frozen=True)
class IndexerCache(MLACache):
    """DeepSeek-V3.2's indexer keys: an MLAAttentionSpec of its own beside each MLA layer."""

    kind: ClassVar[str] = "indexer"
    model_attention: ClassVar[bool] = False


@dataclass(frozen=True)
class _WindowCache(CacheSpec):
    """A spec that keeps only the last `span` tokens of a request (a window or a chunk)."""

    span: int = 0
    model_attention: ClassVar[bool] = True

    def sized_as_full(self) -> CacheSpec:
        return FullAttentionCache(self.per_token, self.block_size, self.what, self.padded, self.kind)

    def one_type_with(self, others: list[CacheSpec], version: str) -> bool:
        # SlidingWindowSpec / ChunkedLocalAttentionSpec.is_uniform_with_collection: one window
        return all(type(o) is type(self) and o.span == self.span for o in others)


@dataclass(frozen=True)
class SlidingWindowCache(_WindowCache):
    """SlidingWindowSpec: the window, the tokens in flight, and one block for a window that
    starts mid-block."""

    kind: ClassVar[str] = "sliding"
    family: ClassVar[str] = "sliding"

    def blocks_per_request(self, demand: RequestDemand) -> tuple[int, str]:
        if demand.dcp > 1:
            # SlidingWindowSpec.max_memory_usage_bytes asserts "DCP not support sliding window."
            # (0.11.0 and 0.33.0 v1/kv_cache_interface.py)
            raise InputError(
                f"decode_context_parallel_size={demand.dcp}: vLLM does not run sliding-window layers "
                "under decode context parallelism (SlidingWindowSpec.max_memory_usage_bytes)"
            )
        bs, L = self.block_size, demand.max_model_len
        t = min(self.span - 1 + demand.in_flight, L)
        n = cdiv(t, bs) + 1
        return n, (
            f"cdiv(min({self.span:,} - 1 + {demand.in_flight_words}, {L:,}), {bs}) + 1 = "
            f"{n:,} (window, tokens in flight, 1 block for a window starting mid-block)"
        )


@dataclass(frozen=True)
class ChunkedLocalCache(_WindowCache):
    """ChunkedLocalAttentionSpec: one chunk and the tokens in flight."""

    kind: ClassVar[str] = "chunked"
    family: ClassVar[str] = "chunked"

    def blocks_per_request(self, demand: RequestDemand) -> tuple[int, str]:
        # 0.33.0 ChunkedLocalAttentionSpec.max_memory_usage_bytes does not read the DCP size;
        # 0.11 refuses DCP with chunked layers (checked with the version's rules)
        bs, L = self.block_size, demand.max_model_len
        t = min(self.span + demand.in_flight, L)
        return cdiv(
            t, bs
        ), f"cdiv(min({self.span:,} + {demand.in_flight_words}, {L:,}), {bs}) = {cdiv(t, bs):,}"


@dataclass(frozen=True)
class CrossAttentionCache(CacheSpec):
    """CrossAttentionSpec: the encoder's tokens only (v1/kv_cache_interface.py, both versions)."""

    span: int = 0  # encoder tokens a request holds
    kind: ClassVar[str] = "cross"
    family: ClassVar[str] = "cross"

    def blocks_per_request(self, demand: RequestDemand) -> tuple[int, str]:
        # sized for scheduler_config.max_num_encoder_input_tokens, which both versions set to
        # max_num_batched_tokens (config/scheduler.py), not for the encoder tokens a request has
        bs, b = self.block_size, demand.batched
        return cdiv(b, bs), (
            f"cdiv({b:,} encoder tokens the scheduler allows, {bs}) = "
            f"{cdiv(b, bs):,} (a request holds {self.span:,})"
        )


@dataclass(frozen=True)
class MambaCache(CacheSpec):
    """MambaSpec: one page is a sequence's whole state.

    state       bytes of one sequence's state
    checkpoint  prefill-checkpoint pages a request adds in "align" mode (0.33)
    """

    state: int = 0
    checkpoint: int = 0
    kind: ClassVar[str] = "mamba"
    family: ClassVar[str] = "mamba"

    @property
    def unpadded_page(self) -> int:
        return self.state

    def blocks_per_request(self, demand: RequestDemand) -> tuple[int, str]:
        # MambaSpec.max_memory_usage_bytes: 1 page ("none"), 2 + prefill checkpoints ("align"),
        # each plus num_speculative_blocks in 0.33 (0.33.0 v1/kv_cache_interface.py; 0.11.0
        # counts one page whatever the draft tokens)
        mode, spec = demand.mamba_mode, demand.speculative_blocks
        n = (2 + self.checkpoint if mode == "align" else 1) + spec
        draft = f", {spec} of them for draft tokens" if spec else ""
        return n, f"{n} state page{'s' if n > 1 else ''} (mamba cache mode '{mode}'{draft})"

    def one_type_with(self, others: list[CacheSpec], version: str) -> bool:
        # 0.33 also wants one mamba page size (MambaSpec.is_uniform_with_collection)
        same = all(isinstance(o, MambaCache) for o in others)
        return same and (version == "0.11" or all(o.page == self.page for o in others))


# ---- building the specs from a Model ---------------------------------------------------


def _bytes(numbers: int, kv_dtype: str, field: str) -> int:
    b = numbers * dtype_bytes(kv_dtype, "kv_dtype")
    if Fraction(b).denominator != 1:
        raise InputError(
            f"{field}: {numbers} numbers at kv_dtype={kv_dtype!r} is not a whole number of bytes"
        )
    return int(b)


def _packed_bytes(layer, fmt: PackedKVFormat, tp: int, field: str) -> int:
    """Bytes a token takes in an attention layer stored in a packed format: K and V of each KV
    head on this GPU as one packed slot each."""
    heads = getattr(layer, "num_kv_heads", None)
    head_size = getattr(layer, "head_size", None)
    if not heads or not head_size:
        raise InputError(
            f"kv_dtype={fmt.name!r}: the {field} has no KV heads and head size to pack "
            f"({fmt.source}); use bf16, fp16 or fp8 for it"
        )
    v_size = getattr(layer, "v_size", head_size)
    if v_size != head_size:
        # FlashInferBackend.customize_spec asserts "nvfp4 with asymmetric K/V head sizes not yet
        # supported"; the per-token-head formats pack K and V alike too
        raise InputError(
            f"kv_dtype={fmt.name!r}: the {field} has keys of {head_size} and values of {v_size} "
            "numbers; vLLM packs this format only for equal K and V head sizes"
        )
    return kv_heads_per_gpu(heads, tp) * 2 * fmt.head_bytes(head_size)


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


def _shape(s, numbers: int, tp: int) -> str:
    heads = getattr(s, "num_kv_heads", None)
    if heads:
        return f"{kv_heads_per_gpu(heads, tp)} KV heads x {getattr(s, 'head_size', '?')}"
    return f"{numbers} numbers"


def _cross(s, numbers, kv_dtype, packed, tp, block_size):
    # the layer says how many encoder tokens a request holds; vLLM reserves for the scheduler's maximum
    encoder = getattr(s, "encoder_tokens", None) or s.token_cap or 0
    per_token = (
        _packed_bytes(s, packed, tp, "cross layer") if packed else _bytes(numbers, kv_dtype, "cross layer")
    )
    what = f"cross-attention to {encoder:,} encoder tokens, {_shape(s, numbers, tp)}"
    return [CrossAttentionCache(per_token, block_size, what, span=encoder)]


def _mla(s, numbers, kv_dtype, packed, tp, block_size):
    if packed:
        raise InputError(
            f"kv_dtype={packed.name!r}: vLLM offers it for K/V attention, not for MLA layers "
            "(MLA's packed formats, nvfp4_ds_mla, are DeepSeek-V4 only and not modelled here)"
        )
    latent = getattr(s, "kv_lora_rank", None)
    rope = getattr(s, "qk_rope_head_dim", 0)
    latent_numbers = latent + rope if latent is not None else numbers
    idx = _indexer_bytes(s)
    if idx and kv_dtype == "fp8":
        out = [
            MLACache(
                FP8_DS_MLA_BYTES,
                block_size,
                f"MLA latent {latent_numbers} as fp8_ds_mla ({FP8_DS_MLA_BYTES} B)",
            )
        ]
    else:
        out = [
            MLACache(
                _bytes(latent_numbers, kv_dtype, "MLA latent"), block_size, f"MLA latent {latent_numbers}"
            )
        ]
    if idx:
        out.append(IndexerCache(idx, block_size, f"indexer keys, fp8 + scales ({idx} B a token)"))
    return out


# layer kinds whose KV is kept only for the last `token_cap` tokens, by the vLLM spec they map to
_WINDOWED: dict[str, type[_WindowCache]] = {"sliding": SlidingWindowCache, "chunked": ChunkedLocalCache}


def _attention(s, numbers, kv_dtype, packed, tp, block_size):
    kind, cap = s.kind, s.token_cap
    field = f"{kind} layer"
    per_token = _packed_bytes(s, packed, tp, field) if packed else _bytes(numbers, kv_dtype, field)
    shape = _shape(s, numbers, tp)
    if cap is None:
        return [FullAttentionCache(per_token, block_size, f"full, {shape}")]
    cls = _WINDOWED.get(kind)
    if cls is None:
        raise InputError(
            f"layer kind {kind!r} (keeps at most {cap:,} tokens): kvwidgets has no vLLM cache rule for it"
        )
    return [cls(per_token, block_size, f"{kind} {cap:,}, {shape}", span=cap)]


_BUILDERS = {"cross": _cross, "mla": _mla}

# layer kinds whose vLLM pages kvwidgets does not reproduce, and why (one sentence each)
UNPAGED_KINDS = {
    "compressed": "DeepSeek-V4's compressed layers: vLLM 0.33.0 splits each into a sliding latent, "
    "compressed entries, indexer keys and a compressor state, each its own spec with its own block size "
    "and 576-byte page padding, made to share one page size (vllm/models/deepseek_v4/compressor.py, "
    "CompressorStateCache.__init__), which kvwidgets' block arithmetic does not follow; bytes per token "
    "and users that fit still hold",
}


# --kv-cache-dtype values 0.33 offers (config/cache.py CacheDType) whose layout kvwidgets does
# not reproduce, and why: refused by name rather than sized as something else.
UNMODELLED_VLLM_KV_DTYPES = {
    **dict.fromkeys(
        ("turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc"),
        "TurboQuant keeps the first and last 2 layers of a dense model unquantized "
        "(quantization/turboquant/config.py get_boundary_skip_layers), which needs per-layer positions",
    ),
    **dict.fromkeys(
        ("octave_k3v4", "octave_k3v3", "octave_k3v3_compact", "ultraquant_4bit"),
        "its packed K|V slot is sized by a ROCm / UltraQuant backend kvwidgets has not read",
    ),
    "nvfp4_ds_mla": "a DeepSeek-V4 MLA layout (not modelled)",
    "fp8_inc": "Intel Gaudi's fp8 path (not modelled)",
}


def check_kv_dtype(kv_dtype: str, version: str) -> tuple[str, PackedKVFormat | None]:
    """(the canonical name, the packed format or None) of a vLLM --kv-cache-dtype."""
    key = str(kv_dtype).strip().lower()
    if key in UNMODELLED_VLLM_KV_DTYPES:
        raise InputError(
            f"kv_dtype={kv_dtype!r}: vLLM offers it, but kvwidgets does not size it: "
            f"{UNMODELLED_VLLM_KV_DTYPES[key]}"
        )
    packed = PACKED_KV_FORMATS.get(key)
    if packed is not None:
        if version == "0.11":
            raise InputError(
                f"kv_dtype={kv_dtype!r}: vLLM 0.11 has no KV format below 8 bits or with per-head scales "
                "(0.11.0 config/cache.py CacheDType: auto, bfloat16, fp8, fp8_e4m3, fp8_e5m2, fp8_inc)"
            )
        return packed.name, packed
    name = dtype_name(kv_dtype, "kv_dtype")
    if name not in VLLM_KV_DTYPES:
        raise InputError(
            f"kv_dtype={kv_dtype!r}: a vLLM KV cache is one of "
            f"{', '.join(VLLM_KV_DTYPES + tuple(PACKED_KV_FORMATS))}"
        )
    return name, None


def draft_conv_bytes(layer, tp: int, num_spec: int) -> int:
    """Bytes a state layer's convolution window grows by for num_spec draft tokens on one GPU.

    vLLM keeps conv_kernel - 1 + num_spec rows (model_executor/layers/mamba/mamba_utils.py
    MambaStateShapeCalculator: 0.33.0 mamba2, gated_delta_net, kda and short_conv state
    shapes; 0.11.0 gated_delta_net); Mamba-1's shape has no draft rows."""
    if not num_spec or str(getattr(layer, "mamba_type", "")).lower() == "mamba1":
        return 0
    conv, k = getattr(layer, "conv_bytes", None), getattr(layer, "conv_kernel", None)
    if not conv or not k:
        raise InputError(
            f"num_speculative_tokens={num_spec}: vLLM widens a state layer's convolution window by one row per "
            "draft token, and this layer does not say its conv_bytes and conv_kernel (RecurrentStateSpec)"
        )
    row = Fraction(conv, (k - 1) * tp)
    if row.denominator != 1:
        raise InputError(
            f"conv_bytes {conv:,} does not split into {k - 1} rows over {tp} GPUs: check conv_bytes / conv_kernel"
        )
    return int(row) * num_spec


def layer_cache_specs(
    model: Model, *, kv_dtype: str, tp: int, block_size: int, version: str = "0.33", num_spec: int = 0
) -> list[tuple[CacheSpec, int]]:
    """(spec, layer count) per distinct vLLM spec, in the model's group order.

    Identical specs are merged, as vLLM buckets layers by spec equality
    (kv_cache_planning.py / kv_cache_utils.py: same_type_layers keyed by the spec).
    num_spec: draft tokens a step verifies (state layers keep a wider convolution window).
    """
    kv_dtype, packed = check_kv_dtype(kv_dtype, version)
    out: dict[CacheSpec, int] = {}
    for group in model.groups:
        s = group.spec
        if s.kind in UNPAGED_KINDS:
            raise InputError(f"{model.name}: vLLM paging is not modelled for {UNPAGED_KINDS[s.kind]}")
        numbers = s.numbers_per_token(tp)
        fixed = s.fixed_bytes(tp)
        if numbers == 0 and fixed == 0:
            continue  # stores nothing (KV shared with another layer): no spec in vLLM
        if numbers == 0 and s.token_cap == 0:
            grow = draft_conv_bytes(s, tp, num_spec)
            what = f"{s.kind} state {fixed:,} B" + (
                f" + {grow:,} B for {num_spec} draft tokens" if grow else ""
            )
            specs = [MambaCache(0, block_size, what, state=fixed + grow)]
        elif fixed and s.kind != "cross":
            raise InputError(
                f"layer kind {s.kind!r} keeps both per-token entries and a fixed state; "
                "vLLM has no single spec for that"
            )
        else:
            build = _BUILDERS.get(s.kind, _attention)
            specs = build(s, numbers, kv_dtype, packed, tp, block_size)
        for spec in specs:
            out[spec] = out.get(spec, 0) + group.count
    if not out:
        raise InputError(f"model {model.name!r} stores no KV cache in any layer")
    return list(out.items())


def attention_page_per_token(specs: list[tuple[CacheSpec, int]]) -> tuple[int, bool]:
    """Bytes per token of the model's attention, as vLLM sizes it when aligning mamba pages,
    and whether it is MLA (ModelConfig.get_num_kv_heads / get_head_size describe one
    attention shape: the first attention layer's here)."""
    for spec, _ in specs:
        if spec.model_attention:
            return spec.per_token, isinstance(spec, MLACache)
    raise InputError("no attention layer to align the mamba state pages with")


def with_block_size(specs: list[tuple[CacheSpec, int]], block_size: int) -> list[tuple[CacheSpec, int]]:
    return [(replace(s, block_size=block_size) if not isinstance(s, MambaCache) else s, n) for s, n in specs]
