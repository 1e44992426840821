// What anywidget imports from a widget's ESM: its default export, made from the widget's
// render function once the shared library and plotly.js are on the page.

import { libraryReady, plotlyReady } from "./shared_assets.js";

/**
 * @typedef {import("@anywidget/types").AnyModel} AnyModel
 * @typedef {{ model: AnyModel, el: HTMLElement, host?: any }} RenderContext
 * @typedef {(ctx: RenderContext) => (() => void) | void} Render
 */

/**
 * Wait for the library (its names bound in this module) and plotly.js; both load once per page.
 * @param {{ model: AnyModel, host?: any }} ctx
 */
async function ready(ctx) {
  const [lib, plotlyProblem] = await Promise.all([libraryReady(ctx), plotlyReady(ctx)]);
  lib.notePlotlyProblem(plotlyProblem);
}

/**
 * Without the shared code there is nothing to draw with: say why in the widget's place.
 * @param {RenderContext} ctx
 * @param {unknown} e
 */
function cannotRender({ el }, e) {
  const why = e instanceof Error ? e.message : String(e);
  console.error("[kvwidgets] the widget's shared code could not be loaded:", e);
  const box = document.createElement("div");
  box.className = "kv-widget";
  const line = document.createElement("div");
  line.className = "kv-error";
  line.textContent = `kvwidgets could not load its shared code: ${why}`;
  box.append(line);
  el.replaceChildren(box);
}

/**
 * The widget's anywidget module. anywidget awaits an async render, so the first draw finds
 * the library and window.Plotly in place. initialize (once per model, before any view)
 * starts the page's loads without waiting for them, so they overlap the view's setup.
 * S is the state Python syncs (shapes.d.ts <Widget>State), so that the render function's
 * model.get() is checked against the widget's trait names.
 * @template {Record<string, any>} [S=Record<string, any>]
 * @param {(ctx: { model: import("@anywidget/types").AnyModel<S>, el: HTMLElement, host?: any }) => (() => void) | void} render
 */
export function widgetModule(render) {
  return {
    /** @param {{ model: AnyModel }} ctx */
    initialize(ctx) {
      ready(ctx).catch(() => {}); // render reports a failure
    },
    /** @param {{ model: import("@anywidget/types").AnyModel<S>, el: HTMLElement, host?: any }} ctx */
    async render(ctx) {
      try {
        await ready(ctx);
      } catch (e) {
        return cannotRender(ctx, e);
      }
      return render(ctx);
    },
  };
}
