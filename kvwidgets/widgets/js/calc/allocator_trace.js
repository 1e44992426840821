// core/allocator_trace.py: KV memory over a request trace, reserving per request (Orca's
// Max, Pow2, Oracle, placed by a buddy allocator) vs paged blocks (vLLM), step by step.
//
// A line-for-line port, so the browser redraws any control with no kernel. Every count is
// a whole number below 2^53 (checked), so the shares, which are one division of two such
// integers as in Python, come out to the same bits (tests/widgets/js/trace.test.mjs holds
// every share and batch of every sampled step to golden vectors from the core).

import { memoryBudget } from "./budget.js";
import { KVInputError, checkInt } from "./errors.js";
import { floorDiv } from "./exact.js";
import { kvBytesPerToken } from "./model.js";

/** @import { LayerGroup } from "../shapes" */

export const POLICIES = ["max", "pow2", "oracle", "paged"];
/** @type {Record<string, string>} */
export const POLICY_LABELS = { max: "Orca (Max)", pow2: "Orca (Pow2)", oracle: "Orca (Oracle)", paged: "vLLM (paged)" };

const n = (/** @type {number} */ x) => Number(x).toLocaleString("en-US");

/**
 * @param {number} x
 */
export function nextPow2(x) {
  let p = 1;
  while (p < x) p *= 2;
  return p;
}

/**
 * A min-heap ordered by `less` (Python's heapq on tuples, with the tuple order given).
 * @template T
 */
class Heap {
  /**
   * @param {(x: T, y: T) => boolean} less
   */
  constructor(less) {
    /** @type {T[]} */
    this.a = [];
    this.less = less;
  }
  get size() {
    return this.a.length;
  }
  peek() {
    return this.a[0];
  }
  /**
   * @param {T} x
   */
  push(x) {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop() {
    const a = this.a;
    const top = a[0];
    const last = /** @type {T} */ (a.pop());
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

const byEndThenId = (/** @type {[number, number]} */ x, /** @type {[number, number]} */ y) => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);

/**
 * core.allocator_trace._reservation
 * @param {string} policy
 * @param {number} p
 * @param {number} o
 * @param {number} maxLen
 */
function reservation(policy, p, o, maxLen) {
  if (policy === "max") return maxLen;
  if (policy === "pow2") return Math.min(maxLen, p + nextPow2(o));
  return p + o;
}

/**
 * @param {number[]} acc
 * @param {number} tok
 * @param {number} res
 * @param {number} inn
 * @param {number} rnd
 * @param {number} running
 * @param {number} steps
 */
function addTo(acc, tok, res, inn, rnd, running, steps) {
  acc[0] += tok;
  acc[1] += res;
  acc[2] += inn;
  acc[3] += rnd;
  acc[4] += running;
  acc[5] += steps;
}

/** core.allocator_trace._Sums: slot-steps over the saturated window and over the whole run. */
class Sums {
  /**
   * @param {number} capacity
   */
  constructor(capacity) {
    this.cap = capacity;
    this.window = [0, 0, 0, 0, 0, 0];
    this.whole = [0, 0, 0, 0, 0, 0];
  }
  /**
   * @param {number} tok
   * @param {number} res
   * @param {number} inn
   * @param {number} rnd
   * @param {number} running
   * @param {number} steps
   * @param {boolean} saturated
   */
  add(tok, res, inn, rnd, running, steps, saturated) {
    addTo(this.whole, tok, res, inn, rnd, running, steps);
    if (saturated) addTo(this.window, tok, res, inn, rnd, running, steps);
  }
  /**
   * @param {string} policy
   * @param {number[][]} samples
   * @param {number} totalSteps
   * @param {number} preemptions
   */
  run(policy, samples, totalSteps, preemptions) {
    const c = this.cap;
    /** @type {Record<"token_states" | "reserved" | "internal" | "rounding" | "free", number[]>} */
    const cols = { token_states: [], reserved: [], internal: [], rounding: [], free: [] };
    /** @type {number[]} */
    const running = [];
    for (const [tok, res, inn, rnd, k] of samples) {
      cols.token_states.push(tok / c);
      cols.reserved.push(res / c);
      cols.internal.push(inn / c);
      cols.rounding.push(rnd / c);
      cols.free.push((c - tok - res - inn - rnd) / c);
      running.push(k);
    }
    const acc = this.window[5] ? this.window : this.whole;
    const steps = Math.max(1, acc[5]);
    for (const v of [...acc, steps * c]) {
      if (!Number.isSafeInteger(v)) throw new KVInputError("the trace is too large to evaluate exactly in the browser (a sum passes 2^53): give fewer requests or less memory");
    }
    const held = acc[0] + acc[1] + acc[2] + acc[3];
    return {
      policy,
      label: POLICY_LABELS[policy],
      ...cols,
      running,
      mean_token_states: acc[0] / (steps * c),
      mean_reserved: acc[1] / (steps * c),
      mean_internal: acc[2] / (steps * c),
      mean_rounding: acc[3] / (steps * c),
      mean_free: 1.0 - held / (steps * c),
      mean_running: acc[4] / steps,
      saturated_steps: this.window[5],
      total_steps: totalSteps,
      preemptions,
    };
  }
}

/** core.allocator_trace._Buddy: the buddy arena the paper assumes Orca places reservations in. */
export class Buddy {
  /**
   * @param {number} capacity
   */
  constructor(capacity) {
    /** @type {Map<number, Set<number>>} */
    this.free = new Map();
    this.largest = 0;
    const sizes = [];
    for (let s = 1; s <= capacity; s *= 2) sizes.push(s);
    let addr = 0;
    for (const size of sizes.reverse()) {
      if (Math.floor(capacity / size) % 2 === 1) {
        this.free.set(size, new Set([addr]));
        this.largest = Math.max(this.largest, size);
        addr += size;
      }
    }
  }
  /**
   * @param {number} size
   */
  alloc(size) {
    let s = size;
    while (!this.free.get(s)?.size) {
      s *= 2;
      if (s > this.largest) return null;
    }
    const set = /** @type {Set<number>} */ (this.free.get(s));
    let addr = Infinity;
    for (const a of set) if (a < addr) addr = a;
    set.delete(addr);
    while (s > size) {
      s /= 2;
      if (!this.free.has(s)) this.free.set(s, new Set());
      /** @type {Set<number>} */ (this.free.get(s)).add(addr + s);
    }
    return addr;
  }
  /**
   * @param {number} addr
   * @param {number} size
   */
  release(addr, size) {
    for (;;) {
      // addr ^ size, for an address aligned to size (exact past 2^31, where ^ is not)
      const buddy = Math.floor(addr / size) % 2 === 0 ? addr + size : addr - size;
      const same = this.free.get(size);
      if (same === undefined || !same.has(buddy)) {
        if (!this.free.has(size)) this.free.set(size, new Set());
        /** @type {Set<number>} */ (this.free.get(size)).add(addr);
        return;
      }
      same.delete(buddy);
      addr = Math.min(addr, buddy);
      size *= 2;
    }
  }
}

/**
 * core.allocator_trace._run_reserving: event by event (memory changes only at starts and ends).
 * @param {string} policy
 * @param {Array<[number, number]>} reqs
 * @param {number} capacity
 * @param {number} maxLen
 * @param {boolean} buddy
 */
function runReserving(policy, reqs, capacity, maxLen, buddy) {
  const res = reqs.map(([/** @type {number} */ p, /** @type {number} */ o]) => reservation(policy, p, o, maxLen));
  const chunk = buddy ? res.map(nextPow2) : res;
  let room = capacity;
  if (buddy) {
    room = 1;
    while (room * 2 <= capacity) room *= 2;
  }
  chunk.forEach((/** @type {number} */ c, /** @type {number} */ i) => {
    if (c > room) {
      throw new KVInputError(`request ${i} needs a ${n(c)}-slot reservation under ${POLICY_LABELS[policy]}, more than the ${n(room)} contiguous KV slots there are: it could never be admitted (give more memory or shorter requests)`);
    }
  });
  const sums = new Sums(capacity);
  /** @type {number[][]} */
  const segments = [];
  const queue = reqs.map((/** @type {unknown} */ _, /** @type {number} */ i) => i);
  let head = 0;
  const ends = new Heap(byEndThenId);
  let t = 0;
  let base = 0;
  let k = 0;
  let final = 0;
  let reserved = 0;
  let held = 0;
  const arena = buddy ? new Buddy(capacity) : null;
  const where = new Map();
  while (head < queue.length || ends.size) {
    while (head < queue.length) {
      const i = queue[head];
      if (arena === null) {
        if (held + chunk[i] > capacity) break;
      } else {
        const addr = arena.alloc(chunk[i]);
        if (addr === null) break;
        where.set(i, addr);
      }
      head += 1;
      const [p, o] = reqs[i];
      ends.push([t + o - 1, i]);
      base += p + 1 - t;
      k += 1;
      final += p + o;
      reserved += res[i];
      held += chunk[i];
    }
    const last = ends.peek()[0];
    segments.push([t, last, base, k, final, reserved, held]);
    const m = last - t + 1;
    const tok = base * m + k * Math.floor(((t + last) * m) / 2);
    sums.add(tok, final * m - tok, (reserved - final) * m, (held - reserved) * m, k * m, m, head < queue.length);
    while (ends.size && ends.peek()[0] === last) {
      const [, i] = ends.pop();
      const [p, o] = reqs[i];
      base -= p + 1 - (last - o + 1);
      k -= 1;
      final -= p + o;
      reserved -= res[i];
      held -= chunk[i];
      if (arena !== null) {
        arena.release(where.get(i), chunk[i]);
        where.delete(i);
      }
    }
    t = last + 1;
  }
  const sample = (/** @type {number[]} */ grid) => {
    const out = [];
    let j = 0;
    for (const s of grid) {
      while (j < segments.length && segments[j][1] < s) j += 1;
      if (j === segments.length) {
        out.push([0, 0, 0, 0, 0]);
        continue;
      }
      const [, , b, kk, f, r, h] = segments[j];
      const tk = b + kk * s;
      out.push([tk, f - tk, r - f, h - r, kk]);
    }
    return out;
  };
  return { sums, sample, total: t, preemptions: 0 };
}

const ceilDivInt = (/** @type {number} */ a, /** @type {number} */ b) => Math.floor((a + b - 1) / b);

/**
 * core.allocator_trace._run_paged: vLLM 0.2.0's block manager and FCFS scheduler, step by step.
 * @param {Array<[number, number]>} reqs
 * @param {number} capacity
 * @param {number} B
 * @param {number} watermarkBlocks
 */
function runPaged(reqs, capacity, B, watermarkBlocks) {
  const totalBlocks = Math.floor(capacity / B);
  reqs.forEach(([/** @type {number} */ p, /** @type {number} */ o], /** @type {number} */ i) => {
    const need = ceilDivInt(p + o, B);
    if (need > totalBlocks - watermarkBlocks) {
      throw new KVInputError(`request ${i} needs ${n(need)} blocks of ${B} tokens, more than the ${n(totalBlocks - watermarkBlocks)} a request may take: it could never finish (give more memory or shorter requests)`);
    }
  });
  const N = reqs.length;
  const length = reqs.map(([/** @type {number} */ p]) => p);
  const final = reqs.map(([/** @type {number} */ p, /** @type {number} */ o]) => p + o);
  const tail = final.map((/** @type {number} */ f) => ceilDivInt(f, B) * B - f);
  const admittedAt = new Array(N).fill(0);
  const startLen = new Array(N).fill(0);
  const blocks = new Array(N).fill(0);
  const epoch = new Array(N).fill(0);
  const tailCounted = new Array(N).fill(false);
  /** @type {Map<number, Array<[number, number]>>} */
  const needs = new Map();
  /** @type {Map<number, Array<[number, number]>>} */
  const ends = new Map();
  const victims = new Heap((/** @type {number} */ x, /** @type {number} */ y) => x > y); // the latest arrival first (Python: a heap of -id)
  const running = new Array(N).fill(false);
  // the queue: its front can take back a preempted request (a deque)
  let queue = reqs.map((/** @type {unknown} */ _, /** @type {number} */ i) => i);
  let free = totalBlocks;
  let tokens = 0;
  let usedBlocks = 0;
  let never = 0;
  let k = 0;
  let preemptions = 0;
  const sums = new Sums(capacity);
  // per step: tokens, empty slots in held blocks, of those never written, running
  /** @type {number[]} */
  const stepTokens = [];
  /** @type {number[]} */
  const stepSlack = [];
  /** @type {number[]} */
  const stepNever = [];
  /** @type {number[]} */
  const stepRunning = [];
  const push = (/** @type {Map<number, Array<[number, number]>>} */ map, /** @type {number} */ key, /** @type {[number, number]} */ v) => {
    const list = map.get(key);
    if (list) list.push(v);
    else map.set(key, [v]);
  };
  let t = 0;
  let head = 0;
  while (head < queue.length || k) {
    while (head < queue.length) {
      const i = queue[head];
      const b = ceilDivInt(length[i], B);
      if (free - b < watermarkBlocks) break;
      head += 1;
      free -= b;
      usedBlocks += b;
      blocks[i] = b;
      const L0 = (startLen[i] = length[i]);
      admittedAt[i] = t;
      epoch[i] += 1;
      running[i] = true;
      k += 1;
      tokens += L0;
      victims.push(i);
      const rem = final[i] - L0;
      for (let j = (((-L0) % B) + B) % B; j < rem; j += B) push(needs, t + j, [i, epoch[i]]);
      push(ends, t + rem - 1, [i, epoch[i]]);
      tailCounted[i] = b === ceilDivInt(final[i], B);
      if (tailCounted[i]) never += tail[i];
    }
    const want = [];
    const asked = needs.get(t);
    if (asked) {
      for (const [i, e] of asked) if (running[i] && epoch[i] === e) want.push(i);
      needs.delete(t);
    }
    while (want.length > free) {
      while (!running[victims.peek()]) victims.pop();
      const v = victims.pop();
      const have = startLen[v] + (t - admittedAt[v]);
      running[v] = false;
      k -= 1;
      tokens -= have;
      free += blocks[v];
      usedBlocks -= blocks[v];
      if (tailCounted[v]) never -= tail[v];
      length[v] = have;
      if (head > 0) {
        head -= 1;
        queue[head] = v;
      } else {
        queue = [v, ...queue];
      }
      preemptions += 1;
      const at = want.indexOf(v);
      if (at >= 0) want.splice(at, 1);
    }
    for (const i of want) {
      blocks[i] += 1;
      if (blocks[i] === ceilDivInt(final[i], B)) {
        tailCounted[i] = true;
        never += tail[i];
      }
    }
    free -= want.length;
    usedBlocks += want.length;
    tokens += k;
    const slack = usedBlocks * B - tokens;
    sums.add(tokens, slack - never, never, 0, k, 1, head < queue.length);
    stepTokens.push(tokens);
    stepSlack.push(slack);
    stepNever.push(never);
    stepRunning.push(k);
    for (const [i, e] of ends.get(t) || []) {
      if (running[i] && epoch[i] === e) {
        running[i] = false;
        k -= 1;
        tokens -= final[i];
        free += blocks[i];
        usedBlocks -= blocks[i];
        never -= tail[i];
      }
    }
    ends.delete(t);
    t += 1;
  }
  const sample = (/** @type {number[]} */ grid) => grid.map((/** @type {number} */ s) => (s >= stepTokens.length ? [0, 0, 0, 0, 0]
    : [stepTokens[s], stepSlack[s] - stepNever[s], stepNever[s], 0, stepRunning[s]]));
  return { sums, sample, total: t, preemptions };
}

/**
 * Python's round() of a non-negative float: half to even.
 * @param {number} x
 */
function roundHalfEven(x) {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * core.allocator_trace._grid: `points` steps spread over the run.
 * @param {number} totalSteps
 * @param {number} points
 */
export function traceGrid(totalSteps, points) {
  if (totalSteps <= points) return Array.from({ length: totalSteps }, (_, i) => i);
  const set = new Set();
  for (let j = 0; j < points; j++) set.add(roundHalfEven((j * (totalSteps - 1)) / (points - 1)));
  return [...set].sort((a, b) => a - b);
}

/**
 * core.allocator_trace.kv_slots_for: token slots of KV memory a model leaves on a GPU.
 * @param {any} shape
 * @param {any} gpu
 * @param {any} o memoryBudget's options, and kvBits
 */
export function kvSlotsFor(shape, gpu, o) {
  const kinds = [...new Set(shape.groups.map((/** @type {LayerGroup} */ g) => g.kind))].filter((k) => k !== "full" && k !== "mla").sort();
  if (kinds.length) {
    throw new KVInputError(`${shape.name} has ${kinds.join(", ")} layers: a trace counts token slots of one fixed size, which only full-attention and MLA layers have; give kv_slots instead`);
  }
  const b = memoryBudget(shape, gpu, o);
  const perToken = kvBytesPerToken(shape, o.kvBits, b.num_gpus) * BigInt(b.num_gpus);
  if (b.kv_budget_bytes <= 0n) {
    const gb = (Number(b.weights_bytes) / 1e9).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    throw new KVInputError(`${shape.name}'s weights (${gb} GB) leave no KV memory on ${b.num_gpus} x ${gpu.name}: nothing to trace. More GPUs, smaller weights (FP8) or a GPU with more memory would leave some`);
  }
  return Number(floorDiv(b.kv_budget_bytes, perToken));
}

/**
 * core.allocator_trace.allocator_trace for given (prompt, output) pairs on `kvSlots` token slots.
 * @param {Array<[number, number]>} reqs
 * @param {{kvSlots: number, blockSize?: number, maxLen?: number, policies?: string[], buddy?: boolean, watermark?: number, points?: number}} o
 */
export function allocatorTrace(reqs, o) {
  const kvSlots = checkInt("kv_slots", o.kvSlots, 1);
  const blockSize = checkInt("block_size", o.blockSize ?? 16, 1);
  const points = checkInt("points", o.points ?? 200, 2);
  const maxLen = checkInt("max_len", o.maxLen ?? 2048, 2);
  const watermark = o.watermark ?? 0.01;
  const buddy = o.buddy ?? true;
  const policies = o.policies ?? POLICIES;
  const bad = policies.filter((p) => !POLICIES.includes(p));
  if (bad.length || !policies.length) throw new KVInputError(`policies must be some of ${POLICIES.join(", ")}; got ${JSON.stringify(policies)}`);
  if (!reqs.length) throw new KVInputError("requests is empty: give at least one (prompt tokens, output tokens) pair");
  const totalBlocks = Math.floor(kvSlots / blockSize);
  const watermarkBlocks = Math.trunc(watermark * totalBlocks);
  /** @type {Record<string, any>} */
  const raw = {};
  for (const pol of policies) {
    raw[pol] = pol === "paged" ? runPaged(reqs, kvSlots, blockSize, watermarkBlocks) : runReserving(pol, reqs, kvSlots, maxLen, buddy);
  }
  const grid = traceGrid(Math.max(...Object.values(raw).map((r) => r.total)), points);
  /** @type {Record<string, any>} */
  const runs = {};
  for (const [pol, r] of Object.entries(raw)) runs[pol] = r.sums.run(pol, r.sample(grid), r.total, r.preemptions);
  return { kv_slots: kvSlots, block_size: blockSize, max_len: maxLen, buddy, watermark_blocks: watermarkBlocks, steps: grid, runs };
}
