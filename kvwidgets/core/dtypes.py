"""Number formats and their sizes.

Weight dtype and KV-cache dtype are always separate arguments: an FP8-quantized model
still stores a 16-bit cache unless the engine is told otherwise (vLLM's
--kv-cache-dtype), and a 16-bit model can run an FP8 cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .errors import unknown_name

# Bits per number. int4 is half a byte, so sizes are kept as Fractions until the end.
DTYPE_BITS: dict[str, int] = {
    "fp32": 32,
    "bf16": 16,
    "fp16": 16,
    "fp8": 8,
    "int8": 8,
    "int4": 4,
}

# Spellings found in configs (torch_dtype), engine flags and papers.
DTYPE_ALIASES: dict[str, str] = {
    "float32": "fp32",
    "float": "fp32",
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "fp8_e4m3": "fp8",
    "fp8_e5m2": "fp8",
    "float8_e4m3fn": "fp8",
    "float8_e5m2": "fp8",
    "e4m3": "fp8",
    "uint8": "int8",
    "16-bit": "bf16",
    "8-bit": "fp8",
}


def dtype_name(name: str, field: str = "dtype") -> str:
    """Canonical dtype name ('bf16', 'fp8', ...) or an error naming the field."""
    key = str(name).strip().lower().replace("torch.", "")
    key = DTYPE_ALIASES.get(key, key)
    if key not in DTYPE_BITS:
        err = unknown_name(field, name, DTYPE_BITS)
        raise err
    return key


def dtype_bits(name: str, field: str = "dtype") -> int:
    """Bits per number (int4 -> 4), for exact integer arithmetic."""
    return DTYPE_BITS[dtype_name(name, field)]


def dtype_bytes(name: str, field: str = "dtype") -> Fraction:
    """Bytes per number as an exact Fraction (int4 -> 1/2)."""
    return Fraction(dtype_bits(name, field), 8)


# ---- weight formats ---------------------------------------------------------------------
# A checkpoint may store different parts of a model in different formats. Every dtype above
# is also a weight format that stores all parameters alike; the entries below store the
# routed experts of a mixture of experts one way and every other parameter another.
#
# mxfp4: the OCP Microscaling format as gpt-oss ships it. Blocks of 32 four-bit (E2M1)
# values share one 8-bit (E8M0) scale, so an expert parameter costs 4 + 8/32 = 4.25 bits;
# attention, embeddings, the router and norms stay in bf16 (transformers 4.55
# integrations/mxfp4.py: only the experts' gate_up_proj / down_proj become *_blocks and
# *_scales; vLLM 0.11 model_executor/layers/quantization/mxfp4.py: Mxfp4Config quantizes
# FusedMoE layers only).
MIXED_WEIGHT_FORMATS: dict[str, tuple[Fraction, Fraction]] = {
    "mxfp4": (Fraction(17, 4), Fraction(16)),
}


@dataclass(frozen=True)
class WeightFormat:
    """Bits per parameter of a checkpoint: for routed-expert parameters and for the rest."""

    name: str
    routed_bits: Fraction
    other_bits: Fraction

    @property
    def mixed(self) -> bool:
        return self.routed_bits != self.other_bits

    def total_bytes(self, params: int, routed: int) -> int:
        """Whole bytes of `params` parameters of which `routed` are routed-expert ones."""
        bits = routed * self.routed_bits + (params - routed) * self.other_bits
        return -(-bits.numerator // (bits.denominator * 8))


def weight_format_name(name: str, field: str = "weight_dtype") -> str:
    """Canonical weight format ('bf16', 'int4', 'mxfp4', ...) or an error naming the field."""
    key = str(name).strip().lower().replace("torch.", "")
    if key in MIXED_WEIGHT_FORMATS:
        return key
    if DTYPE_ALIASES.get(key, key) in DTYPE_BITS:
        return dtype_name(key, field)
    raise unknown_name(field, name, {**DTYPE_BITS, **MIXED_WEIGHT_FORMATS})


def weight_format(name: str, field: str = "weight_dtype") -> WeightFormat:
    key = weight_format_name(name, field)
    if key in MIXED_WEIGHT_FORMATS:
        routed, other = MIXED_WEIGHT_FORMATS[key]
        return WeightFormat(key, routed, other)
    bits = Fraction(DTYPE_BITS[key])
    return WeightFormat(key, bits, bits)


# ---- packed KV-cache formats below 8 bits (engine-specific) -----------------------------
# These are not plain number formats: each head vector of d numbers is stored as packed
# data plus its own scale bytes, so a size is per head, not per number, and they are kept
# apart from DTYPE_BITS (the widgets' dtype menu). Only formats a released engine offers
# are listed, each with the version whose source gives its layout.


@dataclass(frozen=True)
class PackedKVFormat:
    """A KV format that packs each head vector of d numbers into
    d * data_bits / 8 bytes (floored, as the engine computes it) plus scale bytes:
    `scale_bytes` fixed bytes per vector, plus one `group_scale_bytes` for every
    `group` numbers."""

    name: str
    data_bits: int
    scale_bytes: int
    group: int
    group_scale_bytes: int
    source: str

    def head_bytes(self, d: int) -> int:
        """Bytes one head vector of d numbers (a key or a value) takes."""
        groups = d // self.group if self.group else 0
        return d * self.data_bits // 8 + self.scale_bytes + groups * self.group_scale_bytes


# vLLM 0.33.0 vllm/config/cache.py CacheDType lists these (0.11.0 offers none below 8 bits:
# its CacheDType is auto, bfloat16, fp8, fp8_e4m3, fp8_e5m2, fp8_inc).
PACKED_KV_FORMATS: dict[str, PackedKVFormat] = {
    # nvfp4_kv_cache_full_dim(d) = d // 2 + d // 16: fp4 data and one fp8 scale per 16
    # numbers (0.33.0 utils/torch_utils.py; FlashInferBackend.customize_spec in
    # v1/attention/backends/flashinfer.py stores K and V as two such slots per KV head).
    "nvfp4": PackedKVFormat("nvfp4", 4, 0, 16, 1, "vLLM 0.33 FlashInfer, fp4 + fp8 scale per 16"),
    # the same layout, scales chosen between max/6 and max/4 (0.33.0 config/cache.py)
    "nvfp4_4over6": PackedKVFormat("nvfp4_4over6", 4, 0, 16, 1, "vLLM 0.33 FlashInfer, as nvfp4"),
    # two int4 per byte plus one float32 scale per head vector (0.33.0
    # v1/attention/backends/triton_attn.py TritonAttentionBackend.customize_spec)
    "int4_per_token_head": PackedKVFormat(
        "int4_per_token_head", 4, 4, 0, 0, "vLLM 0.33 Triton, int4 + fp32 scale per head"
    ),
    # the 8-bit per-token-head formats, same rule: d bytes + one float32 scale
    "int8_per_token_head": PackedKVFormat(
        "int8_per_token_head", 8, 4, 0, 0, "vLLM 0.33 Triton, int8 + fp32 scale per head"
    ),
    "fp8_per_token_head": PackedKVFormat(
        "fp8_per_token_head", 8, 4, 0, 0, "vLLM 0.33 Triton, fp8 + fp32 scale per head"
    ),
}
