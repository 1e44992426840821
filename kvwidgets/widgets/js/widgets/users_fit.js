// UsersThatFit: GPU memory stacked up (weights, working area, the users' KV, left over,
// reserve) for 1, 2, 4 and 8 GPUs, the user count on each, and a plain message when the
// model does not load or loads but cannot serve one conversation.

import { fitMessage, usersThatFit } from "../calc/budget.js";
import { limitLines, perTokenReadouts } from "../calc/model.js";
import { fmtBytes, fmtConversations as conversations } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { barMarker, conceptColor, inkOn, svgPaint } from "../ui/colours.js";
import { contextControl, dtypeSelect, gpuCount, gpuSelect, billionsBox, modelSelect, moreFold, paramsBox, paramsOverride, resetButton, selectControl, utilizationSlider } from "../ui/controls.js";
import { diagramWidth } from "../ui/diagram.js";
import { element, markHolds, svgElement } from "../ui/dom.js";
import { drawSwatchLegend } from "../ui/legend.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 * @typedef {import("../calc/budget.js").Fit} Fit
 * @typedef {import("../shapes").GpuRow} GpuRow
 * @typedef {import("../shapes").UsersThatFitState} UsersThatFitState
 * @typedef {{ model: import("@anywidget/types").AnyModel<UsersThatFitState>, el: HTMLElement, host?: any }} UsersThatFitContext
 *   the render context, its model's state typed so that a misspelt trait name fails the check
 * @typedef {(Fit & { error?: undefined }) | (Partial<Fit> & { error: string, num_gpus: number })} FitOrRefusal
 *   the fit for one GPU count, or why that count is refused
 */

const COUNTABLE = 64;  // up to this many conversations each is its own segment; beyond, groups

/**
 * What the deployment's memory holds, in words: the count, the length, and the memory they fill.
 * @param {Fit} fit
 * @param {GpuRow} gpu
 */
function fitPoint(fit, gpu) {
  const n = Number(fit.users);
  const where = `${fit.num_gpus} ${gpu.name}`;
  if (!fit.weights_fit) return `on ${where} the weights (${fmtBytes(fit.weights_bytes)}) do not fit in the usable ${fmtBytes(fit.usable_bytes)}`;
  if (!n) return `on ${where} no conversation of ${fit.context.toLocaleString("en-US")} tokens fits: it needs ${fmtBytes(fit.kv_per_user_bytes)} and ${fmtBytes(fit.kv_budget_bytes)} is left after the weights`;
  return `${conversations(n)} of ${fit.context.toLocaleString("en-US")} tokens fit on ${where}; their cache fills ${fmtBytes(fit.kv_used_bytes)} `
    + `of ${fmtBytes(fit.usable_bytes)} usable, beside ${fmtBytes(fit.weights_bytes)} of weights`;
}

/**
 * What one deployment is asked to hold, in the order it is laid out from the start of its
 * memory: the weights, the working area, the conversations (at least the one that does not
 * fit, when none does). Whatever lies past the usable end is an overflow: drawn past it in
 * the warning colour, past the GPU's own end when it is that long.
 * @param {Fit} fit
 */
function layout(fit) {
  const weights = fit.weights_bytes;
  const working = fit.weights_fit ? fit.working_bytes : 0n;
  const n = Number(fit.users);
  // loads but cannot serve: the one conversation that does not fit is what overflows
  const conv = n > 0 || !fit.weights_fit ? fit.kv_used_bytes : fit.kv_per_user_bytes;
  const end = weights + working + conv;
  const over = end > fit.usable_bytes ? end - fit.usable_bytes : 0n;
  return { weights, working, conv, end, over, n };
}

/**
 * The legend rows the memory bar keeps room for at width W (scale s): three on a narrow page.
 * @param {number} W
 * @param {number} s
 */
const LEGEND_ROWS = (W, s) => (W < 760 * s ? 3 : 2);

/**
 * The memory bar's legend, concept and name, in reading order: the cache as the
 * conversations held (or the one that does not fit), the overflow or what is unused, and
 * the reserve only where some of it shows.
 * @param {Fit} fit
 * @param {ReturnType<typeof layout>} L
 * @param {number} group conversations a drawn segment holds
 * @returns {Array<Array<string>>}
 */
function memoryLegendLabels(fit, L, group) {
  const n = L.n;
  const memory = fit.memory_bytes;
  return [
    ["weights", `weights ${fmtBytes(fit.weights_bytes)}`],
    ...(L.working > 0n ? [["working", `working area ${fmtBytes(L.working)}`]] : []),
    ...(n > 0 ? [["kv", `${conversations(n)} x ${fmtBytes(fit.kv_per_user_bytes)}${group > 1 ? ` (each block holds ${group})` : ""}`]]
      : fit.weights_fit ? [["kv", `1 conversation needs ${fmtBytes(fit.kv_per_user_bytes)}; ${fmtBytes(fit.kv_budget_bytes)} is left`]] : []),
    ...(L.over ? [["warning", `${fmtBytes(L.over)} past the usable ${fmtBytes(fit.usable_bytes)}`]]
      // "unused", not "left": the readout's "Left after weights" is the whole cache budget,
      // this is what the whole conversations leave of it (less than one more needs)
      : fit.left_over_bytes > 0n ? [["free", `unused ${fmtBytes(fit.left_over_bytes)} (less than one more conversation)`]] : []),
    // the reserve is named only where some of it shows: an overflow past the GPU's end covers it
    ...(fit.reserve_bytes > 0n && L.end < memory ? [["reserve", `reserve ${fmtBytes(fit.reserve_bytes)}`]] : []),
  ];
}

/**
 * One deployment's memory as a bar: weights, working area, each conversation's cache as a
 * segment you can count (grouped into equal runs when there are too many to count), what
 * is left, and the reserve utilization keeps free. Widths are bytes; values from usersThatFit.
 * Weights or a conversation that do not fit run past the usable end in the warning colour,
 * past the GPU's end if need be, with the GPU's end marked.
 * @param {App} app
 * @param {Fit} fit
 * @param {GpuRow} gpu
 * @param {number} W
 */
function memoryBar(app, fit, gpu, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const L = layout(fit);
  const memory = fit.memory_bytes;
  const span = Number(L.end > memory ? L.end : memory);
  const x = (/** @type {bigint} */ b) => (Number(b) / span) * W;
  const h = 30 * s;
  const top = fs * 1.6;
  /** @type {Element[]} */
  const parts = [];
  const paint = svgPaint(app, s);  // free memory hatched: apart from the warning without colour
  const n = L.n;
  parts.push(svgElement("text", { x: 0, y: fs * 1.1, "font-size": fs, fill: t.fg, "font-weight": 600,
    text: `One deployment: ${fit.num_gpus} x ${gpu.name}, ${fmtBytes(memory)}` }));
  const usableEnd = x(fit.usable_bytes);
  // the reserve first: an overflow is drawn over it, as it would have to take it
  if (fit.reserve_bytes > 0n) {
    parts.push(svgElement("rect", { class: "kv-mem-reserve", x: usableEnd, y: top, width: x(memory) - usableEnd, height: h, fill: conceptColor("reserve") }));
  }
  let at = 0n;  // bytes laid out so far
  // a segment from `at`; the part of it past the usable end takes the warning colour
  const seg = (/** @type {string} */ cls, /** @type {bigint} */ bytes, /** @type {string} */ concept, extra = {}) => {
    if (bytes <= 0n) return;
    const room = fit.usable_bytes > at ? fit.usable_bytes - at : 0n;
    const inside = bytes < room ? bytes : room;
    if (inside > 0n) parts.push(svgElement("rect", { class: cls, x: x(at), y: top, width: x(inside), height: h, fill: paint.fill(concept), ...extra }));
    if (bytes > inside) {
      parts.push(svgElement("rect", { class: `${cls} kv-mem-over`, x: x(at + inside), y: top, width: x(bytes - inside), height: h,
        fill: conceptColor("warning"), ...extra }));
    }
    at += bytes;
  };
  seg("kv-mem-weights", L.weights, "weights");
  seg("kv-mem-working", L.working, "working");
  const group = n <= COUNTABLE ? 1 : Math.ceil(n / 40);
  const convFrom = x(at);
  if (n > 0) {
    for (let i = 0; i < n; i += group) {
      const k = Math.min(group, n - i);
      seg("kv-mem-conv", fit.kv_per_user_bytes * BigInt(k), "kv", { stroke: t.bg, "stroke-width": 1, "data-conversations": k });
    }
  } else if (fit.weights_fit) {
    seg("kv-mem-conv kv-mem-needed", L.conv, "kv", { stroke: t.bg, "stroke-width": 1, "data-conversations": 0 });
  }
  const convTo = x(at);
  if (!L.over) seg("kv-mem-free", fit.left_over_bytes, "free");
  // labels under the bar: what each part is, in reading order, wrapped onto new lines
  let ly = top + h + 8 * s;
  if (L.over) {
    // Where the overflow starts and where the GPU ends, each marked across the bar and
    // named under it on a row of its own (they can stand a few pixels apart): the usable
    // end dashed, the GPU's end solid.
    /** a mark at gx reaching down to its name on `row` (0, 1) under the bar */
    const endMark = (/** @type {string} */ cls, /** @type {number} */ gx, /** @type {string} */ text, /** @type {number} */ row, /** @type {Record<string, string | number>} */ extra) => {
      const ty = top + h + 4 * s + fs + row * fs * 1.2;
      parts.push(svgElement("line", { class: cls, x1: gx, x2: gx, y1: top - 4 * s, y2: ty - fs * 0.8, stroke: t.fg, ...extra }));
      const w = text.length * fs * 0.55;
      const before = gx > w + 4 * s;  // the name left of its mark where there is room
      parts.push(svgElement("text", { class: `${cls}-name`, x: gx + (before ? -4 * s : 4 * s), y: ty, "font-size": fs * 0.9, fill: t.fg,
        "text-anchor": before ? "end" : "start", text }));
    };
    // the usable end's name on the first row, left of its mark: the GPU's end (further
    // right) reaches down past it to the second row without crossing it
    endMark("kv-mem-usable", usableEnd, `usable to here: ${fmtBytes(fit.usable_bytes)}`, 0, { "stroke-width": 1.5 * s, "stroke-dasharray": `${4 * s} ${3 * s}` });
    endMark("kv-mem-end", x(memory), `the GPU ends: ${fmtBytes(memory)}`, 1, { "stroke-width": 2 * s });
    ly += fs * 2.4;
  }
  const legend = drawSwatchLegend(app, memoryLegendLabels(fit, L, group), paint, parts, ly, W, 0.55);
  ly = legend.ly;
  const legendRows = legend.rows;
  // the headline inside the bar where it has room: the conversations, or what overflows
  const [inBar, from, to, under] = n ? [conversations(n), convFrom, convTo, conceptColor("kv")]
    // past the GPU's end, clear of its mark
    : [fit.weights_fit ? "one conversation does not fit" : "the weights do not fit", x(memory) + 2 * s, x(L.end), conceptColor("warning")];
  if (to - from > inBar.length * fs * 0.6 + 8 * s) {
    // a halo of the fill under it, so the segments' edges do not run through the words
    parts.push(svgElement("text", { x: (from + to) / 2, y: top + h / 2 + fs * 0.35, "font-size": fs, fill: inkOn(under),
      stroke: under, "stroke-width": 4 * s, "stroke-linejoin": "round", "paint-order": "stroke",
      "text-anchor": "middle", "font-weight": 600, text: inBar }));
  }
  // One height whatever the inputs, so the widget does not grow under a dragged slider:
  // room below for the overflow's two named marks when there are none, and for the
  // legend's most rows at this width (its labels are longest when the bar overflows).
  const keep = app.keepsHeight();
  const spareRows = keep ? Math.max(0, LEGEND_ROWS(W, s) - legendRows) : 0;
  const H = ly + 20 * s + (keep && !L.over ? fs * 2.4 : 0) + spareRows * 18 * s;
  return svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font,
    "aria-label": `memory of ${fit.num_gpus} ${gpu.name}: ${fitPoint(fit, gpu)}` }, [paint.defs(), ...parts]);
}

/**
 * The controls and the readouts.
 * @param {App} app
 */
function buildControls(app) {
  modelSelect(app);
  gpuSelect(app);
  gpuCount(app);
  contextControl(app);
  dtypeSelect(app, "weight_dtype", "Weights");
  dtypeSelect(app, "kv_dtype", "KV cache");
  moreFold(app, () => {
    utilizationSlider(app);
    selectControl(app, "memory", "Memory", () => [["marketed", "marketed GB"], ["device", "device-reported"]]);
    billionsBox(app, "working_bytes", "Working area per GPU (GB)", {
      step: "0.5",
      ariaLabel: "working area per GPU in GB",
      mustBe: "working area must be a number of GB >= 0",
    });
    paramsBox(app);
  });
  resetButton(app);
  const outUsers = app.readout("users", "Conversations that fit:");
  const outPer = app.readout("kv_per_user", "KV per conversation:");
  const outBudget = app.readout("kv_budget", "Left after weights:");
  const outPerToken = app.readout("kv_per_token", "KV per token:");
  return { outUsers, outPer, outBudget, outPerToken };
}

/**
 * @param {FitOrRefusal} f
 * @param {keyof Fit} key
 */
const gbOf = (f, key) => (f.error ? 0 : Number(f[key]) / 1e9);

/**
 * A count that loads but holds no conversation is drawn as the deployment bar draws it:
 * the one conversation it was asked for fills what is left and runs past the usable end
 * in the warning colour, over the reserve (not a green "left over" that reads as room).
 * @param {FitOrRefusal} f
 */
const holdsNone = (f) => !f.error && f.weights_fit && f.users === 0n;

/**
 * GB of the one conversation past the usable end, where a count holds none.
 * @param {FitOrRefusal} f
 */
const convOver = (f) => (holdsNone(f) ? gbOf(f, "kv_per_user_bytes") - gbOf(f, "kv_budget_bytes") : 0);

/** @type {Array<[string, string, (f: FitOrRefusal) => number]>} the parts of each GPU count's bar, in order */
const COUNT_BAR_PARTS = [
  ["weights", "weights", (f) => Math.min(gbOf(f, "weights_bytes"), gbOf(f, "usable_bytes"))],
  ["warning", "weights past the usable memory", (f) => (f.error || f.weights_fit ? 0 : gbOf(f, "weights_bytes") - gbOf(f, "usable_bytes"))],
  ["working", "working area", (f) => (f.error || !f.weights_fit ? 0 : gbOf(f, "working_bytes"))],
  ["kv", "conversations' KV", (f) => gbOf(f, "kv_used_bytes")],
  ["kv", "one conversation: the part that fits", (f) => (holdsNone(f) ? gbOf(f, "kv_budget_bytes") : 0)],
  ["warning", "one conversation: past the usable memory", convOver],
  ["free", "unused (less than one more conversation)", (f) => (holdsNone(f) ? 0 : gbOf(f, "left_over_bytes"))],
  ["reserve", "reserve (1 - utilization)", (f) => (f.error || !f.weights_fit ? 0 : Math.max(0, gbOf(f, "reserve_bytes") - convOver(f)))],
];

/**
 * The fit for each GPU count, or why that count is refused.
 * @param {any} shape
 * @param {GpuRow} gpu
 * @param {number} context
 * @param {Parameters<typeof usersThatFit>[3]} o
 * @param {number[]} counts
 * @returns {FitOrRefusal[]}
 */
function fitsByCount(shape, gpu, context, o, counts) {
  return counts.map((n) => {
    try {
      return usersThatFit(shape, gpu, context, { ...o, numGpus: n });
    } catch (e) {
      return { error: /** @type {Error} */ (e).message, num_gpus: n };
    }
  });
}

/**
 * The deployment's memory bar leads; the 1/2/4/8-GPU bars follow, smaller, as the second
 * view. Both stay when the model does not load (kv-figure-keeps): the bar is the picture
 * of why, the GPU-count chart shows how many GPUs would load it. Only then: a draw that
 * throws leaves them drawn for other inputs, and the frame hides them. Returns the bar's
 * box and the function that keeps both or not.
 * @param {App} app
 */
function figureParts(app) {
  const bar = element("div", { class: "kv-diagram kv-membar" });
  app.plot.before(bar);
  const keep = (/** @type {boolean} */ yes) => {
    // only on a change: rewriting the class attribute each draw would restyle the figure
    for (const e of [bar, app.plot]) if (e.classList.contains("kv-figure-keeps") !== yes) e.classList.toggle("kv-figure-keeps", yes);
  };
  // the failure's words under the bar they explain, before the chart of what would load
  const panel = /** @type {HTMLElement} */ (app.figure.querySelector(".kv-failure"));
  panel.after(app.plot);
  return { bar, keep };
}

/**
 * @param {UsersThatFitContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "How many conversations fit on these GPUs at once?");
  const { outUsers, outPer, outBudget, outPerToken } = buildControls(app);
  const values = [outUsers, outPer, outBudget, outPerToken];
  const { bar, keep } = figureParts(app);

  app.draw = () => {
    markHolds(values, false);
    keep(false);
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const o = {
      numGpus: model.get("num_gpus"),
      weightBits: L.weightBits(),
      kvBits: L.bits("kv_dtype"),
      utilization: model.get("utilization"),
      workingBytes: model.get("working_bytes"),
      memory: model.get("memory"),
      params: paramsOverride(app),
    };
    const context = model.get("context");
    const fit = usersThatFit(shape, gpu, context, o); // throws on bad input: the figure stays
    const counts = [...axisValues(app, "gpu_counts")];
    if (!counts.includes(fit.num_gpus)) counts.push(fit.num_gpus);
    counts.sort((a, b) => a - b);
    const fits = fitsByCount(shape, gpu, context, o, counts);
    const labels = counts.map((n) => `${n} GPU${n > 1 ? "s" : ""}${n === fit.num_gpus ? " (chosen)" : ""}`);
    const t = app.theme();
    const s = app.scale();
    // only the parts some bar has: no trace (and no hover name) for what is not drawn
    const traces = COUNT_BAR_PARTS.filter(([, , get]) => fits.some((f) => get(f) > 0)).map(([concept, name, get]) => ({
      type: "bar", orientation: "h", name, y: labels, x: fits.map(get),
      marker: barMarker(concept, s),
      hovertemplate: "%{y}: %{x:.2f} GB<extra>" + name + "</extra>",
    }));
    const ends = fits.map((f) => (f.error ? 0 : Math.max(gbOf(f, "memory_bytes"), gbOf(f, "weights_bytes"), gbOf(f, "usable_bytes") + convOver(f))));
    const countText = (/** @type {FitOrRefusal} */ f) => (f.error ? "the KV heads do not split" : !f.weights_fit ? "does not load" : conversations(Number(f.users)));
    // the x range leaves room right of the longest bar for the widest count label
    const plotPx = Math.max(1, (app.plot.clientWidth || diagramWidth(app)) - 134 * s);
    const labelPx = Math.max(...fits.map((f) => countText(f).length)) * 12 * s * 0.6 + 8 * s;
    const xMax = Math.max(...ends) / (1 - Math.min(0.6, labelPx / plotPx));
    const annotations = fits.map((f, i) => ({
      y: labels[i], x: ends[i], xanchor: "left", xshift: 4 * s, showarrow: false,
      text: countText(f),
      font: { color: t.fg },
    }));
    const barSvg = memoryBar(app, fit, gpu, diagramWidth(app));
    const perToken = perTokenReadouts(shape, o.kvBits).bytes_per_token;
    // Everything is computed: now touch the page.
    bar.replaceChildren(barSvg);
    outPerToken.textContent = perToken;
    const msg = fitMessage(fit);
    // a model that does not load: the failure panel says so, not a warning line
    const lines = [{ text: msg, cls: fit.users > 0n || !fit.weights_fit ? "kv-note" : "kv-warn" }];
    if (o.memory === "device") lines.push({ text: `${gpu.name} reports ${fmtBytes(gpu.device_bytes)} (marketed ${fmtBytes(gpu.memory_bytes)}).`, cls: "kv-note" });
    lines.push(...limitLines(shape, { context: model.get("context"), weights: true, params: paramsOverride(app) }));
    app.say(lines);
    outUsers.textContent = fit.weights_fit ? Number(fit.users).toLocaleString("en-US") : "none (the model does not load)";
    outPer.textContent = fmtBytes(fit.kv_per_user_bytes);
    outBudget.textContent = fit.weights_fit ? fmtBytes(fit.kv_budget_bytes) : "none (the weights do not fit)";
    if (!fit.weights_fit) {
      // every readout still holds: the bytes per token and per conversation are the
      // model's, and "none" is the answer for this deployment
      markHolds(values, true);
      keep(true);
      app.failure(msg);
    }
    app.describeFigure(`GPU memory of the same model on ${counts.join(", ")} GPUs`,
      `${fitPoint(fit, gpu)}. By GPU count: ${fits.map((f, i) => `${counts[i]}: ${countText(f)}`).join(", ")}.`);
    drawPlot(app, traces, {
      height: Math.round((70 + 30 * counts.length) * s),
      margin: { l: 110 * s, r: 24 * s, t: 26 * s, b: 40 * s },  // r: half the last tick's label
      barmode: "stack",
      bargap: 0.3,
      showlegend: false,
      // the chart's caption, over its bars
      annotations: [...annotations, { text: "The same model on 1, 2, 4 and 8 GPUs", xref: "paper", yref: "paper", x: 0, y: 1,
        xanchor: "left", yanchor: "bottom", yshift: 4 * s, showarrow: false, font: { color: t.fg } }],
      // room right of the longest bar for its count
      xaxis: { title: { text: `GPU memory, ${o.memory} (GB)` }, range: [0, xMax] },
      yaxis: { type: "category", autorange: "reversed" },
    });
  };
  return startApp(app);
}

export default widgetModule(render);
