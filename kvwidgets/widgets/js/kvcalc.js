// kvcalc: the KV-cache closed forms of kvwidgets.core, evaluated in the browser from the
// compact "shape" JSON that Python sends (Model.shape()), so a control redraws with no
// kernel round trip and an exported page stays live.
//
// Python is the one source of truth; tests/widgets/js/kvcalc.test.mjs checks this file
// against golden vectors written by kvwidgets.core. To reproduce it exactly:
//  * every byte count is a BigInt (the core uses exact Fractions; int4 is half a byte,
//    so sums are kept in bits and divided by 8 once, rounding up like core.model.Model._whole_bytes);
//  * users and budgets mirror core.budget's Fractions with BigInt numerators and
//    denominators (utilization 0.9 is parsed from its shortest decimal as 9/10);
//  * decode ceilings are doubles computed in the same operation order as
//    kvwidgets/core/decode.py, from integers that are checked to be below 2^53 (so the
//    int -> double conversions are exact and IEEE rounding gives the same bits).
//
// This file is concatenated into each widget's ESM and also imported by Node's test
// runner, so it has no imports and only declares functions and constants.

export class KVInputError extends Error {
  constructor(message) {
    super(message);
    this.name = "KVInputError";
  }
}

const B0 = 0n;
const B8 = 8n;

function big(x) {
  return typeof x === "bigint" ? x : BigInt(x);
}

export function floorDiv(a, b) {
  // BigInt division truncates toward zero; Python's // and math.floor round down.
  const q = a / b;
  return (a % b !== B0 && (a < B0) !== (b < B0)) ? q - 1n : q;
}

export function ceilDiv(a, b) {
  return -floorDiv(-a, b);
}

export function checkInt(field, value, minimum = 0) {
  // core.errors.check_int: whole numbers only, with the same message.
  if (typeof value === "bigint") value = Number(value);
  if (typeof value !== "number" || !Number.isFinite(value) || !Number.isInteger(value) || value < minimum) {
    throw new KVInputError(`${field} must be a whole number >= ${minimum}, got ${value}`);
  }
  return value;
}

export function dtypeBits(dtypes, name, field = "kv_dtype") {
  const bits = dtypes[name];
  if (bits === undefined) {
    throw new KVInputError(`unknown ${field} '${name}'. Known ${field}s: ${Object.keys(dtypes).sort().join(", ")}.`);
  }
  return bits;
}

// ---- one layer group (core/layers.py) -------------------------------------------------

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

export function numbersPerToken(group, tp) {
  if (group.kv_heads !== undefined) {
    return kvHeadsPerGpu(group.kv_heads, tp) * (group.head_k + group.head_v);
  }
  checkInt("num_gpus", tp, 1);
  if (group.latent !== undefined) return group.latent; // MLA: whole latent on every GPU
  return 0; // recurrent state: no per-token numbers
}

/** core.layers: bits one stored token takes (numbers at the KV dtype, plus a part kept in
 *  its own fixed format whatever the dtype: MLASpec.index_bytes, DeepSeek-V3.2's indexer). */
export function tokenBits(group, bits, tp) {
  return BigInt(numbersPerToken(group, tp)) * BigInt(bits) + BigInt(group.index_bytes || 0) * B8;
}

/** core.layers.LayerSpec.grows: cap 0 means the layer never grows with the context
 *  (recurrent state; cross-attention, which holds a fixed count of image tokens). */
function grows(group) {
  return group.cap !== 0;
}

export function tokensHeld(group, tokens) {
  if (group.fixed_tokens !== undefined && group.fixed_tokens !== null) return group.fixed_tokens; // CrossAttentionSpec
  return group.cap === null || group.cap === undefined ? tokens : Math.min(tokens, group.cap);
}

function fixedBytes(group, tp) {
  // core.layers.RecurrentStateSpec.fixed_bytes: math.ceil(state / tp) on doubles.
  const f = group.fixed_bytes || 0;
  return f ? Math.ceil(f / tp) : 0;
}

function groupBits(group, tokens, bits, tp) {
  const held = BigInt(tokensHeld(group, tokens));
  const perToken = tokenBits(group, bits, tp);
  return BigInt(group.count) * (held * perToken + BigInt(fixedBytes(group, tp)) * B8);
}

// ---- a model (core/model.py) ----------------------------------------------------------

/** Bytes one sequence of `tokens` tokens holds on one GPU (windows capped, state added). */
export function kvBytes(shape, tokens, bits, tp = 1) {
  tokens = checkInt("context", tokens, 0);
  let total = B0;
  for (const g of shape.groups) total += groupBits(g, tokens, bits, tp);
  return ceilDiv(total, B8);
}

/** Bytes each extra token adds once the conversation is longer than every window. */
export function kvBytesPerToken(shape, bits, tp = 1) {
  let total = B0;
  for (const g of shape.groups) {
    if (g.cap === null || g.cap === undefined) {
      total += BigInt(g.count) * tokenBits(g, bits, tp);
    }
  }
  return ceilDiv(total, B8);
}

/** core.model.Model.kv_bytes_per_token_within_windows: every growing layer counted, caps
 *  ignored (what a token adds while the conversation is shorter than every window). */
export function kvBytesPerTokenWithinWindows(shape, bits, tp = 1) {
  let total = B0;
  for (const g of shape.groups) if (grows(g)) total += BigInt(g.count) * tokenBits(g, bits, tp);
  return ceilDiv(total, B8);
}

/** kvBytes split by layer kind, in the order the kinds first appear. */
export function bytesByKind(shape, tokens, bits, tp = 1) {
  tokens = checkInt("context", tokens, 0);
  const out = {};
  for (const g of shape.groups) out[g.kind] = (out[g.kind] || B0) + groupBits(g, tokens, bits, tp);
  for (const k of Object.keys(out)) out[k] = ceilDiv(out[k], B8);
  return out;
}

/** Bytes per token of one layer group (one GPU), for the formula lines. */
export function groupBytesPerToken(group, bits, tp = 1) {
  return ceilDiv(BigInt(group.count) * tokenBits(group, bits, tp), B8);
}

export function weightBytes(params, bits) {
  return ceilDiv(big(params) * BigInt(bits), B8);
}

/**
 * A weight format as the widgets pass it: bits per parameter (a plain dtype) or, for a mixed
 * format such as mxfp4, {name, routed: [p, q], other: [p, q]}: bits as fractions for the
 * routed experts and for every other parameter (core.dtypes.WeightFormat).
 */
function routedParams(shape, p, wb) {
  const routed = shape.moe ? BigInt(Math.min(shape.moe.routed_params, Number(p))) : 0n;
  if (!routed) {
    const [rp, rq] = wb.routed, [op, oq] = wb.other;
    throw new KVInputError(`weight_dtype '${wb.name}' stores the routed experts of a mixture of experts in ${rp / rq} bits and every other weight in ${op / oq}; ${shape.name} has no routed experts, so pick one format for all weights (for example 'int4' or 'fp8')`);
  }
  return routed;
}

/** core.model.Model.weight_bytes: whole bytes, each part in its own format. */
export function modelWeightBytes(shape, params, wb) {
  const p = big(params ?? shape.params);
  if (typeof wb === "number") return weightBytes(p, wb);
  const routed = routedParams(shape, p, wb);
  const [rp, rq] = wb.routed.map(BigInt), [op, oq] = wb.other.map(BigInt);
  return ceilDiv(routed * rp * oq + (p - routed) * op * rq, rq * oq * B8);
}

// ---- memory budget and users (core/budget.py) ----------------------------------------

/** A number's shortest decimal as an exact fraction {p, q}: 0.9 -> 9/10 (like Fraction(repr(x))). */
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

export function utilizationFraction(u) {
  if (typeof u !== "number" || !Number.isFinite(u) || !(u > 0 && u <= 1)) {
    throw new KVInputError(`utilization must be in (0, 1] (0.9 keeps 10% free), got ${u}`);
  }
  return decimalFraction(u);
}

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

/** core.budget.users_that_fit: conversations of `context` tokens that fit at once. */
export function usersThatFit(shape, gpu, context, o) {
  context = checkInt("context", context, 1);
  const b = memoryBudget(shape, gpu, o);
  const perGpuUser = kvBytes(shape, context, o.kvBits, b.num_gpus);
  if (perGpuUser <= B0) {
    throw new KVInputError(`context=${context} holds no KV bytes for ${shape.name}; users would be unbounded`);
  }
  let users = floorDiv(b.num, b.den * perGpuUser);
  if (users < B0) users = B0;
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
    left_over_bytes: leftOver > B0 ? leftOver : B0,
    weights_fit: b.kv_budget_bytes >= B0,
  };
}

/** core.budget.max_context: longest context at which `users` conversations fit (0; null = no limit). */
export function maxContext(shape, gpu, users, o, limit = 2 ** 40) {
  users = BigInt(checkInt("users", users, 1));
  const b = memoryBudget(shape, gpu, o);
  const fits = (t) => users * kvBytes(shape, t, o.kvBits, b.num_gpus) * b.den <= b.num;
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
 */
export function usersStaircase(shape, gpu, o, lo = 1024, hi = 1048576, exactBelow = 256) {
  const b = memoryBudget(shape, gpu, o);
  const usersAt = (t) => {
    const k = kvBytes(shape, t, o.kvBits, b.num_gpus);
    if (k <= B0) throw new KVInputError(`context=${t} holds no KV bytes for ${shape.name}; users would be unbounded`);
    const u = floorDiv(b.num, b.den * k);
    return u < B0 ? B0 : u;
  };
  // Last context in [from, hi] at which `u` users still fit (they fit at `from`). Galloping
  // from `from` first: the next drop is usually near, so this takes about 2 log2(distance)
  // evaluations instead of log2(hi - from).
  const lastWith = (u, from) => {
    const fits = (t) => u * kvBytes(shape, t, o.kvBits, b.num_gpus) * b.den <= b.num;
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
  const xs = [];
  const ys = [];
  const push = (x, u) => { xs.push(x); ys.push(u); };
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

// ---- decode ceiling (core/decode.py) --------------------------------------------------

function exactDouble(what, x) {
  // Below 2^53 a BigInt converts to a double exactly, as Python's int -> float does.
  if (x > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new KVInputError(`${what} = ${x} bytes is too large to evaluate exactly in the browser`);
  }
  return Number(x);
}

/**
 * Parameters one decode step of `batch` sequences reads, as core.model.Model.decode_weight_params:
 * total minus the routed experts no sequence picked, (1 - k/E)^batch of them, the power
 * taken by the same plain loop so the doubles match bit for bit.
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

/** core.model.Model.decode_weight_bytes: weight bytes a decode step reads, same operation order. */
export function decodeWeightBytes(shape, batch, params, wb) {
  const read = decodeWeightParams(shape, batch, params);
  if (typeof wb === "number") return read * wb / 8;
  const p = exactDouble("params", big(params ?? shape.params));
  const shared = p - Number(routedParams(shape, p, wb));
  return shared * (wb.other[0] / wb.other[1]) / 8 + (read - shared) * (wb.routed[0] / wb.routed[1]) / 8;
}

/** Bandwidth ceiling of one decode step, same operation order as core.decode.decode_ceiling. */
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
 */
export function decodeFits(shape, gpu, context, batch, o) {
  batch = checkInt("batch", batch, 1);
  const f = usersThatFit(shape, gpu, context, { ...o, utilization: o.utilization ?? 0.9 });
  return { fits: BigInt(batch) <= f.users, max_batch: f.users };
}

// ---- formatting (core/units.py) -------------------------------------------------------

const SCALE = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };

/** core.units.fmt_bytes: binary KiB below 1 MiB, decimal MB/GB/TB above. */
export function fmtBytes(n, unit = null, digits = 2) {
  n = Number(n);
  const a = Math.abs(n);
  if (unit === null) unit = a < 1024 ? "B" : a < 1024 ** 2 ? "KiB" : a < 1e9 ? "MB" : a < 1e12 ? "GB" : "TB";
  const v = n / SCALE[unit];
  const opts = unit === "B" || Number.isInteger(v)
    ? { maximumFractionDigits: 0 }
    : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return `${v.toLocaleString("en-US", opts)} ${unit}`;
}

/**
 * PerTokenBytes' two readouts. A model with windows has two per-token costs: while the
 * conversation is shorter than every window each layer adds its K and V; past every
 * window only the uncapped layers do (0 for a sliding-everywhere model, so "0 B" alone
 * would mislead). The query-heads mistake is measured while windows fill, where it bites.
 */
export function perTokenReadouts(shape, bits) {
  const n = (x) => Number(x).toLocaleString("en-US");
  const both = (x) => (x < 1024n ? fmtBytes(x) : `${fmtBytes(x)} (${n(x)} B)`); // "0 B", not "0 B (0 B)"
  const past = kvBytesPerToken(shape, bits);
  const within = kvBytesPerTokenWithinWindows(shape, bits);
  const capped = shape.groups.some((g) => g.cap !== null && g.cap !== undefined && grows(g));
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

/** core.units.fmt_tokens: 8192 -> 8K, 1048576 -> 1M, 8000 -> 8,000. */
export function fmtTokens(n) {
  n = Number(n);
  if (n >= 1048576 && n % 1048576 === 0) return `${n / 1048576}M`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024}K`;
  return n.toLocaleString("en-US");
}

// ---- one decode step (core/step.py) ---------------------------------------------------

/**
 * core.step.decode_step_bytes: the cache of one sequence after the prefill of `prompt`
 * tokens and `generated` decode steps; what this step reads and writes; per layer group
 * the rows each layer holds and has dropped. Any layer kind: rows come from
 * numbersPerToken and the cap, state from fixed_bytes, so an unknown kind counts as
 * what its shape says it stores.
 */
export function decodeStepBytes(shape, prompt, generated, bits) {
  prompt = checkInt("prompt_tokens", prompt, 1);
  generated = checkInt("generated", generated, 0);
  const tokens = prompt + generated;
  const stored = kvBytes(shape, tokens, bits);
  const groups = shape.groups.map((g) => {
    const storesRows = numbersPerToken(g, 1) > 0;
    const held = storesRows ? tokensHeld(g, tokens) : 0; // a layer with no rows holds none
    return {
      kind: g.kind, count: g.count, cap: g.cap ?? null, held_tokens: held,
      dropped_tokens: storesRows ? tokens - held : 0,
      bytes: ceilDiv(groupBits(g, tokens, bits, 1) - BigInt(g.count) * BigInt(fixedBytes(g, 1)) * B8, B8)
        + BigInt(g.count) * BigInt(fixedBytes(g, 1)),
    };
  });
  let read = B0;
  let written = stored;
  if (generated > 0) {
    let state = B0;
    for (const g of shape.groups) state += BigInt(g.count) * BigInt(fixedBytes(g, 1));
    read = stored;
    written = kvBytesPerTokenWithinWindows(shape, bits) + state;
  }
  return { prompt_tokens: prompt, generated, tokens, phase: generated === 0 ? "prefill" : "decode",
    stored_bytes: stored, read_bytes: read, written_bytes: written, groups };
}

// ---- memory in blocks: reserving vs paging, a shared prefix (core/paging.py block_plan) --

function blocksFor(tokens, blockSize) {
  return Math.ceil(tokens / blockSize); // exact: both are whole numbers below 2^53
}

/** core.paging.block_plan, field for field (integers as BigInt where they are bytes or users). */
export function blockPlan(shape, gpu, o) {
  const used = checkInt("used_tokens", o.usedTokens, 1);
  const reserved = checkInt("reserved_tokens", o.reservedTokens, used);
  const bs = checkInt("block_size", o.blockSize, 1);
  const users = checkInt("users", o.users, 1);
  const prefix = checkInt("prefix_tokens", o.prefixTokens, 0);
  if (prefix >= used) {
    const n = (x) => x.toLocaleString("en-US");
    throw new KVInputError(`prefix_tokens must be less than used_tokens (${n(used)}): each user adds tokens of its own after the shared prefix, got ${n(prefix)}`);
  }
  const b = memoryBudget(shape, gpu, o);
  const n = BigInt(b.num_gpus);
  const blockBytes = kvBytesPerTokenWithinWindows(shape, o.kvBits, b.num_gpus) * n * BigInt(bs);
  if (blockBytes <= B0) throw new KVInputError(`${shape.name} stores nothing per token, so it has no blocks to page`);
  const reservedBlocks = blocksFor(reserved, bs);
  const paged = blocksFor(used, bs);
  const shared = Math.floor(prefix / bs);
  const own = blocksFor(used - shared * bs, bs);
  const budget = b.kv_budget_bytes;
  const fit = (avail, blocks) => (avail > B0 ? floorDiv(avail, BigInt(blocks) * blockBytes) : B0);
  return {
    block_size: bs,
    block_bytes: blockBytes,
    kv_budget_bytes: budget,
    total_blocks: budget > B0 ? floorDiv(budget, blockBytes) : B0,
    used_tokens: used,
    reserved_tokens: reserved,
    reserved_blocks: reservedBlocks,
    paged_blocks: paged,
    last_block_tokens: used - (paged - 1) * bs,
    reserved_waste: (reservedBlocks * bs - used) / (reservedBlocks * bs),
    paged_waste: (paged * bs - used) / (paged * bs),
    users_reserved: fit(budget, reservedBlocks),
    users_paged: fit(budget, paged),
    users,
    prefix_tokens: prefix,
    shared_blocks: shared,
    own_blocks: own,
    blocks_unshared: users * paged,
    blocks_shared: shared + users * own,
    users_sharing: fit(budget - BigInt(shared) * blockBytes, own),
  };
}

// ---- offload or recompute (core/offload.py, core/decode.py prefill_seconds) ----------

/** core.model.Model.active_params: what one token computes with (a MoE skips most experts). */
export function activeParams(shape, params) {
  const p = big(params ?? shape.params);
  if (!shape.moe || !shape.moe.experts) return p;
  let routed = big(shape.moe.routed_params);
  if (routed > p) routed = p;
  if (routed === B0) return p;
  const E = BigInt(shape.moe.experts);
  return p - floorDiv(routed * (E - BigInt(shape.moe.per_token)), E);
}

/** core.decode.prefill_seconds: 2 x active params x tokens / dense BF16 FLOPS (an ideal floor). */
export function prefillSeconds(shape, gpu, tokens, params, numGpus = 1) {
  tokens = checkInt("tokens", tokens, 1);
  const n = checkInt("num_gpus", numGpus, 1);
  return Number(2n * activeParams(shape, params) * BigInt(tokens)) / (gpu.bf16_tflops * 1e12 * n);
}

/** core.offload.tier_gbps */
export function tierGbps(tier, speed = "typical") {
  const v = { low: tier.low_gbps, typical: tier.typical_gbps, high: tier.high_gbps }[speed];
  if (v === undefined) throw new KVInputError(`speed must be 'low', 'typical' or 'high', got '${speed}'`);
  return v;
}

/** core.offload.reload_seconds: one conversation's cache copied back at `gbps`. */
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
 *  recompute changes (null: it never does in [lo, hi]). */
export function recomputeCrossover(shape, gpu, tier, bits, speed = "typical", params = undefined, lo = 1024, hi = 1048576) {
  const gbps = tierGbps(tier, speed);
  const reloadFirst = (t) => reloadSeconds(shape, t, bits, gbps) < prefillSeconds(shape, gpu, t, params);
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
