// plotly_loader.js: window.Plotly before a widget's first draw, evaluated once per page.
//
// A widget's usual ESM does not carry plotly.js. The bundle's text lives once per kernel
// in a hidden PlotlyBundle model (plotly_bundle.py) that the widget's `_plotly` trait
// names as "IPY_MODEL_<id>". The first widget on the page to render gets that model from
// the widget manager and imports the text from a Blob URL, as anywidget imports ESMs
// (the bundle's UMD wrapper then sets window.Plotly); every later widget, whatever its
// class, awaits the same promise kept on globalThis. Hosts that cannot reach other
// models still have the kernel: the widget asks it for the text over its own comm.
// A standalone ESM (exported pages, MyST) starts with the bundle itself, so window.Plotly
// is already there (KV_PLOTLY_INLINED, set by base.build_esm).

const KV_PLOTLY_KEY = "__kvwidgetsPlotly"; // globalThis slot for the page's one load
const KV_PLOTLY_WAIT_MS = 15000;
let kvPlotlyProblem = ""; // why plotly.js is missing, for kvPlot's error line

function kvWithin(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The shared bundle model, through whichever door this host opens. */
async function kvPlotlyModel(model, host) {
  const ref = model.get("_plotly");
  if (typeof ref !== "string" || !ref.startsWith("IPY_MODEL_")) {
    throw new Error("the widget's state names no plotly.js bundle (_plotly)");
  }
  const manager = model.widget_manager;
  if (manager && typeof manager.get_model === "function") {
    return kvWithin(KV_PLOTLY_WAIT_MS, Promise.resolve(manager.get_model(ref.slice("IPY_MODEL_".length))), "the widget manager");
  }
  if (host && typeof host.getModel === "function") return kvWithin(KV_PLOTLY_WAIT_MS, host.getModel(ref), "anywidget's host");
  throw new Error("this page gives widgets no access to other widget models");
}

/** Ask the kernel for the bundle over this widget's comm (KVWidget._on_custom_msg). */
function kvPlotlyFromKernel(model) {
  return kvWithin(KV_PLOTLY_WAIT_MS, new Promise((resolve) => {
    const onMsg = (msg) => {
      if (!msg || msg.kvw !== "plotly-source") return;
      if (typeof model.off === "function") {
        try {
          model.off("msg:custom", onMsg);
        } catch (_) {
          // a host whose model cannot remove handlers: the handler just stays (harmless)
        }
      }
      resolve({ source: msg.source, version: msg.version });
    };
    model.on("msg:custom", onMsg);
    model.send({ kvw: "plotly-source" });
  }), "the kernel");
}

async function kvImportPlotly(source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  if (!window.Plotly) throw new Error("the plotly.js bundle ran but did not set window.Plotly");
  return window.Plotly;
}

async function kvFetchPlotly(model, host) {
  let bundle;
  let firstProblem;
  try {
    const shared = await kvPlotlyModel(model, host);
    bundle = { source: shared.get("source"), version: shared.get("version") };
  } catch (e) {
    firstProblem = e;
  }
  if (!bundle || !bundle.source) {
    try {
      bundle = await kvPlotlyFromKernel(model);
    } catch (e) {
      const why = firstProblem ? firstProblem.message : "the shared bundle model is empty";
      throw new Error(`${why}; ${e.message}`);
    }
  }
  return kvEvaluatePlotly(bundle);
}

function kvEvaluatePlotly(bundle) {
  // Already on the page (a standalone widget drew first): the same version is the same code.
  if (window.Plotly && bundle.version && window.Plotly.version === bundle.version) return Promise.resolve(window.Plotly);
  return kvImportPlotly(bundle.source);
}

/** Start the page's one load (unless one is under way) and keep it on globalThis. */
function kvPlotlyOnce(start) {
  const g = globalThis;
  if (!g[KV_PLOTLY_KEY]) {
    g[KV_PLOTLY_KEY] = start().catch((e) => {
      delete g[KV_PLOTLY_KEY]; // let the next widget try again
      throw e;
    });
  }
  return g[KV_PLOTLY_KEY];
}

/** The PlotlyBundle model's own ESM calls this as soon as the page creates the model,
 *  before any widget that needs plotly.js has loaded its code. */
function kvPlotlyPreload(bundleModel) {
  const source = bundleModel.get("source");
  if (!source) return;
  kvPlotlyOnce(() => kvEvaluatePlotly({ source, version: bundleModel.get("version") })).catch((e) => {
    console.warn("[kvwidgets] plotly.js preload failed; the widgets will try again:", e);
  });
}

/** Resolve once window.Plotly can draw; on failure note why (the widget still renders). */
async function kvPlotlyReady({ model, host }) {
  if (KV_PLOTLY_INLINED && window.Plotly) return;
  try {
    await kvPlotlyOnce(() => kvFetchPlotly(model, host));
    kvPlotlyProblem = "";
  } catch (e) {
    kvPlotlyProblem = e && e.message ? e.message : String(e);
    console.error("[kvwidgets] plotly.js could not be loaded:", e);
  }
}
