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
    const n = (v) => Number(v).toLocaleString("en-US");
    const numbers = latent ? `${n(g0.latent)} numbers/layer` : `2 x ${kv} x ${g0.head_k} = ${n(2 * kv * g0.head_k)} numbers/layer`;
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
  const n = (x) => Number(x).toLocaleString("en-US");
  const byMax = /* @__PURE__ */ new Map();
  for (const [name, s] of real) {
    if (s.max_context && long > s.max_context) byMax.set(s.max_context, [...byMax.get(s.max_context) || [], name]);
  }
  if (!byMax.size) return [];
  const and = (xs) => xs.length < 2 ? xs[0] : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
  const count = [...byMax.values()].flat().length;
  const clauses = [...byMax].map(([max, names]) => `${and(names)} ${names.length === 1 ? "was" : "were"} trained for ${n(max)} tokens (max_position_embeddings)`);
  return [{ text: `${clauses.join("; ")}, not ${n(long)}: ${count === 1 ? "its bar holds for the memory, not for the model's" : "their bars hold for the memory, not for the models'"} quality.`, cls: "kv-warn" }];
}
function textLines(labels, perToken, real, bits, win, long) {
  const lines = labels.map((l, i) => ({ text: `${l.padEnd(20)} ${fmtBytes(perToken[i]).padStart(11)} per token${i === 4 ? " past the window (the sliding half holds at most " + win + " tokens)" : ""}` }));
  for (const [n, s] of real) {
    const capped = s.groups.some((g) => g.cap !== null && g.cap !== void 0);
    lines.push({ text: `${n.padEnd(20)} ${fmtBytes(kvBytesPerToken(s, bits)).padStart(11)} per token${capped ? " past its windows" : ""}` });
  }
  lines.push({ text: "Designs on the Llama 3 8B shape: 32 layers, 32 query heads, 128 head dim; GQA keeps 8 KV heads, MQA 1, MLA DeepSeek-V3's 512 + 64 latent.", cls: "kv-note" });
  lines.push(...pastTrainedLength(real, long));
  return lines;
}
function render({ model, el }) {
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
    const real = (model.get("real") || []).map((n) => [n, L.shape(n)]);
    const perToken = shapes.map((s) => kvBytesPerToken(s, bits));
    const t = app.theme();
    const sc = app.scale();
    const gb = (shape, tokens) => Number(kvBytes(shape, tokens, bits)) / 1e9;
    const GAP = " ";
    const realNames = real.map(([n]) => n);
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
    const lines = textLines(labels, perToken, real, bits, win, long);
    const headsWidth = diagramWidth(app);
    const headsKey = JSON.stringify([labels, perToken.map(String), headsWidth, sc, t]);
    const headsSvg = headsKey === drawnHeads ? null : headSharing(app, L, labels, perToken, headsWidth);
    app.say(lines);
    if (headsSvg) {
      heads.replaceChildren(headsSvg);
      drawnHeads = headsKey;
    }
    outDesign.textContent = labels.map((l, i) => `${l.split(" ")[0]} ${fmtBytes(perToken[i])}`).join(" · ");
    const longest = Math.max(...rows.map((n) => String(n).length));
    const range = xScale === "log" ? void 0 : [0, top * 1.04];
    const gbText = (v) => `${v.toLocaleString("en-US", { maximumFractionDigits: 2 })} GB`;
    outLong.textContent = `${fmtTokens(long)} tokens: ${labels.map((l, i) => `${l.split(" ")[0]} ${gbText(gb(shapes[i], long))}`).join(" · ")}`;
    app.describeFigure(
      `KV cache of one conversation at ${fmtTokens(short)} and ${fmtTokens(long)} tokens, per attention design and real model`,
      `At ${fmtTokens(long)} tokens one conversation's cache is ${rows.flatMap((n, i) => rowShapes[i] ? [`${n} ${gbText(gb(rowShapes[i], long))}`] : []).join(", ")}.`
    );
    const heading = (text, yref, y, yanchor) => ({
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
        heading("Designs, all on Llama 3 8B's shape", "paper", 1, "bottom"),
        heading("Real models", "y", labels.length, "middle")
        // in the empty row (category index)
      ],
      xaxis: { type: xScale, range, title: { text: `KV cache per conversation (GB, ${xScale} scale)` } },
      yaxis: { type: "category", autorange: "reversed" },
      legend: { orientation: "h", yanchor: "top", y: -0.16, font: { color: t.fg } }
    });
  };
  return startApp(app);
}
var designs_default = widgetModule(render);
export {
  designs_default as default
};
