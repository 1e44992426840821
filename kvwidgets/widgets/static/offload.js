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

// kvwidgets/widgets/js/widgets/offload.js
var TIER_NAMES = { "cpu-pinned": "CPU memory (pinned)", "cpu-pageable": "CPU memory (pageable)", "nvme-ssd": "NVMe SSD" };
var SHORT_NAMES = { "cpu-pinned": "pinned CPU", "cpu-pageable": "pageable CPU", "nvme-ssd": "NVMe SSD" };
var TIER_DASH = { "cpu-pinned": "solid", "cpu-pageable": "longdash", "nvme-ssd": "dashdot" };
var DASH_WORDS = { solid: "solid", longdash: "long dashes", dashdot: "dash-dots" };
var fmtInt = (x) => Number(x).toLocaleString("en-US");
var tierColor = (gbps, dark) => rampColor(gbps, 1, 100, dark);
function coincidentTiers(tiers, speed) {
  const names = Object.keys(tiers).sort((a, b) => tierGbps(tiers[a], speed) - tierGbps(tiers[b], speed));
  const pairs = [];
  for (let i = 0; i + 1 < names.length; i++) {
    const slow = tierGbps(tiers[names[i]], speed);
    const fast = tierGbps(tiers[names[i + 1]], speed);
    if (fast <= 1.1 * slow) pairs.push([names[i], names[i + 1]]);
  }
  return pairs;
}
function tierTime(tier) {
  return `${tier.gbps.toLocaleString("en-US")} GB/s: ${fmtSeconds(tier.seconds)}`;
}
function tierPictureLabel(tiers, gpu, cacheText) {
  return `the storage tiers and their copy speeds to the ${gpu.name} GPU, fastest first: ${tiers.map((tier) => `${SHORT_NAMES[tier.name] || tier.name} ${tierTime(tier)}`).join("; ")}; ${cacheText}`;
}
function tierPicture(app, tiers, W, gpu, cacheText) {
  const t = app.theme();
  const s = app.scale();
  const fs = 11 * s;
  const rowH = 26 * s;
  const H = tiers.length * rowH + 6 * s;
  const bw = Math.min(150 * s, W * 0.24);
  const gw = Math.min(230 * s, W * 0.3);
  const gx = W - gw;
  const parts = [];
  tiers.forEach((tier, i) => {
    const cy = i * rowH + rowH / 2 + 3 * s;
    const color = tierColor(tier.gbps, t.dark);
    const g = svgElement("g", { class: "kv-tier", "data-tier": tier.name, "data-gbps": tier.gbps });
    g.append(
      svgElement("rect", { x: 0.5, y: cy - rowH / 2 + 2 * s, width: bw, height: rowH - 4 * s, rx: 3 * s, fill: "none", stroke: color, "stroke-width": 1.5 * s }),
      svgElement("text", { x: bw / 2, y: cy + fs * 0.35, "text-anchor": "middle", "font-size": fs, fill: t.fg, text: SHORT_NAMES[tier.name] || tier.name })
    );
    const w = Math.max(1.2, (1 + 2.2 * Math.log10(tier.gbps)) * s);
    const x1 = bw + 4 * s;
    const x2 = gx - 4 * s;
    const head = 5 * s + w;
    g.append(
      svgElement("line", { x1, y1: cy + 4 * s, x2: x2 - head, y2: cy + 4 * s, stroke: color, "stroke-width": w }),
      svgElement("polygon", { points: `${x2},${cy + 4 * s} ${x2 - head},${cy + 4 * s - head / 2} ${x2 - head},${cy + 4 * s + head / 2}`, fill: color }),
      svgElement("text", {
        class: "kv-tier-time",
        x: (x1 + x2) / 2,
        y: cy - 1 * s,
        "text-anchor": "middle",
        "font-size": fs * 0.95,
        fill: t.fg,
        text: tierTime(tier)
      })
    );
    parts.push(g);
  });
  parts.push(
    svgElement("rect", { x: gx, y: 3 * s, width: gw - 1, height: H - 6 * s, rx: 4 * s, fill: "none", stroke: t.fg2, "stroke-width": 1.5 * s }),
    svgElement("rect", { x: gx + 8 * s, y: H / 2 + 2 * s, width: gw - 17 * s, height: 8 * s, rx: 2 * s, fill: conceptColor("kv") }),
    svgElement("text", { x: gx + gw / 2, y: H / 2 - 10 * s, "text-anchor": "middle", "font-size": fs, "font-weight": 600, fill: t.fg, text: `GPU (${gpu.name})` }),
    svgElement("text", { class: "kv-tier-cache", x: gx + gw / 2, y: H / 2 + 24 * s, "text-anchor": "middle", "font-size": fs * 0.95, fill: t.fg, text: cacheText })
  );
  return svgElement("svg", {
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "font-family": t.font,
    "aria-label": tierPictureLabel(tiers, gpu, cacheText)
  }, parts);
}
function halo(bg, s) {
  const d = Math.max(1, Math.round(1.5 * s));
  return [[-d, -d], [d, -d], [-d, d], [d, d], [0, -d], [0, d], [-d, 0], [d, 0]].map(([x, y]) => `${x}px ${y}px 1px ${bg}`).join(", ");
}
function interpolateMeasured(rows, t) {
  for (const r of rows) if (r.tokens === t) return r.seconds;
  for (let i = 0; i + 1 < rows.length; i++) {
    const a = rows[i];
    const b = rows[i + 1];
    if (a.tokens < t && t < b.tokens) {
      const f = (Math.log(t) - Math.log(a.tokens)) / (Math.log(b.tokens) - Math.log(a.tokens));
      return Math.exp(Math.log(a.seconds) + f * (Math.log(b.seconds) - Math.log(a.seconds)));
    }
  }
  return null;
}
function measuredCrossing(reload, rows) {
  if (!rows.length) return null;
  const first = (t) => reload(t) < /** @type {number} */
  interpolateMeasured(rows, t);
  const start = first(rows[0].tokens);
  let prev = rows[0].tokens;
  for (const r of rows.slice(1)) {
    if (first(r.tokens) !== start) {
      let a = prev;
      let b = r.tokens;
      while (b - a > 1) {
        const mid = Math.floor((a + b) / 2);
        if (first(mid) === start) a = mid;
        else b = mid;
      }
      return b;
    }
    prev = r.tokens;
  }
  return null;
}
function fmtSeconds(x) {
  if (x === null || x === void 0) return "n/a";
  if (x < 1e-3) return `${(x * 1e6).toLocaleString("en-US", { maximumFractionDigits: 0 })} µs`;
  if (x < 1) return `${(x * 1e3).toLocaleString("en-US", { maximumFractionDigits: x < 0.01 ? 2 : 1 })} ms`;
  return `${x.toLocaleString("en-US", { maximumFractionDigits: 2 })} s`;
}
function checkControl(app, name, labelText) {
  const box = element("input", { type: "checkbox", "data-kv": name });
  box.addEventListener("change", () => app.set(name, box.checked));
  const sync = () => {
    box.checked = Boolean(app.model.get(name));
  };
  sync();
  app.syncers.push(sync);
  return labelled(app, labelText, box);
}
function buildControls(app) {
  modelSelect(app);
  gpuSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app);
  selectControl(app, "speed", "Copy speed", () => axisValues(app, "speeds").map((v) => [v, v === "low" ? "slow end" : v === "high" ? "fast end" : "typical"]), ["axes"]);
  checkControl(app, "bands", "Ranges");
  moreFold(app, () => paramsBox(app));
  resetButton(app);
  return {
    reload: app.readout("reload", "Reload:"),
    recompute: app.readout("recompute", "Recompute:"),
    fastest: app.readout("fastest", "Fastest:"),
    cross: app.readout("crossover", "Crossings:")
  };
}
function readInputs(app, model) {
  const L = app.lookup();
  const shape = L.shape();
  const gpu = L.gpu();
  const tiers = model.get("storage") || {};
  const meas = model.get("measured") || {};
  const showMeasured = Boolean(meas.rows && (meas.models || [meas.model]).includes(shape.name) && gpu.name === meas.gpu);
  return {
    shape,
    gpu,
    bits: L.bits("kv_dtype"),
    context: checkInt("context", model.get("context"), 1),
    speed: model.get("speed"),
    bands: Boolean(model.get("bands")),
    params: paramsOverride(app),
    tiers,
    names: Object.keys(tiers),
    xs: contextGrid(1024, 1048576),
    t: app.theme(),
    sc: app.scale(),
    meas,
    showMeasured,
    rows: showMeasured ? meas.rows : []
  };
}
function reloadTraces({ shape, bits, context, speed, bands, tiers, names, xs, t }) {
  const traces = [];
  const at = {};
  const ends = [];
  const drawn = [];
  names.forEach((name) => {
    const tier = tiers[name];
    const gbps = tierGbps(tier, speed);
    const color = tierColor(gbps, t.dark);
    const label = TIER_NAMES[name] || tier.label || name;
    const line = (sp) => xs.map((x) => reloadSeconds(shape, x, bits, tierGbps(tier, sp)));
    const chosen = line(speed);
    at[name] = reloadSeconds(shape, context, bits, gbps);
    ends.push([name, chosen[chosen.length - 1], color]);
    drawn.push(chosen);
    if (bands) {
      const slow = line("low");
      const fast = line("high");
      drawn.push(slow, fast);
      traces.push({ type: "scatter", mode: "lines", x: xs, y: slow, line: { width: 0, color }, showlegend: false, hoverinfo: "skip", legendgroup: name });
      traces.push({
        type: "scatter",
        mode: "lines",
        x: xs,
        y: fast,
        line: { width: 0, color },
        fill: "tonexty",
        fillcolor: color + "40",
        showlegend: false,
        hoverinfo: "skip",
        legendgroup: name
      });
    }
    traces.push({
      type: "scatter",
      mode: "lines",
      name: `reload from ${label}`,
      x: xs,
      y: chosen,
      line: { color, width: 2.5, dash: TIER_DASH[name] || "solid" },
      legendgroup: name,
      showlegend: false,
      hovertemplate: `${label}, %{x:,} tokens: %{y:.3s} s<extra>${gbps} GB/s</extra>`
    });
  });
  return { traces, at, ends, drawn };
}
function recomputeTraces({ shape, gpu, params, xs, t, sc, showMeasured, rows }) {
  const recompute = xs.map((x) => prefillSeconds(shape, gpu, x, params));
  const drawn = [recompute];
  const traces = [{
    type: "scatter",
    mode: "lines",
    name: `recompute, ideal ${gpu.name} (${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS)`,
    x: xs,
    y: recompute,
    line: { color: t.fg, width: 2.5, dash: "dash" },
    hovertemplate: "ideal recompute, %{x:,} tokens: %{y:.3s} s<extra></extra>"
  }];
  if (showMeasured) {
    drawn.push(rows.map((r) => r.seconds));
    traces.push({
      type: "scatter",
      mode: "lines+markers",
      name: "recompute, measured H200 prefill",
      x: rows.map((r) => r.tokens),
      y: rows.map((r) => r.seconds),
      line: { color: t.fg, width: 1.5, dash: "dot" },
      marker: { symbol: "x", size: 9 * sc, color: t.fg },
      hovertemplate: "measured prefill, %{x:,} tokens: %{y:.3s} s<extra></extra>"
    });
  }
  return { traces, drawn };
}
function crossings({ shape, gpu, bits, speed, params, tiers, names, showMeasured, rows }) {
  const crossText = [];
  const dots = { x: [], y: [], text: [] };
  names.forEach((name) => {
    const tier = tiers[name];
    const label = TIER_NAMES[name] || name;
    const gbps = tierGbps(tier, speed);
    const xi = recomputeCrossover(shape, gpu, tier, bits, speed, params);
    const xm = showMeasured ? measuredCrossing((x) => reloadSeconds(shape, x, bits, gbps), rows) : null;
    for (
      const [x, what] of
      /** @type {Array<[number | null, string]>} */
      [[xi, "ideal"], [xm, "measured"]]
    ) {
      if (x === null) continue;
      const y = reloadSeconds(shape, x, bits, gbps);
      crossText.push(`${label} = ${what} recompute at ${x.toLocaleString("en-US")}`);
      dots.x.push(x);
      dots.y.push(y);
      dots.text.push(`${label} and ${what} recompute cross at ${x.toLocaleString("en-US")} tokens`);
    }
  });
  return { crossText, dots };
}
function labelPositions(xs) {
  const positions = new Array(xs.length);
  let prevX = 0;
  let prevBelow = false;
  [...xs.keys()].sort((a, b) => xs[a] - xs[b]).forEach((i) => {
    const lx = Math.log10(xs[i]);
    const below = !(prevBelow && lx - Math.log10(prevX) < 0.5);
    const side = below ? lx > 5.5 ? "left" : "right" : lx < 4.3 ? "right" : "left";
    positions[i] = `${below ? "bottom" : "top"} ${side}`;
    prevX = xs[i];
    prevBelow = below;
  });
  return positions;
}
function crossingTrace({ t, sc }, dots) {
  return {
    type: "scatter",
    mode: "markers+text",
    name: "where the cheaper way changes",
    x: dots.x,
    y: dots.y,
    text: dots.x.map((x) => `<b>${x.toLocaleString("en-US")} tokens</b>`),
    hovertext: dots.text,
    textposition: labelPositions(dots.x),
    // a halo of the background round each glyph: the lines run at about the labels'
    // slope through where any label can go, and without it they cut through the digits
    textfont: { color: t.fg, size: 11 * sc, shadow: halo(t.bg, sc) },
    marker: { size: 9 * sc, color: t.fg, line: { color: t.bg, width: 1.5 } },
    hovertemplate: "%{hovertext}<extra></extra>"
  };
}
function chartFrame(app, { t, sc }, drawn, ends) {
  let lo = Infinity;
  let hi = 0;
  for (const ys of drawn) for (const y of ys) if (y > 0) {
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  const height = Math.round(440 * sc);
  const margin = { l: 72 * sc, r: 112 * sc, t: 34 * sc, b: 84 * sc };
  const yRange = [Math.log10(lo) - 0.15, Math.log10(hi) + 0.15];
  const drawnHeight = app.root.classList.contains("kv-compact") ? Math.round(0.7 * height) : height;
  const pxPerDecade = (drawnHeight - margin.t - margin.b) / (yRange[1] - yRange[0]);
  const labels = endLabels(
    ends.map(([n, y, color]) => ({ text: SHORT_NAMES[n] || n, y, color })),
    { x: 12e5, pxPerDecade, gap: 14 * sc, size: 11 * sc, ink: t.fg }
  );
  return { height, margin, yRange, labels };
}
function textLines({ shape, gpu, context, speed, params, tiers, names, meas, showMeasured }) {
  const gbpsText = (n) => `${tierGbps(tiers[n], speed).toLocaleString("en-US")} GB/s`;
  const dashText = (n) => `${SHORT_NAMES[n] || n} ${DASH_WORDS[TIER_DASH[n] || "solid"]}`;
  const lines = [
    // first, so a slide (compact: the first line shows) says why one line seems missing
    ...coincidentTiers(tiers, speed).map(([a, b]) => ({ text: `${TIER_NAMES[a] || a} (${gbpsText(a)}) and ${TIER_NAMES[b] || b} (${gbpsText(b)}) copy at nearly the same speed here: their lines lie on each other (${dashText(a)}, ${dashText(b)}).` })),
    { text: `Reload = the cache's bytes / the copy speed (${speed === "typical" ? "typical" : speed === "low" ? "slow end" : "fast end"} of each tier; Ranges shades each tier from its slow to its fast end). Recompute = 2 x ${Number(activeParams(shape, params)).toLocaleString("en-US")} active params x tokens / ${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS, an ideal floor that leaves attention's own work out.`, cls: "kv-note" },
    { text: `Copy speeds (GB/s, slow end / typical / fast end): ${names.map((n) => `${TIER_NAMES[n] || n} ${tiers[n].low_gbps} / ${tiers[n].typical_gbps} / ${tiers[n].high_gbps}`).join("; ")}.`, cls: "kv-note" }
  ];
  if (showMeasured) lines.push({ text: `Measured: ${meas.provenance}. It grows faster than the ideal because attention's work grows with the square of the tokens.`, cls: "kv-note" });
  else lines.push({ text: `Measured prefill is drawn for ${meas.model || "llama-3-8b"} on the ${meas.gpu || "H200"} only (the shape that was measured).`, cls: "kv-note" });
  if (shape.max_context && context > shape.max_context) {
    lines.push({ text: `${context.toLocaleString("en-US")} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${shape.max_context.toLocaleString("en-US")}).`, cls: "kv-warn" });
  }
  return lines;
}
function tierPictureKeeper(app, picture) {
  let drawnPicture = "";
  const prepare = ({ gpu, speed, tiers, names, t, sc }, at, cacheText) => {
    const pictureTiers = [...names].sort((a, b) => tierGbps(tiers[b], speed) - tierGbps(tiers[a], speed)).map((n) => ({ name: n, gbps: tierGbps(tiers[n], speed), seconds: at[n] }));
    const pictureWidth = diagramWidth(app);
    const pictureKey = JSON.stringify([pictureTiers.map((p) => [p.name, p.gbps]), pictureWidth, gpu.name, sc, t]);
    const pictureSvg = pictureKey === drawnPicture ? null : tierPicture(app, pictureTiers, pictureWidth, gpu, cacheText);
    const show = () => {
      if (pictureSvg) {
        picture.replaceChildren(pictureSvg);
        drawnPicture = pictureKey;
      } else {
        picture.querySelectorAll(".kv-tier-time").forEach((e, i) => {
          e.textContent = tierTime(pictureTiers[i]);
        });
        picture.querySelector(".kv-tier-cache").textContent = cacheText;
        picture.querySelector("svg").setAttribute("aria-label", tierPictureLabel(pictureTiers, gpu, cacheText));
      }
    };
    return show;
  };
  return prepare;
}
function fillReadouts(app, outs, { shape, bits, context, bands, tiers, names, showMeasured, rows }, { at, recomputeAt, fastest, crossText, kvb }) {
  const measuredAt = showMeasured ? interpolateMeasured(rows, context) : null;
  const range = (n) => bands ? ` (${fmtSeconds(reloadSeconds(shape, context, bits, tiers[n].high_gbps))} to ${fmtSeconds(reloadSeconds(shape, context, bits, tiers[n].low_gbps))})` : "";
  outs.reload.textContent = names.map((n) => `${TIER_NAMES[n] || n} ${fmtSeconds(at[n])}${range(n)}`).join(" · ");
  outs.recompute.textContent = `ideal ${fmtSeconds(recomputeAt)}` + (showMeasured ? `, measured ${measuredAt === null ? "n/a at this length (measured 1K to 32K)" : fmtSeconds(measuredAt)}` : "");
  outs.fastest.textContent = fastest[0];
  const searched = `reload against the ideal recompute (a model) checked from ${fmtInt(1024)} to ${fmtInt(1048576)} tokens` + (showMeasured ? `, against the measured prefill from ${fmtInt(rows[0].tokens)} to ${fmtInt(rows[rows.length - 1].tokens)}` : "");
  outs.cross.textContent = crossText.length ? crossText.join(" · ") : `none: ${searched}`;
  app.describeFigure(
    "seconds to get one conversation's cache back against its context: reload from each tier, or recompute",
    `At ${fmtTokens(context)} tokens (${fmtBytes(kvb)} of cache) the fastest way is ${fastest[0]}. Reload: ${outs.reload.textContent.replaceAll(" · ", ", ")}. Recompute: ${outs.recompute.textContent}. Where the cheaper way changes: ${outs.cross.textContent.replaceAll(" · ", ", ")}.`
  );
}
function render({ model, el }) {
  const app = createApp({ model, el }, "Offload or recompute: which brings one conversation's cache back faster?");
  const outs = buildControls(app);
  const picture = element("div", { class: "kv-diagram kv-tiers" });
  app.plot.before(picture);
  const preparePicture = tierPictureKeeper(app, picture);
  app.draw = () => {
    const I = readInputs(app, model);
    const { shape, gpu, bits, context, speed, bands, params, names, t, sc, showMeasured } = I;
    const reload = reloadTraces(I);
    const recompute = recomputeTraces(I);
    const traces = [...reload.traces, ...recompute.traces];
    const recomputeAt = prefillSeconds(shape, gpu, context, params);
    const { crossText, dots } = crossings(I);
    if (dots.x.length) traces.push(crossingTrace(I, dots));
    const options = names.map((n) => [`reload from ${TIER_NAMES[n] || n}`, reload.at[n]]);
    options.push(["recompute (ideal)", recomputeAt]);
    const fastest = options.reduce((a, b) => b[1] < a[1] ? b : a);
    const kvb = kvBytes(shape, context, bits);
    const shapes = [{ type: "line", xref: "x", yref: "paper", x0: context, x1: context, y0: 0, y1: 1, line: { color: t.fg2, width: 1, dash: "dot" } }];
    const annotations = [{
      x: Math.log10(context),
      y: 1,
      xref: "x",
      yref: "paper",
      yanchor: "bottom",
      text: `${fmtTokens(context)}: ${fmtBytes(kvb)} of cache`,
      showarrow: false,
      font: { color: t.fg, size: 11 * sc }
    }];
    const { height, margin, yRange, labels } = chartFrame(app, I, [...reload.drawn, ...recompute.drawn], reload.ends);
    traces.push(labels);
    const showPicture = preparePicture(I, reload.at, `cache at ${fmtTokens(context)}: ${fmtBytes(kvb)}`);
    const lines = textLines(I);
    app.say(lines);
    showPicture();
    fillReadouts(app, outs, I, { at: reload.at, recomputeAt, fastest, crossText, kvb });
    drawPlot(app, traces, {
      annotations,
      shapes,
      height,
      margin,
      xaxis: { type: "log", title: { text: "context of the conversation (tokens)" }, range: [Math.log10(900), Math.log10(12e5)] },
      yaxis: { type: "log", title: { text: "seconds to get the cache back" }, range: yRange },
      // traceorder: the bands' fills would otherwise turn plotly's default order to reversed,
      // and the legend's two entries would swap when Ranges is ticked. Placed from the
      // figure's bottom edge (yref container) in the bottom margin, under the axis title: a
      // place below the plot as a fraction of its height moved up onto the title when a
      // slide (compact) drew the figure shorter.
      legend: { orientation: "h", yref: "container", yanchor: "bottom", y: 0, font: { color: t.fg }, traceorder: "normal" }
    }, [shape, gpu.name, bits, speed, params, showMeasured, bands]);
  };
  return startApp(app);
}
var offload_default = widgetModule(render);
export {
  offload_default as default
};
