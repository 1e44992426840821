// Builds the widgets' JavaScript (kvwidgets/widgets/js, ES modules) with esbuild.
//
//   node scripts/build_js.mjs              the committed build, into kvwidgets/widgets/static
//   node scripts/build_js.mjs --out DIR    the same build into DIR (tests compare it with the committed one)
//   node scripts/build_js.mjs --dev        each widget with the library bundled in and inline
//                                          source maps, into kvwidgets/widgets/static_dev (KVW_DEV=1)
//   node scripts/build_js.mjs --dev --watch   the same, rebuilt on every save (anywidget hot reload)
//
// The committed build writes:
//   library.js             the shared library (js/library.js): one ES module, carried once per
//                          page by the SharedAssets model; its sha256 (first 16 hex digits)
//                          names it on the page
//   <widget>.js            one per js/widgets/<widget>.js: the render code and the loader; every
//                          import of the library is resolved to a shim whose names are bound,
//                          at the first render, to the page's one library instance
//   shared_assets.js       the SharedAssets model's own ESM (starts the page's loads early)
//   all_widgets.js         every widget in one module whose model's "kvwidget" names the one to draw
//                          (js/loader/one_module.js): what MyST pages load, plotly.js in front
//   standalone_prelude.js  a classic script a standalone ESM runs after the vendored plotly.js:
//                          the library, put in the page's slots (js/loader/standalone_prelude.js)

import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SRC = path.join(ROOT, "kvwidgets", "widgets", "js");
const BINDING = path.join(SRC, "loader", "library_binding.js");
const LIBRARY_PARTS = [path.join(SRC, "calc"), path.join(SRC, "ui"), path.join(SRC, "library.js")];
const BANNER = "// Built by scripts/build_js.mjs from kvwidgets/widgets/js: edit those files, not this one (DEVELOP.md).";

const args = process.argv.slice(2);
const dev = args.includes("--dev");
const watch = args.includes("--watch");
const outIndex = args.indexOf("--out");
const outDir = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : path.join(ROOT, "kvwidgets", "widgets", dev ? "static_dev" : "static");

const widgets = readdirSync(path.join(SRC, "widgets")).filter((f) => f.endsWith(".js")).sort();

/** @type {import("esbuild").BuildOptions} */
const common = {
  absWorkingDir: ROOT,
  bundle: true,
  format: "esm",
  target: "es2020",
  charset: "utf8",
  legalComments: "none",
  logLevel: "warning",
  banner: { js: BANNER },
};

const isLibrary = (file) => LIBRARY_PARTS.some((p) => file === p || file.startsWith(p + path.sep));

/** The text that stands for loader/library_binding.js in a build (see that file). */
function libraryPlugin({ hash, names }) {
  return {
    name: "kvwidgets-library",
    setup(build) {
      build.onResolve({ filter: /^\./ }, (a) => {
        const target = path.resolve(a.resolveDir, a.path);
        if (target === BINDING || (names && isLibrary(target) && !isLibrary(a.importer))) {
          return { path: "library_binding", namespace: "kvwidgets-library" };
        }
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: "kvwidgets-library" }, () => ({
        contents: names ? shimText(hash, names) : bindingText(hash),
        resolveDir: path.dirname(BINDING),
        loader: "js",
      }));
    },
  };
}

function bindingText(hash) {
  const text = readFileSync(BINDING, "utf8");
  const empty = 'export const LIBRARY_HASH = "";';
  if (!text.includes(empty)) throw new Error(`${BINDING} no longer holds '${empty}'`);
  return text.replace(empty, `export const LIBRARY_HASH = "${hash}";`);
}

function shimText(hash, names) {
  return [
    "// The shared library as this widget module sees it: bindLibrary() binds every name to",
    "// the page's one library instance at the first render (loader/library_binding.js).",
    `export let ${names.join(", ")};`,
    `export const LIBRARY_HASH = "${hash}";`,
    "export const inlinedLibrary = null;",
    `export function bindLibrary(lib) {\n  ({ ${names.join(", ")} } = lib);\n}`,
    "",
  ].join("\n");
}

function outputText(result) {
  if (result.outputFiles.length !== 1) throw new Error("expected one output file");
  return result.outputFiles[0].text;
}

async function buildLibrary() {
  const result = await esbuild.build({
    ...common,
    entryPoints: [path.join(SRC, "library.js")],
    write: false,
    metafile: true,
    outfile: path.join(outDir, "library.js"),
  });
  const text = outputText(result);
  const names = Object.values(result.metafile.outputs)[0].exports;
  const reserved = ["LIBRARY_HASH", "inlinedLibrary", "bindLibrary"].filter((n) => names.includes(n));
  if (reserved.length) throw new Error(`the library must not export ${reserved.join(", ")} (the shim's own names)`);
  return { text, names, hash: createHash("sha256").update(text).digest("hex").slice(0, 16) };
}

/** The entry of all_widgets.js: each widget's module under its file's stem. */
function allWidgetsEntry() {
  const stem = (w) => w.replace(/\.js$/, "");
  const lines = widgets.map((w, i) => `import w${i} from "./widgets/${w}";`);
  const table = widgets.map((w, i) => `  ${JSON.stringify(stem(w))}: w${i},`);
  return {
    contents: [
      'import { widgetsByName } from "./loader/one_module.js";',
      ...lines,
      `export default widgetsByName({\n${table.join("\n")}\n});`,
      "",
    ].join("\n"),
    resolveDir: SRC,
    sourcefile: "all_widgets.js",
    loader: "js",
  };
}

async function buildOne(entry, outName, options) {
  const entryPoints = entry ? { entryPoints: [entry] } : {};
  const result = await esbuild.build({ ...common, ...entryPoints, write: false, outfile: path.join(outDir, outName), ...options });
  return outputText(result);
}

async function production() {
  const library = await buildLibrary();
  const shared = [libraryPlugin({ hash: library.hash, names: library.names })];
  const files = { "library.js": library.text };
  for (const w of widgets) files[w] = await buildOne(path.join(SRC, "widgets", w), w, { plugins: shared });
  files["all_widgets.js"] = await buildOne(null, "all_widgets.js", { plugins: shared, stdin: allWidgetsEntry() });
  files["shared_assets.js"] = await buildOne(path.join(SRC, "loader", "shared_assets_model.js"), "shared_assets.js", { plugins: shared });
  files["standalone_prelude.js"] = await buildOne(path.join(SRC, "loader", "standalone_prelude.js"), "standalone_prelude.js", {
    format: "iife",
    plugins: [libraryPlugin({ hash: library.hash, names: null })],
  });
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(outDir, name), text);
  const kb = (t) => `${(Buffer.byteLength(t) / 1024).toFixed(1)} KB`;
  console.log(`built ${Object.keys(files).length} files into ${path.relative(ROOT, outDir) || outDir} ` +
    `(library ${library.hash}, ${kb(library.text)}; widgets ${widgets.map((w) => kb(files[w])).join(", ")})`);
}

async function development() {
  mkdirSync(outDir, { recursive: true });
  const ctx = await esbuild.context({
    ...common,
    entryPoints: widgets.map((w) => path.join(SRC, "widgets", w)),
    outdir: outDir,
    sourcemap: "inline",
    sourcesContent: true,
  });
  if (watch) {
    await ctx.watch();
    console.log(`watching kvwidgets/widgets/js: rebuilding ${widgets.length} widgets into ${path.relative(ROOT, outDir)} on every save (Ctrl-C stops)`);
    return;
  }
  await ctx.rebuild();
  await ctx.dispose();
  console.log(`built ${widgets.length} development widgets into ${path.relative(ROOT, outDir)}`);
}

await (dev ? development() : production());
