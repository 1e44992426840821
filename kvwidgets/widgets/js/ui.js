// ui.js: what every widget's render code shares: the frame (title, controls, text,
// plot, error line), controls bound to the model's traits, theme colours, the scale
// factor and plotting. With kvcalc.js it forms the shared library (library.py) that
// every widget of a page imports once, so top-level state here is per page, not per
// widget: keep per-widget state on the `app` object.
//
// Every control change sets the trait and calls save_changes() (so Python's `result`
// follows when a kernel is there) AND redraws at once from the synced shapes (so it
// never waits for one). Each widget's draw() computes everything before it touches the
// page, so bad input leaves the last good figure and shows a message in .kv-error.

const KV_CONTEXT_STEPS = 16; // slider stops per doubling, 1K..1M

// Elements that take keys. JupyterLab and Notebook 7 bind keys such as ArrowRight to
// notebook commands in command mode and call preventDefault before a focused control
// sees them; Lumino skips its shortcut handling for an event whose target carries
// data-lm-suppress-shortcuts="true" (on the root element it did not help: the
// attribute must be on the control itself, see shared/HOSTS.md).
const KV_KEYED = new Set(["INPUT", "SELECT", "BUTTON", "TEXTAREA", "SUMMARY"]);

function kvEl(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  if (KV_KEYED.has(e.tagName)) e.setAttribute("data-lm-suppress-shortcuts", "true");
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// ---- theme ---------------------------------------------------------------------------
// Every host names its colours differently. kvThemeSource picks ONE source for the
// text and the background together and writes it on the root as data-kv-theme;
// widget.css then maps that source's variables onto the --kv-* the widget uses. Text
// and background never come from two sources, so no host can give light text on a
// light fallback (Colab maps only its text colour onto --jp-ui-font-color1: with a
// JupyterLab background fallback that was near-white on white).
//   jupyter  JupyterLab, Notebook 7, Voila: --jp-ui-font-color1 on --jp-layout-color1
//   vscode   VS Code's webview: --vscode-editor-foreground on --vscode-editor-background
//   colab    Colab: --colab-primary-text-color on --colab-primary-surface-color
//   jupyter-partial  --jp-ui-font-color1 on --jp-layout-color2 when a host maps only
//            those (Colab's widget manager CSS does exactly that)
//   dark / light  no colour variables: the page's own dark mark (marimo's body.dark and
//            data-theme, VS Code's body class, MyST's html.dark, JupyterLab's
//            data-jp-theme-light while the widget is still detached), else the reader's
//            prefers-color-scheme; widget.css holds both palettes.
const KV_PAGE_DARK = ["dark", "dark-theme", "dark-mode", "vscode-dark", "vscode-high-contrast"];
const KV_PAGE_LIGHT = ["light", "light-theme", "light-mode", "vscode-light", "vscode-high-contrast-light"];

/** "dark", "light" or "" from marks the page puts on <body> or <html>. */
function kvPageScheme() {
  for (const e of [document.body, document.documentElement]) {
    if (!e) continue;
    const marks = [e.getAttribute("data-theme"), e.getAttribute("data-mode"), e.getAttribute("theme"), ...e.classList];
    if (marks.some((m) => KV_PAGE_DARK.includes(m))) return "dark";
    if (marks.some((m) => KV_PAGE_LIGHT.includes(m))) return "light";
    if (e.dataset.jpThemeLight === "false") return "dark";
    if (e.dataset.jpThemeLight === "true") return "light";
  }
  return "";
}

/** Which host's colours the widget takes (see above), read from the root's inherited style. */
function kvThemeSource(cs) {
  const has = (name) => (cs.getPropertyValue(name) || "").trim() !== "";
  if (has("--jp-ui-font-color1") && has("--jp-layout-color1")) return "jupyter";
  if (has("--vscode-editor-foreground") && has("--vscode-editor-background")) return "vscode";
  if (has("--colab-primary-text-color") && has("--colab-primary-surface-color")) return "colab";
  if (has("--jp-ui-font-color1") && has("--jp-layout-color2")) return "jupyter-partial";
  const page = kvPageScheme();
  if (page) return page;
  const dark = typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches;
  return dark ? "dark" : "light";
}

/** The widget's colours, as widget.css resolves them for the host's theme. A node not
 *  yet in the page (JupyterLab renders detached) resolves no variable at all: it gets
 *  the last-resort colours here and is redrawn once attached (kvStart). */
function kvTheme(node) {
  let cs = getComputedStyle(node);
  const source = kvThemeSource(cs);
  if (node.getAttribute("data-kv-theme") !== source) {
    node.setAttribute("data-kv-theme", source);
    cs = getComputedStyle(node);
  }
  const v = (name, fallback) => (cs.getPropertyValue(name) || "").trim() || fallback;
  const dark = source === "dark";
  return {
    source,
    fg: v("--kv-fg", dark ? "#e8e8e8" : "#1f1f1f"),
    fg2: v("--kv-fg2", dark ? "#a8a8a8" : "#616161"),
    bg: v("--kv-bg", dark ? "#1e1e1e" : "#ffffff"),
    grid: v("--kv-grid", dark ? "#444444" : "#e0e0e0"),
    font: v("--kv-font", "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"),
    colors: ["#3b82c4", "#e07b39", "#4aa564", "#c94c4c", "#8c6bb1", "#8c8c8c", "#d4a017"],
  };
}

/** A snapshot of what decides the colours: the page's marks plus the colours drawn. */
function kvThemeKey(app) {
  return JSON.stringify([kvPageScheme(), app.theme()]);
}

// ---- model calls that a host may not implement ------------------------------------------
// MyST / Jupyter Book's {anywidget} model (@myst-theme/anywidget, MystAnyModel) throws
// "not implemented" from save_changes(), off() and send(): there is no kernel to save
// to. A widget must keep working there, so these calls never let an error escape; the
// first failure of each is reported once as a warning.
const kvWarned = new Set();
function kvTry(model, method, ...args) {
  if (!model || typeof model[method] !== "function") return false;
  try {
    model[method](...args);
    return true;
  } catch (e) {
    if (!kvWarned.has(method)) {
      kvWarned.add(method);
      console.warn(`kvwidgets: this page's widget model cannot ${method}() (${e && e.message ? e.message : e}); ` +
        "the widget keeps working on the page, without a kernel to follow it.");
    }
    return false;
  }
}

/** Whether `el` has the focus, also inside a shadow root (marimo, MyST), where
 *  document.activeElement is the shadow host, never the control. */
function kvFocused(el) {
  const root = el.getRootNode ? el.getRootNode() : document;
  return (root.activeElement || document.activeElement) === el;
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
    /** The weight format: bits of a plain dtype, or a mixed format's parts (kvcalc modelWeightBytes). */
    weightBits() {
      const name = m.get("weight_dtype");
      const mixed = (m.get("weight_formats") || {})[name];
      return mixed ? { name, ...mixed } : dtypeBits(dtypes, name, "weight_dtype");
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
  if (model.get("compact")) root.classList.add("kv-compact"); // slide layout (widget.css)
  root.setAttribute("data-kv-theme", kvThemeSource(getComputedStyle(root)));
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
        kvTry(model, "save_changes");
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
    if (!kvFocused(box)) box.value = String(app.model.get(name));
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
    if (!kvFocused(box)) box.value = String(c);
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
  const names = { bf16: "BF16", fp16: "FP16", fp8: "FP8", fp32: "FP32", int8: "INT8", int4: "INT4", mxfp4: "MXFP4 experts" };
  // weights also take the mixed formats (mxfp4: 4.25-bit experts, the rest 16-bit)
  const options = () => [...Object.keys(app.model.get("dtypes") || names), ...(name === "weight_dtype" ? Object.keys(app.model.get("weight_formats") || {}) : [])];
  return kvSelect(app, name, labelText, () => options().map((d) => [d, names[d] || d]), ["dtypes", "weight_formats"]);
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
    if (!kvFocused(box)) box.value = String(Number(app.model.get("params") || 0) / 1e9);
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
    kvTry(app.model, "save_changes");  // a host without a kernel may not have it (MyST)
    app.localError = "";
    app.redraw();  // here, not only from the change events: a model need not echo them
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
  // ticklabeloverflow "allow": the default ("hide past div") measures every tick label
  // after drawing it, forcing a layout per axis on each redraw; the fixed margins keep the
  // labels inside the figure anyway.
  const axis = (a = {}) => ({ gridcolor: t.grid, zerolinecolor: t.grid, linecolor: t.grid, color: t.fg, ticklabeloverflow: "allow", ...a });
  const { xaxis, yaxis, ...rest } = extra;
  for (const key of Object.keys(rest)) {  // xaxis2, yaxis2...: styled as the first pair
    if (/^[xy]axis\d+$/.test(key)) rest[key] = axis(rest[key]);
  }
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
// Why the page's one plotly.js load failed ("" when it did not), noted by the loader
// (plotly_loader.js kvWidgetReady) before each render, for kvPlot's error line.
let kvPlotlyProblem = "";
function kvNotePlotlyProblem(why) {
  kvPlotlyProblem = why || "";
}

function kvPlot(app, data, layout, dataKey) {
  const Plotly = window.Plotly;
  if (!Plotly) throw new Error(`plotly.js did not load: ${kvPlotlyProblem || "window.Plotly is missing"}`);
  const full = kvLayout(app, layout);
  if (app.root.classList.contains("kv-compact")) full.height = Math.round(0.7 * full.height); // a slide's figure
  full.datarevision = dataKey === undefined ? `draw ${++app.revision}` : JSON.stringify([dataKey, app.scale(), app.theme()]);
  return Plotly.react(app.plot, data, full, { displayModeBar: false, responsive: true });
}

/** Wire the model's changes to redraws; return anywidget's cleanup function. */
function kvStart(app) {
  for (const t of [...kvInputs(app), "shapes", "gpus", "dtypes", "weight_formats", "presets", "axes"]) app.on(`change:${t}`, () => app.redraw());
  app.on("change:error", () => app.showError());
  app.on("change:scale", () => {
    app.root.style.setProperty("--kv-scale", String(app.scale()));
    app.redraw();
  });
  app.root.style.setProperty("--kv-scale", String(app.scale()));
  // Colours are read when drawing; remember what they were drawn with so a re-colour
  // happens once, and only when something that decides them changed.
  const colours = () => kvThemeKey(app);
  let drawnWith = colours();
  const recolour = () => {
    drawnWith = colours();
    app.redraw();
  };
  const recolourIfChanged = () => {
    if (colours() !== drawnWith) recolour();
  };
  // Hosts switch theme by changing the page: JupyterLab flips data-jp-theme-* on <body>
  // (its new variables may land after the flip, so that always redraws); marimo sets
  // body.dark and data-theme; VS Code rewrites <html>'s style (its --vscode-* values)
  // and the body class; Colab sets <html theme="dark">; MyST toggles html.dark.
  const themeWatch = new MutationObserver((records) => {
    if (records.some((r) => (r.attributeName || "").startsWith("data-jp-theme"))) recolour();
    else recolourIfChanged();
  });
  const watched = ["class", "style", "theme", "data-theme", "data-mode", "data-jp-theme-light", "data-jp-theme-name"];
  for (const node of [document.body, document.documentElement]) {
    if (node) themeWatch.observe(node, { attributes: true, attributeFilter: watched });
  }
  // Without host variables the colours follow the reader's light/dark preference, which
  // can change while the page is open.
  const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  if (darkQuery) darkQuery.addEventListener("change", recolourIfChanged);
  // JupyterLab renders a widget into a node not yet in the page, where no CSS variable
  // resolves and nothing has a width, so the first draw gets kvTheme's last-resort light
  // colours (dark text on JupyterLab Dark) and plotly's default 700 px width (plotly's
  // `responsive` only follows window resizes). Once the widget is laid out in the page,
  // and whenever its width changes (a sidebar opens), fix whichever is off.
  const onLayout = () => {
    if (!app.root.isConnected) return;
    recolourIfChanged();
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
    if (darkQuery) darkQuery.removeEventListener("change", recolourIfChanged);
    for (const [event, fn] of app.listeners) kvTry(app.model, "off", event, fn);
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


// ---- explainer diagrams (DecodeStep, PagedBlocks): concept colours and SVG ------------

/** One colour per concept, the same in every widget and in light and dark: mid tones
 *  that read on a white and on a near-black background (each is a fill, never text). */
const KV_CONCEPT_COLORS = {
  weights: "#4e79a7", kv: "#f28e2b", reserve: "#9c9c9c", free: "#59a14f",
  full: "#e15759", sliding: "#76b7b2", chunked: "#9c755f", mla: "#b07aa1", latent: "#b07aa1",
  recurrent: "#edc948", state: "#edc948", "16-bit": "#d37295", fp8: "#17a2b8",
  shared: "#8cd17d", waste: "#d0d0d0", working: "#bab0ac", other: "#8c8c8c",
  ink: "#1f1f1f",  // text written on one of these fills (they are light enough in both themes)
};

/** The concept colour of a cache number format: 16-bit or FP8 (others: none). */
function kvDtypeConcept(dtype) {
  return { bf16: KV_CONCEPT_COLORS["16-bit"], fp16: KV_CONCEPT_COLORS["16-bit"], fp8: KV_CONCEPT_COLORS.fp8 }[dtype] || null;
}

/** The theme's accent (widget.css --kv-accent): what a step reads, focus rings. */
function kvAccent(app) {
  return getComputedStyle(app.root).getPropertyValue("--kv-accent").trim() || "#1976d2";
}

function kvConcept(name) {
  return KV_CONCEPT_COLORS[name] || KV_CONCEPT_COLORS.other;
}

const KV_SVG_NS = "http://www.w3.org/2000/svg";

function kvSvg(tag, attrs = {}, children = []) {
  const e = document.createElementNS(KV_SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children) e.append(c);
  return e;
}

/** Replace the plotly div by a diagram div (div.kv-diagram) that the widget fills with SVG;
 *  its width follows the widget's, and a width change redraws (returns the cleanup). */
function kvDiagram(app) {
  const box = kvEl("div", { class: "kv-diagram" });
  app.plot.replaceWith(box);
  app.diagram = box;
  app.drawnWidth = 0;
  const watch = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => {
      if (app.root.isConnected && Math.abs(kvDiagramWidth(app) - app.drawnWidth) > 1) app.redraw();
    })
    : null;
  if (watch) watch.observe(app.root);
  return () => { if (watch) watch.disconnect(); };
}

/** Width to lay a diagram out in: the widget's content width (860 px before it is laid out). */
function kvDiagramWidth(app) {
  const w = app.root.clientWidth;
  if (!w) return 860;
  const cs = getComputedStyle(app.root);
  return Math.max(320, w - parseFloat(cs.paddingLeft || 0) - parseFloat(cs.paddingRight || 0));
}

/**
 * Limits a number can silently pass, as warning lines (cls kv-warn) for a widget's text:
 * a context longer than the model was trained for (max_position_embeddings), a window at
 * least as long as that maximum (nothing ever slides, so every token costs its full bytes),
 * and a parameter count the loader estimated (when the weights matter and no override is set).
 */
function kvLimitLines(shape, { context = null, weights = false, params = undefined } = {}) {
  const n = (x) => Number(x).toLocaleString("en-US");
  const out = [];
  const max = shape.max_context;
  if (max && context !== null && context > max) {
    out.push({ text: `${n(context)} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${n(max)}): the numbers hold for the memory, not for the model's quality.`, cls: "kv-warn" });
  }
  if (max) {
    const never = shape.groups.filter((g) => g.cap !== null && g.cap !== undefined && g.cap > 0 && g.kv_heads !== undefined && g.cap >= max);
    if (never.length) {
      out.push({ text: `A window of ${n(never[0].cap)} tokens is at least ${shape.name}'s maximum context (${n(max)}): nothing ever slides out, so every token costs its full bytes in those layers.`, cls: "kv-warn" });
    }
  }
  for (const note of shape.engine_notes || []) out.push({ text: note, cls: "kv-warn" });
  if (weights && shape.params_estimated && !params) {
    out.push({ text: `${shape.name}'s parameter count (${(Number(shape.params) / 1e9).toLocaleString("en-US", { maximumFractionDigits: 2 })} B) is an estimate from its config; set Params to a published count if you have one.`, cls: "kv-warn" });
  }
  return out;
}

/**
 * Progressive disclosure: the controls build() adds go into a "More" fold (<details>), closed
 * at first, after the controls in view. Its summary is a control like the others (data-kv
 * "more"): Tab reaches it, Enter or Space opens it, and Tab then reaches what it holds.
 */
function kvMore(app, build) {
  const summary = kvEl("summary", { class: "kv-more-toggle", "data-kv": "more", text: "More" });
  const body = kvEl("div", { class: "kv-more-body" });
  const fold = kvEl("details", { class: "kv-more" }, [summary, body]);
  app.controls.append(fold);
  const outer = app.controls;
  app.controls = body;
  try {
    build();
  } finally {
    app.controls = outer;
  }
  return fold;
}
