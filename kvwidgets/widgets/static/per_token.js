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

// kvwidgets/widgets/js/widgets/per_token.js
var MIN_SHARE = 0.02;
function compressedLine(g, per) {
  const n = (x) => Number(x).toLocaleString("en-US");
  const window2 = `window of ${n(g.window)} tokens x ${g.entry_bytes} B`;
  if (g.ratio === 1) return `${KIND_NAMES.compressed}: ${g.count} layers, ${window2} only`;
  const index = g.index_bytes ? ` + ${g.index_bytes} B indexer key` : "";
  return `${KIND_NAMES.compressed}: ${g.count} layers x (${g.entry_bytes} B entry${index}) / ${g.ratio} tokens = ${n(per)} B, plus a ${window2} and a compressor state of ${n(g.state_window)} x ${n(g.state_token_bytes)} B`;
}
function formulaLine(g, bits) {
  const bytes = bits / 8;
  const per = groupBytesPerToken(g, bits);
  const n = (x) => Number(x).toLocaleString("en-US");
  if (g.ratio !== void 0) return compressedLine(g, per);
  if (g.latent !== void 0) {
    const index = g.index_bytes ? ` + ${g.count} x ${g.index_bytes} B indexer (FP8 keys + scale)` : "";
    return `${KIND_NAMES.mla}: ${g.count} layers x ${g.latent} (latent + rope) x ${bytes} B${index} = ${n(per)} B`;
  }
  if (g.kv_heads !== void 0) {
    const dims = g.head_k === g.head_v ? `2 x ${g.count} layers x ${g.kv_heads} KV heads x ${g.head_k} head dim` : `${g.count} layers x ${g.kv_heads} KV heads x (${g.head_k} + ${g.head_v})`;
    if (g.fixed_tokens !== void 0) {
      return `${KIND_NAMES.cross}: ${dims} x ${bytes} B = ${n(per)} B per encoder token, ${n(g.fixed_tokens)} encoder tokens (image or audio) per sequence, never the text`;
    }
    const cap = g.cap === null || g.cap === void 0 ? "" : `, held for the last ${n(g.cap)} tokens only`;
    return `${KIND_NAMES[g.kind] || g.kind}: ${dims} x ${bytes} B = ${n(per)} B${cap}`;
  }
  return `${KIND_NAMES[g.kind] || g.kind}: ${g.count} layers x ${n(g.fixed_bytes || 0)} B = ${n(g.count * (g.fixed_bytes || 0))} B per sequence, whatever its length`;
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
function buildControls(app) {
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
function render({ model, el }) {
  const app = createApp({ model, el }, "How many bytes does each token add to the KV cache?");
  const { outBpt, outMha, outSeq, outSaving, savingItem, formula } = buildControls(app);
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
var per_token_default = widgetModule(render);
export {
  per_token_default as default
};
