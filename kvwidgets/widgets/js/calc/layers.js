// core/layers.py: what one layer group stores per token and per sequence.

import { KVInputError, checkInt } from "./errors.js";
import { ceilDiv } from "./exact.js";

/** @import { LayerGroup } from "../shapes" */

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
  return BigInt(numbersPerToken(group, tp)) * BigInt(bits) + BigInt(group.index_bytes || 0) * 8n;
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
 * @param {LayerGroup} group
 * @param {number} tokens
 * @param {number} bits
 * @param {number} tp
 */
export function groupBits(group, tokens, bits, tp) {
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
  return ceilDiv(BigInt(group.count) * tokenBits(group, bits, tp), 8n);
}
