// One ES module for every widget, for hosts that copy only the files a page names: MyST's
// `myst build` copies each {anywidget} directive's ESM into its public folder under a new
// name and nothing beside it, so a module that imports a neighbour finds nothing there.
// Every directive names this one module (built with plotly.js and the library in front of
// it, kvwidgets.export.to_myst), so the page fetches and runs it once, and the model's
// `kvwidget` entry says which widget a directive draws.

/**
 * @typedef {import("@anywidget/types").AnyModel} AnyModel
 * @typedef {{ initialize?: (ctx: { model: AnyModel }) => unknown, render: (ctx: any) => unknown }} WidgetModule
 */

/** The model entry that names a directive's widget. */
export const WIDGET_KEY = "kvwidget";

/**
 * The anywidget module that hands each model to the widget its `kvwidget` entry names.
 * @param {Record<string, WidgetModule>} modules  the widgets' modules by name
 */
export function widgetsByName(modules) {
  /** @param {AnyModel} model */
  const pick = (model) => {
    const name = model.get(WIDGET_KEY);
    const module = typeof name === "string" ? modules[name] : undefined;
    if (!module) {
      const known = Object.keys(modules).join(", ");
      throw new Error(`the model's "${WIDGET_KEY}" must name one of ${known}, got ${JSON.stringify(name)}`);
    }
    return module;
  };
  return {
    /** @param {{ model: AnyModel }} ctx */
    initialize(ctx) {
      return pick(ctx.model).initialize?.(ctx);
    },
    /** @param {{ model: AnyModel, el: HTMLElement }} ctx */
    render(ctx) {
      return pick(ctx.model).render(ctx);
    },
  };
}
