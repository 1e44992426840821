// The one colour dictionary of the widgets: a colour per concept, the same in every widget
// and in light and dark, and one neutral ramp for values that are ordered (batch sizes,
// context lengths, storage tiers), keyed to the value, never to a position in a list.
// Render files name concepts; they never write a colour (tests/widgets/test_colours.py).

/** Fills, one per concept. Weights are blue, the KV cache orange, its kinds shades of
 *  orange; what is left over, held back or lost has its own colour. Mid tones, so each
 *  reads on a white and on a near-black background. */
export const CONCEPT_COLORS = {
  weights: "#3b6ea8",
  kv: "#f28e2b",       // the KV cache, and full-attention layers
  full: "#f28e2b",
  sliding: "#f9bc75",  // a window's worth: lighter
  chunked: "#fcd9a8",
  cross: "#e3a35c",
  mla: "#c0620f",      // one latent per token: darker
  latent: "#c0620f",
  recurrent: "#8a4a14", // a fixed state: darkest
  state: "#8a4a14",
  free: "#59a14f",     // memory still free for more conversations
  shared: "#8cd17d",   // blocks stored once for several requests
  reserve: "#9c9c9c",  // held back by the engine (1 - utilization)
  working: "#bab0ac",  // activations and graphs
  waste: "#d0d0d0",    // reserved or inside a block, never written
  reserved: "#edc948", // held for tokens a request will still write (not yet written)
  rounding: "#b07aa1", // lost to the allocator: a reservation rounded up to a power of two
  warning: "#d1345b",  // past a limit: a bar that overflows, a batch that does not fit
  query: "#7f6fb5",    // the new token's query: read once, never kept
  other: "#8c8c8c",
  ink: "#1f1f1f",      // text on one of the lighter fills
  paper: "#ffffff",    // text on one of the darker fills
};

/** A cache in any number format is still the KV cache: its colour. The format shows as the
 *  line's dash (dtypeDash), so no format borrows the shade of a layer kind. */
export function dtypeColor(dtype) {
  return ["bf16", "fp16", "fp32", "fp8", "int8", "int4"].includes(dtype) ? CONCEPT_COLORS.kv : null;
}

/** The dash of a cache format's line: full width solid, narrower formats dashed or dotted. */
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

export function conceptColor(name) {
  return CONCEPT_COLORS[name] || CONCEPT_COLORS.other;
}

/** Relative luminance of a #rrggbb colour (WCAG 2). */
export function luminance(hex) {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = c.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** Text colour for a label on `fill`: ink or paper, whichever contrasts more. */
export function inkOn(fill) {
  const l = luminance(fill);
  const onInk = (l + 0.05) / (luminance(CONCEPT_COLORS.ink) + 0.05);
  const onPaper = (1.05) / (l + 0.05);
  return onInk >= onPaper ? CONCEPT_COLORS.ink : CONCEPT_COLORS.paper;
}

// The neutral ramp: violet-greys, from faint to strong against the background (so the
// strong end is dark on a light page and light on a dark one).
const RAMP = {
  light: ["#c9c3dd", "#4a3a7a"],
  dark: ["#5e5480", "#e2dcf5"],
};

function mix(a, b, f) {
  const ch = (h, i) => parseInt(h.slice(i, i + 2), 16);
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
