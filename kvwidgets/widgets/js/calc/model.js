// core/model.py: a model's cache per sequence and per token, its weights, and the limits its
// numbers can silently pass (limitLines).

import { KVInputError, checkInt } from "./errors.js";
import { big, ceilDiv, exactDouble, floorDiv } from "./exact.js";
import { groupBits, groupsBytesPerToken, grows } from "./layers.js";
import { fmtBytes } from "./units.js";

/** @import { ModelShape, LayerGroup } from "../shapes" */

/**
 * Bytes one sequence of `tokens` tokens holds on one GPU (windows capped, state added).
 * @param {Pick<ModelShape, "groups">} shape
 * @param {number} tokens
 * @param {number} bits
 */
export function kvBytes(shape, tokens, bits, tp = 1) {
  tokens = checkInt("context", tokens, 0);
  let total = 0n;
  for (const g of shape.groups) total += groupBits(g, tokens, bits, tp);
  return ceilDiv(total, 8n);
}

/**
 * Bytes each extra token adds once the conversation is longer than every window.
 * @param {Pick<ModelShape, "groups">} shape
 * @param {number} bits
 */
export function kvBytesPerToken(shape, bits, tp = 1) {
  return groupsBytesPerToken(shape.groups, bits, tp, (g) => g.cap === null || g.cap === undefined);
}

/** core.model.Model.kv_bytes_per_token_within_windows: every growing layer counted, caps
 *  ignored (what a token adds while the conversation is shorter than every window).
 * @param {Pick<ModelShape, "groups">} shape
 * @param {number} bits
 */
export function kvBytesPerTokenWithinWindows(shape, bits, tp = 1) {
  return groupsBytesPerToken(shape.groups, bits, tp, grows);
}

/**
 * kvBytes split by layer kind, in the order the kinds first appear.
 * @param {ModelShape} shape
 * @param {number} tokens
 * @param {number} bits
 */
export function bytesByKind(shape, tokens, bits, tp = 1) {
  tokens = checkInt("context", tokens, 0);
  /** @type {Record<string, bigint>} */
  const out = {};
  for (const g of shape.groups) out[g.kind] = (out[g.kind] || 0n) + groupBits(g, tokens, bits, tp);
  for (const k of Object.keys(out)) out[k] = ceilDiv(out[k], 8n);
  return out;
}

/**
 * @param {number | bigint} params
 * @param {number} bits
 */
export function weightBytes(params, bits) {
  return ceilDiv(big(params) * BigInt(bits), 8n);
}

/**
 * @typedef {{ name: string, routed: [number, number], other: [number, number] }} MixedFormat
 * A weight format as the widgets pass it: bits per parameter (a plain dtype) or a mixed
 * format such as mxfp4, whose routed experts and other parameters take different bits,
 * each a fraction [p, q] (core.dtypes.WeightFormat).
 * @typedef {number | MixedFormat} WeightFormat
 */

/**
 * Routed-expert parameters a mixed format applies to; a model without any is an error,
 * as in core.model.Model.weight_format.
 * @param {any} shape
 * @param {bigint | number} p
 * @param {MixedFormat} wb
 */
function routedParams(shape, p, wb) {
  const routed = shape.moe ? BigInt(Math.min(shape.moe.routed_params, Number(p))) : 0n;
  if (!routed) {
    const [rp, rq] = wb.routed;
    const [op, oq] = wb.other;
    throw new KVInputError(`weight_dtype '${wb.name}' stores the routed experts of a mixture of experts in ${rp / rq} bits and every other weight in ${op / oq}; ${shape.name} has no routed experts, so pick one format for all weights (for example 'int4' or 'fp8')`);
  }
  return routed;
}

/**
 * core.model.Model.weight_bytes: whole bytes, each part in its own format.
 * @param {any} shape
 * @param {number | bigint | undefined} params
 * @param {WeightFormat} wb
 */
export function modelWeightBytes(shape, params, wb) {
  const p = big(params ?? shape.params);
  if (typeof wb === "number") return weightBytes(p, wb);
  const routed = routedParams(shape, p, wb);
  const [rp, rq] = wb.routed.map(BigInt);
  const [op, oq] = wb.other.map(BigInt);
  return ceilDiv(routed * rp * oq + (p - routed) * op * rq, rq * oq * 8n);
}

/**
 * core.model.Model.decode_weight_bytes: weight bytes a decode step reads, same operation order.
 * @param {any} shape
 * @param {number} batch
 * @param {number | bigint | undefined} params
 * @param {WeightFormat} wb
 */
export function decodeWeightBytes(shape, batch, params, wb) {
  const read = decodeWeightParams(shape, batch, params);
  if (typeof wb === "number") return read * wb / 8;
  const p = exactDouble("params", big(params ?? shape.params));
  const shared = p - Number(routedParams(shape, p, wb));
  return shared * (wb.other[0] / wb.other[1]) / 8 + (read - shared) * (wb.routed[0] / wb.routed[1]) / 8;
}

/**
 * Parameters one decode step of `batch` sequences reads, as core.model.Model.decode_weight_params:
 * total minus the routed experts no sequence picked, (1 - k/E)^batch of them, the power
 * taken by the same plain loop so the doubles match bit for bit.
 * @param {ModelShape} shape
 * @param {number} batch
 * @param {number | bigint | undefined} params
 */
export function decodeWeightParams(shape, batch, params) {
  const p = exactDouble("params", big(params ?? shape.params));
  if (!shape.moe) return p;
  const routed = Math.min(shape.moe.routed_params, p);
  const miss = 1 - shape.moe.per_token / shape.moe.experts;
  let untouched = 1.0;
  for (let i = 0; i < batch; i++) untouched *= miss;
  return p - routed * untouched;
}

/**
 * core.model.Model.active_params: what one token computes with (a MoE skips most experts).
 * @param {ModelShape} shape
 * @param {number | bigint | undefined} params
 */
export function activeParams(shape, params) {
  const p = big(params ?? shape.params);
  if (!shape.moe || !shape.moe.experts) return p;
  let routed = big(shape.moe.routed_params);
  if (routed > p) routed = p;
  if (routed === 0n) return p;
  const E = BigInt(shape.moe.experts);
  return p - floorDiv(routed * (E - BigInt(shape.moe.per_token)), E);
}

/**
 * PerTokenBytes' two readouts. A model with windows has two per-token costs: while the
 * conversation is shorter than every window each layer adds its K and V; past every
 * window only the uncapped layers do (0 for a sliding-everywhere model, so "0 B" alone
 * would mislead). The query-heads mistake is measured while windows fill, where it bites.
 * @param {ModelShape} shape
 * @param {number} bits
 */
export function perTokenReadouts(shape, bits) {
  const n = (/** @type {bigint} */ x) => Number(x).toLocaleString("en-US");
  const both = (/** @type {bigint} */ x) => (x < 1024n ? fmtBytes(x) : `${fmtBytes(x)} (${n(x)} B)`); // "0 B", not "0 B (0 B)"
  const past = kvBytesPerToken(shape, bits);
  const within = kvBytesPerTokenWithinWindows(shape, bits);
  const capped = shape.groups.some((/** @type {LayerGroup} */ g) => g.cap !== null && g.cap !== undefined && grows(g));
  const bytesPerToken = capped && within !== past
    ? `while the window fills: ${both(within)}; past every window: ${both(past)}`
    : both(past);
  let mha = "n/a (query heads not known)";
  if (shape.mha_groups) {
    const wrong = kvBytesPerTokenWithinWindows({ groups: shape.mha_groups }, bits);
    const ratio = within > 0n ? `${(Number(wrong) / Number(within)).toLocaleString("en-US", { maximumFractionDigits: 1 })}x too much` : "no per-token cost to compare";
    mha = `${fmtBytes(wrong)} (${ratio})`;
  }
  return { bytes_per_token: bytesPerToken, mha_bytes_per_token: mha, past, within };
}

/**
 * Limits a number can silently pass, as warning lines (cls kv-warn) for a widget's text:
 * a context longer than the model was trained for (max_position_embeddings), a window at
 * least as long as that maximum (nothing ever slides, so every token costs its full bytes),
 * the engines' notes on the architecture (configs/engine_support.py), and a parameter count
 * the loader estimated (when the weights matter and no override is set). Each line's `kind`
 * names its rule (the golden vectors check which rules fire against kvwidgets.core).
 * @param {ModelShape} shape
 * @param {{ context?: number | null, weights?: boolean, params?: number | bigint }} [options]
 */
export function limitLines(shape, { context = null, weights = false, params = undefined } = {}) {
  const n = (/** @type {number | bigint | undefined} */ x) => Number(x).toLocaleString("en-US");
  const out = [];
  const max = shape.max_context;
  if (max && context !== null && context > max) {
    out.push({ text: `${n(context)} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${n(max)}): the numbers hold for the memory, not for the model's quality.`, cls: "kv-warn", kind: "past_max_context" });
  }
  if (max) {
    const never = shape.groups.filter((/** @type {LayerGroup} */ g) => g.cap !== null && g.cap !== undefined && g.cap > 0 && g.kv_heads !== undefined && g.cap >= max);
    if (never.length) {
      out.push({ text: `A window of ${n(never[0].cap)} tokens is at least ${shape.name}'s maximum context (${n(max)}): nothing ever slides out, so every token costs its full bytes in those layers.`, cls: "kv-warn", kind: "window_never_slides" });
    }
  }
  for (const note of shape.engine_notes || []) out.push({ text: note, cls: "kv-warn", kind: "engine_note" });
  if (weights && shape.params_estimated && !params) {
    out.push({ text: `${shape.name}'s parameter count (${(Number(shape.params) / 1e9).toLocaleString("en-US", { maximumFractionDigits: 2 })} B) is an estimate from its config; set Params to a published count if you have one.`, cls: "kv-warn", kind: "params_estimated" });
  }
  return out;
}
