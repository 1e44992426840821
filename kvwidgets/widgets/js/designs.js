// AttentionDesigns: bytes per token of MHA, GQA, MQA, MLA and a sliding hybrid on the
// Llama 3 8B shape, and real models' cache per conversation at a short and a long context.


function render({ model, el }) {
  const app = kvApp({ model, el }, "Attention designs and their cache");
  kvDtypeSelect(app, "kv_dtype", "KV cache");
  kvContext(app, "Long context (tokens)");
  kvSelect(app, "window", "Hybrid window", () => kvAxis(app, "windows").map((w) => [w, w.toLocaleString("en-US")]));
  kvResetButton(app);
  const outDesign = app.readout("designs", "Per token:");

  app.draw = () => {
    const L = app.lookup();
    const bits = L.bits("kv_dtype");
    const long = checkInt("context", model.get("context"), 1);
    const short = checkInt("short_context", model.get("short_context"), 1);
    const win = model.get("window");
    const labels = kvAxis(app, "designs").map((l) => l.replace("{window}", win));
    const shapes = labels.map((l) => L.shape(l));
    const real = (model.get("real") || []).map((n) => [n, L.shape(n)]);
    const perToken = shapes.map((s) => kvBytesPerToken(s, bits));
    const names = [...labels, ...real.map(([n]) => n)];
    const all = [...shapes, ...real.map(([, s]) => s)];
    const t = app.theme();
    const at = (tokens, i, name) => ({
      type: "bar", name, orientation: "h", y: names,
      x: all.map((s) => Number(kvBytes(s, tokens, bits)) / 1e9),
      marker: { color: t.colors[i] },
      hovertemplate: "%{y}: %{x:.3f} GB<extra>" + name + "</extra>",
    });
    const traces = [at(short, 0, `${fmtTokens(short)} tokens`), at(long, 1, `${fmtTokens(long)} tokens`)];
    const lines = labels.map((l, i) => ({ text: `${l.padEnd(20)} ${fmtBytes(perToken[i]).padStart(11)} per token${i === 4 ? " past the window (the sliding half holds at most " + win + " tokens)" : ""}` }));
    for (const [n, s] of real) {
      const capped = s.groups.some((g) => g.cap !== null && g.cap !== undefined);
      lines.push({ text: `${n.padEnd(20)} ${fmtBytes(kvBytesPerToken(s, bits)).padStart(11)} per token${capped ? " past its windows" : ""}` });
    }
    lines.push({ text: "Designs on the Llama 3 8B shape: 32 layers, 32 query heads, 128 head dim; GQA keeps 8 KV heads, MQA 1, MLA DeepSeek-V3's 512 + 64 latent.", cls: "kv-note" });
    // Everything is computed: now touch the page.
    kvSetText(app.text, lines);
    outDesign.textContent = labels.map((l, i) => `${l.split(" ")[0]} ${fmtBytes(perToken[i])}`).join(" · ");
    // The bars' names are long ("Sliding hybrid 1024", model names) and there is no
    // automargin (ui.js kvLayout says why): size the left margin from the longest one,
    // about 0.62 em per character of the 12 px (x scale) tick font.
    const sc = app.scale();
    const longest = Math.max(...names.map((n) => String(n).length));
    kvPlot(app, traces, {
      barmode: "group",
      margin: { l: Math.round((longest * 0.62 * 12 + 16) * sc), r: 20 * sc, t: 30 * sc, b: 56 * sc },
      height: Math.round(420 * app.scale()),
      xaxis: { type: "log", title: { text: "KV cache per conversation (GB, log scale)" } },
      yaxis: { type: "category", autorange: "reversed" },
    });
  };
  return kvStart(app);
}
