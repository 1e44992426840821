// Direct labels for lines on a log y axis: each at its line's end, moved apart where two
// would touch, so lines that lie on each other keep readable names. The labels are one
// text trace, not layout annotations: a redraw that changes only the layout (the chosen
// point) then leaves them alone (ui/plot.js drawPlot's dataKey).

/**
 * A plotly scatter trace of text naming lines at their ends.
 * @param {Array<{text: string, y: number, color: string, bold?: boolean}>} items y in data units (> 0)
 * @param {{x: number, pxPerDecade: number, gap: number, size: number, ink: string, xaxis?: string, yaxis?: string}} o
 *   x: where the labels start (data units); pxPerDecade: the y axis' pixels per factor of
 *   10; gap: the least distance between two labels' middles (px); ink: the text colour.
 *   The name is written in ink (a line colour can be too pale to read as text) after a
 *   short stroke in the line's colour, which keys it to its line.
 */
export function endLabels(items, o) {
  const order = items.map((it) => ({ ...it, ly: Math.log10(it.y) })).sort((a, b) => b.ly - a.ly);
  const px = order.map((it) => it.ly * o.pxPerDecade);
  for (let i = 1; i < px.length; i++) if (px[i - 1] - px[i] < o.gap) px[i] = px[i - 1] - o.gap;
  return {
    type: "scatter", mode: "text", name: "end labels", showlegend: false, hoverinfo: "skip", cliponaxis: false,
    xaxis: o.xaxis || "x", yaxis: o.yaxis || "y",
    x: order.map(() => o.x),
    y: px.map((p) => 10 ** (p / o.pxPerDecade)),
    text: order.map((it) => {
      const name = it.bold ? `<b>${it.text}</b>` : it.text;
      return `<span style="color:${it.color}">\u2501\u2501</span> ${name}`;
    }),
    textposition: "middle right",
    textfont: { color: o.ink, size: o.size },
  };
}
