// VS Code's notebook output webview, as far as a widget's colours go.
//
// VS Code hands the webview every colour of the active theme as
// `vscode-<colour id with its first "." replaced by "-">` (microsoft/vscode
// src/vs/workbench/contrib/webview/browser/themeing.ts, getWebviewThemeData, commit
// 108622d8) and the webview's preload script applies them (applyStyles in
// src/vs/workbench/contrib/webview/browser/pre/index.html): it swaps the body class
// (vscode-light, vscode-dark, vscode-high-contrast, vscode-high-contrast-light), sets
// body.dataset.vscodeThemeKind, removes the old --vscode-* properties from <html>'s
// inline style and sets the new ones. applyVsCodeTheme below does the same. The
// webview gives ipywidget outputs no --jp-* variables (microsoft/vscode-jupyter issue
// 7161).
//
// The colours are the default themes' own, the ones a widget can use:
//   Dark Modern  extensions/theme-defaults/themes/dark_modern.json (commit 00c6beca)
//   Light Modern extensions/theme-defaults/themes/light_modern.json (commit 047238f9)
export const THEMES = {
  "Dark Modern": {
    kind: "vscode-dark",
    colours: {
      "editor.background": "#1f1f1f",
      "editor.foreground": "#cccccc",
      "foreground": "#cccccc",
      "descriptionForeground": "#9d9d9d",
      "input.background": "#313131",
      "input.foreground": "#cccccc",
      "input.border": "#3c3c3c",
      "panel.border": "#2b2b2b",
      "widget.border": "#313131",
      "focusBorder": "#0078d4",
      "errorForeground": "#f85149",
    },
  },
  "Light Modern": {
    kind: "vscode-light",
    colours: {
      "editor.background": "#ffffff",
      "editor.foreground": "#3b3b3b",
      "foreground": "#3b3b3b",
      "descriptionForeground": "#3b3b3b",
      "input.background": "#ffffff",
      "input.foreground": "#3b3b3b",
      "input.border": "#cecece",
      "panel.border": "#e5e5e5",
      "widget.border": "#e5e5e5",
      "focusBorder": "#0d9488",
      "errorForeground": "#f85149",
    },
  },
};

export function applyVsCodeTheme(name) {
  const theme = THEMES[name];
  const body = document.body;
  body.classList.remove("vscode-light", "vscode-dark", "vscode-high-contrast", "vscode-high-contrast-light");
  body.classList.add(theme.kind);
  body.dataset.vscodeThemeKind = theme.kind;
  body.dataset.vscodeThemeName = name;
  const style = document.documentElement.style;
  for (let i = style.length - 1; i >= 0; i--) {
    if (style[i] && style[i].startsWith("--vscode-")) style.removeProperty(style[i]);
  }
  style.setProperty("--vscode-font-family", "system-ui, -apple-system, 'Segoe UI', sans-serif");
  for (const [id, value] of Object.entries(theme.colours)) {
    style.setProperty(`--vscode-${id.replace(".", "-")}`, value);
  }
}
