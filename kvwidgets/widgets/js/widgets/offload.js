// OffloadOrRecompute: seconds to bring one conversation's cache back to the GPU from each
// storage tier (a band from its slow to its fast end, a line at the chosen speed) against
// recomputing it: the ideal prefill floor and, for the Llama-3-8B shape on an H200, the
// prefill measured there. Where a reload line crosses a recompute line the cheaper way
// changes; those points are marked. Closed forms: calc/offload.js reloadSeconds, calc/decode.js prefillSeconds,
// recomputeCrossover (core.offload, core.decode).

import { prefillSeconds } from "../calc/decode.js";
import { checkInt } from "../calc/errors.js";
import { activeParams, kvBytes } from "../calc/model.js";
import { contextGrid, recomputeCrossover, reloadSeconds, tierGbps } from "../calc/offload.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { contextControl, dtypeSelect, gpuSelect, modelSelect, moreFold, paramsBox, paramsOverride, resetButton, selectControl } from "../ui/controls.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";
import { rampColor } from "../ui/colours.js";

/**
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

const TIER_NAMES = { "cpu-pinned": "CPU memory (pinned)", "cpu-pageable": "CPU memory (pageable)", "nvme-ssd": "NVMe SSD" };

/** Measured seconds at t, straight between points on log-log axes (data.measured.interpolate_log). */
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

/** widgets/offload.py measured_crossing: first token count where reload and measured prefill change order. */
function measuredCrossing(reload, rows) {
  if (!rows.length) return null;
  const first = (t) => reload(t) < interpolateMeasured(rows, t);
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
  if (x === null || x === undefined) return "n/a";
  if (x < 1e-3) return `${(x * 1e6).toLocaleString("en-US", { maximumFractionDigits: 0 })} µs`;
  if (x < 1) return `${(x * 1e3).toLocaleString("en-US", { maximumFractionDigits: x < 0.01 ? 2 : 1 })} ms`;
  return `${x.toLocaleString("en-US", { maximumFractionDigits: 2 })} s`;
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "Offload or recompute: getting one conversation's cache back");
  modelSelect(app);
  gpuSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app);
  selectControl(app, "speed", "Copy speed", () => axisValues(app, "speeds").map((v) => [v, v === "low" ? "slow end" : v === "high" ? "fast end" : "typical"]), ["axes"]);
  moreFold(app, () => paramsBox(app));
  resetButton(app);
  const outReload = app.readout("reload", "Reload:");
  const outRecompute = app.readout("recompute", "Recompute:");
  const outFastest = app.readout("fastest", "Fastest:");
  const outCross = app.readout("crossover", "Crossings:");

  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const bits = L.bits("kv_dtype");
    const context = checkInt("context", model.get("context"), 1);
    const speed = model.get("speed");
    const params = paramsOverride(app);
    const tiers = model.get("storage") || {};
    const names = Object.keys(tiers);
    const xs = contextGrid(1024, 1048576);
    const t = app.theme();
    const sc = app.scale();
    const traces = [];
    const at = {};
    names.forEach((name, i) => {
      const tier = tiers[name];
      const color = rampColor(i + 1, 1, names.length, t.dark);  // tiers in order, fastest first
      const label = TIER_NAMES[name] || tier.label || name;
      const line = (sp) => xs.map((x) => reloadSeconds(shape, x, bits, tierGbps(tier, sp)));
      const slow = line("low");
      const fast = line("high");
      const chosen = line(speed);
      at[name] = reloadSeconds(shape, context, bits, tierGbps(tier, speed));
      traces.push({ type: "scatter", mode: "lines", x: xs, y: slow, line: { width: 0, color }, showlegend: false, hoverinfo: "skip", legendgroup: name });
      traces.push({ type: "scatter", mode: "lines", x: xs, y: fast, line: { width: 0, color }, fill: "tonexty", fillcolor: color + "33",
        showlegend: false, hoverinfo: "skip", legendgroup: name });
      traces.push({ type: "scatter", mode: "lines", name: `reload from ${label}`, x: xs, y: chosen, line: { color, width: 2.5 }, legendgroup: name,
        hovertemplate: `${label}, %{x:,} tokens: %{y:.3s} s<extra>${tier.typical_gbps} GB/s typical</extra>` });
    });
    const recompute = xs.map((x) => prefillSeconds(shape, gpu, x, params));
    const recomputeAt = prefillSeconds(shape, gpu, context, params);
    traces.push({ type: "scatter", mode: "lines", name: `recompute, ideal ${gpu.name} (${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS)`,
      x: xs, y: recompute, line: { color: t.fg, width: 2.5, dash: "dash" }, hovertemplate: "ideal recompute, %{x:,} tokens: %{y:.3s} s<extra></extra>" });
    const meas = model.get("measured") || {};
    const showMeasured = Boolean(meas.rows && shape.name === meas.model && gpu.name === meas.gpu);
    const rows = showMeasured ? meas.rows : [];
    if (showMeasured) {
      traces.push({ type: "scatter", mode: "lines+markers", name: "recompute, measured H200 prefill", x: rows.map((r) => r.tokens), y: rows.map((r) => r.seconds),
        line: { color: t.fg, width: 1.5, dash: "dot" }, marker: { symbol: "x", size: 9 * sc, color: t.fg },
        hovertemplate: "measured prefill, %{x:,} tokens: %{y:.3s} s<extra></extra>" });
    }
    // where the cheaper way changes: against the ideal (exact, calc/offload.js) and the measured points
    const annotations = [];
    const crossText = [];
    names.forEach((name) => {
      const tier = tiers[name];
      const label = TIER_NAMES[name] || name;
      const gbps = tierGbps(tier, speed);
      const xi = recomputeCrossover(shape, gpu, tier, bits, speed, params);
      const xm = showMeasured ? measuredCrossing((x) => reloadSeconds(shape, x, bits, gbps), rows) : null;
      for (const [x, what] of [[xi, "ideal"], [xm, "measured"]]) {
        if (x === null) continue;
        const y = reloadSeconds(shape, x, bits, gbps);
        crossText.push(`${label} = ${what} recompute at ${fmtTokens(x)}`);
        annotations.push({ x: Math.log10(x), y: Math.log10(y), xref: "x", yref: "y", text: "\u25CF", showarrow: false,
          font: { color: t.fg, size: 12 * sc }, hovertext: `${label} and ${what} recompute cross at ${x.toLocaleString("en-US")} tokens` });
      }
    });
    const measuredAt = showMeasured ? interpolateMeasured(rows, context) : null;
    const options = names.map((n) => [`reload from ${TIER_NAMES[n] || n}`, at[n]]);
    options.push(["recompute (ideal)", recomputeAt]);
    const fastest = options.reduce((a, b) => (b[1] < a[1] ? b : a));
    const kvb = kvBytes(shape, context, bits);
    // the chosen context: a vertical line (a layout shape, so a move redraws no trace)
    const shapes = [{ type: "line", xref: "x", yref: "paper", x0: context, x1: context, y0: 0, y1: 1, line: { color: t.fg2, width: 1, dash: "dot" } }];
    annotations.push({ x: Math.log10(context), y: 1, xref: "x", yref: "paper", yanchor: "bottom", text: `${fmtTokens(context)}: ${fmtBytes(kvb)} of cache`,
      showarrow: false, font: { color: t.fg, size: 11 * sc } });

    const lines = [
      { text: `Reload = the cache's bytes / the copy speed (${speed === "typical" ? "typical" : speed === "low" ? "slow end" : "fast end"} line; the band spans each tier's slow to fast end). Recompute = 2 x ${Number(activeParams(shape, params)).toLocaleString("en-US")} active params x tokens / ${gpu.bf16_tflops.toLocaleString("en-US")} TFLOPS, an ideal floor that leaves attention's own work out.`, cls: "kv-note" },
    ];
    if (showMeasured) lines.push({ text: `Measured: ${meas.provenance}. It grows faster than the ideal because attention's work grows with the square of the tokens.`, cls: "kv-note" });
    else lines.push({ text: `Measured prefill is drawn for ${meas.model || "llama-3-8b"} on the ${meas.gpu || "H200"} only (the shape that was measured).`, cls: "kv-note" });
    if (shape.max_context && context > shape.max_context) {
      lines.push({ text: `${context.toLocaleString("en-US")} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${shape.max_context.toLocaleString("en-US")}).`, cls: "kv-warn" });
    }
    // Everything is computed: now touch the page.
    app.say(lines);
    outReload.textContent = names.map((n) => `${TIER_NAMES[n] || n} ${fmtSeconds(at[n])}`).join(" · ");
    outRecompute.textContent = `ideal ${fmtSeconds(recomputeAt)}` + (showMeasured ? `, measured ${measuredAt === null ? "n/a at this length (measured 1K to 32K)" : fmtSeconds(measuredAt)}` : "");
    outFastest.textContent = fastest[0];
    outCross.textContent = crossText.length ? crossText.join(" · ") : "none from 1K to 1M: one way is cheaper at every length";
    drawPlot(app, traces, {
      annotations,
      shapes,
      height: Math.round(440 * sc),
      margin: { l: 72 * sc, r: 20 * sc, t: 34 * sc, b: 56 * sc },
      xaxis: { type: "log", title: { text: "context of the conversation (tokens)" }, range: [Math.log10(900), Math.log10(1.2e6)] },
      yaxis: { type: "log", title: { text: "seconds to get the cache back" } },
      legend: { orientation: "h", yanchor: "top", y: -0.2, font: { color: t.fg } },
    }, [shape, gpu.name, bits, speed, params, showMeasured]);
  };
  return startApp(app);
}

export default widgetModule(render);
