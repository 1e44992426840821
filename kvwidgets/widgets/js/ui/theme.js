// Whose colours the widget takes on each host (JupyterLab, VS Code, Colab, marimo, MyST...).

// Every host names its colours differently. themeSource picks ONE source for the
// text and the background together and writes it on the root as data-kv-theme;
// widget.css then maps that source's variables onto the --kv-* the widget uses. Text
// and background never come from two sources, so no host can give light text on a
// light fallback (Colab maps only its text colour onto --jp-ui-font-color1: with a
// JupyterLab background fallback that was near-white on white).
//   jupyter  JupyterLab, Notebook 7, Voila: --jp-ui-font-color1 on --jp-layout-color1
//   vscode   VS Code's webview: --vscode-editor-foreground on --vscode-editor-background
//   colab    Colab: --colab-primary-text-color on --colab-primary-surface-color
//   jupyter-partial  --jp-ui-font-color1 on --jp-layout-color2 when a host maps only
//            those (Colab's widget manager CSS does exactly that)
//   dark / light  no colour variables: the page's own dark mark (marimo's body.dark and
//            data-theme, VS Code's body class, MyST's html.dark, JupyterLab's
//            data-jp-theme-light while the widget is still detached), else the reader's
//            prefers-color-scheme; widget.css holds both palettes.
export const PAGE_DARK = ["dark", "dark-theme", "dark-mode", "vscode-dark", "vscode-high-contrast"];
export const PAGE_LIGHT = ["light", "light-theme", "light-mode", "vscode-light", "vscode-high-contrast-light"];

/** "dark", "light" or "" from marks the page puts on <body> or <html>. */
export function pageScheme() {
  for (const e of [document.body, document.documentElement]) {
    if (!e) continue;
    const marks = [e.getAttribute("data-theme"), e.getAttribute("data-mode"), e.getAttribute("theme"), ...e.classList];
    if (marks.some((m) => PAGE_DARK.includes(m))) return "dark";
    if (marks.some((m) => PAGE_LIGHT.includes(m))) return "light";
    if (e.dataset.jpThemeLight === "false") return "dark";
    if (e.dataset.jpThemeLight === "true") return "light";
  }
  return "";
}

/** Which host's colours the widget takes (see above), read from the root's inherited style. */
export function themeSource(cs) {
  const has = (name) => (cs.getPropertyValue(name) || "").trim() !== "";
  if (has("--jp-ui-font-color1") && has("--jp-layout-color1")) return "jupyter";
  if (has("--vscode-editor-foreground") && has("--vscode-editor-background")) return "vscode";
  if (has("--colab-primary-text-color") && has("--colab-primary-surface-color")) return "colab";
  if (has("--jp-ui-font-color1") && has("--jp-layout-color2")) return "jupyter-partial";
  const page = pageScheme();
  if (page) return page;
  const dark = typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches;
  return dark ? "dark" : "light";
}

/** The widget's colours, as widget.css resolves them for the host's theme. A node not
 *  yet in the page (JupyterLab renders detached) resolves no variable at all: it gets
 *  the last-resort colours here and is redrawn once attached (startApp). */
export function readTheme(node) {
  let cs = getComputedStyle(node);
  const source = themeSource(cs);
  if (node.getAttribute("data-kv-theme") !== source) {
    node.setAttribute("data-kv-theme", source);
    cs = getComputedStyle(node);
  }
  const v = (name, fallback) => (cs.getPropertyValue(name) || "").trim() || fallback;
  const dark = source === "dark";
  return {
    source,
    fg: v("--kv-fg", dark ? "#e8e8e8" : "#1f1f1f"),
    fg2: v("--kv-fg2", dark ? "#a8a8a8" : "#616161"),
    bg: v("--kv-bg", dark ? "#1e1e1e" : "#ffffff"),
    grid: v("--kv-grid", dark ? "#444444" : "#e0e0e0"),
    font: v("--kv-font", "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"),
    colors: ["#3b82c4", "#e07b39", "#4aa564", "#c94c4c", "#8c6bb1", "#8c8c8c", "#d4a017"],
  };
}

/**
 * A snapshot of what decides the colours: the page's marks plus the colours drawn.
 * @param {import("./app.js").App} app
 */
export function themeKey(app) {
  return JSON.stringify([pageScheme(), app.theme()]);
}
