// A diagram's place (div.kv-diagram) in the widget and the width to lay it out in.

import { element } from "./dom.js";

/**
 * Replace the plotly div by a diagram div (div.kv-diagram) that the widget fills with SVG;
 * its width follows the widget's, and a width change redraws (returns the cleanup).
 * @param {import("./app.js").App} app
 */
export function diagramBox(app) {
  const box = element("div", { class: "kv-diagram" });
  app.plot.replaceWith(box);
  app.diagram = box;
  app.drawnWidth = 0;
  const watch = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => {
      if (app.root.isConnected && Math.abs(diagramWidth(app) - app.drawnWidth) > 1) app.redraw();
    })
    : null;
  if (watch) watch.observe(app.root);
  return () => { if (watch) watch.disconnect(); };
}

/**
 * Width to lay a diagram out in: the widget's content width (860 px before it is laid out).
 * @param {import("./app.js").App} app
 */
export function diagramWidth(app) {
  const w = app.root.clientWidth;
  if (!w) return 860;
  const cs = getComputedStyle(app.root);
  return Math.max(320, w - parseFloat(cs.paddingLeft || "0") - parseFloat(cs.paddingRight || "0"));
}
