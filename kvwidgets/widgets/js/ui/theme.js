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
/** @type {Array<string | null>} */
export const PAGE_DARK = ["dark", "dark-theme", "dark-mode", "vscode-dark", "vscode-high-contrast"];
/** @type {Array<string | null>} */
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

/**
 * Which host's colours the widget takes (see above), read from the root's inherited style.
 * @param {CSSStyleDeclaration} cs
 */
export function themeSource(cs) {
  const has = (/** @type {string} */ name) => (cs.getPropertyValue(name) || "").trim() !== "";
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
 *  the last-resort colours here and is redrawn once attached (startApp).
 * @param {HTMLElement} node
 */
export function readTheme(node) {
  let cs = getComputedStyle(node);
  const source = themeSource(cs);
  if (node.getAttribute("data-kv-theme") !== source) {
    node.setAttribute("data-kv-theme", source);
    cs = getComputedStyle(node);
  }
  const v = (/** @type {string} */ name, /** @type {string} */ fallback) => (cs.getPropertyValue(name) || "").trim() || fallback;
  const darkSource = source === "dark";
  const fg = v("--kv-fg", darkSource ? "#e8e8e8" : "#1f1f1f");
  const bg = v("--kv-bg", darkSource ? "#1e1e1e" : "#ffffff");
  const [lf, lb] = [brightness(fg), brightness(bg)];
  return {
    source,
    // whether the page is dark: light text on a dark background, whoever set them
    dark: lf !== null && lb !== null ? lf > lb : darkSource,
    fg,
    fg2: v("--kv-fg2", darkSource ? "#a8a8a8" : "#616161"),
    bg,
    grid: v("--kv-grid", darkSource ? "#444444" : "#e0e0e0"),
    warn: v("--kv-warn", darkSource ? "#ff8a80" : "#b3261e"),
    font: v("--kv-font", "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"),
  };
}

/** Rough brightness (0..1) of a CSS colour as hosts write them (#rgb, #rrggbb, rgb(),
 *  rgba(), white, black); null for anything else. Only compared, never shown.
 * @param {string} css
 */
function brightness(css) {
  const s = css.trim().toLowerCase();
  if (s === "white") return 1;
  if (s === "black") return 0;
  let rgb = null;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join("") : hex[1];
    rgb = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  }
  const fn = /^rgba?\(([^)]*)\)$/.exec(s);
  if (fn) rgb = fn[1].split(/[ ,/]+/).slice(0, 3).map(Number);
  if (!rgb || rgb.some((x) => !Number.isFinite(x))) return null;
  return (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;
}

/**
 * A snapshot of what decides the colours: the page's marks plus the colours drawn.
 * @param {import("./app.js").App} app
 */
export function themeKey(app) {
  return JSON.stringify([pageScheme(), app.theme()]);
}
