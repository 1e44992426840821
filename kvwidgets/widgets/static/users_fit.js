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

// kvwidgets/widgets/js/widgets/users_fit.js
var COUNTABLE = 64;
function fitPoint(fit, gpu) {
  const n = Number(fit.users);
  const where = `${fit.num_gpus} ${gpu.name}`;
  if (!fit.weights_fit) return `on ${where} the weights (${fmtBytes(fit.weights_bytes)}) do not fit in the usable ${fmtBytes(fit.usable_bytes)}`;
  if (!n) return `on ${where} no conversation of ${fit.context.toLocaleString("en-US")} tokens fits: it needs ${fmtBytes(fit.kv_per_user_bytes)} and ${fmtBytes(fit.kv_budget_bytes)} is left after the weights`;
  return `${fmtConversations(n)} of ${fit.context.toLocaleString("en-US")} tokens fit on ${where}; their cache fills ${fmtBytes(fit.kv_used_bytes)} of ${fmtBytes(fit.usable_bytes)} usable, beside ${fmtBytes(fit.weights_bytes)} of weights`;
}
function layout(fit) {
  const weights = fit.weights_bytes;
  const working = fit.weights_fit ? fit.working_bytes : 0n;
  const n = Number(fit.users);
  const conv = n > 0 || !fit.weights_fit ? fit.kv_used_bytes : fit.kv_per_user_bytes;
  const end = weights + working + conv;
  const over = end > fit.usable_bytes ? end - fit.usable_bytes : 0n;
  return { weights, working, conv, end, over, n };
}
var LEGEND_ROWS = (W, s) => W < 760 * s ? 3 : 2;
function memoryLegendLabels(fit, L, group) {
  const n = L.n;
  const memory = fit.memory_bytes;
  return [
    ["weights", `weights ${fmtBytes(fit.weights_bytes)}`],
    ...L.working > 0n ? [["working", `working area ${fmtBytes(L.working)}`]] : [],
    ...n > 0 ? [["kv", `${fmtConversations(n)} x ${fmtBytes(fit.kv_per_user_bytes)}${group > 1 ? ` (each block holds ${group})` : ""}`]] : fit.weights_fit ? [["kv", `1 conversation needs ${fmtBytes(fit.kv_per_user_bytes)}; ${fmtBytes(fit.kv_budget_bytes)} is left`]] : [],
    ...L.over ? [["warning", `${fmtBytes(L.over)} past the usable ${fmtBytes(fit.usable_bytes)}`]] : fit.left_over_bytes > 0n ? [["free", `unused ${fmtBytes(fit.left_over_bytes)} (less than one more conversation)`]] : [],
    // the reserve is named only where some of it shows: an overflow past the GPU's end covers it
    ...fit.reserve_bytes > 0n && L.end < memory ? [["reserve", `reserve ${fmtBytes(fit.reserve_bytes)}`]] : []
  ];
}
function memoryBar(app, fit, gpu, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const L = layout(fit);
  const memory = fit.memory_bytes;
  const span = Number(L.end > memory ? L.end : memory);
  const x = (b) => Number(b) / span * W;
  const h = 30 * s;
  const top = fs * 1.6;
  const parts = [];
  const paint = svgPaint(app, s);
  const n = L.n;
  parts.push(svgElement("text", {
    x: 0,
    y: fs * 1.1,
    "font-size": fs,
    fill: t.fg,
    "font-weight": 600,
    text: `One deployment: ${fit.num_gpus} x ${gpu.name}, ${fmtBytes(memory)}`
  }));
  const usableEnd = x(fit.usable_bytes);
  if (fit.reserve_bytes > 0n) {
    parts.push(svgElement("rect", { class: "kv-mem-reserve", x: usableEnd, y: top, width: x(memory) - usableEnd, height: h, fill: conceptColor("reserve") }));
  }
  let at = 0n;
  const seg = (cls, bytes, concept, extra = {}) => {
    if (bytes <= 0n) return;
    const room = fit.usable_bytes > at ? fit.usable_bytes - at : 0n;
    const inside = bytes < room ? bytes : room;
    if (inside > 0n) parts.push(svgElement("rect", { class: cls, x: x(at), y: top, width: x(inside), height: h, fill: paint.fill(concept), ...extra }));
    if (bytes > inside) {
      parts.push(svgElement("rect", {
        class: `${cls} kv-mem-over`,
        x: x(at + inside),
        y: top,
        width: x(bytes - inside),
        height: h,
        fill: conceptColor("warning"),
        ...extra
      }));
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
  let ly = top + h + 8 * s;
  if (L.over) {
    const endMark = (cls, gx, text, row, extra) => {
      const ty = top + h + 4 * s + fs + row * fs * 1.2;
      parts.push(svgElement("line", { class: cls, x1: gx, x2: gx, y1: top - 4 * s, y2: ty - fs * 0.8, stroke: t.fg, ...extra }));
      const w = text.length * fs * 0.55;
      const before = gx > w + 4 * s;
      parts.push(svgElement("text", {
        class: `${cls}-name`,
        x: gx + (before ? -4 * s : 4 * s),
        y: ty,
        "font-size": fs * 0.9,
        fill: t.fg,
        "text-anchor": before ? "end" : "start",
        text
      }));
    };
    endMark("kv-mem-usable", usableEnd, `usable to here: ${fmtBytes(fit.usable_bytes)}`, 0, { "stroke-width": 1.5 * s, "stroke-dasharray": `${4 * s} ${3 * s}` });
    endMark("kv-mem-end", x(memory), `the GPU ends: ${fmtBytes(memory)}`, 1, { "stroke-width": 2 * s });
    ly += fs * 2.4;
  }
  const legend = drawSwatchLegend(app, memoryLegendLabels(fit, L, group), paint, parts, ly, W, 0.55);
  ly = legend.ly;
  const legendRows = legend.rows;
  const [inBar, from, to, under] = n ? [fmtConversations(n), convFrom, convTo, conceptColor("kv")] : [fit.weights_fit ? "one conversation does not fit" : "the weights do not fit", x(memory) + 2 * s, x(L.end), conceptColor("warning")];
  if (to - from > inBar.length * fs * 0.6 + 8 * s) {
    parts.push(svgElement("text", {
      x: (from + to) / 2,
      y: top + h / 2 + fs * 0.35,
      "font-size": fs,
      fill: inkOn(under),
      stroke: under,
      "stroke-width": 4 * s,
      "stroke-linejoin": "round",
      "paint-order": "stroke",
      "text-anchor": "middle",
      "font-weight": 600,
      text: inBar
    }));
  }
  const keep = app.keepsHeight();
  const spareRows = keep ? Math.max(0, LEGEND_ROWS(W, s) - legendRows) : 0;
  const H = ly + 20 * s + (keep && !L.over ? fs * 2.4 : 0) + spareRows * 18 * s;
  return svgElement("svg", {
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "font-family": t.font,
    "aria-label": `memory of ${fit.num_gpus} ${gpu.name}: ${fitPoint(fit, gpu)}`
  }, [paint.defs(), ...parts]);
}
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
      mustBe: "working area must be a number of GB >= 0"
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
var gbOf = (f, key) => f.error ? 0 : Number(f[key]) / 1e9;
var holdsNone = (f) => !f.error && f.weights_fit && f.users === 0n;
var convOver = (f) => holdsNone(f) ? gbOf(f, "kv_per_user_bytes") - gbOf(f, "kv_budget_bytes") : 0;
var COUNT_BAR_PARTS = [
  ["weights", "weights", (f) => Math.min(gbOf(f, "weights_bytes"), gbOf(f, "usable_bytes"))],
  ["warning", "weights past the usable memory", (f) => f.error || f.weights_fit ? 0 : gbOf(f, "weights_bytes") - gbOf(f, "usable_bytes")],
  ["working", "working area", (f) => f.error || !f.weights_fit ? 0 : gbOf(f, "working_bytes")],
  ["kv", "conversations' KV", (f) => gbOf(f, "kv_used_bytes")],
  ["kv", "one conversation: the part that fits", (f) => holdsNone(f) ? gbOf(f, "kv_budget_bytes") : 0],
  ["warning", "one conversation: past the usable memory", convOver],
  ["free", "unused (less than one more conversation)", (f) => holdsNone(f) ? 0 : gbOf(f, "left_over_bytes")],
  ["reserve", "reserve (1 - utilization)", (f) => f.error || !f.weights_fit ? 0 : Math.max(0, gbOf(f, "reserve_bytes") - convOver(f))]
];
function fitsByCount(shape, gpu, context, o, counts) {
  return counts.map((n) => {
    try {
      return usersThatFit(shape, gpu, context, { ...o, numGpus: n });
    } catch (e) {
      return { error: (
        /** @type {Error} */
        e.message
      ), num_gpus: n };
    }
  });
}
function figureParts(app) {
  const bar = element("div", { class: "kv-diagram kv-membar" });
  app.plot.before(bar);
  const keep = (yes) => {
    for (const e of [bar, app.plot]) if (e.classList.contains("kv-figure-keeps") !== yes) e.classList.toggle("kv-figure-keeps", yes);
  };
  const panel = (
    /** @type {HTMLElement} */
    app.figure.querySelector(".kv-failure")
  );
  panel.after(app.plot);
  return { bar, keep };
}
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
      params: paramsOverride(app)
    };
    const context = model.get("context");
    const fit = usersThatFit(shape, gpu, context, o);
    const counts = [...axisValues(app, "gpu_counts")];
    if (!counts.includes(fit.num_gpus)) counts.push(fit.num_gpus);
    counts.sort((a, b) => a - b);
    const fits = fitsByCount(shape, gpu, context, o, counts);
    const labels = counts.map((n) => `${n} GPU${n > 1 ? "s" : ""}${n === fit.num_gpus ? " (chosen)" : ""}`);
    const t = app.theme();
    const s = app.scale();
    const traces = COUNT_BAR_PARTS.filter(([, , get]) => fits.some((f) => get(f) > 0)).map(([concept, name, get]) => ({
      type: "bar",
      orientation: "h",
      name,
      y: labels,
      x: fits.map(get),
      marker: barMarker(concept, s),
      hovertemplate: "%{y}: %{x:.2f} GB<extra>" + name + "</extra>"
    }));
    const ends = fits.map((f) => f.error ? 0 : Math.max(gbOf(f, "memory_bytes"), gbOf(f, "weights_bytes"), gbOf(f, "usable_bytes") + convOver(f)));
    const countText = (f) => f.error ? "the KV heads do not split" : !f.weights_fit ? "does not load" : fmtConversations(Number(f.users));
    const plotPx = Math.max(1, (app.plot.clientWidth || diagramWidth(app)) - 134 * s);
    const labelPx = Math.max(...fits.map((f) => countText(f).length)) * 12 * s * 0.6 + 8 * s;
    const xMax = Math.max(...ends) / (1 - Math.min(0.6, labelPx / plotPx));
    const annotations = fits.map((f, i) => ({
      y: labels[i],
      x: ends[i],
      xanchor: "left",
      xshift: 4 * s,
      showarrow: false,
      text: countText(f),
      font: { color: t.fg }
    }));
    const barSvg = memoryBar(app, fit, gpu, diagramWidth(app));
    const perToken = perTokenReadouts(shape, o.kvBits).bytes_per_token;
    bar.replaceChildren(barSvg);
    outPerToken.textContent = perToken;
    const msg = fitMessage(fit);
    const lines = [{ text: msg, cls: fit.users > 0n || !fit.weights_fit ? "kv-note" : "kv-warn" }];
    if (o.memory === "device") lines.push({ text: `${gpu.name} reports ${fmtBytes(gpu.device_bytes)} (marketed ${fmtBytes(gpu.memory_bytes)}).`, cls: "kv-note" });
    lines.push(...limitLines(shape, { context: model.get("context"), weights: true, params: paramsOverride(app) }));
    app.say(lines);
    outUsers.textContent = fit.weights_fit ? Number(fit.users).toLocaleString("en-US") : "none (the model does not load)";
    outPer.textContent = fmtBytes(fit.kv_per_user_bytes);
    outBudget.textContent = fit.weights_fit ? fmtBytes(fit.kv_budget_bytes) : "none (the weights do not fit)";
    if (!fit.weights_fit) {
      markHolds(values, true);
      keep(true);
      app.failure(msg);
    }
    app.describeFigure(
      `GPU memory of the same model on ${counts.join(", ")} GPUs`,
      `${fitPoint(fit, gpu)}. By GPU count: ${fits.map((f, i) => `${counts[i]}: ${countText(f)}`).join(", ")}.`
    );
    drawPlot(app, traces, {
      height: Math.round((70 + 30 * counts.length) * s),
      margin: { l: 110 * s, r: 24 * s, t: 26 * s, b: 40 * s },
      // r: half the last tick's label
      barmode: "stack",
      bargap: 0.3,
      showlegend: false,
      // the chart's caption, over its bars
      annotations: [...annotations, {
        text: "The same model on 1, 2, 4 and 8 GPUs",
        xref: "paper",
        yref: "paper",
        x: 0,
        y: 1,
        xanchor: "left",
        yanchor: "bottom",
        yshift: 4 * s,
        showarrow: false,
        font: { color: t.fg }
      }],
      // room right of the longest bar for its count
      xaxis: { title: { text: `GPU memory, ${o.memory} (GB)` }, range: [0, xMax] },
      yaxis: { type: "category", autorange: "reversed" }
    });
  };
  return startApp(app);
}
var users_fit_default = widgetModule(render);
export {
  users_fit_default as default
};
