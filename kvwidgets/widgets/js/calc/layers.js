// core/layers.py: what one layer group stores per token and per sequence.

import { KVInputError, checkInt } from "./errors.js";
import { ceilDiv } from "./exact.js";

/** @import { CompressedGroup, LayerGroup } from "../shapes" */

/**
 * @param {number} kvHeads
 * @param {number} tp
 */
export function kvHeadsPerGpu(kvHeads, tp) {
  tp = checkInt("num_gpus", tp, 1);
  if (tp <= kvHeads) {
    if (kvHeads % tp) {
      throw new KVInputError(
        `num_gpus=${tp} does not divide num_key_value_heads=${kvHeads}; ` +
        "tensor parallelism needs the KV heads split evenly (try a divisor of the KV heads)");
    }
    return kvHeads / tp;
  }
  if (tp % kvHeads) {
    throw new KVInputError(
      `num_gpus=${tp} is not a multiple of num_key_value_heads=${kvHeads}; ` +
      "with more GPUs than KV heads each head must be copied to a whole number of GPUs");
  }
  return 1; // each GPU keeps a full copy of one head
}

/**
 * @param {LayerGroup} group
 * @param {number} tp
 */
export function numbersPerToken(group, tp) {
  if (group.kv_heads !== undefined) {
    return kvHeadsPerGpu(group.kv_heads, tp) * (group.head_k + group.head_v);
  }
  checkInt("num_gpus", tp, 1);
  if (group.latent !== undefined) return group.latent; // MLA: whole latent on every GPU
  return 0; // recurrent state: no per-token numbers
}

/** core.layers: bits one stored token takes (numbers at the KV dtype, plus a part kept in
 *  its own fixed format whatever the dtype: MLASpec.index_bytes, DeepSeek-V3.2's indexer).
 * @param {LayerGroup} group
 * @param {number} bits
 * @param {number} tp
 */
export function tokenBits(group, bits, tp) {
  const [num, den] = tokenBitsFraction(group, bits, tp);
  if (den !== 1n) throw new KVInputError(`a ${group.kind} layer adds a fraction of a bit per token: use tokenBitsFraction`);
  return num;
}

/**
 * core.layers.CompressedMLASpec: a DeepSeek-V4 layer, whose parts are all in fixed packed
 * formats (group.ratio is set only for it).
 * @param {LayerGroup} group
 * @returns {group is CompressedGroup}
 */
function isCompressed(group) {
  return group.ratio !== undefined;
}

/**
 * Bits one stored token takes as [numerator, denominator] (BigInt): a whole number for
 * every kind but a compressed layer, which adds (entry + indexer) bits per `ratio` tokens
 * for good (CompressedMLASpec.token_bits, a Fraction there too; 0 with ratio 1).
 * @param {LayerGroup} group
 * @param {number} bits
 * @param {number} tp
 * @returns {[bigint, bigint]}
 */
export function tokenBitsFraction(group, bits, tp) {
  if (isCompressed(group)) {
    checkInt("num_gpus", tp, 1);
    if (group.ratio === 1) return [0n, 1n]; // only its window: bounded, counted in groupBits
    return [BigInt(group.entry_bytes + (group.index_bytes || 0)) * 8n, BigInt(group.ratio)];
  }
  return [BigInt(numbersPerToken(group, tp)) * BigInt(bits) + BigInt(group.index_bytes || 0) * 8n, 1n];
}

/** count x bits per token of each picked group, summed exactly and rounded up to whole
 *  bytes once (core.model.Model._whole_bytes on Fractions).
 * @param {any[]} groups
 * @param {number} bits
 * @param {number} tp
 * @param {(g: any) => boolean} [pick] */
export function groupsBytesPerToken(groups, bits, tp, pick = (g) => g !== undefined) {
  let num = 0n;
  let den = 1n;
  for (const g of groups) {
    if (!pick(g)) continue;
    const [n, d] = tokenBitsFraction(g, bits, tp);
    num = num * d + BigInt(g.count) * n * den;
    den *= d;
  }
  return ceilDiv(num, 8n * den);
}

/** core.layers.LayerSpec.grows: cap 0 means the layer never grows with the context
 *  (recurrent state; cross-attention, which holds a fixed count of image tokens).
 * @param {LayerGroup} group
 */
export function grows(group) {
  return group.cap !== 0;
}

/**
 * @param {LayerGroup} group
 * @param {number} tokens
 */
export function tokensHeld(group, tokens) {
  if (group.fixed_tokens !== undefined && group.fixed_tokens !== null) return group.fixed_tokens; // CrossAttentionSpec
  return group.cap === null || group.cap === undefined ? tokens : Math.min(tokens, group.cap);
}

/**
 * @param {LayerGroup} group
 * @param {number} tp
 */
export function fixedBytes(group, tp) {
  // core.layers.RecurrentStateSpec.fixed_bytes: math.ceil(state / tp) on doubles.
  const f = group.fixed_bytes || 0;
  return f ? Math.ceil(f / tp) : 0;
}

/**
 * CompressedMLASpec.bits_held: the window's latents, one entry (and indexer key) per whole
 * group of `ratio` tokens, and the compressor state over its own window.
 * @param {CompressedGroup} group
 * @param {number} tokens
 * @param {number} tp
 */
function compressedBits(group, tokens, tp) {
  checkInt("num_gpus", tp, 1);
  const entry = BigInt(group.entry_bytes);
  const window = BigInt(Math.min(tokens, group.window)) * entry;
  const entries = group.ratio > 1 ? BigInt(Math.floor(tokens / group.ratio)) : 0n;
  const compressed = entries * (entry + BigInt(group.index_bytes || 0));
  const state = BigInt(Math.min(tokens, group.state_window || 0)) * BigInt(group.state_token_bytes || 0);
  return (window + compressed + state) * 8n;
}

/**
 * @param {LayerGroup} group
 * @param {number} tokens
 * @param {number} bits
 * @param {number} tp
 */
export function groupBits(group, tokens, bits, tp) {
  if (isCompressed(group)) return BigInt(group.count) * compressedBits(group, tokens, tp);
  const held = BigInt(tokensHeld(group, tokens));
  const perToken = tokenBits(group, bits, tp);
  return BigInt(group.count) * (held * perToken + BigInt(fixedBytes(group, tp)) * 8n);
}

/**
 * Bytes per token of one layer group (one GPU), for the formula lines.
 * @param {LayerGroup} group
 * @param {number} bits
 */
export function groupBytesPerToken(group, bits, tp = 1) {
  return groupsBytesPerToken([group], bits, tp);
}
