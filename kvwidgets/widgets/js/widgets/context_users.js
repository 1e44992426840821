// ContextVsUsers: conversations that fit against their length (log axis 1K..1M) for a
// 16-bit and an FP8 cache, 8K / 32K / 128K marked, the chosen point ringed; the marks and
// the chosen point are labelled on the chosen cache's line. The users axis is log by default (800 at 1K and 3 at 128K
// are both readable) with a linear choice.

import { fitMessage, maxContext, usersStaircase, usersThatFit } from "../calc/budget.js";
import { dtypeBits } from "../calc/dtypes.js";
import { KVInputError, checkInt } from "../calc/errors.js";
import { limitLines } from "../calc/model.js";
import { fmtConversations as conversations, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { conceptColor, dtypeColor, dtypeDash } from "../ui/colours.js";
import { contextControl, dtypeSelect, gpuCount, gpuSelect, modelSelect, moreFold, paramsBox, paramsOverride, resetButton, selectControl, utilizationSlider } from "../ui/controls.js";
import { diagramWidth } from "../ui/diagram.js";
import { markHolds } from "../ui/dom.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @import { ModelShape, GpuRow } from "../shapes"
 * @import { BudgetOptions } from "../calc/budget.js"
 * @typedef {ReturnType<import("../calc/budget.js").usersStaircase>} Staircase
 * @typedef {{ key?: string, lines?: Staircase[], segKey?: string, segments?: number[][] }} StepCache
 *   the step lines and their pixel segments, kept while only the context moves
 */

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

const LO = 1024;
const HI = 1048576;
// The context axis' ticks: powers of two named as the marks are (8K, not 8,192 or 10k),
// every one where the plot is wide enough, every other one where it is not. The arrays
// are made once: plotly.react compares arrays by reference, and a new one on every draw
// would redraw the axis at every slider step.
const TICKS_ALL = Array.from({ length: 11 }, (_, i) => LO * 2 ** i);
const TICKS_HALF = TICKS_ALL.filter((_, i) => i % 2 === 0);
/** @type {Map<number[], string[]>} each tick array's labels, made at the first draw (fmtTokens is the library's) */
const TICK_TEXT = new Map();

/**
 * The two step lines depend on neither the context nor the y scale: keep the last ones
 * so dragging the context slider only moves the marker.
 * @param {App} app
 * @param {StepCache} cache
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {Omit<BudgetOptions, "kvBits">} o
 * @param {Array<[string, string]>} lines
 * @param {Record<string, number>} dtypes
 */
function stepLines(app, cache, shape, gpu, o, lines, dtypes) {
  const key = JSON.stringify([shape, gpu, o, lines, dtypes]);  // the shape itself: a reloaded model may keep its name
  if (cache.key !== key) {
    cache.lines = lines.map(([/** @type {string} */ dt]) => usersStaircase(shape, gpu, { ...o, kvBits: dtypeBits(dtypes, dt) }, LO, HI));
    cache.key = key;
  }
  return /** @type {Staircase[]} */ (cache.lines);
}

// The mark labels' arrows: from 18 px right and above the point down to it, 2 px wide,
// with a filled head whose sides run 8.5 px along the axes from the tip. These are the
// lengths plotly's own annotation arrow had here (ax 18, ay -18, arrowhead 1, width 2).
// A label's box stands this far (px at scale 1) right of and above its point, or left of it.
const OFFSET = 6;

/**
 * The step lines as pixel segments [x0, y0, x1, y1] (x0 <= x1, y0 <= y1; y up from the floor),
 * each line to where it stops (on a log axis, where none fits).
 * @param {Array<{x: number[], users: bigint[]}>} stairs
 * @param {boolean} isLog
 * @param {(c: number) => number} px
 * @param {(u: number) => number} py
 * @param {number} plotPx the plot's width
 */
function lineSegments(stairs, isLog, px, py, plotPx) {
  const segments = [];
  for (const st of stairs) {
    for (let j = 0; j < st.x.length; j++) {
      if (isLog && st.users[j] === 0n) break;  // a line stops where none fits
      const [x0, y0] = [px(st.x[j]), py(Number(st.users[j]))];
      const x1 = j + 1 < st.x.length ? px(st.x[j + 1]) : plotPx;
      segments.push([x0, y0, x1, y0]);
      if (j + 1 < st.x.length && !(isLog && st.users[j + 1] === 0n)) {
        const y1 = py(Number(st.users[j + 1]));
        segments.push([x1, Math.min(y0, y1), x1, Math.max(y0, y1)]);
      }
    }
  }
  return segments;
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "How many conversations fit as each one gets longer?");
  modelSelect(app);
  gpuSelect(app);
  gpuCount(app);
  contextControl(app);
  dtypeSelect(app, "weight_dtype", "Weights");
  dtypeSelect(app, "kv_dtype", "KV cache");
  moreFold(app, () => {
    utilizationSlider(app);
    selectControl(app, "y_scale", "Conversations axis", () => [["log", "log"], ["linear", "linear"]]);
    paramsBox(app);
  });
  resetButton(app);
  const outUsers = app.readout("users", "Conversations that fit at this length:");
  const outMax = app.readout("max_context", "Longest one conversation can be:");
  /** @type {StepCache} */
  const cache = {};

  app.draw = () => {
    markHolds([outUsers, outMax], false);
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const yScale = model.get("y_scale");
    if (yScale !== "log" && yScale !== "linear") throw new KVInputError(`y_scale must be 'log' or 'linear', got '${yScale}'`);
    const o = {
      numGpus: model.get("num_gpus"),
      weightBits: L.weightBits(),
      utilization: model.get("utilization"),
      params: paramsOverride(app),
    };
    const context = checkInt("context", model.get("context"), 1);
    const here = usersThatFit(shape, gpu, context, { ...o, kvBits: L.bits("kv_dtype") }); // throws on bad input
    const longest = maxContext(shape, gpu, 1, { ...o, kvBits: L.bits("kv_dtype") });
    /** @type {Array<[string, string]>} dtype and its line's name */
    const lines = axisValues(app, "lines");
    const stairs = stepLines(app, cache, shape, gpu, o, lines, L.dtypes);
    const t = app.theme();
    const isLog = yScale === "log";
    /** @type {Array<Record<string, any>>} plotly.js traces */
    const traces = lines.map(([, /** @type {string} */ name], /** @type {number} */ i) => ({
      type: "scatter", mode: "lines", name,
      x: stairs[i].x, y: stairs[i].users.map(Number),
      line: { color: dtypeColor(lines[i][0]) || conceptColor("other"), dash: dtypeDash(lines[i][0]), shape: "hv" },  // users hold until the next drop
      hovertemplate: "from %{x:,} tokens: %{y:,} conversations<extra>" + name + "</extra>",
    }));
    /** @type {number[]} */
    const marks = axisValues(app, "marks");
    const shapes = marks.map((/** @type {number} */ c) => ({
      type: "line", x0: c, x1: c, yref: "paper", y0: 0, y1: 1, line: { dash: "dot", color: t.fg2, width: 1 },
    }));
    /** @type {Array<Record<string, any>>} plotly.js annotations */
    const annotations = marks.map((/** @type {number} */ c) => ({
      x: Math.log10(c), yref: "paper", y: 1, yanchor: "bottom", text: fmtTokens(c), showarrow: false, font: { color: t.fg2 },
    }));
    // 0 has no place on a log axis: where a line reaches 0 it stops, the marks past that
    // point get no label, and a label per such line says from where none fits. The labels
    // stand in the plot's top right corner: the lines fall to the right, so that corner is
    // empty, where the floor under a stopped line is where the other line runs on.
    /** @type {Array<[string, number]>} a line's name and the first context where none fits */
    const zeroFroms = isLog
      ? /** @type {Array<[string, number]>} */ (stairs.map((st, i) => [lines[i][1], st.x[st.users.findIndex((u) => u === 0n)]]).filter(([, x]) => x !== undefined))
      : [];
    // The chosen point and the marks are labelled on the chosen cache's line (the readout's
    // number), each label a box 18 px right of and above its point with an arrow back to it,
    // or left of it where the plot ends first. Positions in pixels along the log x axis.
    const s = app.scale();
    const kvBits = L.bits("kv_dtype");
    const on = Math.max(0, lines.findIndex(([/** @type {string} */ dt]) => dtypeBits(L.dtypes, dt) === kvBits));
    const usersOn = (/** @type {number} */ c, i = on) => {
      const st = stairs[i];
      let j = 0;
      while (j + 1 < st.x.length && st.x[j + 1] <= c) j++;
      return Number(st.users[j]);
    };
    const plotPx = Math.max(1, diagramWidth(app) - 92 * s);  // plotLayout's margins l + r
    const px = (/** @type {number} */ c) => ((Math.log10(c) - Math.log10(LO)) / (Math.log10(HI) - Math.log10(LO))) * plotPx;
    const boxPx = (/** @type {string} */ text) => text.length * 12 * s * 0.56 + 6 * s;
    // the y axis' pixels, from the range plotly will fit to the lines (near enough to tell
    // whether two labels share a row): plotLayout's height less its top and bottom margins
    const top = Math.max(1, ...stairs.map((/** @type {Staircase} */ st) => Number(st.users[0])));
    const plotH = 274 * s;
    const py = (/** @type {number} */ u) => (isLog ? (Math.log10(Math.max(u, 1)) / Math.max(1, Math.log10(top))) * plotH : (u / top) * plotH);
    // Each line's labels stand on the side away from the other line, so that no box hides
    // it: the upper line's (the cache that holds more) above and right of their point, the
    // lower line's below and left of it. Both sides are clear of a label's own line too:
    // a line that only falls left to right runs above-left and below-right of its points.
    // The upper line is the one with fewer bits per value (FP8 holds twice 16-bit's).
    const bitsOf = (/** @type {number} */ i) => dtypeBits(L.dtypes, lines[i][0]);
    const upper = bitsOf(0) <= bitsOf(1) ? 0 : 1;
    const boxH = 12 * s * 1.5;
    // Both lines as pixel segments (x along, y up from the floor): a label's box is checked
    // against them, so that where its first side would cover a line it takes another. They
    // move with neither the context nor the chosen cache: kept while the slider moves.
    const segKey = JSON.stringify([cache.key, isLog, plotPx, plotH]);
    if (cache.segKey !== segKey) {
      cache.segments = lineSegments(stairs, isLog, px, py, plotPx);
      cache.segKey = segKey;
    }
    /** @type {number[][]} */
    const segments = /** @type {number[][]} */ (cache.segments);
    const covers = (/** @type {number} */ l, /** @type {number} */ r, /** @type {number} */ b, /** @type {number} */ tp) => segments.some(([x0, y0, x1, y1]) => x0 < r && x1 > l && y0 < tp && y1 > b);
    /** a label's box from its point on line `i`: [left, right] in px, and which sides it takes:
     *  the line's own side first, then the others, the first that stays in the plot (a label
     *  may reach 18 px into the right margin) and covers no line; if every side covers one,
     *  the first that stays in the plot, with a see-through box (`clear`) so the line shows. */
    const place = (/** @type {number} */ c, /** @type {string} */ text, /** @type {number} */ i, /** @type {number} */ u) => {
      const w = boxPx(text);
      const off = OFFSET * s;
      const [x, y] = [px(c), py(u)];
      const sides = i === upper ? [[false, false], [true, false], [false, true], [true, true]] : [[true, true], [false, true], [true, false], [false, false]];
      let first = null;
      for (const [left, below] of sides) {
        const [l, r] = left ? [x - off - w, x - off] : [x + off, x + off + w];
        const [b, tp] = below ? [y - off - boxH, y - off] : [y + off, y + off + boxH];
        if (l < -off || r > plotPx + 18 * s || b < 0) continue;
        const side = { left, below, span: [l, r], clear: false };
        if (!covers(l + 1, r - 1, b + 1, tp - 1)) return side;
        first = first || { ...side, clear: true };
      }
      return first || { left: false, below: false, span: [x + off, x + off + w], clear: true };
    };
    // A box with its corner at the point. A mark's label points back at its point with an
    // arrow character: an arrow drawn as plotly shapes (or the annotation's own arrow) is
    // work on every redraw, and shapes that appear or vanish as the slider moves made a
    // step about 1.2x slower than the previous release.
    const ARROWS = { "true,true": "\u2197", "true,false": "\u2198", "false,true": "\u2196", "false,false": "\u2199" };
    const label = (/** @type {number} */ c, /** @type {number} */ y, /** @type {number} */ u, /** @type {number} */ i, /** @type {string} */ text, /** @type {string} */ border, /** @type {number} */ width, shown = true, arrow = false) => {
      const { left, below, clear } = place(c, text, i, u);
      const head = ARROWS[`${left},${below}`];
      annotations.push({
        x: Math.log10(c), y, text: !arrow ? text : left ? `${text} ${head}` : `${head} ${text}`, showarrow: false, opacity: shown ? 1 : 0,
        xshift: (left ? -1 : 1) * OFFSET * s, yshift: (below ? -1 : 1) * OFFSET * s, xanchor: left ? "right" : "left", yanchor: below ? "top" : "bottom",
        font: { color: t.fg }, bordercolor: border, borderwidth: width, bgcolor: clear ? "transparent" : t.bg,
      });
    };
    const chosenUsers = Number(here.users);
    const chosenText = chosenUsers > 0 || !isLog ? conversations(chosenUsers) : `none fits at ${fmtTokens(context)}`;
    const chosenSpan = place(context, chosenText, on, chosenUsers).span;
    for (const c of marks) {  // the conversation count at each mark
      const u = usersOn(c);
      if (isLog && u === 0) continue;
      // the chosen point's own label says it; a mark whose label would share its place gives way
      const span = place(c, `${conversations(u)} \u2198`, on, u).span;
      const sameRow = Math.abs(py(u) - py(chosenUsers)) < 22 * s;
      const givesWay = sameRow && span[0] < chosenSpan[1] + 4 * s && chosenSpan[0] < span[1] + 4 * s;
      // hidden, not left out: the same annotations in the same places keep a slider step a
      // redraw of the annotations (a changed list makes plotly recompute every trace)
      label(c, isLog ? Math.log10(u) : u, u, on, conversations(u), conceptColor("kv"), 1, !givesWay, true);
    }
    // The other cache's count at each mark, named by its cache, on its own side of its line.
    // A text trace, not annotations: it moves with neither the context nor the chosen point,
    // and plotly leaves a trace alone while the slider moves (drawPlot's dataKey), where
    // every annotation is drawn again at each step.
    const other = 1 - on;
    /** @type {Array<[number, number]>} */
    const otherMarks = marks.map((c) => /** @type {[number, number]} */ ([c, usersOn(c, other)])).filter(([, u]) => !(isLog && u === 0));
    const otherText = otherMarks.map(([, /** @type {number} */ u]) => `${lines[other][1]}: ${u.toLocaleString("en-US")}`);
    // plotly sets a text beside its point with almost no gap: each point is moved OFFSET px
    // along both axes to the side its words take, as the label boxes stand off theirs
    const sides = otherMarks.map(([/** @type {number} */ c, /** @type {number} */ u], /** @type {number} */ k) => place(c, otherText[k], other, u));
    const decadesY = isLog ? Math.max(1, Math.log10(top)) : 0;
    const dx = (OFFSET * s / plotPx) * (Math.log10(HI) - Math.log10(LO));
    const dy = OFFSET * s / plotH;
    traces.push({
      type: "scatter", mode: "text", name: `${lines[other][1]} at the marks`, showlegend: false, hoverinfo: "skip",
      x: otherMarks.map(([/** @type {number} */ c], /** @type {number} */ k) => c * 10 ** ((sides[k].left ? -1 : 1) * dx)),
      y: otherMarks.map(([, /** @type {number} */ u], /** @type {number} */ k) => (isLog ? u * 10 ** ((sides[k].below ? -1 : 1) * dy * decadesY) : u + (sides[k].below ? -1 : 1) * dy * top)),
      text: otherText,
      textposition: sides.map(({ /** @type {boolean} */ left, /** @type {boolean} */ below }) => `${below ? "bottom" : "top"} ${left ? "left" : "right"}`),
      textfont: { color: t.fg },
    });
    if (zeroFroms.length) {  // one box, a line per cache: each annotation is work on every redraw
      annotations.push({
        x: Math.log10(HI), y: 1, yref: "paper", xanchor: "right", yanchor: "top", xshift: -4, yshift: -4, align: "right",
        showarrow: false, text: zeroFroms.map(([name, x]) => `${name}: none fits past ${(x - 1).toLocaleString("en-US")} tokens`).join("<br>"),
        font: { color: t.fg }, bordercolor: t.fg2, bgcolor: t.bg,
      });
    }
    // The chosen point is layout annotations (a ring and its label), not a trace: moving the
    // context then changes no trace and Plotly redraws only the annotations (drawPlot's
    // dataKey). Annotations sit at log10 positions on log axes, as the marks' labels do.
    // A ring in the text colour, as DecodeSpeed's; where none fits, a mark in the warning
    // colour on the floor (0 has no place on a log axis) and a label saying so.
    if (chosenUsers > 0) {
      const y = isLog ? Math.log10(chosenUsers) : chosenUsers;
      annotations.push({ x: Math.log10(context), y, text: "\u25EF",
        showarrow: false, xanchor: "center", yanchor: "middle", font: { color: t.fg, size: 14 * s } });
      // its label beside the ring, no arrow: a shape that moved with the slider would make
      // every step recompute the traces
      label(context, y, chosenUsers, on, chosenText, t.fg, 2);
    } else {
      const floor = { yref: "paper", y: 0 };
      annotations.push({ x: Math.log10(context), ...floor, text: "\u25BC", showarrow: false, xanchor: "center", yanchor: "bottom",
        font: { color: conceptColor("warning"), size: 14 * s } });
      const leftOfFloor = place(context, chosenText, upper, 0).left;  // right of its mark, unless the plot ends first
      annotations.push({ x: Math.log10(context), ...floor, text: chosenText, showarrow: false, yanchor: "bottom", yshift: 20 * s,
        xanchor: leftOfFloor ? "right" : "left", xshift: leftOfFloor ? 4 * s : -4 * s,
        font: { color: t.fg }, bordercolor: conceptColor("warning"), borderwidth: 2, bgcolor: t.bg });
    }
    // A model that does not load, or loads but has no room for one conversation of even
    // 1K tokens, has no line to draw: a message takes the chart's place.
    const nothing = stairs.every((/** @type {Staircase} */ st) => st.users.every((u) => u === 0n));
    const failed = !here.weights_fit ? fitMessage(here)
      : nothing ? `The model loads, but not one conversation of ${fmtTokens(LO)} tokens fits, with either cache. ${fitMessage(here)}` : "";
    const ticks = plotPx >= 440 * s ? TICKS_ALL : TICKS_HALF;
    if (!TICK_TEXT.has(ticks)) TICK_TEXT.set(ticks, ticks.map(fmtTokens));
    const shortRange = Math.max(...stairs.map((/** @type {Staircase} */ st) => Number(st.users[0]))) < 300;
    // Everything is computed: now touch the page.
    const textLines = [{ text: fitMessage(here), cls: failed || here.users > 0n ? "kv-note" : "kv-warn" }];
    if (isLog && !failed && stairs.some((/** @type {Staircase} */ st) => st.users.some((u) => u === 0n))) {
      textLines.push({ text: "Where no conversation fits the line stops: 0 has no place on a log axis.", cls: "kv-note" });
    }
    textLines.push(...limitLines(shape, { context: model.get("context"), weights: true, params: o.params }));
    app.say(textLines);
    outUsers.textContent = `${Number(here.users).toLocaleString("en-US")} (${String(model.get("kv_dtype")).toUpperCase()} cache)`;
    // the memory's answer; past the length the model was trained for, say where the model stops
    const pastModel = longest !== null && shape.max_context && longest > shape.max_context
      ? `, past the model's ${shape.max_context.toLocaleString("en-US")}-token limit` : "";
    outMax.textContent = longest === null ? "no limit" : longest === 0 ? "none" : `${longest.toLocaleString("en-US")} tokens${pastModel}`;
    if (failed) {
      // both readouts stay true when nothing can be drawn: none fits, and the longest is the model's
      if (!here.weights_fit) outUsers.textContent = "none (the model does not load)";
      markHolds([outUsers, outMax], true);
      app.failure(failed);
      return;  // the chart stays hidden until the inputs draw something true
    }
    const cacheName = `${String(model.get("kv_dtype")).toUpperCase()} cache`;
    app.describeFigure(`conversations that fit against the length of each, ${cacheName}`,
      `${chosenUsers > 0 ? `${conversations(chosenUsers)} of ${fmtTokens(context)} tokens fit` : chosenText}; `
      + `${marks.map((/** @type {number} */ c) => `${conversations(usersOn(c))} at ${fmtTokens(c)}`).join(", ")}; `
      + `the longest one conversation can be: ${outMax.textContent}.`);
    drawPlot(app, traces, {
      shapes, annotations,
      xaxis: { type: "log", title: { text: "context (tokens per conversation)" }, range: [Math.log10(LO), Math.log10(HI)],
        tickmode: "array", tickvals: ticks, ticktext: TICK_TEXT.get(ticks) },
      // On a short range (a few hundred conversations at most) plotly labels every digit and
      // those under 10 crowd together: ticks at 1, 2, 5 of each decade then. Only then: a
      // set dtick makes each redraw slower (about 1.5x here), and longer ranges get 1, 2, 5
      // from plotly itself.
      yaxis: isLog ? { type: "log", ...(shortRange ? { dtick: "D2" } : {}), title: { text: "conversations that fit (log)" } }
        : { type: "linear", title: { text: "conversations that fit" }, rangemode: "tozero" },
    }, [cache.key, yScale, on, plotPx]);  // the marks' text trace: which cache is the other, where its words fit
  };
  return startApp(app);
}

export default widgetModule(render);
