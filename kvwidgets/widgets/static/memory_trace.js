// Built by scripts/build_js.mjs from kvwidgets/widgets/js: edit those files, not this one (DEVELOP.md).

// kvwidgets-library:library_binding
var Buddy;
var CONCEPT_COLORS;
var CONTEXT_STEPS;
var HATCHED;
var KEYED_TAGS;
var KIND_NAMES;
var KVInputError;
var PAGE_DARK;
var PAGE_LIGHT;
var POLICIES;
var POLICY_LABELS;
var RAMP;
var SCALE;
var SVG_NS;
var accentColor;
var activeParams;
var allocatorTrace;
var axisValues;
var barMarker;
var big;
var billionsBox;
var blockPlan;
var blocksFor;
var boxesPath;
var bytesByKind;
var cacheTransfer;
var ceilDiv;
var checkInt;
var conceptColor;
var contextControl;
var contextGrid;
var contextToPosition;
var createApp;
var decimalFraction;
var decodeCeiling;
var decodeFits;
var decodeStepBytes;
var decodeWeightBytes;
var decodeWeightParams;
var diagramBox;
var diagramWidth;
var drawPlot;
var drawSwatchLegend;
var dtypeBits;
var dtypeColor;
var dtypeDash;
var dtypeSelect;
var element;
var endLabels;
var exactDouble;
var fitMessage;
var fixed;
var fixedBytes;
var floatSlider;
var floorDiv;
var fmtBytes;
var fmtConversations;
var fmtGB;
var fmtTokens;
var getLink;
var gpuCount;
var gpuMemory;
var gpuSelect;
var groupBits;
var groupBytesPerToken;
var groupsBytesPerToken;
var grows;
var inkOn;
var inputNames;
var intBox;
var interpolateLog;
var isFocused;
var kvBytes;
var kvBytesPerToken;
var kvBytesPerTokenWithinWindows;
var kvHeadsPerGpu;
var kvSlotsFor;
var labelled;
var limitLines;
var luminance;
var makeLookup;
var markHolds;
var maxContext;
var memoryBudget;
var modelSelect;
var modelWeightBytes;
var moreFold;
var nextPow2;
var notePlotlyProblem;
var noteWidth;
var numbersPerToken;
var pageScheme;
var paramsBox;
var paramsOverride;
var perTokenReadouts;
var plotLayout;
var positionToContext;
var prefillSeconds;
var rampColor;
var readTheme;
var recomputeCrossover;
var reloadSeconds;
var resetButton;
var selectControl;
var setTextLines;
var sharePlotlyStyles;
var startApp;
var svgElement;
var svgPaint;
var themeKey;
var themeSource;
var tierGbps;
var tokenBits;
var tokenBitsFraction;
var tokensHeld;
var traceGrid;
var tryModelCall;
var usersStaircase;
var usersThatFit;
var utilizationFraction;
var utilizationSlider;
var weightBytes;
var LIBRARY_HASH = "b309a36328bd4399";
var inlinedLibrary = null;
function bindLibrary(lib) {
  ({ Buddy, CONCEPT_COLORS, CONTEXT_STEPS, HATCHED, KEYED_TAGS, KIND_NAMES, KVInputError, PAGE_DARK, PAGE_LIGHT, POLICIES, POLICY_LABELS, RAMP, SCALE, SVG_NS, accentColor, activeParams, allocatorTrace, axisValues, barMarker, big, billionsBox, blockPlan, blocksFor, boxesPath, bytesByKind, cacheTransfer, ceilDiv, checkInt, conceptColor, contextControl, contextGrid, contextToPosition, createApp, decimalFraction, decodeCeiling, decodeFits, decodeStepBytes, decodeWeightBytes, decodeWeightParams, diagramBox, diagramWidth, drawPlot, drawSwatchLegend, dtypeBits, dtypeColor, dtypeDash, dtypeSelect, element, endLabels, exactDouble, fitMessage, fixed, fixedBytes, floatSlider, floorDiv, fmtBytes, fmtConversations, fmtGB, fmtTokens, getLink, gpuCount, gpuMemory, gpuSelect, groupBits, groupBytesPerToken, groupsBytesPerToken, grows, inkOn, inputNames, intBox, interpolateLog, isFocused, kvBytes, kvBytesPerToken, kvBytesPerTokenWithinWindows, kvHeadsPerGpu, kvSlotsFor, labelled, limitLines, luminance, makeLookup, markHolds, maxContext, memoryBudget, modelSelect, modelWeightBytes, moreFold, nextPow2, notePlotlyProblem, noteWidth, numbersPerToken, pageScheme, paramsBox, paramsOverride, perTokenReadouts, plotLayout, positionToContext, prefillSeconds, rampColor, readTheme, recomputeCrossover, reloadSeconds, resetButton, selectControl, setTextLines, sharePlotlyStyles, startApp, svgElement, svgPaint, themeKey, themeSource, tierGbps, tokenBits, tokenBitsFraction, tokensHeld, traceGrid, tryModelCall, usersStaircase, usersThatFit, utilizationFraction, utilizationSlider, weightBytes } = lib);
}

// kvwidgets/widgets/js/loader/page_slots.js
var PLOTLY_SLOT = "__kvwidgetsPlotly";
var LIBRARY_SLOT = "__kvwidgetsLibrary";
function once(table, slot, start) {
  if (!table[slot]) {
    table[slot] = start().catch((e) => {
      delete table[slot];
      throw e;
    });
  }
  return table[slot];
}
function plotlyOnce(start) {
  return once(
    /** @type {any} */
    globalThis,
    PLOTLY_SLOT,
    start
  );
}
function libraryOnce(hash, start) {
  const g = (
    /** @type {any} */
    globalThis
  );
  const table = g[LIBRARY_SLOT] = g[LIBRARY_SLOT] || {};
  return once(table, hash, start);
}

// kvwidgets/widgets/js/loader/shared_assets.js
var WAIT_MS = 15e3;
var MODEL_REF = "IPY_MODEL_";
function within(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer within ${ms / 1e3} s`)), ms);
  });
  return (
    /** @type {Promise<T>} */
    Promise.race([promise, late]).finally(() => clearTimeout(timer))
  );
}
async function sharedAssetsModel(model, host) {
  const ref = model.get("_shared_assets");
  if (typeof ref !== "string" || !ref.startsWith(MODEL_REF)) {
    throw new Error("the widget's state names no shared assets model (_shared_assets)");
  }
  const manager = (
    /** @type {any} */
    model.widget_manager
  );
  if (manager && typeof manager.get_model === "function") {
    return within(WAIT_MS, Promise.resolve(manager.get_model(ref.slice(MODEL_REF.length))), "the widget manager");
  }
  if (host && typeof host.getModel === "function") return within(WAIT_MS, host.getModel(ref), "anywidget's host");
  throw new Error("this page gives widgets no access to other widget models");
}
function textsFromKernel(model) {
  return within(WAIT_MS, new Promise((resolve) => {
    const onMsg = (msg) => {
      if (!msg || msg.kvw !== "shared-assets") return;
      if (typeof model.off === "function") {
        try {
          model.off("msg:custom", onMsg);
        } catch {
        }
      }
      resolve(msg);
    };
    model.on("msg:custom", onMsg);
    model.send({ kvw: "shared-assets" });
  }), "the kernel");
}
var sharedTexts = /* @__PURE__ */ new WeakMap();
function fetchShared(model, host) {
  let texts = sharedTexts.get(model);
  if (!texts) {
    texts = (async () => {
      let firstProblem;
      try {
        const shared = await sharedAssetsModel(model, host);
        const t = {};
        for (const k of ["plotly", "plotly_version", "library", "library_hash"]) t[k] = shared.get(k);
        if (t.plotly && t.library) return (
          /** @type {SharedTexts} */
          t
        );
        firstProblem = new Error("the shared assets model is empty");
      } catch (e) {
        firstProblem = e;
      }
      try {
        return await textsFromKernel(model);
      } catch (e) {
        throw new Error(`${errorText(firstProblem)}; ${errorText(e)}`, { cause: e });
      }
    })();
    texts.catch(() => sharedTexts.delete(model));
    sharedTexts.set(model, texts);
  }
  return texts;
}
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}
async function importText(source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
async function evaluatePlotly(texts) {
  const page = (
    /** @type {any} */
    window
  );
  if (page.Plotly && texts.plotly_version && page.Plotly.version === texts.plotly_version) return page.Plotly;
  if (!texts.plotly) throw new Error("the shared assets model holds no plotly.js");
  await importText(texts.plotly);
  if (!page.Plotly) throw new Error("the plotly.js bundle ran but did not set window.Plotly");
  return page.Plotly;
}
function evaluateLibrary(texts) {
  if (texts.library_hash !== LIBRARY_HASH) {
    return Promise.reject(new Error(`the kernel holds kvwidgets code ${texts.library_hash || "(none)"}, this widget was built with ${LIBRARY_HASH}: restart the kernel and run the cell again`));
  }
  return importText(
    /** @type {string} */
    texts.library
  );
}
async function libraryReady({ model, host }) {
  if (inlinedLibrary) return inlinedLibrary;
  const lib = await libraryOnce(LIBRARY_HASH, () => fetchShared(model, host).then(evaluateLibrary));
  bindLibrary(lib);
  return lib;
}
async function plotlyReady({ model, host }) {
  try {
    await plotlyOnce(() => fetchShared(model, host).then(evaluatePlotly));
    return "";
  } catch (e) {
    console.error("[kvwidgets] plotly.js could not be loaded:", e);
    return errorText(e);
  }
}

// kvwidgets/widgets/js/loader/widget_module.js
async function ready(ctx) {
  const [lib, plotlyProblem] = await Promise.all([libraryReady(ctx), plotlyReady(ctx)]);
  lib.notePlotlyProblem(plotlyProblem);
}
function cannotRender({ el }, e) {
  const why = e instanceof Error ? e.message : String(e);
  console.error("[kvwidgets] the widget's shared code could not be loaded:", e);
  const box = document.createElement("div");
  box.className = "kv-widget";
  const line = document.createElement("div");
  line.className = "kv-error";
  line.textContent = `kvwidgets could not load its shared code: ${why}`;
  box.append(line);
  el.replaceChildren(box);
}
function widgetModule(render2) {
  return {
    /** @param {{ model: AnyModel }} ctx */
    initialize(ctx) {
      ready(ctx).catch(() => {
      });
    },
    /** @param {{ model: import("@anywidget/types").AnyModel<S>, el: HTMLElement, host?: any }} ctx */
    async render(ctx) {
      try {
        await ready(ctx);
      } catch (e) {
        return cannotRender(ctx, e);
      }
      return render2(ctx);
    }
  };
}

// kvwidgets/widgets/js/widgets/memory_trace.js
var USES = [
  ["token_states", "kv", "token states"],
  ["reserved", "reserved", "reserved, not yet written"],
  ["internal", "waste", "never written"],
  ["rounding", "rounding", "allocator rounding"],
  ["free", "free", "free"]
];
var DATASET_LABELS = { sharegpt: "ShareGPT", alpaca: "Alpaca" };
var FINISHED_LABEL = "finished: every request done";
var patternCount = 0;
var n = (x) => Number(x).toLocaleString("en-US");
var pct = (x) => `${(x * 100).toLocaleString("en-US", { maximumFractionDigits: 0 })}%`;
var pct1 = (x) => `${(x * 100).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;
var batch = (x) => x.toLocaleString("en-US", { maximumFractionDigits: x < 10 ? 1 : 0 });
function neverFillsMessage(trace, neverFull, count, ref, counts) {
  const names = neverFull.map((p) => POLICY_LABELS[p]);
  const who = names.length === POLICIES.length ? "any allocator" : names.join(", ");
  const more = counts.filter((c) => c > count);
  const paper = ref.paper_kv_slots;
  const less = [
    ...paper && paper < trace.kv_slots ? [`the paper's ${n(paper)} token slots`] : [],
    "a bigger model",
    "fewer or smaller GPUs"
  ];
  return `At ${n(trace.kv_slots)} token slots the cache never fills under ${who}: all ${n(count)} requests run at once, no request waits for memory, and the shares would measure memory nobody asked for. The four allocators cannot be compared here. To fill the cache, give ${more.length ? `more requests (${n(more[more.length - 1])}) or ` : ""}less KV memory (${less.join(", ")}).`;
}
function buildControls(app, model) {
  selectControl(app, "dataset", "Requests like", () => Object.keys(model.get("lengths") || DATASET_LABELS).map((d) => [d, DATASET_LABELS[d] || d]), ["lengths"]);
  selectControl(app, "num_requests", "How many", () => axisValues(app, "request_counts").map((c) => [c, n(c)]), ["axes"]);
  selectControl(app, "kv_slots", "KV memory", () => {
    const paper = (model.get("reference") || {}).paper_kv_slots || 15728;
    return [[paper, `the paper's: ${n(paper)} token slots`], [0, "what the model leaves on the GPU"]];
  }, ["reference"]);
  selectControl(app, "block_size", "Block size", () => axisValues(app, "block_sizes").map((b) => [b, `${b} tokens`]), ["axes"]);
  selectControl(app, "view", "Show", () => axisValues(app, "views").map((v) => [v, v === "all" ? "all four" : POLICY_LABELS[v] || v]), ["axes"]);
  resetButton(app);
  const sized = [modelSelect(app), gpuSelect(app), gpuCount(app), dtypeSelect(app, "weight_dtype", "Weights"), dtypeSelect(app, "kv_dtype", "KV cache")];
  const sizedOff = element("span", { class: "kv-note kv-sized-off" });
  app.controls.append(sizedOff);
  const outs = Object.fromEntries(POLICIES.map((p) => [p, app.readout(p, `${POLICY_LABELS[p]}:`)]));
  const outWasted = app.readout("wasted", "Not holding tokens:");
  const values = [...Object.values(outs), outWasted];
  const hatchId = `kv-mt-finished-${++patternCount}`;
  diagramBox(app);
  const table = element("table", { class: "kv-how-table" });
  app.text.before(table);
  return { sized, sizedOff, outs, outWasted, values, hatchId, table };
}
function traceRunner(app, model) {
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
      const reqs = [];
      for (let i = 0; i < count; i++) reqs.push([flat[2 * i], flat[2 * i + 1]]);
      cache = { key, trace: allocatorTrace(reqs, { kvSlots, blockSize, points: axisValues(app, "points")[0] }) };
    }
    return { trace: cache.trace, dataset, count, budget };
  };
}
function drawLegend(f, finishesEarly) {
  const { t, s, W, fs, paint, hatchId } = f;
  let lx = 0;
  let ly = 0;
  const legend = svgElement("g", { class: "kv-mt-legend" });
  const entries = USES.map(([, concept, label]) => [paint.fill(concept), label]);
  if (finishesEarly) entries.push([`url(#${hatchId})`, FINISHED_LABEL]);
  for (const [fill, label] of entries) {
    const w = 18 * s + label.length * fs * 0.52;
    if (lx > 0 && lx + w > W) {
      lx = 0;
      ly += 18 * s;
    }
    legend.append(
      svgElement("rect", { x: lx, y: ly + 1 * s, width: 12 * s, height: 12 * s, fill, stroke: t.fg2, "stroke-width": fill.startsWith("url") ? 0.5 * s : 0 }),
      svgElement("text", { x: lx + 17 * s, y: ly + 11 * s, "font-size": fs * 0.9, fill: t.fg2, text: label })
    );
    lx += w + 14 * s;
  }
  return { legend, top: ly + 26 * s };
}
function drawAreas(f, g, run, { px, py, plotW, ph, X, Y }) {
  const { t, s, fs, paint, hatchId, lastStep } = f;
  const steps = f.trace.steps;
  const runEnd = Math.min(run.total_steps, lastStep);
  const idx = steps.map((_, j) => j).filter((j) => steps[j] < runEnd);
  const xs = [...idx.map((j) => X(steps[j])), X(runEnd)];
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
      g.append(svgElement("text", {
        x: (fx + px + plotW) / 2,
        y: py + ph / 2 + fs * 0.35,
        "font-size": fs,
        "font-weight": 600,
        fill: t.fg,
        "text-anchor": "middle",
        stroke: t.bg,
        "stroke-width": 4 * s,
        "stroke-linejoin": "round",
        "paint-order": "stroke",
        text: word
      }));
    }
  }
}
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
function drawPanel(f, pol, b) {
  const { t, fs } = f;
  const run = f.trace.runs[pol];
  const g = svgElement("g", { class: "kv-mt-panel", "data-policy": pol, "data-token-share": run.mean_token_states.toFixed(4), "data-batch": run.mean_running.toFixed(2) });
  g.append(
    svgElement("text", { x: b.x0, y: b.y0 + fs, "font-size": fs, "font-weight": 600, fill: t.fg, text: run.label }),
    svgElement("text", { x: b.x0 + b.pw, y: b.y0 + fs, "font-size": fs * 0.9, fill: t.fg2, "text-anchor": "end", text: `${pct(run.mean_token_states)} tokens, batch ${batch(run.mean_running)}` })
  );
  drawAreas(f, g, run, b);
  drawPanelAxes(f, g, run, b);
  return g;
}
function drawFigure(app, trace, shown, hatchId) {
  const t = app.theme();
  const s = app.scale();
  const W = diagramWidth(app);
  const fs = 12 * s;
  const paint = svgPaint(app, s);
  const steps = trace.steps;
  const end = shown.length > 1 ? steps.length ? steps[steps.length - 1] : 1 : trace.runs[shown[0]].total_steps;
  const f = { t, s, W, fs, paint, hatchId, trace, lastStep: Math.max(1, end) };
  const finishesEarly = shown.some((p) => trace.runs[p].total_steps < f.lastStep);
  const hatch = svgElement("pattern", { id: hatchId, width: 6 * s, height: 6 * s, patternUnits: "userSpaceOnUse", patternTransform: "rotate(0)" }, [
    svgElement("rect", { width: 6 * s, height: 6 * s, fill: t.bg }),
    svgElement("line", { x1: 0, x2: 0, y1: 0, y2: 6 * s, stroke: t.fg2, "stroke-width": 1.2 * s })
  ]);
  const { legend, top } = drawLegend(f, finishesEarly);
  const parts = [svgElement("defs", {}, [hatch]), legend];
  const cols = shown.length > 1 && W >= 620 * s ? 2 : 1;
  const gap = 22 * s;
  const pw = (W - gap * (cols - 1)) / cols;
  const ph = (shown.length > 1 ? 110 : 220) * s;
  const axisW = 36 * s;
  const titleH = fs * 1.9;
  const ticksH = fs * 1.5;
  const rowH = titleH + ph + ticksH + 10 * s;
  shown.forEach((pol, i) => {
    const x0 = i % cols * (pw + gap);
    const y0 = top + Math.floor(i / cols) * rowH;
    const px = x0 + axisW;
    const plotW = Math.max(60, pw - axisW - 4 * s);
    const py = y0 + titleH;
    const X = (step) => px + (f.lastStep > 0 ? step / f.lastStep * plotW : 0);
    const Y = (share) => py + ph * (1 - share);
    parts.push(drawPanel(f, pol, { x0, y0, pw, px, py, plotW, ph, X, Y }));
  });
  const H = top + Math.ceil(shown.length / cols) * rowH;
  const aria = shown.map((p) => `${POLICY_LABELS[p]}: ${pct(trace.runs[p].mean_token_states)} of the cache holds tokens, batch ${batch(trace.runs[p].mean_running)}`).join("; ");
  return { W, svg: svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font, "aria-label": aria }, [paint.defs(), ...parts]) };
}
function textLines(model, { trace, dataset, count, budget }, paperSetting) {
  const ref = model.get("reference") || {};
  const fit = (ref.fits || {})[dataset] || {};
  const lines = [];
  const memory = budget ? `${n(trace.kv_slots)} token slots: what ${budget.shape.name} leaves on ${budget.numGpus} x ${budget.gpu.name} at 90% utilization, divided by its KV bytes per token (a slot is one token in every layer)` : `${n(trace.kv_slots)} token slots${trace.kv_slots === ref.paper_kv_slots ? " (the paper's Table 1: OPT-13B on an A100-40GB leaves 12 GiB for the cache, at 800 KiB a token)" : ""}`;
  lines.push(
    { text: `${n(count)} requests like ${fit.label || dataset}'s (seed ${model.get("seed")}) on ${memory}; the longest sequence is ${n(trace.max_len)} tokens (OPT's), blocks of ${trace.block_size}.` },
    { text: "Every request waits at step 0 and is admitted first come, first served when its memory fits; one decode step writes one token per running request. The shares are averages over the steps at which a request is still waiting: a full server." },
    { text: "Orca (Max) reserves the maximum length, Orca (Pow2) the prompt plus the output rounded up to a power of two, Orca (Oracle) exactly prompt + output; each reservation is placed by a buddy allocator (the paper's assumption), which rounds it up to a power of two and can split free space too finely for the next request. vLLM hands out blocks as a sequence grows, keeps 1% of the blocks free when admitting (vLLM 0.2.0) and preempts the latest request when blocks run out." },
    { text: "Reserved, not yet written: slots held for tokens the request will still write. Never written: slots held past a request's end (or the empty tail of its last block). Allocator rounding + free: what the paper calls external fragmentation and others." },
    { text: `Request lengths: lognormal draws with the paper's mean lengths (Figure 11: ${fit.label || dataset} prompts ${fit.input_mean} tokens, outputs ${fit.output_mean}); the spread is ours: output sigma ${fit.output_sigma} fitted to Figure 2's Orca (Max) bar, prompt sigma ${fit.input_sigma} assumed; prompts at most ${n(fit.max_input || 0)} tokens.` }
  );
  if (paperSetting) {
    lines.push({ text: "The paper's runs are one-hour traces of real lengths at one request rate (ShareGPT 2 requests/s, Alpaca 30); ours are saturated synthetic traces. vLLM's Alpaca batch (132) is not a memory limit at the paper's rate, so ours is higher; the paper's vLLM bar gives only the token share (96.3%)." });
  }
  if (ref.source) lines.push({ text: `Source: ${ref.source}` });
  return lines;
}
function howTable(trace, dataset, ref, paperSetting) {
  const paperUse = (p) => paperSetting && dataset === "sharegpt" ? (ref.paper_kv_use || {})[p] || {} : {};
  const paperBatch = (p) => paperSetting ? ((ref.paper_batch || {})[dataset] || {})[p] : void 0;
  const cell = (ours, paper) => element("td", {}, [
    element("span", { text: ours }),
    ...paper === void 0 ? [] : [element("span", { class: "kv-paper", text: ` (${paper})` })]
  ]);
  const head = ["", "token states", "reserved", "never written", "rounding + free", "batch", "steps to finish", "preemptions"];
  const tableRows = POLICIES.map((p) => {
    const r = trace.runs[p];
    const u = paperUse(p);
    const b = paperBatch(p);
    const opt = (v) => v === void 0 ? void 0 : pct1(v);
    return element("tr", {}, [
      element("td", { text: POLICY_LABELS[p] }),
      cell(pct1(r.mean_token_states), opt(u.token_states)),
      cell(pct1(r.mean_reserved), opt(u.reserved)),
      cell(pct1(r.mean_internal), opt(u.internal)),
      cell(pct1(r.mean_rounding + r.mean_free), opt(u.external_and_others)),
      cell(r.mean_running.toFixed(2), b === void 0 ? void 0 : b.toFixed(2)),
      cell(n(r.total_steps), void 0),
      cell(p === "paged" ? n(r.preemptions) : "", void 0)
    ]);
  });
  const caption = paperSetting ? `Averages over the saturated steps; in brackets the paper's (Figure 2${dataset === "sharegpt" ? "" : ": ShareGPT only"}; Figure 13's mean batch).` : "Averages over the saturated steps (the paper's figures are shown in its setting: its memory, blocks of 16).";
  return [element("caption", { text: caption }), element("tr", {}, head.map((h) => element("th", { text: h }))), ...tableRows];
}
function switchSizedMenus({ sized, sizedOff }, paperMemory) {
  const why = `off: the paper's KV memory is a fixed count of token slots; pick "what the model leaves on the GPU" under KV memory to size it from the model`;
  for (const c of sized) {
    c.disabled = paperMemory;
    c.title = paperMemory ? why : "";
  }
  sizedOff.textContent = paperMemory ? "Model to KV cache: off while KV memory is the paper's" : "";
  sizedOff.hidden = !paperMemory;
}
function showNeverFills(app, model, { table, outs, outWasted, values }, trace, count, neverFull) {
  app.failure(neverFillsMessage(trace, neverFull, count, model.get("reference") || {}, axisValues(app, "request_counts")));
  app.say([{ text: "The shares are averages over the steps at which a request is waiting for memory: a full server. A run in which none waits has no such step." }]);
  app.diagram.replaceChildren();
  table.replaceChildren();
  for (const p of POLICIES) {
    const r = trace.runs[p];
    outs[p].textContent = neverFull.includes(p) ? `not applicable: never full (all ${n(count)} requests at once)` : `${pct(r.mean_token_states)} of the cache holds tokens, batch ${batch(r.mean_running)}`;
  }
  outWasted.textContent = "not applicable: the cache never fills";
  markHolds(values, true);
}
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
      if (!(e instanceof KVInputError) || !/leave no KV memory/.test(e.message)) throw e;
      app.failure(e.message);
      app.say([{ text: "The KV memory is what the weights leave on the GPUs at 90% utilization; with none left there is no trace to run." }]);
      app.diagram.replaceChildren();
      table.replaceChildren();
      for (const o of values) o.textContent = "none";
      markHolds(values, true);
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
    app.say(lines);
    table.replaceChildren(...newTable);
    for (const p of POLICIES) {
      const r = trace.runs[p];
      outs[p].textContent = `${pct(r.mean_token_states)} of the cache holds tokens, batch ${batch(r.mean_running)}`;
    }
    const orca = ["max", "pow2", "oracle"].map((p) => 1 - trace.runs[p].mean_token_states);
    outWasted.textContent = `reserving ${pct(Math.min(...orca))}-${pct(Math.max(...orca))}, paging ${pct(1 - trace.runs.paged.mean_token_states)}`;
    app.diagram.replaceChildren(svg);
    app.drawnWidth = W;
  };
  return startApp(app);
}
var memory_trace_default = widgetModule(render);
export {
  memory_trace_default as default
};
