// The browser's allocator trace (calc/allocator_trace.js) against kvwidgets.core.allocator_trace.
// Run by tests/widgets/test_trace_node.py, which writes the vectors fresh from Python and
// passes their path in KV_GOLDEN. Shares and batches to the last bit (Object.is).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const calc = process.env.KV_CALC || new URL("../../../kvwidgets/widgets/js/calc/index.js", import.meta.url).pathname;
const kv = await import(pathToFileURL(calc).href);
const path = process.env.KV_GOLDEN;
if (!path) throw new Error("set KV_GOLDEN to a vector file (tests/widgets/test_trace_node.py writes one)");
const G = JSON.parse(readFileSync(path, "utf8"));

function outcome(fn) {
  try {
    return { value: fn(), error: null };
  } catch (e) {
    if (!(e instanceof kv.KVInputError)) throw e;
    return { value: null, error: e.message };
  }
}

test("every policy's shares and batch at every sampled step, the averages, steps and preemptions", () => {
  let compared = 0;
  for (const c of G.cases) {
    const what = `trace ${JSON.stringify({ ...c, requests: c.requests.length, expect: undefined })}`;
    const got = outcome(() => kv.allocatorTrace(c.requests, {
      kvSlots: c.kv_slots, blockSize: c.block_size, buddy: c.buddy, watermark: c.watermark, points: c.points, policies: c.policies,
    }));
    if (c.error) {
      assert.equal(got.error, c.error, what);
      continue;
    }
    assert.equal(got.error, null, `${what}: ${got.error}`);
    assert.deepEqual(got.value.steps, c.expect.steps, `${what}: steps`);
    assert.equal(got.value.watermark_blocks, c.expect.watermark_blocks, what);
    for (const [pol, want] of Object.entries(c.expect.runs)) {
      const run = got.value.runs[pol];
      for (const [k, v] of Object.entries(want)) {
        if (Array.isArray(v)) {
          assert.equal(run[k].length, v.length, `${what} ${pol}.${k}`);
          v.forEach((x, j) => assert.ok(Object.is(run[k][j], x), `${what} ${pol}.${k}[${j}] = ${run[k][j]}, core ${x}`));
        } else {
          assert.ok(Object.is(run[k], v), `${what} ${pol}.${k} = ${run[k]}, core ${v}`);
        }
        compared += 1;
      }
    }
  }
  assert.ok(compared > 300, `fields compared: ${compared}`);
});

test("token slots a model leaves on a GPU, and the refusals by name", () => {
  for (const c of G.slots) {
    const what = `kvSlotsFor ${JSON.stringify(c)}`;
    const got = outcome(() => kv.kvSlotsFor(G.shapes[c.shape], G.gpus[c.gpu], {
      numGpus: c.num_gpus, weightBits: G.dtypes.bf16, kvBits: G.dtypes[c.kv_dtype], utilization: 0.9,
    }));
    if (c.error) assert.equal(got.error, c.error, what);
    else assert.equal(got.value, c.expect, what);
  }
});
