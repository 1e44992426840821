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

// kvwidgets/widgets/js/widgets/cache_transfer.js
var SHORT_NAMES = {
  nvlink5: "NVLink 5",
  nvlink4: "NVLink 4",
  "ib-xdr-800g": "InfiniBand 800G",
  "roce-800g": "RoCE 800G",
  "pcie5-x16": "PCIe Gen5 x16",
  "pcie5-h200-measured": "PCIe 5, measured",
  "ib-ndr-400g": "InfiniBand 400G",
  "roce-400g": "RoCE 400G",
  "pcie4-x16": "PCIe Gen4 x16"
};
var shortName = (link) => SHORT_NAMES[link.name] || link.label;
var linkColor = (gbps, dark) => rampColor(gbps, 20, 1e3, dark);
var MEASURED_LINK = "pcie5-h200-measured";
var UNITS = [{ scale: 1, unit: "s" }, { scale: 1e-3, unit: "ms" }, { scale: 1e-6, unit: "µs" }];
function fmtSeconds(x) {
  if (x === null || x === void 0) return "n/a";
  const { scale, unit } = UNITS.find((u) => x >= u.scale) || UNITS[UNITS.length - 1];
  const v = x / scale;
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toLocaleString("en-US", { maximumFractionDigits: digits })} ${unit}`;
}
function fmtGbps(gbps) {
  return `${Number(gbps.toPrecision(3)).toLocaleString("en-US")} GB/s`;
}
function fitSize(text, width, size) {
  return Math.min(size, width / (text.length * 0.57));
}
function halo(bg, s) {
  return { stroke: bg, "stroke-width": 3 * s, "stroke-linejoin": "round", "paint-order": "stroke" };
}
function decadeLabel(p) {
  const [scale, unit] = p >= 0 ? [1, "s"] : p >= -3 ? [1e-3, "ms"] : [1e-6, "µs"];
  return `${Math.round(10 ** p / scale).toLocaleString("en-US")} ${unit}`;
}
function against(ratio, what) {
  if (ratio >= 1) return `${ratio.toLocaleString("en-US", { maximumFractionDigits: ratio >= 10 ? 0 : 1 })} times ${what}`;
  const pct = ratio * 100;
  return `${pct.toLocaleString("en-US", { maximumFractionDigits: pct >= 10 ? 0 : pct >= 1 ? 1 : 2 })}% of ${what}`;
}
function gpusPicture(app, x, W, gpu) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const H = 118 * s;
  const gw = Math.min(210 * s, W * 0.3);
  const mid = H / 2 + 4 * s;
  const kv = conceptColor("kv");
  const side = (x0, role, cacheText) => {
    const title = x.tp > 1 ? `${role}: ${x.tp} x ${gpu.name}` : `${role} GPU (${gpu.name})`;
    const inner = gw - 14 * s;
    return svgElement("g", { class: `kv-xfer-gpu kv-xfer-${role.toLowerCase()}` }, [
      svgElement("rect", { x: x0 + 0.75 * s, y: 6 * s, width: gw - 1.5 * s, height: H - 12 * s, rx: 5 * s, fill: "none", stroke: t.fg2, "stroke-width": 1.5 * s }),
      svgElement("text", { x: x0 + gw / 2, y: 26 * s, "text-anchor": "middle", "font-size": fitSize(title, inner, fs), "font-weight": 600, fill: t.fg, text: title }),
      svgElement("rect", { class: "kv-xfer-cache", x: x0 + 12 * s, y: mid - 9 * s, width: gw - 24 * s, height: 18 * s, rx: 2 * s, fill: kv }),
      svgElement("text", { x: x0 + gw / 2, y: mid + 27 * s, "text-anchor": "middle", "font-size": fitSize(cacheText, inner, fs * 0.95), fill: t.fg, text: cacheText })
    ]);
  };
  const share = x.tp > 1 ? `KV cache: ${fmtBytes(x.bytes_per_rank)} a GPU` : `KV cache: ${fmtBytes(x.bytes_per_rank)}`;
  const color = linkColor(x.link.gbps, t.dark);
  const w = Math.max(2 * s, (1 + 2.5 * Math.log10(x.link.gbps / 10)) * s);
  const x1 = gw + 8 * s;
  const x2 = W - gw - 8 * s;
  const head = 6 * s + w;
  const cx = (x1 + x2) / 2;
  const arrow = svgElement("g", { class: "kv-xfer-link", "data-link": x.link.name, "data-gbps": x.link.gbps, "data-seconds": x.seconds }, [
    svgElement("line", { x1, y1: mid, x2: x2 - head, y2: mid, stroke: color, "stroke-width": w }),
    svgElement("polygon", { points: `${x2},${mid} ${x2 - head},${mid - head / 2} ${x2 - head},${mid + head / 2}`, fill: color }),
    // the cache on its way: a piece of the block in the arrow's middle
    svgElement("rect", { x: cx - 16 * s, y: mid - 8 * s, width: 32 * s, height: 16 * s, rx: 2 * s, fill: kv, stroke: t.fg, "stroke-width": 1 * s }),
    svgElement("text", { x: cx, y: mid - 16 * s - fs * 1.2, "text-anchor": "middle", "font-size": fs, fill: t.fg, text: shortName(x.link) }),
    svgElement("text", { x: cx, y: mid - 16 * s, "text-anchor": "middle", "font-size": fs * 0.95, fill: t.fg2, text: `${fmtGbps(x.link.gbps)} one way` }),
    svgElement("text", {
      class: "kv-xfer-time",
      x: cx,
      y: mid + 8 * s + fs * 1.4,
      "text-anchor": "middle",
      "font-size": fs,
      "font-weight": 600,
      fill: t.fg,
      text: `${fmtSeconds(x.seconds)} to move`
    })
  ]);
  if (x.tp > 1) {
    const text = `each GPU to its pair, ${x.tp} links at once`;
    arrow.append(svgElement("text", { x: cx, y: mid + 8 * s + fs * 2.6, "text-anchor": "middle", "font-size": fitSize(text, x2 - x1, fs * 0.9), fill: t.fg2, text }));
  }
  return { H, parts: [side(0, "Prefill", share), arrow, side(W - gw, "Decode", share)] };
}
var REFERENCE_KINDS = 3;
function timeRows(app, x, rows, refs, W, top) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const rowH = 21 * s;
  const lw = Math.min(190 * s, W * 0.34);
  const labelOf = (r) => `${shortName(r)}, ${fmtGbps(r.gbps)}`;
  const longest = rows.map(labelOf).reduce((a, b) => b.length > a.length ? b : a, "");
  const labelSize = fitSize(`▸ ${longest}`, lw, fs * 0.95);
  const x0 = lw + 10 * s;
  const x1 = W - 14 * s;
  const values = [...rows.map((r) => r.seconds), ...refs.map((r) => r.seconds)].filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...values)));
  const hi = Math.ceil(Math.log10(Math.max(...values)));
  const span = Math.max(1, hi - lo);
  const px = (v) => x0 + (Math.log10(v) - lo) / span * (x1 - x0);
  const parts = [];
  const headH = Math.max(refs.length, app.keepsHeight() ? REFERENCE_KINDS : 0) * fs * 1.35 + 4 * s;
  const y0 = top + headH;
  const y1 = y0 + rows.length * rowH;
  for (let p = lo; p <= hi; p++) {
    const gx = px(10 ** p);
    parts.push(
      svgElement("line", { x1: gx, y1: y0, x2: gx, y2: y1, stroke: t.grid, "stroke-width": 1 }),
      svgElement("text", { x: gx, y: y1 + fs * 1.3, "text-anchor": "middle", "font-size": fs * 0.9, fill: t.fg2, text: decadeLabel(p) })
    );
  }
  const axisTitle = "time for one conversation (log scale: each grid step is 10 times longer)";
  const titleSize = fitSize(axisTitle, W - 4 * s, fs * 0.95);
  const titleX = Math.min(Math.max((x0 + x1) / 2, axisTitle.length * titleSize * 0.57 / 2), W - axisTitle.length * titleSize * 0.57 / 2);
  parts.push(svgElement("text", { x: titleX, y: y1 + fs * 2.8, "text-anchor": "middle", "font-size": titleSize, fill: t.fg2, text: axisTitle }));
  const chosenAt = rows.findIndex((r) => r.name === x.link.name);
  parts.push(svgElement("rect", { class: "kv-xfer-band", x: 0, y: y0 + chosenAt * rowH, width: W, height: rowH, fill: t.grid }));
  refs.forEach((r, i) => {
    const gx = px(r.seconds);
    const ly = top + (i + 1) * fs * 1.35;
    const text = `${r.name}: ${fmtSeconds(r.seconds)}`;
    const wide = text.length * fs * 0.95 * 0.57;
    const [tx, anchor] = gx + 5 * s + wide <= W ? [gx + 5 * s, "start"] : gx - 5 * s - wide >= 0 ? [gx - 5 * s, "end"] : [Math.max(0, W - wide), "start"];
    parts.push(svgElement("g", { class: "kv-xfer-ref", "data-ref": r.key, "data-seconds": r.seconds }, [
      svgElement("line", { x1: gx, y1: ly - fs * 0.9, x2: gx, y2: y1, stroke: r.ink, "stroke-width": 2 * s, "stroke-dasharray": r.dash }),
      svgElement("text", { x: tx, y: ly, "text-anchor": anchor, "font-size": fs * 0.95, fill: t.fg, text, ...halo(t.bg, s) })
    ]));
  });
  rows.forEach((r, i) => {
    const cy = y0 + i * rowH + rowH / 2;
    const chosen = r.name === x.link.name;
    const mx = px(r.seconds);
    const label = labelOf(r);
    const right = mx < x1 - 70 * s;
    const g = svgElement("g", { class: "kv-xfer-row", "data-link": r.name, "data-gbps": r.gbps, "data-seconds": r.seconds, "data-chosen": String(chosen) }, [
      svgElement("text", {
        x: lw,
        y: cy + fs * 0.35,
        "text-anchor": "end",
        "font-size": labelSize,
        "font-weight": chosen ? 700 : 400,
        fill: chosen ? t.fg : t.fg2,
        text: chosen ? `▸ ${label}` : label
      }),
      // a guide along the row (a log axis has no zero for a bar to start from)
      svgElement("line", { x1: x0, y1: cy, x2: x1, y2: cy, stroke: t.grid, "stroke-width": 1, "stroke-dasharray": `${2 * s} ${3 * s}` }),
      svgElement("circle", { cx: mx, cy, r: (chosen ? 6 : 4.5) * s, fill: linkColor(r.gbps, t.dark), stroke: t.fg, "stroke-width": 1 * s }),
      svgElement("text", {
        x: mx + (right ? 10 : -10) * s,
        y: cy + fs * 0.35,
        "text-anchor": right ? "start" : "end",
        "font-size": fs * 0.9,
        "font-weight": chosen ? 700 : 400,
        fill: t.fg,
        text: fmtSeconds(r.seconds),
        ...halo(chosen ? t.grid : t.bg, s)
      })
    ]);
    parts.push(g);
  });
  return { H: y1 + fs * 3.3 - top, parts };
}
function render({ model, el }) {
  const app = createApp({ model, el }, "How long does moving one conversation's cache to the decode GPU take, against prefilling it again?");
  modelSelect(app);
  gpuSelect(app);
  contextControl(app);
  selectControl(app, "link", "Link", () => Object.entries(model.get("links") || {}).sort((a, b) => b[1].gbps - a[1].gbps).map(([name, l]) => [name, `${shortName({ name, label: l.label })}: ${fmtGbps(l.gbps)}`]), ["links"]);
  selectControl(app, "tp", "GPUs a side (TP)", () => axisValues(app, "tp_sizes").map((n) => [n, String(n)]), ["axes"]);
  dtypeSelect(app, "kv_dtype", "KV cache");
  moreFold(app, () => {
    dtypeSelect(app, "weight_dtype", "Weights");
    paramsBox(app);
  });
  resetButton(app);
  diagramBox(app);
  const outBytes = app.readout("bytes", "Cache to move:");
  const outMove = app.readout("move", "Move:");
  const outPrefill = app.readout("vs_prefill", "Against prefill:");
  const outDecode = app.readout("vs_decode_step", "Against decoding:");
  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const kvBits = L.bits("kv_dtype");
    const weightBits = L.weightBits();
    const params = paramsOverride(app);
    const context = checkInt("context", model.get("context"), 1);
    const links = model.get("links") || {};
    const measured = model.get("measured") || {};
    const tp = model.get("tp");
    const o = { tp, kvBits, weightBits, params, measured };
    const x = cacheTransfer(shape, gpu, context, getLink(links, model.get("link")), o);
    const rows = Object.keys(links).map((name) => {
      const link = getLink(links, name);
      return { ...link, seconds: cacheTransfer(shape, gpu, context, link, o).seconds };
    }).sort((a, b) => b.gbps - a.gbps || a.name.localeCompare(b.name));
    const t = app.theme();
    const refs = [
      { key: "decode_step", name: "one decode step", seconds: x.decode_step_seconds, ink: t.fg2, dash: `${4 * app.scale()} ${3 * app.scale()}` },
      { key: "prefill", name: "prefill, ideal floor", seconds: x.prefill_seconds, ink: t.fg, dash: "none" }
    ];
    if (x.measured_prefill_seconds !== null) {
      refs.push({ key: "measured_prefill", name: "prefill measured on one H200", seconds: x.measured_prefill_seconds, ink: t.fg, dash: `${1.5 * app.scale()} ${3 * app.scale()}` });
    }
    const W = diagramWidth(app);
    const pic = gpusPicture(app, x, W, gpu);
    const chart = timeRows(app, x, rows, refs, W, pic.H + 10 * app.scale());
    const H = pic.H + 10 * app.scale() + chart.H;
    const svg = svgElement(
      "svg",
      {
        width: W,
        height: H,
        viewBox: `0 0 ${W} ${H}`,
        role: "img",
        "font-family": t.font,
        "aria-label": `One conversation's KV cache, ${fmtBytes(x.bytes_per_rank)}${tp > 1 ? " a GPU" : ""}, moves from the prefill to the decode GPU over ${x.link.label} in ${fmtSeconds(x.seconds)}; the ideal prefill takes ${fmtSeconds(x.prefill_seconds)} and one decode step ${fmtSeconds(x.decode_step_seconds)}.`
      },
      [...pic.parts, ...chart.parts]
    );
    const n = (v) => Number(v).toLocaleString("en-US");
    const lines = [
      { text: tp > 1 ? `Bytes to move = one GPU's share of the cache of ${n(context)} tokens, split ${tp} ways = ${n(x.bytes_per_rank)} B (${n(x.bytes_all_ranks)} B over all ${tp} GPUs, heads or latents held on several GPUs counted on each; one unsplit copy is ${n(x.bytes_one_copy)} B).` : `Bytes to move = the cache of ${n(context)} tokens = ${n(x.bytes_per_rank)} B.`, cls: "kv-note" },
      { text: `Move = ${n(x.bytes_per_rank)} B / ${x.link.gbps} GB/s = ${fmtSeconds(x.seconds)}.${tp > 1 ? " Each GPU sends its own share to its pair over its own link, all at once, so the time is one GPU's share over one link." : ""}`, cls: "kv-note" },
      { text: `Prefill (ideal floor) = 2 x ${n(activeParams(shape, params))} active params x ${n(context)} tokens / ${tp > 1 ? `(${n(gpu.bf16_tflops)} TFLOPS x ${tp} GPUs)` : `${n(gpu.bf16_tflops)} TFLOPS`} = ${fmtSeconds(x.prefill_seconds)}; it leaves attention's own work out, so a real prefill takes longer.`, cls: "kv-note" },
      { text: `One decode step (batch 1) = (weights a GPU + its cache) / ${n(gpu.bandwidth_gbps)} GB/s = ${fmtSeconds(x.decode_step_seconds)}, a bandwidth ceiling.`, cls: "kv-note" },
      { text: `${x.link.label}: ${x.link.gbps} GB/s one way. Source: ${x.link.source}.${x.link.name === MEASURED_LINK ? "" : " A published figure is a line rate: a real transfer reaches less."}`, cls: "kv-note" },
      { text: "Each row of the figure is the same bytes over that link's bandwidth; pick a link in the menu to see its source here.", cls: "kv-note" }
    ];
    if (x.measured_prefill_seconds !== null) lines.push({ text: `The dotted line: ${measured.provenance}.`, cls: "kv-note" });
    lines.push(...limitLines(shape, { context }));
    app.say(lines);
    outBytes.textContent = tp > 1 ? `${fmtBytes(x.bytes_per_rank)} from each of ${tp} GPUs (${fmtBytes(x.bytes_all_ranks)} in all) for ${fmtTokens(context)} tokens` : `${fmtBytes(x.bytes_per_rank)} for ${fmtTokens(context)} tokens`;
    outMove.textContent = `${fmtSeconds(x.seconds)} over ${shortName(x.link)} (${fmtGbps(x.link.gbps)})`;
    outPrefill.textContent = `${against(x.vs_prefill, "the ideal prefill")} (${fmtSeconds(x.prefill_seconds)})` + (x.measured_prefill_seconds !== null ? `; ${against(x.seconds / x.measured_prefill_seconds, "the measured one")} (${fmtSeconds(x.measured_prefill_seconds)})` : "");
    outDecode.textContent = `as long as ${x.vs_decode_step.toLocaleString("en-US", { maximumFractionDigits: x.vs_decode_step >= 10 ? 0 : 2 })} decode steps (${fmtSeconds(x.decode_step_seconds)} each)`;
    app.diagram.replaceChildren(svg);
    app.drawnWidth = W;
  };
  return startApp(app);
}
var cache_transfer_default = widgetModule(render);
export {
  cache_transfer_default as default
};
