// MemoryOverTrace: the PagedAttention paper's four allocators over one stream of requests,
// each a panel of KV memory over time stacked by use (token states, reserved for tokens
// still to come, never written, allocator rounding, free), drawn in SVG.
// Every number is calc/allocator_trace.js allocatorTrace (core.allocator_trace), run in the
// browser on the request lengths Python drew (the `lengths` trait).

import { POLICIES, POLICY_LABELS, allocatorTrace, kvSlotsFor } from "../calc/allocator_trace.js";
import { KVInputError } from "../calc/errors.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { svgPaint } from "../ui/colours.js";
import { dtypeSelect, gpuCount, gpuSelect, modelSelect, resetButton, selectControl } from "../ui/controls.js";
import { diagramBox, diagramWidth } from "../ui/diagram.js";
import { element, markHolds, svgElement } from "../ui/dom.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

// The uses a step's KV slots are split into, bottom to top, with their colour concept.
const USES = [
  ["token_states", "kv", "token states"],
  ["reserved", "reserved", "reserved, not yet written"],
  ["internal", "waste", "never written"],
  ["rounding", "rounding", "allocator rounding"],
  ["free", "free", "free"],
];
/** @type {Record<string, string>} */
const DATASET_LABELS = { sharegpt: "ShareGPT", alpaca: "Alpaca" };
// After a policy's last request has finished its panel holds nothing: that time is drawn
// hatched and named, not as the free memory of a server that still has work.
const FINISHED_LABEL = "finished: every request done";
let patternCount = 0;  // a hatch pattern id per widget: two on a page may be in different themes

const n = (/** @type {number} */ x) => Number(x).toLocaleString("en-US");
const pct = (/** @type {number} */ x) => `${(x * 100).toLocaleString("en-US", { maximumFractionDigits: 0 })}%`;
const pct1 = (/** @type {number} */ x) => `${(x * 100).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;
const batch = (/** @type {number} */ x) => x.toLocaleString("en-US", { maximumFractionDigits: x < 10 ? 1 : 0 });

/**
 * Why the panels give way when the cache never fills under some policies, and what to change.
 * @param {any} trace allocatorTrace's answer
 * @param {string[]} neverFull the policies under which no request ever waited
 * @param {number} count requests in the trace
 * @param {any} ref the widget's `reference` (the paper's memory)
 * @param {number[]} counts the request counts the menu offers
 */
function neverFillsMessage(trace, neverFull, count, ref, counts) {
  const names = neverFull.map((p) => POLICY_LABELS[p]);
  const who = names.length === POLICIES.length ? "any allocator" : names.join(", ");
  const more = counts.filter((c) => c > count);
  const paper = ref.paper_kv_slots;
  const less = [
    ...(paper && paper < trace.kv_slots ? [`the paper's ${n(paper)} token slots`] : []),
    "a bigger model", "fewer or smaller GPUs",
  ];
  return `At ${n(trace.kv_slots)} token slots the cache never fills under ${who}: all ${n(count)} requests run at once, no request waits for memory, and the shares would measure memory nobody asked for. The four allocators cannot be compared here. ` +
    `To fill the cache, give ${more.length ? `more requests (${n(more[more.length - 1])}) or ` : ""}less KV memory (${less.join(", ")}).`;
}

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").AnyModel} AnyModel
 * @typedef {ReturnType<typeof svgPaint>} Paint
 */

/**
 * What the pieces of one figure share: the page's scale and theme, the paints, the hatch
 * of a finished run, the trace and the step scale every panel uses.
 * @typedef {object} Frame
 * @property {ReturnType<App["theme"]>} t
 * @property {number} s the drawing's scale
 * @property {number} W its width
 * @property {number} fs font size
 * @property {Paint} paint
 * @property {string} hatchId
 * @property {any} trace allocatorTrace's answer
 * @property {number} lastStep the step the panels' time axis ends at
 */

/**
 * A panel's box: where its title, plot and axes go.
 * @typedef {object} PanelBox
 * @property {number} x0 the panel's left
 * @property {number} y0 its top
 * @property {number} pw its width
 * @property {number} px the plot's left
 * @property {number} py the plot's top
 * @property {number} plotW
 * @property {number} ph the plot's height
 * @property {(step: number) => number} X
 * @property {(share: number) => number} Y
 */

/**
 * The controls, the readouts and the fold's table.
 * @param {App} app
 * @param {AnyModel} model
 */
function buildControls(app, model) {
  selectControl(app, "dataset", "Requests like", () => Object.keys(model.get("lengths") || DATASET_LABELS).map((d) => [d, DATASET_LABELS[d] || d]), ["lengths"]);
  selectControl(app, "num_requests", "How many", () => axisValues(app, "request_counts").map((/** @type {number} */ c) => [c, n(c)]), ["axes"]);
  selectControl(app, "kv_slots", "KV memory", () => {
    const paper = (model.get("reference") || {}).paper_kv_slots || 15728;
    return [[paper, `the paper's: ${n(paper)} token slots`], [0, "what the model leaves on the GPU"]];
  }, ["reference"]);
  selectControl(app, "block_size", "Block size", () => axisValues(app, "block_sizes").map((/** @type {number} */ b) => [b, `${b} tokens`]), ["axes"]);
  selectControl(app, "view", "Show", () => axisValues(app, "views").map((/** @type {string} */ v) => [v, v === "all" ? "all four" : POLICY_LABELS[v] || v]), ["axes"]);
  resetButton(app);
  const sized = [modelSelect(app), gpuSelect(app), gpuCount(app), dtypeSelect(app, "weight_dtype", "Weights"), dtypeSelect(app, "kv_dtype", "KV cache")];
  // These menus are on only while the trace uses the memory the model leaves (the draw
  // turns them off with the paper's memory, and this line beside them says why). Setting
  // one of these traits from Python switches to the model's memory (memory_trace.py).
  const sizedOff = element("span", { class: "kv-note kv-sized-off" });
  app.controls.append(sizedOff);
  const outs = Object.fromEntries(POLICIES.map((p) => [p, app.readout(p, `${POLICY_LABELS[p]}:`)]));
  const outWasted = app.readout("wasted", "Not holding tokens:");
  const values = [...Object.values(outs), outWasted];
  const hatchId = `kv-mt-finished-${++patternCount}`;
  diagramBox(app);
  // ours beside the paper's, policy by policy, in the fold under its text
  const table = element("table", { class: "kv-how-table" });
  app.text.before(table);
  return { sized, sizedOff, outs, outWasted, values, hatchId, table };
}

/**
 * The trace for the inputs on screen, computed once per set of inputs (not per view or
 * width): a function that runs it, with its last answer kept per widget.
 * @param {App} app
 * @param {AnyModel} model
 */
function traceRunner(app, model) {
  /** @type {{key: string, trace: any}} the last trace, per widget */
  let cache = { key: "", trace: null };
  return () => {
    const L = app.lookup();
    const dataset = model.get("dataset");
    const lengths = model.get("lengths") || {};
    const flat = lengths[dataset];
    if (!flat) throw new KVInputError(`unknown dataset '${dataset}'. Known datasets: ${Object.keys(lengths).sort().join(", ")}.`);
    const count = Number(model.get("num_requests"));
    if (!Number.isInteger(count) || count < 1) throw new KVInputError(`num_requests must be a whole number >= 1, got ${count}`);
    if (2 * count > flat.length) throw new KVInputError(`num_requests: the page holds the lengths of ${n(flat.length / 2)} requests; more need the kernel to draw them`);
    const blockSize = model.get("block_size");
    if (!axisValues(app, "block_sizes").includes(blockSize)) throw new KVInputError(`block_size must be one of ${axisValues(app, "block_sizes").join(", ")}, got ${blockSize}`);
    let kvSlots = Number(model.get("kv_slots"));
    let budget = null;
    if (kvSlots === 0) {
      const shape = L.shape();
      const gpu = L.gpu();
      const o = { numGpus: model.get("num_gpus"), weightBits: L.weightBits(), kvBits: L.bits("kv_dtype"), utilization: 0.9 };
      kvSlots = kvSlotsFor(shape, gpu, o);
      budget = { shape, gpu, numGpus: o.numGpus };
    }
    const key = JSON.stringify([dataset, count, kvSlots, blockSize, flat.length, flat[0], flat[1], model.get("seed")]);
    if (cache.key !== key) {
      /** @type {Array<[number, number]>} */
      const reqs = [];
      for (let i = 0; i < count; i++) reqs.push([flat[2 * i], flat[2 * i + 1]]);
      cache = { key, trace: allocatorTrace(reqs, { kvSlots, blockSize, points: axisValues(app, "points")[0] }) };
    }
    return { trace: cache.trace, dataset, count, budget };
  };
}

/**
 * The legend: one swatch per use, wrapped to the width, and the finished hatch when a
 * panel has it. Returns it and where the panels start.
 * @param {Frame} f
 * @param {boolean} finishesEarly
 */
function drawLegend(f, finishesEarly) {
  const { t, s, W, fs, paint, hatchId } = f;
  let lx = 0;
  let ly = 0;
  const legend = svgElement("g", { class: "kv-mt-legend" });
  const entries = USES.map(([, concept, label]) => [paint.fill(concept), label]);
  if (finishesEarly) entries.push([`url(#${hatchId})`, FINISHED_LABEL]);
  for (const [fill, label] of entries) {
    const w = 18 * s + label.length * fs * 0.52;
    if (lx > 0 && lx + w > W) { lx = 0; ly += 18 * s; }
    legend.append(svgElement("rect", { x: lx, y: ly + 1 * s, width: 12 * s, height: 12 * s, fill, stroke: t.fg2, "stroke-width": fill.startsWith("url") ? 0.5 * s : 0 }),
      svgElement("text", { x: lx + 17 * s, y: ly + 11 * s, "font-size": fs * 0.9, fill: t.fg2, text: label }));
    lx += w + 14 * s;
  }
  return { legend, top: ly + 26 * s };
}

/**
 * A run's stacked areas while it lasts: each use between the cumulative share below it and
 * below plus it; the last sample holds to the run's end (a sample at or past it is an
 * empty server, which the hatch shows). Then the hatch of the time after its end.
 * @param {Frame} f
 * @param {Element} g
 * @param {any} run
 * @param {PanelBox} b
 */
function drawAreas(f, g, run, { px, py, plotW, ph, X, Y }) {
  const { t, s, fs, paint, hatchId, lastStep } = f;
  const steps = f.trace.steps;
  const runEnd = Math.min(run.total_steps, lastStep);
  const idx = steps.map((/** @type {unknown} */ _, /** @type {number} */ j) => j).filter((/** @type {number} */ j) => steps[j] < runEnd);
  const xs = [...idx.map((/** @type {number} */ j) => X(steps[j])), X(runEnd)];
  const below = xs.map(() => 0);
  for (const [key, concept] of USES) {
    const above = below.map((b, k) => b + run[key][idx[Math.min(k, idx.length - 1)]]);
    let d = xs.map((x, k) => `${k ? "L" : "M"}${x.toFixed(1)},${Y(above[k]).toFixed(1)}`).join("");
    for (let k = xs.length - 1; k >= 0; k--) d += `L${xs[k].toFixed(1)},${Y(below[k]).toFixed(1)}`;
    g.append(svgElement("path", { class: `kv-mt-${key}`, d: d + "Z", fill: paint.fill(concept), stroke: "none" }));
    for (let k = 0; k < below.length; k++) below[k] = above[k];
  }
  if (runEnd < lastStep) {
    const fx = X(runEnd);
    g.append(svgElement("rect", { class: "kv-mt-finished", x: fx, y: py, width: px + plotW - fx, height: ph, fill: `url(#${hatchId})` }));
    const word = "finished";
    if (px + plotW - fx > word.length * fs * 0.6 + 12 * s) {
      g.append(svgElement("text", { x: (fx + px + plotW) / 2, y: py + ph / 2 + fs * 0.35, "font-size": fs, "font-weight": 600, fill: t.fg, "text-anchor": "middle",
        stroke: t.bg, "stroke-width": 4 * s, "stroke-linejoin": "round", "paint-order": "stroke", text: word }));
    }
  }
}

/**
 * A panel's frame, share ticks, and the line where the policy's last request finished
 * (the same step scale in every panel) with its label.
 * @param {Frame} f
 * @param {Element} g
 * @param {any} run
 * @param {PanelBox} b
 */
function drawPanelAxes(f, g, run, { px, py, plotW, ph, X, Y }) {
  const { t, s, fs, lastStep } = f;
  g.append(svgElement("rect", { x: px, y: py, width: plotW, height: ph, fill: "none", stroke: t.grid, "stroke-width": 1 }));
  for (const share of [0, 0.5, 1]) {
    g.append(svgElement("text", { x: px - 4 * s, y: Y(share) + fs * 0.3, "font-size": fs * 0.8, fill: t.fg2, "text-anchor": "end", text: pct(share) }));
  }
  const done = X(Math.min(run.total_steps, lastStep));
  g.append(svgElement("line", { x1: done, x2: done, y1: py, y2: py + ph, stroke: t.fg2, "stroke-width": 1, "stroke-dasharray": `${3 * s} ${2 * s}` }));
  const doneText = `all done at step ${n(run.total_steps)}`;
  const doneW = doneText.length * fs * 0.8 * 0.55;
  const leftOfLine = done - px > doneW + 6 * s;
  g.append(svgElement("text", { x: leftOfLine ? done - 4 * s : Math.min(done + 4 * s, px + plotW - doneW), y: py + ph + fs * 1.1, "font-size": fs * 0.8, fill: t.fg2, "text-anchor": leftOfLine ? "end" : "start", text: doneText }));
  if (leftOfLine && done - px > doneW + 60 * s) g.append(svgElement("text", { x: px, y: py + ph + fs * 1.1, "font-size": fs * 0.8, fill: t.fg2, text: "step 0" }));
}

/**
 * One policy's panel: its title and averages, its areas and its axes.
 * @param {Frame} f
 * @param {string} pol
 * @param {PanelBox} b
 */
function drawPanel(f, pol, b) {
  const { t, fs } = f;
  const run = f.trace.runs[pol];
  const g = svgElement("g", { class: "kv-mt-panel", "data-policy": pol, "data-token-share": run.mean_token_states.toFixed(4), "data-batch": run.mean_running.toFixed(2) });
  g.append(svgElement("text", { x: b.x0, y: b.y0 + fs, "font-size": fs, "font-weight": 600, fill: t.fg, text: run.label }),
    svgElement("text", { x: b.x0 + b.pw, y: b.y0 + fs, "font-size": fs * 0.9, fill: t.fg2, "text-anchor": "end", text: `${pct(run.mean_token_states)} tokens, batch ${batch(run.mean_running)}` }));
  drawAreas(f, g, run, b);
  drawPanelAxes(f, g, run, b);
  return g;
}

/**
 * The figure: the legend, then a panel per policy shown, in two columns when there is
 * room for all four, one otherwise. Returns its svg and the width it was drawn at.
 * @param {App} app
 * @param {any} trace
 * @param {string[]} shown
 * @param {string} hatchId
 */
function drawFigure(app, trace, shown, hatchId) {
  const t = app.theme();
  const s = app.scale();
  const W = diagramWidth(app);
  const fs = 12 * s;
  const paint = svgPaint(app, s);  // free and reserved hatched: apart from the token states without colour
  const steps = trace.steps;
  // one scale for every panel (so a faster policy's earlier end shows); one panel alone
  // ends where its own run does
  const end = shown.length > 1 ? (steps.length ? steps[steps.length - 1] : 1) : trace.runs[shown[0]].total_steps;
  /** @type {Frame} */
  const f = { t, s, W, fs, paint, hatchId, trace, lastStep: Math.max(1, end) };
  const finishesEarly = shown.some((p) => trace.runs[p].total_steps < f.lastStep);
  // the hatch of a finished run: upright lines in the secondary text colour on the background
  // (free and reserved memory are hatched on the diagonals, so the angle alone tells them apart)
  const hatch = svgElement("pattern", { id: hatchId, width: 6 * s, height: 6 * s, patternUnits: "userSpaceOnUse", patternTransform: "rotate(0)" }, [
    svgElement("rect", { width: 6 * s, height: 6 * s, fill: t.bg }),
    svgElement("line", { x1: 0, x2: 0, y1: 0, y2: 6 * s, stroke: t.fg2, "stroke-width": 1.2 * s }),
  ]);
  const { legend, top } = drawLegend(f, finishesEarly);
  const parts = [svgElement("defs", {}, [hatch]), legend];
  const cols = shown.length > 1 && W >= 620 * s ? 2 : 1;
  const gap = 22 * s;
  const pw = (W - gap * (cols - 1)) / cols;
  const ph = (shown.length > 1 ? 110 : 220) * s;
  const axisW = 36 * s;
  const titleH = fs * 1.9; // the title line, then room for the 100% label above the plot
  const ticksH = fs * 1.5;
  const rowH = titleH + ph + ticksH + 10 * s;
  shown.forEach((pol, i) => {
    const x0 = (i % cols) * (pw + gap);
    const y0 = top + Math.floor(i / cols) * rowH;
    const px = x0 + axisW;
    const plotW = Math.max(60, pw - axisW - 4 * s);
    const py = y0 + titleH;
    const X = (/** @type {number} */ step) => px + (f.lastStep > 0 ? (step / f.lastStep) * plotW : 0);
    const Y = (/** @type {number} */ share) => py + ph * (1 - share);
    parts.push(drawPanel(f, pol, { x0, y0, pw, px, py, plotW, ph, X, Y }));
  });
  const H = top + Math.ceil(shown.length / cols) * rowH;
  const aria = shown.map((p) => `${POLICY_LABELS[p]}: ${pct(trace.runs[p].mean_token_states)} of the cache holds tokens, batch ${batch(trace.runs[p].mean_running)}`).join("; ");
  return { W, svg: svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font, "aria-label": aria }, [paint.defs(), ...parts]) };
}

/**
 * The text lines under the figure: the setting, how the trace runs, the allocators, the
 * uses, the lengths, and the paper's setting and source.
 * @param {AnyModel} model
 * @param {{ trace: any, dataset: string, count: number, budget: any }} traced
 * @param {boolean} paperSetting
 */
function textLines(model, { trace, dataset, count, budget }, paperSetting) {
  const ref = model.get("reference") || {};
  const fit = (ref.fits || {})[dataset] || {};
  const lines = [];
  const memory = budget
    ? `${n(trace.kv_slots)} token slots: what ${budget.shape.name} leaves on ${budget.numGpus} x ${budget.gpu.name} at 90% utilization, divided by its KV bytes per token (a slot is one token in every layer)`
    : `${n(trace.kv_slots)} token slots${trace.kv_slots === ref.paper_kv_slots ? " (the paper's Table 1: OPT-13B on an A100-40GB leaves 12 GiB for the cache, at 800 KiB a token)" : ""}`;
  lines.push(
    { text: `${n(count)} requests like ${fit.label || dataset}'s (seed ${model.get("seed")}) on ${memory}; the longest sequence is ${n(trace.max_len)} tokens (OPT's), blocks of ${trace.block_size}.` },
    { text: "Every request waits at step 0 and is admitted first come, first served when its memory fits; one decode step writes one token per running request. The shares are averages over the steps at which a request is still waiting: a full server." },
    { text: "Orca (Max) reserves the maximum length, Orca (Pow2) the prompt plus the output rounded up to a power of two, Orca (Oracle) exactly prompt + output; each reservation is placed by a buddy allocator (the paper's assumption), which rounds it up to a power of two and can split free space too finely for the next request. vLLM hands out blocks as a sequence grows, keeps 1% of the blocks free when admitting (vLLM 0.2.0) and preempts the latest request when blocks run out." },
    { text: "Reserved, not yet written: slots held for tokens the request will still write. Never written: slots held past a request's end (or the empty tail of its last block). Allocator rounding + free: what the paper calls external fragmentation and others." },
    { text: `Request lengths: lognormal draws with the paper's mean lengths (Figure 11: ${fit.label || dataset} prompts ${fit.input_mean} tokens, outputs ${fit.output_mean}); the spread is ours: output sigma ${fit.output_sigma} fitted to Figure 2's Orca (Max) bar, prompt sigma ${fit.input_sigma} assumed; prompts at most ${n(fit.max_input || 0)} tokens.` },
  );
  if (paperSetting) {
    lines.push({ text: "The paper's runs are one-hour traces of real lengths at one request rate (ShareGPT 2 requests/s, Alpaca 30); ours are saturated synthetic traces. vLLM's Alpaca batch (132) is not a memory limit at the paper's rate, so ours is higher; the paper's vLLM bar gives only the token share (96.3%)." });
  }
  if (ref.source) lines.push({ text: `Source: ${ref.source}` });
  return lines;
}

/**
 * The fold's table: each policy's averages, and the paper's where it gives them.
 * @param {any} trace
 * @param {string} dataset
 * @param {any} ref the widget's `reference`
 * @param {boolean} paperSetting
 */
function howTable(trace, dataset, ref, paperSetting) {
  const paperUse = (/** @type {string} */ p) => (paperSetting && dataset === "sharegpt" ? (ref.paper_kv_use || {})[p] || {} : {});
  const paperBatch = (/** @type {string} */ p) => (paperSetting ? ((ref.paper_batch || {})[dataset] || {})[p] : undefined);
  const cell = (/** @type {string} */ ours, /** @type {string | undefined} */ paper) => element("td", {}, [
    element("span", { text: ours }),
    ...(paper === undefined ? [] : [element("span", { class: "kv-paper", text: ` (${paper})` })]),
  ]);
  const head = ["", "token states", "reserved", "never written", "rounding + free", "batch", "steps to finish", "preemptions"];
  const tableRows = POLICIES.map((p) => {
    const r = trace.runs[p];
    const u = paperUse(p);
    const b = paperBatch(p);
    const opt = (/** @type {number | undefined} */ v) => (v === undefined ? undefined : pct1(v));
    return element("tr", {}, [
      element("td", { text: POLICY_LABELS[p] }),
      cell(pct1(r.mean_token_states), opt(u.token_states)),
      cell(pct1(r.mean_reserved), opt(u.reserved)),
      cell(pct1(r.mean_internal), opt(u.internal)),
      cell(pct1(r.mean_rounding + r.mean_free), opt(u.external_and_others)),
      cell(r.mean_running.toFixed(2), b === undefined ? undefined : b.toFixed(2)),
      cell(n(r.total_steps), undefined),
      cell(p === "paged" ? n(r.preemptions) : "", undefined),
    ]);
  });
  const caption = paperSetting
    ? `Averages over the saturated steps; in brackets the paper's (Figure 2${dataset === "sharegpt" ? "" : ": ShareGPT only"}; Figure 13's mean batch).`
    : "Averages over the saturated steps (the paper's figures are shown in its setting: its memory, blocks of 16).";
  return [element("caption", { text: caption }), element("tr", {}, head.map((h) => element("th", { text: h }))), ...tableRows];
}

/**
 * With the paper's memory (a fixed count of token slots) the model, GPU and format menus
 * change nothing in the trace: they are off, and say why, until KV memory is "what the
 * model leaves on the GPU".
 * @param {ReturnType<typeof buildControls>} ui
 * @param {boolean} paperMemory
 */
function switchSizedMenus({ sized, sizedOff }, paperMemory) {
  const why = "off: the paper's KV memory is a fixed count of token slots; pick \"what the model leaves on the GPU\" under KV memory to size it from the model";
  for (const c of sized) {
    c.disabled = paperMemory;
    c.title = paperMemory ? why : "";
  }
  sizedOff.textContent = paperMemory ? "Model to KV cache: off while KV memory is the paper's" : "";
  sizedOff.hidden = !paperMemory;
}

/**
 * A cache that never fills under some policy makes no request wait there: its shares are
 * then of memory nobody asked for, and the policies cannot be compared (paging at "97% not
 * holding tokens" would be the opposite of the lesson). Say so in place of the panels,
 * with what to change.
 * @param {App} app
 * @param {AnyModel} model
 * @param {ReturnType<typeof buildControls>} ui
 * @param {any} trace
 * @param {number} count
 * @param {string[]} neverFull
 */
function showNeverFills(app, model, { table, outs, outWasted, values }, trace, count, neverFull) {
  app.failure(neverFillsMessage(trace, neverFull, count, model.get("reference") || {}, axisValues(app, "request_counts")));
  app.say([{ text: "The shares are averages over the steps at which a request is waiting for memory: a full server. A run in which none waits has no such step." }]);
  /** @type {Element} */ (app.diagram).replaceChildren();
  table.replaceChildren();
  for (const p of POLICIES) {
    const r = trace.runs[p];
    // a policy that does fill keeps its true figures; one that never does has none to give
    outs[p].textContent = neverFull.includes(p) ? `not applicable: never full (all ${n(count)} requests at once)` : `${pct(r.mean_token_states)} of the cache holds tokens, batch ${batch(r.mean_running)}`;
  }
  outWasted.textContent = "not applicable: the cache never fills";
  markHolds(values, true);
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "Where does KV memory go when each request reserves its own, and when it is paged?");
  const ui = buildControls(app, model);
  const { outs, outWasted, values, hatchId, table } = ui;
  const runTrace = traceRunner(app, model);

  app.draw = () => {
    switchSizedMenus(ui, Number(model.get("kv_slots")) !== 0);
    markHolds(values, false);
    let traced;
    try {
      traced = runTrace();
    } catch (e) {
      // Valid inputs that leave nothing to trace (the weights fill the GPU): say so in
      // place of the figure, with the headline numbers greyed (the frame's failure).
      if (!(e instanceof KVInputError) || !/leave no KV memory/.test(e.message)) throw e;
      app.failure(e.message);
      app.say([{ text: "The KV memory is what the weights leave on the GPUs at 90% utilization; with none left there is no trace to run." }]);
      /** @type {Element} */ (app.diagram).replaceChildren();
      table.replaceChildren();
      for (const o of values) o.textContent = "none";
      markHolds(values, true);  // "none" is the answer, not a number drawn for other inputs
      return;
    }
    const { trace, dataset, count } = traced;
    const neverFull = POLICIES.filter((p) => trace.runs[p].saturated_steps === 0);
    if (neverFull.length) {
      showNeverFills(app, model, ui, trace, count, neverFull);
      return;
    }
    const view = model.get("view");
    const shown = view === "all" ? POLICIES : POLICIES.filter((p) => p === view);
    if (!shown.length) throw new KVInputError(`view must be one of ${axisValues(app, "views").join(", ")}, got ${view}`);
    const { svg, W } = drawFigure(app, trace, shown, hatchId);
    const ref = model.get("reference") || {};
    const paperSetting = trace.kv_slots === ref.paper_kv_slots && trace.block_size === 16 && trace.max_len === ref.paper_max_len;
    const lines = textLines(model, traced, paperSetting);
    const newTable = howTable(trace, dataset, ref, paperSetting);
    // Everything is computed: now touch the page.
    app.say(lines);
    table.replaceChildren(...newTable);
    for (const p of POLICIES) {
      const r = trace.runs[p];
      outs[p].textContent = `${pct(r.mean_token_states)} of the cache holds tokens, batch ${batch(r.mean_running)}`;
    }
    const orca = ["max", "pow2", "oracle"].map((p) => 1 - trace.runs[p].mean_token_states);
    outWasted.textContent = `reserving ${pct(Math.min(...orca))}-${pct(Math.max(...orca))}, paging ${pct(1 - trace.runs.paged.mean_token_states)}`;
    /** @type {Element} */ (app.diagram).replaceChildren(svg);
    app.drawnWidth = W;
  };
  return startApp(app);
}

export default widgetModule(render);
