// ContextVsUsers: conversations that fit against their length (log axis 1K..1M) for a
// 16-bit and an FP8 cache, 8K / 32K / 128K marked, the chosen point highlighted.

const CU_POINTS = 81; // 8 per doubling from 1K to 1M

function render({ model, el }) {
  const app = kvApp({ model, el }, "Context against users");
  kvModelSelect(app);
  kvGpuSelect(app);
  kvGpuCount(app);
  kvContext(app);
  kvDtypeSelect(app, "weight_dtype", "Weights");
  kvDtypeSelect(app, "kv_dtype", "KV cache");
  kvUtilization(app);
  kvResetButton(app);
  const outUsers = app.readout("users", "Users at this context:");
  const outMax = app.readout("max_context", "Longest context for one user:");

  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const dtypes = L.dtypes;
    const o = {
      numGpus: model.get("num_gpus"),
      weightBits: L.bits("weight_dtype"),
      kvBits: L.bits("kv_dtype"),
      utilization: model.get("utilization"),
    };
    const context = checkInt("context", model.get("context"), 1);
    const here = usersThatFit(shape, gpu, context, o); // throws on bad input: the figure stays
    const longest = maxContext(shape, gpu, 1, o);
    const xs = Array.from({ length: CU_POINTS }, (_, i) => Math.round(2 ** (10 + i / 8)));
    const t = app.theme();
    const marks = kvAxis(app, "marks");
    const traces = kvAxis(app, "lines").map(([dt, name], i) => ({
      type: "scatter", mode: "lines", name,
      x: xs, y: xs.map((c) => Number(usersThatFit(shape, gpu, c, { ...o, kvBits: dtypes[dt] }).users)),
      line: { color: t.colors[i], shape: "hv" },
      hovertemplate: "%{x:,} tokens: %{y:,} users<extra>" + name + "</extra>",
    }));
    traces.push({
      type: "scatter", mode: "markers+text", name: "chosen",
      x: [context], y: [Number(here.users)], text: [`${Number(here.users).toLocaleString("en-US")} users`],
      textposition: "top right", textfont: { color: t.fg },
      marker: { size: 12 * app.scale(), color: t.colors[3], line: { color: t.fg, width: 1 } },
      hovertemplate: "%{x:,} tokens, " + model.get("kv_dtype") + " cache: %{y:,} users<extra></extra>",
    });
    const shapes = marks.map((c) => ({
      type: "line", x0: c, x1: c, yref: "paper", y0: 0, y1: 1, line: { dash: "dot", color: t.fg2, width: 1 },
    }));
    const annotations = marks.map((c) => ({
      x: Math.log10(c), yref: "paper", y: 1, yanchor: "bottom", text: fmtTokens(c), showarrow: false, font: { color: t.fg2 },
    }));
    // Everything is computed: now touch the page.
    kvSetText(app.text, [{ text: kvFitMessage(here), cls: here.users > 0n ? "kv-note" : "kv-warn" }]);
    outUsers.textContent = `${Number(here.users).toLocaleString("en-US")} (${model.get("kv_dtype")} cache)`;
    outMax.textContent = longest === null ? "no limit" : longest === 0 ? "none" : `${longest.toLocaleString("en-US")} tokens`;
    kvPlot(app, traces, {
      shapes, annotations,
      xaxis: { type: "log", title: { text: "context (tokens per conversation)" }, range: [Math.log10(1024), Math.log10(1048576)] },
      yaxis: { title: { text: "conversations that fit" }, rangemode: "tozero" },
    });
  };
  return kvStart(app);
}
