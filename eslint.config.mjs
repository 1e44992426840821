// eslint for the widgets' JavaScript (bash scripts/js.sh check; tests/js/test_js_checks.py).
import js from "@eslint/js";
import globals from "globals";

// Only the project's own files: everything else under the checkout (virtual environments,
// a built JupyterLite site, node_modules) is someone else's code.
const OURS = ["kvwidgets/**/*.js", "scripts/**/*.mjs", "tests/**/*.js", "tests/**/*.mjs", "eslint.config.mjs"];

export default [
  {
    // build outputs, vendored code, and what tools put in the checkout
    ignores: [
      "kvwidgets/widgets/static/**",
      "kvwidgets/widgets/static_dev/**",
      "kvwidgets/widgets/vendor/**",
      ".venv*/**",
      "_lite/**",
      "build/**",
      "dist/**",
    ],
  },
  { ...js.configs.recommended, files: OURS },
  {
    files: ["kvwidgets/widgets/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-shadow": ["error", { builtinGlobals: false, hoist: "functions" }],
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      "prefer-const": "error",
      "no-var": "error",
      eqeqeq: ["error", "always"],
      // a draw reads as named pieces (layout, a function per panel, labels, readouts)
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // the in-page kernel stand-in of exported pages: a classic module inlined in the page
    files: ["kvwidgets/export/runtime.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["scripts/**/*.mjs", "tests/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
  {
    // stand-ins for hosts that the browser tests load into a page
    files: ["tests/browser/hosts/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["tests/**/*.js", "tests/**/*.mjs"],
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }] },
  },
];
