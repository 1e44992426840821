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
 * Each request's reservation (rounded to a power of two under the buddy allocator) fits in
 * the contiguous KV slots there are (the largest power of two within the capacity, under
 * the buddy allocator), else the request could never be admitted: an error naming it.
 * @param {string} policy
 * @param {number[]} chunk each request's reservation as placed
 * @param {number} capacity
 * @param {boolean} buddy
 */
function checkEveryChunkFits(policy, chunk, capacity, buddy) {
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
  checkEveryChunkFits(policy, chunk, capacity, buddy);
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
 * The paged run's state: per request (its tokens when admitted, final length, the empty
 * tail of its last block, when and at what length it was admitted, its blocks, its
 * admission count, whether its tail is counted and whether it runs), the steps at which
 * a request needs a block or ends, the victims in preemption order, the queue, and the
 * running totals.
 * @typedef {object} PagedRun
 * @property {number} B tokens a block
 * @property {number} watermarkBlocks
 * @property {number[]} length
 * @property {number[]} final
 * @property {number[]} tail
 * @property {number[]} admittedAt
 * @property {number[]} startLen
 * @property {number[]} blocks
 * @property {number[]} epoch
 * @property {boolean[]} tailCounted
 * @property {boolean[]} running
 * @property {Map<number, Array<[number, number]>>} needs
 * @property {Map<number, Array<[number, number]>>} ends
 * @property {Heap<number>} victims
 * @property {number[]} queue its front can take back a preempted request (a deque)
 * @property {number} head
 * @property {number} free
 * @property {number} tokens
 * @property {number} usedBlocks
 * @property {number} never
 * @property {number} k requests running
 * @property {number} preemptions
 * @property {number} t the step
 */

/**
 * Every request fits in the blocks a request may take (all but the watermark), else it
 * could never finish: an error naming it.
 * @param {Array<[number, number]>} reqs
 * @param {number} B
 * @param {number} totalBlocks
 * @param {number} watermarkBlocks
 */
function checkEveryRequestFits(reqs, B, totalBlocks, watermarkBlocks) {
  reqs.forEach(([/** @type {number} */ p, /** @type {number} */ o], /** @type {number} */ i) => {
    const need = ceilDivInt(p + o, B);
    if (need > totalBlocks - watermarkBlocks) {
      throw new KVInputError(`request ${i} needs ${n(need)} blocks of ${B} tokens, more than the ${n(totalBlocks - watermarkBlocks)} a request may take: it could never finish (give more memory or shorter requests)`);
    }
  });
}

/**
 * @param {Map<number, Array<[number, number]>>} map
 * @param {number} key
 * @param {[number, number]} v
 */
function pushAt(map, key, v) {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}

/**
 * Admit requests from the queue's head while their blocks leave the watermark free.
 * @param {PagedRun} R
 */
function admitPaged(R) {
  const { B, t } = R;
  while (R.head < R.queue.length) {
    const i = R.queue[R.head];
    const b = ceilDivInt(R.length[i], B);
    if (R.free - b < R.watermarkBlocks) break;
    R.head += 1;
    R.free -= b;
    R.usedBlocks += b;
    R.blocks[i] = b;
    const L0 = (R.startLen[i] = R.length[i]);
    R.admittedAt[i] = t;
    R.epoch[i] += 1;
    R.running[i] = true;
    R.k += 1;
    R.tokens += L0;
    R.victims.push(i);
    const rem = R.final[i] - L0;
    for (let j = (((-L0) % B) + B) % B; j < rem; j += B) pushAt(R.needs, t + j, [i, R.epoch[i]]);
    pushAt(R.ends, t + rem - 1, [i, R.epoch[i]]);
    R.tailCounted[i] = b === ceilDivInt(R.final[i], B);
    if (R.tailCounted[i]) R.never += R.tail[i];
  }
}

/**
 * Preempt the latest running requests until the requests that want a block this step
 * (want, trimmed of the preempted) fit in the free blocks; each goes back to the queue's
 * front with the tokens it had.
 * @param {PagedRun} R
 * @param {number[]} want
 */
function preemptFor(R, want) {
  const { t } = R;
  while (want.length > R.free) {
    while (!R.running[R.victims.peek()]) R.victims.pop();
    const v = R.victims.pop();
    const have = R.startLen[v] + (t - R.admittedAt[v]);
    R.running[v] = false;
    R.k -= 1;
    R.tokens -= have;
    R.free += R.blocks[v];
    R.usedBlocks -= R.blocks[v];
    if (R.tailCounted[v]) R.never -= R.tail[v];
    R.length[v] = have;
    if (R.head > 0) {
      R.head -= 1;
      R.queue[R.head] = v;
    } else {
      R.queue = [v, ...R.queue];
    }
    R.preemptions += 1;
    const at = want.indexOf(v);
    if (at >= 0) want.splice(at, 1);
  }
}

/**
 * The requests that want a block this step and still run in the admission that asked.
 * @param {PagedRun} R
 */
function wantingBlocks(R) {
  const want = [];
  const asked = R.needs.get(R.t);
  if (asked) {
    for (const [i, e] of asked) if (R.running[i] && R.epoch[i] === e) want.push(i);
    R.needs.delete(R.t);
  }
  return want;
}

/**
 * Give each request in want its block (counting its empty tail once it has its last).
 * @param {PagedRun} R
 * @param {number[]} want
 */
function growPaged(R, want) {
  for (const i of want) {
    R.blocks[i] += 1;
    if (R.blocks[i] === ceilDivInt(R.final[i], R.B)) {
      R.tailCounted[i] = true;
      R.never += R.tail[i];
    }
  }
  R.free -= want.length;
  R.usedBlocks += want.length;
}

/**
 * Release the requests whose last token is written at this step.
 * @param {PagedRun} R
 */
function finishPaged(R) {
  for (const [i, e] of R.ends.get(R.t) || []) {
    if (R.running[i] && R.epoch[i] === e) {
      R.running[i] = false;
      R.k -= 1;
      R.tokens -= R.final[i];
      R.free += R.blocks[i];
      R.usedBlocks -= R.blocks[i];
      R.never -= R.tail[i];
    }
  }
  R.ends.delete(R.t);
}

/**
 * The paged run's state before step 0: every request queued, every block free.
 * @param {Array<[number, number]>} reqs
 * @param {number} B
 * @param {number} totalBlocks
 * @param {number} watermarkBlocks
 * @returns {PagedRun}
 */
function pagedStart(reqs, B, totalBlocks, watermarkBlocks) {
  const N = reqs.length;
  const final = reqs.map(([/** @type {number} */ p, /** @type {number} */ o]) => p + o);
  return {
    B, watermarkBlocks,
    length: reqs.map(([/** @type {number} */ p]) => p),
    final,
    tail: final.map((/** @type {number} */ f) => ceilDivInt(f, B) * B - f),
    admittedAt: new Array(N).fill(0),
    startLen: new Array(N).fill(0),
    blocks: new Array(N).fill(0),
    epoch: new Array(N).fill(0),
    tailCounted: new Array(N).fill(false),
    running: new Array(N).fill(false),
    needs: new Map(),
    ends: new Map(),
    victims: new Heap((/** @type {number} */ x, /** @type {number} */ y) => x > y), // the latest arrival first (Python: a heap of -id)
    queue: reqs.map((/** @type {unknown} */ _, /** @type {number} */ i) => i),
    head: 0, free: totalBlocks, tokens: 0, usedBlocks: 0, never: 0, k: 0, preemptions: 0, t: 0,
  };
}

/**
 * core.allocator_trace._run_paged: vLLM 0.2.0's block manager and FCFS scheduler, step by step.
 * @param {Array<[number, number]>} reqs
 * @param {number} capacity
 * @param {number} B
 * @param {number} watermarkBlocks
 */
function runPaged(reqs, capacity, B, watermarkBlocks) {
  const totalBlocks = Math.floor(capacity / B);
  checkEveryRequestFits(reqs, B, totalBlocks, watermarkBlocks);
  const R = pagedStart(reqs, B, totalBlocks, watermarkBlocks);
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
  while (R.head < R.queue.length || R.k) {
    admitPaged(R);
    const want = wantingBlocks(R);
    preemptFor(R, want);
    growPaged(R, want);
    R.tokens += R.k;
    const slack = R.usedBlocks * B - R.tokens;
    sums.add(R.tokens, slack - R.never, R.never, 0, R.k, 1, R.head < R.queue.length);
    stepTokens.push(R.tokens);
    stepSlack.push(slack);
    stepNever.push(R.never);
    stepRunning.push(R.k);
    finishPaged(R);
    R.t += 1;
  }
  const sample = (/** @type {number[]} */ grid) => grid.map((/** @type {number} */ s) => (s >= stepTokens.length ? [0, 0, 0, 0, 0]
    : [stepTokens[s], stepSlack[s] - stepNever[s], stepNever[s], 0, stepRunning[s]]));
  return { sums, sample, total: R.t, preemptions: R.preemptions };
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
