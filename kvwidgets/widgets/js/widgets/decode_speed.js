// DecodeSpeed: ideal bandwidth ceilings of decoding, per user (top) and in total
// (bottom), against context for several batch sizes; the bytes one step reads split into
// weights and KV; the batch at which KV reads pass the weights; measured H200 points.
// A model whose weights do not fit has no speed: the figure gives way to a message.

import { fitMessage, maxContext, usersThatFit } from "../calc/budget.js";
import { decodeCeiling, decodeFits } from "../calc/decode.js";
import { limitLines, modelWeightBytes } from "../calc/model.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { conceptColor, rampColor } from "../ui/colours.js";
import { contextControl, dtypeSelect, gpuCount, gpuSelect, intBox, modelSelect, moreFold, paramsBox, paramsOverride, resetButton } from "../ui/controls.js";
import { element } from "../ui/dom.js";
import { endLabels } from "../ui/end_labels.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @import { ModelShape, GpuRow, DecodeRow } from "../shapes"
 * @import { DecodeOptions } from "../calc/decode.js"
 * @typedef {ReturnType<import("../calc/decode.js").decodeCeiling>} Ceiling
 * @typedef {ReturnType<import("../calc/decode.js").decodeFits>} DecodeFit
 */

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 * @typedef {ReturnType<App["theme"]>} Theme
 * @typedef {ReturnType<typeof readInputs>} Inputs
 */

const POINTS = 41; // 4 per doubling from 1K to 1M

// Each measured batch's mark, [plotly symbol, the same shape as a character]: the shape,
// not only the colour, says which line a measured point belongs to (neighbouring batches'
// colours are close, and closer still to a reader with a colour-vision deficiency), and the
// character follows the batch's name at the line's end. Keyed to the batch, never to a
// position in the list; no circle, which is the chosen point's ring.
/** @type {Record<number, [string, string]>} */
const BATCH_MARKS = {
  1: ["square-open", "\u25A1"],
  8: ["triangle-up-open", "\u25B3"],
  32: ["star-open", "\u2606"],
  64: ["diamond-open", "\u25C7"],
  128: ["triangle-down-open", "\u25BD"],
  256: ["x", "\u2715"],
};

/**
 * @param {App} app
 */
function splitBar(app) {
  // The bytes of one step as a plain HTML bar: weights vs the batch's KV.
  const w = element("div", { class: "kv-seg", style: "display:inline-block;height:100%" });
  const k = element("div", { class: "kv-seg", style: "display:inline-block;height:100%" });
  const bar = element("div", { class: "kv-split", role: "img", style: "display:flex;height:1.2em;width:100%;margin:0.3em 0;border-radius:3px;overflow:hidden" }, [w, k]);
  const caption = element("div", { class: "kv-note", "data-kv-out": "step_split" });
  // one box, so that a failure (which hides the figure's children) hides the bar too
  app.plot.before(element("div", { class: "kv-split-box" }, [caption, bar]));
  return (/** @type {number} */ weights, /** @type {number} */ kv) => {
    const share = kv / (weights + kv);
    w.style.width = `${(1 - share) * 100}%`;
    k.style.width = `${share * 100}%`;
    w.style.background = conceptColor("weights");
    k.style.background = conceptColor("kv");
    const label = `weights ${fmtBytes(weights)} (blue) + KV ${fmtBytes(kv)} (orange) per GPU, ${(share * 100).toFixed(1)}% KV`;
    bar.setAttribute("aria-label", label);
    bar.title = label;
    caption.textContent = `Bytes of one step: ${label}.`;
  };
}

/**
 * Split one batch line at the longest context where `batch` caches fit (core max_context
 * at utilization 0.9): the solid part fits, the dotted part does not. The boundary is
 * exact and shared by both parts so the line stays continuous.
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {number[]} xs
 * @param {number} batch
 * @param {DecodeOptions} o
 * @returns {Array<{ fits: boolean, xs: number[], only?: boolean }>}
 */
function lineParts(shape, gpu, xs, batch, o) {
  const limit = maxContext(shape, gpu, batch, { ...o, utilization: 0.9 });
  if (limit === null || limit >= xs[xs.length - 1]) return [{ fits: true, xs }];
  if (limit < xs[0]) return [{ fits: false, xs, only: true }];
  const below = xs.filter((/** @type {number} */ c) => c < limit);
  const above = xs.filter((/** @type {number} */ c) => c > limit);
  return [{ fits: true, xs: [...below, limit] }, { fits: false, xs: [limit, ...above] }];
}

/**
 * "batch N" at the right end of the per-user lines. The top subplot's y range is fixed
 * (`yRange`, decades), so the labels can be spaced in pixels: the subplot gets 0.45 of the
 * plot area, and plotly takes the legend's rows out of that area (two rows at 800 px took
 * a quarter of it): count on at most 65% of it, so labels are at least `gap` apart (an
 * estimate from the end values alone put batch 48's label on batch 64's).
 * @param {App} app
 * @param {number[]} batches
 * @param {number} chosen
 * @param {number} xEnd
 * @param {(b: number) => number} at
 * @param {(b: number) => string} colorOf
 * @param {[number, number]} yRange
 * @param {number[]} marked
 */
function batchEndLabels(app, batches, chosen, xEnd, at, colorOf, yRange, marked) {
  const s = app.scale();
  const h = 0.65 * (520 * s - 86 * s) * 0.45;
  const mark = (/** @type {number} */ b) => (marked.includes(b) && BATCH_MARKS[b] ? ` ${BATCH_MARKS[b][1]}` : "");
  return endLabels(batches.map((/** @type {number} */ b) => ({ text: `batch ${b}${mark(b)}`, y: at(b), color: colorOf(b), bold: b === chosen })),
    { x: xEnd, pxPerDecade: h / (yRange[1] - yRange[0]), gap: 14 * s, size: 11 * s, ink: app.theme().fg });
}

/**
 * @param {number} batch
 * @param {number} context
 * @param {DecodeFit} fit
 * @param {boolean} loads
 */
function fitsText(batch, context, fit, loads) {
  const n = (/** @type {number | bigint} */ x) => Number(x).toLocaleString("en-US");
  if (!loads) return "the weights do not fit: the model does not load";
  const most = fit.max_batch === 0n ? "not even one fits" : `at most ${n(fit.max_batch)} fit`;
  return fit.fits
    ? `batch ${n(batch)} at ${fmtTokens(context)} tokens fits (up to ${n(fit.max_batch)})`
    : `batch ${n(batch)} at ${fmtTokens(context)} tokens does not fit (${most}): the ceiling assumes caches that cannot be held`;
}

/**
 * The controls, the readouts and the bar of one step's bytes.
 * @param {App} app
 */
function buildControls(app) {
  modelSelect(app);
  gpuSelect(app);
  gpuCount(app);
  contextControl(app);
  intBox(app, "batch", "Batch", { min: 1, max: 1 << 20 });
  dtypeSelect(app, "weight_dtype", "Weights");
  dtypeSelect(app, "kv_dtype", "KV cache");
  moreFold(app, () => paramsBox(app));
  resetButton(app);
  const outUser = app.readout("tokens_per_s_per_user", "Per conversation:");
  const outTotal = app.readout("tokens_per_s_total", "Total:");
  const outStep = app.readout("step_ms", "Step:");
  const outCross = app.readout("crossover_batch", "KV reads pass the weights at batch:");
  const outFits = app.readout("fits", "In memory:");
  const setSplit = splitBar(app);
  return { outUser, outTotal, outStep, outCross, outFits, setSplit };
}

/**
 * One draw's inputs, read and checked in the order their errors are reported: the ceiling
 * and the fit at the chosen point, whether the weights load at all, the contexts along
 * the x axis and the batches drawn.
 * @param {App} app
 */
function readInputs(app) {
  const model = app.model;
  const L = app.lookup();
  const shape = L.shape();
  const gpu = L.gpu();
  const o = { numGpus: model.get("num_gpus"), weightBits: L.weightBits(), kvBits: L.bits("kv_dtype"), params: paramsOverride(app) };
  const context = model.get("context");
  const batch = model.get("batch");
  const d = decodeCeiling(shape, gpu, context, batch, o); // throws on bad input: the figure stays
  const fit = decodeFits(shape, gpu, context, batch, o);
  // A model whose weights do not fit has no decode speed: no line, no bold tok/s.
  const load = usersThatFit(shape, gpu, context, { ...o, utilization: 0.9 });
  const xs = Array.from({ length: POINTS }, (_, i) => Math.round(2 ** (10 + i / 4)));
  const axes = model.get("axes") || {};
  const drawn = axes.lines || axisValues(app, "batches"); // a few lines by default (decode_speed.py LINES)
  /** @type {number[]} */
  const batches = drawn.includes(batch) ? drawn : [...drawn, batch].sort((a, b) => a - b);
  return { shape, gpu, o, context, batch, d, fit, load, loads: load.weights_fit, xs, batches };
}

/**
 * Widen the per-conversation range drawn (lo..hi, values above 0) to hold ys: the top
 * subplot's y range is fixed from it, so that the end labels can be spaced in pixels.
 * @param {{ lo: number, hi: number }} range
 * @param {number[]} ys
 */
function widen(range, ys) {
  for (const y of ys) if (y > 0) { range.lo = Math.min(range.lo, y); range.hi = Math.max(range.hi, y); }
}

const NOTE = " (does not fit in memory)";

/**
 * One part of a batch's line as two traces: per conversation (top) and in total (bottom).
 * @param {number} b
 * @param {number[]} contexts
 * @param {Ceiling[]} ds the ceilings at those contexts
 * @param {Record<string, any>} line plotly's line style
 * @param {string} note after the hover text
 * @param {boolean} showlegend
 */
function batchTraces(b, contexts, ds, line, note, showlegend) {
  const common = { type: "scatter", mode: "lines", name: `batch ${b}`, legendgroup: `b${b}`, x: contexts, line };
  return [
    { ...common, showlegend, xaxis: "x", yaxis: "y", y: ds.map((/** @type {Ceiling} */ x) => x.tokens_per_s_per_user),
      hovertemplate: `batch ${b}, %{x:,} tokens: %{y:,.1f} tok/s per conversation${note}<extra></extra>` },
    { ...common, showlegend: false, xaxis: "x2", yaxis: "y2", y: ds.map((/** @type {Ceiling} */ x) => x.tokens_per_s_total),
      hovertemplate: `batch ${b}, %{x:,} tokens: %{y:,.0f} tok/s total${note}<extra></extra>` },
  ];
}

/**
 * The batches' lines: one trace per batch and subplot for the part that fits (its own
 * colour and width), and the parts that do not fit gathered in `over`, separated by null
 * gaps, for one dotted trace per subplot: a full redraw costs plotly work per trace, so
 * fewer traces draw faster (a menu change redraws them all). A batch that fits nowhere
 * keeps a dotted line in its own colour, or nothing would show which line it is.
 * @param {Inputs} inp
 * @param {(b: number) => string} batchColor
 * @param {{ lo: number, hi: number }} range the per-conversation values drawn, widened here
 */
function batchLines({ shape, gpu, o, xs, batch, batches }, batchColor, range) {
  /** @type {Array<Record<string, any>>} plotly.js traces */
  const traces = [];
  /** @type {{ x: Array<number | null>, user: Array<number | null>, total: Array<number | null>, text: Array<string | null> }} */
  const over = { x: [], user: [], total: [], text: [] };
  const ceilings = (/** @type {number[]} */ contexts, /** @type {number} */ b) => {
    const ds = contexts.map((/** @type {number} */ c) => decodeCeiling(shape, gpu, c, b, o));
    widen(range, ds.map((/** @type {Ceiling} */ x) => x.tokens_per_s_per_user));
    return ds;
  };
  batches.forEach((/** @type {number} */ b) => {
    const color = batchColor(b);
    for (const part of lineParts(shape, gpu, xs, b, o)) {
      const ds = ceilings(part.xs, b);
      if (part.fits) {
        traces.push(...batchTraces(b, part.xs, ds, { color, width: b === batch ? 3 : 1.5 }, "", true));
      } else if (part.only) {
        // past the memory limit the line is what the bandwidth would allow, not what runs
        traces.push(...batchTraces(b, part.xs, ds, { color, width: 1, dash: "dot" }, NOTE, true)
          .map((tr) => ({ ...tr, opacity: 0.55 })));
      } else {
        if (over.x.length) for (const a of /** @type {Array<unknown[]>} */ (Object.values(over))) a.push(null);
        over.x.push(...part.xs);
        over.user.push(...ds.map((/** @type {Ceiling} */ x) => x.tokens_per_s_per_user));
        over.total.push(...ds.map((/** @type {Ceiling} */ x) => x.tokens_per_s_total));
        over.text.push(...part.xs.map(() => `batch ${b}`));
      }
    }
  });
  return { traces, over };
}

/**
 * The parts that do not fit, one dotted trace per subplot, which also name the style in
 * the legend once.
 * @param {ReturnType<typeof batchLines>["over"]} over
 * @param {Theme} t
 */
function dottedTraces(over, t) {
  const dotted = { type: "scatter", mode: "lines", name: "does not fit in memory", legendgroup: "nofit",
    x: over.x.length ? over.x : [null], text: over.text, line: { color: t.fg2, width: 1, dash: "dot" } };
  return [
    { ...dotted, xaxis: "x", yaxis: "y", y: over.x.length ? over.user : [null],
      hovertemplate: `%{text}, %{x:,} tokens: %{y:,.1f} tok/s per conversation${NOTE}<extra></extra>` },
    { ...dotted, showlegend: false, xaxis: "x2", yaxis: "y2", y: over.x.length ? over.total : [null],
      hovertemplate: `%{text}, %{x:,} tokens: %{y:,.0f} tok/s total${NOTE}<extra></extra>` },
  ];
}

/**
 * The chosen point as a layout annotation (a ring), not a trace: moving the context then
 * changes no trace, so Plotly redraws the annotation alone (see drawPlot's dataKey).
 * Annotations sit at log10 positions on log axes.
 * @param {App} app
 * @param {Inputs} inp
 */
function chosenRing(app, { context, d }) {
  return { x: Math.log10(context), y: Math.log10(d.tokens_per_s_per_user), xref: "x", yref: "y", text: "\u25EF",
    showarrow: false, xanchor: "center", yanchor: "middle", font: { color: app.theme().fg, size: 14 * app.scale() } };
}

/**
 * The measured H200 points, where they were measured (this model, this GPU, one of it):
 * for the batches drawn, each in its line's colour and its own shape, in both subplots.
 * `show` is whether they are drawn; `batches` the batches that have points.
 * @param {App} app
 * @param {Inputs} inp
 * @param {(b: number) => string} batchColor
 * @param {{ lo: number, hi: number }} range the per-conversation values drawn, widened here
 */
function measuredPoints(app, { shape, gpu, o, batches }, batchColor, range) {
  const meas = app.model.get("measured") || {};
  const show = meas.rows && (meas.models || [meas.model]).includes(shape.name) && gpu.name === meas.gpu && o.numGpus === 1;
  if (!show) return { show, meas, traces: [], batches: [] };
  const rows = meas.rows.filter((/** @type {DecodeRow} */ r) => batches.includes(r.batch) && BATCH_MARKS[r.batch]);
  /** @type {number[]} */
  const measured = [...new Set(rows.map((/** @type {DecodeRow} */ r) => r.batch))];
  widen(range, rows.map((/** @type {DecodeRow} */ r) => r.tokens_per_s_per_user));
  const colors = rows.map((/** @type {DecodeRow} */ r) => batchColor(r.batch));
  const marker = { symbol: rows.map((/** @type {DecodeRow} */ r) => BATCH_MARKS[r.batch][0]), size: 9 * app.scale(), color: colors,
    line: { color: colors, width: 1.5 * app.scale() } };
  const traces = [
    { type: "scatter", mode: "markers", name: "measured on an H200 (each batch's shape at its line's end)", x: rows.map((/** @type {DecodeRow} */ r) => r.context),
      y: rows.map((/** @type {DecodeRow} */ r) => r.tokens_per_s_per_user), marker, text: rows.map((/** @type {DecodeRow} */ r) => `batch ${r.batch}`), xaxis: "x", yaxis: "y",
      hovertemplate: "measured, %{text}, %{x:,} tokens: %{y:,.1f} tok/s per conversation<extra></extra>" },
    { type: "scatter", mode: "markers", name: "measured on an H200", showlegend: false, x: rows.map((/** @type {DecodeRow} */ r) => r.context),
      y: rows.map((/** @type {DecodeRow} */ r) => r.tokens_per_s_total), marker, text: rows.map((/** @type {DecodeRow} */ r) => `batch ${r.batch}`), xaxis: "x2", yaxis: "y2",
      hovertemplate: "measured, %{text}, %{x:,} tokens: %{y:,.0f} tok/s total<extra></extra>" },
  ];
  return { show, meas, traces, batches: measured };
}

/**
 * The crossover readout said in words: weights are read once per step, caches once per
 * sequence, so past their ratio the caches are most of what a step reads.
 * @param {Inputs} inp
 * @param {number} crossover the batch past which they are
 */
function crossoverLine({ shape, o, context, batch, d }, crossover) {
  const kvSeq = d.kv_bytes_per_step / batch;
  // against all the weights, as the readout (a MoE batch that large touches every expert)
  const allW = Number(modelWeightBytes(shape, o.params, o.weightBits)) / o.numGpus;
  return { text: `KV reads pass the weights at batch ${crossover.toLocaleString("en-US")}: a step reads the weights once for the whole batch (${fmtBytes(allW)} per GPU) but every sequence's own cache (${fmtBytes(kvSeq)} each at ${fmtTokens(context)} tokens): past ${fmtBytes(allW)} / ${fmtBytes(kvSeq)} = ${(allW / kvSeq).toLocaleString("en-US", { maximumFractionDigits: 1 })} sequences the caches are most of what a step reads.`, cls: "kv-note" };
}

/**
 * The text under the figure: what the ceiling assumes, where the measured points come
 * from, why KV reads pass the weights, and the model's own limits.
 * @param {App} app
 * @param {Inputs} inp
 * @param {ReturnType<typeof measuredPoints>} measured
 */
function sayText(app, inp, measured) {
  const { shape, gpu, o, context, d } = inp;
  const lines = [{ text: `Ideal ceiling: each step reads the weights once for the batch plus every sequence's own cache, at ${gpu.bandwidth_gbps.toLocaleString("en-US")} GB/s per GPU. Real engines reach a fraction of it.`, cls: "kv-note" }];
  if (measured.show) lines.push({ text: `Measured points, each batch's in its line's colour and shape (the shape follows the batch's name at the right): ${measured.meas.provenance}. The weights are random, the shape is Llama-3-8B's; compare with the bf16 lines.`, cls: "kv-note" });
  if (d.crossover_batch !== null) lines.push(crossoverLine(inp, d.crossover_batch));
  lines.push(...limitLines(shape, { context, weights: true, params: o.params }));
  app.say(lines);
}

/**
 * The bar of one step's bytes and the readouts: the ceilings, the step's time, the
 * crossover batch and whether the batch fits in memory (a warning when it does not).
 * @param {ReturnType<typeof buildControls>} outs
 * @param {Inputs} inp
 */
function fillReadouts(outs, { context, batch, d, fit, loads }) {
  outs.setSplit(d.weight_bytes_per_step, d.kv_bytes_per_step);
  const num = (/** @type {number} */ x, /** @type {number} */ dg) => x.toLocaleString("en-US", { maximumFractionDigits: dg });
  outs.outUser.textContent = `${num(d.tokens_per_s_per_user, 1)} tok/s`;
  outs.outTotal.textContent = `${num(d.tokens_per_s_total, 0)} tok/s`;
  outs.outStep.textContent = `${num(d.step_s * 1e3, 2)} ms`;
  outs.outCross.textContent = d.crossover_batch === null ? "never" : d.crossover_batch.toLocaleString("en-US");
  outs.outFits.textContent = fitsText(batch, context, fit, loads);
  outs.outFits.className = fit.fits ? "kv-value" : "kv-value kv-warn";
}

/**
 * The chart's point in words, from the numbers the readouts show.
 * @param {App} app
 * @param {Inputs} inp
 * @param {ReturnType<typeof buildControls>} outs
 * @param {boolean} showMeasured
 */
function describeChart(app, { context, batch, batches }, outs, showMeasured) {
  app.describeFigure(`decode speed ceiling against context, per conversation and in total, for batches ${batches.join(", ")}`,
    `At batch ${batch} and ${fmtTokens(context)} tokens each conversation decodes at most ${outs.outUser.textContent}, `
    + `${outs.outTotal.textContent} in total, one step every ${outs.outStep.textContent}; KV reads pass the weights at batch ${outs.outCross.textContent}; `
    + `in memory: ${outs.outFits.textContent}.${showMeasured ? " Measured H200 points are marked with x." : ""}`);
}

/**
 * The plotly chart: per conversation over total, on one shared log context axis, the
 * legend under both.
 * @param {App} app
 * @param {Inputs} inp
 * @param {Array<Record<string, any>>} traces
 * @param {Record<string, any>} chosen the chosen point's ring
 * @param {[number, number]} yRange the per-conversation axis, in decades
 * @param {unknown} showMeasured
 */
function plotChart(app, { shape, gpu, o, batch }, traces, chosen, yRange, showMeasured) {
  const t = app.theme();
  const xaxis = { type: "log", range: [Math.log10(900), Math.log10(1.2e6)] };
  const dataKey = [shape, gpu.name, o, batch, showMeasured];
  drawPlot(app, traces, {
    annotations: [chosen],
    margin: { l: 72 * app.scale(), r: 92 * app.scale(), t: 30 * app.scale(), b: 56 * app.scale() },
    height: Math.round(520 * app.scale()),
    grid: { rows: 2, columns: 1, subplots: [["xy"], ["x2y2"]], roworder: "top to bottom" },
    xaxis: { ...xaxis, matches: "x2", showticklabels: false },
    xaxis2: { ...xaxis, title: { text: "context (tokens per sequence)" } },
    yaxis: { type: "log", title: { text: "tok/s per conversation" }, range: yRange },
    yaxis2: { type: "log", title: { text: "tok/s total" } },
    // top-anchored below the x title: a bottom-anchored legend at y < 0 grows upward
    // into the title. Every length scales with `scale`, so one fraction fits all.
    legend: { orientation: "h", yanchor: "top", y: -0.19, font: { color: t.fg } },
  }, dataKey);
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "Decode speed ceiling");
  const outs = buildControls(app);

  app.draw = () => {
    const inp = readInputs(app);
    const { shape, gpu, o, xs, batch, batches } = inp;
    const t = app.theme();
    // a batch's colour follows its size, whatever else is drawn: batch 1 at the ramp's
    // faint end (which still reads at 3:1), so the batches drawn spread over all of it
    const batchColor = (/** @type {number} */ b) => rampColor(b, 1, 1024, t.dark);
    const range = { lo: Infinity, hi: 0 };  // the per-conversation values drawn, for the top y range
    const { traces, over } = batchLines(inp, batchColor, range);
    traces.push(...dottedTraces(over, t));
    const chosen = chosenRing(app, inp);
    const measured = measuredPoints(app, inp, batchColor, range);
    traces.push(...measured.traces);
    // Each batch's name at the right end of its per-user line, in its colour (the lines
    // are far apart there: a step's KV reads dominate), pushed apart where two would touch.
    /** @type {[number, number]} the per-conversation axis, in decades */
    const yRange = range.hi > 0 ? [Math.log10(range.lo) - 0.1, Math.log10(range.hi) + 0.1] : [-1, 3];
    const xEnd = xs[xs.length - 1];
    traces.push(batchEndLabels(app, batches, batch, xEnd, (/** @type {number} */ b) => decodeCeiling(shape, gpu, xEnd, b, o).tokens_per_s_per_user, batchColor, yRange, measured.batches));
    // Everything is computed: now touch the page.
    sayText(app, inp, measured);
    fillReadouts(outs, inp);
    if (!inp.loads) {
      app.failure(`${fitMessage(inp.load)} Nothing is decoded, so there is no speed to draw: more GPUs, a smaller number format for the weights or a bigger GPU would load it.`);
      return;
    }
    // drawn while visible: a plot drawn into the hidden figure would take plotly's default width
    if (app.root.classList.contains("kv-failed")) app.root.classList.remove("kv-failed");  // no class write on every draw
    describeChart(app, inp, outs, Boolean(measured.show));
    plotChart(app, inp, traces, chosen, yRange, measured.show);
  };
  return startApp(app);
}

export default widgetModule(render);
