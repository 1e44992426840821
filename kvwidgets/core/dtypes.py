"""Number formats and their sizes.

Weight dtype and KV-cache dtype are always separate arguments: an FP8-quantized model
still stores a 16-bit cache unless the engine is told otherwise (vLLM's
--kv-cache-dtype), and a 16-bit model can run an FP8 cache.
"""

from __future__ import annotations

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
