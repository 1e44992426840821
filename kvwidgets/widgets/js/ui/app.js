// The widget's frame and its redraw scheduler (createApp), and the wiring of model changes,
// theme changes and layout changes to redraws (startApp).
//
// Every control change sets the trait and calls save_changes() (so Python's `result`
// follows when a kernel is there) AND redraws at once from the synced shapes (so it
// never waits for one). Each widget's draw() computes everything before it touches the
// page, so bad input leaves the last good figure and shows a message in .kv-error.
// Per-widget state lives on the `app` object: module-level state is shared by every
// widget of the page (the library is one instance per page).

import { dtypeBits } from "../calc/dtypes.js";
import { KVInputError } from "../calc/errors.js";
import { diagramWidth, noteWidth } from "./diagram.js";
import { element, setTextLines } from "./dom.js";

/** @import { TextLine } from "./dom.js" */
import { tryModelCall } from "./host.js";
import { readTheme, themeKey, themeSource } from "./theme.js";

/**
 * Look-ups with the core's error messages, shared by every draw().
 * @param {App} app
 */
export function makeLookup(app) {
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
    /**
     * @param {string} field
     */
    bits(field) {
      return dtypeBits(dtypes, m.get(field), field);
    },
    /** The weight format: bits of a plain dtype, or a mixed format's parts (calc/model.js modelWeightBytes). */
    weightBits() {
      const format = m.get("weight_dtype");
      const mixed = (m.get("weight_formats") || {})[format];
      return mixed ? { name: format, ...mixed } : dtypeBits(dtypes, format, "weight_dtype");
    },
    dtypes,
  };
}

/**
 * @typedef {import("@anywidget/types").AnyModel} AnyModel
 * @typedef {{ model: AnyModel, el: HTMLElement, host?: any }} RenderContext
 * @typedef {ReturnType<typeof createApp>} App
 */

/**
 * The widget's frame in `el`, top to bottom: its question, the controls, the error line
 * (next to the controls it is about), the figure, the readouts in words, the warnings,
 * and a closed fold with the derivation (formulas, tables, sources). The figure comes
 * first so that a reader sees the answer before any text.
 * @param {RenderContext} ctx
 * @param {string} title
 */
function buildFrame({ model, el }, title) {
  const root = element("div", { class: "kv-widget" });
  if (model.get("compact")) root.classList.add("kv-compact"); // slide layout (widget.css)
  root.setAttribute("data-kv-theme", themeSource(getComputedStyle(root)));
  const controls = element("div", { class: "kv-controls" });
  // role=alert alone: it is already an assertive live region, and a second aria-live
  // with another politeness leaves screen readers to pick one.
  const error = element("div", { class: "kv-error", role: "alert" });
  const plot = element("div", { class: "kv-plot" });
  // What the figure shows, in words, for a reader who cannot see it: the chart is an
  // image named by the widget (describeFigure) and described by this hidden text.
  // aria-hidden: read as the image's description, not a second time as a paragraph
  // (a hidden element referenced by aria-describedby still gives its text).
  const description = element("p", { class: "kv-sr-only kv-description", id: uniqueId("kv-figure-point"), "aria-hidden": "true" });
  // Shown in place of the figure when there is nothing true to draw (failure()).
  const failurePanel = element("div", { class: "kv-failure", role: "status" });
  const figure = element("div", { class: "kv-figure" }, [plot, failurePanel]);
  // A polite live region: moving a slider announces the new answer ("52 conversations"),
  // not only the slider's own value.
  const readouts = element("div", { class: "kv-readouts", "aria-live": "polite" });
  // Warnings take a place of fixed height (widget.css: four lines, then it scrolls) so a
  // slider that brings one in or out never moves the text under the widget. Polite: a
  // warning a drag brings in is announced after the answer, not over it.
  const warnings = element("div", { class: "kv-warnings", "aria-live": "polite" });
  const text = element("div", { class: "kv-text" });
  const how = element("details", { class: "kv-how" }, [
    element("summary", { text: "How this is computed", tabindex: "0", "data-lm-suppress-shortcuts": "true" }),
    text,
  ]);
  root.append(titleHeading(el, title), controls, error, figure, description, readouts, warnings, how);
  el.append(root);
  return { root, controls, readouts, text, plot, error, figure, warnings, how, description };
}

/**
 * What a widget keeps between its draws, each widget its own: the redraw scheduler's
 * flags, the failure and error last shown, the diagram's width and the figure's height
 * last drawn, and what its controls and its render function hang on it.
 */
function drawState() {
  return {
    /** the failure the current draw reported ("" when the figure is true) */
    failed: "",
    localError: "",
    holding: false, // true while several traits are set at once (reset): draw once after
    drawn: false,   // set by redraw(), so set() knows whether a change event already drew
    // While a slider is dragged, at most one draw per animation frame (scheduleDraw).
    continuous: false,
    frameBusy: false,
    stale: false,
    revision: 0,    // plotly layout.datarevision: bumped on every draw
    /** @type {ReturnType<typeof readTheme> | null} the theme read for the draw under way */
    drawTheme: null,
    /** @type {() => void} the widget's drawing, set by its render function */
    draw: () => {},
    /** @type {Array<() => void>} bring each control in line with the model before a draw */
    syncers: [],
    /** @type {Array<[string, (...args: any[]) => void]>} */
    listeners: [],
    /** @type {HTMLElement | null} a diagram's place instead of the plot (diagram.js) */
    diagram: null,
    drawnWidth: 0, // the width the diagram was last laid out in
    figureHeight: 0, // the figure's height at the last draw that showed it (a failure keeps it)
    contentWidth: 0, // the root's content width at the last resize observation (0: not yet)
    /** @type {Record<string, string> | null} PerTokenBytes: the formula's factors last drawn */
    formulaValues: null,
  };
}

/**
 * A redraw, now or at the next animation frame. While a slider is dragged, at most one
 * draw per frame: the first move draws at once (no added latency), later moves before the
 * next frame (input events queued behind a slow draw) only mark the figure stale and the
 * next frame draws it once with the latest value. Discrete changes (menus, typed boxes,
 * reset) always draw at once, so the page is current as soon as their event has run.
 * @param {App} app
 * @returns {void}
 */
function scheduleDraw(app) {
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
}

/**
 * One draw: the controls brought in line with the model, the widget's draw, then the
 * failure panel and the error line for what it reported.
 * @param {App} app
 * @returns {void}
 */
function drawOnce(app) {
  for (const s of app.syncers) s();
  app.failed = "";
  // One reading of the theme per draw: a draw asks for it many times (its own
  // colours, the layout, the data key) and each reading resolves computed styles.
  app.drawTheme = readTheme(app.root);
  try {
    app.draw();
    app.localError = "";
  } catch (e) {
    app.localError = e && /** @type {Error} */ (e).message ? /** @type {Error} */ (e).message : String(e);
    if (!(e instanceof KVInputError)) console.error(e);
    // The figure and the readouts were drawn for other inputs than those on screen:
    // hide them rather than let them pass for the answer.
    app.failed = "The figure waits for inputs it can use: see the message above.";
  } finally {
    app.drawTheme = null;
  }
  showFailure(app);
  app.showError();
}

/**
 * A readout, its label and its value, appended to the readouts; returns the value's span.
 * @param {HTMLElement} readouts
 * @param {string} name the value's data-kv-out
 * @param {string} label
 */
function addReadout(readouts, name, label) {
  const value = element("span", { class: "kv-value", "data-kv-out": name });
  // said in place of a struck-through number while the widget shows a failure
  const unavailable = element("span", { class: "kv-sr-only kv-unavailable", text: "not available" });
  // aria-atomic: a changed value is announced with its label ("Conversations that fit: 52")
  readouts.append(element("span", { class: "kv-readout", "aria-atomic": "true" }, [element("span", { class: "kv-label", text: label + " " }), value, unavailable]));
  // how many lines the readouts take at least (widget.css reserves one more on a narrow page)
  readouts.style.setProperty("--kv-readout-count", String(readouts.children.length));
  return value;
}

/**
 * The widget's frame (title, controls, readouts, text, plot, error line) in `el`, and the
 * object every control and draw works on.
 * @param {RenderContext} ctx
 * @param {string} title
 */
export function createApp({ model, el }, title) {
  const frame = buildFrame({ model, el }, title);
  const { root, readouts, text, plot, error, warnings, description } = frame;

  const app = {
    model, el, ...frame, ...drawState(),
    /**
     * @param {string} event
     * @param {(...args: any[]) => void} fn
     */
    on(event, fn) {
      model.on(event, fn);
      app.listeners.push([event, fn]);
    },
    /**
     * Set a trait from a control: save it for Python and redraw from the shape now.
     * model.set fires change:<name> synchronously, whose handler redraws; draw here only
     * when it did not (same value, or a model that does not echo its own sets).
     * @param {string} name
     * @param {unknown} value
     */
    set(name, value, { continuous = false } = {}) {
      app.drawn = false;
      app.continuous = continuous;
      try {
        model.set(name, value);
        tryModelCall(model, "save_changes");
        if (!app.drawn) app.redraw();
      } finally {
        app.continuous = false;
      }
    },
    /**
     * @param {string} message
     */
    fail(message) {
      app.localError = message;
      app.showError();
    },
    showError() {
      let msg = app.localError || model.get("error") || "";
      // the kernel's error word for word what the failure panel says in place of the
      // figure (a model that does not load): said once, in the panel
      if (msg && msg === app.failed) msg = "";
      error.textContent = msg;
      error.style.display = msg ? "" : "none";
    },
    redraw() {
      scheduleDraw(app);
    },
    drawNow() {
      drawOnce(app);
    },
    /**
     * Called by a draw when the inputs are valid but describe something that cannot
     * happen (the weights do not fit, nothing fits): the figure gives way to `message`
     * and the headline numbers are greyed. The next draw clears it.
     * @param {string} message
     */
    failure(message) {
      app.failed = message;
    },
    /**
     * The text under the figure: warnings (cls "kv-warn") stay in view under the
     * readouts, everything else goes into the closed "How this is computed" fold.
     * @param {Array<string | {text: string, cls?: string}>} lines
     */
    say(lines) {
      const isWarn = (/** @type {TextLine} */ l) => typeof l === "object" && l.cls === "kv-warn";
      setTextLines(warnings, lines.filter(isWarn));
      setTextLines(text, lines.filter((l) => !isWarn(l)));
      reachScrolledWarnings(warnings);
    },
    theme() {
      return app.drawTheme || readTheme(root);
    },
    /** Whether a diagram keeps room for what its inputs may add (a row, a label), so the
     *  page under it does not move as a slider moves. Not on a slide (compact): its frame
     *  is fixed and has no room to spare. */
    keepsHeight() {
      return !model.get("compact");
    },
    scale() {
      const s = Number(model.get("scale"));
      return s > 0 ? s : 1;
    },
    /**
     * Name the plotly chart as an image and give it its point in words, from the same
     * numbers the readouts show (a screen reader otherwise reads its tick labels).
     * @param {string} name what the chart is
     * @param {string} point what it says for these inputs
     */
    describeFigure(name, point) {
      plot.setAttribute("role", "img");
      plot.setAttribute("aria-label", name);
      plot.setAttribute("aria-describedby", description.id);
      description.textContent = point;
    },
    /**
     * @param {string} name
     * @param {string} label
     */
    readout(name, label) {
      return addReadout(readouts, name, label);
    },
    lookup() {
      return makeLookup(app);
    },
  };
  return app;
}

/**
 * Warnings that overflow their fixed place scroll: the place then takes keyboard focus and
 * a name, so that a reader without a pointer can scroll it; with nothing hidden it is no
 * tab stop.
 * @param {HTMLElement} warnings
 */
function reachScrolledWarnings(warnings) {
  const scrolls = warnings.scrollHeight > warnings.clientHeight + 1;
  if (scrolls === warnings.hasAttribute("tabindex")) return;
  if (scrolls) {
    warnings.setAttribute("tabindex", "0");
    warnings.setAttribute("role", "region");
    warnings.setAttribute("aria-label", "Warnings");
  } else {
    for (const a of ["tabindex", "role", "aria-label"]) warnings.removeAttribute(a);
  }
}

/**
 * The failure takes the figure's place at the figure's last drawn height, so a slider that
 * crosses into a failure and back never moves what is under the widget. A widget whose
 * first draw fails has no height to keep: the panel takes its own.
 * @param {App} app
 */
function holdFigureHeight(app) {
  const fig = app.figure;
  const held = Boolean(app.failed) && app.figureHeight > 0;
  fig.classList.toggle("kv-figure-held", held);
  fig.style.height = held ? `${app.figureHeight}px` : "";
  if (!app.failed) {
    const drawn = fig.getBoundingClientRect().height;
    if (drawn > 0) app.figureHeight = drawn;
  }
}

/**
 * Show or clear the failure panel for the draw that just ran (app.failed).
 * @param {App} app
 */
function showFailure(app) {
  const panel = /** @type {HTMLElement} */ (app.figure.querySelector(".kv-failure"));
  panel.textContent = app.failed;
  app.root.classList.toggle("kv-failed", Boolean(app.failed));
  holdFigureHeight(app);
  // The struck-through readouts (widget.css) are drawn for inputs that do not hold: hidden
  // from assistive technology, which reads the "not available" beside each instead.
  // A value the draw marked as still true (data-kv-holds) is neither struck nor hidden.
  for (const value of app.readouts.querySelectorAll(".kv-value")) {
    if (app.failed && !value.hasAttribute("data-kv-holds")) value.setAttribute("aria-hidden", "true");
    else value.removeAttribute("aria-hidden");
  }
  // the figure's description would describe a figure that is not shown (a chart the widget
  // keeps beside its failure, kv-figure-keeps, is shown and keeps its description)
  if (app.failed && !app.plot.classList.contains("kv-figure-keeps")) app.description.textContent = "";
}

let idCount = 0;
/**
 * An id no other element of the page holds (widgets of several library copies may share a page).
 * @param {string} prefix
 */
function uniqueId(prefix) {
  idCount += 1;
  return `${prefix}-${idCount}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The widget's question as a heading. Level 3 sits under a notebook's "## section" (a
 * lesson's cell layout); a page can say otherwise with data-kv-heading-level on an
 * element holding the widget (the exported page, whose widgets sit under its h1, says 2).
 * role=heading on a div keeps the hosts' own h1-h6 styles off it.
 * @param {HTMLElement} el
 * @param {string} title
 */
function titleHeading(el, title) {
  const holder = el.closest ? el.closest("[data-kv-heading-level]") : null;
  const asked = holder ? Number(holder.getAttribute("data-kv-heading-level")) : 3;
  const level = Number.isInteger(asked) && asked >= 1 && asked <= 6 ? asked : 3;
  return element("div", { class: "kv-title", role: "heading", "aria-level": String(level), text: title });
}

/**
 * The widget's input trait names: Python sends their starting values in `initial`.
 * @param {App} app
 */
export function inputNames(app) {
  return Object.keys(app.model.get("initial") || {});
}

/**
 * Ticks and series Python chose for this widget (e.g. the batch sizes drawn), from `axes`.
 * @param {App} app
 * @param {string} name
 */
export function axisValues(app, name) {
  const axes = app.model.get("axes") || {};
  if (!(name in axes)) throw new Error(`axes.${name} is missing from the widget state`);
  return axes[name];
}

/**
 * Wire the model's changes to redraws; return anywidget's cleanup function.
 * @param {App} app
 */
export function startApp(app) {
  for (const t of [...inputNames(app), "shapes", "gpus", "dtypes", "weight_formats", "presets", "axes"]) app.on(`change:${t}`, () => app.redraw());
  app.on("change:error", () => app.showError());
  app.on("change:scale", () => {
    app.root.style.setProperty("--kv-scale", String(app.scale()));
    app.redraw();
  });
  app.root.style.setProperty("--kv-scale", String(app.scale()));
  // Colours are read when drawing; remember what they were drawn with so a re-colour
  // happens once, and only when something that decides them changed.
  const colours = () => themeKey(app);
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
  // resolves and nothing has a width, so the first draw gets readTheme's last-resort light
  // colours (dark text on JupyterLab Dark) and plotly's default 700 px width (plotly's
  // `responsive` only follows window resizes). Once the widget is laid out in the page,
  // and whenever its width changes (a sidebar opens), fix whichever is off.
  const onLayout = () => {
    if (!app.root.isConnected) return;
    recolourIfChanged();
    if (app.diagram) {  // an SVG diagram (diagram.js) is laid out for one width
      if (Math.abs(diagramWidth(app) - app.drawnWidth) > 1) app.redraw();
      return;
    }
    const full = /** @type {any} */ (app.plot)._fullLayout;  // plotly.js's own layout, set on the div it draws in
    const width = app.plot.clientWidth;
    // A fresh plot rather than Plots.resize, which also takes the div's (min-)height
    // in place of the layout's height. Happens on attach and on a width change only.
    if (window.Plotly && full && width > 0 && Math.abs(full.width - width) > 1) {
      window.Plotly.purge(app.plot);
      app.redraw();
    }
  };
  const layoutWatch = typeof ResizeObserver === "function"
    ? new ResizeObserver((entries) => {
      noteWidth(app, entries);
      onLayout();
    })
    : null;
  if (layoutWatch) layoutWatch.observe(app.root);
  app.redraw();
  return () => {
    themeWatch.disconnect();
    if (layoutWatch) layoutWatch.disconnect();
    if (darkQuery) darkQuery.removeEventListener("change", recolourIfChanged);
    for (const [event, fn] of app.listeners) tryModelCall(app.model, "off", event, fn);
    if (window.Plotly) window.Plotly.purge(app.plot);
  };
}
