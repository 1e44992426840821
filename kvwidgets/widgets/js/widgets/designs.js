// AttentionDesigns: bytes per token of MHA, GQA, MQA, MLA and a sliding hybrid on the
// Llama 3 8B shape, and real models' cache per conversation at a short and a long context.

import { KVInputError, checkInt } from "../calc/errors.js";
import { kvBytes, kvBytesPerToken } from "../calc/model.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { conceptColor, rampColor } from "../ui/colours.js";
import { contextControl, dtypeSelect, moreFold, resetButton, selectControl } from "../ui/controls.js";
import { diagramWidth } from "../ui/diagram.js";
import { element, svgElement } from "../ui/dom.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import('../shapes').ModelShape} ModelShape
 * @typedef {import('../shapes').LayerGroup} LayerGroup
 * @typedef {ReturnType<import("../ui/app.js").makeLookup>} Lookup
 */

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

/**
 * Head sharing: for MHA, GQA, MQA and MLA on the designs' shape, the query heads (dots, top)
 * and what each one reads its keys and values from (bottom): its own KV head (MHA), a KV
 * head shared by a group (GQA), one KV head for all (MQA), or one latent per token that
 * every head reads directly (MLA: at decode, engines fold the up-projections into the query
 * and the output, "weight absorption", so no head's K and V are rebuilt from the latent).
 * Drawn from the synced shapes.
 * @param {App} app
 * @param {Lookup} L
 * @param {string[]} labels
 * @param {bigint[]} perToken
 * @param {number} W
 */
function headSharing(app, L, labels, perToken, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 11.5 * s;
  const designs = labels.slice(0, 4).map((/** @type {string} */ label, /** @type {number} */ i) => ({ label, shape: L.shape(label), bpt: perToken[i] }));
  const cols = W >= 760 * s ? 4 : 2;
  const gap = 14 * s;
  const pw = (W - gap * (cols - 1)) / cols;
  const ph = 136 * s;
  /** @type {Element[]} */
  const parts = [];
  designs.forEach((d, i) => {
    const x = (i % cols) * (pw + gap);
    const y = Math.floor(i / cols) * (ph + 8 * s);
    const g0 = d.shape.groups[0];
    const q = d.shape.query_heads || 0;
    const latent = g0.latent !== undefined;
    const kv = latent ? 1 : g0.kv_heads ?? 0;  // the designs all have heads or a latent
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
    const n = (/** @type {number | bigint} */ v) => Number(v).toLocaleString("en-US");
    const numbers = latent ? `${n(g0.latent)} numbers/layer` : `2 x ${kv} x ${g0.head_k} = ${n(2 * kv * g0.head_k)} numbers/layer`;
    const sharing = !q ? "" : latent ? `all ${q} heads read it; nothing rebuilt` : kv === q ? "one per query head" : kv === 1 ? `all ${q} query heads share it` : `${q / kv} query heads per KV head`;
    panel.append(
      svgElement("text", { x, y: ky + 10 * s + fs * 1.1, "font-size": fs * 0.9, fill: t.fg2, text: sharing }),
      svgElement("text", { x, y: ky + 10 * s + fs * 2.2, "font-size": fs * 0.9, fill: t.fg, text: numbers }),
      svgElement("text", { x, y: ky + 10 * s + fs * 3.3, "font-size": fs * 0.9, fill: t.fg, "font-weight": 600,
        text: `${fmtBytes(d.bpt)} per token (${g0.count} layers)` }),
    );
    parts.push(panel);
  });
  const rows = Math.ceil(designs.length / cols);
  const H = rows * ph + (rows - 1) * 8 * s + 4 * s;
  return svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font,
    "aria-label": "query heads and the KV heads they read, for MHA, GQA, MQA and MLA" }, parts);
}

/**
 * A warning, in view under the figure, for the real models whose bars run past the context
 * they were trained for (max_position_embeddings): none of the defaults at 128K (the Llamas
 * are the 3.1 releases), DeepSeek-V3 past 163,840 tokens, the others past 131,072.
 * The bytes hold (the memory is what it is); the model's answers at that length do not.
 * (designs.py result "past_max_context" names the same models.)
 * @param {Array<[string, any]>} real
 * @param {number} long
 */
function pastTrainedLength(real, long) {
  const n = (/** @type {number | bigint} */ x) => Number(x).toLocaleString("en-US");
  const byMax = new Map();
  for (const [name, s] of real) {
    if (s.max_context && long > s.max_context) byMax.set(s.max_context, [...(byMax.get(s.max_context) || []), name]);
  }
  if (!byMax.size) return [];
  const and = (/** @type {string[]} */ xs) => (xs.length < 2 ? xs[0] : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  const count = [...byMax.values()].flat().length;
  const clauses = [...byMax].map(([max, names]) => `${and(names)} ${names.length === 1 ? "was" : "were"} trained for ${n(max)} tokens (max_position_embeddings)`);
  return [{ text: `${clauses.join("; ")}, not ${n(long)}: ${count === 1 ? "its bar holds for the memory, not for the model's" : "their bars hold for the memory, not for the models'"} quality.`, cls: "kv-warn" }];
}

/**
 * The text lines: each design's and each real model's bytes per token, what the designs
 * are, and the models asked past their trained length.
 * @param {string[]} labels the designs
 * @param {number[]} perToken their bytes per token
 * @param {Array<[string, ModelShape]>} real the real models beside them
 * @param {number} bits
 * @param {number} win the hybrid's window
 * @param {number} long the long context
 */
function textLines(labels, perToken, real, bits, win, long) {
  /** @type {Array<{ text: string, cls?: string }>} */
  const lines = labels.map((/** @type {string} */ l, /** @type {number} */ i) => ({ text: `${l.padEnd(20)} ${fmtBytes(perToken[i]).padStart(11)} per token${i === 4 ? " past the window (the sliding half holds at most " + win + " tokens)" : ""}` }));
  for (const [n, s] of real) {
    const capped = s.groups.some((/** @type {LayerGroup} */ g) => g.cap !== null && g.cap !== undefined);
    lines.push({ text: `${n.padEnd(20)} ${fmtBytes(kvBytesPerToken(s, bits)).padStart(11)} per token${capped ? " past its windows" : ""}` });
  }
  lines.push({ text: "Designs on the Llama 3 8B shape: 32 layers, 32 query heads, 128 head dim; GQA keeps 8 KV heads, MQA 1, MLA DeepSeek-V3's 512 + 64 latent.", cls: "kv-note" });
  lines.push(...pastTrainedLength(real, long));
  return lines;
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "Attention designs and their cache");
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app, "Long context (tokens)");
  selectControl(app, "window", "Hybrid window", () => axisValues(app, "windows").map((/** @type {number} */ w) => [w, w.toLocaleString("en-US")]));
  moreFold(app, () => selectControl(app, "x_scale", "Bar axis", () => [["log", "log"], ["linear", "linear"]]));
  resetButton(app);
  const outDesign = app.readout("designs", "Per token:");
  // what the long-context slider changes, in words (a slider move is announced by it)
  const outLong = app.readout("long_context", "One conversation at the long context:");
  // the head-sharing diagram sits between the text and the bars
  const heads = element("div", { class: "kv-diagram kv-heads" });
  app.plot.before(heads);
  let drawnHeads = ""; // what the diagram in `heads` was drawn from

  app.draw = () => {
    const L = app.lookup();
    const bits = L.bits("kv_dtype");
    const long = checkInt("context", model.get("context"), 1);
    const short = checkInt("short_context", model.get("short_context"), 1);
    const win = model.get("window");
    const xScale = model.get("x_scale");
    if (xScale !== "log" && xScale !== "linear") throw new KVInputError(`x_scale must be 'log' or 'linear', got '${xScale}'`);
    const labels = axisValues(app, "designs").map((/** @type {string} */ l) => l.replace("{window}", win));
    const shapes = labels.map((/** @type {string} */ l) => L.shape(l));
    /** @type {Array<[string, ModelShape]>} the real models beside the designs */
    const real = (model.get("real") || []).map((/** @type {string} */ n) => [n, L.shape(n)]);
    const perToken = shapes.map((/** @type {ModelShape} */ s) => kvBytesPerToken(s, bits));
    const t = app.theme();
    const sc = app.scale();
    const gb = (/** @type {ModelShape} */ shape, /** @type {number} */ tokens) => Number(kvBytes(shape, tokens, bits)) / 1e9;
    // The designs on one shape (top) and the real models (below) as two groups on one bar
    // axis, an empty row between them under a "Real models" heading, so a design is never
    // read as a model. One trace per context length (each in its ramp colour): a trace per
    // group as well made a context move about 1.3x slower.
    const GAP = " ";
    const realNames = real.map(([n]) => n);
    const rows = [...labels, GAP, ...realNames];
    const rowShapes = [...shapes, null, ...real.map(([, s]) => s)];
    const top = Math.max(...rowShapes.filter((s) => s).map((s) => gb(s, Math.max(short, long))));
    const traces = [short, long].map((tokens) => {
      const name = `${fmtTokens(tokens)} tokens`;
      return {
        type: "bar", name, orientation: "h", y: rows, x: rowShapes.map((s) => (s ? gb(s, tokens) : null)),
        marker: { color: rampColor(tokens, 1024, 1048576, t.dark) },  // the context length's colour
        // no printed sizes on the bars: plotly measures every bar text on each redraw; hover gives each size
        hovertemplate: "%{y}: %{x:.3f} GB<extra>" + name + "</extra>",
      };
    });
    const lines = textLines(labels, perToken, real, bits, win, long);
    // The diagram does not depend on the context lengths: a slider move keeps it.
    const headsWidth = diagramWidth(app);
    const headsKey = JSON.stringify([labels, perToken.map(String), headsWidth, sc, t]);
    const headsSvg = headsKey === drawnHeads ? null : headSharing(app, L, labels, perToken, headsWidth);
    // Everything is computed: now touch the page.
    app.say(lines);
    if (headsSvg) {
      heads.replaceChildren(headsSvg);
      drawnHeads = headsKey;
    }
    outDesign.textContent = labels.map((/** @type {string} */ l, /** @type {number} */ i) => `${l.split(" ")[0]} ${fmtBytes(perToken[i])}`).join(" · ");
    // The bars' names are long ("Sliding hybrid 1024", model names) and there is no
    // automargin (ui/plot.js plotLayout says why): size the left margin from the longest one,
    // about 0.62 em per character of the 12 px (x scale) tick font.
    const longest = Math.max(...rows.map((n) => String(n).length));
    const range = xScale === "log" ? undefined : [0, top * 1.04];
    const gbText = (/** @type {number | bigint} */ v) => `${v.toLocaleString("en-US", { maximumFractionDigits: 2 })} GB`;
    outLong.textContent = `${fmtTokens(long)} tokens: ${labels.map((/** @type {string} */ l, /** @type {number} */ i) => `${l.split(" ")[0]} ${gbText(gb(shapes[i], long))}`).join(" · ")}`;
    app.describeFigure(`KV cache of one conversation at ${fmtTokens(short)} and ${fmtTokens(long)} tokens, per attention design and real model`,
      `At ${fmtTokens(long)} tokens one conversation's cache is `
      + `${rows.flatMap((n, i) => (rowShapes[i] ? [`${n} ${gbText(gb(rowShapes[i], long))}`] : [])).join(", ")}.`);
    const heading = (/** @type {string} */ text, /** @type {string} */ yref, /** @type {number} */ y, /** @type {string} */ yanchor) => ({ text, xref: "paper", x: 0, yref, y, xanchor: "left", yanchor,
      showarrow: false, font: { color: t.fg, size: 12 * sc, weight: 600 } });
    drawPlot(app, traces, {
      barmode: "group",
      bargap: 0.25,
      margin: { l: Math.round((longest * 0.62 * 12 + 16) * sc), r: 20 * sc, t: 30 * sc, b: 56 * sc },
      height: Math.round(455 * sc),
      annotations: [
        heading("Designs, all on Llama 3 8B's shape", "paper", 1, "bottom"),
        heading("Real models", "y", labels.length, "middle"),  // in the empty row (category index)
      ],
      xaxis: { type: xScale, range, title: { text: `KV cache per conversation (GB, ${xScale} scale)` } },
      yaxis: { type: "category", autorange: "reversed" },
      legend: { orientation: "h", yanchor: "top", y: -0.16, font: { color: t.fg } },
    });
  };
  return startApp(app);
}

export default widgetModule(render);
