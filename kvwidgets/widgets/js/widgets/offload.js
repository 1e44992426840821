// OffloadOrRecompute: seconds to bring one conversation's cache back to the GPU from each
// storage tier (a line at the chosen copy speed, named at its end; the slow-to-fast band on
// request) against recomputing it: the ideal prefill floor and, for the Llama-3-8B shape on
// an H200, the prefill measured there. Where a reload line crosses a recompute line the
// cheaper way changes: each such point is a dot labelled with its token count. Above the
// chart, a picture of the tiers and their copy speeds. Closed forms: calc/offload.js
// reloadSeconds, recomputeCrossover, calc/decode.js prefillSeconds (core.offload, core.decode).

import { prefillSeconds } from "../calc/decode.js";
import { checkInt } from "../calc/errors.js";
import { activeParams, kvBytes } from "../calc/model.js";
import { contextGrid, recomputeCrossover, reloadSeconds, tierGbps } from "../calc/offload.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { contextControl, dtypeSelect, gpuSelect, labelled, modelSelect, moreFold, paramsBox, paramsOverride, resetButton, selectControl } from "../ui/controls.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";
import { conceptColor, rampColor } from "../ui/colours.js";
import { diagramWidth } from "../ui/diagram.js";
import { element, svgElement } from "../ui/dom.js";
import { endLabels } from "../ui/end_labels.js";

/**
 * @typedef {import('../shapes').GpuRow} GpuRow
 * @typedef {import('../shapes').StorageTier} StorageTier
 * @typedef {import('../shapes').PrefillRow} PrefillRow
 */

/**
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

/** @typedef {{ name: string, gbps: number, seconds: number }} PictureTier a tier as the picture draws it: its copy speed and reload time */

/** @type {Record<string, string>} */
const TIER_NAMES = { "cpu-pinned": "CPU memory (pinned)", "cpu-pageable": "CPU memory (pageable)", "nvme-ssd": "NVMe SSD" };
// Names at the lines' ends and in the tier picture: short enough for the right margin.
/** @type {Record<string, string>} */
const SHORT_NAMES = { "cpu-pinned": "pinned CPU", "cpu-pageable": "pageable CPU", "nvme-ssd": "NVMe SSD" };
// Two tiers can copy at nearly the same speed (pageable CPU memory and an NVMe SSD both
// near 7 GB/s), so their lines lie on each other: a dash per tier tells them apart.
/** @type {Record<string, string>} */
const TIER_DASH = { "cpu-pinned": "solid", "cpu-pageable": "longdash", "nvme-ssd": "dashdot" };
// each dash in words, for the sentence naming two tiers whose lines coincide
/** @type {Record<string, string>} */
const DASH_WORDS = { solid: "solid", longdash: "long dashes", dashdot: "dash-dots" };
const fmtInt = (/** @type {number} */ x) => Number(x).toLocaleString("en-US");
// Copy speeds span 1 to 100 GB/s on the ramp: a tier's colour is its speed's.
const tierColor = (/** @type {number} */ gbps, /** @type {boolean} */ dark) => rampColor(gbps, 1, 100, dark);

/**
 * Tiers whose copy speeds at `speed` are within 10% of each other: their reload lines lie on
 * each other on the log axis (pageable CPU memory at 6.8 GB/s and an NVMe SSD at 7 GB/s at
 * the typical speed), so the page says so in words rather than leave one line hidden.
 * @returns {Array<[string, string]>} pairs of tier names, slower first
 * @param {Record<string, StorageTier>} tiers
 * @param {string} speed
 */
function coincidentTiers(tiers, speed) {
  const names = Object.keys(tiers).sort((a, b) => tierGbps(tiers[a], speed) - tierGbps(tiers[b], speed));
  /** @type {Array<[string, string]>} */
  const pairs = [];
  for (let i = 0; i + 1 < names.length; i++) {
    const slow = tierGbps(tiers[names[i]], speed);
    const fast = tierGbps(tiers[names[i + 1]], speed);
    if (fast <= 1.1 * slow) pairs.push([names[i], names[i + 1]]);
  }
  return pairs;
}

/**
 * A tier's speed and the time to bring the cache back from it, beside its arrow.
 * @param {PictureTier} tier
 */
function tierTime(tier) {
  return `${tier.gbps.toLocaleString("en-US")} GB/s: ${fmtSeconds(tier.seconds)}`;
}

/**
 * The tier picture in words: each tier's copy speed and time, and the cache it brings back.
 * @param {PictureTier[]} tiers
 * @param {GpuRow} gpu
 * @param {string} cacheText
 */
function tierPictureLabel(tiers, gpu, cacheText) {
  return `the storage tiers and their copy speeds to the ${gpu.name} GPU, fastest first: `
    + `${tiers.map((tier) => `${SHORT_NAMES[tier.name] || tier.name} ${tierTime(tier)}`).join("; ")}; ${cacheText}`;
}

/**
 * The tiers as a picture: where the cache can wait (CPU memory, an NVMe SSD) and the GPU it
 * must come back to, one arrow per tier, as thick as its copy speed is fast, labelled with
 * the speed and the time to bring this conversation's cache back.
 * @param {import("../ui/app.js").App} app
 * @param {PictureTier[]} tiers
 * @param {number} W
 * @param {GpuRow} gpu
 * @param {string} cacheText
 */
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
      svgElement("text", { x: bw / 2, y: cy + fs * 0.35, "text-anchor": "middle", "font-size": fs, fill: t.fg, text: SHORT_NAMES[tier.name] || tier.name }),
    );
    // arrow from the tier to the GPU: width grows with the log of the speed
    const w = Math.max(1.2, (1 + 2.2 * Math.log10(tier.gbps)) * s);
    const x1 = bw + 4 * s;
    const x2 = gx - 4 * s;
    const head = 5 * s + w;
    g.append(
      svgElement("line", { x1, y1: cy + 4 * s, x2: x2 - head, y2: cy + 4 * s, stroke: color, "stroke-width": w }),
      svgElement("polygon", { points: `${x2},${cy + 4 * s} ${x2 - head},${cy + 4 * s - head / 2} ${x2 - head},${cy + 4 * s + head / 2}`, fill: color }),
      svgElement("text", { class: "kv-tier-time", x: (x1 + x2) / 2, y: cy - 1 * s, "text-anchor": "middle", "font-size": fs * 0.95, fill: t.fg,
        text: tierTime(tier) }),
    );
    parts.push(g);
  });
  parts.push(
    svgElement("rect", { x: gx, y: 3 * s, width: gw - 1, height: H - 6 * s, rx: 4 * s, fill: "none", stroke: t.fg2, "stroke-width": 1.5 * s }),
    svgElement("rect", { x: gx + 8 * s, y: H / 2 + 2 * s, width: gw - 17 * s, height: 8 * s, rx: 2 * s, fill: conceptColor("kv") }),
    svgElement("text", { x: gx + gw / 2, y: H / 2 - 10 * s, "text-anchor": "middle", "font-size": fs, "font-weight": 600, fill: t.fg, text: `GPU (${gpu.name})` }),
    svgElement("text", { class: "kv-tier-cache", x: gx + gw / 2, y: H / 2 + 24 * s, "text-anchor": "middle", "font-size": fs * 0.95, fill: t.fg, text: cacheText }),
  );
  return svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font,
    "aria-label": tierPictureLabel(tiers, gpu, cacheText) }, parts);
}

/**
 * A CSS text-shadow: a thin outline of the background colour round each glyph.
 * @param {string} bg
 * @param {number} s
 */
function halo(bg, s) {
  const d = Math.max(1, Math.round(1.5 * s));
  return [[-d, -d], [d, -d], [-d, d], [d, d], [0, -d], [0, d], [-d, 0], [d, 0]].map(([x, y]) => `${x}px ${y}px 1px ${bg}`).join(", ");
}

/**
 * Measured seconds at t, straight between points on log-log axes (data.measured.interpolate_log).
 * @param {PrefillRow[]} rows
 * @param {number} t
 */
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

/**
 * data/measured.py measured_crossing: first token count where reload and measured prefill change order.
 * @param {(t: number) => number} reload
 * @param {PrefillRow[]} rows
 */
function measuredCrossing(reload, rows) {
  if (!rows.length) return null;
  const first = (/** @type {number} */ t) => reload(t) < /** @type {number} */ (interpolateMeasured(rows, t));  // null (past the rows) compares as 0, as before
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

/**
 * @param {number} x
 */
function fmtSeconds(x) {
  if (x === null || x === undefined) return "n/a";
  if (x < 1e-3) return `${(x * 1e6).toLocaleString("en-US", { maximumFractionDigits: 0 })} µs`;
  if (x < 1) return `${(x * 1e3).toLocaleString("en-US", { maximumFractionDigits: x < 0.01 ? 2 : 1 })} ms`;
  return `${x.toLocaleString("en-US", { maximumFractionDigits: 2 })} s`;
}

/**
 * A checkbox bound to a boolean trait.
 * @param {import("../ui/app.js").App} app
 * @param {string} name
 * @param {string} labelText
 */
function checkControl(app, name, labelText) {
  const box = element("input", { type: "checkbox", "data-kv": name });
  box.addEventListener("change", () => app.set(name, box.checked));
  const sync = () => { box.checked = Boolean(app.model.get(name)); };
  sync();
  app.syncers.push(sync);
  return labelled(app, labelText, box);
}

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").AnyModel} AnyModel
 */

/**
 * What one draw is of: the inputs, checked, the tiers and the chart's token axis.
 * @typedef {object} Inputs
 * @property {any} shape
 * @property {GpuRow} gpu
 * @property {number} bits
 * @property {number} context
 * @property {string} speed
 * @property {boolean} bands the slow-to-fast ranges drawn
 * @property {ReturnType<typeof paramsOverride>} params
 * @property {Record<string, StorageTier>} tiers
 * @property {string[]} names the tiers in the order of Python's result (readouts, crossings)
 * @property {number[]} xs the chart's token axis
 * @property {ReturnType<App["theme"]>} t
 * @property {number} sc the drawing's scale
 * @property {any} meas the measured prefill
 * @property {boolean} showMeasured
 * @property {PrefillRow[]} rows the measured rows drawn (none when not shown)
 */

/**
 * The controls and the readouts.
 * @param {App} app
 */
function buildControls(app) {
  modelSelect(app);
  gpuSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app);
  selectControl(app, "speed", "Copy speed", () => axisValues(app, "speeds").map((/** @type {string} */ v) => [v, v === "low" ? "slow end" : v === "high" ? "fast end" : "typical"]), ["axes"]);
  checkControl(app, "bands", "Ranges");
  moreFold(app, () => paramsBox(app));
  resetButton(app);
  return {
    reload: app.readout("reload", "Reload:"),
    recompute: app.readout("recompute", "Recompute:"),
    fastest: app.readout("fastest", "Fastest:"),
    cross: app.readout("crossover", "Crossings:"),
  };
}

/**
 * @param {App} app
 * @param {AnyModel} model
 * @returns {Inputs}
 */
function readInputs(app, model) {
  const L = app.lookup();
  const shape = L.shape();
  const gpu = L.gpu();
  const tiers = model.get("storage") || {};
  const meas = model.get("measured") || {};
  const showMeasured = Boolean(meas.rows && (meas.models || [meas.model]).includes(shape.name) && gpu.name === meas.gpu);
  return {
    shape, gpu, bits: L.bits("kv_dtype"), context: checkInt("context", model.get("context"), 1),
    speed: model.get("speed"), bands: Boolean(model.get("bands")), params: paramsOverride(app),
    tiers, names: Object.keys(tiers), xs: contextGrid(1024, 1048576), t: app.theme(), sc: app.scale(),
    meas, showMeasured, rows: showMeasured ? meas.rows : [],
  };
}

/**
 * Each tier's reload line at the chosen speed (and its slow-to-fast band on request).
 * Returns the traces, each tier's reload seconds at the context, the lines' ends for their
 * labels, and the seconds drawn (for the axis's range).
 * @param {Inputs} I
 */
function reloadTraces({ shape, bits, context, speed, bands, tiers, names, xs, t }) {
  /** @type {object[]} */
  const traces = [];
  /** @type {Record<string, number>} reload seconds at the context, per tier */
  const at = {};
  /** @type {Array<[string, number, string]>} */
  const ends = [];  // [name, seconds at the last x] for the end labels
  /** @type {number[][]} */
  const drawn = [];
  names.forEach((name) => {
    const tier = tiers[name];
    const gbps = tierGbps(tier, speed);
    const color = tierColor(gbps, t.dark);
    const label = TIER_NAMES[name] || tier.label || name;
    const line = (/** @type {string} */ sp) => xs.map((x) => reloadSeconds(shape, x, bits, tierGbps(tier, sp)));
    const chosen = line(speed);
    at[name] = reloadSeconds(shape, context, bits, gbps);
    ends.push([name, chosen[chosen.length - 1], color]);
    drawn.push(chosen);
    if (bands) {
      // each tier's range, slow end to fast end, on request: drawn always, two near-equal
      // tiers' bands would lie on each other and mix
      const slow = line("low");
      const fast = line("high");
      drawn.push(slow, fast);
      traces.push({ type: "scatter", mode: "lines", x: xs, y: slow, line: { width: 0, color }, showlegend: false, hoverinfo: "skip", legendgroup: name });
      traces.push({ type: "scatter", mode: "lines", x: xs, y: fast, line: { width: 0, color }, fill: "tonexty", fillcolor: color + "40",
        showlegend: false, hoverinfo: "skip", legendgroup: name });
    }
    traces.push({ type: "scatter", mode: "lines", name: `reload from ${label}`, x: xs, y: chosen, line: { color, width: 2.5, dash: TIER_DASH[name] || "solid" },
      legendgroup: name, showlegend: false,
      hovertemplate: `${label}, %{x:,} tokens: %{y:.3s} s<extra>${gbps} GB/s</extra>` });
  });
  return { traces, at, ends, drawn };
}

/**
 * The ideal recompute line and, where it was measured, the measured prefill. Returns the
 * traces and the seconds drawn.
 * @param {Inputs} I
 */
function recomputeTraces({ shape, gpu, params, xs, t, sc, showMeasured, rows }) {
  const recompute = xs.map((x) => prefillSeconds(shape, gpu, x, params));
  /** @type {number[][]} */
  const drawn = [recompute];
  /** @type {object[]} */
  const traces = [{ type: "scatter", mode: "lines", name: `recompute, ideal ${gpu.name} (${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS)`,
    x: xs, y: recompute, line: { color: t.fg, width: 2.5, dash: "dash" }, hovertemplate: "ideal recompute, %{x:,} tokens: %{y:.3s} s<extra></extra>" }];
  if (showMeasured) {
    drawn.push(rows.map((r) => r.seconds));
    traces.push({ type: "scatter", mode: "lines+markers", name: "recompute, measured H200 prefill", x: rows.map((r) => r.tokens), y: rows.map((r) => r.seconds),
      line: { color: t.fg, width: 1.5, dash: "dot" }, marker: { symbol: "x", size: 9 * sc, color: t.fg },
      hovertemplate: "measured prefill, %{x:,} tokens: %{y:.3s} s<extra></extra>" });
  }
  return { traces, drawn };
}

/**
 * The widget's answer: where the cheaper way changes, against the ideal (exact,
 * calc/offload.js) and the measured points. Returns the crossings in words and as dots.
 * @param {Inputs} I
 */
function crossings({ shape, gpu, bits, speed, params, tiers, names, showMeasured, rows }) {
  /** @type {string[]} */
  const crossText = [];
  /** @type {{ x: number[], y: number[], text: string[] }} */
  const dots = { x: [], y: [], text: [] };
  names.forEach((name) => {
    const tier = tiers[name];
    const label = TIER_NAMES[name] || name;
    const gbps = tierGbps(tier, speed);
    const xi = recomputeCrossover(shape, gpu, tier, bits, speed, params);
    const xm = showMeasured ? measuredCrossing((/** @type {number} */ x) => reloadSeconds(shape, x, bits, gbps), rows) : null;
    for (const [x, what] of /** @type {Array<[number | null, string]>} */ ([[xi, "ideal"], [xm, "measured"]])) {
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

/**
 * Where each crossing's label goes: below its dot, since every line here rises to the
 * right and the measured prefill (the only line with markers) rises fastest, so below a
 * dot no marker lies (above, the label sat on the measured 8K mark). A dot within half a
 * decade of the one before it takes its label above instead, so the two stay apart. Near
 * either end of the 1K-1M axis a label turns inwards, so it never runs off the plot.
 * @param {number[]} xs the dots' token counts
 */
function labelPositions(xs) {
  /** @type {string[]} */
  const positions = new Array(xs.length);
  let prevX = 0;
  let prevBelow = false;
  [...xs.keys()].sort((a, b) => xs[a] - xs[b]).forEach((i) => {
    const lx = Math.log10(xs[i]);
    const below = !(prevBelow && lx - Math.log10(prevX) < 0.5);
    const side = below ? (lx > 5.5 ? "left" : "right") : (lx < 4.3 ? "right" : "left");
    positions[i] = `${below ? "bottom" : "top"} ${side}`;
    prevX = xs[i];
    prevBelow = below;
  });
  return positions;
}

/**
 * The crossings as dots, each labelled with its token count.
 * @param {Inputs} I
 * @param {{ x: number[], y: number[], text: string[] }} dots
 */
function crossingTrace({ t, sc }, dots) {
  return { type: "scatter", mode: "markers+text", name: "where the cheaper way changes", x: dots.x, y: dots.y,
    text: dots.x.map((x) => `<b>${x.toLocaleString("en-US")} tokens</b>`), hovertext: dots.text,
    textposition: labelPositions(dots.x),
    // a halo of the background round each glyph: the lines run at about the labels'
    // slope through where any label can go, and without it they cut through the digits
    textfont: { color: t.fg, size: 11 * sc, shadow: halo(t.bg, sc) },
    marker: { size: 9 * sc, color: t.fg, line: { color: t.bg, width: 1.5 } }, hovertemplate: "%{hovertext}<extra></extra>" };
}

/**
 * The chart's frame: its height and margins, the y range over every second drawn, and
 * the tiers named at their lines' ends in the right margin (the y range is fixed here so
 * the labels can be spaced in pixels).
 * @param {App} app
 * @param {Inputs} I
 * @param {number[][]} drawn every line's seconds
 * @param {Array<[string, number, string]>} ends
 */
function chartFrame(app, { t, sc }, drawn, ends) {
  let lo = Infinity;
  let hi = 0;
  for (const ys of drawn) for (const y of ys) if (y > 0) { lo = Math.min(lo, y); hi = Math.max(hi, y); }
  const height = Math.round(440 * sc);
  // the bottom margin holds the tick labels, the axis title and the legend's one row
  const margin = { l: 72 * sc, r: 112 * sc, t: 34 * sc, b: 84 * sc };
  const yRange = [Math.log10(lo) - 0.15, Math.log10(hi) + 0.15];
  // the plot's own height in pixels: drawPlot draws a slide's figure (compact) at 0.7 of
  // `height`, and the legend sits in the bottom margin, so labels are spaced `gap` apart
  const drawnHeight = app.root.classList.contains("kv-compact") ? Math.round(0.7 * height) : height;
  const pxPerDecade = (drawnHeight - margin.t - margin.b) / (yRange[1] - yRange[0]);
  const labels = endLabels(ends.map(([n, y, color]) => ({ text: SHORT_NAMES[n] || n, y, color })),
    { x: 1.2e6, pxPerDecade, gap: 14 * sc, size: 11 * sc, ink: t.fg });
  return { height, margin, yRange, labels };
}

/**
 * The text lines under the chart: tiers whose lines coincide, how each line is computed,
 * the copy speeds, the measured prefill, and the limits.
 * @param {Inputs} I
 */
function textLines({ shape, gpu, context, speed, params, tiers, names, meas, showMeasured }) {
  const gbpsText = (/** @type {string} */ n) => `${tierGbps(tiers[n], speed).toLocaleString("en-US")} GB/s`;
  const dashText = (/** @type {string} */ n) => `${SHORT_NAMES[n] || n} ${DASH_WORDS[TIER_DASH[n] || "solid"]}`;
  /** @type {Array<{ text: string, cls?: string }>} */
  const lines = [
    // first, so a slide (compact: the first line shows) says why one line seems missing
    ...coincidentTiers(tiers, speed).map(([a, b]) => ({ text: `${TIER_NAMES[a] || a} (${gbpsText(a)}) and ${TIER_NAMES[b] || b} (${gbpsText(b)}) copy at nearly the same speed here: their lines lie on each other (${dashText(a)}, ${dashText(b)}).` })),
    { text: `Reload = the cache's bytes / the copy speed (${speed === "typical" ? "typical" : speed === "low" ? "slow end" : "fast end"} of each tier; Ranges shades each tier from its slow to its fast end). Recompute = 2 x ${Number(activeParams(shape, params)).toLocaleString("en-US")} active params x tokens / ${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS, an ideal floor that leaves attention's own work out.`, cls: "kv-note" },
    { text: `Copy speeds (GB/s, slow end / typical / fast end): ${names.map((n) => `${TIER_NAMES[n] || n} ${tiers[n].low_gbps} / ${tiers[n].typical_gbps} / ${tiers[n].high_gbps}`).join("; ")}.`, cls: "kv-note" },
  ];
  if (showMeasured) lines.push({ text: `Measured: ${meas.provenance}. It grows faster than the ideal because attention's work grows with the square of the tokens.`, cls: "kv-note" });
  else lines.push({ text: `Measured prefill is drawn for ${meas.model || "llama-3-8b"} on the ${meas.gpu || "H200"} only (the shape that was measured).`, cls: "kv-note" });
  if (shape.max_context && context > shape.max_context) {
    lines.push({ text: `${context.toLocaleString("en-US")} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${shape.max_context.toLocaleString("en-US")}).`, cls: "kv-warn" });
  }
  return lines;
}

/**
 * The tier picture above the chart, kept per widget. A context move changes only the
 * picture's times and the cache's size: its texts are rewritten in place, the picture is
 * redrawn when anything else changed. Returns a function that computes the picture (its
 * svg, or null when only its texts change) and one that puts it on the page.
 * @param {App} app
 * @param {HTMLElement} picture
 */
function tierPictureKeeper(app, picture) {
  let drawnPicture = ""; // what the picture's shapes were drawn from
  /**
   * @param {Inputs} I
   * @param {Record<string, number>} at reload seconds at the context, per tier
   * @param {string} cacheText
   */
  const prepare = ({ gpu, speed, tiers, names, t, sc }, at, cacheText) => {
    // the picture lists the tiers fastest first, at the chosen speed
    const pictureTiers = [...names].sort((a, b) => tierGbps(tiers[b], speed) - tierGbps(tiers[a], speed)).map((n) => ({ name: n, gbps: tierGbps(tiers[n], speed), seconds: at[n] }));
    const pictureWidth = diagramWidth(app);
    const pictureKey = JSON.stringify([pictureTiers.map((p) => [p.name, p.gbps]), pictureWidth, gpu.name, sc, t]);
    const pictureSvg = pictureKey === drawnPicture ? null : tierPicture(app, pictureTiers, pictureWidth, gpu, cacheText);
    const show = () => {
      if (pictureSvg) {
        picture.replaceChildren(pictureSvg);
        drawnPicture = pictureKey;
      } else {
        picture.querySelectorAll(".kv-tier-time").forEach((e, i) => { e.textContent = tierTime(pictureTiers[i]); });
        /** @type {Element} */ (picture.querySelector(".kv-tier-cache")).textContent = cacheText;
        /** @type {Element} */ (picture.querySelector("svg")).setAttribute("aria-label", tierPictureLabel(pictureTiers, gpu, cacheText));
      }
    };
    return show;
  };
  return prepare;
}

/**
 * The readouts and the figure's description.
 * @param {App} app
 * @param {ReturnType<typeof buildControls>} outs
 * @param {Inputs} I
 * @param {{ at: Record<string, number>, recomputeAt: number, fastest: [string, number], crossText: string[], kvb: number | bigint }} r
 */
function fillReadouts(app, outs, { shape, bits, context, bands, tiers, names, showMeasured, rows }, { at, recomputeAt, fastest, crossText, kvb }) {
  const measuredAt = showMeasured ? interpolateMeasured(rows, context) : null;
  // with the ranges drawn, each tier's time from its fast to its slow end beside it
  const range = (/** @type {string} */ n) => (bands
    ? ` (${fmtSeconds(reloadSeconds(shape, context, bits, tiers[n].high_gbps))} to ${fmtSeconds(reloadSeconds(shape, context, bits, tiers[n].low_gbps))})`
    : "");
  outs.reload.textContent = names.map((n) => `${TIER_NAMES[n] || n} ${fmtSeconds(at[n])}${range(n)}`).join(" · ");
  outs.recompute.textContent = `ideal ${fmtSeconds(recomputeAt)}` + (showMeasured ? `, measured ${measuredAt === null ? "n/a at this length (measured 1K to 32K)" : fmtSeconds(measuredAt)}` : "");
  outs.fastest.textContent = fastest[0];
  // what was searched, and against what: the ideal recompute over the chart's whole axis,
  // the measured prefill only between its first and last measured lengths
  const searched = `reload against the ideal recompute (a model) checked from ${fmtInt(1024)} to ${fmtInt(1048576)} tokens`
    + (showMeasured ? `, against the measured prefill from ${fmtInt(rows[0].tokens)} to ${fmtInt(rows[rows.length - 1].tokens)}` : "");
  outs.cross.textContent = crossText.length ? crossText.join(" · ") : `none: ${searched}`;
  app.describeFigure("seconds to get one conversation's cache back against its context: reload from each tier, or recompute",
    `At ${fmtTokens(context)} tokens (${fmtBytes(kvb)} of cache) the fastest way is ${fastest[0]}. Reload: ${outs.reload.textContent.replaceAll(" · ", ", ")}. `
    + `Recompute: ${outs.recompute.textContent}. Where the cheaper way changes: ${outs.cross.textContent.replaceAll(" · ", ", ")}.`);
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "Offload or recompute: which brings one conversation's cache back faster?");
  const outs = buildControls(app);
  // the tier picture sits above the chart, inside the figure
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
    /** @type {Array<[string, number]>} */
    const options = names.map((n) => [`reload from ${TIER_NAMES[n] || n}`, reload.at[n]]);
    options.push(["recompute (ideal)", recomputeAt]);
    const fastest = options.reduce((a, b) => (b[1] < a[1] ? b : a));
    const kvb = kvBytes(shape, context, bits);
    // the chosen context: a vertical line (a layout shape, so a move redraws no trace)
    const shapes = [{ type: "line", xref: "x", yref: "paper", x0: context, x1: context, y0: 0, y1: 1, line: { color: t.fg2, width: 1, dash: "dot" } }];
    const annotations = [{ x: Math.log10(context), y: 1, xref: "x", yref: "paper", yanchor: "bottom", text: `${fmtTokens(context)}: ${fmtBytes(kvb)} of cache`,
      showarrow: false, font: { color: t.fg, size: 11 * sc } }];
    const { height, margin, yRange, labels } = chartFrame(app, I, [...reload.drawn, ...recompute.drawn], reload.ends);
    traces.push(labels);
    const showPicture = preparePicture(I, reload.at, `cache at ${fmtTokens(context)}: ${fmtBytes(kvb)}`);
    const lines = textLines(I);
    // Everything is computed: now touch the page.
    app.say(lines);
    showPicture();
    fillReadouts(app, outs, I, { at: reload.at, recomputeAt, fastest, crossText, kvb });
    drawPlot(app, traces, {
      annotations,
      shapes,
      height,
      margin,
      xaxis: { type: "log", title: { text: "context of the conversation (tokens)" }, range: [Math.log10(900), Math.log10(1.2e6)] },
      yaxis: { type: "log", title: { text: "seconds to get the cache back" }, range: yRange },
      // traceorder: the bands' fills would otherwise turn plotly's default order to reversed,
      // and the legend's two entries would swap when Ranges is ticked. Placed from the
      // figure's bottom edge (yref container) in the bottom margin, under the axis title: a
      // place below the plot as a fraction of its height moved up onto the title when a
      // slide (compact) drew the figure shorter.
      legend: { orientation: "h", yref: "container", yanchor: "bottom", y: 0, font: { color: t.fg }, traceorder: "normal" },
    }, [shape, gpu.name, bits, speed, params, showMeasured, bands]);
  };
  return startApp(app);
}

export default widgetModule(render);
