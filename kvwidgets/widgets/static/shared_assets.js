// Built by scripts/build_js.mjs from kvwidgets/widgets/js: edit those files, not this one (DEVELOP.md).

// kvwidgets-library:library_binding
var LIBRARY_HASH = "b309a36328bd4399";

// kvwidgets/widgets/js/loader/page_slots.js
var PLOTLY_SLOT = "__kvwidgetsPlotly";
var LIBRARY_SLOT = "__kvwidgetsLibrary";
function once(table, slot, start) {
  if (!table[slot]) {
    table[slot] = start().catch((e) => {
      delete table[slot];
      throw e;
    });
  }
  return table[slot];
}
function plotlyOnce(start) {
  return once(
    /** @type {any} */
    globalThis,
    PLOTLY_SLOT,
    start
  );
}
function libraryOnce(hash, start) {
  const g = (
    /** @type {any} */
    globalThis
  );
  const table = g[LIBRARY_SLOT] = g[LIBRARY_SLOT] || {};
  return once(table, hash, start);
}

// kvwidgets/widgets/js/loader/shared_assets.js
async function importText(source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
async function evaluatePlotly(texts) {
  const page = (
    /** @type {any} */
    window
  );
  if (page.Plotly && texts.plotly_version && page.Plotly.version === texts.plotly_version) return page.Plotly;
  if (!texts.plotly) throw new Error("the shared assets model holds no plotly.js");
  await importText(texts.plotly);
  if (!page.Plotly) throw new Error("the plotly.js bundle ran but did not set window.Plotly");
  return page.Plotly;
}
function preload(assets) {
  const warn = (what) => (e) => console.warn(`[kvwidgets] ${what} preload failed; the widgets will try again:`, e);
  const plotly = assets.get("plotly");
  if (plotly) plotlyOnce(() => evaluatePlotly({ plotly, plotly_version: assets.get("plotly_version") })).catch(warn("plotly.js"));
  const library = assets.get("library");
  if (library && LIBRARY_HASH && assets.get("library_hash") === LIBRARY_HASH) {
    libraryOnce(LIBRARY_HASH, () => importText(library)).catch(warn("shared code"));
  }
}

// kvwidgets/widgets/js/loader/shared_assets_model.js
var shared_assets_model_default = {
  /** @param {{ model: import("@anywidget/types").AnyModel }} ctx */
  initialize({ model }) {
    preload(model);
  }
};
export {
  shared_assets_model_default as default
};
