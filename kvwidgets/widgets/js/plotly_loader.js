// plotly_loader.js: the shared code (kvcalc.js + ui.js) and window.Plotly before a
// widget's first draw, each evaluated once per page.
//
// A widget's usual ESM carries only this loader and its own render code. plotly.js and
// the shared library (library.py: kvcalc.js + ui.js as one module) live once per kernel
// in a hidden PlotlyBundle model (plotly_bundle.py) that the widget's `_plotly` trait
// names as "IPY_MODEL_<id>". The first widget on the page to render gets that model from
// the widget manager and imports each text from a Blob URL, as anywidget imports ESMs
// (the bundle's UMD wrapper then sets window.Plotly); every later widget, whatever its
// class, awaits the same promises kept on globalThis (the library's under its content
// hash, KV_LIBRARY_HASH, so two kvwidgets versions on one page never mix). Hosts that
// cannot reach other models still have the kernel: the widget asks it for both texts
// over its own comm. A standalone ESM (exported pages, MyST) starts with the bundle and
// holds the library itself (KV_PLOTLY_INLINED, KV_LIBRARY_INLINED, set by base.build_esm).

const KV_PLOTLY_KEY = "__kvwidgetsPlotly"; // globalThis slot for the page's one plotly.js load
const KV_LIBRARY_KEY = "__kvwidgetsLibrary"; // globalThis map: library hash -> its one import
const KV_PLOTLY_WAIT_MS = 15000;

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
    throw new Error("the widget's state names no shared bundle model (_plotly)");
  }
  const manager = model.widget_manager;
  if (manager && typeof manager.get_model === "function") {
    return kvWithin(KV_PLOTLY_WAIT_MS, Promise.resolve(manager.get_model(ref.slice("IPY_MODEL_".length))), "the widget manager");
  }
  if (host && typeof host.getModel === "function") return kvWithin(KV_PLOTLY_WAIT_MS, host.getModel(ref), "anywidget's host");
  throw new Error("this page gives widgets no access to other widget models");
}

/** Ask the kernel for both texts over this widget's comm (KVWidget._on_custom_msg). */
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
      resolve(msg);
    };
    model.on("msg:custom", onMsg);
    model.send({ kvw: "plotly-source" });
  }), "the kernel");
}

/** The shared model's texts {source, version, library, library_hash}: from the model if
 *  this host reaches it, else from the kernel. Asked once per widget model. */
const kvSharedTexts = new WeakMap();
function kvFetchShared(model, host) {
  if (!kvSharedTexts.has(model)) {
    const texts = (async () => {
      let firstProblem;
      try {
        const shared = await kvPlotlyModel(model, host);
        const t = {};
        for (const k of ["source", "version", "library", "library_hash"]) t[k] = shared.get(k);
        if (t.source && t.library) return t;
        firstProblem = new Error("the shared bundle model is empty");
      } catch (e) {
        firstProblem = e;
      }
      try {
        return await kvPlotlyFromKernel(model);
      } catch (e) {
        throw new Error(`${firstProblem.message}; ${e.message}`);
      }
    })();
    texts.catch(() => kvSharedTexts.delete(model)); // the next render may try again
    kvSharedTexts.set(model, texts);
  }
  return kvSharedTexts.get(model);
}

async function kvImportText(source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function kvImportPlotly(source) {
  await kvImportText(source);
  if (!window.Plotly) throw new Error("the plotly.js bundle ran but did not set window.Plotly");
  return window.Plotly;
}

function kvEvaluatePlotly(bundle) {
  // Already on the page (a standalone widget drew first): the same version is the same code.
  if (window.Plotly && bundle.version && window.Plotly.version === bundle.version) return Promise.resolve(window.Plotly);
  if (!bundle.source) return Promise.reject(new Error("the shared bundle model holds no plotly.js"));
  return kvImportPlotly(bundle.source);
}

/** Run start() once per page for `slot` of `table` (unless under way); a failure frees
 *  the slot so the next widget tries again. */
function kvOnce(table, slot, start) {
  if (!table[slot]) {
    table[slot] = start().catch((e) => {
      delete table[slot];
      throw e;
    });
  }
  return table[slot];
}

function kvPlotlyOnce(start) {
  return kvOnce(globalThis, KV_PLOTLY_KEY, start);
}

function kvLibraryOnce(hash, start) {
  const table = (globalThis[KV_LIBRARY_KEY] = globalThis[KV_LIBRARY_KEY] || {});
  return kvOnce(table, hash, start);
}

function kvEvaluateLibrary(texts) {
  if (texts.library_hash !== KV_LIBRARY_HASH) {
    return Promise.reject(new Error(`the kernel holds kvwidgets code ${texts.library_hash || "(none)"}, this widget was ` +
      `built with ${KV_LIBRARY_HASH}: restart the kernel and run the cell again`));
  }
  return kvImportText(texts.library);
}

/** The PlotlyBundle model's own ESM calls this as soon as the page creates the model,
 *  before any widget has loaded its code. */
function kvPlotlyPreload(bundleModel) {
  const warn = (what) => (e) => console.warn(`[kvwidgets] ${what} preload failed; the widgets will try again:`, e);
  const source = bundleModel.get("source");
  if (source) kvPlotlyOnce(() => kvEvaluatePlotly({ source, version: bundleModel.get("version") })).catch(warn("plotly.js"));
  const library = bundleModel.get("library");
  if (library && bundleModel.get("library_hash") === KV_LIBRARY_HASH) {
    kvLibraryOnce(KV_LIBRARY_HASH, () => kvImportText(library)).catch(warn("shared code"));
  }
}

/** The shared library's namespace (kvEl, kvApp, kvBytes, ...); throws why it is missing. */
function kvLibraryReady({ model, host }) {
  if (KV_LIBRARY_INLINED) return Promise.resolve(kvInlinedLibrary());
  return kvLibraryOnce(KV_LIBRARY_HASH, () => kvFetchShared(model, host).then(kvEvaluateLibrary));
}

/** "" once window.Plotly can draw, else why not (the widget still renders without it). */
async function kvPlotlyReady({ model, host }) {
  if (KV_PLOTLY_INLINED && window.Plotly) return "";
  try {
    await kvPlotlyOnce(() => kvFetchShared(model, host).then(kvEvaluatePlotly));
    return "";
  } catch (e) {
    console.error("[kvwidgets] plotly.js could not be loaded:", e);
    return e && e.message ? e.message : String(e);
  }
}

/** This module's render function, made from its render code (`code`, base.build_esm's
 *  kvWidgetCode) once the shared library is here; plotly.js loads alongside. */
let kvDraw = null;
async function kvWidgetReady(ctx, code) {
  const [lib, plotlyProblem] = await Promise.all([kvLibraryReady(ctx), kvPlotlyReady(ctx)]);
  lib.kvNotePlotlyProblem(plotlyProblem);
  if (!kvDraw) kvDraw = code(lib);
  return kvDraw;
}

/** Without the shared code there is nothing to draw with: say why in the widget's place. */
function kvCannotRender({ el }, e) {
  const why = e && e.message ? e.message : String(e);
  console.error("[kvwidgets] the widget's shared code could not be loaded:", e);
  const box = document.createElement("div");
  box.className = "kv-widget";
  const line = document.createElement("div");
  line.className = "kv-error";
  line.textContent = `kvwidgets could not load its shared code: ${why}`;
  box.append(line);
  el.replaceChildren(box);
}
