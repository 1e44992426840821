// core/dtypes.py: bits per number of a dtype name, with the core's unknown-name message.

import { KVInputError } from "./errors.js";

/**
 * @param {Record<string, number>} dtypes
 * @param {string} name
 */
export function dtypeBits(dtypes, name, field = "kv_dtype") {
  const bits = dtypes[name];
  if (bits === undefined) {
    throw new KVInputError(`unknown ${field} '${name}'. Known ${field}s: ${Object.keys(dtypes).sort().join(", ")}.`);
  }
  return bits;
}
