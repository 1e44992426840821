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

// kvwidgets/widgets/js/widgets/context_users.js
var LO = 1024;
var HI = 1048576;
var TICKS_ALL = Array.from({ length: 11 }, (_, i) => LO * 2 ** i);
var TICKS_HALF = TICKS_ALL.filter((_, i) => i % 2 === 0);
var TICK_TEXT = /* @__PURE__ */ new Map();
function stepLines(app, cache, shape, gpu, o, lines, dtypes) {
  const key = JSON.stringify([shape, gpu, o, lines, dtypes]);
  if (cache.key !== key) {
    cache.lines = lines.map(([
      /** @type {string} */
      dt
    ]) => usersStaircase(shape, gpu, { ...o, kvBits: dtypeBits(dtypes, dt) }, LO, HI));
    cache.key = key;
  }
  return (
    /** @type {Staircase[]} */
    cache.lines
  );
}
var OFFSET = 6;
function lineSegments(stairs, isLog, px, py, plotPx) {
  const segments = [];
  for (const st of stairs) {
    for (let j = 0; j < st.x.length; j++) {
      if (isLog && st.users[j] === 0n) break;
      const [x0, y0] = [px(st.x[j]), py(Number(st.users[j]))];
      const x1 = j + 1 < st.x.length ? px(st.x[j + 1]) : plotPx;
      segments.push([x0, y0, x1, y0]);
      if (j + 1 < st.x.length && !(isLog && st.users[j + 1] === 0n)) {
        const y1 = py(Number(st.users[j + 1]));
        segments.push([x1, Math.min(y0, y1), x1, Math.max(y0, y1)]);
      }
    }
  }
  return segments;
}
function usersAt(st, c) {
  let j = 0;
  while (j + 1 < st.x.length && st.x[j + 1] <= c) j++;
  return Number(st.users[j]);
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
    selectControl(app, "y_scale", "Conversations axis", () => [["log", "log"], ["linear", "linear"]]);
    paramsBox(app);
  });
  resetButton(app);
  const outUsers = app.readout("users", "Conversations that fit at this length:");
  const outMax = app.readout("max_context", "Longest one conversation can be:");
  return { outUsers, outMax };
}
function readInputs(app, cache) {
  const model = app.model;
  const L = app.lookup();
  const shape = L.shape();
  const gpu = L.gpu();
  const yScale = model.get("y_scale");
  if (yScale !== "log" && yScale !== "linear") throw new KVInputError(`y_scale must be 'log' or 'linear', got '${yScale}'`);
  const o = {
    numGpus: model.get("num_gpus"),
    weightBits: L.weightBits(),
    utilization: model.get("utilization"),
    params: paramsOverride(app)
  };
  const context = checkInt("context", model.get("context"), 1);
  const kvBits = L.bits("kv_dtype");
  const here = usersThatFit(shape, gpu, context, { ...o, kvBits });
  const longest = maxContext(shape, gpu, 1, { ...o, kvBits });
  const lines = axisValues(app, "lines");
  const stairs = stepLines(app, cache, shape, gpu, o, lines, L.dtypes);
  const marks = axisValues(app, "marks");
  return { L, shape, yScale, isLog: yScale === "log", o, context, kvBits, here, longest, lines, stairs, marks };
}
function stepTraces({ lines, stairs }) {
  const traces = lines.map(([
    ,
    /** @type {string} */
    name
  ], i) => ({
    type: "scatter",
    mode: "lines",
    name,
    x: stairs[i].x,
    y: stairs[i].users.map(Number),
    line: { color: dtypeColor(lines[i][0]) || conceptColor("other"), dash: dtypeDash(lines[i][0]), shape: "hv" },
    // users hold until the next drop
    hovertemplate: "from %{x:,} tokens: %{y:,} conversations<extra>" + name + "</extra>"
  }));
  return traces;
}
function markLines(marks, t) {
  const shapes = marks.map((c) => ({
    type: "line",
    x0: c,
    x1: c,
    yref: "paper",
    y0: 0,
    y1: 1,
    line: { dash: "dot", color: t.fg2, width: 1 }
  }));
  const annotations = marks.map((c) => ({
    x: Math.log10(c),
    yref: "paper",
    y: 1,
    yanchor: "bottom",
    text: fmtTokens(c),
    showarrow: false,
    font: { color: t.fg2 }
  }));
  return { shapes, annotations };
}
function pixelAxes(app, { stairs, isLog }) {
  const s = app.scale();
  const plotPx = Math.max(1, diagramWidth(app) - 92 * s);
  const px = (c) => (Math.log10(c) - Math.log10(LO)) / (Math.log10(HI) - Math.log10(LO)) * plotPx;
  const top = Math.max(1, ...stairs.map((st) => Number(st.users[0])));
  const plotH = 274 * s;
  const py = (u) => isLog ? Math.log10(Math.max(u, 1)) / Math.max(1, Math.log10(top)) * plotH : u / top * plotH;
  return { s, plotPx, px, top, plotH, py };
}
function labelledLines({ L, lines, kvBits }) {
  const on = Math.max(0, lines.findIndex(([
    /** @type {string} */
    dt
  ]) => dtypeBits(L.dtypes, dt) === kvBits));
  const bitsOf = (i) => dtypeBits(L.dtypes, lines[i][0]);
  const upper = bitsOf(0) <= bitsOf(1) ? 0 : 1;
  return { on, upper };
}
function cachedSegments(cache, { stairs, isLog }, { px, py, plotPx, plotH }) {
  const segKey = JSON.stringify([cache.key, isLog, plotPx, plotH]);
  if (cache.segKey !== segKey) {
    cache.segments = lineSegments(stairs, isLog, px, py, plotPx);
    cache.segKey = segKey;
  }
  return (
    /** @type {number[][]} */
    cache.segments
  );
}
function labelPlacer({ s, plotPx, px, py }, segments, upper) {
  const boxPx = (text) => text.length * 12 * s * 0.56 + 6 * s;
  const boxH = 12 * s * 1.5;
  const covers = (l, r, b, tp) => segments.some(([x0, y0, x1, y1]) => x0 < r && x1 > l && y0 < tp && y1 > b);
  return (c, text, i, u) => {
    const w = boxPx(text);
    const off = OFFSET * s;
    const [x, y] = [px(c), py(u)];
    const sides = i === upper ? [[false, false], [true, false], [false, true], [true, true]] : [[true, true], [false, true], [true, false], [false, false]];
    let first = null;
    for (const [left, below] of sides) {
      const [l, r] = left ? [x - off - w, x - off] : [x + off, x + off + w];
      const [b, tp] = below ? [y - off - boxH, y - off] : [y + off, y + off + boxH];
      if (l < -off || r > plotPx + 18 * s || b < 0) continue;
      const side = { left, below, span: [l, r], clear: false };
      if (!covers(l + 1, r - 1, b + 1, tp - 1)) return side;
      first = first || { ...side, clear: true };
    }
    return first || { left: false, below: false, span: [x + off, x + off + w], clear: true };
  };
}
function figureLayout(app, inp, cache) {
  const ax = pixelAxes(app, inp);
  const { on, upper } = labelledLines(inp);
  const segments = cachedSegments(cache, inp, ax);
  const usersOn = (c, i = on) => usersAt(inp.stairs[i], c);
  return { inp, t: app.theme(), ...ax, on, upper, usersOn, place: labelPlacer(ax, segments, upper) };
}
var ARROWS = { "true,true": "↗", "true,false": "↘", "false,true": "↖", "false,false": "↙" };
function labelAnnotation({ t, s, place }, { c, y, u, i, text, border, width, shown = true, arrow = false }) {
  const { left, below, clear } = place(c, text, i, u);
  const head = ARROWS[`${left},${below}`];
  return {
    x: Math.log10(c),
    y,
    text: !arrow ? text : left ? `${text} ${head}` : `${head} ${text}`,
    showarrow: false,
    opacity: shown ? 1 : 0,
    xshift: (left ? -1 : 1) * OFFSET * s,
    yshift: (below ? -1 : 1) * OFFSET * s,
    xanchor: left ? "right" : "left",
    yanchor: below ? "top" : "bottom",
    font: { color: t.fg },
    bordercolor: border,
    borderwidth: width,
    bgcolor: clear ? "transparent" : t.bg
  };
}
function chosenPoint({ inp, on, place }) {
  const users = Number(inp.here.users);
  const text = users > 0 || !inp.isLog ? fmtConversations(users) : `none fits at ${fmtTokens(inp.context)}`;
  return { users, text, span: place(inp.context, text, on, users).span };
}
function markLabels(f, chosen) {
  const { inp, s, py, on } = f;
  const labels = [];
  for (const c of inp.marks) {
    const u = f.usersOn(c);
    if (inp.isLog && u === 0) continue;
    const span = f.place(c, `${fmtConversations(u)} ↘`, on, u).span;
    const sameRow = Math.abs(py(u) - py(chosen.users)) < 22 * s;
    const givesWay = sameRow && span[0] < chosen.span[1] + 4 * s && chosen.span[0] < span[1] + 4 * s;
    labels.push(labelAnnotation(f, {
      c,
      y: inp.isLog ? Math.log10(u) : u,
      u,
      i: on,
      text: fmtConversations(u),
      border: conceptColor("kv"),
      width: 1,
      shown: !givesWay,
      arrow: true
    }));
  }
  return labels;
}
function otherCacheTrace(f) {
  const { inp, t, s, plotPx, plotH, top } = f;
  const { isLog, lines, marks } = inp;
  const other = 1 - f.on;
  const otherMarks = marks.map((c) => (
    /** @type {[number, number]} */
    [c, f.usersOn(c, other)]
  )).filter(([, u]) => !(isLog && u === 0));
  const otherText = otherMarks.map(([
    ,
    /** @type {number} */
    u
  ]) => `${lines[other][1]}: ${u.toLocaleString("en-US")}`);
  const sides = otherMarks.map(([
    /** @type {number} */
    c,
    /** @type {number} */
    u
  ], k) => f.place(c, otherText[k], other, u));
  const decadesY = isLog ? Math.max(1, Math.log10(top)) : 0;
  const dx = OFFSET * s / plotPx * (Math.log10(HI) - Math.log10(LO));
  const dy = OFFSET * s / plotH;
  return {
    type: "scatter",
    mode: "text",
    name: `${lines[other][1]} at the marks`,
    showlegend: false,
    hoverinfo: "skip",
    x: otherMarks.map(([
      /** @type {number} */
      c
    ], k) => c * 10 ** ((sides[k].left ? -1 : 1) * dx)),
    y: otherMarks.map(([
      ,
      /** @type {number} */
      u
    ], k) => isLog ? u * 10 ** ((sides[k].below ? -1 : 1) * dy * decadesY) : u + (sides[k].below ? -1 : 1) * dy * top),
    text: otherText,
    textposition: sides.map(({
      /** @type {boolean} */
      left,
      /** @type {boolean} */
      below
    }) => `${below ? "bottom" : "top"} ${left ? "left" : "right"}`),
    textfont: { color: t.fg }
  };
}
function noneFitsBox({ isLog, stairs, lines }, t) {
  if (!isLog) return null;
  const zeroFroms = (
    /** @type {Array<[string, number]>} */
    stairs.map((st, i) => [lines[i][1], st.x[st.users.findIndex((u) => u === 0n)]]).filter(([, x]) => x !== void 0)
  );
  if (!zeroFroms.length) return null;
  return {
    x: Math.log10(HI),
    y: 1,
    yref: "paper",
    xanchor: "right",
    yanchor: "top",
    xshift: -4,
    yshift: -4,
    align: "right",
    showarrow: false,
    text: zeroFroms.map(([name, x]) => `${name}: none fits past ${(x - 1).toLocaleString("en-US")} tokens`).join("<br>"),
    font: { color: t.fg },
    bordercolor: t.fg2,
    bgcolor: t.bg
  };
}
function chosenAnnotations(f, chosen) {
  const { inp, t, s } = f;
  const x = Math.log10(inp.context);
  if (chosen.users > 0) {
    const y = inp.isLog ? Math.log10(chosen.users) : chosen.users;
    return [
      { x, y, text: "◯", showarrow: false, xanchor: "center", yanchor: "middle", font: { color: t.fg, size: 14 * s } },
      labelAnnotation(f, { c: inp.context, y, u: chosen.users, i: f.on, text: chosen.text, border: t.fg, width: 2 })
    ];
  }
  const floor = { yref: "paper", y: 0 };
  const leftOfFloor = f.place(inp.context, chosen.text, f.upper, 0).left;
  return [
    { x, ...floor, text: "▼", showarrow: false, xanchor: "center", yanchor: "bottom", font: { color: conceptColor("warning"), size: 14 * s } },
    {
      x,
      ...floor,
      text: chosen.text,
      showarrow: false,
      yanchor: "bottom",
      yshift: 20 * s,
      xanchor: leftOfFloor ? "right" : "left",
      xshift: leftOfFloor ? 4 * s : -4 * s,
      font: { color: t.fg },
      bordercolor: conceptColor("warning"),
      borderwidth: 2,
      bgcolor: t.bg
    }
  ];
}
function failureText({ here, stairs }) {
  const nothing = stairs.every((st) => st.users.every((u) => u === 0n));
  return !here.weights_fit ? fitMessage(here) : nothing ? `The model loads, but not one conversation of ${fmtTokens(LO)} tokens fits, with either cache. ${fitMessage(here)}` : "";
}
function sayText(app, { here, isLog, stairs, shape, o }, failed) {
  const textLines = [{ text: fitMessage(here), cls: failed || here.users > 0n ? "kv-note" : "kv-warn" }];
  if (isLog && !failed && stairs.some((st) => st.users.some((u) => u === 0n))) {
    textLines.push({ text: "Where no conversation fits the line stops: 0 has no place on a log axis.", cls: "kv-note" });
  }
  textLines.push(...limitLines(shape, { context: app.model.get("context"), weights: true, params: o.params }));
  app.say(textLines);
}
function fillReadouts(app, { outUsers, outMax }, { here, longest, shape }) {
  outUsers.textContent = `${Number(here.users).toLocaleString("en-US")} (${String(app.model.get("kv_dtype")).toUpperCase()} cache)`;
  const pastModel = longest !== null && shape.max_context && longest > shape.max_context ? `, past the model's ${shape.max_context.toLocaleString("en-US")}-token limit` : "";
  outMax.textContent = longest === null ? "no limit" : longest === 0 ? "none" : `${longest.toLocaleString("en-US")} tokens${pastModel}`;
}
function describeChart(app, f, chosen, longestText) {
  const { context, marks } = f.inp;
  const cacheName = `${String(app.model.get("kv_dtype")).toUpperCase()} cache`;
  app.describeFigure(
    `conversations that fit against the length of each, ${cacheName}`,
    `${chosen.users > 0 ? `${fmtConversations(chosen.users)} of ${fmtTokens(context)} tokens fit` : chosen.text}; ${marks.map((c) => `${fmtConversations(f.usersOn(c))} at ${fmtTokens(c)}`).join(", ")}; the longest one conversation can be: ${longestText}.`
  );
}
function plotChart(app, f, traces, { shapes, annotations }, linesKey) {
  const { s, plotPx, on } = f;
  const { isLog, stairs, yScale } = f.inp;
  const ticks = plotPx >= 440 * s ? TICKS_ALL : TICKS_HALF;
  if (!TICK_TEXT.has(ticks)) TICK_TEXT.set(ticks, ticks.map(fmtTokens));
  const shortRange = Math.max(...stairs.map((st) => Number(st.users[0]))) < 300;
  drawPlot(app, traces, {
    shapes,
    annotations,
    xaxis: {
      type: "log",
      title: { text: "context (tokens per conversation)" },
      range: [Math.log10(LO), Math.log10(HI)],
      tickmode: "array",
      tickvals: ticks,
      ticktext: TICK_TEXT.get(ticks)
    },
    // On a short range (a few hundred conversations at most) plotly labels every digit and
    // those under 10 crowd together: ticks at 1, 2, 5 of each decade then. Only then: a
    // set dtick makes each redraw slower (about 1.5x here), and longer ranges get 1, 2, 5
    // from plotly itself.
    yaxis: isLog ? { type: "log", ...shortRange ? { dtick: "D2" } : {}, title: { text: "conversations that fit (log)" } } : { type: "linear", title: { text: "conversations that fit" }, rangemode: "tozero" }
  }, [linesKey, yScale, on, plotPx]);
}
function render({ model, el }) {
  const app = createApp({ model, el }, "How many conversations fit as each one gets longer?");
  const outs = buildControls(app);
  const values = [outs.outUsers, outs.outMax];
  const cache = {};
  app.draw = () => {
    markHolds(values, false);
    const inp = readInputs(app, cache);
    const traces = stepTraces(inp);
    const { shapes, annotations } = markLines(inp.marks, app.theme());
    const f = figureLayout(app, inp, cache);
    const chosen = chosenPoint(f);
    annotations.push(...markLabels(f, chosen));
    traces.push(otherCacheTrace(f));
    const noneFits = noneFitsBox(inp, f.t);
    if (noneFits) annotations.push(noneFits);
    annotations.push(...chosenAnnotations(f, chosen));
    const failed = failureText(inp);
    sayText(app, inp, failed);
    fillReadouts(app, outs, inp);
    if (failed) {
      if (!inp.here.weights_fit) outs.outUsers.textContent = "none (the model does not load)";
      markHolds(values, true);
      app.failure(failed);
      return;
    }
    describeChart(app, f, chosen, outs.outMax.textContent);
    plotChart(app, f, traces, { shapes, annotations }, cache.key);
  };
  return startApp(app);
}
var context_users_default = widgetModule(render);
export {
  context_users_default as default
};
