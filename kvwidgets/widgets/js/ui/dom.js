// Making HTML and SVG elements, and the widget's text lines.

// Elements that take keys. JupyterLab and Notebook 7 bind keys such as ArrowRight to
// notebook commands in command mode and call preventDefault before a focused control
// sees them; Lumino skips its shortcut handling for an event whose target carries
// data-lm-suppress-shortcuts="true". Lumino reads it on the event's target only, so it
// must be on each control: on the widget's root element it has no effect.
/** @typedef {{ text: string, cls?: string } | string} TextLine a line of a widget's text: its words, or them with its class */

export const KEYED_TAGS = new Set(["INPUT", "SELECT", "BUTTON", "TEXTAREA", "SUMMARY"]);

/**
 * @param {string} tag
 * @param {Array<Node | string>} children
 */
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs] attributes; "text" sets the text, "class" the class
 * @param {Array<Node | string>} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  if (KEYED_TAGS.has(e.tagName)) e.setAttribute("data-lm-suppress-shortcuts", "true");
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/**
 * @param {HTMLElement} node
 * @param {Array<TextLine>} lines
 */
export function setTextLines(node, lines) {
  node.replaceChildren(...lines.map((l) => (typeof l === "string" ? element("div", { class: "kv-line", text: l }) : element("div", { class: l.cls || "kv-line", text: l.text }))));
}

export const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, any>} [attrs] attributes; "text" sets the text
 * @param {Array<Node | string>} [children]
 */
export function svgElement(tag, attrs = {}, children = []) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

/**
 * Mark readout values that stay true when the figure gives way to a failure (app.failure):
 * widget.css strikes through only the others, which would pass for the answer. A draw
 * clears every mark first, so a draw that throws (inputs it cannot use) strikes them all.
 * @param {Iterable<HTMLElement>} values
 * @param {boolean} holds
 */
export function markHolds(values, holds) {
  for (const v of values) v.toggleAttribute("data-kv-holds", holds);
}
