// UsersThatFit: GPU memory stacked up (weights, working area, the users' KV, left over,
// reserve) for 1, 2, 4 and 8 GPUs, the user count on each, and a plain message when the
// model does not load or loads but cannot serve one conversation.


function ufWorking(app) {
  // Working area per GPU, typed in GB (activations, CUDA graphs); stored in bytes.
  const box = kvEl("input", { type: "number", min: "0", step: "0.5", "data-kv": "working_bytes", "aria-label": "working area per GPU in GB" });
  const sync = () => {
    if (document.activeElement !== box) box.value = String(Number(app.model.get("working_bytes")) / 1e9);
  };
  box.addEventListener("change", () => {
    const v = Number(box.value);
    if (box.value.trim() === "" || !Number.isFinite(v) || v < 0) {
      app.fail(`working area must be a number of GB >= 0, got ${box.value.trim() || "nothing"}`);
      return;
    }
    app.set("working_bytes", Math.round(v * 1e9));
  });
  app.syncers.push(sync);
  sync();
  return kvLabelled(app, "Working area per GPU (GB)", box);
}

function render({ model, el }) {
  const app = kvApp({ model, el }, "How many conversations fit");
  kvModelSelect(app);
  kvGpuSelect(app);
  kvGpuCount(app);
  kvContext(app);
  kvDtypeSelect(app, "weight_dtype", "Weights");
  kvDtypeSelect(app, "kv_dtype", "KV cache");
  kvUtilization(app);
  kvSelect(app, "memory", "Memory", () => [["marketed", "marketed GB"], ["device", "device-reported"]]);
  ufWorking(app);
  kvParamsBox(app);
  kvResetButton(app);
  const outUsers = app.readout("users", "Users:");
  const outPer = app.readout("kv_per_user", "KV per conversation:");
  const outBudget = app.readout("kv_budget", "KV budget:");

  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const gpu = L.gpu();
    const o = {
      numGpus: model.get("num_gpus"),
      weightBits: L.bits("weight_dtype"),
      kvBits: L.bits("kv_dtype"),
      utilization: model.get("utilization"),
      workingBytes: model.get("working_bytes"),
      memory: model.get("memory"),
      params: kvParams(app),
    };
    const context = model.get("context");
    const fit = usersThatFit(shape, gpu, context, o); // throws on bad input: the figure stays
    const counts = [...kvAxis(app, "gpu_counts")];
    if (!counts.includes(fit.num_gpus)) counts.push(fit.num_gpus);
    counts.sort((a, b) => a - b);
    const fits = counts.map((n) => {
      try {
        return usersThatFit(shape, gpu, context, { ...o, numGpus: n });
      } catch (e) {
        return { error: e.message, num_gpus: n };
      }
    });
    const labels = counts.map((n) => `${n} GPU${n > 1 ? "s" : ""}${n === fit.num_gpus ? " (chosen)" : ""}`);
    const gb = (f, key) => (f.error ? 0 : Number(f[key]) / 1e9);
    const parts = [
      ["weights", (f) => Math.min(gb(f, "weights_bytes"), gb(f, "usable_bytes"))],
      ["working area", (f) => (f.error || !f.weights_fit ? 0 : gb(f, "working_bytes"))],
      ["users' KV", (f) => gb(f, "kv_used_bytes")],
      ["left over", (f) => gb(f, "left_over_bytes")],
      ["reserve (1 - utilization)", (f) => gb(f, "reserve_bytes")],
    ];
    const t = app.theme();
    const traces = parts.map(([name, get], i) => ({
      type: "bar", name, x: labels, y: fits.map(get),
      marker: { color: kvConcept(["weights", "working", "kv", "free", "reserve"][i]) },
      hovertemplate: "%{x}: %{y:.2f} GB<extra>" + name + "</extra>",
    }));
    const annotations = fits.map((f, i) => ({
      x: labels[i], y: f.error ? 0 : Number(f.memory_bytes) / 1e9, yanchor: "bottom", showarrow: false,
      text: f.error ? "heads do not split" : !f.weights_fit ? "does not load" : `${Number(f.users).toLocaleString("en-US")} users`,
      font: { color: t.fg },
    }));
    // Everything is computed: now touch the page.
    const msg = kvFitMessage(fit);
    const lines = [{ text: msg, cls: fit.users > 0n ? "kv-note" : "kv-warn" }];
    if (o.memory === "device") lines.push({ text: `${gpu.name} reports ${fmtBytes(gpu.device_bytes)} (marketed ${fmtBytes(gpu.memory_bytes)}).`, cls: "kv-note" });
    lines.push(...kvLimitLines(shape, { context: model.get("context"), weights: true, params: kvParams(app) }));
    kvSetText(app.text, lines);
    outUsers.textContent = Number(fit.users).toLocaleString("en-US");
    outPer.textContent = fmtBytes(fit.kv_per_user_bytes);
    outBudget.textContent = fit.weights_fit ? fmtBytes(fit.kv_budget_bytes) : "none (weights do not fit)";
    kvPlot(app, traces, {
      barmode: "stack",
      annotations,
      xaxis: { type: "category" },
      yaxis: { title: { text: `GPU memory, ${o.memory} (GB)` } },
    });
  };
  return kvStart(app);
}
