// core/offload.py: reloading a cache from a storage tier against recomputing it.

import { prefillSeconds } from "./decode.js";
import { KVInputError } from "./errors.js";
import { exactDouble } from "./exact.js";
import { kvBytes } from "./model.js";

/** @import { ModelShape, GpuRow, StorageTier } from "../shapes" */

/**
 * core.offload.tier_gbps
 * @param {StorageTier} tier
 */
export function tierGbps(tier, speed = "typical") {
  const v = { low: tier.low_gbps, typical: tier.typical_gbps, high: tier.high_gbps }[speed];
  if (v === undefined) throw new KVInputError(`speed must be 'low', 'typical' or 'high', got '${speed}'`);
  return v;
}

/**
 * core.offload.reload_seconds: one conversation's cache copied back at `gbps`.
 * @param {ModelShape} shape
 * @param {number} tokens
 * @param {number} bits
 * @param {number} gbps
 */
export function reloadSeconds(shape, tokens, bits, gbps) {
  return exactDouble("kv per sequence", kvBytes(shape, tokens, bits)) / (gbps * 1e9);
}

/** core.offload.context_grid */
export function contextGrid(lo = 1024, hi = 1048576, perDoubling = 4) {
  const out = [];
  for (let i = 0; ; i++) {
    const t = Math.min(hi, Math.round(lo * 2 ** (i / perDoubling)));
    if (!out.length || t > out[out.length - 1]) out.push(t);
    if (t >= hi) return out;
  }
}

/** core.offload.recompute_crossover: first context where the faster of reload and ideal
 *  recompute changes (null: it never does in [lo, hi]).
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {StorageTier} tier
 * @param {number} bits
 * @param {string} [speed] which end of the tier's copy speeds
 * @param {number | bigint} [params] the parameter count (the model's own when left out)
 * @param {number} [lo]
 * @param {number} [hi]
 */
export function recomputeCrossover(shape, gpu, tier, bits, speed = "typical", params = undefined, lo = 1024, hi = 1048576) {
  const gbps = tierGbps(tier, speed);
  const reloadFirst = (/** @type {number} */ t) => reloadSeconds(shape, t, bits, gbps) < prefillSeconds(shape, gpu, t, params);
  const grid = contextGrid(lo, hi);
  const start = reloadFirst(grid[0]);
  let prev = grid[0];
  for (const t of grid.slice(1)) {
    if (reloadFirst(t) !== start) {
      let a = prev;
      let b = t;
      while (b - a > 1) {
        const mid = Math.floor((a + b) / 2);
        if (reloadFirst(mid) === start) a = mid;
        else b = mid;
      }
      return b;
    }
    prev = t;
  }
  return null;
}
