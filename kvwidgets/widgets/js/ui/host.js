// Model calls a host may not implement, and focus inside shadow roots.

// MyST / Jupyter Book's {anywidget} model (@myst-theme/anywidget, MystAnyModel) throws
// "not implemented" from save_changes(), off() and send(): there is no kernel to save
// to. A widget must keep working there, so these calls never let an error escape; the
// first failure of each is reported once as a warning.
const warned = new Set();
/**
 * @param {any} model
 * @param {string} method
 * @param {...unknown} args
 */
export function tryModelCall(model, method, ...args) {
  if (!model || typeof model[method] !== "function") return false;
  try {
    model[method](...args);
    return true;
  } catch (e) {
    if (!warned.has(method)) {
      warned.add(method);
      console.warn(`kvwidgets: this page's widget model cannot ${method}() (${e && /** @type {Error} */ (e).message ? /** @type {Error} */ (e).message : e}); ` +
        "the widget keeps working on the page, without a kernel to follow it.");
    }
    return false;
  }
}

/** Whether `el` has the focus, also inside a shadow root (marimo, MyST), where
 *  document.activeElement is the shadow host, never the control.
 * @param {Element} el
 */
export function isFocused(el) {
  const root = /** @type {Document | ShadowRoot} */ (el.getRootNode ? el.getRootNode() : document);
  return (root.activeElement || document.activeElement) === el;
}
