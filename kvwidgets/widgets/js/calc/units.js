// core/units.py: bytes and token counts as the core writes them.

export const SCALE = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };

/** core.units.fmt_bytes: binary KiB below 1 MiB, decimal MB/GB/TB above. */
export function fmtBytes(n, unit = null, digits = 2) {
  n = Number(n);
  const a = Math.abs(n);
  if (unit === null) unit = a < 1024 ? "B" : a < 1024 ** 2 ? "KiB" : a < 1e9 ? "MB" : a < 1e12 ? "GB" : "TB";
  const v = n / SCALE[unit];
  const opts = unit === "B" || Number.isInteger(v)
    ? { maximumFractionDigits: 0 }
    : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return `${v.toLocaleString("en-US", opts)} ${unit}`;
}

/** core.units.fmt_tokens: 8192 -> 8K, 1048576 -> 1M, 8000 -> 8,000. */
export function fmtTokens(n) {
  n = Number(n);
  if (n >= 1048576 && n % 1048576 === 0) return `${n / 1048576}M`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024}K`;
  return n.toLocaleString("en-US");
}

/** A byte count in GB with `digits` decimals and thousands commas, as Python's
 *  f"{n / 1e9:,.{digits}f}" writes it (core.budget.Fit.message). */
export function fmtGB(n, digits) {
  return (Number(n) / 1e9).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
