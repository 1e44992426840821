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

// kvwidgets/widgets/js/widgets/deployment_ranks.js
var COUNTABLE = 48;
var LAYOUT_TRAITS = ["tp", "pp", "dp", "ep"];
function layoutKey(tp, pp, dp, ep) {
  return `tp${tp}-pp${pp}-dp${dp}-ep${ep ? 1 : 0}`;
}
function layoutName(entry) {
  const n = entry.tp * entry.pp * entry.dp;
  if (n === 1) return "1 GPU";
  const parts = [];
  if (entry.tp > 1) parts.push(`TP ${entry.tp}`);
  if (entry.pp > 1) parts.push(`PP ${entry.pp}`);
  if (entry.dp > 1) parts.push(entry.ep ? `DP ${entry.dp} attention` : `DP ${entry.dp}`);
  if (entry.ep) parts.push(`EP ${entry.tp * entry.dp}`);
  return parts.join(" x ");
}
function setMany(app, values) {
  app.holding = true;
  try {
    for (const [k, v] of Object.entries(values)) app.model.set(k, v);
  } finally {
    app.holding = false;
  }
  tryModelCall(app.model, "save_changes");
  app.localError = "";
  app.redraw();
}
function staleFields(model) {
  const made = model.get("layouts_for") || {};
  const n = model.get("tp") * model.get("pp") * model.get("dp");
  const differ = ["model", "gpu", "kv_dtype", "weight_dtype", "utilization"].filter((f) => made[f] !== model.get(f));
  if (made.num_gpus !== n) differ.push("number of GPUs");
  return differ;
}
function layoutRadios(app) {
  const group = element("span", { class: "kv-radios", role: "radiogroup", "aria-label": "Layout: how the GPUs share the model" });
  const name = `kv-layout-${Math.random().toString(36).slice(2)}`;
  let shown = "";
  const fill = () => {
    const table = app.model.get("layouts") || {};
    const order = (app.model.get("layouts_for") || {}).order || Object.keys(table);
    const want = layoutKey(.../** @type {[number, number, number, boolean]} */
    LAYOUT_TRAITS.map((t) => app.model.get(t)));
    const keys = order.filter((k) => k in table);
    const titles = keys.map((k) => `${k}:${table[k].error || ""}`).join("|");
    if (titles === shown) {
      for (const input of group.querySelectorAll("input")) input.checked = input.value === want;
      return;
    }
    shown = titles;
    group.replaceChildren(...keys.map((key) => {
      const entry = table[key];
      const input = element("input", { type: "radio", name, value: key, "data-kv": "layout" });
      input.checked = key === want;
      input.addEventListener("change", () => {
        if (input.checked) setMany(app, { tp: entry.tp, pp: entry.pp, dp: entry.dp, ep: entry.ep });
      });
      const title = entry.error ? `not possible: ${entry.error}` : entry.label;
      return element("label", { class: "kv-radio", title }, [input, element("span", { text: layoutName(entry) })]);
    }));
  };
  fill();
  app.syncers.push(fill);
  app.controls.append(element("span", { class: "kv-control" }, [element("span", { text: "Layout", "aria-hidden": "true" }), group]));
  return group;
}
function gpuCountSelect(app) {
  const sel = element("select", { "data-kv": "num_gpus", "aria-label": "number of GPUs" });
  const fill = () => {
    const n = app.model.get("tp") * app.model.get("pp") * app.model.get("dp");
    const counts = [.../* @__PURE__ */ new Set([...axisValues(app, "gpu_counts"), n])].sort((a, b) => a - b);
    sel.replaceChildren(...counts.map((c) => element("option", { value: String(c), text: String(c) })));
    sel.value = String(n);
  };
  sel.addEventListener("change", () => {
    const n = Number(sel.value);
    const m = app.model;
    if (m.get("pp") > 1 && m.get("tp") === 1 && m.get("dp") === 1) setMany(app, { tp: 1, pp: n, dp: 1, ep: false });
    else if (m.get("dp") > 1 && m.get("tp") === 1 && m.get("pp") === 1) setMany(app, { tp: 1, pp: 1, dp: n, ep: n > 1 && m.get("ep") });
    else setMany(app, { tp: n, pp: 1, dp: 1, ep: false });
  });
  fill();
  app.syncers.push(fill);
  return labelled(app, "GPUs", sel);
}
function contextStops(app) {
  const slider = element("input", { type: "range", min: "0", step: "1", "data-kv": "context", "aria-label": "context, one doubling per step" });
  const shown = element("span", { class: "kv-value", "data-kv-out": "context" });
  const stops = () => (app.model.get("layouts_for") || {}).contexts || axisValues(app, "contexts");
  const sync = () => {
    const c = app.model.get("context");
    const s = stops();
    let i = s.indexOf(c);
    if (i < 0) i = s.findIndex((x) => x > c);
    slider.max = String(s.length - 1);
    slider.value = String(i < 0 ? s.length - 1 : i);
    slider.setAttribute("aria-valuetext", `${Number(c).toLocaleString("en-US")} tokens`);
    shown.textContent = fmtTokens(c);
  };
  slider.addEventListener("input", () => app.set("context", stops()[Number(slider.value)], { continuous: true }));
  app.syncers.push(sync);
  sync();
  return labelled(app, "Context (tokens)", element("span", { class: "kv-context" }, [slider, shown]));
}
function whyFirst(entry, row) {
  const full = new Set(row.full_ranks);
  const first = entry.ranks[row.full_ranks[0]];
  const others = entry.ranks.filter((r) => !full.has(r.rank));
  const where = entry.pp > 1 ? `GPU ${first.rank} (stage ${first.stage})` : `GPU ${first.rank}`;
  if (!others.length) {
    if (entry.ranks.length === 1) return "";
    const same = entry.ranks.every((r) => r.weights_bytes === first.weights_bytes && row.kv_bytes_per_conversation[r.rank] === row.kv_bytes_per_conversation[first.rank]);
    return same ? `every GPU holds the same share, so all ${entry.ranks.length} fill at once` : `all ${entry.ranks.length} GPUs reach their limit at the same count`;
  }
  const reasons = [];
  if (first.holds_embedding && others.some((o) => !o.holds_embedding)) reasons.push("it also holds the embedding");
  if (first.holds_lm_head && others.some((o) => !o.holds_lm_head)) reasons.push("it also holds the LM head");
  const fewestLayers = Math.min(...others.map((o) => o.layers));
  if (first.layers > fewestLayers) reasons.push(`it holds ${first.layers} layers where another holds ${fewestLayers}`);
  const fewestExperts = Math.min(...others.map((o) => o.local_experts));
  if (first.local_experts > fewestExperts) reasons.push(`it holds ${first.local_experts} experts where another holds ${fewestExperts}`);
  const because = reasons.length ? ` because ${reasons.join(" and ")}` : " because it has the least room per conversation";
  const more = full.size > 1 ? ` (with ${full.size - 1} other${full.size > 2 ? "s" : ""})` : "";
  return `${where}${more} fills first${because}`;
}
function headline(entry, row, context) {
  if (!entry.weights_fit) return "";
  const ctx = `${Number(context).toLocaleString("en-US")} tokens`;
  const counts = row.replica_conversations;
  const hold = entry.dp > 1 ? counts.every((c) => c === counts[0]) ? `Each of ${entry.dp} replicas holds ${fmtConversations(counts[0])} of ${ctx}, ${counts[0] * entry.dp} in all` : `The ${entry.dp} replicas hold ${counts.join(", ")} conversations of ${ctx}, ${row.conversations} in all` : `The deployment holds ${fmtConversations(row.conversations)} of ${ctx}`;
  const why = whyFirst(entry, row);
  return why ? `${hold}; ${why}.` : `${hold}.`;
}
function legendLabels(entry, row, memory, allFull) {
  const usable = entry.usable_bytes;
  const over = entry.ranks.some((r) => r.weights_bytes > usable);
  const maxHeld = Math.max(0, ...row.replica_conversations);
  return [
    ["weights", "weights"],
    ...maxHeld > 0 ? [
      /** @type {[string, string]} */
      ["kv", "cache: one segment per conversation"]
    ] : [],
    ...entry.weights_fit ? [
      /** @type {[string, string]} */
      ["free", allFull ? "left (less than one more conversation)" : "left (unused while another GPU is full)"]
    ] : [],
    ...over ? [
      /** @type {[string, string]} */
      ["warning", `weights past the usable ${fmtBytes(usable)}`]
    ] : [],
    ...memory > usable && entry.ranks.some((r) => r.weights_bytes < memory) ? [
      /** @type {[string, string]} */
      ["reserve", "reserve (1 - utilization)"]
    ] : []
  ];
}
function rankBars(app, entry, row, memory, gpuName, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const labelW = 118 * s;
  const countW = 150 * s;
  const barW = Math.max(120 * s, W - labelW - countW);
  const usable = entry.usable_bytes;
  const span = Math.max(memory, ...entry.ranks.map((r) => r.weights_bytes + entry.working_bytes));
  const x = (b) => labelW + Number(b) / span * barW;
  const rowH = 34 * s;
  const barH = 22 * s;
  const top = fs * 2;
  const full = new Set(row.full_ranks);
  const allFull = full.size === entry.ranks.length;
  const paint = svgPaint(app, s);
  const parts = [];
  parts.push(svgElement("text", {
    x: 0,
    y: fs * 1.1,
    "font-size": fs,
    fill: t.fg,
    "font-weight": 600,
    text: `${layoutName(entry)}: ${entry.ranks.length} x ${gpuName}, ${fmtBytes(memory)} each`
  }));
  entry.ranks.forEach((r, i) => {
    const y = top + i * rowH;
    const isFull = full.has(r.rank) && entry.weights_fit;
    const g = [];
    const held = entry.weights_fit ? row.replica_conversations[r.dp_rank] : 0;
    const perConv = row.kv_bytes_per_conversation[r.rank];
    if (memory > usable) g.push(svgElement("rect", { class: "kv-rk-reserve", x: x(usable), y, width: x(memory) - x(usable), height: barH, fill: paint.fill("reserve") }));
    const inside = Math.min(r.weights_bytes, usable);
    g.push(svgElement("rect", { class: "kv-rk-weights", x: x(0), y, width: x(inside) - x(0), height: barH, fill: paint.fill("weights") }));
    if (r.weights_bytes > usable) {
      g.push(svgElement("rect", { class: "kv-rk-weights kv-rk-over", x: x(usable), y, width: x(r.weights_bytes) - x(usable), height: barH, fill: paint.fill("warning") }));
    }
    let at = r.weights_bytes + entry.working_bytes;
    if (held > 0) {
      const group = held <= COUNTABLE ? 1 : Math.ceil(held / 24);
      for (let k = 0; k < held; k += group) {
        const n = Math.min(group, held - k);
        g.push(svgElement("rect", {
          class: "kv-rk-conv",
          x: x(at),
          y,
          width: x(at + perConv * n) - x(at),
          height: barH,
          fill: paint.fill("kv"),
          stroke: t.bg,
          "stroke-width": 1,
          "data-conversations": n
        }));
        at += perConv * n;
      }
    }
    if (r.weights_bytes <= usable && usable > at) {
      g.push(svgElement("rect", { class: "kv-rk-free", x: x(at), y, width: x(usable) - x(at), height: barH, fill: paint.fill("free") }));
    }
    if (isFull) {
      g.push(svgElement("rect", {
        class: "kv-rk-mark",
        x: x(0) - 2 * s,
        y: y - 2 * s,
        width: x(memory) - x(0) + 4 * s,
        height: barH + 4 * s,
        fill: "none",
        stroke: t.fg,
        "stroke-width": 2 * s
      }));
    }
    const stageText = entry.pp > 1 ? `stage ${r.stage}, layers ${r.first_layer}-${r.first_layer + r.layers - 1}` : entry.dp > 1 ? `replica ${r.dp_rank}` : `TP rank ${r.tp_rank}`;
    g.push(
      svgElement("text", { x: 0, y: y + barH * 0.45, "font-size": fs, fill: t.fg, "font-weight": isFull ? 700 : 400, text: `${isFull ? "▶ " : ""}GPU ${r.rank}` }),
      svgElement("text", { x: 0, y: y + barH * 0.45 + fs, "font-size": fs * 0.8, fill: t.fg2, text: stageText })
    );
    const alone = row.rank_conversations[r.rank];
    const countText = !entry.weights_fit ? r.weights_bytes > usable ? "weights do not fit" : "" : isFull ? allFull ? `full at ${alone}` : `fills first: ${alone}` : alone > held ? `holds ${held}; room for ${alone}` : `holds ${held}`;
    g.push(svgElement("text", {
      class: "kv-rk-count",
      x: x(Math.max(memory, r.weights_bytes)) + 8 * s,
      y: y + barH * 0.7,
      "font-size": fs,
      fill: t.fg,
      "font-weight": isFull ? 700 : 400,
      text: countText
    }));
    parts.push(svgElement("g", {
      class: isFull ? "kv-rk-rank kv-rk-full" : "kv-rk-rank",
      "data-rank": r.rank,
      "data-stage": r.stage,
      "data-conversations": alone,
      "data-held": held,
      "data-weights": r.weights_bytes
    }, g));
  });
  let ly = top + entry.ranks.length * rowH + 4 * s;
  if (span > memory) {
    const gx = x(memory);
    parts.push(svgElement("line", { class: "kv-rk-end", x1: gx, x2: gx, y1: top - 4 * s, y2: ly - 6 * s, stroke: t.fg, "stroke-width": 2 * s }));
    parts.push(svgElement("text", { x: gx - 4 * s, y: ly + fs * 0.6, "font-size": fs * 0.9, fill: t.fg, "text-anchor": "end", text: `the GPU ends: ${fmtBytes(memory)}` }));
    ly += fs * 1.4;
  }
  const legend = drawSwatchLegend(app, legendLabels(entry, row, memory, allFull), paint, parts, ly, W, 0.52);
  ly = legend.ly;
  const legendRows = legend.rows;
  const keptRows = app.keepsHeight() && W < 760 * s ? 2 : 1;
  const H = ly + 20 * s + Math.max(0, keptRows - legendRows) * 18 * s;
  const summary = entry.weights_fit ? `${fmtConversations(row.conversations)}; GPU ${row.full_ranks[0]} fills first` : "the weights do not fit";
  return svgElement("svg", {
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "font-family": t.font,
    "aria-label": `memory of each of ${entry.ranks.length} ${gpuName} GPUs under ${layoutName(entry)}: ${summary}`
  }, [paint.defs(), ...parts]);
}
function derivation(entry, row, context) {
  const lines = [];
  const seen = /* @__PURE__ */ new Set();
  lines.push(`Usable memory per GPU: ${fmtBytes(entry.usable_bytes)} (the GPU's memory x utilization).`);
  for (const r of entry.ranks) {
    const key = [r.stage, r.weights_bytes, row.kv_bytes_per_conversation[r.rank]].join("/");
    if (seen.has(key)) continue;
    seen.add(key);
    const w = [
      r.embedding_bytes ? `embedding ${fmtBytes(r.embedding_bytes)}` : "",
      r.lm_head_bytes ? `LM head ${fmtBytes(r.lm_head_bytes)}` : "",
      `${r.layers} layers ${fmtBytes(r.layer_weight_bytes)}`,
      r.expert_bytes ? `${r.local_experts ? `${r.local_experts} experts` : "its share of the experts"} ${fmtBytes(r.expert_bytes)}` : ""
    ].filter(Boolean).join(" + ");
    const per = row.kv_bytes_per_conversation[r.rank];
    const budget = r.cache_budget_bytes;
    lines.push(`GPU ${r.rank}: weights ${w} = ${fmtBytes(r.weights_bytes)}; left ${fmtBytes(budget)}; one conversation of ${fmtTokens(context)} tokens here ${fmtBytes(per)} (${Number(r.kv_bytes_per_token).toLocaleString("en-US")} B a token); ` + (budget >= 0 ? `floor(${fmtBytes(budget)} / ${fmtBytes(per)}) = ${row.rank_conversations[r.rank]}.` : "the weights do not fit."));
  }
  lines.push("A request passes every GPU of its replica, so a replica holds the fewest of its GPUs' counts; data-parallel replicas each keep their own pool, so their counts add.");
  if (row.vllm.length) {
    const p = row.vllm[0];
    lines.push(`vLLM 0.33 sizes each stage's blocks of ${p.block_size} tokens from its own memory (${p.stage_blocks.map((b) => b.toLocaleString("en-US")).join(", ")}) and cuts every worker to the smallest, ${p.num_blocks.toLocaleString("en-US")}; one request of ${fmtTokens(context)} takes ${p.blocks_per_request.toLocaleString("en-US")} blocks, so ${p.conversations} per replica` + (row.vllm.length > 1 ? `, ${row.vllm_conversations} over ${row.vllm.length} replicas.` : "."));
  }
  lines.push(...entry.notes);
  return lines.map((text) => ({ text, cls: "kv-note" }));
}
function render({ model, el }) {
  const app = createApp({ model, el }, "Where does each GPU's memory go, and which GPU fills first?");
  modelSelect(app);
  gpuSelect(app);
  gpuCountSelect(app);
  layoutRadios(app);
  contextStops(app);
  dtypeSelect(app, "weight_dtype", "Weights");
  dtypeSelect(app, "kv_dtype", "KV cache");
  moreFold(app, () => utilizationSlider(app));
  resetButton(app);
  diagramBox(app);
  const box = (
    /** @type {HTMLElement} */
    app.diagram
  );
  box.classList.add("kv-figure-keeps");
  const sentence = element("div", { class: "kv-headline", "data-kv-out": "headline" });
  app.readouts.before(sentence);
  const outTotal = app.readout("conversations", "The deployment serves:");
  const outFull = app.readout("full_rank", "Fills first:");
  const outVllm = app.readout("vllm", "vLLM's pooled count:");
  const outSummed = app.readout("summed", "Adding up every GPU's free memory would claim:");
  app.draw = () => {
    const L = app.lookup();
    markHolds([outTotal, outFull, outVllm, outSummed], false);
    L.shape();
    const gpu = L.gpu();
    const table = model.get("layouts") || {};
    const key = layoutKey(.../** @type {[number, number, number, boolean]} */
    LAYOUT_TRAITS.map((t) => model.get(t)));
    const context = model.get("context");
    const stale = staleFields(model);
    const entry = table[key];
    const row = entry && entry.by_context ? entry.by_context[String(context)] : void 0;
    if (stale.length && model.get("error")) throw new KVInputError(model.get("error"));
    if (stale.length || !entry || !entry.error && !row) {
      box.replaceChildren();
      app.drawnWidth = diagramWidth(app);
      const what = stale.length ? `the ${stale.join(", ")} chosen here` : `this layout at ${fmtTokens(context)} tokens`;
      app.failure(`The kernel places every GPU for ${what}; waiting for it. With no kernel running (an exported page), only the layout buttons and the context slider redraw.`);
      return;
    }
    if (entry.error) throw new KVInputError(entry.error);
    const W = diagramWidth(app);
    const svg = rankBars(app, entry, row, gpu.memory_bytes, gpu.name, W);
    const first = entry.ranks[row.full_ranks[0]];
    box.replaceChildren(svg);
    app.drawnWidth = W;
    sentence.textContent = headline(entry, row, context);
    app.say(derivation(entry, row, context));
    outTotal.textContent = entry.weights_fit ? fmtConversations(row.conversations) : "none (the weights do not fit)";
    const fullAt = fmtConversations(row.rank_conversations[first.rank]);
    outFull.textContent = !entry.weights_fit ? "none" : row.full_ranks.length === entry.ranks.length && entry.ranks.length > 1 ? `all ${entry.ranks.length} GPUs at once, at ${fullAt} each` : `GPU ${first.rank}${entry.pp > 1 ? `, stage ${first.stage}` : ""}, at ${fullAt}`;
    outVllm.textContent = row.vllm_conversations === null ? "not reproduced for this model under PP (see How this is computed)" : !entry.weights_fit ? "none (vLLM does not start)" : `${fmtConversations(row.vllm_conversations)}${row.vllm_conversations === row.conversations ? ", the same" : ""}`;
    outSummed.textContent = `${fmtConversations(row.summed_conversations)}${row.summed_conversations > row.conversations ? ", more than the deployment holds" : ""}`;
    if (!entry.weights_fit) {
      markHolds([outTotal, outFull, outVllm, outSummed], true);
      app.failure(row.message);
    }
  };
  for (const t of ["layouts", "layouts_for"]) app.on(`change:${t}`, () => app.redraw());
  return startApp(app);
}
var deployment_ranks_default = widgetModule(render);
export {
  deployment_ranks_default as default
};
