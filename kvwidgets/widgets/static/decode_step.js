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
  const windowed = keyed.some((g) => Number(g.cap) > 0);
  const full = keyed.some((g) => !(Number(g.cap) > 0));
  if (want === "windowed" && !windowed && full) return "full";
  if (want === "full" && !full && windowed) return "windowed";
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
function buildControls(app, model) {
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
  const windowed = keyed.filter(isWindowed);
  const full = keyed.filter((k) => !isWindowed(k));
  const pick = want === "windowed" ? windowed[0] || full[0] : full[0] || windowed[0];
  const missing = want === "windowed" && !windowed.length ? `${shape.name} has no windowed layer: a full one is shown` : want === "full" && !full.length ? `every layer of ${shape.name} has a window: a windowed one is shown` : "";
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
function readInputs(model) {
  const P = checkInt("prompt_tokens", model.get("prompt_tokens"), 1);
  const G = checkInt("generated", model.get("generated"), 0);
  if (P > MAX_TOKENS) throw new KVInputError(`prompt_tokens must be at most ${MAX_TOKENS.toLocaleString("en-US")}, got ${P.toLocaleString("en-US")}`);
  const want = String(model.get("attention_layer"));
  if (want !== "windowed" && want !== "full") throw new KVInputError(`attention_layer must be 'windowed' or 'full', got '${want}'`);
  return { P, G, want };
}
function render({ model, el }) {
  const app = createApp({ model, el }, "One decode step at a time: the cache of one conversation");
  const { play, stepBtn, reset, outs } = buildControls(app, model);
  const pause = wirePlayback(app, model, { play, stepBtn, reset });
  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const { P, G, want } = readInputs(model);
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
var decode_step_default = widgetModule(render);
export {
  decode_step_default as default
};
