// The shared library (../library.js) and window.Plotly before a widget's first draw, each
// evaluated once per page.
//
// plotly.js and the library text live once per kernel in a hidden SharedAssets model
// (shared_assets.py) that each widget's `_shared_assets` trait names as "IPY_MODEL_<id>".
// The first widget on the page to render gets that model from the widget manager and
// imports each text from a Blob URL, as anywidget imports ESMs (the bundle's UMD wrapper
// then sets window.Plotly); every later widget, whatever its class, awaits the same
// promises kept on the page (page_slots.js). Hosts that cannot reach other models still
// have the kernel: the widget asks it for both texts over its own comm. A standalone ESM
// (exported pages, MyST) runs plotly.js and the library before the widget module and puts
// both in the page's slots (standalone_prelude.js), so nothing is fetched.

import { bindLibrary, inlinedLibrary, LIBRARY_HASH } from "./library_binding.js";
import { libraryOnce, plotlyOnce } from "./page_slots.js";

const WAIT_MS = 15000;
const MODEL_REF = "IPY_MODEL_";

/**
 * @typedef {import("@anywidget/types").AnyModel} AnyModel
 * @typedef {{ plotly?: string, plotly_version?: string, library?: string, library_hash?: string }} SharedTexts
 * @typedef {{ model: AnyModel, host?: any }} LoadContext
 */

/**
 * @template T
 * @param {number} ms
 * @param {Promise<T>} promise
 * @param {string} what
 * @returns {Promise<T>}
 */
function within(ms, promise, what) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer within ${ms / 1000} s`)), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer));
}

/**
 * The SharedAssets model, through whichever door this host opens.
 * @param {AnyModel} model
 * @param {any} host
 * @returns {Promise<any>}
 */
async function sharedAssetsModel(model, host) {
  const ref = model.get("_shared_assets");
  if (typeof ref !== "string" || !ref.startsWith(MODEL_REF)) {
    throw new Error("the widget's state names no shared assets model (_shared_assets)");
  }
  const manager = /** @type {any} */ (model).widget_manager;
  if (manager && typeof manager.get_model === "function") {
    return within(WAIT_MS, Promise.resolve(manager.get_model(ref.slice(MODEL_REF.length))), "the widget manager");
  }
  if (host && typeof host.getModel === "function") return within(WAIT_MS, host.getModel(ref), "anywidget's host");
  throw new Error("this page gives widgets no access to other widget models");
}

/**
 * Ask the kernel for both texts over this widget's comm (KVWidget._on_custom_msg).
 * @param {AnyModel} model
 * @returns {Promise<SharedTexts>}
 */
function textsFromKernel(model) {
  return within(WAIT_MS, new Promise((resolve) => {
    /** @param {any} msg */
    const onMsg = (msg) => {
      if (!msg || msg.kvw !== "shared-assets") return;
      if (typeof model.off === "function") {
        try {
          model.off("msg:custom", onMsg);
        } catch {
          // a host whose model cannot remove handlers: the handler just stays (harmless)
        }
      }
      resolve(msg);
    };
    model.on("msg:custom", onMsg);
    model.send({ kvw: "shared-assets" });
  }), "the kernel");
}

/** @type {WeakMap<AnyModel, Promise<SharedTexts>>} */
const sharedTexts = new WeakMap();

/**
 * The shared texts {plotly, plotly_version, library, library_hash}: from the SharedAssets
 * model if this host reaches it, else from the kernel. Asked once per widget model.
 * @param {AnyModel} model
 * @param {any} host
 * @returns {Promise<SharedTexts>}
 */
function fetchShared(model, host) {
  let texts = sharedTexts.get(model);
  if (!texts) {
    texts = (async () => {
      let firstProblem;
      try {
        const shared = await sharedAssetsModel(model, host);
        /** @type {Record<string, any>} */
        const t = {};
        for (const k of ["plotly", "plotly_version", "library", "library_hash"]) t[k] = shared.get(k);
        if (t.plotly && t.library) return /** @type {SharedTexts} */ (t);
        firstProblem = new Error("the shared assets model is empty");
      } catch (e) {
        firstProblem = e;
      }
      try {
        return await textsFromKernel(model);
      } catch (e) {
        throw new Error(`${errorText(firstProblem)}; ${errorText(e)}`, { cause: e });
      }
    })();
    texts.catch(() => sharedTexts.delete(model)); // the next render may try again
    sharedTexts.set(model, texts);
  }
  return texts;
}

/** @param {unknown} e */
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/** @param {string} source */
async function importText(source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** @param {SharedTexts} texts */
async function evaluatePlotly(texts) {
  const page = /** @type {any} */ (window);
  // Already on the page (a standalone widget drew first): the same version is the same code.
  if (page.Plotly && texts.plotly_version && page.Plotly.version === texts.plotly_version) return page.Plotly;
  if (!texts.plotly) throw new Error("the shared assets model holds no plotly.js");
  await importText(texts.plotly);
  if (!page.Plotly) throw new Error("the plotly.js bundle ran but did not set window.Plotly");
  return page.Plotly;
}

/** @param {SharedTexts} texts */
function evaluateLibrary(texts) {
  if (texts.library_hash !== LIBRARY_HASH) {
    return Promise.reject(new Error(`the kernel holds kvwidgets code ${texts.library_hash || "(none)"}, this widget was ` +
      `built with ${LIBRARY_HASH}: restart the kernel and run the cell again`));
  }
  return importText(/** @type {string} */ (texts.library));
}

/**
 * The SharedAssets model's own ESM calls this as soon as the page creates the model,
 * before any widget has loaded its code.
 * @param {AnyModel} assets
 */
export function preload(assets) {
  /** @param {string} what */
  const warn = (what) => (/** @type {unknown} */ e) => console.warn(`[kvwidgets] ${what} preload failed; the widgets will try again:`, e);
  const plotly = assets.get("plotly");
  if (plotly) plotlyOnce(() => evaluatePlotly({ plotly, plotly_version: assets.get("plotly_version") })).catch(warn("plotly.js"));
  const library = assets.get("library");
  if (library && LIBRARY_HASH && assets.get("library_hash") === LIBRARY_HASH) {
    libraryOnce(LIBRARY_HASH, () => importText(library)).catch(warn("shared code"));
  }
}

/**
 * The shared library's namespace, its names bound in this module; throws why it is missing.
 * @param {LoadContext} ctx
 */
export async function libraryReady({ model, host }) {
  if (inlinedLibrary) return inlinedLibrary;
  const lib = await libraryOnce(LIBRARY_HASH, () => fetchShared(model, host).then(evaluateLibrary));
  bindLibrary(lib);
  return lib;
}

/**
 * "" once window.Plotly can draw, else why not (the widget still renders without it).
 * @param {LoadContext} ctx
 */
export async function plotlyReady({ model, host }) {
  try {
    await plotlyOnce(() => fetchShared(model, host).then(evaluatePlotly));
    return "";
  } catch (e) {
    console.error("[kvwidgets] plotly.js could not be loaded:", e);
    return errorText(e);
  }
}
