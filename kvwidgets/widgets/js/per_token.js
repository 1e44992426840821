// PerTokenBytes: the per-token formula with live numbers, split by layer kind, the
// "query heads by mistake" figure, and the cache of one conversation at a few lengths.

const PT_KIND_NAMES = { full: "full attention", sliding: "sliding window", chunked: "chunked local", mla: "MLA latent", recurrent: "recurrent state" };

function ptFormulaLine(g, bits) {
  const bytes = bits / 8;
  const per = groupBytesPerToken(g, bits);
  const n = (x) => Number(x).toLocaleString("en-US");
  if (g.latent !== undefined) {
    return `${PT_KIND_NAMES.mla}: ${g.count} layers x ${g.latent} (latent + rope) x ${bytes} B = ${n(per)} B`;
  }
  if (g.kv_heads !== undefined) {
    const dims = g.head_k === g.head_v ? `2 x ${g.count} layers x ${g.kv_heads} KV heads x ${g.head_k} head dim`
      : `${g.count} layers x ${g.kv_heads} KV heads x (${g.head_k} + ${g.head_v})`;
    const cap = g.cap === null || g.cap === undefined ? "" : `, held for the last ${n(g.cap)} tokens only`;
    return `${PT_KIND_NAMES[g.kind] || g.kind}: ${dims} x ${bytes} B = ${n(per)} B${cap}`;
  }
  return `${PT_KIND_NAMES[g.kind] || g.kind}: ${g.count} layers, ${n(g.fixed_bytes || 0)} B per sequence whatever its length`;
}

function render({ model, el }) {
  const app = kvApp({ model, el }, "KV-cache bytes per token");
  kvModelSelect(app);
  kvDtypeSelect(app, "kv_dtype", "KV cache");
  kvContext(app);
  kvResetButton(app);
  const outBpt = app.readout("bytes_per_token", "Per token:");
  const outMha = app.readout("mha_bytes_per_token", "With query heads by mistake:");
  const outSeq = app.readout("kv_bytes", "One conversation:");

  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const context = checkInt("context", model.get("context"), 1);
    const bpt = kvBytesPerToken(shape, bits);
    const lines = shape.groups.map((g) => ({ text: ptFormulaLine(g, bits) }));
    if (shape.groups.length > 1 || shape.groups.some((g) => g.cap !== null && g.cap !== undefined)) {
      lines.push({ text: `Past every window each token adds ${fmtBytes(bpt)} (${Number(bpt).toLocaleString("en-US")} B).`, cls: "kv-note" });
    }
    const texts = perTokenReadouts(shape, bits);
    const contexts = [...kvAxis(app, "bar_contexts")];
    if (!contexts.includes(context)) contexts.push(context);
    contexts.sort((a, b) => a - b);
    const kinds = [...new Set(shape.groups.map((g) => g.kind))];
    const byCtx = contexts.map((t) => bytesByKind(shape, t, bits));
    const seq = kvBytes(shape, context, bits);
    const t = app.theme();
    const traces = kinds.map((k, i) => ({
      type: "bar",
      name: PT_KIND_NAMES[k] || k,
      x: contexts.map((c) => (c === context ? `${fmtTokens(c)} (chosen)` : fmtTokens(c))),
      y: byCtx.map((b) => Number(b[k] || 0n) / 1e9),
      // the chosen context keeps its kind's colour and gets an outline
      marker: { color: kvConcept(k), line: { color: t.fg, width: contexts.map((c) => (c === context ? 2 : 0)) } },
      hovertemplate: "%{x}: %{y:.3f} GB<extra>" + (PT_KIND_NAMES[k] || k) + "</extra>",
    }));
    lines.push(...kvLimitLines(shape, { context }));
    // Everything is computed: now touch the page.
    kvSetText(app.text, lines);
    outBpt.textContent = texts.bytes_per_token;
    outMha.textContent = texts.mha_bytes_per_token;
    outSeq.textContent = `${fmtBytes(seq)} at ${fmtTokens(context)} tokens`;
    kvPlot(app, traces, {
      barmode: "stack",
      showlegend: kinds.length > 1,
      xaxis: { title: { text: "conversation length (tokens)" }, type: "category" },
      yaxis: { title: { text: "KV cache per conversation (GB)" } },
    });
  };
  return kvStart(app);
}
