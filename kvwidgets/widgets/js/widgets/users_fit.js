// UsersThatFit: GPU memory stacked up (weights, working area, the users' KV, left over,
// reserve) for 1, 2, 4 and 8 GPUs, the user count on each, and a plain message when the
// model does not load or loads but cannot serve one conversation.

import { fitMessage, usersThatFit } from "../calc/budget.js";
import { limitLines, perTokenReadouts } from "../calc/model.js";
import { fmtBytes } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { conceptColor } from "../ui/colours.js";
import { contextControl, dtypeSelect, gpuCount, gpuSelect, billionsBox, modelSelect, moreFold, paramsBox, paramsOverride, resetButton, selectControl, utilizationSlider } from "../ui/controls.js";
import { diagramWidth } from "../ui/diagram.js";
import { element, svgElement } from "../ui/dom.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

const COUNTABLE = 64;  // up to this many conversations each is its own segment; beyond, groups

/**
 * One deployment's memory as a bar: weights, working area, each conversation's cache as a
 * segment you can count (grouped into equal runs when there are too many to count), what
 * is left, and the reserve utilization keeps free. Widths are bytes; values from usersThatFit.
 * @param {App} app
 */
function memoryBar(app, fit, gpu, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const total = Number(fit.memory_bytes);
  const x = (b) => (Number(b) / total) * W;
  const h = 30 * s;
  const top = fs * 1.6;
  const parts = [];
  const n = Number(fit.users);
  const users = (k) => `${k.toLocaleString("en-US")} conversation${k === 1 ? "" : "s"}`;
  parts.push(svgElement("text", { x: 0, y: fs * 1.1, "font-size": fs, fill: t.fg, "font-weight": 600,
    text: `One deployment: ${fit.num_gpus} x ${gpu.name}, ${fmtBytes(fit.memory_bytes)}` }));
  let at = 0;
  const seg = (cls, bytes, concept, extra = {}) => {
    const w = x(bytes);
    if (w > 0) parts.push(svgElement("rect", { class: cls, x: at, y: top, width: w, height: h, fill: conceptColor(concept), ...extra }));
    at += Math.max(0, w);
  };
  const weights = fit.weights_bytes < fit.usable_bytes ? fit.weights_bytes : fit.usable_bytes;
  seg("kv-mem-weights", weights, "weights");
  if (fit.weights_fit) seg("kv-mem-working", fit.working_bytes, "working");
  const group = n <= COUNTABLE ? 1 : Math.ceil(n / 40);
  const convFrom = at;
  for (let i = 0; i < n; i += group) {
    const k = Math.min(group, n - i);
    seg("kv-mem-conv", fit.kv_per_user_bytes * BigInt(k), "kv", { stroke: t.bg, "stroke-width": 1, "data-conversations": k });
  }
  const convTo = at;
  seg("kv-mem-free", fit.left_over_bytes, "free");
  at = x(fit.usable_bytes);
  seg("kv-mem-reserve", fit.reserve_bytes, "reserve");
  // labels under the bar: what each part is, in reading order, wrapped onto new lines
  const labels = [
    ["weights", `weights ${fmtBytes(fit.weights_bytes)}`],
    ...(fit.working_bytes > 0n ? [["working", `working area ${fmtBytes(fit.working_bytes)}`]] : []),
    ["kv", n ? `${users(n)} x ${fmtBytes(fit.kv_per_user_bytes)}${group > 1 ? ` (each block: ${group})` : ""}` : "no conversation fits"],
    ["free", `left ${fmtBytes(fit.left_over_bytes)}`],
    ["reserve", `reserve ${fmtBytes(fit.reserve_bytes)}`],
  ];
  let lx = 0;
  let ly = top + h + 8 * s;
  for (const [concept, text] of labels) {
    const w = 18 * s + text.length * fs * 0.55;
    if (lx > 0 && lx + w > W) { lx = 0; ly += 18 * s; }
    parts.push(svgElement("rect", { x: lx, y: ly, width: 12 * s, height: 12 * s, fill: conceptColor(concept) }),
      svgElement("text", { x: lx + 16 * s, y: ly + 10.5 * s, "font-size": fs * 0.9, fill: t.fg, text }));
    lx += w + 14 * s;
  }
  if (n && convTo - convFrom > 90 * s) {
    parts.push(svgElement("text", { x: (convFrom + convTo) / 2, y: top + h / 2 + fs * 0.35, "font-size": fs, fill: conceptColor("ink"),
      "text-anchor": "middle", "font-weight": 600, text: users(n) }));
  }
  const H = ly + 20 * s;
  return svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font,
    "aria-label": `memory of ${fit.num_gpus} ${gpu.name}: ${users(n)} fit` }, parts);
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "How many conversations fit");
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
  const outUsers = app.readout("users", "Users:");
  const outPer = app.readout("kv_per_user", "KV per conversation:");
  const outBudget = app.readout("kv_budget", "Left after weights:");
  const outPerToken = app.readout("kv_per_token", "KV per token:");
  // the deployment's memory bar leads; the 1/2/4/8-GPU bars follow as the second view
  const bar = element("div", { class: "kv-diagram kv-membar" });
  app.plot.before(bar);

  app.draw = () => {
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
    /** @type {any[]} the fit for each GPU count, or why that count is refused */
    const fits = counts.map((n) => {
      try {
        return usersThatFit(shape, gpu, context, { ...o, numGpus: n });
      } catch (e) {
        return { error: e.message, num_gpus: n };
      }
    });
    const labels = counts.map((n) => `${n} GPU${n > 1 ? "s" : ""}${n === fit.num_gpus ? " (chosen)" : ""}`);
    const gb = (f, key) => (f.error ? 0 : Number(f[key]) / 1e9);
    /** @type {Array<[string, (f: any) => number]>} */
    const parts = [
      ["weights", (f) => Math.min(gb(f, "weights_bytes"), gb(f, "usable_bytes"))],
      ["working area", (f) => (f.error || !f.weights_fit ? 0 : gb(f, "working_bytes"))],
      ["users' KV", (f) => gb(f, "kv_used_bytes")],
      ["left over", (f) => gb(f, "left_over_bytes")],
      ["reserve (1 - utilization)", (f) => gb(f, "reserve_bytes")],
    ];
    const t = app.theme();
    const traces = parts.map(([name, get], i) => ({
      type: "bar", name, x: labels, y: fits.map(get),
      marker: { color: conceptColor(["weights", "working", "kv", "free", "reserve"][i]) },
      hovertemplate: "%{x}: %{y:.2f} GB<extra>" + name + "</extra>",
    }));
    const annotations = fits.map((f, i) => ({
      x: labels[i], y: f.error ? 0 : Number(f.memory_bytes) / 1e9, yanchor: "bottom", showarrow: false,
      text: f.error ? "heads do not split" : !f.weights_fit ? "does not load" : `${Number(f.users).toLocaleString("en-US")} users`,
      font: { color: t.fg },
    }));
    const barSvg = memoryBar(app, fit, gpu, diagramWidth(app));
    const perToken = perTokenReadouts(shape, o.kvBits).bytes_per_token;
    // Everything is computed: now touch the page.
    bar.replaceChildren(barSvg);
    outPerToken.textContent = perToken;
    const msg = fitMessage(fit);
    const lines = [{ text: msg, cls: fit.users > 0n ? "kv-note" : "kv-warn" }];
    if (o.memory === "device") lines.push({ text: `${gpu.name} reports ${fmtBytes(gpu.device_bytes)} (marketed ${fmtBytes(gpu.memory_bytes)}).`, cls: "kv-note" });
    lines.push(...limitLines(shape, { context: model.get("context"), weights: true, params: paramsOverride(app) }));
    app.say(lines);
    outUsers.textContent = Number(fit.users).toLocaleString("en-US");
    outPer.textContent = fmtBytes(fit.kv_per_user_bytes);
    outBudget.textContent = fit.weights_fit ? fmtBytes(fit.kv_budget_bytes) : "none (weights do not fit)";
    drawPlot(app, traces, {
      barmode: "stack",
      annotations,
      xaxis: { type: "category" },
      yaxis: { title: { text: `GPU memory, ${o.memory} (GB)` } },
    });
  };
  return startApp(app);
}

export default widgetModule(render);
