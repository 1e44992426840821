// The concept colours (fills, one per concept) and the theme's accent colour.

/** One colour per concept, the same in every widget and in light and dark: mid tones
 *  that read on a white and on a near-black background (each is a fill, never text). */
export const CONCEPT_COLORS = {
  weights: "#4e79a7", kv: "#f28e2b", reserve: "#9c9c9c", free: "#59a14f",
  full: "#e15759", sliding: "#76b7b2", chunked: "#9c755f", mla: "#b07aa1", latent: "#b07aa1",
  recurrent: "#edc948", state: "#edc948", "16-bit": "#d37295", fp8: "#17a2b8",
  shared: "#8cd17d", waste: "#d0d0d0", working: "#bab0ac", other: "#8c8c8c",
  ink: "#1f1f1f",  // text written on one of these fills (they are light enough in both themes)
};

/** The concept colour of a cache number format: 16-bit or FP8 (others: none). */
export function dtypeColor(dtype) {
  return { bf16: CONCEPT_COLORS["16-bit"], fp16: CONCEPT_COLORS["16-bit"], fp8: CONCEPT_COLORS.fp8 }[dtype] || null;
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
