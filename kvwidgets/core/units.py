"""Units, following the series' conventions: GB = 10^9 bytes, KiB/MiB/GiB = powers of 1,024.

The seeds write "KB" for 1,024 bytes (as in "128 KB per token"); we print KiB so a
reader never has to guess which one is meant.
"""

from __future__ import annotations

KB = 1_000
MB = 1_000_000
GB = 1_000_000_000
TB = 1_000_000_000_000
KiB = 1024
MiB = 1024**2
GiB = 1024**3
K = 1024  # "8K context" means 8,192 tokens in the UI's context ticks


def fmt_bytes(n: float, unit: str | None = None, digits: int = 2) -> str:
    """Human-readable bytes. Decimal GB for memory totals, binary KiB for per-token sizes.

    unit may force one of "B", "KiB", "MiB", "GiB", "KB", "MB", "GB", "TB".
    Without it: below 1 MiB use KiB, otherwise decimal GB/MB.
    """
    scale = {"B": 1, "KiB": KiB, "MiB": MiB, "GiB": GiB, "KB": KB, "MB": MB, "GB": GB, "TB": TB}
    if unit is None:
        if abs(n) < KiB:
            unit = "B"
        elif abs(n) < MiB:
            unit = "KiB"
        elif abs(n) < GB:
            unit = "MB"
        elif abs(n) < TB:
            unit = "GB"
        else:
            unit = "TB"
    value = n / scale[unit]
    if unit == "B" or float(value).is_integer():
        return f"{value:,.0f} {unit}"
    return f"{value:,.{digits}f} {unit}"


def fmt_tokens(n: int) -> str:
    """8192 -> '8K', 131072 -> '128K', 1048576 -> '1M', 8000 -> '8,000'."""
    if n >= MiB and n % MiB == 0:
        return f"{n // MiB}M"
    if n >= K and n % K == 0:
        return f"{n // K}K"
    return f"{n:,}"
