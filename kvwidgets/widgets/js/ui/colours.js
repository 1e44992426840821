// The one colour dictionary of the widgets: a colour per concept, the same in every widget
// and in light and dark, and one neutral ramp for values that are ordered (batch sizes,
// context lengths, storage tiers), keyed to the value, never to a position in a list.
// Render files name concepts; they never write a colour (tests/widgets/test_colours.py).

import { svgElement } from "./dom.js";

/** Fills, one per concept. Weights are blue, the KV cache orange, its kinds shades of
 *  orange; what is left over, held back or lost has its own colour. Every one reads at 3:1
 *  or more on the white page and on the dark one (WCAG 1.4.11, graphics: relative luminance
 *  0.146 to 0.30), so the kinds differ by lightness and by how grey they are; the pairs drawn
 *  side by side stay apart for readers without red or green cones, or carry a hatch
 *  (HATCHED). tests/widgets/test_colours.py checks both. */
/** @type {Record<string, string>} */
export const CONCEPT_COLORS = {
  weights: "#3b6ea8",
  kv: "#d66e05",       // the KV cache, and full-attention layers
  full: "#d66e05",
  sliding: "#c38160",  // a window's worth: lighter, greyer
  chunked: "#a58f7c",
  cross: "#a98660",
  mla: "#b4561a",      // one latent per token: darker
  latent: "#b4561a",
  compressed: "#a85c2a", // DeepSeek-V4's compressed latents: more compact than MLA, darker
  recurrent: "#8b6450", // a fixed state: darkest
  state: "#8b6450",
  free: "#4f9a45",     // memory still free for more conversations (hatched)
  shared: "#1f7a73",   // blocks stored once for several requests
  reserve: "#7a7a72",  // held back by the engine (1 - utilization)
  working: "#8494a4",  // activations and graphs
  waste: "#949494",    // reserved or inside a block, never written
  reserved: "#7f6c12", // held for tokens a request will still write (hatched: not yet written)
  rounding: "#a06b93", // lost to the allocator: a reservation rounded up to a power of two
  warning: "#d1345b",  // past a limit: a bar that overflows, a batch that does not fit
  query: "#7f6fb5",    // the new token's query: read once, never kept
  other: "#8c8c8c",
  ink: "#1f1f1f",      // text on one of the lighter fills
  paper: "#ffffff",    // text on one of the darker fills
};

/** What each kind of layer is called in the widgets' text, one name per kind of
 *  CONCEPT_COLORS (a kind not listed is named by its key). */
/** @type {Record<string, string>} */
export const KIND_NAMES = { full: "full attention", sliding: "sliding window", chunked: "chunked local", cross: "cross-attention", mla: "MLA latent", recurrent: "recurrent state", compressed: "compressed latent" };

/** Concepts drawn as a hatch of their colour over the page instead of a solid fill, and the
 *  angle of the hatch. Free memory is room, not content; reserved slots are held, not yet
 *  written: next to the solid token states the hatch tells them apart where colour cannot
 *  (orange, gold and green meet under protanopia and deuteranopia). */
/** @type {Record<string, number>} */
export const HATCHED = { free: 45, reserved: -45 };

/** A cache in any number format is still the KV cache: its colour. The format shows as the
 *  line's dash (dtypeDash), so no format borrows the shade of a layer kind.
 * @param {string} dtype
 */
export function dtypeColor(dtype) {
  return ["bf16", "fp16", "fp32", "fp8", "int8", "int4"].includes(dtype) ? CONCEPT_COLORS.kv : null;
}

/**
 * The dash of a cache format's line: full width solid, narrower formats dashed or dotted.
 * @param {string} dtype
 */
export function dtypeDash(dtype) {
  return { fp8: "dash", int8: "dash", int4: "dot" }[dtype] || "solid";
}

/**
 * The theme's accent (widget.css --kv-accent): what a step reads, focus rings.
 * @param {import("./app.js").App} app
 */
export function accentColor(app) {
  return getComputedStyle(app.root).getPropertyValue("--kv-accent").trim() || "#1976d2";
}

/**
 * @param {string} name
 */
export function conceptColor(name) {
  return CONCEPT_COLORS[name] || CONCEPT_COLORS.other;
}

/**
 * Relative luminance of a #rrggbb colour (WCAG 2).
 * @param {string} hex
 */
export function luminance(hex) {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = c.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/**
 * Text colour for a label on `fill`: ink or paper, whichever contrasts more.
 * @param {string} fill
 */
export function inkOn(fill) {
  const l = luminance(fill);
  const onInk = (l + 0.05) / (luminance(CONCEPT_COLORS.ink) + 0.05);
  const onPaper = (1.05) / (l + 0.05);
  return onInk >= onPaper ? CONCEPT_COLORS.ink : CONCEPT_COLORS.paper;
}

// The neutral ramp: violets, from faint to strong against the background (so the strong
// end is dark on a light page and light on a dark one). Even the faint end reads at 3:1 on
// its page, and the ends lie far apart in lightness so that neighbouring values differ.
export const RAMP = {
  light: ["#9184c2", "#231548"],
  dark: ["#7b6db5", "#f0ecff"],
};

/**
 * @param {string} a
 * @param {string} b
 * @param {number} f
 */
function mix(a, b, f) {
  const ch = (/** @type {string} */ h, /** @type {number} */ i) => parseInt(h.slice(i, i + 2), 16);
  const out = [1, 3, 5].map((i) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * f));
  return "#" + out.map((v) => v.toString(16).padStart(2, "0")).join("");
}

/**
 * The ramp colour of `value` between `lo` and `hi` (log scale: batches and lengths grow by
 * doublings), so a value keeps its colour whatever else is drawn beside it.
 * @param {number} value
 * @param {number} lo
 * @param {number} hi
 * @param {boolean} dark the theme is dark
 */
export function rampColor(value, lo, hi, dark = false) {
  const [a, b] = dark ? RAMP.dark : RAMP.light;
  if (!(hi > lo) || !(value > 0)) return b;
  const f = Math.min(1, Math.max(0, Math.log(value / lo) / Math.log(hi / lo)));
  return mix(a, b, f);
}

/**
 * How each concept is painted in one SVG drawing: `fill(concept)` gives its colour, or for a
 * HATCHED concept a pattern of its colour over the page; `defs()` gives the patterns used so
 * far, to put into the drawing. Pattern ids are the app's own: several widgets share a page.
 * @param {import("./app.js").App} app
 * @param {number} s the widget's scale
 */
export function svgPaint(app, s) {
  let id = paintIds.get(app);
  if (!id) paintIds.set(app, (id = `kv-hatch-${++paintCount}`));
  const used = new Map();
  return {
    /** @param {string} concept */
    fill(concept) {
      if (!(concept in HATCHED)) return conceptColor(concept);
      const pid = `${id}-${concept}`;
      if (!used.has(concept)) {
        used.set(concept, svgElement("pattern", { id: pid, patternUnits: "userSpaceOnUse", width: 5 * s, height: 5 * s,
          patternTransform: `rotate(${HATCHED[concept]})` },
        [svgElement("rect", { x: 0, y: 0, width: 2 * s, height: 5 * s, fill: conceptColor(concept) })]));
      }
      return `url(#${pid})`;
    },
    defs() {
      return svgElement("defs", {}, [...used.values()]);
    },
  };
}
const paintIds = new WeakMap();
let paintCount = 0;

/**
 * A plotly bar's marker for a concept: its colour, hatched for a HATCHED concept (plotly
 * draws the pattern in the marker's colour over a clear background).
 * @param {string} concept
 * @param {number} s the widget's scale
 */
export function barMarker(concept, s) {
  const color = conceptColor(concept);
  if (!(concept in HATCHED)) return { color };
  return { color, pattern: { shape: HATCHED[concept] > 0 ? "/" : "\\", size: 6 * s, solidity: 0.4 } };
}
