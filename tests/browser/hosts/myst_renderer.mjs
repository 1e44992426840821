// MyST's real {anywidget} renderer for the browser tests: @myst-theme/anywidget's
// AnyWidgetRenderer (ANY_RENDERERS.anywidget; npm, MIT; a devDependency in package.json), mounted with React as
// a MyST theme mounts it for each directive node ({esm, css, model}: the ESM's URL, the
// stylesheet's URL, the JSON body). tests/browser/test_hosts.py bundles this file with
// esbuild into the served folder.
import * as React from "react";
import { createRoot } from "react-dom/client";
import { ANY_RENDERERS } from "@myst-theme/anywidget";

export function mount(el, node) {
  createRoot(el).render(React.createElement(ANY_RENDERERS.anywidget, { node }));
}
