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
 * @typedef {ReturnType<App["theme"]>} Theme
 * @typedef {ReturnType<typeof readInputs>} Inputs
 * @typedef {ReturnType<typeof pixelAxes>} Axes
 * @typedef {ReturnType<typeof figureLayout>} Figure
 * @typedef {ReturnType<typeof chosenPoint>} Chosen
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

// A label's box stands this far (px at scale 1) from its point along both axes, on the
// side it takes (right or left of it, above or below it).
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
 * The count on a step line at context c: the step that holds from the last drop before it.
 * @param {Staircase} st
 * @param {number} c
 */
function usersAt(st, c) {
  let j = 0;
  while (j + 1 < st.x.length && st.x[j + 1] <= c) j++;
  return Number(st.users[j]);
}

/**
 * The controls and the readouts.
 * @param {App} app
 */
function buildControls(app) {
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
  return { outUsers, outMax };
}

/**
 * One draw's inputs, read and checked in the order their errors are reported, what fits at
 * the chosen length, and the two step lines with the marks along them.
 * @param {App} app
 * @param {StepCache} cache
 */
function readInputs(app, cache) {
  const model = app.model;
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
  const kvBits = L.bits("kv_dtype");
  const here = usersThatFit(shape, gpu, context, { ...o, kvBits }); // throws on bad input
  const longest = maxContext(shape, gpu, 1, { ...o, kvBits });
  /** @type {Array<[string, string]>} dtype and its line's name */
  const lines = axisValues(app, "lines");
  const stairs = stepLines(app, cache, shape, gpu, o, lines, L.dtypes);
  /** @type {number[]} */
  const marks = axisValues(app, "marks");
  return { L, shape, yScale, isLog: yScale === "log", o, context, kvBits, here, longest, lines, stairs, marks };
}

/**
 * The two step lines as plotly traces, each in its cache's colour and dash.
 * @param {Inputs} inp
 */
function stepTraces({ lines, stairs }) {
  /** @type {Array<Record<string, any>>} plotly.js traces */
  const traces = lines.map(([, /** @type {string} */ name], /** @type {number} */ i) => ({
    type: "scatter", mode: "lines", name,
    x: stairs[i].x, y: stairs[i].users.map(Number),
    line: { color: dtypeColor(lines[i][0]) || conceptColor("other"), dash: dtypeDash(lines[i][0]), shape: "hv" },  // users hold until the next drop
    hovertemplate: "from %{x:,} tokens: %{y:,} conversations<extra>" + name + "</extra>",
  }));
  return traces;
}

/**
 * The marks (8K, 32K, 128K): a dotted line across the plot each, named over its top.
 * @param {number[]} marks
 * @param {Theme} t
 */
function markLines(marks, t) {
  const shapes = marks.map((/** @type {number} */ c) => ({
    type: "line", x0: c, x1: c, yref: "paper", y0: 0, y1: 1, line: { dash: "dot", color: t.fg2, width: 1 },
  }));
  /** @type {Array<Record<string, any>>} plotly.js annotations */
  const annotations = marks.map((/** @type {number} */ c) => ({
    x: Math.log10(c), yref: "paper", y: 1, yanchor: "bottom", text: fmtTokens(c), showarrow: false, font: { color: t.fg2 },
  }));
  return { shapes, annotations };
}

/**
 * The plot's pixels, as the labels are placed in them: x along the log context axis, y up
 * from the floor on the range plotly will fit to the lines (near enough to tell whether
 * two labels share a row).
 * @param {App} app
 * @param {Inputs} inp
 */
function pixelAxes(app, { stairs, isLog }) {
  const s = app.scale();
  const plotPx = Math.max(1, diagramWidth(app) - 92 * s);  // plotLayout's margins l + r
  const px = (/** @type {number} */ c) => ((Math.log10(c) - Math.log10(LO)) / (Math.log10(HI) - Math.log10(LO))) * plotPx;
  const top = Math.max(1, ...stairs.map((/** @type {Staircase} */ st) => Number(st.users[0])));
  const plotH = 274 * s;  // plotLayout's height less its top and bottom margins
  const py = (/** @type {number} */ u) => (isLog ? (Math.log10(Math.max(u, 1)) / Math.max(1, Math.log10(top))) * plotH : (u / top) * plotH);
  return { s, plotPx, px, top, plotH, py };
}

/**
 * Which line the labels stand on: the chosen cache's (the readout's number). And which
 * line is the upper one: each line's labels stand on the side away from the other line,
 * so that no box hides it, the upper line's (the cache that holds more) above and right
 * of their point, the lower line's below and left of it. Both sides are clear of a
 * label's own line too: a line that only falls left to right runs above-left and
 * below-right of its points. The upper line is the one with fewer bits per value (FP8
 * holds twice 16-bit's).
 * @param {Inputs} inp
 */
function labelledLines({ L, lines, kvBits }) {
  const on = Math.max(0, lines.findIndex(([/** @type {string} */ dt]) => dtypeBits(L.dtypes, dt) === kvBits));
  const bitsOf = (/** @type {number} */ i) => dtypeBits(L.dtypes, lines[i][0]);
  const upper = bitsOf(0) <= bitsOf(1) ? 0 : 1;
  return { on, upper };
}

/**
 * Both lines as pixel segments (x along, y up from the floor): a label's box is checked
 * against them, so that where its first side would cover a line it takes another. They
 * move with neither the context nor the chosen cache: kept while the slider moves.
 * @param {StepCache} cache
 * @param {Inputs} inp
 * @param {Axes} ax
 */
function cachedSegments(cache, { stairs, isLog }, { px, py, plotPx, plotH }) {
  const segKey = JSON.stringify([cache.key, isLog, plotPx, plotH]);
  if (cache.segKey !== segKey) {
    cache.segments = lineSegments(stairs, isLog, px, py, plotPx);
    cache.segKey = segKey;
  }
  return /** @type {number[][]} */ (cache.segments);
}

/**
 * Where a label goes: its box from its point on line `i`, [left, right] in px, and which
 * sides it takes: the line's own side first, then the others, the first that stays in the
 * plot (a label may reach 18 px into the right margin) and covers no line; if every side
 * covers one, the first that stays in the plot, with a see-through box (`clear`) so the
 * line shows.
 * @param {Axes} ax
 * @param {number[][]} segments
 * @param {number} upper
 */
function labelPlacer({ s, plotPx, px, py }, segments, upper) {
  const boxPx = (/** @type {string} */ text) => text.length * 12 * s * 0.56 + 6 * s;
  const boxH = 12 * s * 1.5;
  const covers = (/** @type {number} */ l, /** @type {number} */ r, /** @type {number} */ b, /** @type {number} */ tp) => segments.some(([x0, y0, x1, y1]) => x0 < r && x1 > l && y0 < tp && y1 > b);
  return (/** @type {number} */ c, /** @type {string} */ text, /** @type {number} */ i, /** @type {number} */ u) => {
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
}

/**
 * What the labels are laid out with: the draw's inputs and theme, the pixel axes, the
 * labelled and the upper line, the count on a line at a context, and where a label goes.
 * @param {App} app
 * @param {Inputs} inp
 * @param {StepCache} cache
 */
function figureLayout(app, inp, cache) {
  const ax = pixelAxes(app, inp);
  const { on, upper } = labelledLines(inp);
  const segments = cachedSegments(cache, inp, ax);
  /** the count on line `i` (the labelled one unless said) at context c */
  const usersOn = (/** @type {number} */ c, i = on) => usersAt(inp.stairs[i], c);
  return { inp, t: app.theme(), ...ax, on, upper, usersOn, place: labelPlacer(ax, segments, upper) };
}

// A mark's label points back at its point with an arrow character, by the side its box
// takes ([left, below]): an arrow drawn as plotly shapes (or the annotation's own arrow)
// is work on every redraw, and shapes that appear or vanish as the slider moves make each
// step of it slower.
const ARROWS = { "true,true": "\u2197", "true,false": "\u2198", "false,true": "\u2196", "false,false": "\u2199" };

/**
 * A label as a box with its corner at its point (c, y) on line `i`, on the side place() gives it.
 * @param {Figure} f
 * @param {{ c: number, y: number, u: number, i: number, text: string, border: string, width: number, shown?: boolean, arrow?: boolean }} label
 *   u: the count at the point; hidden (not shown) labels keep their place; arrow: one points back at the point
 */
function labelAnnotation({ t, s, place }, { c, y, u, i, text, border, width, shown = true, arrow = false }) {
  const { left, below, clear } = place(c, text, i, u);
  const head = ARROWS[`${left},${below}`];
  return {
    x: Math.log10(c), y, text: !arrow ? text : left ? `${text} ${head}` : `${head} ${text}`, showarrow: false, opacity: shown ? 1 : 0,
    xshift: (left ? -1 : 1) * OFFSET * s, yshift: (below ? -1 : 1) * OFFSET * s, xanchor: left ? "right" : "left", yanchor: below ? "top" : "bottom",
    font: { color: t.fg }, bordercolor: border, borderwidth: width, bgcolor: clear ? "transparent" : t.bg,
  };
}

/**
 * The chosen point's count on the labelled line, its label's text and that label's span.
 * @param {Figure} f
 */
function chosenPoint({ inp, on, place }) {
  const users = Number(inp.here.users);
  const text = users > 0 || !inp.isLog ? conversations(users) : `none fits at ${fmtTokens(inp.context)}`;
  return { users, text, span: place(inp.context, text, on, users).span };
}

/**
 * The labelled line's count at each mark, in a box with an arrow back to its point.
 * @param {Figure} f
 * @param {Chosen} chosen
 */
function markLabels(f, chosen) {
  const { inp, s, py, on } = f;
  const labels = [];
  for (const c of inp.marks) {
    const u = f.usersOn(c);
    if (inp.isLog && u === 0) continue;
    // the chosen point's own label says it; a mark whose label would share its place gives way
    const span = f.place(c, `${conversations(u)} \u2198`, on, u).span;
    const sameRow = Math.abs(py(u) - py(chosen.users)) < 22 * s;
    const givesWay = sameRow && span[0] < chosen.span[1] + 4 * s && chosen.span[0] < span[1] + 4 * s;
    // hidden, not left out: the same annotations in the same places keep a slider step a
    // redraw of the annotations (a changed list makes plotly recompute every trace)
    labels.push(labelAnnotation(f, { c, y: inp.isLog ? Math.log10(u) : u, u, i: on, text: conversations(u),
      border: conceptColor("kv"), width: 1, shown: !givesWay, arrow: true }));
  }
  return labels;
}

/**
 * The other cache's count at each mark, named by its cache, on its own side of its line.
 * A text trace, not annotations: it moves with neither the context nor the chosen point,
 * and plotly leaves a trace alone while the slider moves (drawPlot's dataKey), where
 * every annotation is drawn again at each step.
 * @param {Figure} f
 */
function otherCacheTrace(f) {
  const { inp, t, s, plotPx, plotH, top } = f;
  const { isLog, lines, marks } = inp;
  const other = 1 - f.on;
  /** @type {Array<[number, number]>} */
  const otherMarks = marks.map((c) => /** @type {[number, number]} */ ([c, f.usersOn(c, other)])).filter(([, u]) => !(isLog && u === 0));
  const otherText = otherMarks.map(([, /** @type {number} */ u]) => `${lines[other][1]}: ${u.toLocaleString("en-US")}`);
  // plotly sets a text beside its point with almost no gap: each point is moved OFFSET px
  // along both axes to the side its words take, as the label boxes stand off theirs
  const sides = otherMarks.map(([/** @type {number} */ c, /** @type {number} */ u], /** @type {number} */ k) => f.place(c, otherText[k], other, u));
  const decadesY = isLog ? Math.max(1, Math.log10(top)) : 0;
  const dx = (OFFSET * s / plotPx) * (Math.log10(HI) - Math.log10(LO));
  const dy = OFFSET * s / plotH;
  return {
    type: "scatter", mode: "text", name: `${lines[other][1]} at the marks`, showlegend: false, hoverinfo: "skip",
    x: otherMarks.map(([/** @type {number} */ c], /** @type {number} */ k) => c * 10 ** ((sides[k].left ? -1 : 1) * dx)),
    y: otherMarks.map(([, /** @type {number} */ u], /** @type {number} */ k) => (isLog ? u * 10 ** ((sides[k].below ? -1 : 1) * dy * decadesY) : u + (sides[k].below ? -1 : 1) * dy * top)),
    text: otherText,
    textposition: sides.map(({ /** @type {boolean} */ left, /** @type {boolean} */ below }) => `${below ? "bottom" : "top"} ${left ? "left" : "right"}`),
    textfont: { color: t.fg },
  };
}

/**
 * 0 has no place on a log axis: where a line reaches 0 it stops, the marks past that point
 * get no label, and a line per such cache says from where none fits. One box in the plot's
 * top right corner (each annotation is work on every redraw): the lines fall to the right,
 * so that corner is empty, where the floor under a stopped line is where the other runs on.
 * @param {Inputs} inp
 * @param {Theme} t
 * @returns {Record<string, any> | null} the box, or null where every line runs to the end
 */
function noneFitsBox({ isLog, stairs, lines }, t) {
  if (!isLog) return null;
  /** @type {Array<[string, number]>} a line's name and the first context where none fits */
  const zeroFroms = /** @type {Array<[string, number]>} */ (stairs.map((st, i) => [lines[i][1], st.x[st.users.findIndex((u) => u === 0n)]]).filter(([, x]) => x !== undefined));
  if (!zeroFroms.length) return null;
  return {
    x: Math.log10(HI), y: 1, yref: "paper", xanchor: "right", yanchor: "top", xshift: -4, yshift: -4, align: "right",
    showarrow: false, text: zeroFroms.map(([name, x]) => `${name}: none fits past ${(x - 1).toLocaleString("en-US")} tokens`).join("<br>"),
    font: { color: t.fg }, bordercolor: t.fg2, bgcolor: t.bg,
  };
}

/**
 * The chosen point as layout annotations, not a trace: moving the context then changes no
 * trace and Plotly redraws only the annotations (drawPlot's dataKey). They sit at log10
 * positions on log axes, as the marks' labels do. A ring in the text colour, as
 * DecodeSpeed's, with its label beside it and no arrow (a shape that moved with the slider
 * would make every step recompute the traces); where none fits, a mark in the warning
 * colour on the floor (0 has no place on a log axis) and a label saying so.
 * @param {Figure} f
 * @param {Chosen} chosen
 * @returns {Array<Record<string, any>>}
 */
function chosenAnnotations(f, chosen) {
  const { inp, t, s } = f;
  const x = Math.log10(inp.context);
  if (chosen.users > 0) {
    const y = inp.isLog ? Math.log10(chosen.users) : chosen.users;
    return [
      { x, y, text: "\u25EF", showarrow: false, xanchor: "center", yanchor: "middle", font: { color: t.fg, size: 14 * s } },
      labelAnnotation(f, { c: inp.context, y, u: chosen.users, i: f.on, text: chosen.text, border: t.fg, width: 2 }),
    ];
  }
  const floor = { yref: "paper", y: 0 };
  const leftOfFloor = f.place(inp.context, chosen.text, f.upper, 0).left;  // right of its mark, unless the plot ends first
  return [
    { x, ...floor, text: "\u25BC", showarrow: false, xanchor: "center", yanchor: "bottom", font: { color: conceptColor("warning"), size: 14 * s } },
    { x, ...floor, text: chosen.text, showarrow: false, yanchor: "bottom", yshift: 20 * s,
      xanchor: leftOfFloor ? "right" : "left", xshift: leftOfFloor ? 4 * s : -4 * s,
      font: { color: t.fg }, bordercolor: conceptColor("warning"), borderwidth: 2, bgcolor: t.bg },
  ];
}

/**
 * Why there is nothing to draw, or "": a model that does not load, or loads but has no
 * room for one conversation of even 1K tokens, has no line; a message takes the chart's place.
 * @param {Inputs} inp
 */
function failureText({ here, stairs }) {
  const nothing = stairs.every((/** @type {Staircase} */ st) => st.users.every((u) => u === 0n));
  return !here.weights_fit ? fitMessage(here)
    : nothing ? `The model loads, but not one conversation of ${fmtTokens(LO)} tokens fits, with either cache. ${fitMessage(here)}` : "";
}

/**
 * The text under the figure: the fit in words (a warning when none fits), why a line
 * stops on a log axis, and the model's own limits.
 * @param {App} app
 * @param {Inputs} inp
 * @param {string} failed
 */
function sayText(app, { here, isLog, stairs, shape, o }, failed) {
  const textLines = [{ text: fitMessage(here), cls: failed || here.users > 0n ? "kv-note" : "kv-warn" }];
  if (isLog && !failed && stairs.some((/** @type {Staircase} */ st) => st.users.some((u) => u === 0n))) {
    textLines.push({ text: "Where no conversation fits the line stops: 0 has no place on a log axis.", cls: "kv-note" });
  }
  textLines.push(...limitLines(shape, { context: app.model.get("context"), weights: true, params: o.params }));
  app.say(textLines);
}

/**
 * The readouts: the count at this length on the chosen cache, and the longest one
 * conversation can be, the memory's answer (past the length the model was trained for,
 * said so).
 * @param {App} app
 * @param {ReturnType<typeof buildControls>} outs
 * @param {Inputs} inp
 */
function fillReadouts(app, { outUsers, outMax }, { here, longest, shape }) {
  outUsers.textContent = `${Number(here.users).toLocaleString("en-US")} (${String(app.model.get("kv_dtype")).toUpperCase()} cache)`;
  const pastModel = longest !== null && shape.max_context && longest > shape.max_context
    ? `, past the model's ${shape.max_context.toLocaleString("en-US")}-token limit` : "";
  outMax.textContent = longest === null ? "no limit" : longest === 0 ? "none" : `${longest.toLocaleString("en-US")} tokens${pastModel}`;
}

/**
 * The chart's point in words, from the numbers the readouts show.
 * @param {App} app
 * @param {Figure} f
 * @param {Chosen} chosen
 * @param {string} longestText the readout of the longest one conversation can be
 */
function describeChart(app, f, chosen, longestText) {
  const { context, marks } = f.inp;
  const cacheName = `${String(app.model.get("kv_dtype")).toUpperCase()} cache`;
  app.describeFigure(`conversations that fit against the length of each, ${cacheName}`,
    `${chosen.users > 0 ? `${conversations(chosen.users)} of ${fmtTokens(context)} tokens fit` : chosen.text}; `
    + `${marks.map((/** @type {number} */ c) => `${conversations(f.usersOn(c))} at ${fmtTokens(c)}`).join(", ")}; `
    + `the longest one conversation can be: ${longestText}.`);
}

/**
 * The plotly chart: the log context axis with its ticks named as the marks are, the
 * conversations axis log or linear.
 * @param {App} app
 * @param {Figure} f
 * @param {Array<Record<string, any>>} traces
 * @param {{ shapes: Array<Record<string, any>>, annotations: Array<Record<string, any>> }} marked
 * @param {string | undefined} linesKey the step lines' cache key
 */
function plotChart(app, f, traces, { shapes, annotations }, linesKey) {
  const { s, plotPx, on } = f;
  const { isLog, stairs, yScale } = f.inp;
  const ticks = plotPx >= 440 * s ? TICKS_ALL : TICKS_HALF;
  if (!TICK_TEXT.has(ticks)) TICK_TEXT.set(ticks, ticks.map(fmtTokens));
  const shortRange = Math.max(...stairs.map((/** @type {Staircase} */ st) => Number(st.users[0]))) < 300;
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
  }, [linesKey, yScale, on, plotPx]);  // the marks' text trace: which cache is the other, where its words fit
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "How many conversations fit as each one gets longer?");
  const outs = buildControls(app);
  const values = [outs.outUsers, outs.outMax];
  /** @type {StepCache} */
  const cache = {};

  app.draw = () => {
    markHolds(values, false);
    const inp = readInputs(app, cache);
    const traces = stepTraces(inp);
    const { shapes, annotations } = markLines(inp.marks, app.theme());
    // The chosen point and the marks are labelled on the chosen cache's line, each label a
    // box beside its point, on the side away from the other line where the plot has room.
    const f = figureLayout(app, inp, cache);
    const chosen = chosenPoint(f);
    annotations.push(...markLabels(f, chosen));
    traces.push(otherCacheTrace(f));
    const noneFits = noneFitsBox(inp, f.t);
    if (noneFits) annotations.push(noneFits);
    annotations.push(...chosenAnnotations(f, chosen));
    const failed = failureText(inp);
    // Everything is computed: now touch the page.
    sayText(app, inp, failed);
    fillReadouts(app, outs, inp);
    if (failed) {
      // both readouts stay true when nothing can be drawn: none fits, and the longest is the model's
      if (!inp.here.weights_fit) outs.outUsers.textContent = "none (the model does not load)";
      markHolds(values, true);
      app.failure(failed);
      return;  // the chart stays hidden until the inputs draw something true
    }
    describeChart(app, f, chosen, outs.outMax.textContent);
    plotChart(app, f, traces, { shapes, annotations }, cache.key);
  };
  return startApp(app);
}

export default widgetModule(render);
