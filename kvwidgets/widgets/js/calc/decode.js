// core/decode.py: the bandwidth ceiling of one decode step and the prefill floor.

import { usersThatFit } from "./budget.js";
import { checkInt } from "./errors.js";
import { exactDouble } from "./exact.js";
import { activeParams, decodeWeightBytes, kvBytes, modelWeightBytes } from "./model.js";

/** @import { ModelShape, GpuRow } from "../shapes" */
/** @import { BudgetOptions } from "./budget.js" */

/** @typedef {Omit<BudgetOptions, "utilization"> & { utilization?: number }} DecodeOptions the budget's options; utilization only where the batch must fit */

/**
 * Bandwidth ceiling of one decode step, same operation order as core.decode.decode_ceiling.
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {number} context
 * @param {number} batch
 * @param {DecodeOptions} o
 */
export function decodeCeiling(shape, gpu, context, batch, o) {
  context = checkInt("context", context, 1);
  batch = checkInt("batch", batch, 1);
  const n = checkInt("num_gpus", o.numGpus, 1);
  const bw = gpu.bandwidth_gbps;
  const allWeights = exactDouble("weights", modelWeightBytes(shape, o.params, o.weightBits)) / n;
  // A mixture of experts reads only the experts its batch routed to (Model.decode_weight_params).
  const weights = shape.moe ? decodeWeightBytes(shape, batch, o.params, o.weightBits) / n : allWeights;
  const kvSeq = exactDouble("kv per sequence", kvBytes(shape, context, o.kvBits, n));
  const kv = exactDouble("kv per step", BigInt(batch) * BigInt(kvSeq));
  const step = (weights + kv) / (bw * 1e9);
  return {
    context,
    batch,
    num_gpus: n,
    gpu: gpu.name,
    bandwidth_gbps: bw,
    weight_bytes_per_step: weights,
    kv_bytes_per_step: kv,
    step_s: step,
    tokens_per_s_per_user: 1 / step,
    tokens_per_s_total: batch / step,
    kv_share: kv / (weights + kv),
    // against all the weights: a batch large enough to rival them touches every expert
    crossover_batch: kvSeq > 0 ? Math.floor(allWeights / kvSeq) + 1 : null,
  };
}

/**
 * Whether `batch` sequences of `context` tokens can be held at once: the same arithmetic as
 * core.budget.users_that_fit (kvwidgets/widgets/decode_speed.py calls it with the
 * engine's default utilization 0.9). max_batch is the users that fit at this context.
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {number} context
 * @param {number} batch
 * @param {DecodeOptions} o
 */
export function decodeFits(shape, gpu, context, batch, o) {
  batch = checkInt("batch", batch, 1);
  const f = usersThatFit(shape, gpu, context, { ...o, utilization: o.utilization ?? 0.9 });
  return { fits: BigInt(batch) <= f.users, max_batch: f.users };
}

/**
 * core.decode.prefill_seconds: 2 x active params x tokens / dense BF16 FLOPS (an ideal floor).
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {number} tokens
 * @param {number | bigint | undefined} params
 */
export function prefillSeconds(shape, gpu, tokens, params, numGpus = 1) {
  tokens = checkInt("tokens", tokens, 1);
  const n = checkInt("num_gpus", numGpus, 1);
  return Number(2n * activeParams(shape, params) * BigInt(tokens)) / (gpu.bf16_tflops * 1e12 * n);
}
