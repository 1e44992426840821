// PerTokenBytes: the per-token formula with live numbers, split by layer kind, the
// "query heads by mistake" figure, and the cache of one conversation at a few lengths.

import { checkInt } from "../calc/errors.js";
import { groupBytesPerToken, grows } from "../calc/layers.js";
import { bytesByKind, kvBytes, kvBytesPerToken, limitLines, perTokenReadouts } from "../calc/model.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { KIND_NAMES, conceptColor, inkOn } from "../ui/colours.js";
import { contextControl, dtypeSelect, modelSelect, resetButton } from "../ui/controls.js";
import { element } from "../ui/dom.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import('../shapes').ModelShape} ModelShape
 * @typedef {import('../shapes').LayerGroup} LayerGroup
 */

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

// A part of a bar thinner than this share of the tallest bar is drawn this tall (its true
// size in its label and hover), so gpt-oss's 128-token window does not vanish beside 5 GB.
const MIN_SHARE = 0.02;

/** A DeepSeek-V4 layer's parts in their packed formats (core.layers.CompressedMLASpec). */
/**
 * @param {LayerGroup} g
 * @param {number | bigint} per
 */
function compressedLine(g, per) {
  const n = (/** @type {number | bigint | undefined} */ x) => Number(x).toLocaleString("en-US");
  const window = `window of ${n(g.window)} tokens x ${g.entry_bytes} B`;
  if (g.ratio === 1) return `${KIND_NAMES.compressed}: ${g.count} layers, ${window} only`;
  const index = g.index_bytes ? ` + ${g.index_bytes} B indexer key` : "";
  return `${KIND_NAMES.compressed}: ${g.count} layers x (${g.entry_bytes} B entry${index}) / ${g.ratio} tokens = ${n(per)} B, ` +
    `plus a ${window} and a compressor state of ${n(g.state_window)} x ${n(g.state_token_bytes)} B`;
}

/**
 * @param {LayerGroup} g
 * @param {number} bits
 */
function formulaLine(g, bits) {
  const bytes = bits / 8;
  const per = groupBytesPerToken(g, bits);
  const n = (/** @type {number | bigint} */ x) => Number(x).toLocaleString("en-US");
  if (g.ratio !== undefined) return compressedLine(g, per);
  if (g.latent !== undefined) {
    const index = g.index_bytes ? ` + ${g.count} x ${g.index_bytes} B indexer (FP8 keys + scale)` : "";
    return `${KIND_NAMES.mla}: ${g.count} layers x ${g.latent} (latent + rope) x ${bytes} B${index} = ${n(per)} B`;
  }
  if (g.kv_heads !== undefined) {
    const dims = g.head_k === g.head_v ? `2 x ${g.count} layers x ${g.kv_heads} KV heads x ${g.head_k} head dim`
      : `${g.count} layers x ${g.kv_heads} KV heads x (${g.head_k} + ${g.head_v})`;
    if (g.fixed_tokens !== undefined) {
      return `${KIND_NAMES.cross}: ${dims} x ${bytes} B = ${n(per)} B per encoder token, ${n(g.fixed_tokens)} encoder tokens (image or audio) per sequence, never the text`;
    }
    const cap = g.cap === null || g.cap === undefined ? "" : `, held for the last ${n(g.cap)} tokens only`;
    return `${KIND_NAMES[g.kind] || g.kind}: ${dims} x ${bytes} B = ${n(per)} B${cap}`;
  }
  return `${KIND_NAMES[g.kind] || g.kind}: ${g.count} layers x ${n(g.fixed_bytes || 0)} B = ${n(g.count * (g.fixed_bytes || 0))} B per sequence, whatever its length`;
}

/**
 * The formula as the product it is, one row per layer group: each factor a chip with where
 * it comes from in the config (num_hidden_layers, num_key_value_heads, head_dim, the cache
 * dtype), the result at the end. Returns [factor name, value] pairs per row so a redraw can
 * mark the factors that changed.
 * @param {LayerGroup} g
 * @param {number} bits
 */
function formulaFactors(g, bits) {
  const per = groupBytesPerToken(g, bits);
  const bytes = bits / 8;
  const rows = [];
  if (g.ratio !== undefined) {
    // every part in a fixed packed format: bytes, whatever the cache dtype
    const entry = g.entry_bytes + (g.index_bytes || 0);
    if (g.ratio === 1) {
      rows.push(["layers", g.count, "layers with compress_ratio 0"], ["window", g.window, "sliding_window tokens"], ["entry", g.entry_bytes, "packed latent bytes (fp8_ds_mla)"]);
      return { kind: g.kind, factors: rows, result: `${(g.count * g.window * g.entry_bytes).toLocaleString("en-US")} B`, unit: "per sequence, at most", per };
    }
    rows.push(["layers", g.count, "layers"], ["entry", entry, "packed latent + indexer key bytes"], ["ratio", `1/${g.ratio}`, "compress_ratios"]);
    return { kind: g.kind, factors: rows, result: `${Number(per).toLocaleString("en-US")} B`, unit: "per token", per };
  }
  if (g.latent !== undefined) {
    rows.push(["layers", g.count, "MLA layers"], ["latent", g.latent, "kv_lora_rank + qk_rope_head_dim"], ["bytes", bytes, "bytes per number"]);
  } else if (g.kv_heads !== undefined) {
    if (g.head_k === g.head_v) {
      rows.push(["kv", 2, "K and V"], ["layers", g.count, "layers"], ["heads", g.kv_heads, "num_key_value_heads"], ["dim", g.head_k, "head_dim"], ["bytes", bytes, "bytes per number"]);
    } else {
      rows.push(["layers", g.count, "layers"], ["heads", g.kv_heads, "num_key_value_heads"], ["dim", `(${g.head_k} + ${g.head_v})`, "K + V head dims"], ["bytes", bytes, "bytes per number"]);
    }
  } else {
    // A recurrent state does not grow with the context: layers x state per layer, per sequence.
    const state = Number(g.fixed_bytes || 0);
    rows.push(["layers", g.count, "layers"], ["state", state, "state bytes per layer"]);
    return { kind: g.kind, factors: rows, result: `${(g.count * state).toLocaleString("en-US")} B`, unit: "per sequence, fixed", per };
  }
  const unit = g.fixed_tokens !== undefined ? "per encoder token" : "per token";
  return { kind: g.kind, factors: rows, result: `${Number(per).toLocaleString("en-US")} B`, unit, per };
}

/**
 * @param {App} app
 * @param {HTMLElement} box
 * @param {ModelShape} shape
 * @param {number} bits
 */
function formulaBox(app, box, shape, bits) {
  const rows = shape.groups.map((/** @type {LayerGroup} */ g) => formulaFactors(g, bits));
  const before = app.formulaValues || {};
  /** @type {Record<string, string>} */
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
        element("span", { class: "kv-factor-source", text: source }),
      ]));
    });
    if (r.factors.length) line.append(element("span", { class: "kv-formula-op", text: "=" }));
    line.append(element("span", { class: "kv-factor kv-result" }, [element("span", { class: "kv-factor-value", text: r.result }),
      element("span", { class: "kv-factor-source", text: r.unit })]));
    return line;
  });
  return () => {
    box.replaceChildren(...lines);
    app.formulaValues = now;
  };
}

/**
 * A group that stops growing at its window (sliding, chunked): not a fixed state.
 * @param {LayerGroup} g
 */
function windowed(g) {
  return g.cap !== null && g.cap !== undefined && grows(g) && g.fixed_tokens === undefined;
}

/**
 * The same model with every window taken away: what it would store if every layer were full.
 * @param {ModelShape} shape
 * @returns {ModelShape}
 */
function withoutWindows(shape) {
  // cap null: a window taken away (the closed forms read null as every token held); Python
  // never sends it, so shapes.d.ts does not declare it: the groups are cast
  const unwindowed = (/** @type {LayerGroup} */ g) => /** @type {LayerGroup} */ (/** @type {unknown} */ ({ ...g, cap: null }));
  return { ...shape, groups: shape.groups.map((g) => (windowed(g) ? unwindowed(g) : g)) };
}

/**
 * One bar's parts in GB, kind by kind. A part too thin to see is drawn `floor` tall, taken
 * from the bar's biggest part so the bar's total stays true; `thin` names those parts.
 * @param {Record<string, bigint>} b the bar's bytes per kind
 * @param {string[]} kinds
 * @param {number} floor GB
 * @param {number} i the bar's index
 */
function drawnParts(b, kinds, floor, i) {
  const v = Object.fromEntries(kinds.map((k) => [k, Number(b[k] || 0n) / 1e9]));
  const biggest = kinds.reduce((a, k) => (v[k] > v[a] ? k : a), kinds[0]);
  const thin = new Set();
  for (const k of kinds) {
    if (k !== biggest && v[k] > 0 && v[k] < floor && v[biggest] - (floor - v[k]) >= 2 * floor) {
      v[biggest] -= floor - v[k];
      v[k] = floor;
      thin.add(k);
    }
  }
  return { v, thin, i };
}

/**
 * The chosen bar names each part drawn taller than it is, inside the bar, when there is
 * room: the name on one line, or a word a line where the bar is narrower (scale 1.5).
 * @param {App} app
 * @param {{ kinds: string[], names: Record<string, string>, drawn: Array<ReturnType<typeof drawnParts>>, chosen: number,
 *   byCtx: Array<Record<string, bigint>>, totals: number[], floor: number, top: number, bars: number }} o
 */
function thinPartLabels(app, { kinds, names, drawn, chosen, byCtx, totals, floor, top, bars }) {
  const s = app.scale();
  /** @type {any[]} */
  const annotations = [];
  const plotWidth = Math.max(0, (app.plot.clientWidth || 700) - 92 * s);
  const barPx = (0.8 * plotWidth) / bars;
  const pxPerGB = (360 * s - 86 * s) / (top * 1.08);
  let below = 0;
  for (const k of kinds) {
    const d = drawn[chosen];
    const at = below;
    below += d.v[k];
    if (!d.thin.has(k)) continue;
    const size = fmtBytes(byCtx[chosen][k]);
    const wideOf = (/** @type {string[]} */ words) => Math.max(...words.map((/** @type {string} */ w) => w.length), size.length + 2) * 12 * s * 0.6;
    const rows = wideOf([names[k]]) < barPx - 6 * s ? [names[k]] : names[k].split(" ");
    const text = `${rows.join("<br>")}<br>${size} \u2193`;  // the arrow points at the part
    const roomAbove = (totals[chosen] - at - floor) * pxPerGB;
    if (wideOf(rows) < barPx - 6 * s && roomAbove > (rows.length + 1) * 20 * s) {
      const over = kinds.find((o) => o !== k && !d.thin.has(o)) || k;
      annotations.push({ x: chosen, y: at + floor, yanchor: "bottom", yshift: 2 * s, showarrow: false, text,
        font: { color: inkOn(conceptColor(over)) } });
    }
  }
  return annotations;
}

/**
 * The controls, the readouts and the formula's box under them.
 * @param {App} app
 */
function buildControls(app) {
  modelSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app);
  resetButton(app);
  const outBpt = app.readout("bytes_per_token", "Each token adds:");
  const outMha = app.readout("mha_bytes_per_token", "If every query head kept its own K and V:");
  const outSeq = app.readout("kv_bytes", "One conversation:");
  const outSaving = app.readout("window_saving", "Without its windows:");
  const savingItem = /** @type {HTMLElement} */ (outSaving.parentElement);
  // role=group: a name needs a role, and a group (unlike img or math) leaves each factor
  // chip readable on its own
  const formula = element("div", { class: "kv-formula", role: "group", "aria-label": "bytes per token, factor by factor" });
  app.readouts.after(formula);
  return { outBpt, outMha, outSeq, outSaving, savingItem, formula };
}

/**
 * What the model would hold with every layer full, and the share its windows save.
 * @param {ModelShape} full the model without its windows
 * @param {number | bigint} seq the bytes it holds with them
 * @param {number} context
 * @param {number} bits
 */
function windowSaving(full, seq, context, bits) {
  const none = Number(kvBytes(full, context, bits));
  const saved = none > 0 ? Math.round((100 * (none - Number(seq))) / none) : 0;
  return `${fmtBytes(none)}; the windows save ${saved}%`;
}

/**
 * @param {RenderContext} ctx
 */
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
    const lines = shape.groups.map((/** @type {LayerGroup} */ g) => ({ text: formulaLine(g, bits) }));
    const hasWindow = shape.groups.some(windowed);
    if (hasWindow) {
      lines.push({ text: `Past every window each token adds ${fmtBytes(bpt)} (${Number(bpt).toLocaleString("en-US")} B).`, cls: "kv-note" });
    }
    const texts = perTokenReadouts(shape, bits);
    const contexts = [...axisValues(app, "bar_contexts")];
    if (!contexts.includes(context)) contexts.push(context);
    contexts.sort((a, b) => a - b);
    const chosen = contexts.indexOf(context);
    const kinds = [...new Set(shape.groups.map((/** @type {LayerGroup} */ g) => g.kind))];
    const gb = (/** @type {number | bigint} */ b) => Number(b) / 1e9;
    const byCtx = contexts.map((c) => bytesByKind(shape, c, bits));
    const totals = contexts.map((c) => gb(kvBytes(shape, c, bits)));
    // the ghost: every layer full, what the windows save
    const full = hasWindow ? withoutWindows(shape) : null;
    const ghosts = full ? contexts.map((c) => gb(kvBytes(full, c, bits))) : [];
    const top = Math.max(...totals, ...ghosts);
    const seq = kvBytes(shape, context, bits);
    // A part too thin to see is drawn MIN_SHARE of the tallest bar tall, taken from the
    // bar's biggest part so the bar's total stays true; its label and hover say its size.
    const floor = MIN_SHARE * top;
    const drawn = byCtx.map((b, i) => drawnParts(b, kinds, floor, i));
    const t = app.theme();
    const s = app.scale();
    const names = Object.fromEntries(kinds.map((k) => [k, KIND_NAMES[k] || k]));
    /** @type {any[]} */
    const traces = kinds.map((k) => ({
      type: "bar",
      // a part drawn taller than it is says so, with its true size at the chosen length
      name: names[k] + (drawn.some((d) => d.thin.has(k)) ? ` (${fmtBytes(byCtx[chosen][k] || 0n)} at ${fmtTokens(context)}; drawn taller where too thin)` : ""),
      x: contexts.map((c) => (c === context ? `${fmtTokens(c)} (chosen)` : fmtTokens(c))),
      y: drawn.map((d) => d.v[k]),
      customdata: byCtx.map((b) => fmtBytes(b[k] || 0n)),
      // the chosen context keeps its kind's colour and gets an outline
      marker: { color: conceptColor(k), line: { color: t.fg, width: contexts.map((c) => (c === context ? 2 : 0)) } },
      hovertemplate: "%{x}: %{customdata}<extra>" + names[k] + "</extra>",
    }));
    /** @type {any[]} */
    const shapes = [];
    if (full) {
      // dashed outlines behind the bars (the same width, 1 - bargap), their tops above them
      ghosts.forEach((g, i) => shapes.push({ type: "rect", layer: "below", xref: "x", yref: "y", x0: i - 0.4, x1: i + 0.4, y0: 0, y1: g,
        line: { color: t.fg2, width: 1.5 * s, dash: "dash" } }));  // no fill: plotly's default
      // a legend entry for the outlines (a line with no points)
      traces.push({ type: "scatter", mode: "lines", name: "every layer full (no windows)", x: [null], y: [null], hoverinfo: "skip",
        line: { color: t.fg2, width: 1.5 * s, dash: "dash" } });
    }
    const annotations = thinPartLabels(app, { kinds, names, drawn, chosen, byCtx, totals, floor, top, bars: contexts.length });
    lines.push(...limitLines(shape, { context }));
    // Everything is computed: now touch the page.
    showFormula();
    app.say(lines);
    outBpt.textContent = texts.bytes_per_token;
    outMha.textContent = texts.mha_bytes_per_token;
    outSeq.textContent = `${fmtBytes(seq)} at ${context.toLocaleString("en-US")} tokens`;
    // a model with no window has no saving to read out: the readout leaves the row
    if (full) app.readouts.append(savingItem);
    else savingItem.remove();
    outSaving.textContent = full ? windowSaving(full, seq, context, bits) : "";
    app.describeFigure(`KV cache of one ${shape.name} conversation at ${contexts.map(fmtTokens).join(", ")} tokens, by kind of layer`,
      `Each token adds ${texts.bytes_per_token}; at ${fmtTokens(context)} tokens one conversation holds ${fmtBytes(seq)}`
      + `${kinds.length > 1 ? ` (${kinds.map((k) => `${names[k]} ${fmtBytes(byCtx[chosen][k] || 0n)}`).join(", ")})` : ""}`
      + `${full ? `; with every layer full it would hold ${outSaving.textContent}` : ""}; `
      + `from ${fmtBytes(kvBytes(shape, contexts[0], bits))} at ${fmtTokens(contexts[0])} to ${fmtBytes(kvBytes(shape, contexts[contexts.length - 1], bits))} at ${fmtTokens(contexts[contexts.length - 1])}.`);
    drawPlot(app, traces, {
      barmode: "stack",
      bargap: 0.2,
      shapes,
      annotations,
      showlegend: kinds.length > 1 || Boolean(full),
      xaxis: { title: { text: "conversation length (tokens)" }, type: "category" },
      yaxis: { title: { text: "KV cache per conversation (GB)" }, range: [0, top * 1.08] },
    });
  };
  return startApp(app);
}

export default widgetModule(render);
