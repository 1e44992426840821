// Direct labels for lines on a log y axis: each at its line's end, moved apart (by yshift,
// in px) where two would touch, so lines that lie on each other keep readable names.

/**
 * Plotly annotations naming lines at their ends.
 * @param {Array<{text: string, y: number, color: string, bold?: boolean}>} items y in data units (> 0)
 * @param {{x: number, pxPerDecade: number, gap: number, size: number, ink: string, xanchor?: string}} o
 *   x: the annotations' x (log10 position on a log x axis); pxPerDecade: the y axis' pixels
 *   per factor of 10; gap: the least distance between two labels' middles (px); ink: the
 *   text colour. The name is written in ink (a line colour can be too pale to read as
 *   text) after a short stroke in the line's colour, which keys it to its line.
 */
export function endLabels(items, o) {
  const order = items.map((it) => ({ ...it, ly: Math.log10(it.y) })).sort((a, b) => b.ly - a.ly);
  const px = order.map((it) => it.ly * o.pxPerDecade);
  for (let i = 1; i < px.length; i++) if (px[i - 1] - px[i] < o.gap) px[i] = px[i - 1] - o.gap;
  return order.map((it, i) => ({
    x: o.x, y: it.ly, xref: "x", yref: "y", xanchor: o.xanchor || "left", yanchor: "middle", showarrow: false,
    yshift: px[i] - it.ly * o.pxPerDecade, name: "end label",
    text: `<span style="color:${it.color}">\u2501\u2501</span> ${it.text}`,
    font: { color: o.ink, size: o.size, weight: it.bold ? 700 : 400 },
  }));
}
