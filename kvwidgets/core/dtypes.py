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
