// The shared library: everything the widgets' render code calls, one instance per page.
// The closed forms (calc/, one module per kvwidgets.core module) and the widget frame,
// controls, theme, plotting and diagrams (ui/). scripts/build_js.mjs builds it as its own
// ES module (static/library.js), which the SharedAssets model carries to the page.

export * from "./calc/index.js";
export * from "./ui/app.js";
export * from "./ui/colours.js";
export * from "./ui/controls.js";
export * from "./ui/diagram.js";
export * from "./ui/dom.js";
export * from "./ui/end_labels.js";
export * from "./ui/host.js";
export * from "./ui/legend.js";
export * from "./ui/plot.js";
export * from "./ui/shadow.js";
export * from "./ui/theme.js";
