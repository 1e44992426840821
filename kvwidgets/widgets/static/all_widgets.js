// Built by scripts/build_js.mjs from kvwidgets/widgets/js: edit those files, not this one (DEVELOP.md).

// kvwidgets/widgets/js/loader/one_module.js
var WIDGET_KEY = "kvwidget";
function widgetsByName(modules) {
  const pick = (model) => {
    const name = model.get(WIDGET_KEY);
    const module = typeof name === "string" ? modules[name] : void 0;
    if (!module) {
      const known = Object.keys(modules).join(", ");
      throw new Error(`the model's "${WIDGET_KEY}" must name one of ${known}, got ${JSON.stringify(name)}`);
    }
    return module;
  };
  return {
    /** @param {{ model: AnyModel }} ctx */
    initialize(ctx) {
      return pick(ctx.model).initialize?.(ctx);
    },
    /** @param {{ model: AnyModel, el: HTMLElement }} ctx */
    render(ctx) {
      return pick(ctx.model).render(ctx);
    }
  };
}

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
function widgetModule(render12) {
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
      return render12(ctx);
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
  const pct3 = ratio * 100;
  return `${pct3.toLocaleString("en-US", { maximumFractionDigits: pct3 >= 10 ? 0 : pct3 >= 1 ? 1 : 2 })}% of ${what}`;
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
  selectControl(app, "tp", "GPUs a side (TP)", () => axisValues(app, "tp_sizes").map((n4) => [n4, String(n4)]), ["axes"]);
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
    const n4 = (v) => Number(v).toLocaleString("en-US");
    const lines = [
      { text: tp > 1 ? `Bytes to move = one GPU's share of the cache of ${n4(context)} tokens, split ${tp} ways = ${n4(x.bytes_per_rank)} B (${n4(x.bytes_all_ranks)} B over all ${tp} GPUs, heads or latents held on several GPUs counted on each; one unsplit copy is ${n4(x.bytes_one_copy)} B).` : `Bytes to move = the cache of ${n4(context)} tokens = ${n4(x.bytes_per_rank)} B.`, cls: "kv-note" },
      { text: `Move = ${n4(x.bytes_per_rank)} B / ${x.link.gbps} GB/s = ${fmtSeconds(x.seconds)}.${tp > 1 ? " Each GPU sends its own share to its pair over its own link, all at once, so the time is one GPU's share over one link." : ""}`, cls: "kv-note" },
      { text: `Prefill (ideal floor) = 2 x ${n4(activeParams(shape, params))} active params x ${n4(context)} tokens / ${tp > 1 ? `(${n4(gpu.bf16_tflops)} TFLOPS x ${tp} GPUs)` : `${n4(gpu.bf16_tflops)} TFLOPS`} = ${fmtSeconds(x.prefill_seconds)}; it leaves attention's own work out, so a real prefill takes longer.`, cls: "kv-note" },
      { text: `One decode step (batch 1) = (weights a GPU + its cache) / ${n4(gpu.bandwidth_gbps)} GB/s = ${fmtSeconds(x.decode_step_seconds)}, a bandwidth ceiling.`, cls: "kv-note" },
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
  const textLines6 = [{ text: fitMessage(here), cls: failed || here.users > 0n ? "kv-note" : "kv-warn" }];
  if (isLog && !failed && stairs.some((st) => st.users.some((u) => u === 0n))) {
    textLines6.push({ text: "Where no conversation fits the line stops: 0 has no place on a log axis.", cls: "kv-note" });
  }
  textLines6.push(...limitLines(shape, { context: app.model.get("context"), weights: true, params: o.params }));
  app.say(textLines6);
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
function render2({ model, el }) {
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
var context_users_default = widgetModule(render2);

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
function lineParts(shape, gpu, xs, batch2, o) {
  const limit = maxContext(shape, gpu, batch2, { ...o, utilization: 0.9 });
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
function fitsText(batch2, context, fit, loads) {
  const n4 = (x) => Number(x).toLocaleString("en-US");
  if (!loads) return "the weights do not fit: the model does not load";
  const most = fit.max_batch === 0n ? "not even one fits" : `at most ${n4(fit.max_batch)} fit`;
  return fit.fits ? `batch ${n4(batch2)} at ${fmtTokens(context)} tokens fits (up to ${n4(fit.max_batch)})` : `batch ${n4(batch2)} at ${fmtTokens(context)} tokens does not fit (${most}): the ceiling assumes caches that cannot be held`;
}
function buildControls2(app) {
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
function readInputs2(app) {
  const model = app.model;
  const L = app.lookup();
  const shape = L.shape();
  const gpu = L.gpu();
  const o = { numGpus: model.get("num_gpus"), weightBits: L.weightBits(), kvBits: L.bits("kv_dtype"), params: paramsOverride(app) };
  const context = model.get("context");
  const batch2 = model.get("batch");
  const d = decodeCeiling(shape, gpu, context, batch2, o);
  const fit = decodeFits(shape, gpu, context, batch2, o);
  const load = usersThatFit(shape, gpu, context, { ...o, utilization: 0.9 });
  const xs = Array.from({ length: POINTS }, (_, i) => Math.round(2 ** (10 + i / 4)));
  const axes = model.get("axes") || {};
  const drawn = axes.lines || axisValues(app, "batches");
  const batches = drawn.includes(batch2) ? drawn : [...drawn, batch2].sort((a, b) => a - b);
  return { shape, gpu, o, context, batch: batch2, d, fit, load, loads: load.weights_fit, xs, batches };
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
function batchLines({ shape, gpu, o, xs, batch: batch2, batches }, batchColor, range) {
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
        traces.push(...batchTraces(b, part.xs, ds, { color, width: b === batch2 ? 3 : 1.5 }, "", true));
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
function crossoverLine({ shape, o, context, batch: batch2, d }, crossover) {
  const kvSeq = d.kv_bytes_per_step / batch2;
  const allW = Number(modelWeightBytes(shape, o.params, o.weightBits)) / o.numGpus;
  return { text: `KV reads pass the weights at batch ${crossover.toLocaleString("en-US")}: a step reads the weights once for the whole batch (${fmtBytes(allW)} per GPU) but every sequence's own cache (${fmtBytes(kvSeq)} each at ${fmtTokens(context)} tokens): past ${fmtBytes(allW)} / ${fmtBytes(kvSeq)} = ${(allW / kvSeq).toLocaleString("en-US", { maximumFractionDigits: 1 })} sequences the caches are most of what a step reads.`, cls: "kv-note" };
}
function sayText2(app, inp, measured) {
  const { shape, gpu, o, context, d } = inp;
  const lines = [{ text: `Ideal ceiling: each step reads the weights once for the batch plus every sequence's own cache, at ${gpu.bandwidth_gbps.toLocaleString("en-US")} GB/s per GPU. Real engines reach a fraction of it.`, cls: "kv-note" }];
  if (measured.show) lines.push({ text: `Measured points, each batch's in its line's colour and shape (the shape follows the batch's name at the right): ${measured.meas.provenance}. The weights are random, the shape is Llama-3-8B's; compare with the bf16 lines.`, cls: "kv-note" });
  if (d.crossover_batch !== null) lines.push(crossoverLine(inp, d.crossover_batch));
  lines.push(...limitLines(shape, { context, weights: true, params: o.params }));
  app.say(lines);
}
function fillReadouts2(outs, { context, batch: batch2, d, fit, loads }) {
  outs.setSplit(d.weight_bytes_per_step, d.kv_bytes_per_step);
  const num = (x, dg) => x.toLocaleString("en-US", { maximumFractionDigits: dg });
  outs.outUser.textContent = `${num(d.tokens_per_s_per_user, 1)} tok/s`;
  outs.outTotal.textContent = `${num(d.tokens_per_s_total, 0)} tok/s`;
  outs.outStep.textContent = `${num(d.step_s * 1e3, 2)} ms`;
  outs.outCross.textContent = d.crossover_batch === null ? "never" : d.crossover_batch.toLocaleString("en-US");
  outs.outFits.textContent = fitsText(batch2, context, fit, loads);
  outs.outFits.className = fit.fits ? "kv-value" : "kv-value kv-warn";
}
function describeChart2(app, { context, batch: batch2, batches }, outs, showMeasured) {
  app.describeFigure(
    `decode speed ceiling against context, per conversation and in total, for batches ${batches.join(", ")}`,
    `At batch ${batch2} and ${fmtTokens(context)} tokens each conversation decodes at most ${outs.outUser.textContent}, ${outs.outTotal.textContent} in total, one step every ${outs.outStep.textContent}; KV reads pass the weights at batch ${outs.outCross.textContent}; in memory: ${outs.outFits.textContent}.${showMeasured ? " Measured H200 points are marked with x." : ""}`
  );
}
function plotChart2(app, { shape, gpu, o, batch: batch2 }, traces, chosen, yRange, showMeasured) {
  const t = app.theme();
  const xaxis = { type: "log", range: [Math.log10(900), Math.log10(12e5)] };
  const dataKey = [shape, gpu.name, o, batch2, showMeasured];
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
function render3({ model, el }) {
  const app = createApp({ model, el }, "Decode speed ceiling");
  const outs = buildControls2(app);
  app.draw = () => {
    const inp = readInputs2(app);
    const { shape, gpu, o, xs, batch: batch2, batches } = inp;
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
    traces.push(batchEndLabels(app, batches, batch2, xEnd, (b) => decodeCeiling(shape, gpu, xEnd, b, o).tokens_per_s_per_user, batchColor, yRange, measured.batches));
    sayText2(app, inp, measured);
    fillReadouts2(outs, inp);
    if (!inp.loads) {
      app.failure(`${fitMessage(inp.load)} Nothing is decoded, so there is no speed to draw: more GPUs, a smaller number format for the weights or a bigger GPU would load it.`);
      return;
    }
    if (app.root.classList.contains("kv-failed")) app.root.classList.remove("kv-failed");
    describeChart2(app, inp, outs, Boolean(measured.show));
    plotChart2(app, inp, traces, chosen, yRange, measured.show);
  };
  return startApp(app);
}
var decode_speed_default = widgetModule(render3);

// kvwidgets/widgets/js/widgets/decode_step.js
var MIN_CELL = 3;
var HORIZON = 32;
var MAX_TOKENS = 2 ** 20;
var TICK_MS = 50;
var n = (x) => Number(x).toLocaleString("en-US");
function kindName(kind) {
  return KIND_NAMES[kind] || `${kind} layer`;
}
function article(name) {
  return /^(?:[aeiou]|MLA)/i.test(name) ? "an" : "a";
}
function stripsOf(g) {
  if (g.kv_heads !== void 0) {
    return [{ name: "K", numbers: g.kv_heads * g.head_k }, { name: "V", numbers: g.kv_heads * g.head_v }];
  }
  if (g.latent !== void 0) return [{ name: "c", numbers: g.latent }];
  return [];
}
function attentionKindHeld(shape, want) {
  const keyed = shape.groups.filter((g) => stripsOf(g).length > 0);
  const windowed2 = keyed.some((g) => Number(g.cap) > 0);
  const full = keyed.some((g) => !(Number(g.cap) > 0));
  if (want === "windowed" && !windowed2 && full) return "full";
  if (want === "full" && !full && windowed2) return "windowed";
  return want;
}
function rowLabel(g) {
  if (g.kv_heads !== void 0) {
    const heads = `${g.kv_heads} KV head${g.kv_heads === 1 ? "" : "s"}`;
    return g.head_k === g.head_v ? `K and V rows: ${heads} x ${g.head_k}` : `K: ${heads} x ${g.head_k}, V: x ${g.head_v}`;
  }
  if (g.latent !== void 0) return `one latent row of ${g.latent} numbers`;
  if (g.ratio !== void 0) {
    return g.ratio === 1 ? `packed latents of the last ${g.window} tokens` : `packed latents: the last ${g.window} tokens, then 1 per ${g.ratio}`;
  }
  if (Number(g.fixed_bytes || 0) > 0) return "no rows per token";
  return "";
}
function stripHeight(numbers, s) {
  return Math.max(11, Math.min(36, 28 * numbers / 2048)) * s;
}
function tokenSpan(prompt, tokens) {
  let horizon = Math.max(HORIZON, 2 ** Math.ceil(Math.log2(prompt)) / 4);
  while (prompt + horizon < tokens) horizon *= 2;
  return prompt + horizon;
}
function jitter(i) {
  const x = Math.sin((i + 1) * 12.9898) * 43758.5453;
  return x - Math.floor(x);
}
function illustrativeWeights(first, T, per) {
  const keys = T - first;
  const stride = Math.max(1, Math.ceil(keys / 65536));
  const bins = new Float64Array(Math.ceil(keys / per));
  let sum = 0;
  let max = 0;
  for (let i = first; i < T; i += stride) {
    const score = (i === 0 ? 1.8 : 0) + 2.4 * Math.exp(-(T - 1 - i) / 6) + 2.6 * jitter(i) ** 8;
    const e = Math.exp(score) * stride;
    sum += e;
    const b = Math.floor((i - first) / per);
    if (e > bins[b]) bins[b] = e;
  }
  for (let b = 0; b < bins.length; b++) {
    bins[b] /= sum;
    if (bins[b] > max) max = bins[b];
  }
  return { bins, max };
}
function textWidth(text, size) {
  return text.length * size * 0.56;
}
function groupLine(g, step, bits, T) {
  const name = kindName(g.kind);
  const layers = `${n(g.count)} layer${g.count === 1 ? "" : "s"}`;
  if (g.kv_heads === void 0 && g.latent === void 0) {
    const fixed2 = Number(g.fixed_bytes || 0);
    return fixed2 ? `${name} x ${layers}: a fixed state of ${fmtBytes(fixed2)} each, whatever the length; ${fmtBytes(step.bytes)} in all` : `${name} x ${layers}: nothing stored per token`;
  }
  const held = step.cap === null ? `every one of the ${n(T)} tokens` : `${n(step.held_tokens)} of ${n(T)} tokens (window ${n(step.cap)})`;
  const dropped = step.dropped_tokens ? `, ${n(step.dropped_tokens)} dropped` : "";
  return `${name} x ${layers}: each holds ${held}${dropped}; ${fmtBytes(step.bytes)} in all (${fmtBytes(groupBytesPerToken(g, bits))} per token)`;
}
function buildControls3(app, model) {
  modelSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  intBox(app, "prompt_tokens", "Prompt (tokens)", { min: 1, max: MAX_TOKENS });
  selectControl(app, "speed", "Speed", () => axisValues(app, "speeds").map((v) => [v, `${v} steps/s`]), ["axes"]);
  const play = element("button", { type: "button", class: "kv-play", "data-kv": "play", "aria-pressed": "false", text: "Play" });
  const stepBtn = element("button", { type: "button", class: "kv-step", "data-kv": "step", text: "Step" });
  app.controls.append(play, stepBtn);
  selectControl(app, "attention_layer", "Attention in", () => [["windowed", "a windowed layer"], ["full", "a full layer"]]);
  app.on("change:model", () => {
    const want = String(model.get("attention_layer"));
    let shape;
    try {
      shape = app.lookup().shape();
    } catch {
      return;
    }
    const held = attentionKindHeld(shape, want);
    if (held !== want) app.set("attention_layer", held);
  });
  const reset = resetButton(app);
  const outs = {
    tokens: app.readout("tokens", "Tokens so far:"),
    stored: app.readout("stored_bytes", "Stored:"),
    read: app.readout("read_bytes", "Read by this step:"),
    written: app.readout("written_bytes", "Written by this step:"),
    scored: app.readout("scored", "Keys the query scores:")
  };
  diagramBox(app);
  return { play, stepBtn, reset, outs };
}
function wirePlayback(app, model, { play, stepBtn, reset }) {
  let timer = null;
  const advance = (by) => {
    const g = checkInt("generated", model.get("generated"), 0);
    const p = checkInt("prompt_tokens", model.get("prompt_tokens"), 1);
    const next = Math.min(g + by, MAX_TOKENS - p);
    if (next <= g) {
      pause();
      app.fail(`the conversation has reached ${fmtTokens(MAX_TOKENS)} tokens, as far as this widget plays`);
      return;
    }
    app.set("generated", next);
  };
  const pause = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    app.readouts.removeAttribute("aria-busy");
    app.root.dataset.playing = "false";
  };
  const start = () => {
    pause();
    const speed = Number(model.get("speed")) || 1;
    const period = Math.max(TICK_MS, 1e3 / speed);
    const per = Math.max(1, Math.round(speed * period / 1e3));
    timer = setInterval(() => {
      try {
        advance(per);
      } catch (e) {
        pause();
        app.fail(
          /** @type {Error} */
          e.message || String(e)
        );
      }
    }, period);
    play.setAttribute("aria-pressed", "true");
    app.readouts.setAttribute("aria-busy", "true");
    app.root.dataset.playing = "true";
  };
  play.addEventListener("click", () => timer === null ? start() : pause());
  stepBtn.addEventListener("click", () => {
    pause();
    advance(1);
  });
  reset.addEventListener("click", pause);
  app.on("change:speed", () => {
    if (timer !== null) start();
  });
  app.root.dataset.playing = "false";
  return pause;
}
function layout(app, P, G, T, decoding) {
  const t = app.theme();
  const s = app.scale();
  const W = diagramWidth(app);
  const fs = 12 * s;
  const small = fs * 0.85;
  const stacked = W < 700 * s;
  const labelW = stacked ? 0 : 190 * s;
  const gutter = 22 * s;
  const qW = 64 * s;
  const x0 = labelW + gutter;
  const x1 = W - qW;
  const stripW = Math.max(40, x1 - x0);
  const span = tokenSpan(P, T);
  const cellW = stripW / span;
  const xOf = (i) => x0 + i * cellW;
  const xT = xOf(T);
  const accent = accentColor(app);
  const cQuery = conceptColor("query");
  const text = (x, yy, str, extra = {}) => svgElement("text", { x, y: yy, "font-size": small, fill: t.fg2, ...extra, text: str });
  return { t, s, W, fs, small, stacked, qW, x0, x1, stripW, span, cellW, xOf, xT, accent, cQuery, P, G, T, decoding, text };
}
function drawRows(f, g, first, y, h, color) {
  const { t, s, cellW, xOf, xT, P, T, decoding } = f;
  const promptEnd = Math.max(first, Math.min(P, T));
  if (promptEnd > first) {
    g.append(svgElement("rect", {
      class: "kv-dst-row kv-dst-prompt",
      "data-cell-width": cellW,
      x: xOf(first),
      y,
      width: xOf(promptEnd) - xOf(first),
      height: h,
      fill: color
    }));
  }
  const last = decoding ? T - 1 : T;
  if (last > promptEnd) {
    const attrs = { class: "kv-dst-row kv-dst-generated", "data-cell-width": cellW, fill: color };
    const generated = cellW >= MIN_CELL ? svgElement("path", {
      ...attrs,
      d: boxesPath(Array.from({ length: last - promptEnd }, (_, k) => [xOf(promptEnd + k), y, cellW, h])),
      stroke: t.bg,
      "stroke-width": 1
    }) : svgElement("rect", { ...attrs, x: xOf(promptEnd), y, width: xOf(last) - xOf(promptEnd), height: h });
    g.append(generated);
  }
  if (decoding) {
    const w = cellW >= MIN_CELL ? cellW : Math.max(3 * s, cellW);
    g.append(svgElement("rect", {
      class: "kv-dst-new",
      x: xT - w,
      y,
      width: w,
      height: h,
      fill: color,
      stroke: cellW >= MIN_CELL ? t.bg : "none",
      "stroke-width": 1
    }));
    g.append(svgElement("rect", { x: xT - Math.max(3 * s, cellW), y, width: Math.max(3 * s, cellW), height: h, fill: "none", stroke: t.fg, "stroke-width": 1.5 * s }));
  }
  if (T > P && P > first) {
    g.append(svgElement("line", { class: "kv-dst-prompt-end", x1: xOf(P), x2: xOf(P), y1: y - 2 * s, y2: y + h + 2 * s, stroke: t.fg2, "stroke-width": 1.5 * s }));
  }
}
function drawHeader(f) {
  const { t, s, fs, small, qW, x0, x1, W, span, xOf, xT, accent, P, G, T, decoding, text } = f;
  const header = svgElement("g", { class: "kv-dst-header", "data-span": span });
  const axisY = fs;
  const barY = axisY + 6 * s;
  const firstLabel = "token 1";
  const newLabel = `token ${n(T)}${decoding ? " (new)" : ""}`;
  const gap = 10 * s;
  const newX = Math.min(W - qW, Math.max(xT, x0 + textWidth(firstLabel, small) + gap + textWidth(newLabel, small)));
  header.append(text(x0, axisY, firstLabel), text(newX, axisY, newLabel, { "text-anchor": "end", fill: t.fg }));
  const endLabel = n(span);
  if (x1 - textWidth(endLabel, small) > newX + gap) header.append(text(x1, axisY, endLabel, { "text-anchor": "end" }));
  header.append(
    svgElement("line", { x1: x0, x2: xOf(P), y1: barY, y2: barY, stroke: t.fg2, "stroke-width": 3 * s }),
    svgElement("line", { x1: xT, x2: x1, y1: barY, y2: barY, stroke: t.fg2, "stroke-width": 1, "stroke-dasharray": `${2 * s} ${3 * s}` }),
    text(x0, barY + fs * 1.2, `prompt: ${n(P)} tokens (prefill)${G > 0 ? `, then ${n(G)} generated` : ""}`, { fill: t.fg }),
    text(x1 + 8 * s, axisY, "query")
  );
  if (G > 0) header.append(svgElement("line", { x1: xOf(P), x2: xT, y1: barY, y2: barY, stroke: accent, "stroke-width": 3 * s }));
  return { header, y: barY + fs * 2 };
}
function drawStrips(f, row, g, gs, y) {
  const { t, s, small, x0, x1, stripW, xOf, xT, accent, cQuery, T, decoding, text } = f;
  const color = conceptColor(g.kind);
  const stripsTop = y;
  const first = T - gs.held_tokens;
  for (const strip of stripsOf(g)) {
    const h = stripHeight(strip.numbers, s);
    row.append(
      svgElement("rect", { x: x0, y, width: stripW, height: h, fill: "none", stroke: t.grid, "stroke-width": 1 }),
      text(x0 - 6 * s, y + h / 2 + small * 0.35, strip.name, { "text-anchor": "end", "font-weight": 600, class: "kv-dst-strip-label" })
    );
    if (first > 0) {
      row.append(svgElement("rect", {
        class: "kv-dst-dropped",
        x: x0,
        y,
        width: Math.max(1, xOf(first) - x0),
        height: h,
        fill: "none",
        stroke: t.fg2,
        "stroke-dasharray": `${3 * s} ${3 * s}`,
        "stroke-width": 1
      }));
    }
    drawRows(f, row, first, y, h, color);
    y += h + 3 * s;
  }
  const rowH = y - stripsTop - 3 * s;
  if (decoding) {
    row.append(svgElement("rect", {
      class: "kv-dst-read",
      x: xOf(first) - 2,
      y: stripsTop - 2,
      width: xT - xOf(first) + 4,
      height: rowH + 4,
      fill: "none",
      stroke: accent,
      "stroke-width": 1.5 * s,
      rx: 2
    }));
  }
  row.append(svgElement("rect", {
    class: "kv-dst-query",
    x: x1 + 8 * s,
    y: stripsTop,
    width: 22 * s,
    height: Math.max(8 * s, rowH),
    fill: "none",
    stroke: cQuery,
    "stroke-dasharray": `${3 * s} ${2 * s}`,
    "stroke-width": 1.5 * s
  }));
  row.append(text(x1 + 34 * s, stripsTop + Math.max(8 * s, rowH) / 2 + small * 0.35, "q"));
  if (first > 0 && xOf(first) - x0 > textWidth("dropped", small) + 12 * s) {
    row.append(text((x0 + xOf(first)) / 2, stripsTop + rowH / 2 + small * 0.35, "dropped", {
      "text-anchor": "middle",
      stroke: t.bg,
      "stroke-width": 3 * s,
      "paint-order": "stroke",
      "stroke-linejoin": "round"
    }));
  }
  return y;
}
function drawLayer(f, g, gs, li, y) {
  const { t, s, fs, small, stacked, x0, stripW, accent, decoding, text } = f;
  const strips = stripsOf(g);
  const row = svgElement("g", { class: "kv-dst-layer", "data-kind": g.kind, "data-held": gs.held_tokens, "data-dropped": gs.dropped_tokens });
  const rowTop = y;
  row.append(
    svgElement("text", { x: 0, y: y + fs, "font-size": fs, fill: t.fg, "font-weight": 600, text: `${kindName(g.kind)} ${li + 1} of ${n(g.count)}` }),
    text(0, y + 2.15 * fs, rowLabel(g))
  );
  const labelH = 2.5 * fs;
  if (stacked) y += labelH;
  if (strips.length) {
    const stripsH = strips.reduce((a, st2) => a + stripHeight(st2.numbers, s) + 3 * s, 0);
    if (!stacked) y += Math.max(0, (labelH - stripsH) / 2);
    y = drawStrips(f, row, g, gs, y);
    if (!stacked) y = Math.max(y, rowTop + labelH);
  } else if (Number(g.fixed_bytes || 0) > 0) {
    const h = 22 * s;
    const boxW = Math.min(stripW, 90 * s);
    row.append(svgElement("rect", {
      class: "kv-dst-state",
      x: x0,
      y,
      width: boxW,
      height: h,
      fill: conceptColor(g.kind),
      stroke: decoding ? accent : "none",
      "stroke-width": 1.5 * s
    }));
    row.append(text(
      x0 + boxW + 8 * s,
      y + h / 2 + small * 0.35,
      `fixed state, ${fmtBytes(Number(g.fixed_bytes))}: ${decoding ? "read and rewritten" : "written"} every step, never grows`
    ));
    y += (stacked ? h : Math.max(h, labelH)) + 3 * s;
  } else {
    row.append(text(x0, y + fs, "stores nothing per token"));
    y += stacked ? fs * 1.4 : labelH;
  }
  return { row, y };
}
function drawCache(f, shape, st, perGroup, parts, y) {
  const { s, fs, text } = f;
  shape.groups.forEach((g, gi) => {
    const gs = st.groups[gi];
    const drawn = Math.min(g.count, perGroup);
    for (let li = 0; li < drawn; li++) {
      const layer = drawLayer(f, g, gs, li, y);
      parts.push(layer.row);
      y = layer.y + 8 * s;
    }
    if (g.count > drawn) {
      parts.push(text(0, y + fs * 0.2, `+ ${n(g.count - drawn)} more ${kindName(g.kind)} layers like these (counted in every total)`, { class: "kv-dst-more" }));
      y += fs * 1.4;
    }
    y += 6 * s;
  });
  return y;
}
function pickAttentionLayer(shape, st, want) {
  const keyed = shape.groups.map((g, gi) => ({ g, gs: st.groups[gi] })).filter(({ g }) => stripsOf(g).length > 0);
  const isWindowed = ({ g }) => Number(g.cap) > 0;
  const windowed2 = keyed.filter(isWindowed);
  const full = keyed.filter((k) => !isWindowed(k));
  const pick = want === "windowed" ? windowed2[0] || full[0] : full[0] || windowed2[0];
  const missing = want === "windowed" && !windowed2.length ? `${shape.name} has no windowed layer: a full one is shown` : want === "full" && !full.length ? `every layer of ${shape.name} has a window: a windowed one is shown` : "";
  return { pick, missing };
}
function drawScoring(f, p, y) {
  const { t, s, small, W, x0, stripW, xOf, xT, cQuery, T, text } = f;
  const { el, first, held, qX, qBox } = p;
  const latent = stripsOf(p.g).length === 1;
  const kStrip = stripsOf(p.g)[0];
  const scoreText = held < T ? `q · k for each of the ${n(held)} keys in the window; the ${n(T - held)} older ones are not scored` : `q · k for every one of the ${n(held)} keys held`;
  el.append(text(W, y + small, scoreText, { "text-anchor": "end" }));
  y += small * 1.5;
  el.append(svgElement("path", {
    class: "kv-dst-scoring",
    fill: "none",
    stroke: cQuery,
    "stroke-width": 1.5 * s,
    d: `M ${xOf(first)} ${y + 6 * s} V ${y} H ${qX + qBox / 2} V ${y + 6 * s} M ${xT} ${y} V ${y + 6 * s}`
  }));
  y += 8 * s;
  y = p.stackedLabel(latent ? "latent c, as the keys" : "the keys held (K)", y);
  const hK = stripHeight(kStrip.numbers, s);
  p.rowLabels(y - small * 0.3, latent ? "latent c, as the keys" : "the keys held (K)");
  el.append(
    svgElement("rect", { x: x0, y, width: stripW, height: hK, fill: "none", stroke: t.grid, "stroke-width": 1 }),
    text(x0 - 6 * s, y + hK / 2 + small * 0.35, kStrip.name, { "text-anchor": "end", "font-weight": 600 })
  );
  if (first > 0) {
    el.append(svgElement("rect", { x: x0, y, width: Math.max(1, xOf(first) - x0), height: hK, fill: "none", stroke: t.fg2, "stroke-dasharray": `${3 * s} ${3 * s}`, "stroke-width": 1 }));
  }
  drawRows(f, el, first, y, hK, p.color);
  el.append(
    svgElement("rect", { class: "kv-dst-q", x: qX, y, width: qBox, height: hK, fill: cQuery }),
    text(qX + qBox + 4 * s, y + hK / 2 + small * 0.35, "q")
  );
  y += hK + 6 * s;
  return y;
}
function drawWeights(f, p, { bins, max, per }, y) {
  const { t, s, small, x0, x1, cellW, xOf, cQuery, T, text } = f;
  const { first } = p;
  const barH = 34 * s;
  y = p.stackedLabel("weights: softmax of the scores", y);
  p.rowLabels(y + barH / 2 - small, "weights", "softmax of the scores");
  const base = y + barH;
  let d = "";
  for (let b = 0; b < bins.length; b++) {
    const h = Math.max(0.5, bins[b] / max * barH);
    const bx = xOf(first + b * per);
    const bw = Math.max(0.5, Math.min(per, T - first - b * per) * cellW - (cellW * per >= 3 ? 1 : 0));
    d += `M ${bx} ${base} v ${-h} h ${bw} v ${h} z `;
  }
  p.el.append(
    svgElement("line", { x1: x0, x2: x1, y1: base, y2: base, stroke: t.grid, "stroke-width": 1 }),
    svgElement("path", { class: "kv-dst-weights", d, fill: cQuery, "data-bins": bins.length })
  );
  if (first > 0 && xOf(first) - x0 > textWidth("not scored", small) + 12 * s) {
    p.el.append(text((x0 + xOf(first)) / 2, base - small * 0.4, "not scored", { "text-anchor": "middle" }));
  }
  return base + 6 * s;
}
function drawValues(f, p, { bins, max, per }, y) {
  const { t, s, small, x0, stripW, cellW, xOf, xT, T, text } = f;
  const { first, color } = p;
  const strips = stripsOf(p.g);
  const vStrip = strips[strips.length - 1];
  const latent = strips.length === 1;
  const hV = stripHeight(vStrip.numbers, s);
  y = p.stackedLabel(latent ? "latent c, as the values, x weights" : "the values (V) x weights", y);
  p.rowLabels(y - small * 0.3, latent ? "latent c, as the values," : "the values (V)", "each times its weight");
  p.el.append(
    svgElement("rect", { x: x0, y, width: stripW, height: hV, fill: "none", stroke: t.grid, "stroke-width": 1 }),
    text(x0 - 6 * s, y + hV / 2 + small * 0.35, vStrip.name, { "text-anchor": "end", "font-weight": 600 })
  );
  const weighted = svgElement("g", { class: "kv-dst-weighted" });
  const byLevel = Array.from({ length: 16 }, () => []);
  for (let b = 0; b < bins.length; b++) {
    const bw = Math.min(per, T - first - b * per) * cellW;
    byLevel[Math.round(15 * Math.sqrt(bins[b] / max))].push([xOf(first + b * per), y, bw, hV]);
  }
  byLevel.forEach((boxes, level) => {
    if (boxes.length) weighted.append(svgElement("path", { d: boxesPath(boxes), fill: color, "fill-opacity": (0.12 + 0.88 * level / 15).toFixed(3) }));
  });
  p.el.append(weighted, svgElement("rect", { x: xOf(first), y, width: xT - xOf(first), height: hV, fill: "none", stroke: color, "stroke-width": 1 }));
  return { hV, vBottom: y + hV };
}
function drawSum(f, p, hV, vBottom) {
  const { t, s, small, W, xOf, xT, text } = f;
  const { qX, qBox, color } = p;
  let y = vBottom + 22 * s;
  y = p.stackedLabel("their sum: one row, the output", y);
  p.rowLabels(y - small * 0.3, "their sum: one row,", "this layer's output");
  const outY = y;
  p.el.append(
    svgElement("path", {
      class: "kv-dst-sum",
      d: `M ${xOf(p.first)} ${vBottom} L ${xT} ${vBottom} L ${qX + qBox} ${outY} L ${qX} ${outY + hV} Z`,
      fill: color,
      "fill-opacity": 0.18,
      stroke: "none"
    }),
    svgElement("rect", { class: "kv-dst-out", x: qX, y: outY, width: qBox, height: hV, fill: color, stroke: t.fg, "stroke-width": 1 }),
    svgElement("path", {
      class: "kv-dst-next",
      d: `M ${qX + qBox + 2 * s} ${outY + hV / 2} H ${W - 3 * s} m ${-5 * s} ${-4 * s} l ${5 * s} ${4 * s} l ${-5 * s} ${4 * s}`,
      fill: "none",
      stroke: t.fg,
      "stroke-width": 1.5 * s
    }),
    text(W, outY + hV + small * 1.3, "layer n+1", { "text-anchor": "end", fill: t.fg })
  );
  return outY + hV + small * 1.8;
}
function drawAttention(f, { g, gs }, missing, y) {
  const { t, s, fs, small, stacked, x1, cellW, T, text } = f;
  const el = svgElement("g", { class: "kv-dst-attention", "data-kind": g.kind, "data-scored": gs.held_tokens });
  y += 4 * s;
  el.append(svgElement("text", {
    x: 0,
    y: y + fs,
    "font-size": fs,
    fill: t.fg,
    "font-weight": 600,
    text: `Attention in ${kindName(g.kind)} 1, for token ${n(T)}`
  }));
  y += fs * 1.5;
  if (missing) {
    el.append(text(0, y + small, missing, { fill: t.fg, class: "kv-dst-instead" }));
    y += small * 1.4;
  }
  el.append(text(0, y + small, "weights illustrative: a made-up pattern, not the model's"));
  y += small * 1.6;
  const p = {
    el,
    g,
    color: conceptColor(g.kind),
    first: T - gs.held_tokens,
    held: gs.held_tokens,
    qX: x1 + 8 * s,
    qBox: 22 * s,
    rowLabels: (yy, a, b = void 0) => {
      if (stacked) return;
      el.append(text(0, yy + small, a, { fill: t.fg }));
      if (b) el.append(text(0, yy + small * 2.2, b));
    },
    stackedLabel: (a, yy) => {
      if (!stacked) return yy;
      el.append(text(0, yy + small, a, { fill: t.fg }));
      return yy + small * 1.4;
    }
  };
  y = drawScoring(f, p, y);
  const per = Math.max(1, Math.ceil(2 * s / cellW));
  const w = { ...illustrativeWeights(p.first, T, per), per };
  y = drawWeights(f, p, w, y);
  const { hV, vBottom } = drawValues(f, p, w, y);
  return { panel: el, y: drawSum(f, p, hV, vBottom) };
}
function drawLegend(f, groups, y) {
  const { t, s, small, W, accent, cQuery, text } = f;
  let legendY = y + 8 * s;
  const legend = svgElement("g", { class: "kv-dst-legend" });
  let lx = 0;
  const item = (mark, str) => {
    const w = 18 * s + textWidth(str, small);
    if (lx > 0 && lx + w > W) {
      lx = 0;
      legendY += 20 * s;
    }
    legend.append(mark(lx), text(lx + 18 * s, legendY + 10 * s, str));
    lx += w + 16 * s;
  };
  const sw = 12 * s;
  for (const kind of new Set(groups.map((g) => g.kind))) {
    item((x) => svgElement("rect", { class: "kv-dst-kind", "data-kind": kind, x, y: legendY, width: sw, height: sw, fill: conceptColor(kind) }), `${kindName(kind)} layer`);
  }
  item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: t.fg2, "stroke-width": 1 }), "prompt rows: one block (prefill)");
  item(
    (x) => svgElement("path", { d: boxesPath([0, 1, 2].map((k) => [x + k * sw / 3, legendY, sw / 3, sw])), fill: "none", stroke: t.fg2, "stroke-width": 1 }),
    "generated: a row per step"
  );
  item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: accent, "stroke-width": 1.5 * s }), "read by this step");
  item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: t.fg2, "stroke-dasharray": `${3 * s} ${2 * s}` }), "dropped rows");
  item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: cQuery }), "query and weights (used once, not kept)");
  return { legend, H: legendY + 22 * s };
}
function textLines(f, shape, st, bits) {
  const { P, T, span, decoding } = f;
  const lines = shape.groups.map((g, gi) => ({ text: groupLine(g, st.groups[gi], bits, T) }));
  const hasLatent = shape.groups.some((g) => g.latent !== void 0);
  lines.push({ text: decoding ? `This step: every layer computes the new token's query, key and value${hasLatent ? " (MLA: one latent in place of the key and value)" : ""}; the new rows are kept, the query is scored against every row held, then dropped.` : `Prefill: the keys and values of all ${n(P)} prompt tokens are computed and stored at once. Play or Step to decode.`, cls: "kv-note" });
  lines.push({ text: `The token axis runs to token ${n(span)}: the prompt and room for ${n(span - P)} decode steps, doubled whenever the conversation passes it.`, cls: "kv-note" });
  lines.push({ text: "Attention (under the cache): the new token's query is scored against each key the layer holds (a sliding layer: only the keys in its window), the softmax turns the scores into weights that sum to 1, and the weighted sum of the values is one row, the layer's output, which the next layer takes as its input. The weights drawn are a fixed made-up pattern: the widget knows the cache's sizes, not the model's numbers.", cls: "kv-note" });
  if (shape.max_context && T > shape.max_context) {
    lines.push({ text: `${n(T)} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${n(shape.max_context)}).`, cls: "kv-warn" });
  }
  return lines;
}
function readInputs3(model) {
  const P = checkInt("prompt_tokens", model.get("prompt_tokens"), 1);
  const G = checkInt("generated", model.get("generated"), 0);
  if (P > MAX_TOKENS) throw new KVInputError(`prompt_tokens must be at most ${MAX_TOKENS.toLocaleString("en-US")}, got ${P.toLocaleString("en-US")}`);
  const want = String(model.get("attention_layer"));
  if (want !== "windowed" && want !== "full") throw new KVInputError(`attention_layer must be 'windowed' or 'full', got '${want}'`);
  return { P, G, want };
}
function render4({ model, el }) {
  const app = createApp({ model, el }, "One decode step at a time: the cache of one conversation");
  const { play, stepBtn, reset, outs } = buildControls3(app, model);
  const pause = wirePlayback(app, model, { play, stepBtn, reset });
  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const { P, G, want } = readInputs3(model);
    const st = decodeStepBytes(shape, P, G, bits);
    const T = st.tokens;
    const decoding = st.phase === "decode";
    const perGroup = Number(axisValues(app, "layers_per_group")[0]) || 2;
    const f = layout(app, P, G, T, decoding);
    const { header, y: cacheY } = drawHeader(f);
    const parts = [header];
    let y = drawCache(f, shape, st, perGroup, parts, cacheY);
    const { pick, missing } = pickAttentionLayer(shape, st, want);
    if (pick) {
      const attention = drawAttention(f, pick, missing, y);
      parts.push(attention.panel);
      y = attention.y;
    }
    const { legend, H } = drawLegend(f, shape.groups, y);
    const W = f.W;
    const svg = svgElement("svg", {
      width: W,
      height: H,
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "font-family": f.t.font,
      // the point in words: each kind of layer's rows held and dropped
      "aria-label": `${shape.name}, ${decoding ? `decode step ${n(G)}` : "after the prefill"}: ${n(T)} tokens, ${fmtBytes(st.stored_bytes)} stored. ${shape.groups.map((g, gi) => groupLine(g, st.groups[gi], bits, T)).join(". ")}.`
    }, [...parts, legend]);
    const lines = textLines(f, shape, st, bits);
    app.say(lines);
    outs.tokens.textContent = `${n(T)} (${n(P)} prompt + ${n(G)} generated)`;
    outs.stored.textContent = fmtBytes(st.stored_bytes);
    outs.read.textContent = decoding ? fmtBytes(st.read_bytes) : "none yet (prefill)";
    outs.written.textContent = fmtBytes(st.written_bytes);
    outs.scored.textContent = pick ? `${n(pick.gs.held_tokens)} of ${n(T)} in ${article(kindName(pick.g.kind))} ${kindName(pick.g.kind)} layer` : "none: no layer keeps keys";
    app.diagram.replaceChildren(svg);
    app.drawnWidth = W;
  };
  const stop = startApp(app);
  return () => {
    pause();
    stop();
  };
}
var decode_step_default = widgetModule(render4);

// kvwidgets/widgets/js/widgets/deployment_ranks.js
var COUNTABLE = 48;
var LAYOUT_TRAITS = ["tp", "pp", "dp", "ep"];
function layoutKey(tp, pp, dp, ep) {
  return `tp${tp}-pp${pp}-dp${dp}-ep${ep ? 1 : 0}`;
}
function layoutName(entry) {
  const n4 = entry.tp * entry.pp * entry.dp;
  if (n4 === 1) return "1 GPU";
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
  const n4 = model.get("tp") * model.get("pp") * model.get("dp");
  const differ = ["model", "gpu", "kv_dtype", "weight_dtype", "utilization"].filter((f) => made[f] !== model.get(f));
  if (made.num_gpus !== n4) differ.push("number of GPUs");
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
    const n4 = app.model.get("tp") * app.model.get("pp") * app.model.get("dp");
    const counts = [.../* @__PURE__ */ new Set([...axisValues(app, "gpu_counts"), n4])].sort((a, b) => a - b);
    sel.replaceChildren(...counts.map((c) => element("option", { value: String(c), text: String(c) })));
    sel.value = String(n4);
  };
  sel.addEventListener("change", () => {
    const n4 = Number(sel.value);
    const m = app.model;
    if (m.get("pp") > 1 && m.get("tp") === 1 && m.get("dp") === 1) setMany(app, { tp: 1, pp: n4, dp: 1, ep: false });
    else if (m.get("dp") > 1 && m.get("tp") === 1 && m.get("pp") === 1) setMany(app, { tp: 1, pp: 1, dp: n4, ep: n4 > 1 && m.get("ep") });
    else setMany(app, { tp: n4, pp: 1, dp: 1, ep: false });
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
        const n4 = Math.min(group, held - k);
        g.push(svgElement("rect", {
          class: "kv-rk-conv",
          x: x(at),
          y,
          width: x(at + perConv * n4) - x(at),
          height: barH,
          fill: paint.fill("kv"),
          stroke: t.bg,
          "stroke-width": 1,
          "data-conversations": n4
        }));
        at += perConv * n4;
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
function render5({ model, el }) {
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
var deployment_ranks_default = widgetModule(render5);

// kvwidgets/widgets/js/widgets/designs.js
function headSharing(app, L, labels, perToken, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 11.5 * s;
  const designs = labels.slice(0, 4).map((label, i) => ({ label, shape: L.shape(label), bpt: perToken[i] }));
  const cols = W >= 760 * s ? 4 : 2;
  const gap = 14 * s;
  const pw = (W - gap * (cols - 1)) / cols;
  const ph = 136 * s;
  const parts = [];
  designs.forEach((d, i) => {
    const x = i % cols * (pw + gap);
    const y = Math.floor(i / cols) * (ph + 8 * s);
    const g0 = d.shape.groups[0];
    const q = d.shape.query_heads || 0;
    const latent = g0.latent !== void 0;
    const kv = latent ? 1 : g0.kv_heads ?? 0;
    const panel = svgElement("g", { class: "kv-heads-panel", "data-design": d.label.split(" ")[0], "data-query-heads": q, "data-kv-heads": latent ? 0 : kv });
    const title = latent ? `${d.label}: one latent per token` : `${d.label}: ${kv} KV head${kv === 1 ? "" : "s"}`;
    panel.append(svgElement("text", { x, y: y + fs, "font-size": fs, "font-weight": 600, fill: t.fg, text: title }));
    const qy = y + fs * 2.1;
    const ky = y + ph - fs * 4.3;
    const step = pw / Math.max(1, q);
    const r = Math.max(1.2, Math.min(4 * s, step * 0.35));
    const kvColor = conceptColor(latent ? "latent" : "kv");
    const boxes = [];
    if (latent) {
      boxes.push([x + pw * 0.15, pw * 0.7]);
    } else {
      const kstep = pw / kv;
      for (let k = 0; k < kv; k++) boxes.push([x + k * kstep + kstep * 0.15, Math.max(2, kstep * 0.7)]);
    }
    for (let h = 0; h < q; h++) {
      const cx = x + step * (h + 0.5);
      const [bx, bw] = latent ? boxes[0] : boxes[Math.floor(h / (q / kv))];
      const tx = latent ? bx + bw * ((h + 0.5) / q) : bx + bw / 2;
      panel.append(svgElement("line", { x1: cx, y1: qy + r, x2: tx, y2: ky, stroke: t.fg2, "stroke-width": 0.8 * s, "stroke-opacity": 0.7 }));
    }
    for (let h = 0; h < q; h++) {
      panel.append(svgElement("circle", { class: "kv-heads-query", cx: x + step * (h + 0.5), cy: qy, r, fill: t.fg }));
    }
    for (const [bx, bw] of boxes) {
      panel.append(svgElement("rect", { class: "kv-heads-kv", x: bx, y: ky, width: bw, height: 10 * s, fill: kvColor, rx: 1.5 }));
    }
    const n4 = (v) => Number(v).toLocaleString("en-US");
    const numbers = latent ? `${n4(g0.latent)} numbers/layer` : `2 x ${kv} x ${g0.head_k} = ${n4(2 * kv * g0.head_k)} numbers/layer`;
    const sharing = !q ? "" : latent ? `all ${q} heads read it; nothing rebuilt` : kv === q ? "one per query head" : kv === 1 ? `all ${q} query heads share it` : `${q / kv} query heads per KV head`;
    panel.append(
      svgElement("text", { x, y: ky + 10 * s + fs * 1.1, "font-size": fs * 0.9, fill: t.fg2, text: sharing }),
      svgElement("text", { x, y: ky + 10 * s + fs * 2.2, "font-size": fs * 0.9, fill: t.fg, text: numbers }),
      svgElement("text", {
        x,
        y: ky + 10 * s + fs * 3.3,
        "font-size": fs * 0.9,
        fill: t.fg,
        "font-weight": 600,
        text: `${fmtBytes(d.bpt)} per token (${g0.count} layers)`
      })
    );
    parts.push(panel);
  });
  const rows = Math.ceil(designs.length / cols);
  const H = rows * ph + (rows - 1) * 8 * s + 4 * s;
  return svgElement("svg", {
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "font-family": t.font,
    "aria-label": "query heads and the KV heads they read, for MHA, GQA, MQA and MLA"
  }, parts);
}
function pastTrainedLength(real, long) {
  const n4 = (x) => Number(x).toLocaleString("en-US");
  const byMax = /* @__PURE__ */ new Map();
  for (const [name, s] of real) {
    if (s.max_context && long > s.max_context) byMax.set(s.max_context, [...byMax.get(s.max_context) || [], name]);
  }
  if (!byMax.size) return [];
  const and = (xs) => xs.length < 2 ? xs[0] : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
  const count = [...byMax.values()].flat().length;
  const clauses = [...byMax].map(([max, names]) => `${and(names)} ${names.length === 1 ? "was" : "were"} trained for ${n4(max)} tokens (max_position_embeddings)`);
  return [{ text: `${clauses.join("; ")}, not ${n4(long)}: ${count === 1 ? "its bar holds for the memory, not for the model's" : "their bars hold for the memory, not for the models'"} quality.`, cls: "kv-warn" }];
}
function textLines2(labels, perToken, real, bits, win, long) {
  const lines = labels.map((l, i) => ({ text: `${l.padEnd(20)} ${fmtBytes(perToken[i]).padStart(11)} per token${i === 4 ? " past the window (the sliding half holds at most " + win + " tokens)" : ""}` }));
  for (const [n4, s] of real) {
    const capped = s.groups.some((g) => g.cap !== null && g.cap !== void 0);
    lines.push({ text: `${n4.padEnd(20)} ${fmtBytes(kvBytesPerToken(s, bits)).padStart(11)} per token${capped ? " past its windows" : ""}` });
  }
  lines.push({ text: "Designs on the Llama 3 8B shape: 32 layers, 32 query heads, 128 head dim; GQA keeps 8 KV heads, MQA 1, MLA DeepSeek-V3's 512 + 64 latent.", cls: "kv-note" });
  lines.push(...pastTrainedLength(real, long));
  return lines;
}
function render6({ model, el }) {
  const app = createApp({ model, el }, "Attention designs and their cache");
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app, "Long context (tokens)");
  selectControl(app, "window", "Hybrid window", () => axisValues(app, "windows").map((w) => [w, w.toLocaleString("en-US")]));
  moreFold(app, () => selectControl(app, "x_scale", "Bar axis", () => [["log", "log"], ["linear", "linear"]]));
  resetButton(app);
  const outDesign = app.readout("designs", "Per token:");
  const outLong = app.readout("long_context", "One conversation at the long context:");
  const heads = element("div", { class: "kv-diagram kv-heads" });
  app.plot.before(heads);
  let drawnHeads = "";
  app.draw = () => {
    const L = app.lookup();
    const bits = L.bits("kv_dtype");
    const long = checkInt("context", model.get("context"), 1);
    const short = checkInt("short_context", model.get("short_context"), 1);
    const win = model.get("window");
    const xScale = model.get("x_scale");
    if (xScale !== "log" && xScale !== "linear") throw new KVInputError(`x_scale must be 'log' or 'linear', got '${xScale}'`);
    const labels = axisValues(app, "designs").map((l) => l.replace("{window}", win));
    const shapes = labels.map((l) => L.shape(l));
    const real = (model.get("real") || []).map((n4) => [n4, L.shape(n4)]);
    const perToken = shapes.map((s) => kvBytesPerToken(s, bits));
    const t = app.theme();
    const sc = app.scale();
    const gb = (shape, tokens) => Number(kvBytes(shape, tokens, bits)) / 1e9;
    const GAP = " ";
    const realNames = real.map(([n4]) => n4);
    const rows = [...labels, GAP, ...realNames];
    const rowShapes = [...shapes, null, ...real.map(([, s]) => s)];
    const top = Math.max(...rowShapes.filter((s) => s).map((s) => gb(s, Math.max(short, long))));
    const traces = [short, long].map((tokens) => {
      const name = `${fmtTokens(tokens)} tokens`;
      return {
        type: "bar",
        name,
        orientation: "h",
        y: rows,
        x: rowShapes.map((s) => s ? gb(s, tokens) : null),
        marker: { color: rampColor(tokens, 1024, 1048576, t.dark) },
        // the context length's colour
        // no printed sizes on the bars: plotly measures every bar text on each redraw; hover gives each size
        hovertemplate: "%{y}: %{x:.3f} GB<extra>" + name + "</extra>"
      };
    });
    const lines = textLines2(labels, perToken, real, bits, win, long);
    const headsWidth = diagramWidth(app);
    const headsKey = JSON.stringify([labels, perToken.map(String), headsWidth, sc, t]);
    const headsSvg = headsKey === drawnHeads ? null : headSharing(app, L, labels, perToken, headsWidth);
    app.say(lines);
    if (headsSvg) {
      heads.replaceChildren(headsSvg);
      drawnHeads = headsKey;
    }
    outDesign.textContent = labels.map((l, i) => `${l.split(" ")[0]} ${fmtBytes(perToken[i])}`).join(" · ");
    const longest = Math.max(...rows.map((n4) => String(n4).length));
    const range = xScale === "log" ? void 0 : [0, top * 1.04];
    const gbText = (v) => `${v.toLocaleString("en-US", { maximumFractionDigits: 2 })} GB`;
    outLong.textContent = `${fmtTokens(long)} tokens: ${labels.map((l, i) => `${l.split(" ")[0]} ${gbText(gb(shapes[i], long))}`).join(" · ")}`;
    app.describeFigure(
      `KV cache of one conversation at ${fmtTokens(short)} and ${fmtTokens(long)} tokens, per attention design and real model`,
      `At ${fmtTokens(long)} tokens one conversation's cache is ${rows.flatMap((n4, i) => rowShapes[i] ? [`${n4} ${gbText(gb(rowShapes[i], long))}`] : []).join(", ")}.`
    );
    const heading2 = (text, yref, y, yanchor) => ({
      text,
      xref: "paper",
      x: 0,
      yref,
      y,
      xanchor: "left",
      yanchor,
      showarrow: false,
      font: { color: t.fg, size: 12 * sc, weight: 600 }
    });
    drawPlot(app, traces, {
      barmode: "group",
      bargap: 0.25,
      margin: { l: Math.round((longest * 0.62 * 12 + 16) * sc), r: 20 * sc, t: 30 * sc, b: 56 * sc },
      height: Math.round(455 * sc),
      annotations: [
        heading2("Designs, all on Llama 3 8B's shape", "paper", 1, "bottom"),
        heading2("Real models", "y", labels.length, "middle")
        // in the empty row (category index)
      ],
      xaxis: { type: xScale, range, title: { text: `KV cache per conversation (GB, ${xScale} scale)` } },
      yaxis: { type: "category", autorange: "reversed" },
      legend: { orientation: "h", yanchor: "top", y: -0.16, font: { color: t.fg } }
    });
  };
  return startApp(app);
}
var designs_default = widgetModule(render6);

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
var n2 = (x) => Number(x).toLocaleString("en-US");
var pct = (x) => `${(x * 100).toLocaleString("en-US", { maximumFractionDigits: 0 })}%`;
var pct1 = (x) => `${(x * 100).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;
var batch = (x) => x.toLocaleString("en-US", { maximumFractionDigits: x < 10 ? 1 : 0 });
function neverFillsMessage(trace, neverFull, count, ref, counts) {
  const names = neverFull.map((p) => POLICY_LABELS[p]);
  const who = names.length === POLICIES.length ? "any allocator" : names.join(", ");
  const more = counts.filter((c) => c > count);
  const paper = ref.paper_kv_slots;
  const less = [
    ...paper && paper < trace.kv_slots ? [`the paper's ${n2(paper)} token slots`] : [],
    "a bigger model",
    "fewer or smaller GPUs"
  ];
  return `At ${n2(trace.kv_slots)} token slots the cache never fills under ${who}: all ${n2(count)} requests run at once, no request waits for memory, and the shares would measure memory nobody asked for. The four allocators cannot be compared here. To fill the cache, give ${more.length ? `more requests (${n2(more[more.length - 1])}) or ` : ""}less KV memory (${less.join(", ")}).`;
}
function buildControls4(app, model) {
  selectControl(app, "dataset", "Requests like", () => Object.keys(model.get("lengths") || DATASET_LABELS).map((d) => [d, DATASET_LABELS[d] || d]), ["lengths"]);
  selectControl(app, "num_requests", "How many", () => axisValues(app, "request_counts").map((c) => [c, n2(c)]), ["axes"]);
  selectControl(app, "kv_slots", "KV memory", () => {
    const paper = (model.get("reference") || {}).paper_kv_slots || 15728;
    return [[paper, `the paper's: ${n2(paper)} token slots`], [0, "what the model leaves on the GPU"]];
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
    if (2 * count > flat.length) throw new KVInputError(`num_requests: the page holds the lengths of ${n2(flat.length / 2)} requests; more need the kernel to draw them`);
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
function drawLegend2(f, finishesEarly) {
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
  const doneText = `all done at step ${n2(run.total_steps)}`;
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
  const { legend, top } = drawLegend2(f, finishesEarly);
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
function textLines3(model, { trace, dataset, count, budget }, paperSetting) {
  const ref = model.get("reference") || {};
  const fit = (ref.fits || {})[dataset] || {};
  const lines = [];
  const memory = budget ? `${n2(trace.kv_slots)} token slots: what ${budget.shape.name} leaves on ${budget.numGpus} x ${budget.gpu.name} at 90% utilization, divided by its KV bytes per token (a slot is one token in every layer)` : `${n2(trace.kv_slots)} token slots${trace.kv_slots === ref.paper_kv_slots ? " (the paper's Table 1: OPT-13B on an A100-40GB leaves 12 GiB for the cache, at 800 KiB a token)" : ""}`;
  lines.push(
    { text: `${n2(count)} requests like ${fit.label || dataset}'s (seed ${model.get("seed")}) on ${memory}; the longest sequence is ${n2(trace.max_len)} tokens (OPT's), blocks of ${trace.block_size}.` },
    { text: "Every request waits at step 0 and is admitted first come, first served when its memory fits; one decode step writes one token per running request. The shares are averages over the steps at which a request is still waiting: a full server." },
    { text: "Orca (Max) reserves the maximum length, Orca (Pow2) the prompt plus the output rounded up to a power of two, Orca (Oracle) exactly prompt + output; each reservation is placed by a buddy allocator (the paper's assumption), which rounds it up to a power of two and can split free space too finely for the next request. vLLM hands out blocks as a sequence grows, keeps 1% of the blocks free when admitting (vLLM 0.2.0) and preempts the latest request when blocks run out." },
    { text: "Reserved, not yet written: slots held for tokens the request will still write. Never written: slots held past a request's end (or the empty tail of its last block). Allocator rounding + free: what the paper calls external fragmentation and others." },
    { text: `Request lengths: lognormal draws with the paper's mean lengths (Figure 11: ${fit.label || dataset} prompts ${fit.input_mean} tokens, outputs ${fit.output_mean}); the spread is ours: output sigma ${fit.output_sigma} fitted to Figure 2's Orca (Max) bar, prompt sigma ${fit.input_sigma} assumed; prompts at most ${n2(fit.max_input || 0)} tokens.` }
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
      cell(n2(r.total_steps), void 0),
      cell(p === "paged" ? n2(r.preemptions) : "", void 0)
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
    outs[p].textContent = neverFull.includes(p) ? `not applicable: never full (all ${n2(count)} requests at once)` : `${pct(r.mean_token_states)} of the cache holds tokens, batch ${batch(r.mean_running)}`;
  }
  outWasted.textContent = "not applicable: the cache never fills";
  markHolds(values, true);
}
function render7({ model, el }) {
  const app = createApp({ model, el }, "Where does KV memory go when each request reserves its own, and when it is paged?");
  const ui = buildControls4(app, model);
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
    const lines = textLines3(model, traced, paperSetting);
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
var memory_trace_default = widgetModule(render7);

// kvwidgets/widgets/js/widgets/offload.js
var TIER_NAMES = { "cpu-pinned": "CPU memory (pinned)", "cpu-pageable": "CPU memory (pageable)", "nvme-ssd": "NVMe SSD" };
var SHORT_NAMES2 = { "cpu-pinned": "pinned CPU", "cpu-pageable": "pageable CPU", "nvme-ssd": "NVMe SSD" };
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
  return `${tier.gbps.toLocaleString("en-US")} GB/s: ${fmtSeconds2(tier.seconds)}`;
}
function tierPictureLabel(tiers, gpu, cacheText) {
  return `the storage tiers and their copy speeds to the ${gpu.name} GPU, fastest first: ${tiers.map((tier) => `${SHORT_NAMES2[tier.name] || tier.name} ${tierTime(tier)}`).join("; ")}; ${cacheText}`;
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
      svgElement("text", { x: bw / 2, y: cy + fs * 0.35, "text-anchor": "middle", "font-size": fs, fill: t.fg, text: SHORT_NAMES2[tier.name] || tier.name })
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
function halo2(bg, s) {
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
function fmtSeconds2(x) {
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
function buildControls5(app) {
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
function readInputs4(app, model) {
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
    textfont: { color: t.fg, size: 11 * sc, shadow: halo2(t.bg, sc) },
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
    ends.map(([n4, y, color]) => ({ text: SHORT_NAMES2[n4] || n4, y, color })),
    { x: 12e5, pxPerDecade, gap: 14 * sc, size: 11 * sc, ink: t.fg }
  );
  return { height, margin, yRange, labels };
}
function textLines4({ shape, gpu, context, speed, params, tiers, names, meas, showMeasured }) {
  const gbpsText = (n4) => `${tierGbps(tiers[n4], speed).toLocaleString("en-US")} GB/s`;
  const dashText = (n4) => `${SHORT_NAMES2[n4] || n4} ${DASH_WORDS[TIER_DASH[n4] || "solid"]}`;
  const lines = [
    // first, so a slide (compact: the first line shows) says why one line seems missing
    ...coincidentTiers(tiers, speed).map(([a, b]) => ({ text: `${TIER_NAMES[a] || a} (${gbpsText(a)}) and ${TIER_NAMES[b] || b} (${gbpsText(b)}) copy at nearly the same speed here: their lines lie on each other (${dashText(a)}, ${dashText(b)}).` })),
    { text: `Reload = the cache's bytes / the copy speed (${speed === "typical" ? "typical" : speed === "low" ? "slow end" : "fast end"} of each tier; Ranges shades each tier from its slow to its fast end). Recompute = 2 x ${Number(activeParams(shape, params)).toLocaleString("en-US")} active params x tokens / ${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS, an ideal floor that leaves attention's own work out.`, cls: "kv-note" },
    { text: `Copy speeds (GB/s, slow end / typical / fast end): ${names.map((n4) => `${TIER_NAMES[n4] || n4} ${tiers[n4].low_gbps} / ${tiers[n4].typical_gbps} / ${tiers[n4].high_gbps}`).join("; ")}.`, cls: "kv-note" }
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
    const pictureTiers = [...names].sort((a, b) => tierGbps(tiers[b], speed) - tierGbps(tiers[a], speed)).map((n4) => ({ name: n4, gbps: tierGbps(tiers[n4], speed), seconds: at[n4] }));
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
function fillReadouts3(app, outs, { shape, bits, context, bands, tiers, names, showMeasured, rows }, { at, recomputeAt, fastest, crossText, kvb }) {
  const measuredAt = showMeasured ? interpolateMeasured(rows, context) : null;
  const range = (n4) => bands ? ` (${fmtSeconds2(reloadSeconds(shape, context, bits, tiers[n4].high_gbps))} to ${fmtSeconds2(reloadSeconds(shape, context, bits, tiers[n4].low_gbps))})` : "";
  outs.reload.textContent = names.map((n4) => `${TIER_NAMES[n4] || n4} ${fmtSeconds2(at[n4])}${range(n4)}`).join(" · ");
  outs.recompute.textContent = `ideal ${fmtSeconds2(recomputeAt)}` + (showMeasured ? `, measured ${measuredAt === null ? "n/a at this length (measured 1K to 32K)" : fmtSeconds2(measuredAt)}` : "");
  outs.fastest.textContent = fastest[0];
  const searched = `reload against the ideal recompute (a model) checked from ${fmtInt(1024)} to ${fmtInt(1048576)} tokens` + (showMeasured ? `, against the measured prefill from ${fmtInt(rows[0].tokens)} to ${fmtInt(rows[rows.length - 1].tokens)}` : "");
  outs.cross.textContent = crossText.length ? crossText.join(" · ") : `none: ${searched}`;
  app.describeFigure(
    "seconds to get one conversation's cache back against its context: reload from each tier, or recompute",
    `At ${fmtTokens(context)} tokens (${fmtBytes(kvb)} of cache) the fastest way is ${fastest[0]}. Reload: ${outs.reload.textContent.replaceAll(" · ", ", ")}. Recompute: ${outs.recompute.textContent}. Where the cheaper way changes: ${outs.cross.textContent.replaceAll(" · ", ", ")}.`
  );
}
function render8({ model, el }) {
  const app = createApp({ model, el }, "Offload or recompute: which brings one conversation's cache back faster?");
  const outs = buildControls5(app);
  const picture = element("div", { class: "kv-diagram kv-tiers" });
  app.plot.before(picture);
  const preparePicture = tierPictureKeeper(app, picture);
  app.draw = () => {
    const I = readInputs4(app, model);
    const { shape, gpu, bits, context, speed, bands, params, names, t, sc, showMeasured } = I;
    const reload = reloadTraces(I);
    const recompute = recomputeTraces(I);
    const traces = [...reload.traces, ...recompute.traces];
    const recomputeAt = prefillSeconds(shape, gpu, context, params);
    const { crossText, dots } = crossings(I);
    if (dots.x.length) traces.push(crossingTrace(I, dots));
    const options = names.map((n4) => [`reload from ${TIER_NAMES[n4] || n4}`, reload.at[n4]]);
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
    const lines = textLines4(I);
    app.say(lines);
    showPicture();
    fillReadouts3(app, outs, I, { at: reload.at, recomputeAt, fastest, crossText, kvb });
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
var offload_default = widgetModule(render8);

// kvwidgets/widgets/js/widgets/paged_blocks.js
var USERS_DRAWN = 6;
function wrap(text, chars) {
  const lines = [""];
  for (const word of text.split(" ")) {
    const cur = lines[lines.length - 1];
    if (cur && cur.length + 1 + word.length > chars) lines.push(word);
    else lines[lines.length - 1] = cur ? `${cur} ${word}` : word;
  }
  return lines;
}
function jitter2(j) {
  const x = Math.sin((j + 1) * 78.233) * 43758.5453;
  return x - Math.floor(x);
}
var n3 = (x) => Number(x).toLocaleString("en-US");
var pct2 = (x) => `${(x * 100).toLocaleString("en-US", { maximumFractionDigits: x < 1 && x > 0.9995 ? 3 : 1 })}%`;
var plural = (k, word) => `${n3(k)} ${word}${Number(k) === 1 ? "" : "s"}`;
function buildControls6(app) {
  modelSelect(app);
  gpuSelect(app);
  dtypeSelect(app, "weight_dtype", "Weights");
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app, "Max length (reserved)");
  intBox(app, "used_tokens", "Tokens used", { min: 1, max: 2 ** 40 });
  intBox(app, "users", "Conversations sharing", { min: 1, max: 1 << 20 });
  intBox(app, "prefix_tokens", "Shared prefix (tokens)", { min: 0, max: 2 ** 40 });
  selectControl(app, "block_size", "Block size", () => axisValues(app, "block_sizes").map((b) => [b, `${b} tokens`]), ["axes"]);
  resetButton(app);
  const outs = {
    blocks: app.readout("blocks_used", "Blocks per request:"),
    waste: app.readout("waste", "Empty slots:"),
    users: app.readout("users_fit", "Requests that fit:"),
    share: app.readout("sharing", "Shared prefix:")
  };
  diagramBox(app);
  return outs;
}
function flag(app, names) {
  for (const c of app.root.querySelectorAll(".kv-controls [data-kv]")) {
    const kv = (
      /** @type {HTMLElement} */
      c.dataset.kv || ""
    );
    if (names.includes(kv)) c.setAttribute("aria-invalid", "true");
    else c.removeAttribute("aria-invalid");
  }
}
function inputConflicts(used, prefix, maxLen) {
  const conflicts = [];
  const whole = (v) => Number.isInteger(v) && v >= 0;
  if (whole(used) && whole(prefix) && prefix >= used) {
    conflicts.push([["prefix_tokens", "used_tokens"], `The shared prefix (prefix_tokens, ${n3(prefix)}) must be shorter than the tokens used (used_tokens, ${n3(used)}): each conversation adds tokens of its own after it.`]);
  }
  if (whole(used) && whole(maxLen) && used > maxLen) {
    conflicts.push([["context", "context-box", "used_tokens"], `The tokens used (used_tokens, ${n3(used)}) must fit in the maximum length a reservation holds (context, ${n3(maxLen)}).`]);
  }
  return conflicts;
}
function layout2(app, p) {
  const t = app.theme();
  const s = app.scale();
  const W = diagramWidth(app);
  const fs = 12 * s;
  const small = fs * 0.9;
  const label = (x, yy, text, extra = {}) => svgElement("text", { x, y: yy, "font-size": small, fill: t.fg2, ...extra, text });
  const labelW = 150 * s;
  const x0 = labelW;
  return {
    p,
    t,
    s,
    W,
    fs,
    small,
    label,
    x0,
    cKV: conceptColor("kv"),
    cShared: conceptColor("shared"),
    cEmpty: conceptColor("waste"),
    cOther: conceptColor("other"),
    bs: p.block_size,
    barW: Math.max(120, W - x0 - 4),
    h: 20 * s,
    parts: []
  };
}
function heading(f, text, y) {
  const { t, W, fs } = f;
  wrap(text, Math.floor(W / (fs * 1.05 * 0.6))).forEach((line, i) => {
    y += i ? fs * 1.25 : fs * 1.3;
    f.parts.push(svgElement("text", { x: 0, y, "font-size": fs * 1.05, "font-weight": 600, fill: t.fg, class: "kv-pb-heading", text: line }));
  });
  y += fs * 0.6;
  return y;
}
function drawReservedAndPaged(f, y) {
  const { p, t, s, bs, x0, barW, h, cKV, cEmpty, label } = f;
  const scale = barW / (p.reserved_blocks * bs);
  const resRow = svgElement("g", { class: "kv-pb-reserved", "data-blocks": p.reserved_blocks });
  resRow.append(
    label(0, y + h * 0.7, "reserved"),
    svgElement("rect", { x: x0, y, width: barW, height: h, fill: cEmpty, "fill-opacity": 0.25, stroke: cEmpty }),
    svgElement("rect", { x: x0, y, width: Math.max(1, p.used_tokens * scale), height: h, fill: cKV })
  );
  if (barW - p.used_tokens * scale > 150 * s) {
    resRow.append(label(x0 + p.used_tokens * scale + 6 * s, y + h * 0.7, `taken but empty: ${pct2(p.reserved_waste)}`, { fill: t.fg }));
  }
  f.parts.push(resRow);
  y += h + 8 * s;
  const pageRow = svgElement("g", { class: "kv-pb-paged", "data-blocks": p.paged_blocks });
  const blockW = bs * scale;
  pageRow.append(
    label(0, y + h * 0.7, "paged"),
    svgElement("rect", { x: x0, y, width: Math.max(1, p.used_tokens * scale), height: h, fill: cKV })
  );
  if (blockW >= 4 * s) {
    const edges = Array.from({ length: p.paged_blocks }, (_, i) => (
      /** @type {[number, number, number, number]} */
      [x0 + i * blockW, y, blockW, h]
    ));
    pageRow.append(svgElement("path", { d: boxesPath(edges), fill: "none", stroke: t.bg, "stroke-width": 1 }));
  }
  const endX = x0 + Math.max(1, p.paged_blocks * blockW);
  pageRow.append(svgElement("rect", { x: x0 + p.used_tokens * scale, y, width: Math.max(0.5, endX - x0 - p.used_tokens * scale), height: h, fill: cEmpty, "fill-opacity": 0.5 }));
  if (x0 + barW - endX > 150 * s) pageRow.append(label(endX + 6 * s, y + h * 0.7, "free for other requests", { fill: t.fg }));
  f.parts.push(pageRow);
  y += h;
  return { y, endX };
}
function drawZoom(f, y, endX) {
  const { p, t, s, bs, x0, barW, h, cKV, cEmpty, label } = f;
  const zoom = svgElement("g", { class: "kv-pb-zoom", "data-blocks": p.paged_blocks });
  const minCell = 5 * s;
  const cellZ = Math.min(24 * s, barW / p.paged_blocks);
  const fits = cellZ >= minCell;
  const cz = fits ? cellZ : minCell;
  const tail = 2;
  const head = fits ? p.paged_blocks : Math.max(1, Math.floor((barW - 3 * minCell) / minCell) - tail);
  const zoomW = fits ? p.paged_blocks * cz : (head + 3 + tail) * cz;
  const zTop = y + 12 * s;
  zoom.append(
    svgElement("path", { d: `M ${x0} ${y} L ${x0} ${zTop} M ${endX} ${y} L ${x0 + zoomW} ${zTop}`, stroke: t.fg2, "stroke-width": 1, "stroke-dasharray": `${2 * s} ${2 * s}`, fill: "none" }),
    label(0, zTop + h * 0.7, `magnified: ${plural(p.paged_blocks, "block")}`)
  );
  const lastShare = p.last_block_tokens / bs;
  const drawnBlocks = Array.from({ length: head }, (_, i) => [i, x0 + i * cz]);
  if (!fits) {
    zoom.append(label(x0 + (head + 1.5) * cz, zTop + h * 0.7, "…", { "text-anchor": "middle", fill: t.fg }));
    for (let k = 0; k < tail; k++) drawnBlocks.push([p.paged_blocks - tail + k, x0 + (head + 3 + k) * cz]);
  }
  zoom.append(
    svgElement("path", {
      class: "kv-pb-block",
      "data-cell-width": cz,
      d: boxesPath(drawnBlocks.map(([, x]) => [x, zTop, cz, h])),
      fill: cEmpty,
      "fill-opacity": 0.5,
      stroke: t.bg,
      "stroke-width": 1
    }),
    svgElement("path", {
      d: boxesPath(drawnBlocks.map(([i, x]) => [x, zTop, cz * (i === p.paged_blocks - 1 ? lastShare : 1), h])),
      fill: cKV,
      stroke: t.bg,
      "stroke-width": 1
    })
  );
  f.parts.push(zoom);
  return zTop + h + 8 * s;
}
function drawLastBlock(f, y) {
  const { p, t, s, W, fs, small, bs, x0, barW, h, cKV, label } = f;
  const slotW = Math.min(22 * s, (barW - 10) / bs);
  const lastRow = svgElement("g", { class: "kv-pb-last", "data-filled": p.last_block_tokens });
  lastRow.append(label(0, y + h * 0.7, `last block (no. ${n3(p.paged_blocks)})`));
  for (let i = 0; i < bs; i++) {
    const filled = i < p.last_block_tokens;
    lastRow.append(svgElement("rect", {
      x: x0 + i * slotW,
      y,
      width: slotW - 2,
      height: h,
      fill: filled ? cKV : "none",
      stroke: filled ? cKV : t.fg2,
      "stroke-dasharray": filled ? null : `${2 * s} ${2 * s}`
    }));
  }
  const lastText = `${p.last_block_tokens} of ${bs} slots used: paging wastes ${pct2(p.paged_waste)}`;
  const besides = x0 + bs * slotW + 8 * s + lastText.length * small * 0.56 < W;
  if (besides) lastRow.append(label(x0 + bs * slotW + 8 * s, y + h * 0.7, lastText, { fill: t.fg }));
  else lastRow.append(label(x0, y + h + fs * 1.1, lastText, { fill: t.fg }));
  f.parts.push(lastRow);
  y += h + (besides ? 6 * s : fs * 1.6);
  return y;
}
function blockScatter(f) {
  const { p, s, barW } = f;
  const M = Math.max(8, Math.min(32, Math.floor(barW / (26 * s))));
  const k = Math.max(1, Math.min(p.paged_blocks, Math.floor((M - 2) / 3), 4));
  const perm = Array.from({ length: M }, (_, j) => j).sort((a, b) => jitter2(a) - jitter2(b));
  const owner = new Array(M).fill("");
  const physA = perm.slice(0, k);
  const physB = perm.slice(k, 2 * k);
  physA.forEach((q, i) => {
    owner[q] = `A${i}`;
  });
  physB.forEach((q, i) => {
    owner[q] = `B${i}`;
  });
  for (const q of perm.slice(2 * k, 2 * k + Math.floor(M / 3))) owner[q] = "other";
  return { M, cw: barW / M, k, owner, physA, physB };
}
function blockPaint(f, name) {
  return name === "A" ? { fill: f.cKV, stroke: "none" } : { fill: "none", stroke: f.cKV, "stroke-width": 2 * f.s };
}
function drawRequestRow(f, table, { cw, k }, name, phys, yy) {
  const { p, t, s, x0, h, cKV, label } = f;
  table.append(label(0, yy + h * 0.7, `request ${name}: ${plural(p.paged_blocks, "block")}`));
  phys.forEach((_, i) => {
    table.append(
      svgElement("rect", {
        x: x0 + i * cw + 1 + (name === "A" ? 0 : s),
        y: yy + (name === "A" ? 0 : s),
        width: cw - 2 - (name === "A" ? 0 : 2 * s),
        height: h - (name === "A" ? 0 : 2 * s),
        ...blockPaint(f, name)
      }),
      label(x0 + (i + 0.5) * cw, yy + h * 0.7, String(i), { "text-anchor": "middle", fill: name === "A" ? inkOn(cKV) : t.fg })
    );
  });
  const more = p.paged_blocks > k ? " …" : "";
  table.append(label(x0 + k * cw + 6 * s, yy + h * 0.7, `${phys.map((q, i) => `${i}→${q}`).join("  ")}${more}`, { fill: t.fg, class: "kv-pb-map" }));
}
function drawMemoryBlocks(f, table, { M, cw, owner }, memY) {
  const { t, s, small, x0, h, cKV, cOther, label } = f;
  table.append(label(0, memY + h * 0.7, "GPU memory"));
  for (let q = 0; q < M; q++) {
    const who = owner[q];
    const mine = who === "" || who === "other" ? null : who[0];
    const inset = mine === "B" ? s : 0;
    const paint = mine ? blockPaint(f, mine) : who === "" ? { fill: "none", stroke: t.fg2, "stroke-dasharray": `${2 * s} ${2 * s}` } : { fill: cOther, "fill-opacity": 0.35, stroke: "none" };
    table.append(svgElement("rect", {
      class: "kv-pb-phys",
      "data-owner": who,
      x: x0 + q * cw + 1 + inset,
      y: memY + inset,
      width: cw - 2 - 2 * inset,
      height: h - 2 * inset,
      ...paint
    }));
    table.append(label(x0 + (q + 0.5) * cw, memY + h * 0.7, String(q), { "text-anchor": "middle", fill: mine === "A" ? inkOn(cKV) : who === "other" || mine ? t.fg : t.fg2, "font-size": small * 0.9, "font-weight": mine ? 600 : null }));
  }
}
function drawBlockTable(f, y) {
  const { p, t, s, W, small, x0, h, label } = f;
  y = heading(f, "The block table: each request's blocks lie wherever a block was free", y);
  const sc = blockScatter(f);
  const { M, cw, k, physA, physB } = sc;
  const blockMap = (phys) => `${phys.map((q, i) => `${i} to ${q}`).join(", ")}${p.paged_blocks > k ? " and on" : ""}`;
  const words = ` The block table maps request A's blocks ${blockMap(physA)}, and request B's ${blockMap(physB)}: each request's blocks lie wherever a block was free.`;
  const table = svgElement("g", { class: "kv-pb-table", "data-logical": k, "data-physical": JSON.stringify([physA, physB]) });
  const aY = y;
  const memY = aY + h + 26 * s;
  const bY = memY + h + 26 * s;
  drawRequestRow(f, table, sc, "A", physA, aY);
  drawMemoryBlocks(f, table, sc, memY);
  const link = (i, q, fromY, toY, dash) => table.append(svgElement("line", {
    x1: x0 + (i + 0.5) * cw,
    y1: fromY,
    x2: x0 + (q + 0.5) * cw,
    y2: toY,
    stroke: t.fg,
    "stroke-width": 1.2 * s,
    "stroke-dasharray": dash ? `${4 * s} ${2 * s}` : null
  }));
  physA.forEach((q, i) => link(i, q, aY + h, memY, false));
  drawRequestRow(f, table, sc, "B", physB, bY);
  physB.forEach((q, i) => link(i, q, bY, memY + h, true));
  f.parts.push(table);
  y = bY + h + 4 * s;
  for (const line of wrap(`GPU memory: blocks 0 to ${M - 1} of the pool; request A's blocks filled, request B's outlined, other requests' grey, free ones dashed. An illustration: an engine hands out whichever blocks are free.`, Math.floor(W / (small * 0.56)))) {
    f.parts.push(label(0, y + small, line));
    y += small * 1.3;
  }
  y += small * 0.3;
  return { y, words };
}
function drawMemoryRow(f, y, cls, name, users, blocks, usedShare) {
  const { p, t, s, fs, x0, barW, h, cKV, cEmpty, label } = f;
  const g = svgElement("g", { class: cls, "data-users": String(users) });
  g.append(
    label(0, y + h * 0.7, name),
    svgElement("rect", { x: x0, y, width: barW, height: h, fill: "none", stroke: t.fg2, "stroke-width": 1 })
  );
  const total = Number(p.total_blocks);
  const u = Number(users);
  if (total > 0 && u > 0) {
    const segW = blocks / total * barW;
    if (segW >= 4 * s && u <= 400) {
      const each = (fn) => boxesPath(Array.from({ length: u }, (_, i) => fn(x0 + i * segW)));
      g.append(
        svgElement("path", { class: "kv-pb-request", "data-requests": u, d: each((x) => [x, y, segW * usedShare, h]), fill: cKV }),
        svgElement("path", { d: each((x) => [x + segW * usedShare, y, segW * (1 - usedShare), h]), fill: cEmpty, "fill-opacity": 0.35 }),
        svgElement("path", { d: Array.from({ length: u }, (_, i) => `M${x0 + (i + 1) * segW} ${y}v${h}`).join(""), stroke: t.bg, "stroke-width": 1 })
      );
    } else {
      const all = segW * u;
      g.append(
        svgElement("rect", { x: x0, y, width: all * usedShare, height: h, fill: cKV }),
        svgElement("rect", { x: x0 + all * usedShare, y, width: all * (1 - usedShare), height: h, fill: cEmpty, "fill-opacity": 0.35 })
      );
    }
  }
  g.append(label(x0 + 6 * s, y + h + fs * 1.1, `${plural(users, "request")} fit`, { fill: t.fg, "font-weight": 600 }));
  f.parts.push(g);
  y += h + fs * 1.6;
  return y;
}
function drawBlocks(f, g, cell, x, yy, count, color, lastFill = void 0) {
  const { h } = f;
  if (count <= 0) return;
  if (cell >= 3) {
    const each = (fn) => boxesPath(Array.from({ length: count }, (_, i) => fn(i, x + i * cell)));
    g.append(
      svgElement("path", { d: each((i, bx) => [bx, yy, cell - 1, h]), fill: "none", stroke: color, "stroke-width": 1 }),
      svgElement("path", { d: each((i, bx) => [bx, yy, (cell - 1) * (i === count - 1 && lastFill !== void 0 ? lastFill : 1), h]), fill: color })
    );
  } else {
    g.append(svgElement("rect", { x, y: yy, width: count * cell, height: h, fill: color }));
  }
}
function drawSharedBlocks(f, y) {
  const { p, t, s, fs, bs, x0, barW, h, cKV, cShared, label } = f;
  const cell = Math.min(14 * s, barW / (p.shared_blocks + p.own_blocks));
  const shared = svgElement("g", { class: "kv-pb-shared", "data-blocks": p.shared_blocks });
  shared.append(label(0, y + h * 0.7, `shared: ${plural(p.shared_blocks, "block")}`));
  drawBlocks(f, shared, cell, x0, y, p.shared_blocks, cShared);
  if (p.shared_blocks === 0) shared.append(label(x0, y + h * 0.7, `no full block to share (the prefix is shorter than ${bs} tokens)`, { fill: t.fg }));
  f.parts.push(shared);
  const sharedBottom = y + h;
  y += h + 6 * s;
  const ownStart = x0 + p.shared_blocks * cell;
  const ownTokens = p.used_tokens - p.shared_blocks * bs;
  const lastOwn = (ownTokens - (p.own_blocks - 1) * bs) / bs;
  const drawnUsers = Math.min(p.users, USERS_DRAWN);
  for (let u = 0; u < drawnUsers; u++) {
    const g = svgElement("g", { class: "kv-pb-user", "data-blocks": p.own_blocks });
    g.append(
      label(0, y + h * 0.7, `conversation ${u + 1}: ${n3(p.own_blocks)} own`),
      // a thin line back to the shared blocks: the user's request reads them, it does not copy them
      svgElement("line", { x1: x0, x2: ownStart, y1: y + h / 2, y2: y + h / 2, stroke: cShared, "stroke-width": 1.5 * s, "stroke-dasharray": `${4 * s} ${3 * s}` })
    );
    drawBlocks(f, g, cell, ownStart, y, p.own_blocks, cKV, lastOwn);
    f.parts.push(g);
    y += h + 4 * s;
  }
  if (p.users > drawnUsers) {
    f.parts.push(label(0, y + fs * 0.8, `+ ${plural(p.users - drawnUsers, "more conversation")} like these`));
    y += fs * 1.4;
  }
  f.parts.push(svgElement("line", { x1: ownStart, x2: ownStart, y1: sharedBottom, y2: y, stroke: t.fg2, "stroke-width": 1, "stroke-dasharray": `${2 * s} ${2 * s}` }));
  return y;
}
function drawSharing(f, y, keepsHeight) {
  const { p, t, s, W, fs, small, h, label } = f;
  y = heading(f, `${plural(p.users, "conversation")} whose requests start with the same ${n3(p.prefix_tokens)} tokens`, y);
  const sharing = !(p.users_paged === 0n || p.users_sharing === 0n);
  const sharingBottom = keepsHeight ? y + h + 6 * s + USERS_DRAWN * (h + 4 * s) + fs * 1.4 : 0;
  if (!sharing) {
    const none = `No request of ${n3(p.used_tokens)} tokens fits in the cache memory${p.users_paged > 0n ? " beside the shared prefix" : ""}, so no conversations share it here.`;
    const noneLines = wrap(none, Math.floor(W / (small * 0.56)));
    noneLines.forEach((line, i) => {
      f.parts.push(label(0, y + fs + i * small * 1.3, line, { fill: t.fg, class: "kv-pb-none" }));
    });
    y += fs * 0.6 + noneLines.length * small * 1.3;
  } else {
    y = drawSharedBlocks(f, y);
  }
  y = Math.max(y, sharingBottom) + 4 * s;
  return { y, sharing };
}
function drawLegend3(f, y, sharing) {
  const { p, t, s, W, fs, cKV, cShared, cEmpty } = f;
  const legendY = y + 4 * s;
  const legend = svgElement("g", { class: "kv-pb-legend" });
  let lx = 0;
  let ly = legendY;
  const keys = [[cKV, "KV cache (a request's own)", 1], ...sharing && p.shared_blocks > 0 ? [
    /** @type {[string, string, number]} */
    [cShared, "shared prefix, stored once", 1]
  ] : [], [cEmpty, "taken, empty", 0.35]];
  for (const [color, text, op] of keys) {
    const w = 18 * s + text.length * fs * 0.5;
    if (lx > 0 && lx + w > W) {
      lx = 0;
      ly += 20 * s;
    }
    legend.append(
      svgElement("rect", { x: lx, y: ly, width: 12 * s, height: 12 * s, fill: color, "fill-opacity": op }),
      svgElement("text", { x: lx + 18 * s, y: ly + 10 * s, "font-size": fs * 0.85, fill: t.fg2, text })
    );
    lx += w + 16 * s;
  }
  f.parts.push(legend);
  return ly + 22 * s;
}
function drawFigure2(app, f, gpuName) {
  const { p, t, W } = f;
  let y = heading(f, `One request: ${n3(p.used_tokens)} tokens used, up to ${n3(p.reserved_tokens)} allowed`, 0);
  const bars = drawReservedAndPaged(f, y);
  y = drawZoom(f, bars.y, bars.endX);
  y = drawLastBlock(f, y);
  let tableWords = "";
  if (!app.root.classList.contains("kv-compact")) {
    const table = drawBlockTable(f, y);
    y = table.y;
    tableWords = table.words;
  }
  y = heading(f, `Cache memory of one ${gpuName}: ${plural(p.total_blocks, "block")} of ${fmtBytes(p.block_bytes)}`, y);
  y = drawMemoryRow(f, y, "kv-pb-mem-reserved", "reserving", p.users_reserved, p.reserved_blocks, p.used_tokens / (p.reserved_blocks * f.bs));
  y = drawMemoryRow(f, y, "kv-pb-mem-paged", "paging", p.users_paged, p.paged_blocks, p.used_tokens / (p.paged_blocks * f.bs));
  const shared = drawSharing(f, y, app.keepsHeight());
  const H = drawLegend3(f, shared.y, shared.sharing);
  return svgElement("svg", {
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "font-family": t.font,
    "aria-label": `${n3(p.users_reserved)} requests fit reserving ${n3(p.reserved_blocks)} blocks each (${pct2(p.reserved_waste)} empty), ${n3(p.users_paged)} paging ${n3(p.paged_blocks)} blocks each (${pct2(p.paged_waste)} empty); a shared prefix stores ${n3(p.blocks_shared)} blocks for ${plural(p.users, "conversation")} in place of ${n3(p.blocks_unshared)}.${tableWords}`
  }, f.parts);
}
function textLines5(p, shape, kvDtype) {
  const bs = p.block_size;
  const lines = [
    { text: `reserving: ${n3(p.reserved_blocks)} blocks per request, ${pct2(p.reserved_waste)} of them empty; ${plural(p.users_reserved, "request")} fit` },
    { text: `paging: ${n3(p.paged_blocks)} blocks per request, ${pct2(p.paged_waste)} empty (only the last block); ${plural(p.users_paged, "request")} fit` },
    { text: `sharing: ${n3(p.shared_blocks)} shared + ${n3(p.users)} x ${n3(p.own_blocks)} own = ${n3(p.blocks_shared)} blocks instead of ${n3(p.blocks_unshared)}; ${plural(p.users_sharing, "such request")} fit` },
    { text: `A block holds ${bs} tokens' keys and values in every layer: ${fmtBytes(p.block_bytes)} for ${shape.name} in ${kvDtype.toUpperCase()}. Only whole blocks of the prefix are shared; its part-filled last block is each conversation's own.`, cls: "kv-note" },
    { text: "The block table: each request keeps a list of its blocks' numbers in memory, so its blocks need not lie together. vLLM's block pool hands a request the blocks at the head of its queue of free blocks, and a finished request's blocks rejoin that queue, so once the engine has run a while a request's blocks are scattered. The numbers drawn are an illustration of that, not a trace.", cls: "kv-note" }
  ];
  if (shape.groups.some((g) => g.cap !== null && g.cap !== void 0)) {
    lines.push({ text: `${shape.name} has windowed layers: blocks are counted as if every layer kept every token, the most paging can need; an engine frees a window's blocks once they slide out.`, cls: "kv-note" });
  }
  if (shape.max_context && p.reserved_tokens > shape.max_context) {
    lines.push({ text: `A maximum length of ${n3(p.reserved_tokens)} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${n3(shape.max_context)}).`, cls: "kv-warn" });
  }
  if (p.kv_budget_bytes >= 0n && p.users_paged === 0n) {
    lines.push({ text: `Not even one request of ${n3(p.used_tokens)} tokens fits in the cache memory.`, cls: "kv-warn" });
  } else if (p.kv_budget_bytes >= 0n && p.users_reserved === 0n) {
    lines.push({ text: `Not even one reservation of ${n3(p.reserved_tokens)} tokens fits in the cache memory.`, cls: "kv-warn" });
  }
  return lines;
}
function render9({ model, el }) {
  const app = createApp({ model, el }, "Memory in blocks: reserving vs paging, and a shared prefix");
  const outs = buildControls6(app);
  const values = [outs.blocks, outs.waste, outs.users, outs.share];
  const notApplicable = () => {
    for (const o of values) o.textContent = "not applicable";
    markHolds(values, true);
  };
  app.draw = () => {
    markHolds(values, false);
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const used = model.get("used_tokens");
    const prefix = model.get("prefix_tokens");
    const maxLen = model.get("context");
    const conflicts = inputConflicts(used, prefix, maxLen);
    flag(app, conflicts.flatMap((c) => c[0]));
    if (conflicts.length) {
      app.failure(conflicts.map((c) => c[1]).join(" "));
      app.say([]);
      notApplicable();
      return;
    }
    const o = {
      numGpus: 1,
      weightBits: L.weightBits(),
      kvBits: L.bits("kv_dtype"),
      utilization: 0.9,
      usedTokens: used,
      reservedTokens: maxLen,
      blockSize: model.get("block_size"),
      users: model.get("users"),
      prefixTokens: prefix
    };
    const p = blockPlan(shape, gpu, o);
    const f = layout2(app, p);
    const svg = drawFigure2(app, f, gpu.name);
    const lines = textLines5(p, shape, model.get("kv_dtype"));
    if (p.kv_budget_bytes < 0n) {
      app.failure(`The weights of ${shape.name} do not fit in one ${gpu.name} at 90% utilization: no memory is left for the cache, so no request fits. Try FP8 weights or a larger GPU.`);
    }
    app.say(lines);
    outs.blocks.textContent = `${n3(p.paged_blocks)} paged, ${n3(p.reserved_blocks)} reserved`;
    outs.waste.textContent = `paged ${pct2(p.paged_waste)}, reserved ${pct2(p.reserved_waste)}`;
    outs.users.textContent = p.kv_budget_bytes < 0n ? "none (the model does not load)" : `paging ${n3(p.users_paged)}, reserving ${n3(p.users_reserved)}`;
    markHolds(values, p.kv_budget_bytes < 0n);
    outs.share.textContent = `${n3(p.blocks_shared)} blocks for ${plural(p.users, "conversation")} (${n3(p.blocks_unshared)} unshared)`;
    app.diagram.replaceChildren(svg);
    app.drawnWidth = f.W;
  };
  return startApp(app);
}
var paged_blocks_default = widgetModule(render9);

// kvwidgets/widgets/js/widgets/per_token.js
var MIN_SHARE = 0.02;
function compressedLine(g, per) {
  const n4 = (x) => Number(x).toLocaleString("en-US");
  const window2 = `window of ${n4(g.window)} tokens x ${g.entry_bytes} B`;
  if (g.ratio === 1) return `${KIND_NAMES.compressed}: ${g.count} layers, ${window2} only`;
  const index = g.index_bytes ? ` + ${g.index_bytes} B indexer key` : "";
  return `${KIND_NAMES.compressed}: ${g.count} layers x (${g.entry_bytes} B entry${index}) / ${g.ratio} tokens = ${n4(per)} B, plus a ${window2} and a compressor state of ${n4(g.state_window)} x ${n4(g.state_token_bytes)} B`;
}
function formulaLine(g, bits) {
  const bytes = bits / 8;
  const per = groupBytesPerToken(g, bits);
  const n4 = (x) => Number(x).toLocaleString("en-US");
  if (g.ratio !== void 0) return compressedLine(g, per);
  if (g.latent !== void 0) {
    const index = g.index_bytes ? ` + ${g.count} x ${g.index_bytes} B indexer (FP8 keys + scale)` : "";
    return `${KIND_NAMES.mla}: ${g.count} layers x ${g.latent} (latent + rope) x ${bytes} B${index} = ${n4(per)} B`;
  }
  if (g.kv_heads !== void 0) {
    const dims = g.head_k === g.head_v ? `2 x ${g.count} layers x ${g.kv_heads} KV heads x ${g.head_k} head dim` : `${g.count} layers x ${g.kv_heads} KV heads x (${g.head_k} + ${g.head_v})`;
    if (g.fixed_tokens !== void 0) {
      return `${KIND_NAMES.cross}: ${dims} x ${bytes} B = ${n4(per)} B per encoder token, ${n4(g.fixed_tokens)} encoder tokens (image or audio) per sequence, never the text`;
    }
    const cap = g.cap === null || g.cap === void 0 ? "" : `, held for the last ${n4(g.cap)} tokens only`;
    return `${KIND_NAMES[g.kind] || g.kind}: ${dims} x ${bytes} B = ${n4(per)} B${cap}`;
  }
  return `${KIND_NAMES[g.kind] || g.kind}: ${g.count} layers x ${n4(g.fixed_bytes || 0)} B = ${n4(g.count * (g.fixed_bytes || 0))} B per sequence, whatever its length`;
}
function formulaFactors(g, bits) {
  const per = groupBytesPerToken(g, bits);
  const bytes = bits / 8;
  const rows = [];
  if (g.ratio !== void 0) {
    const entry = g.entry_bytes + (g.index_bytes || 0);
    if (g.ratio === 1) {
      rows.push(["layers", g.count, "layers with compress_ratio 0"], ["window", g.window, "sliding_window tokens"], ["entry", g.entry_bytes, "packed latent bytes (fp8_ds_mla)"]);
      return { kind: g.kind, factors: rows, result: `${(g.count * g.window * g.entry_bytes).toLocaleString("en-US")} B`, unit: "per sequence, at most", per };
    }
    rows.push(["layers", g.count, "layers"], ["entry", entry, "packed latent + indexer key bytes"], ["ratio", `1/${g.ratio}`, "compress_ratios"]);
    return { kind: g.kind, factors: rows, result: `${Number(per).toLocaleString("en-US")} B`, unit: "per token", per };
  }
  if (g.latent !== void 0) {
    rows.push(["layers", g.count, "MLA layers"], ["latent", g.latent, "kv_lora_rank + qk_rope_head_dim"], ["bytes", bytes, "bytes per number"]);
  } else if (g.kv_heads !== void 0) {
    if (g.head_k === g.head_v) {
      rows.push(["kv", 2, "K and V"], ["layers", g.count, "layers"], ["heads", g.kv_heads, "num_key_value_heads"], ["dim", g.head_k, "head_dim"], ["bytes", bytes, "bytes per number"]);
    } else {
      rows.push(["layers", g.count, "layers"], ["heads", g.kv_heads, "num_key_value_heads"], ["dim", `(${g.head_k} + ${g.head_v})`, "K + V head dims"], ["bytes", bytes, "bytes per number"]);
    }
  } else {
    const state = Number(g.fixed_bytes || 0);
    rows.push(["layers", g.count, "layers"], ["state", state, "state bytes per layer"]);
    return { kind: g.kind, factors: rows, result: `${(g.count * state).toLocaleString("en-US")} B`, unit: "per sequence, fixed", per };
  }
  const unit = g.fixed_tokens !== void 0 ? "per encoder token" : "per token";
  return { kind: g.kind, factors: rows, result: `${Number(per).toLocaleString("en-US")} B`, unit, per };
}
function formulaBox(app, box, shape, bits) {
  const rows = shape.groups.map((g) => formulaFactors(g, bits));
  const before = app.formulaValues || {};
  const now = {};
  const lines = rows.map((r, i) => {
    const line = element("div", { class: "kv-formula-row", "data-kind": r.kind });
    line.append(element("span", { class: "kv-formula-kind", text: `${KIND_NAMES[r.kind] || r.kind}:` }));
    r.factors.forEach(([key, value, source], j) => {
      const id = `${i}.${key}`;
      now[id] = String(value);
      const changed = id in before && before[id] !== now[id];
      if (j > 0) line.append(element("span", { class: "kv-formula-op", text: "x" }));
      line.append(element("span", { class: changed ? "kv-factor kv-changed" : "kv-factor", "data-factor": key, title: source }, [
        element("span", { class: "kv-factor-value", text: typeof value === "number" ? value.toLocaleString("en-US") : value }),
        element("span", { class: "kv-factor-source", text: source })
      ]));
    });
    if (r.factors.length) line.append(element("span", { class: "kv-formula-op", text: "=" }));
    line.append(element("span", { class: "kv-factor kv-result" }, [
      element("span", { class: "kv-factor-value", text: r.result }),
      element("span", { class: "kv-factor-source", text: r.unit })
    ]));
    return line;
  });
  return () => {
    box.replaceChildren(...lines);
    app.formulaValues = now;
  };
}
function windowed(g) {
  return g.cap !== null && g.cap !== void 0 && grows(g) && g.fixed_tokens === void 0;
}
function withoutWindows(shape) {
  const unwindowed = (g) => (
    /** @type {LayerGroup} */
    /** @type {unknown} */
    { ...g, cap: null }
  );
  return { ...shape, groups: shape.groups.map((g) => windowed(g) ? unwindowed(g) : g) };
}
function drawnParts(b, kinds, floor, i) {
  const v = Object.fromEntries(kinds.map((k) => [k, Number(b[k] || 0n) / 1e9]));
  const biggest = kinds.reduce((a, k) => v[k] > v[a] ? k : a, kinds[0]);
  const thin = /* @__PURE__ */ new Set();
  for (const k of kinds) {
    if (k !== biggest && v[k] > 0 && v[k] < floor && v[biggest] - (floor - v[k]) >= 2 * floor) {
      v[biggest] -= floor - v[k];
      v[k] = floor;
      thin.add(k);
    }
  }
  return { v, thin, i };
}
function thinPartLabels(app, { kinds, names, drawn, chosen, byCtx, totals, floor, top, bars }) {
  const s = app.scale();
  const annotations = [];
  const plotWidth = Math.max(0, (app.plot.clientWidth || 700) - 92 * s);
  const barPx = 0.8 * plotWidth / bars;
  const pxPerGB = (360 * s - 86 * s) / (top * 1.08);
  let below = 0;
  for (const k of kinds) {
    const d = drawn[chosen];
    const at = below;
    below += d.v[k];
    if (!d.thin.has(k)) continue;
    const size = fmtBytes(byCtx[chosen][k]);
    const wideOf = (words) => Math.max(...words.map((w) => w.length), size.length + 2) * 12 * s * 0.6;
    const rows = wideOf([names[k]]) < barPx - 6 * s ? [names[k]] : names[k].split(" ");
    const text = `${rows.join("<br>")}<br>${size} ↓`;
    const roomAbove = (totals[chosen] - at - floor) * pxPerGB;
    if (wideOf(rows) < barPx - 6 * s && roomAbove > (rows.length + 1) * 20 * s) {
      const over = kinds.find((o) => o !== k && !d.thin.has(o)) || k;
      annotations.push({
        x: chosen,
        y: at + floor,
        yanchor: "bottom",
        yshift: 2 * s,
        showarrow: false,
        text,
        font: { color: inkOn(conceptColor(over)) }
      });
    }
  }
  return annotations;
}
function buildControls7(app) {
  modelSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app);
  resetButton(app);
  const outBpt = app.readout("bytes_per_token", "Each token adds:");
  const outMha = app.readout("mha_bytes_per_token", "If every query head kept its own K and V:");
  const outSeq = app.readout("kv_bytes", "One conversation:");
  const outSaving = app.readout("window_saving", "Without its windows:");
  const savingItem = (
    /** @type {HTMLElement} */
    outSaving.parentElement
  );
  const formula = element("div", { class: "kv-formula", role: "group", "aria-label": "bytes per token, factor by factor" });
  app.readouts.after(formula);
  return { outBpt, outMha, outSeq, outSaving, savingItem, formula };
}
function windowSaving(full, seq, context, bits) {
  const none = Number(kvBytes(full, context, bits));
  const saved = none > 0 ? Math.round(100 * (none - Number(seq)) / none) : 0;
  return `${fmtBytes(none)}; the windows save ${saved}%`;
}
function render10({ model, el }) {
  const app = createApp({ model, el }, "How many bytes does each token add to the KV cache?");
  const { outBpt, outMha, outSeq, outSaving, savingItem, formula } = buildControls7(app);
  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const context = checkInt("context", model.get("context"), 1);
    const bpt = kvBytesPerToken(shape, bits);
    const showFormula = formulaBox(app, formula, shape, bits);
    const lines = shape.groups.map((g) => ({ text: formulaLine(g, bits) }));
    const hasWindow = shape.groups.some(windowed);
    if (hasWindow) {
      lines.push({ text: `Past every window each token adds ${fmtBytes(bpt)} (${Number(bpt).toLocaleString("en-US")} B).`, cls: "kv-note" });
    }
    const texts = perTokenReadouts(shape, bits);
    const contexts = [...axisValues(app, "bar_contexts")];
    if (!contexts.includes(context)) contexts.push(context);
    contexts.sort((a, b) => a - b);
    const chosen = contexts.indexOf(context);
    const kinds = [...new Set(shape.groups.map((g) => g.kind))];
    const gb = (b) => Number(b) / 1e9;
    const byCtx = contexts.map((c) => bytesByKind(shape, c, bits));
    const totals = contexts.map((c) => gb(kvBytes(shape, c, bits)));
    const full = hasWindow ? withoutWindows(shape) : null;
    const ghosts = full ? contexts.map((c) => gb(kvBytes(full, c, bits))) : [];
    const top = Math.max(...totals, ...ghosts);
    const seq = kvBytes(shape, context, bits);
    const floor = MIN_SHARE * top;
    const drawn = byCtx.map((b, i) => drawnParts(b, kinds, floor, i));
    const t = app.theme();
    const s = app.scale();
    const names = Object.fromEntries(kinds.map((k) => [k, KIND_NAMES[k] || k]));
    const traces = kinds.map((k) => ({
      type: "bar",
      // a part drawn taller than it is says so, with its true size at the chosen length
      name: names[k] + (drawn.some((d) => d.thin.has(k)) ? ` (${fmtBytes(byCtx[chosen][k] || 0n)} at ${fmtTokens(context)}; drawn taller where too thin)` : ""),
      x: contexts.map((c) => c === context ? `${fmtTokens(c)} (chosen)` : fmtTokens(c)),
      y: drawn.map((d) => d.v[k]),
      customdata: byCtx.map((b) => fmtBytes(b[k] || 0n)),
      // the chosen context keeps its kind's colour and gets an outline
      marker: { color: conceptColor(k), line: { color: t.fg, width: contexts.map((c) => c === context ? 2 : 0) } },
      hovertemplate: "%{x}: %{customdata}<extra>" + names[k] + "</extra>"
    }));
    const shapes = [];
    if (full) {
      ghosts.forEach((g, i) => shapes.push({
        type: "rect",
        layer: "below",
        xref: "x",
        yref: "y",
        x0: i - 0.4,
        x1: i + 0.4,
        y0: 0,
        y1: g,
        line: { color: t.fg2, width: 1.5 * s, dash: "dash" }
      }));
      traces.push({
        type: "scatter",
        mode: "lines",
        name: "every layer full (no windows)",
        x: [null],
        y: [null],
        hoverinfo: "skip",
        line: { color: t.fg2, width: 1.5 * s, dash: "dash" }
      });
    }
    const annotations = thinPartLabels(app, { kinds, names, drawn, chosen, byCtx, totals, floor, top, bars: contexts.length });
    lines.push(...limitLines(shape, { context }));
    showFormula();
    app.say(lines);
    outBpt.textContent = texts.bytes_per_token;
    outMha.textContent = texts.mha_bytes_per_token;
    outSeq.textContent = `${fmtBytes(seq)} at ${context.toLocaleString("en-US")} tokens`;
    if (full) app.readouts.append(savingItem);
    else savingItem.remove();
    outSaving.textContent = full ? windowSaving(full, seq, context, bits) : "";
    app.describeFigure(
      `KV cache of one ${shape.name} conversation at ${contexts.map(fmtTokens).join(", ")} tokens, by kind of layer`,
      `Each token adds ${texts.bytes_per_token}; at ${fmtTokens(context)} tokens one conversation holds ${fmtBytes(seq)}${kinds.length > 1 ? ` (${kinds.map((k) => `${names[k]} ${fmtBytes(byCtx[chosen][k] || 0n)}`).join(", ")})` : ""}${full ? `; with every layer full it would hold ${outSaving.textContent}` : ""}; from ${fmtBytes(kvBytes(shape, contexts[0], bits))} at ${fmtTokens(contexts[0])} to ${fmtBytes(kvBytes(shape, contexts[contexts.length - 1], bits))} at ${fmtTokens(contexts[contexts.length - 1])}.`
    );
    drawPlot(app, traces, {
      barmode: "stack",
      bargap: 0.2,
      shapes,
      annotations,
      showlegend: kinds.length > 1 || Boolean(full),
      xaxis: { title: { text: "conversation length (tokens)" }, type: "category" },
      yaxis: { title: { text: "KV cache per conversation (GB)" }, range: [0, top * 1.08] }
    });
  };
  return startApp(app);
}
var per_token_default = widgetModule(render10);

// kvwidgets/widgets/js/widgets/users_fit.js
var COUNTABLE2 = 64;
function fitPoint(fit, gpu) {
  const n4 = Number(fit.users);
  const where = `${fit.num_gpus} ${gpu.name}`;
  if (!fit.weights_fit) return `on ${where} the weights (${fmtBytes(fit.weights_bytes)}) do not fit in the usable ${fmtBytes(fit.usable_bytes)}`;
  if (!n4) return `on ${where} no conversation of ${fit.context.toLocaleString("en-US")} tokens fits: it needs ${fmtBytes(fit.kv_per_user_bytes)} and ${fmtBytes(fit.kv_budget_bytes)} is left after the weights`;
  return `${fmtConversations(n4)} of ${fit.context.toLocaleString("en-US")} tokens fit on ${where}; their cache fills ${fmtBytes(fit.kv_used_bytes)} of ${fmtBytes(fit.usable_bytes)} usable, beside ${fmtBytes(fit.weights_bytes)} of weights`;
}
function layout3(fit) {
  const weights = fit.weights_bytes;
  const working = fit.weights_fit ? fit.working_bytes : 0n;
  const n4 = Number(fit.users);
  const conv = n4 > 0 || !fit.weights_fit ? fit.kv_used_bytes : fit.kv_per_user_bytes;
  const end = weights + working + conv;
  const over = end > fit.usable_bytes ? end - fit.usable_bytes : 0n;
  return { weights, working, conv, end, over, n: n4 };
}
var LEGEND_ROWS = (W, s) => W < 760 * s ? 3 : 2;
function memoryLegendLabels(fit, L, group) {
  const n4 = L.n;
  const memory = fit.memory_bytes;
  return [
    ["weights", `weights ${fmtBytes(fit.weights_bytes)}`],
    ...L.working > 0n ? [["working", `working area ${fmtBytes(L.working)}`]] : [],
    ...n4 > 0 ? [["kv", `${fmtConversations(n4)} x ${fmtBytes(fit.kv_per_user_bytes)}${group > 1 ? ` (each block holds ${group})` : ""}`]] : fit.weights_fit ? [["kv", `1 conversation needs ${fmtBytes(fit.kv_per_user_bytes)}; ${fmtBytes(fit.kv_budget_bytes)} is left`]] : [],
    ...L.over ? [["warning", `${fmtBytes(L.over)} past the usable ${fmtBytes(fit.usable_bytes)}`]] : fit.left_over_bytes > 0n ? [["free", `unused ${fmtBytes(fit.left_over_bytes)} (less than one more conversation)`]] : [],
    // the reserve is named only where some of it shows: an overflow past the GPU's end covers it
    ...fit.reserve_bytes > 0n && L.end < memory ? [["reserve", `reserve ${fmtBytes(fit.reserve_bytes)}`]] : []
  ];
}
function memoryBar(app, fit, gpu, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const L = layout3(fit);
  const memory = fit.memory_bytes;
  const span = Number(L.end > memory ? L.end : memory);
  const x = (b) => Number(b) / span * W;
  const h = 30 * s;
  const top = fs * 1.6;
  const parts = [];
  const paint = svgPaint(app, s);
  const n4 = L.n;
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
  const group = n4 <= COUNTABLE2 ? 1 : Math.ceil(n4 / 40);
  const convFrom = x(at);
  if (n4 > 0) {
    for (let i = 0; i < n4; i += group) {
      const k = Math.min(group, n4 - i);
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
  const [inBar, from, to, under] = n4 ? [fmtConversations(n4), convFrom, convTo, conceptColor("kv")] : [fit.weights_fit ? "one conversation does not fit" : "the weights do not fit", x(memory) + 2 * s, x(L.end), conceptColor("warning")];
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
function buildControls8(app) {
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
  return counts.map((n4) => {
    try {
      return usersThatFit(shape, gpu, context, { ...o, numGpus: n4 });
    } catch (e) {
      return { error: (
        /** @type {Error} */
        e.message
      ), num_gpus: n4 };
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
function render11({ model, el }) {
  const app = createApp({ model, el }, "How many conversations fit on these GPUs at once?");
  const { outUsers, outPer, outBudget, outPerToken } = buildControls8(app);
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
    const labels = counts.map((n4) => `${n4} GPU${n4 > 1 ? "s" : ""}${n4 === fit.num_gpus ? " (chosen)" : ""}`);
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
var users_fit_default = widgetModule(render11);

// kvwidgets/widgets/js/all_widgets.js
var all_widgets_default = widgetsByName({
  "cache_transfer": cache_transfer_default,
  "context_users": context_users_default,
  "decode_speed": decode_speed_default,
  "decode_step": decode_step_default,
  "deployment_ranks": deployment_ranks_default,
  "designs": designs_default,
  "memory_trace": memory_trace_default,
  "offload": offload_default,
  "paged_blocks": paged_blocks_default,
  "per_token": per_token_default,
  "users_fit": users_fit_default
});
export {
  all_widgets_default as default
};
