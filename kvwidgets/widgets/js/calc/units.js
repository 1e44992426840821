// core/units.py: bytes and token counts as the core writes them.
//
// Python's format() rounds the exact binary value of a float half to even (2.675 is
// 2.67499999... and prints 2.67; 1.125 is exact and prints 1.12); toLocaleString rounds
// its shortest decimal half up (2.68, 1.13). fixed() therefore rounds with BigInt on the
// double's exact value, so every number printed here is the one Python prints.

/** @type {Record<string, number>} bytes in one of each unit */
export const SCALE = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };

/**
 * A finite double as Python's f"{x:,.{digits}f}" writes it: thousands commas, `digits`
 * decimals, the exact value rounded half to even, the sign kept on a negative zero.
 * @param {number} x
 * @param {number} digits
 * @returns {string}
 */
export function fixed(x, digits) {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x}`);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  if (biased !== 0) mantissa |= 1n << 52n;
  const exponent = (biased === 0 ? 1 : biased) - 1075; // |x| = mantissa * 2^exponent
  let num = mantissa * 10n ** BigInt(digits);
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  let q = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  const text = q.toString().padStart(digits + 1, "0");
  const whole = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = high >>> 31 ? "-" : "";
  return digits > 0 ? `${sign}${whole}.${text.slice(text.length - digits)}` : `${sign}${whole}`;
}

/**
 * core.units.fmt_bytes: binary KiB below 1 MiB, decimal MB/GB/TB above (exact for
 * counts below 2^53, where Number(n) / scale is Python's n / scale).
 * @param {number | bigint} n
 * @param {string | null} [unit]
 * @param {number} [digits]
 */
export function fmtBytes(n, unit = null, digits = 2) {
  const x = Number(n);
  const a = Math.abs(x);
  if (unit === null) unit = a < 1024 ? "B" : a < 1024 ** 2 ? "KiB" : a < 1e9 ? "MB" : a < 1e12 ? "GB" : "TB";
  const v = x / SCALE[unit];
  return `${fixed(v, unit === "B" || Number.isInteger(v) ? 0 : digits)} ${unit}`;
}

/**
 * core.units.fmt_tokens: 8192 -> 8K, 1048576 -> 1M, 8000 -> 8,000.
 * @param {number | bigint} n
 */
export function fmtTokens(n) {
  n = Number(n);
  if (n >= 1048576 && n % 1048576 === 0) return `${n / 1048576}M`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024}K`;
  return n.toLocaleString("en-US");
}

/**
 * A count of conversations in words, the one word the widgets use: "1 conversation",
 * "52 conversations".
 * @param {number | bigint} n
 */
export function fmtConversations(n) {
  n = Number(n);
  return `${n.toLocaleString("en-US")} conversation${n === 1 ? "" : "s"}`;
}

/**
 * A byte count in GB as Python's f"{n / 1e9:,.{digits}f}" writes it (core.budget.Fit.message).
 * @param {number | bigint} n
 * @param {number} digits
 */
export function fmtGB(n, digits) {
  return fixed(Number(n) / 1e9, digits);
}
