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

// kvwidgets/widgets/js/widgets/decode_speed.js
var POINTS = 41;
var BATCH_MARKS = {
  1: ["square-open", "□"],
  8: ["triangle-up-open", "△"],
  32: ["star-open", "☆"],
  64: ["diamond-open", "◇"],
  128: ["triangle-down-open", "▽"],
  256: ["x", "✕"]
};
function splitBar(app) {
  const w = element("div", { class: "kv-seg", style: "display:inline-block;height:100%" });
  const k = element("div", { class: "kv-seg", style: "display:inline-block;height:100%" });
  const bar = element("div", { class: "kv-split", role: "img", style: "display:flex;height:1.2em;width:100%;margin:0.3em 0;border-radius:3px;overflow:hidden" }, [w, k]);
  const caption = element("div", { class: "kv-note", "data-kv-out": "step_split" });
  app.plot.before(element("div", { class: "kv-split-box" }, [caption, bar]));
  return (weights, kv) => {
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
function lineParts(shape, gpu, xs, batch, o) {
  const limit = maxContext(shape, gpu, batch, { ...o, utilization: 0.9 });
  if (limit === null || limit >= xs[xs.length - 1]) return [{ fits: true, xs }];
  if (limit < xs[0]) return [{ fits: false, xs, only: true }];
  const below = xs.filter((c) => c < limit);
  const above = xs.filter((c) => c > limit);
  return [{ fits: true, xs: [...below, limit] }, { fits: false, xs: [limit, ...above] }];
}
function batchEndLabels(app, batches, chosen, xEnd, at, colorOf, yRange, marked) {
  const s = app.scale();
  const h = 0.65 * (520 * s - 86 * s) * 0.45;
  const mark = (b) => marked.includes(b) && BATCH_MARKS[b] ? ` ${BATCH_MARKS[b][1]}` : "";
  return endLabels(
    batches.map((b) => ({ text: `batch ${b}${mark(b)}`, y: at(b), color: colorOf(b), bold: b === chosen })),
    { x: xEnd, pxPerDecade: h / (yRange[1] - yRange[0]), gap: 14 * s, size: 11 * s, ink: app.theme().fg }
  );
}
function fitsText(batch, context, fit, loads) {
  const n = (x) => Number(x).toLocaleString("en-US");
  if (!loads) return "the weights do not fit: the model does not load";
  const most = fit.max_batch === 0n ? "not even one fits" : `at most ${n(fit.max_batch)} fit`;
  return fit.fits ? `batch ${n(batch)} at ${fmtTokens(context)} tokens fits (up to ${n(fit.max_batch)})` : `batch ${n(batch)} at ${fmtTokens(context)} tokens does not fit (${most}): the ceiling assumes caches that cannot be held`;
}
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
function readInputs(app) {
  const model = app.model;
  const L = app.lookup();
  const shape = L.shape();
  const gpu = L.gpu();
  const o = { numGpus: model.get("num_gpus"), weightBits: L.weightBits(), kvBits: L.bits("kv_dtype"), params: paramsOverride(app) };
  const context = model.get("context");
  const batch = model.get("batch");
  const d = decodeCeiling(shape, gpu, context, batch, o);
  const fit = decodeFits(shape, gpu, context, batch, o);
  const load = usersThatFit(shape, gpu, context, { ...o, utilization: 0.9 });
  const xs = Array.from({ length: POINTS }, (_, i) => Math.round(2 ** (10 + i / 4)));
  const axes = model.get("axes") || {};
  const drawn = axes.lines || axisValues(app, "batches");
  const batches = drawn.includes(batch) ? drawn : [...drawn, batch].sort((a, b) => a - b);
  return { shape, gpu, o, context, batch, d, fit, load, loads: load.weights_fit, xs, batches };
}
function widen(range, ys) {
  for (const y of ys) if (y > 0) {
    range.lo = Math.min(range.lo, y);
    range.hi = Math.max(range.hi, y);
  }
}
var NOTE = " (does not fit in memory)";
function batchTraces(b, contexts, ds, line, note, showlegend) {
  const common = { type: "scatter", mode: "lines", name: `batch ${b}`, legendgroup: `b${b}`, x: contexts, line };
  return [
    {
      ...common,
      showlegend,
      xaxis: "x",
      yaxis: "y",
      y: ds.map((x) => x.tokens_per_s_per_user),
      hovertemplate: `batch ${b}, %{x:,} tokens: %{y:,.1f} tok/s per conversation${note}<extra></extra>`
    },
    {
      ...common,
      showlegend: false,
      xaxis: "x2",
      yaxis: "y2",
      y: ds.map((x) => x.tokens_per_s_total),
      hovertemplate: `batch ${b}, %{x:,} tokens: %{y:,.0f} tok/s total${note}<extra></extra>`
    }
  ];
}
function batchLines({ shape, gpu, o, xs, batch, batches }, batchColor, range) {
  const traces = [];
  const over = { x: [], user: [], total: [], text: [] };
  const ceilings = (contexts, b) => {
    const ds = contexts.map((c) => decodeCeiling(shape, gpu, c, b, o));
    widen(range, ds.map((x) => x.tokens_per_s_per_user));
    return ds;
  };
  batches.forEach((b) => {
    const color = batchColor(b);
    for (const part of lineParts(shape, gpu, xs, b, o)) {
      const ds = ceilings(part.xs, b);
      if (part.fits) {
        traces.push(...batchTraces(b, part.xs, ds, { color, width: b === batch ? 3 : 1.5 }, "", true));
      } else if (part.only) {
        traces.push(...batchTraces(b, part.xs, ds, { color, width: 1, dash: "dot" }, NOTE, true).map((tr) => ({ ...tr, opacity: 0.55 })));
      } else {
        if (over.x.length) for (
          const a of
          /** @type {Array<unknown[]>} */
          Object.values(over)
        ) a.push(null);
        over.x.push(...part.xs);
        over.user.push(...ds.map((x) => x.tokens_per_s_per_user));
        over.total.push(...ds.map((x) => x.tokens_per_s_total));
        over.text.push(...part.xs.map(() => `batch ${b}`));
      }
    }
  });
  return { traces, over };
}
function dottedTraces(over, t) {
  const dotted = {
    type: "scatter",
    mode: "lines",
    name: "does not fit in memory",
    legendgroup: "nofit",
    x: over.x.length ? over.x : [null],
    text: over.text,
    line: { color: t.fg2, width: 1, dash: "dot" }
  };
  return [
    {
      ...dotted,
      xaxis: "x",
      yaxis: "y",
      y: over.x.length ? over.user : [null],
      hovertemplate: `%{text}, %{x:,} tokens: %{y:,.1f} tok/s per conversation${NOTE}<extra></extra>`
    },
    {
      ...dotted,
      showlegend: false,
      xaxis: "x2",
      yaxis: "y2",
      y: over.x.length ? over.total : [null],
      hovertemplate: `%{text}, %{x:,} tokens: %{y:,.0f} tok/s total${NOTE}<extra></extra>`
    }
  ];
}
function chosenRing(app, { context, d }) {
  return {
    x: Math.log10(context),
    y: Math.log10(d.tokens_per_s_per_user),
    xref: "x",
    yref: "y",
    text: "◯",
    showarrow: false,
    xanchor: "center",
    yanchor: "middle",
    font: { color: app.theme().fg, size: 14 * app.scale() }
  };
}
function measuredPoints(app, { shape, gpu, o, batches }, batchColor, range) {
  const meas = app.model.get("measured") || {};
  const show = meas.rows && (meas.models || [meas.model]).includes(shape.name) && gpu.name === meas.gpu && o.numGpus === 1;
  if (!show) return { show, meas, traces: [], batches: [] };
  const rows = meas.rows.filter((r) => batches.includes(r.batch) && BATCH_MARKS[r.batch]);
  const measured = [...new Set(rows.map((r) => r.batch))];
  widen(range, rows.map((r) => r.tokens_per_s_per_user));
  const colors = rows.map((r) => batchColor(r.batch));
  const marker = {
    symbol: rows.map((r) => BATCH_MARKS[r.batch][0]),
    size: 9 * app.scale(),
    color: colors,
    line: { color: colors, width: 1.5 * app.scale() }
  };
  const traces = [
    {
      type: "scatter",
      mode: "markers",
      name: "measured on an H200 (each batch's shape at its line's end)",
      x: rows.map((r) => r.context),
      y: rows.map((r) => r.tokens_per_s_per_user),
      marker,
      text: rows.map((r) => `batch ${r.batch}`),
      xaxis: "x",
      yaxis: "y",
      hovertemplate: "measured, %{text}, %{x:,} tokens: %{y:,.1f} tok/s per conversation<extra></extra>"
    },
    {
      type: "scatter",
      mode: "markers",
      name: "measured on an H200",
      showlegend: false,
      x: rows.map((r) => r.context),
      y: rows.map((r) => r.tokens_per_s_total),
      marker,
      text: rows.map((r) => `batch ${r.batch}`),
      xaxis: "x2",
      yaxis: "y2",
      hovertemplate: "measured, %{text}, %{x:,} tokens: %{y:,.0f} tok/s total<extra></extra>"
    }
  ];
  return { show, meas, traces, batches: measured };
}
function crossoverLine({ shape, o, context, batch, d }, crossover) {
  const kvSeq = d.kv_bytes_per_step / batch;
  const allW = Number(modelWeightBytes(shape, o.params, o.weightBits)) / o.numGpus;
  return { text: `KV reads pass the weights at batch ${crossover.toLocaleString("en-US")}: a step reads the weights once for the whole batch (${fmtBytes(allW)} per GPU) but every sequence's own cache (${fmtBytes(kvSeq)} each at ${fmtTokens(context)} tokens): past ${fmtBytes(allW)} / ${fmtBytes(kvSeq)} = ${(allW / kvSeq).toLocaleString("en-US", { maximumFractionDigits: 1 })} sequences the caches are most of what a step reads.`, cls: "kv-note" };
}
function sayText(app, inp, measured) {
  const { shape, gpu, o, context, d } = inp;
  const lines = [{ text: `Ideal ceiling: each step reads the weights once for the batch plus every sequence's own cache, at ${gpu.bandwidth_gbps.toLocaleString("en-US")} GB/s per GPU. Real engines reach a fraction of it.`, cls: "kv-note" }];
  if (measured.show) lines.push({ text: `Measured points, each batch's in its line's colour and shape (the shape follows the batch's name at the right): ${measured.meas.provenance}. The weights are random, the shape is Llama-3-8B's; compare with the bf16 lines.`, cls: "kv-note" });
  if (d.crossover_batch !== null) lines.push(crossoverLine(inp, d.crossover_batch));
  lines.push(...limitLines(shape, { context, weights: true, params: o.params }));
  app.say(lines);
}
function fillReadouts(outs, { context, batch, d, fit, loads }) {
  outs.setSplit(d.weight_bytes_per_step, d.kv_bytes_per_step);
  const num = (x, dg) => x.toLocaleString("en-US", { maximumFractionDigits: dg });
  outs.outUser.textContent = `${num(d.tokens_per_s_per_user, 1)} tok/s`;
  outs.outTotal.textContent = `${num(d.tokens_per_s_total, 0)} tok/s`;
  outs.outStep.textContent = `${num(d.step_s * 1e3, 2)} ms`;
  outs.outCross.textContent = d.crossover_batch === null ? "never" : d.crossover_batch.toLocaleString("en-US");
  outs.outFits.textContent = fitsText(batch, context, fit, loads);
  outs.outFits.className = fit.fits ? "kv-value" : "kv-value kv-warn";
}
function describeChart(app, { context, batch, batches }, outs, showMeasured) {
  app.describeFigure(
    `decode speed ceiling against context, per conversation and in total, for batches ${batches.join(", ")}`,
    `At batch ${batch} and ${fmtTokens(context)} tokens each conversation decodes at most ${outs.outUser.textContent}, ${outs.outTotal.textContent} in total, one step every ${outs.outStep.textContent}; KV reads pass the weights at batch ${outs.outCross.textContent}; in memory: ${outs.outFits.textContent}.${showMeasured ? " Measured H200 points are marked with x." : ""}`
  );
}
function plotChart(app, { shape, gpu, o, batch }, traces, chosen, yRange, showMeasured) {
  const t = app.theme();
  const xaxis = { type: "log", range: [Math.log10(900), Math.log10(12e5)] };
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
    legend: { orientation: "h", yanchor: "top", y: -0.19, font: { color: t.fg } }
  }, dataKey);
}
function render({ model, el }) {
  const app = createApp({ model, el }, "Decode speed ceiling");
  const outs = buildControls(app);
  app.draw = () => {
    const inp = readInputs(app);
    const { shape, gpu, o, xs, batch, batches } = inp;
    const t = app.theme();
    const batchColor = (b) => rampColor(b, 1, 1024, t.dark);
    const range = { lo: Infinity, hi: 0 };
    const { traces, over } = batchLines(inp, batchColor, range);
    traces.push(...dottedTraces(over, t));
    const chosen = chosenRing(app, inp);
    const measured = measuredPoints(app, inp, batchColor, range);
    traces.push(...measured.traces);
    const yRange = range.hi > 0 ? [Math.log10(range.lo) - 0.1, Math.log10(range.hi) + 0.1] : [-1, 3];
    const xEnd = xs[xs.length - 1];
    traces.push(batchEndLabels(app, batches, batch, xEnd, (b) => decodeCeiling(shape, gpu, xEnd, b, o).tokens_per_s_per_user, batchColor, yRange, measured.batches));
    sayText(app, inp, measured);
    fillReadouts(outs, inp);
    if (!inp.loads) {
      app.failure(`${fitMessage(inp.load)} Nothing is decoded, so there is no speed to draw: more GPUs, a smaller number format for the weights or a bigger GPU would load it.`);
      return;
    }
    if (app.root.classList.contains("kv-failed")) app.root.classList.remove("kv-failed");
    describeChart(app, inp, outs, Boolean(measured.show));
    plotChart(app, inp, traces, chosen, yRange, measured.show);
  };
  return startApp(app);
}
var decode_speed_default = widgetModule(render);
export {
  decode_speed_default as default
};
