// Exact integer arithmetic on BigInt, as Python's int does it (floor division, ceilings), and
// the one safe way from a BigInt to a double.

import { KVInputError } from "./errors.js";

/**
 * @param {number | bigint | string} x a whole number
 * @returns {bigint}
 */
export function big(x) {
  return typeof x === "bigint" ? x : BigInt(x);
}

/**
 * @param {bigint} a
 * @param {bigint} b
 * @returns {bigint}
 */
export function floorDiv(a, b) {
  // BigInt division truncates toward zero; Python's // and math.floor round down.
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/**
 * @param {bigint} a
 * @param {bigint} b
 * @returns {bigint}
 */
export function ceilDiv(a, b) {
  return -floorDiv(-a, b);
}

/**
 * @param {string} what
 * @param {bigint} x
 * @returns {number}
 */
export function exactDouble(what, x) {
  // Below 2^53 a BigInt converts to a double exactly, as Python's int -> float does.
  if (x > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new KVInputError(`${what} = ${x} bytes is too large to evaluate exactly in the browser`);
  }
  return Number(x);
}
