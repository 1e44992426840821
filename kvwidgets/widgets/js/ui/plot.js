// Drawing with plotly.js: the layout every chart shares and Plotly.react with a data key.

import { sharePlotlyStyles } from "./shadow.js";

/**
 * Plotly layout with the theme's colours and the scale factor.
 * @param {import("./app.js").App} app
 * @param {Record<string, any>} [extra] plotly.js layout keys, laid over the shared ones
 */
export function plotLayout(app, extra = {}) {
  const t = app.theme();
  const s = app.scale();
  // No automargin: it lays the figure out twice whenever a tick label changes width, the
  // biggest part of a redraw; the fixed margins below fit the widgets' labels.
  // ticklabeloverflow "allow": the default ("hide past div") measures every tick label
  // after drawing it, forcing a layout per axis on each redraw; the fixed margins keep the
  // labels inside the figure anyway.
  const axis = (a = {}) => ({ gridcolor: t.grid, zerolinecolor: t.grid, linecolor: t.grid, color: t.fg, ticklabeloverflow: "allow", ...a });
  const { xaxis, yaxis, ...rest } = extra;
  for (const key of Object.keys(rest)) {  // xaxis2, yaxis2...: styled as the first pair
    if (/^[xy]axis\d+$/.test(key)) rest[key] = axis(rest[key]);
  }
  return {
    height: Math.round(360 * s),
    margin: { l: 72 * s, r: 20 * s, t: 30 * s, b: 56 * s },
    // a redraw keeps what the reader did (zoom, hidden legend entries)
    uirevision: "kv",
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { color: t.fg, family: t.font, size: 12 * s },
    legend: { orientation: "h", y: -0.25, font: { color: t.fg }, traceorder: "normal" },
    hoverlabel: { font: { size: 12 * s } },
    xaxis: axis(xaxis),
    yaxis: axis(yaxis),
    ...rest,
  };
}

// Why the page's one plotly.js load failed ("" when it did not), noted by the loader
// (loader/widget_module.js) before each render, for drawPlot's error line.
let plotlyProblem = "";
/**
 * @param {string} why
 */
export function notePlotlyProblem(why) {
  plotlyProblem = why || "";
}

/**
 * Draw with Plotly.react. dataKey names everything the traces depend on: while it is the
 * same, layout.datarevision stays the same and Plotly skips recomputing the traces (new
 * arrays with the same numbers are not compared), so a change that only moves a layout
 * shape or annotation (the chosen point) redraws just those. Without a key every draw
 * recomputes.
 * @param {import("./app.js").App} app
 * @param {object[]} data plotly traces
 * @param {Record<string, any>} layout what this chart adds to plotLayout's
 * @param {unknown} [dataKey]
 */
export function drawPlot(app, data, layout, dataKey) {
  const Plotly = window.Plotly;
  if (!Plotly) throw new Error(`plotly.js did not load: ${plotlyProblem || "window.Plotly is missing"}`);
  /** @type {Record<string, any>} */
  const full = plotLayout(app, layout);
  if (app.root.classList.contains("kv-compact")) full.height = Math.round(0.7 * full.height); // a slide's figure
  sharePlotlyStyles(app.plot);
  full.datarevision = dataKey === undefined ? `draw ${++app.revision}` : JSON.stringify([dataKey, app.scale(), app.theme()]);
  return Plotly.react(app.plot, data, full, { displayModeBar: false, responsive: true });
}
