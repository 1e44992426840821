// core/budget.py: the memory budget, conversations that fit, the longest context, and
// Fit.message (fitMessage).

import { KVInputError, checkInt } from "./errors.js";
import { big, floorDiv } from "./exact.js";
import { kvBytes, modelWeightBytes } from "./model.js";
import { fmtGB } from "./units.js";

/** @import { ModelShape, GpuRow } from "../shapes" */
/** @import { WeightFormat } from "./model.js" */

/**
 * The deployment and formats every budget takes (core.budget.memory_budget's keywords).
 * @typedef {object} BudgetOptions
 * @property {number} numGpus GPUs under tensor parallelism
 * @property {number} utilization share of GPU memory the engine may use, in (0, 1]
 * @property {number} [workingBytes] working area per GPU (activations, graphs), bytes
 * @property {string} [memory] 'marketed' GB or 'device'-reported bytes
 * @property {number | bigint} [params] parameter count for the weights (the model's own when left out)
 * @property {WeightFormat} weightBits the weights' format
 * @property {number} kvBits bits per number of the KV cache
 */

/** @typedef {ReturnType<typeof usersThatFit>} Fit core.budget.Fit, as usersThatFit returns it */

/**
 * A number's shortest decimal as an exact fraction {p, q}: 0.9 -> 9/10 (like Fraction(repr(x))).
 * @param {number | bigint} x
 */
export function decimalFraction(x) {
  const m = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(String(x));
  if (!m) throw new KVInputError(`utilization must be a number in (0, 1], got ${x}`);
  const frac = m[2] || "";
  let p = BigInt((m[1] || "0") + frac);
  let q = 10n ** BigInt(frac.length);
  const e = Number(m[3] || 0);
  if (e > 0) p *= 10n ** BigInt(e);
  if (e < 0) q *= 10n ** BigInt(-e);
  return { p, q };
}

/**
 * @param {number} u
 */
export function utilizationFraction(u) {
  if (typeof u !== "number" || !Number.isFinite(u) || !(u > 0 && u <= 1)) {
    throw new KVInputError(`utilization must be in (0, 1] (0.9 keeps 10% free), got ${u}`);
  }
  return decimalFraction(u);
}

/**
 * @param {GpuRow} gpu
 */
export function gpuMemory(gpu, which = "marketed") {
  if (which === "marketed") return big(gpu.memory_bytes);
  if (which === "device") {
    if (gpu.device_bytes === null || gpu.device_bytes === undefined) {
      throw new KVInputError(`memory='device': no device-reported memory is recorded for ${gpu.name}; use memory='marketed'`);
    }
    return big(gpu.device_bytes);
  }
  throw new KVInputError(`memory must be 'marketed' or 'device', got '${which}'`);
}

/**
 * core.budget.memory_budget. The per-GPU KV budget is the exact fraction num / (q * n):
 * num = mem * p * n - weights * q - working * q * n.
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {BudgetOptions} o
 */
export function memoryBudget(shape, gpu, o) {
  const n = checkInt("num_gpus", o.numGpus, 1);
  const { p, q } = utilizationFraction(o.utilization);
  const working = BigInt(checkInt("working_bytes", o.workingBytes || 0, 0));
  const mem = gpuMemory(gpu, o.memory || "marketed");
  const weights = modelWeightBytes(shape, o.params, o.weightBits);
  const N = BigInt(n);
  const num = mem * p * N - weights * q - working * q * N;
  const usable = floorDiv(mem * p * N, q);
  return {
    num_gpus: n,
    p, q, num, den: q * N,
    memory_bytes: mem * N,
    usable_bytes: usable,
    reserve_bytes: mem * N - usable,
    weights_bytes: weights,
    working_bytes: working * N,
    kv_budget_bytes: floorDiv(num, q),
  };
}

/**
 * core.budget.users_that_fit: conversations of `context` tokens that fit at once.
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {number} context
 * @param {BudgetOptions} o
 */
export function usersThatFit(shape, gpu, context, o) {
  context = checkInt("context", context, 1);
  const b = memoryBudget(shape, gpu, o);
  const perGpuUser = kvBytes(shape, context, o.kvBits, b.num_gpus);
  if (perGpuUser <= 0n) {
    throw new KVInputError(`context=${context} holds no KV bytes for ${shape.name}; users would be unbounded`);
  }
  let users = floorDiv(b.num, b.den * perGpuUser);
  if (users < 0n) users = 0n;
  const kvUser = perGpuUser * BigInt(b.num_gpus);
  const leftOver = b.kv_budget_bytes - users * kvUser;
  return {
    users,
    context,
    num_gpus: b.num_gpus,
    gpu: gpu.name,
    memory_bytes: b.memory_bytes,
    usable_bytes: b.usable_bytes,
    reserve_bytes: b.reserve_bytes,
    weights_bytes: b.weights_bytes,
    working_bytes: b.working_bytes,
    kv_budget_bytes: b.kv_budget_bytes,
    kv_per_user_bytes: kvUser,
    kv_used_bytes: users * kvUser,
    left_over_bytes: leftOver > 0n ? leftOver : 0n,
    weights_fit: b.kv_budget_bytes >= 0n,
    max_context: shape.max_context ?? null,  // the message says when context is past it
  };
}

/**
 * core.budget.max_context: longest context at which `users` conversations fit (0; null = no limit).
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {number} users
 * @param {BudgetOptions} o
 */
export function maxContext(shape, gpu, users, o, limit = 2 ** 40) {
  const count = BigInt(checkInt("users", users, 1));
  const b = memoryBudget(shape, gpu, o);
  const fits = (/** @type {number} */ t) => count * kvBytes(shape, t, o.kvBits, b.num_gpus) * b.den <= b.num;
  if (!fits(1)) return 0;
  if (fits(limit)) return null;
  let lo = 1;
  let hi = limit;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Users against context from lo to hi tokens as the points of a step line (Plotly
 * line.shape "hv": each y holds until the next x). Users only change at whole numbers,
 * so where a step is large enough to see (at most `exactBelow` users) every point is
 * exact: x is the first context at which the count drops (the core's max_context + 1).
 * Above that a 1-user step is under 1/exactBelow of the value, below a pixel on either
 * axis, and the line is sampled 32 times per doubling instead (hundreds of exact steps
 * there would cost a binary search each for nothing visible).
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {BudgetOptions} o
 */
export function usersStaircase(shape, gpu, o, lo = 1024, hi = 1048576, exactBelow = 256) {
  const b = memoryBudget(shape, gpu, o);
  const usersAt = (/** @type {number} */ t) => {
    const k = kvBytes(shape, t, o.kvBits, b.num_gpus);
    if (k <= 0n) throw new KVInputError(`context=${t} holds no KV bytes for ${shape.name}; users would be unbounded`);
    const u = floorDiv(b.num, b.den * k);
    return u < 0n ? 0n : u;
  };
  // Last context in [from, hi] at which `u` users still fit (they fit at `from`). Galloping
  // from `from` first: the next drop is usually near, so this takes about 2 log2(distance)
  // evaluations instead of log2(hi - from).
  const lastWith = (/** @type {bigint} */ u, /** @type {number} */ from) => {
    const fits = (/** @type {number} */ t) => u * kvBytes(shape, t, o.kvBits, b.num_gpus) * b.den <= b.num;
    let a = from;
    let z = hi + 1;
    for (let step = 1; a + step <= hi; step *= 2) {
      if (!fits(a + step)) {
        z = a + step;
        break;
      }
      a += step;
    }
    if (z > hi && fits(hi)) return hi;
    while (z - a > 1) {
      const mid = Math.floor((a + z) / 2);
      if (fits(mid)) a = mid;
      else z = mid;
    }
    return a;
  };
  /** @type {number[]} */
  const xs = [];
  /** @type {bigint[]} */
  const ys = [];
  const push = (/** @type {number} */ x, /** @type {bigint} */ u) => { xs.push(x); ys.push(u); };
  const uEnd = usersAt(hi);
  let c = lo;
  let u = usersAt(lo);
  let exactFrom = lo;
  if (u > BigInt(exactBelow)) {
    exactFrom = lastWith(BigInt(exactBelow) + 1n, lo) + 1;  // first context with <= exactBelow users
    for (let i = 0; c < Math.min(exactFrom, hi); i++) {
      push(c, usersAt(c));
      c = Math.round(lo * 2 ** ((i + 1) / 32));
    }
    c = Math.min(exactFrom, hi);
    u = usersAt(c);
  }
  push(c, u);
  while (u > uEnd && c < hi) {
    c = lastWith(u, c) + 1;
    u = usersAt(c);
    push(c, u);
  }
  if (xs[xs.length - 1] < hi) push(hi, uEnd);
  return { x: xs, users: ys, exactFrom };
}

/**
 * core.budget.Fit.message, word for word (the golden vectors check it).
 * @param {Fit} f
 */
export function fitMessage(f) {
  const n = (/** @type {number | bigint | null} */ x) => Number(x).toLocaleString("en-US");
  const past = f.max_context !== null && f.max_context !== undefined && Number(f.context) > Number(f.max_context);
  if (!f.weights_fit) {
    return `The weights (${fmtGB(f.weights_bytes, 1)} GB) do not fit in the usable ${fmtGB(f.usable_bytes, 1)} GB: the model does not even load.`;
  }
  if (f.users === 0n) {
    return `Loads but cannot serve: ${fmtGB(f.kv_budget_bytes, 2)} GB is left after the weights, less than one ` +
      `${n(f.context)}-token conversation needs (${fmtGB(f.kv_per_user_bytes, 2)} GB).` +
      (past ? ` ${n(f.context)} tokens is past this model's maximum of ${n(f.max_context)} anyway.` : "");
  }
  const fit = f.users === 1n
    ? `1 conversation of ${n(f.context)} tokens fits at once`
    : `${n(f.users)} conversations of ${n(f.context)} tokens fit at once`;
  return past ? `${fit}, but ${n(f.context)} tokens is past this model's maximum of ${n(f.max_context)}.` : `${fit}.`;
}
