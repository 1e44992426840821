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
function jitter(j) {
  const x = Math.sin((j + 1) * 78.233) * 43758.5453;
  return x - Math.floor(x);
}
var n = (x) => Number(x).toLocaleString("en-US");
var pct = (x) => `${(x * 100).toLocaleString("en-US", { maximumFractionDigits: x < 1 && x > 0.9995 ? 3 : 1 })}%`;
var plural = (k, word) => `${n(k)} ${word}${Number(k) === 1 ? "" : "s"}`;
function buildControls(app) {
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
    conflicts.push([["prefix_tokens", "used_tokens"], `The shared prefix (prefix_tokens, ${n(prefix)}) must be shorter than the tokens used (used_tokens, ${n(used)}): each conversation adds tokens of its own after it.`]);
  }
  if (whole(used) && whole(maxLen) && used > maxLen) {
    conflicts.push([["context", "context-box", "used_tokens"], `The tokens used (used_tokens, ${n(used)}) must fit in the maximum length a reservation holds (context, ${n(maxLen)}).`]);
  }
  return conflicts;
}
function layout(app, p) {
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
    resRow.append(label(x0 + p.used_tokens * scale + 6 * s, y + h * 0.7, `taken but empty: ${pct(p.reserved_waste)}`, { fill: t.fg }));
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
  lastRow.append(label(0, y + h * 0.7, `last block (no. ${n(p.paged_blocks)})`));
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
  const lastText = `${p.last_block_tokens} of ${bs} slots used: paging wastes ${pct(p.paged_waste)}`;
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
  const perm = Array.from({ length: M }, (_, j) => j).sort((a, b) => jitter(a) - jitter(b));
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
      label(0, y + h * 0.7, `conversation ${u + 1}: ${n(p.own_blocks)} own`),
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
  y = heading(f, `${plural(p.users, "conversation")} whose requests start with the same ${n(p.prefix_tokens)} tokens`, y);
  const sharing = !(p.users_paged === 0n || p.users_sharing === 0n);
  const sharingBottom = keepsHeight ? y + h + 6 * s + USERS_DRAWN * (h + 4 * s) + fs * 1.4 : 0;
  if (!sharing) {
    const none = `No request of ${n(p.used_tokens)} tokens fits in the cache memory${p.users_paged > 0n ? " beside the shared prefix" : ""}, so no conversations share it here.`;
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
function drawLegend(f, y, sharing) {
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
function drawFigure(app, f, gpuName) {
  const { p, t, W } = f;
  let y = heading(f, `One request: ${n(p.used_tokens)} tokens used, up to ${n(p.reserved_tokens)} allowed`, 0);
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
  const H = drawLegend(f, shared.y, shared.sharing);
  return svgElement("svg", {
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "font-family": t.font,
    "aria-label": `${n(p.users_reserved)} requests fit reserving ${n(p.reserved_blocks)} blocks each (${pct(p.reserved_waste)} empty), ${n(p.users_paged)} paging ${n(p.paged_blocks)} blocks each (${pct(p.paged_waste)} empty); a shared prefix stores ${n(p.blocks_shared)} blocks for ${plural(p.users, "conversation")} in place of ${n(p.blocks_unshared)}.${tableWords}`
  }, f.parts);
}
function textLines(p, shape, kvDtype) {
  const bs = p.block_size;
  const lines = [
    { text: `reserving: ${n(p.reserved_blocks)} blocks per request, ${pct(p.reserved_waste)} of them empty; ${plural(p.users_reserved, "request")} fit` },
    { text: `paging: ${n(p.paged_blocks)} blocks per request, ${pct(p.paged_waste)} empty (only the last block); ${plural(p.users_paged, "request")} fit` },
    { text: `sharing: ${n(p.shared_blocks)} shared + ${n(p.users)} x ${n(p.own_blocks)} own = ${n(p.blocks_shared)} blocks instead of ${n(p.blocks_unshared)}; ${plural(p.users_sharing, "such request")} fit` },
    { text: `A block holds ${bs} tokens' keys and values in every layer: ${fmtBytes(p.block_bytes)} for ${shape.name} in ${kvDtype.toUpperCase()}. Only whole blocks of the prefix are shared; its part-filled last block is each conversation's own.`, cls: "kv-note" },
    { text: "The block table: each request keeps a list of its blocks' numbers in memory, so its blocks need not lie together. vLLM's block pool hands a request the blocks at the head of its queue of free blocks, and a finished request's blocks rejoin that queue, so once the engine has run a while a request's blocks are scattered. The numbers drawn are an illustration of that, not a trace.", cls: "kv-note" }
  ];
  if (shape.groups.some((g) => g.cap !== null && g.cap !== void 0)) {
    lines.push({ text: `${shape.name} has windowed layers: blocks are counted as if every layer kept every token, the most paging can need; an engine frees a window's blocks once they slide out.`, cls: "kv-note" });
  }
  if (shape.max_context && p.reserved_tokens > shape.max_context) {
    lines.push({ text: `A maximum length of ${n(p.reserved_tokens)} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${n(shape.max_context)}).`, cls: "kv-warn" });
  }
  if (p.kv_budget_bytes >= 0n && p.users_paged === 0n) {
    lines.push({ text: `Not even one request of ${n(p.used_tokens)} tokens fits in the cache memory.`, cls: "kv-warn" });
  } else if (p.kv_budget_bytes >= 0n && p.users_reserved === 0n) {
    lines.push({ text: `Not even one reservation of ${n(p.reserved_tokens)} tokens fits in the cache memory.`, cls: "kv-warn" });
  }
  return lines;
}
function render({ model, el }) {
  const app = createApp({ model, el }, "Memory in blocks: reserving vs paging, and a shared prefix");
  const outs = buildControls(app);
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
    const f = layout(app, p);
    const svg = drawFigure(app, f, gpu.name);
    const lines = textLines(p, shape, model.get("kv_dtype"));
    if (p.kv_budget_bytes < 0n) {
      app.failure(`The weights of ${shape.name} do not fit in one ${gpu.name} at 90% utilization: no memory is left for the cache, so no request fits. Try FP8 weights or a larger GPU.`);
    }
    app.say(lines);
    outs.blocks.textContent = `${n(p.paged_blocks)} paged, ${n(p.reserved_blocks)} reserved`;
    outs.waste.textContent = `paged ${pct(p.paged_waste)}, reserved ${pct(p.reserved_waste)}`;
    outs.users.textContent = p.kv_budget_bytes < 0n ? "none (the model does not load)" : `paging ${n(p.users_paged)}, reserving ${n(p.users_reserved)}`;
    markHolds(values, p.kv_budget_bytes < 0n);
    outs.share.textContent = `${n(p.blocks_shared)} blocks for ${plural(p.users, "conversation")} (${n(p.blocks_unshared)} unshared)`;
    app.diagram.replaceChildren(svg);
    app.drawnWidth = f.W;
  };
  return startApp(app);
}
var paged_blocks_default = widgetModule(render);
export {
  paged_blocks_default as default
};
