"""Parameter counts read from checkpoint files on disk (standard library only).

A safetensors file starts with an 8-byte little-endian header length and a JSON header
listing every tensor's dtype and shape, so its exact parameter count costs one small
read. A sharded checkpoint's model.safetensors.index.json only gives total_size in
bytes; dividing by the bytes of the dominant dtype is an approximation (quantized
checkpoints mix dtypes), and the source string says so.
"""

from __future__ import annotations

import json
import math
import struct
from fractions import Fraction
from pathlib import Path

from ..core.dtypes import dtype_bytes, weight_format
from ..core.errors import ModelSourceError

MAX_HEADER = 100_000_000  # a header larger than this is not a safetensors file


def safetensors_params(path: str | Path) -> dict[str, int]:
    """Parameters per dtype in one .safetensors file (exact, from its header)."""
    path = Path(path)
    with path.open("rb") as f:
        raw = f.read(8)
        if len(raw) != 8:
            raise ModelSourceError(f"{path} is too short to be a safetensors file")
        (size,) = struct.unpack("<Q", raw)
        if size > MAX_HEADER:
            raise ModelSourceError(f"{path}: safetensors header length {size} is implausible")
        header = json.loads(f.read(size))
    counts: dict[str, int] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        counts[info["dtype"]] = counts.get(info["dtype"], 0) + math.prod(info["shape"])
    return counts


def index_params(path: str | Path, weight_dtype: str) -> tuple[int, str] | None:
    """(approximate params, how) from a model.safetensors.index.json's total_size.

    None for a mixed weight format (mxfp4), whose total_size cannot be split into parameters.
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    total = data.get("metadata", {}).get("total_size")
    if not isinstance(total, int) or total <= 0:
        raise ModelSourceError(f"{path}: no metadata.total_size in the safetensors index")
    if weight_format(weight_dtype, "weight_dtype").mixed:
        # total_size mixes two formats whose split is not in the index: no honest count.
        return None
    per = dtype_bytes(weight_dtype, "weight_dtype")
    params = int(Fraction(total) / per)
    return params, (
        f"APPROXIMATE: total_size {total:,} B in {Path(path).name} / {per} B per parameter "
        f"({weight_dtype}, the dominant dtype); mixed-dtype checkpoints make this inexact"
    )
