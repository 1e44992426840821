// ui.js: what every widget's render code shares: the frame (title, controls, text,
// plot, error line), controls bound to the model's traits, theme colours, the scale
// factor and plotting. Concatenated after kvcalc.js into each widget's ES module.
//
// Every control change sets the trait and calls save_changes() (so Python's `result`
// follows when a kernel is there) AND redraws at once from the synced shapes (so it
// never waits for one). Each widget's draw() computes everything before it touches the
// page, so bad input leaves the last good figure and shows a message in .kv-error.

const KV_CONTEXT_STEPS = 16; // slider stops per doubling, 1K..1M

function kvEl(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/** Colours from widget.css's --kv-* variables: JupyterLab's theme when there is one, else
 *  light or dark fallbacks following prefers-color-scheme (the last fallbacks here only
 *  serve a page without widget.css). */
function kvTheme(node) {
  const cs = getComputedStyle(node);
  const v = (name, fallback) => (cs.getPropertyValue(name) || "").trim() || fallback;
  return {
    fg: v("--kv-fg", "#1f1f1f"),
    fg2: v("--kv-fg2", "#616161"),
    bg: v("--kv-bg", "#ffffff"),
    grid: v("--kv-grid", "#e0e0e0"),
    font: v("--jp-ui-font-family", "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"),
    colors: ["#3b82c4", "#e07b39", "#4aa564", "#c94c4c", "#8c6bb1", "#8c8c8c", "#d4a017"],
  };
}

/** Look-ups with the core's error messages, shared by every draw(). */
function kvLookup(app) {
  const m = app.model;
  const shapes = m.get("shapes") || {};
  const name = m.get("model");
  const gpus = m.get("gpus") || {};
  const dtypes = m.get("dtypes") || {};
  return {
    shape(n = name) {
      const s = shapes[n];
      if (!s) throw new KVInputError(`unknown model '${n}'. Known models: ${Object.keys(shapes).sort().join(", ")}.`);
      return s;
    },
    gpu(n = m.get("gpu")) {
      const g = gpus[n];
      if (!g) throw new KVInputError(`unknown GPU '${n}'. Known GPUs: ${Object.keys(gpus).sort().join(", ")}.`);
      return g;
    },
    bits(field) {
      return dtypeBits(dtypes, m.get(field), field);
    },
    dtypes,
  };
}

// The context slider: 16 evenly spaced stops per doubling from 1K to 1M, so every stop is
// a round number of tokens (1K, 1,088, ... 8K, 8,704 ...) and 8K/32K/128K are stops.
function kvContextToPos(c) {
  c = Math.min(2 ** 20, Math.max(1024, Number(c)));
  const k = Math.floor(Math.log2(c));
  const j = Math.round((c - 2 ** k) / 2 ** (k - 4));
  return Math.min(10 * KV_CONTEXT_STEPS, (k - 10) * KV_CONTEXT_STEPS + j);
}

function kvPosToContext(pos) {
  pos = Number(pos);
  const k = 10 + Math.floor(pos / KV_CONTEXT_STEPS);
  return 2 ** k + (pos % KV_CONTEXT_STEPS) * 2 ** (k - 4);
}

function kvApp({ model, el }, title) {
  const root = kvEl("div", { class: "kv-widget" });
  const controls = kvEl("div", { class: "kv-controls" });
  const readouts = kvEl("div", { class: "kv-readouts" });
  const text = kvEl("div", { class: "kv-text" });
  const plot = kvEl("div", { class: "kv-plot" });
  const error = kvEl("div", { class: "kv-error", role: "alert", "aria-live": "polite" });
  root.append(kvEl("div", { class: "kv-title", text: title }), controls, readouts, text, plot, error);
  el.append(root);

  const app = {
    model, el, root, controls, readouts, text, plot, error,
    localError: "",
    holding: false, // true while several traits are set at once (reset): draw once after
    drawn: false,   // set by redraw(), so set() knows whether a change event already drew
    // While a slider is dragged, at most one draw per animation frame: the first move
    // draws at once (no added latency), later moves before the next frame (input events
    // queued behind a slow draw) only mark the figure stale and the next frame draws it
    // once with the latest value. Discrete changes (menus, typed boxes, reset) always
    // draw at once, so the page is current as soon as their event has run.
    continuous: false,
    frameBusy: false,
    stale: false,
    revision: 0,    // plotly layout.datarevision: bumped on every draw
    draw: () => {},
    syncers: [],
    listeners: [],
    on(event, fn) {
      model.on(event, fn);
      app.listeners.push([event, fn]);
    },
    /** Set a trait from a control: save it for Python and redraw from the shape now.
     *  model.set fires change:<name> synchronously, whose handler redraws; draw here only
     *  when it did not (same value, or a model that does not echo its own sets). */
    set(name, value, { continuous = false } = {}) {
      app.drawn = false;
      app.continuous = continuous;
      try {
        model.set(name, value);
        model.save_changes();
        if (!app.drawn) app.redraw();
      } finally {
        app.continuous = false;
      }
    },
    fail(message) {
      app.localError = message;
      app.showError();
    },
    showError() {
      const msg = app.localError || model.get("error") || "";
      error.textContent = msg;
      error.style.display = msg ? "" : "none";
    },
    redraw() {
      if (app.holding) return;
      app.drawn = true;
      if (!app.continuous) {
        app.stale = false;  // this draw is the latest: a pending frame has nothing left to do
        app.drawNow();
        return;
      }
      if (app.frameBusy) {
        app.stale = true;
        return;
      }
      app.drawNow();
      app.frameBusy = true;
      const tick = () => {
        if (!app.stale) {
          app.frameBusy = false;
          return;
        }
        app.stale = false;
        app.drawNow();
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    drawNow() {
      for (const s of app.syncers) s();
      try {
        app.draw();
        app.localError = "";
      } catch (e) {
        app.localError = e && e.message ? e.message : String(e);
        if (!(e instanceof KVInputError)) console.error(e);
      }
      app.showError();
    },
    theme() {
      return kvTheme(root);
    },
    scale() {
      const s = Number(model.get("scale"));
      return s > 0 ? s : 1;
    },
    readout(name, label) {
      const value = kvEl("span", { class: "kv-value", "data-kv-out": name });
      readouts.append(kvEl("span", { class: "kv-readout" }, [kvEl("span", { class: "kv-label", text: label + " " }), value]));
      return value;
    },
    lookup() {
      return kvLookup(app);
    },
  };
  return app;
}

function kvLabelled(app, labelText, control) {
  const label = kvEl("label", { class: "kv-control" }, [kvEl("span", { text: labelText }), control]);
  app.controls.append(label);
  return control;
}

/** A <select> bound to a trait; options() is re-read whenever the traits it depends on change. */
function kvSelect(app, name, labelText, options, dependsOn = []) {
  const sel = kvEl("select", { "data-kv": name });
  const fill = () => {
    const want = app.model.get(name);
    const opts = options();
    const values = opts.map((o) => (Array.isArray(o) ? o[0] : o));
    if (!values.some((v) => String(v) === String(want))) opts.push([want, String(want)]);
    sel.replaceChildren(...opts.map((o) => {
      const [v, t] = Array.isArray(o) ? o : [o, String(o)];
      return kvEl("option", { value: String(v), text: t });
    }));
    sel.value = String(want);
  };
  fill();
  sel.addEventListener("change", () => {
    const raw = sel.value;
    const cur = app.model.get(name);
    app.set(name, typeof cur === "number" ? Number(raw) : raw);
  });
  for (const dep of dependsOn) app.on(`change:${dep}`, fill);
  app.syncers.push(() => {
    if (String(sel.value) !== String(app.model.get(name))) fill();
  });
  return kvLabelled(app, labelText, sel);
}

/** A whole-number box; bad typed input shows a message and is not sent. */
function kvIntBox(app, name, labelText, { min = 1, max = 2 ** 40, field = name } = {}) {
  const box = kvEl("input", { type: "number", min: String(min), max: String(max), step: "1", "data-kv": name });
  box.value = String(app.model.get(name));
  box.addEventListener("change", () => {
    const v = Number(box.value);
    if (box.value.trim() === "" || !Number.isInteger(v) || v < min) {
      app.fail(`${field} must be a whole number >= ${min}, got ${box.value.trim() || "nothing"}`);
      return;
    }
    if (v > max) {
      app.fail(`${field} must be at most ${max.toLocaleString("en-US")}, got ${v.toLocaleString("en-US")}`);
      return;
    }
    app.set(name, v);
  });
  app.syncers.push(() => {
    if (document.activeElement !== box) box.value = String(app.model.get(name));
  });
  return kvLabelled(app, labelText, box);
}

/** Context: a log-scale slider 1K..1M (arrow keys step 1/16 of a doubling) plus a typed box. */
function kvContext(app, labelText = "Context (tokens)") {
  const slider = kvEl("input", {
    type: "range", min: "0", max: String(10 * KV_CONTEXT_STEPS), step: "1",
    "data-kv": "context", "aria-label": "context, log scale from 1K to 1M tokens",
  });
  const box = kvEl("input", { type: "number", min: "1", max: String(2 ** 40), step: "1", "data-kv": "context-box", "aria-label": "context in tokens" });
  const shown = kvEl("span", { class: "kv-value", "data-kv-out": "context" });
  const sync = () => {
    const c = app.model.get("context");
    slider.value = String(kvContextToPos(c));
    slider.setAttribute("aria-valuetext", `${Number(c).toLocaleString("en-US")} tokens`);
    if (document.activeElement !== box) box.value = String(c);
    shown.textContent = fmtTokens(c);
  };
  slider.addEventListener("input", () => app.set("context", kvPosToContext(slider.value), { continuous: true }));
  box.addEventListener("change", () => {
    const raw = box.value.trim();
    const v = Number(raw);
    if (raw === "" || !Number.isInteger(v) || v < 1) {
      app.fail(`context must be a whole number >= 1, got ${raw || "nothing"}`);
      return;
    }
    if (v > 2 ** 40) {
      app.fail(`context must be at most ${(2 ** 40).toLocaleString("en-US")} tokens, got ${v.toLocaleString("en-US")}`);
      return;
    }
    app.set("context", v);
  });
  app.syncers.push(sync);
  sync();
  const wrap = kvEl("span", { class: "kv-context" }, [slider, box, shown]);
  return kvLabelled(app, labelText, wrap);
}

/** A range slider for a float trait (utilization). */
function kvFloatSlider(app, name, labelText, { min, max, step, fmt = (v) => String(v) }) {
  // aria-label: the wrapping label also holds the shown value, which would otherwise
  // become part of the slider's name ("Utilization 90%"); aria-valuetext carries it.
  const slider = kvEl("input", { type: "range", min: String(min), max: String(max), step: String(step), "data-kv": name, "aria-label": labelText });
  const shown = kvEl("span", { class: "kv-value", "data-kv-out": name });
  const sync = () => {
    const v = app.model.get(name);
    slider.value = String(v);
    slider.setAttribute("aria-valuetext", fmt(v));
    shown.textContent = fmt(v);
  };
  slider.addEventListener("input", () => app.set(name, Number(slider.value), { continuous: true }));
  app.syncers.push(sync);
  sync();
  return kvLabelled(app, labelText, kvEl("span", { class: "kv-context" }, [slider, shown]));
}

// The usual controls, with the menus read from the synced tables.
function kvModelSelect(app) {
  return kvSelect(app, "model", "Model", () => {
    const shapes = app.model.get("shapes") || {};
    const presets = (app.model.get("presets") || []).filter((p) => p in shapes);
    const extra = Object.keys(shapes).filter((n) => !presets.includes(n)).sort();
    return [...presets, ...extra];
  }, ["shapes", "presets"]);
}

function kvGpuSelect(app) {
  return kvSelect(app, "gpu", "GPU", () => Object.keys(app.model.get("gpus") || {}), ["gpus"]);
}

function kvGpuCount(app) {
  const counts = () => (app.model.get("axes") || {}).gpu_counts || [1, 2, 4, 8];
  return kvSelect(app, "num_gpus", "GPUs", () => counts().map((n) => [n, String(n)]), ["axes"]);
}

function kvDtypeSelect(app, name, labelText) {
  const names = { bf16: "BF16", fp16: "FP16", fp8: "FP8", fp32: "FP32", int8: "INT8", int4: "INT4" };
  return kvSelect(app, name, labelText, () => Object.keys(app.model.get("dtypes") || names).map((d) => [d, names[d] || d]), ["dtypes"]);
}

function kvUtilization(app) {
  return kvFloatSlider(app, "utilization", "Utilization", { min: 0.5, max: 1, step: 0.01, fmt: (v) => `${Math.round(v * 100)}%` });
}

/** The `params` input for kvcalc: undefined (the model's own count) when 0. */
function kvParams(app) {
  const p = checkInt("params", app.model.get("params") ?? 0, 0);
  return p > 0 ? p : undefined;
}

/** Parameter count typed in billions (0 = the model's own); stored as a whole count. */
function kvParamsBox(app) {
  const box = kvEl("input", { type: "number", min: "0", step: "any", "data-kv": "params", "aria-label": "parameters in billions, 0 = the model's own count" });
  const sync = () => {
    if (document.activeElement !== box) box.value = String(Number(app.model.get("params") || 0) / 1e9);
  };
  box.addEventListener("change", () => {
    const v = Number(box.value);
    if (box.value.trim() === "" || !Number.isFinite(v) || v < 0) {
      app.fail(`params must be a number of billions >= 0 (0 = the model's own), got ${box.value.trim() || "nothing"}`);
      return;
    }
    app.set("params", Math.round(v * 1e9));
  });
  app.syncers.push(sync);
  sync();
  return kvLabelled(app, "Params (B, 0 = model's)", box);
}

/** The widget's input trait names: Python sends their starting values in `initial`. */
function kvInputs(app) {
  return Object.keys(app.model.get("initial") || {});
}

/** Ticks and series Python chose for this widget (e.g. the batch sizes drawn), from `axes`. */
function kvAxis(app, name) {
  const axes = app.model.get("axes") || {};
  if (!(name in axes)) throw new Error(`axes.${name} is missing from the widget state`);
  return axes[name];
}

function kvResetButton(app) {
  const btn = kvEl("button", { type: "button", class: "kv-reset", "data-kv": "reset", text: "Reset" });
  btn.addEventListener("click", () => {
    const initial = app.model.get("initial") || {};
    app.holding = true;
    try {
      for (const n of Object.keys(initial)) app.model.set(n, initial[n]);
    } finally {
      app.holding = false;
    }
    app.model.save_changes();
    app.localError = "";
    app.redraw();
  });
  app.controls.append(btn);
  return btn;
}

/** Plotly layout with the theme's colours and the scale factor. */
function kvLayout(app, extra = {}) {
  const t = app.theme();
  const s = app.scale();
  // No automargin: it lays the figure out twice whenever a tick label changes width, the
  // biggest part of a redraw; the fixed margins below fit the widgets' labels.
  const axis = (a = {}) => ({ gridcolor: t.grid, zerolinecolor: t.grid, linecolor: t.grid, color: t.fg, ...a });
  const { xaxis, yaxis, ...rest } = extra;
  return {
    height: Math.round(360 * s),
    margin: { l: 72 * s, r: 20 * s, t: 30 * s, b: 56 * s },
    // a redraw keeps what the reader did (zoom, hidden legend entries)
    uirevision: "kv",
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { color: t.fg, family: t.font, size: 12 * s },
    colorway: t.colors,
    legend: { orientation: "h", y: -0.25, font: { color: t.fg }, traceorder: "normal" },
    hoverlabel: { font: { size: 12 * s } },
    xaxis: axis(xaxis),
    yaxis: axis(yaxis),
    ...rest,
  };
}

/**
 * Draw with Plotly.react. dataKey names everything the traces depend on: while it is the
 * same, layout.datarevision stays the same and Plotly skips recomputing the traces (new
 * arrays with the same numbers are not compared), so a change that only moves a layout
 * shape or annotation (the chosen point) redraws just those. Without a key every draw
 * recomputes.
 */
function kvPlot(app, data, layout, dataKey) {
  const Plotly = window.Plotly;
  if (!Plotly) throw new Error(`plotly.js did not load: ${kvPlotlyProblem || "window.Plotly is missing"}`);
  const full = kvLayout(app, layout);
  full.datarevision = dataKey === undefined ? `draw ${++app.revision}` : JSON.stringify([dataKey, app.scale(), app.theme()]);
  return Plotly.react(app.plot, data, full, { displayModeBar: false, responsive: true });
}

/** Wire the model's changes to redraws; return anywidget's cleanup function. */
function kvStart(app) {
  for (const t of [...kvInputs(app), "shapes", "gpus", "dtypes", "presets", "axes"]) app.on(`change:${t}`, () => app.redraw());
  app.on("change:error", () => app.showError());
  app.on("change:scale", () => {
    app.root.style.setProperty("--kv-scale", String(app.scale()));
    app.redraw();
  });
  app.root.style.setProperty("--kv-scale", String(app.scale()));
  // Colours are read when drawing; remember the last ones so a re-colour happens once.
  const colours = () => JSON.stringify(app.theme());
  let drawnWith = colours();
  const recolour = () => {
    drawnWith = colours();
    app.redraw();
  };
  // JupyterLab switches theme by changing attributes on <body>: redraw with its colours.
  const themeWatch = new MutationObserver(recolour);
  themeWatch.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light", "data-jp-theme-name"] });
  // Outside JupyterLab the colours follow the reader's light/dark preference, which can
  // change while the page is open.
  const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  if (darkQuery) darkQuery.addEventListener("change", recolour);
  // JupyterLab renders a widget into a node not yet in the page, where no CSS variable
  // resolves and nothing has a width, so the first draw gets kvTheme's last-resort light
  // colours (dark text on JupyterLab Dark) and plotly's default 700 px width (plotly's
  // `responsive` only follows window resizes). Once the widget is laid out in the page,
  // and whenever its width changes (a sidebar opens), fix whichever is off.
  const onLayout = () => {
    if (!app.root.isConnected) return;
    if (colours() !== drawnWith) recolour();
    const full = app.plot._fullLayout;
    const width = app.plot.clientWidth;
    // A fresh plot rather than Plots.resize, which also takes the div's (min-)height
    // in place of the layout's height. Happens on attach and on a width change only.
    if (window.Plotly && full && width > 0 && Math.abs(full.width - width) > 1) {
      window.Plotly.purge(app.plot);
      app.redraw();
    }
  };
  const layoutWatch = typeof ResizeObserver === "function" ? new ResizeObserver(onLayout) : null;
  if (layoutWatch) layoutWatch.observe(app.root);
  app.redraw();
  return () => {
    themeWatch.disconnect();
    if (layoutWatch) layoutWatch.disconnect();
    if (darkQuery) darkQuery.removeEventListener("change", recolour);
    for (const [event, fn] of app.listeners) app.model.off(event, fn);
    if (window.Plotly) window.Plotly.purge(app.plot);
  };
}

function kvSetText(node, lines) {
  node.replaceChildren(...lines.map((l) => kvEl("div", { class: l.cls || "kv-line", text: l.text ?? l })));
}

function kvGB1(x) {
  return (Number(x) / 1e9).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** core.budget.Fit.message, in the browser. */
function kvFitMessage(f) {
  if (!f.weights_fit) {
    return `The weights (${kvGB1(f.weights_bytes)} GB) do not fit in the usable ${kvGB1(f.usable_bytes)} GB: the model does not even load.`;
  }
  if (f.users === 0n) {
    const gb2 = (x) => (Number(x) / 1e9).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return `Loads but cannot serve: ${gb2(f.kv_budget_bytes)} GB is left after the weights, less than one ` +
      `${Number(f.context).toLocaleString("en-US")}-token conversation needs (${gb2(f.kv_per_user_bytes)} GB).`;
  }
  return `${Number(f.users).toLocaleString("en-US")} conversations of ${Number(f.context).toLocaleString("en-US")} tokens fit at once.`;
}

