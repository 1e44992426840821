// Built by scripts/build_js.mjs from kvwidgets/widgets/js: edit those files, not this one (DEVELOP.md).

// kvwidgets-library:library_binding
var CONCEPT_COLORS;
var CONTEXT_STEPS;
var KEYED_TAGS;
var KVInputError;
var PAGE_DARK;
var PAGE_LIGHT;
var SCALE;
var SVG_NS;
var accentColor;
var activeParams;
var axisValues;
var big;
var billionsBox;
var blockPlan;
var blocksFor;
var bytesByKind;
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
var decodeWeightParams;
var diagramBox;
var diagramWidth;
var drawPlot;
var dtypeBits;
var dtypeColor;
var dtypeSelect;
var element;
var endLabels;
var exactDouble;
var fitMessage;
var fixedBytes;
var floatSlider;
var floorDiv;
var fmtBytes;
var fmtGB;
var fmtTokens;
var gpuCount;
var gpuMemory;
var gpuSelect;
var groupBits;
var groupBytesPerToken;
var grows;
var inkOn;
var inputNames;
var intBox;
var isFocused;
var kvBytes;
var kvBytesPerToken;
var kvBytesPerTokenWithinWindows;
var kvHeadsPerGpu;
var labelled;
var limitLines;
var luminance;
var makeLookup;
var maxContext;
var memoryBudget;
var modelSelect;
var moreFold;
var notePlotlyProblem;
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
var startApp;
var svgElement;
var themeKey;
var themeSource;
var tierGbps;
var tokenBits;
var tokensHeld;
var tryModelCall;
var usersStaircase;
var usersThatFit;
var utilizationFraction;
var utilizationSlider;
var weightBytes;
var LIBRARY_HASH = "169088559db87243";
var inlinedLibrary = null;
function bindLibrary(lib) {
  ({ CONCEPT_COLORS, CONTEXT_STEPS, KEYED_TAGS, KVInputError, PAGE_DARK, PAGE_LIGHT, SCALE, SVG_NS, accentColor, activeParams, axisValues, big, billionsBox, blockPlan, blocksFor, bytesByKind, ceilDiv, checkInt, conceptColor, contextControl, contextGrid, contextToPosition, createApp, decimalFraction, decodeCeiling, decodeFits, decodeStepBytes, decodeWeightParams, diagramBox, diagramWidth, drawPlot, dtypeBits, dtypeColor, dtypeSelect, element, endLabels, exactDouble, fitMessage, fixedBytes, floatSlider, floorDiv, fmtBytes, fmtGB, fmtTokens, gpuCount, gpuMemory, gpuSelect, groupBits, groupBytesPerToken, grows, inkOn, inputNames, intBox, isFocused, kvBytes, kvBytesPerToken, kvBytesPerTokenWithinWindows, kvHeadsPerGpu, labelled, limitLines, luminance, makeLookup, maxContext, memoryBudget, modelSelect, moreFold, notePlotlyProblem, numbersPerToken, pageScheme, paramsBox, paramsOverride, perTokenReadouts, plotLayout, positionToContext, prefillSeconds, rampColor, readTheme, recomputeCrossover, reloadSeconds, resetButton, selectControl, setTextLines, startApp, svgElement, themeKey, themeSource, tierGbps, tokenBits, tokensHeld, tryModelCall, usersStaircase, usersThatFit, utilizationFraction, utilizationSlider, weightBytes } = lib);
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
    /** @param {RenderContext} ctx */
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
var KIND_NAMES = { full: "full attention", sliding: "sliding window", chunked: "chunked local", mla: "MLA latent", recurrent: "recurrent state" };
var MAX_CELLS = 160;
var MAX_TOKENS = 2 ** 20;
var TICK_MS = 50;
function kindName(kind) {
  return KIND_NAMES[kind] || `${kind} layer`;
}
function stripsOf(g) {
  if (g.kv_heads !== void 0) {
    return [{ name: "K", numbers: g.kv_heads * g.head_k }, { name: "V", numbers: g.kv_heads * g.head_v }];
  }
  if (g.latent !== void 0) return [{ name: "latent", numbers: g.latent }];
  return [];
}
function rowLabel(g) {
  if (g.kv_heads !== void 0) {
    const heads = `${g.kv_heads} KV head${g.kv_heads === 1 ? "" : "s"}`;
    return g.head_k === g.head_v ? `K and V rows: ${heads} x ${g.head_k}` : `K: ${heads} x ${g.head_k}, V: x ${g.head_v}`;
  }
  if (g.latent !== void 0) return `one latent row of ${g.latent} numbers`;
  if (Number(g.fixed_bytes || 0) > 0) return "no rows per token";
  return "";
}
function stripHeight(numbers, s) {
  return Math.max(4, Math.min(36, 28 * numbers / 2048)) * s;
}
function groupLine(g, step, bits, T) {
  const n = (x) => Number(x).toLocaleString("en-US");
  const name = kindName(g.kind);
  const layers = `${n(g.count)} layer${g.count === 1 ? "" : "s"}`;
  if (g.kv_heads === void 0 && g.latent === void 0) {
    const fixed = Number(g.fixed_bytes || 0);
    return fixed ? `${name} x ${layers}: a fixed state of ${fmtBytes(fixed)} each, whatever the length; ${fmtBytes(step.bytes)} in all` : `${name} x ${layers}: nothing stored per token`;
  }
  const held = step.cap === null ? `every one of the ${n(T)} tokens` : `${n(step.held_tokens)} of ${n(T)} tokens (window ${n(step.cap)})`;
  const dropped = step.dropped_tokens ? `, ${n(step.dropped_tokens)} dropped` : "";
  return `${name} x ${layers}: each holds ${held}${dropped}; ${fmtBytes(step.bytes)} in all (${fmtBytes(groupBytesPerToken(g, bits))} per token)`;
}
function render({ model, el }) {
  const app = createApp({ model, el }, "One decode step at a time: the cache of one conversation");
  modelSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  intBox(app, "prompt_tokens", "Prompt (tokens)", { min: 1, max: MAX_TOKENS });
  selectControl(app, "speed", "Speed", () => axisValues(app, "speeds").map((v) => [v, `${v} steps/s`]), ["axes"]);
  const play = element("button", { type: "button", class: "kv-play", "data-kv": "play", "aria-pressed": "false", text: "Play" });
  const stepBtn = element("button", { type: "button", class: "kv-step", "data-kv": "step", text: "Step" });
  app.controls.append(play, stepBtn);
  const reset = resetButton(app);
  const outTokens = app.readout("tokens", "Tokens so far:");
  const outStored = app.readout("stored_bytes", "Stored:");
  const outRead = app.readout("read_bytes", "Read by this step:");
  const outWritten = app.readout("written_bytes", "Written by this step:");
  const stopWatch = diagramBox(app);
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
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
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
        app.fail(e.message || String(e));
      }
    }, period);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
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
  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const P = checkInt("prompt_tokens", model.get("prompt_tokens"), 1);
    const G = checkInt("generated", model.get("generated"), 0);
    if (P > MAX_TOKENS) throw new KVInputError(`prompt_tokens must be at most ${MAX_TOKENS.toLocaleString("en-US")}, got ${P.toLocaleString("en-US")}`);
    const st = decodeStepBytes(shape, P, G, bits);
    const T = st.tokens;
    const decoding = st.phase === "decode";
    const perGroup = Number(axisValues(app, "layers_per_group")[0]) || 2;
    const t = app.theme();
    const s = app.scale();
    const W = diagramWidth(app);
    const fs = 12 * s;
    const stacked = W < 760 * s;
    const labelW = stacked ? 0 : 230 * s;
    const qW = 64 * s;
    const x0 = labelW;
    const x1 = W - qW - 14 * s;
    const stripW = Math.max(40, x1 - x0);
    const cellW = stripW / T;
    const xOf = (i) => x0 + i * cellW;
    const accent = accentColor(app);
    const parts = [];
    let y = 0;
    const header = svgElement("g", { class: "kv-dst-header" });
    const axisY = 14 * s;
    const barY = axisY + 6 * s;
    header.append(
      svgElement("text", { x: x0, y: axisY, "font-size": fs, fill: t.fg2, text: "token 1" }),
      svgElement("text", { x: x1, y: axisY, "font-size": fs, fill: t.fg2, "text-anchor": "end", text: `token ${T.toLocaleString("en-US")}` }),
      svgElement("line", { x1: x0, x2: xOf(P), y1: barY, y2: barY, stroke: t.fg2, "stroke-width": 3 * s }),
      svgElement("text", { x: x0, y: barY + fs * 1.2, "font-size": fs, fill: t.fg, text: `prompt: ${P.toLocaleString("en-US")} (prefill)` })
    );
    if (G > 0) {
      header.append(
        svgElement("line", { x1: xOf(P), x2: x1, y1: barY, y2: barY, stroke: accent, "stroke-width": 3 * s }),
        svgElement("text", { x: x1, y: barY + fs * 1.2, "font-size": fs, fill: t.fg, "text-anchor": "end", text: `+ ${G.toLocaleString("en-US")} generated` })
      );
    }
    header.append(svgElement("text", { x: x1 + 8 * s, y: axisY, "font-size": fs, fill: t.fg2, text: "query" }));
    parts.push(header);
    y = barY + fs * 2;
    shape.groups.forEach((g, gi) => {
      const gs = st.groups[gi];
      const color = conceptColor(g.kind);
      const strips = stripsOf(g);
      const drawn = Math.min(g.count, perGroup);
      for (let li = 0; li < drawn; li++) {
        const row = svgElement("g", { class: "kv-dst-layer", "data-kind": g.kind, "data-held": gs.held_tokens, "data-dropped": gs.dropped_tokens });
        const rowTop = y;
        row.append(
          svgElement("text", { x: 0, y: y + fs, "font-size": fs, fill: t.fg, "font-weight": 600, text: `${kindName(g.kind)} ${li + 1} of ${g.count.toLocaleString("en-US")}` }),
          svgElement("text", { x: 0, y: y + 2.15 * fs, "font-size": fs * 0.85, fill: t.fg2, text: rowLabel(g) })
        );
        const labelH = 2.5 * fs;
        if (stacked) y += labelH;
        if (strips.length) {
          const stripsH = strips.reduce((a, st2) => a + stripHeight(st2.numbers, s) + 3 * s, 0);
          if (!stacked) y += Math.max(0, (labelH - stripsH) / 2);
          const first = T - gs.held_tokens;
          for (const strip of strips) {
            const h = stripHeight(strip.numbers, s);
            if (first > 0) {
              row.append(svgElement("rect", {
                class: "kv-dst-dropped",
                x: xOf(0),
                y,
                width: Math.max(1, xOf(first) - xOf(0)),
                height: h,
                fill: "none",
                stroke: t.fg2,
                "stroke-dasharray": `${3 * s} ${3 * s}`,
                "stroke-width": 1
              }));
            }
            if (T <= MAX_CELLS) {
              for (let i = first; i < T; i++) {
                row.append(svgElement("rect", {
                  class: i === T - 1 && decoding ? "kv-dst-new" : "kv-dst-row",
                  x: xOf(i),
                  y,
                  width: Math.max(1, cellW),
                  height: h,
                  fill: color,
                  "fill-opacity": i < P ? 0.55 : 0.95,
                  stroke: t.bg,
                  "stroke-width": cellW > 4 ? 1 : 0
                }));
              }
            } else {
              const promptEnd = Math.max(first, Math.min(P, T));
              if (promptEnd > first) {
                row.append(svgElement("rect", { class: "kv-dst-row", x: xOf(first), y, width: xOf(promptEnd) - xOf(first), height: h, fill: color, "fill-opacity": 0.55 }));
              }
              if (T > promptEnd) {
                row.append(svgElement("rect", { class: "kv-dst-row", x: xOf(promptEnd), y, width: xOf(T) - xOf(promptEnd), height: h, fill: color, "fill-opacity": 0.95 }));
              }
              if (decoding) {
                const w = Math.max(3 * s, cellW);
                row.append(svgElement("rect", { class: "kv-dst-new", x: xOf(T) - w, y, width: w, height: h, fill: color, stroke: t.fg, "stroke-width": 1.5 * s }));
              }
            }
            if (decoding && T <= MAX_CELLS) {
              row.append(svgElement("rect", { x: xOf(T - 1), y, width: Math.max(3 * s, cellW), height: h, fill: "none", stroke: t.fg, "stroke-width": 1.5 * s }));
            }
            y += h + 3 * s;
          }
          const stripsTop = stacked ? rowTop + labelH : rowTop + Math.max(0, (labelH - stripsH) / 2);
          const rowH = y - stripsTop;
          if (decoding) {
            row.append(svgElement("rect", {
              class: "kv-dst-read",
              x: xOf(first) - 2,
              y: stripsTop - 2,
              width: xOf(T) - xOf(first) + 4,
              height: rowH - 3 * s + 4,
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
            height: Math.max(8 * s, rowH - 3 * s),
            fill: "none",
            stroke: color,
            "stroke-dasharray": `${3 * s} ${2 * s}`,
            "stroke-width": 1.5 * s
          }));
          row.append(svgElement("text", { x: x1 + 34 * s, y: stripsTop + Math.max(8 * s, rowH - 3 * s) / 2 + fs * 0.35, "font-size": fs * 0.85, fill: t.fg2, text: "q" }));
          if (first > 0 && xOf(first) - xOf(0) > 70 * s) {
            row.append(svgElement("text", { x: (xOf(0) + xOf(first)) / 2, y: stripsTop + (rowH - 3 * s) / 2 + fs * 0.35, "font-size": fs * 0.85, fill: t.fg2, "text-anchor": "middle", text: "dropped" }));
          }
          if (!stacked) y = Math.max(y, rowTop + labelH);
        } else if (Number(g.fixed_bytes || 0) > 0) {
          const h = 22 * s;
          row.append(svgElement("rect", {
            class: "kv-dst-state",
            x: x0,
            y,
            width: Math.min(stripW, 90 * s),
            height: h,
            fill: color,
            "fill-opacity": decoding ? 0.95 : 0.55,
            stroke: decoding ? accent : "none",
            "stroke-width": 1.5 * s
          }));
          row.append(svgElement("text", {
            x: x0 + Math.min(stripW, 90 * s) + 8 * s,
            y: y + h / 2 + fs * 0.35,
            "font-size": fs * 0.85,
            fill: t.fg2,
            text: `fixed state, ${fmtBytes(Number(g.fixed_bytes))}: ${decoding ? "read and rewritten" : "written"} every step, never grows`
          }));
          y += (stacked ? h : Math.max(h, labelH)) + 3 * s;
        } else {
          row.append(svgElement("text", { x: x0, y: y + fs, "font-size": fs * 0.85, fill: t.fg2, text: "stores nothing per token" }));
          y += stacked ? fs * 1.4 : labelH;
        }
        parts.push(row);
        y += 8 * s;
      }
      if (g.count > drawn) {
        parts.push(svgElement("text", {
          class: "kv-dst-more",
          x: 0,
          y: y + fs * 0.2,
          "font-size": fs * 0.85,
          fill: t.fg2,
          text: `+ ${(g.count - drawn).toLocaleString("en-US")} more ${kindName(g.kind)} layers like these (counted in every total)`
        }));
        y += fs * 1.4;
      }
      y += 6 * s;
    });
    let legendY = y + 6 * s;
    const legend = svgElement("g", { class: "kv-dst-legend" });
    let lx = 0;
    const item = (mark, text) => {
      const w = 18 * s + text.length * fs * 0.5;
      if (lx > 0 && lx + w > W) {
        lx = 0;
        legendY += 20 * s;
      }
      legend.append(mark(lx), svgElement("text", { x: lx + 18 * s, y: legendY + 10 * s, "font-size": fs * 0.85, fill: t.fg2, text }));
      lx += w + 16 * s;
    };
    const sw = 12 * s;
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: t.fg2, "fill-opacity": 0.55 }), "prompt rows (prefill)");
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: t.fg2, "fill-opacity": 0.95 }), "generated rows");
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: accent, "stroke-width": 1.5 * s }), "read by this step");
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: t.fg2, "stroke-dasharray": `${3 * s} ${2 * s}` }), "not kept (query, dropped rows)");
    const H = legendY + 22 * s;
    const svg = svgElement("svg", {
      width: W,
      height: H,
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "font-family": t.font,
      "aria-label": `${shape.name}: ${T.toLocaleString("en-US")} tokens, ${fmtBytes(st.stored_bytes)} stored`
    }, [...parts, legend]);
    const lines = shape.groups.map((g, gi) => ({ text: groupLine(g, st.groups[gi], bits, T) }));
    lines.push({ text: decoding ? "This step: every layer computes the new token's query, key and value (MLA: one latent); the new rows are kept, the query is used against every row held, then dropped." : `Prefill: the keys and values of all ${P.toLocaleString("en-US")} prompt tokens are computed and stored at once. Play or Step to decode.`, cls: "kv-note" });
    if (shape.max_context && T > shape.max_context) {
      lines.push({ text: `${T.toLocaleString("en-US")} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${shape.max_context.toLocaleString("en-US")}).`, cls: "kv-warn" });
    }
    app.say(lines);
    outTokens.textContent = `${T.toLocaleString("en-US")} (${P.toLocaleString("en-US")} prompt + ${G.toLocaleString("en-US")} generated)`;
    outStored.textContent = fmtBytes(st.stored_bytes);
    outRead.textContent = decoding ? fmtBytes(st.read_bytes) : "none yet (prefill)";
    outWritten.textContent = fmtBytes(st.written_bytes);
    app.diagram.replaceChildren(svg);
    app.drawnWidth = W;
  };
  const stop = startApp(app);
  return () => {
    pause();
    stopWatch();
    stop();
  };
}
var decode_step_default = widgetModule(render);
export {
  decode_step_default as default
};
