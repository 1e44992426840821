// The browser's closed forms (kvwidgets/widgets/js/calc/) against kvwidgets.core.
// Run by tests/widgets/test_kvcalc_node.py, which writes the golden vectors fresh from
// Python and passes their path in KV_GOLDEN. Integers are compared exactly (BigInt, as
// decimal strings), doubles to the last bit (Object.is), errors by their message.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

// KV_CALC: the calc/index.js of the package the widgets actually load (the installed
// package's); the repository's copy otherwise.
const calc = process.env.KV_CALC || new URL("../../../kvwidgets/widgets/js/calc/index.js", import.meta.url).pathname;
const kv = await import(pathToFileURL(calc).href);

const path = process.env.KV_GOLDEN;
if (!path) throw new Error("set KV_GOLDEN to a golden-vector file (tests/widgets/golden.py writes one)");
const G = JSON.parse(readFileSync(path, "utf8"));
const bits = (d) => G.dtypes[d];
// a weight format: a dtype's bits, or a mixed format's parts (as the widgets' L.weightBits())
const weightBits = (d) => (G.weight_formats[d] ? { name: d, ...G.weight_formats[d] } : G.dtypes[d]);
const shape = (n) => G.shapes[n];

function outcome(fn) {
  try {
    return { value: fn(), error: null };
  } catch (e) {
    if (!(e instanceof kv.KVInputError)) throw e;
    return { value: null, error: e.message };
  }
}

function checkError(got, c, what) {
  if (c.error) {
    assert.equal(got.error, c.error, `${what}: expected the core's error`);
    return true;
  }
  assert.equal(got.error, null, `${what}: unexpected error ${got.error}`);
  return false;
}

test("golden vectors cover every kind of case", () => {
  for (const k of ["kv", "per_token", "users", "max_context", "decode"]) assert.ok(G[k].length > 100 || k === "max_context", k);
  assert.ok(G.users.some((c) => c.expect && c.expect.users === "0" && c.expect.weights_fit), "a loads-but-cannot-serve case");
  assert.ok(G.users.some((c) => c.expect && !c.expect.weights_fit), "a does-not-load case");
  assert.ok(G.kv.some((c) => c.error), "a TP split that is refused");
  assert.ok(G.decode.some((c) => c.expect && c.expect.crossover_batch !== null), "a crossover batch");
});

test("kv bytes per sequence and by layer kind", () => {
  for (const c of G.kv) {
    const what = `kvBytes ${JSON.stringify(c)}`;
    const got = outcome(() => kv.kvBytes(shape(c.shape), c.tokens, bits(c.kv_dtype), c.tp));
    if (checkError(got, c, what)) continue;
    assert.equal(got.value.toString(), c.expect, what);
    const byKind = kv.bytesByKind(shape(c.shape), c.tokens, bits(c.kv_dtype), c.tp);
    assert.deepEqual(Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, v.toString()])), c.by_kind, what);
  }
});

test("kv bytes per token (long context)", () => {
  for (const c of G.per_token) {
    const what = `kvBytesPerToken ${JSON.stringify(c)}`;
    const got = outcome(() => kv.kvBytesPerToken(shape(c.shape), bits(c.kv_dtype), c.tp));
    if (checkError(got, c, what)) continue;
    assert.equal(got.value.toString(), c.expect, what);
  }
});

test("kv bytes per token while every window is still filling", () => {
  for (const c of G.per_token) {
    const what = `kvBytesPerTokenWithinWindows ${JSON.stringify(c)}`;
    const got = outcome(() => kv.kvBytesPerTokenWithinWindows(shape(c.shape), bits(c.kv_dtype), c.tp));
    if (checkError(got, { error: c.within_error }, what)) continue;
    assert.equal(got.value.toString(), c.within, what);
  }
  assert.ok(G.per_token.some((c) => c.expect === "0" && c.within !== "0"), "a sliding-everywhere model");
});

const opts = (c) => ({
  numGpus: c.num_gpus, weightBits: weightBits(c.weight_dtype), kvBits: bits(c.kv_dtype),
  utilization: c.utilization, workingBytes: c.working_bytes || 0, memory: c.memory || "marketed",
  params: c.params ?? undefined,  // the widgets' params input; absent = the model's own count
});

test("users that fit, with the whole breakdown in bytes", () => {
  for (const c of G.users) {
    const what = `usersThatFit ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.usersThatFit(shape(c.shape), G.gpus[c.gpu], c.context, opts(c)));
    if (checkError(got, c, what)) continue;
    for (const [k, want] of Object.entries(c.expect)) {
      const v = got.value[k];
      assert.equal(typeof v === "bigint" || typeof v === "number" && typeof want === "string" ? v.toString() : v, want, `${what}: ${k}`);
    }
    assert.equal(kv.fitMessage(got.value), c.message, `${what}: Fit.message`);
  }
});

test("bytes, tokens and GB figures written as core.units and Fit.message write them", () => {
  assert.ok(G.units.length > 3000);
  for (const c of G.units) {
    const what = `units ${JSON.stringify(c)}`;
    assert.equal(kv.fmtBytes(c.n), c.bytes, what);
    assert.equal(kv.fmtBytes(BigInt(c.n), c.unit, c.digits), c.bytes_as, what);
    assert.equal(kv.fmtGB(BigInt(c.n), 1), c.gb1, what);
    assert.equal(kv.fmtGB(c.n, 2), c.gb2, what);
    assert.equal(kv.fmtTokens(c.n), c.tokens, what);
  }
});

test("limit lines: the rules that fire are the core's, engine notes word for word", () => {
  assert.ok(G.limits.some((c) => c.kinds.includes("past_max_context")), "a context past the maximum");
  assert.ok(G.limits.some((c) => c.kinds.includes("params_estimated")), "an estimated parameter count");
  for (const c of G.limits) {
    const what = `limitLines ${JSON.stringify(c)}`;
    const lines = kv.limitLines(shape(c.shape), { context: c.context, weights: c.weights, params: c.params ?? undefined });
    assert.deepEqual(lines.map((l) => l.kind), c.kinds, what);
    assert.deepEqual(lines.filter((l) => l.kind === "engine_note").map((l) => l.text), c.engine_notes, what);
    assert.ok(lines.every((l) => l.cls === "kv-warn" && l.text.length > 0), what);
  }
});

test("max context for N users (binary search, exact)", () => {
  for (const c of G.max_context) {
    const what = `maxContext ${JSON.stringify(c)}`;
    const got = outcome(() => kv.maxContext(shape(c.shape), G.gpus[c.gpu], c.users, opts(c)));
    if (checkError(got, c, what)) continue;
    if (c.unlimited) assert.equal(got.value, null, what);
    else assert.equal(String(got.value), c.expect, what);
  }
});

test("decode ceilings to the last bit", () => {
  for (const c of G.decode) {
    const what = `decodeCeiling ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.decodeCeiling(shape(c.shape), G.gpus[c.gpu], c.context, c.batch, opts(c)));
    if (c.too_large) {
      assert.match(got.error || "", /too large to evaluate exactly/, what);
      continue;
    }
    if (checkError(got, c, what)) continue;
    for (const [k, want] of Object.entries(c.expect)) {
      assert.ok(Object.is(got.value[k], want), `${what}: ${k} = ${got.value[k]}, core says ${want}`);
    }
  }
});

test("users-against-context step line: exact drops where steps are visible", () => {
  let stepped = 0;
  for (const c of G.staircase) {
    const what = `usersStaircase ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.usersStaircase(shape(c.shape), G.gpus[c.gpu], opts(c)));
    if (checkError(got, c, what)) continue;
    const s = got.value;
    assert.equal(s.users[0].toString(), c.expect.users_lo, `${what}: users at 1K`);
    assert.equal(s.users[s.users.length - 1].toString(), c.expect.users_hi, `${what}: users at 1M`);
    for (let i = 1; i < s.x.length; i++) {
      assert.ok(s.x[i] > s.x[i - 1] && s.users[i] <= s.users[i - 1], `${what}: not a falling step line at ${i}`);
    }
    // every point strictly inside the exact region is a drop, and every drop is a point
    const inside = s.x.map((x, i) => [x, s.users[i].toString()]).filter(([x]) => x >= s.exactFrom && x > 1024 && x < 1048576);
    assert.deepEqual(inside, c.expect.drops, what);
    if (c.expect.drops.length > 3) stepped += 1;
  }
  assert.ok(stepped > 5, `cases with several visible steps: ${stepped}`);
});

test("PerTokenBytes readouts: both figures for windowed models, the mistake while windows fill", () => {
  const bf16 = bits("bf16");
  const mistral = kv.perTokenReadouts(shape("mistral-7b-v0.1"), bf16);
  assert.equal(mistral.bytes_per_token, "while the window fills: 128 KiB (131,072 B); past every window: 0 B");
  assert.equal(mistral.mha_bytes_per_token, "512 KiB (4x too much)");
  const oss = kv.perTokenReadouts(shape("gpt-oss-120b"), bf16);
  assert.equal(oss.bytes_per_token, "while the window fills: 72 KiB (73,728 B); past every window: 36 KiB (36,864 B)");
  const llama = kv.perTokenReadouts(shape("llama-3-8b"), bf16);
  assert.equal(llama.bytes_per_token, "128 KiB (131,072 B)");
  assert.equal(llama.mha_bytes_per_token, "512 KiB (4x too much)");
});

test("a decode batch fits in memory exactly when users_that_fit says so", () => {
  let both = { true: 0, false: 0 };
  for (const c of G.decode) {
    const what = `decodeFits ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.decodeFits(shape(c.shape), G.gpus[c.gpu], c.context, c.batch, { ...opts(c), utilization: undefined }));
    if (checkError(got, { error: c.fits_error }, what)) continue;
    assert.equal(got.value.fits, c.fits.fits, what);
    assert.equal(got.value.max_batch.toString(), c.fits.max_batch, what);
    both[got.value.fits] += 1;
  }
  assert.ok(both.true > 100 && both.false > 100, `fitting and non-fitting cases: ${JSON.stringify(both)}`);
});

test("utilization is read as the exact decimal Python's Fraction(repr(u)) gives", () => {
  const f = kv.decimalFraction(0.9);
  assert.equal(f.p * 10n, f.q * 9n);
  const g = kv.decimalFraction(1e-7);
  assert.equal(g.p * 10000000n, g.q);
  assert.throws(() => kv.utilizationFraction(1.5), /utilization must be in \(0, 1\]/);
  assert.throws(() => kv.utilizationFraction(0), /utilization/);
});

test("one decode step: stored, read, written and each group's rows, any layer kind", () => {
  const kinds = new Set();
  for (const c of G.step) {
    const what = `decodeStepBytes ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.decodeStepBytes(shape(c.shape), c.prompt, c.generated, bits(c.kv_dtype)));
    if (checkError(got, c, what)) continue;
    const norm = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "bigint" || typeof v === "number" ? String(v) : v]));
    const { groups, ...top } = got.value;
    assert.deepEqual(norm(top), c.expect === null ? null : (({ groups: _groups, ...rest }) => rest)(c.expect), what);
    assert.deepEqual(groups.map(norm), c.expect.groups, what);
    for (const g of groups) if (g.dropped_tokens > 0) kinds.add(g.kind);
  }
  assert.ok(kinds.has("sliding") && kinds.has("chunked"), `kinds that dropped rows: ${[...kinds]}`);
  assert.ok(G.step.some((c) => c.error && /prompt_tokens/.test(c.error)), "a refused prompt");
});

test("memory in blocks: reserving vs paging, users sharing a prefix", () => {
  let served = 0;
  for (const c of G.blocks) {
    const what = `blockPlan ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.blockPlan(shape(c.shape), G.gpus[c.gpu], {
      ...opts(c), usedTokens: c.used_tokens, reservedTokens: c.reserved_tokens, blockSize: c.block_size,
      users: c.users, prefixTokens: c.prefix_tokens }));
    if (checkError(got, c, what)) continue;
    for (const [k, want] of Object.entries(c.expect)) {
      const v = got.value[k];
      if (typeof want === "number") assert.ok(Object.is(v, want), `${what}: ${k} = ${v}, core says ${want}`);
      else assert.equal(String(v), want, `${what}: ${k}`);
    }
    if (c.expect.users_sharing !== "0") served += 1;
  }
  assert.ok(served > 100, `cases where users fit: ${served}`);
  assert.ok(G.blocks.some((c) => c.error && /prefix_tokens must be less/.test(c.error)), "a prefix as long as the request");
});

test("offload or recompute: reload and ideal prefill to the last bit, the same crossover", () => {
  let crossings = 0;
  for (const c of G.offload) {
    const what = `offload ${JSON.stringify({ ...c, rows: undefined })}`;
    const tier = G.storage[c.tier];
    for (const r of c.rows) {
      const got = outcome(() => kv.reloadSeconds(shape(c.shape), r.tokens, bits(c.kv_dtype), kv.tierGbps(tier, c.speed)));
      if (!checkError(got, r, `${what} reload at ${r.tokens}`)) assert.ok(Object.is(got.value, r.reload), `${what}: reload at ${r.tokens} = ${got.value}, core ${r.reload}`);
      const pre = outcome(() => kv.prefillSeconds(shape(c.shape), G.gpus[c.gpu], r.tokens, c.params ?? undefined));
      if (!checkError(pre, { error: r.prefill_error }, `${what} prefill`)) assert.ok(Object.is(pre.value, r.prefill), `${what}: prefill at ${r.tokens} = ${pre.value}, core ${r.prefill}`);
    }
    const x = outcome(() => kv.recomputeCrossover(shape(c.shape), G.gpus[c.gpu], tier, bits(c.kv_dtype), c.speed, c.params ?? undefined));
    if (checkError(x, { error: c.crossover_error }, `${what} crossover`)) continue;
    assert.equal(x.value, c.crossover, `${what}: crossover`);
    if (c.crossover !== null) crossings += 1;
  }
  assert.ok(crossings >= 3, `cases with a crossing: ${crossings}`);
});

test("cache transfer: bytes a rank exactly, move, prefill and decode-step times to the last bit", () => {
  let measured = 0;
  let refused = 0;
  for (const c of G.transfer) {
    const what = `cacheTransfer ${JSON.stringify({ ...c, expect: undefined })}`;
    const got = outcome(() => kv.cacheTransfer(shape(c.shape), G.gpus[c.gpu], c.context, kv.getLink(G.links, c.link), {
      tp: c.tp, kvBits: bits(c.kv_dtype), weightBits: weightBits(c.weight_dtype), params: c.params ?? undefined, measured: G.measured,
    }));
    if (checkError(got, c, what)) {
      refused += 1;
      continue;
    }
    for (const k of ["context", "tp", "bytes_per_rank", "bytes_all_ranks", "bytes_one_copy"]) assert.equal(String(got.value[k]), c.expect[k], `${what}: ${k}`);
    for (const k of ["seconds", "prefill_seconds", "decode_step_seconds", "measured_prefill_seconds", "vs_prefill", "vs_decode_step"]) {
      assert.ok(Object.is(got.value[k], c.expect[k]), `${what}: ${k} = ${got.value[k]}, core ${c.expect[k]}`);
    }
    if (c.expect.measured_prefill_seconds !== null) measured += 1;
  }
  assert.ok(measured >= 6, `cases with a measured prefill: ${measured}`);
  assert.ok(refused >= 1 && refused < G.transfer.length / 2, `cases the core refuses: ${refused}`);
  assert.throws(() => kv.getLink(G.links, "carrier pigeon"), /unknown link 'carrier pigeon'/);
});
