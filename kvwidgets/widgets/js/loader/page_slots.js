// What a page holds once, however many kvwidgets modules run on it: the promise of its one
// plotly.js load and of each library instance (by the hash of the library's text, so two
// kvwidgets versions on one page never mix).

const PLOTLY_SLOT = "__kvwidgetsPlotly"; // globalThis slot: the page's one plotly.js load
const LIBRARY_SLOT = "__kvwidgetsLibrary"; // globalThis map: library hash -> its one import

/**
 * Run start() once per page for `slot` of `table` (unless under way); a failure frees
 * the slot so the next widget tries again.
 * @template T
 * @param {Record<string, Promise<T>>} table
 * @param {string} slot
 * @param {() => Promise<T>} start
 * @returns {Promise<T>}
 */
function once(table, slot, start) {
  if (!table[slot]) {
    table[slot] = start().catch((e) => {
      delete table[slot];
      throw e;
    });
  }
  return table[slot];
}

/** @param {() => Promise<any>} start */
export function plotlyOnce(start) {
  return once(/** @type {any} */ (globalThis), PLOTLY_SLOT, start);
}

/**
 * @param {string} hash
 * @param {() => Promise<any>} start
 */
export function libraryOnce(hash, start) {
  const g = /** @type {any} */ (globalThis);
  const table = (g[LIBRARY_SLOT] = g[LIBRARY_SLOT] || {});
  return once(table, hash, start);
}
