// A diagram's place (div.kv-diagram) in the widget and the width to lay it out in.

import { element } from "./dom.js";

/**
 * Replace the plotly div by a diagram div (div.kv-diagram) that the widget fills with SVG.
 * Its width follows the widget's: startApp's resize observer redraws the diagram when the
 * width it was laid out in (app.drawnWidth, set by the draw) no longer holds.
 * @param {import("./app.js").App} app
 */
export function diagramBox(app) {
  const box = element("div", { class: "kv-diagram" });
  app.plot.replaceWith(box);
  app.diagram = box;
  app.drawnWidth = 0;
}

/**
 * Remember the widget's content width from a ResizeObserver's entries for app.root.
 * @param {import("./app.js").App} app
 * @param {ResizeObserverEntry[]} entries
 */
export function noteWidth(app, entries) {
  for (const e of entries) if (e.target === app.root) app.contentWidth = e.contentRect.width;
}

/**
 * Width to lay a diagram out in: the widget's content width (860 px before it is laid out).
 * @param {import("./app.js").App} app
 */
export function diagramWidth(app) {
  // The width the last resize observation reported: reading clientWidth here would force
  // a layout in the middle of every draw (the controls have just changed the page).
  if (app.contentWidth > 0) return Math.max(320, app.contentWidth);
  const w = app.root.clientWidth;
  if (!w) return 860;
  const cs = getComputedStyle(app.root);
  return Math.max(320, w - parseFloat(cs.paddingLeft || "0") - parseFloat(cs.paddingRight || "0"));
}

/**
 * One SVG path `d` drawing many rectangles ([x, y, width, height] each): a diagram with
 * hundreds of like cells draws them as one element per fill, not one element per cell
 * (each element costs its creation, attributes, style and layout on every redraw).
 * @param {Array<[number, number, number, number]>} boxes
 */
export function boxesPath(boxes) {
  let d = "";
  for (const [x, y, w, h] of boxes) d += `M${round(x)} ${round(y)}h${round(w)}v${round(h)}h${round(-w)}z`;
  return d;
}

/**
 * Two decimals are finer than a device pixel at any zoom a reader uses; shorter paths parse faster.
 * @param {number} v
 */
function round(v) {
  return Math.round(v * 100) / 100;
}
