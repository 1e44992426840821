// An SVG diagram's legend: a swatch and a name per label, wrapped onto rows to the
// diagram's width. The memory bars of UsersThatFit and DeploymentRanks draw theirs with it.

import { svgElement } from "./dom.js";

/**
 * The legend from y = ly, wrapped to the width W: a swatch and a name per label, appended
 * to parts. Returns the y of its last row and how many rows it took.
 * @param {import("./app.js").App} app
 * @param {Array<Array<string>>} labels concept and name
 * @param {ReturnType<typeof import("./colours.js").svgPaint>} paint
 * @param {Element[]} parts
 * @param {number} ly
 * @param {number} W
 * @param {number} charWidth a character's width as a share of the font size, estimated (no
 *   text is measured): each diagram gives its own, as labels full of byte sizes run wider
 *   than labels of words
 */
export function drawSwatchLegend(app, labels, paint, parts, ly, W, charWidth) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  let lx = 0;
  let rows = 1;
  for (const [concept, text] of labels) {
    const w = 18 * s + text.length * fs * charWidth;
    if (lx > 0 && lx + w > W) { lx = 0; ly += 18 * s; rows += 1; }
    parts.push(svgElement("rect", { x: lx, y: ly, width: 12 * s, height: 12 * s, fill: paint.fill(concept) }),
      svgElement("text", { x: lx + 16 * s, y: ly + 10.5 * s, "font-size": fs * 0.9, fill: t.fg, text }));
    lx += w + 14 * s;
  }
  return { ly, rows };
}
