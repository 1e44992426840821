// plotly.js inside a shadow root (MyST's {anywidget} renderer, marimo).
//
// plotly.js puts its stylesheet in the page's <head>: lib/dom.js addStyleRule inserts
// each rule into <style id="plotly.js-style-global"> (and addRelatedStyleRule into
// "plotly.js-style-<uid>"), through the CSSOM, so the element has no text. Rules in the
// head never reach a shadow root, and without them the graph's .main-svg layers are not
// stacked (position:absolute) and titles and legend fall below the frame. So each shadow
// root a widget draws in adopts one stylesheet holding those rules, refreshed when
// plotly.js has added more since.

/** @type {WeakMap<ShadowRoot, { sheet: CSSStyleSheet | HTMLStyleElement, count: number }>} */
const copies = new WeakMap();

/** Every rule plotly.js has put in the page's head, as CSS text. */
function plotlyRules() {
  const rules = [];
  for (const style of document.querySelectorAll('style[id^="plotly.js-style"]')) {
    const sheet = /** @type {HTMLStyleElement} */ (style).sheet;
    if (!sheet) continue;
    for (const rule of Array.from(sheet.cssRules)) rules.push(rule.cssText);
  }
  return rules;
}

/**
 * Give the shadow root that holds `node` (none: nothing to do) plotly.js's rules, once
 * per root and again only when plotly.js has added rules.
 * @param {Node} node
 */
export function sharePlotlyStyles(node) {
  const root = node.getRootNode();
  if (typeof ShadowRoot === "undefined" || !(root instanceof ShadowRoot)) return;
  const rules = plotlyRules();
  const known = copies.get(root);
  if (known && known.count === rules.length) return;
  const text = rules.join("\n");
  if (known) {
    if (known.sheet instanceof HTMLStyleElement) known.sheet.textContent = text;
    else known.sheet.replaceSync(text);
    known.count = rules.length;
    return;
  }
  let sheet;
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    sheet = document.createElement("style");
    sheet.dataset.kv = "plotly-styles";
    sheet.textContent = text;
    root.prepend(sheet);
  }
  copies.set(root, { sheet, count: rules.length });
}
