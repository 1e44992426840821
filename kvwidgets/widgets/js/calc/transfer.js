// core/transfer.py: one conversation's cache moved from a prefill GPU to a decode GPU over
// a link, set against prefilling it again and against one decode step.

import { decodeCeiling, prefillSeconds } from "./decode.js";
import { checkInt, KVInputError } from "./errors.js";
import { exactDouble } from "./exact.js";
import { kvBytes } from "./model.js";

/**
 * core.transfer.get_link on the synced table (name -> label, gbps, source): names are
 * matched as the core matches them, trimmed and lower-cased.
 * @param {Record<string, {label: string, gbps: number, source: string}>} links
 * @param {string} name
 */
export function getLink(links, name) {
  const key = String(name).trim().toLowerCase();
  const found = links[key];
  if (!found) throw new KVInputError(`unknown link '${name}'. Known links: ${Object.keys(links).sort().join(", ")}.`);
  return { name: key, ...found };
}

/** data.measured.interpolate_log: rows[key] at `tokens`, straight between measured points
 *  on log-log axes; null outside the measured range (never extrapolated).
 * @param {Array<Record<string, number>>} rows
 * @param {number} tokens
 */
export function interpolateLog(rows, tokens, key = "seconds") {
  for (const r of rows) if (r.tokens === tokens) return r[key];
  for (let i = 0; i + 1 < rows.length; i++) {
    const a = rows[i];
    const b = rows[i + 1];
    if (a.tokens < tokens && tokens < b.tokens) {
      const f = (Math.log(tokens) - Math.log(a.tokens)) / (Math.log(b.tokens) - Math.log(a.tokens));
      return Math.exp(Math.log(a[key]) + f * (Math.log(b[key]) - Math.log(a[key])));
    }
  }
  return null;
}

/**
 * core.transfer.cache_transfer, in its order of checks (so the first bad input gives the
 * core's message). Each of the `tp` ranks sends its own share over its own link, the ranks
 * in parallel: the time is one rank's bytes over one link.
 * @param {any} shape Model.shape()
 * @param {any} gpu a GPU row
 * @param {number} context
 * @param {{name: string, label: string, gbps: number, source: string}} link
 * @param {{tp: number, kvBits: number, weightBits: any, params?: number,
 *   measured?: {models: string[], gpu: string, rows: Array<{tokens: number, seconds: number}>}}} o
 */
export function cacheTransfer(shape, gpu, context, link, o) {
  context = checkInt("context", context, 1);
  const tp = checkInt("tp", o.tp, 1);
  const perRank = kvBytes(shape, context, o.kvBits, tp);
  const step = decodeCeiling(shape, gpu, context, 1, { numGpus: tp, params: o.params, weightBits: o.weightBits, kvBits: o.kvBits });
  const oneCopy = kvBytes(shape, context, o.kvBits, 1);
  const seconds = exactDouble("kv per rank", perRank) / (link.gbps * 1e9);
  const prefill = prefillSeconds(shape, gpu, context, o.params, tp);
  // measured for one shape on one GPU, unsplit (data.measured H200_PREFILL_*)
  const m = o.measured;
  const measured = m && tp === 1 && gpu.name === m.gpu && m.models.includes(shape.name) ? interpolateLog(m.rows, context) : null;
  return {
    context,
    tp,
    link,
    bytes_per_rank: perRank,
    bytes_all_ranks: perRank * BigInt(tp),
    bytes_one_copy: oneCopy,
    seconds,
    prefill_seconds: prefill,
    decode_step_seconds: step.step_s,
    measured_prefill_seconds: measured,
    vs_prefill: seconds / prefill,
    vs_decode_step: seconds / step.step_s,
  };
}
