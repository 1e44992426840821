// Precompile the modules a JupyterLite kernel imports as it starts, in Pyodide itself
// (scripts/pyodide_precompile.py says why and how). Called by scripts/lite_site.py.
//
//   node scripts/pyodide_precompile.mjs PYODIDE_DIR KERNEL_WHEELS_DIR OUT_DIR
//
// PYODIDE_DIR is the site's static/pyodide (its lock already names the site's wheels),
// KERNEL_WHEELS_DIR the kernel extension's own wheels (pyodide_kernel, ipykernel, piplite).
// The kernel's start is replayed as the JupyterLite worker does it (load the site's
// packages, install the kernel's wheels, `import pyodide_kernel`), then `import kvwidgets`
// and one widget built; every archive of PYODIDE_DIR holding a module loaded by then
// (python_stdlib.zip and the wheels) is written to OUT_DIR with those modules' pycs added.
import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const KERNEL_START = `
import micropip
for f in kernel_files:
    await micropip.install("emfs:/kernel-wheels/" + f, deps=False)
import pyodide_kernel
# the worker hands the interpreter its comm sender (initGlobals); widgets' messages go nowhere here
pyodide_kernel.kernel_instance.interpreter.send_comm = lambda *args, **kwargs: None
import kvwidgets
kvwidgets.UsersThatFit()
`;

const WRITE_ARCHIVES = `
import sys
wanted = imported_files()
stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))  # /lib/python314.zip
site_packages = next(p for p in sys.path if p.endswith("site-packages"))
counts = {}
for name in archives:
    in_zip = name == "python_stdlib.zip"
    root = (stdlib_zip if in_zip else site_packages) + "/"
    counts[name] = precompile("/site/" + name, "/out/" + name, root, in_zip, wanted)
"\\n".join(f"{n}: {c} pycs" for n, c in counts.items())
`;

async function main(pyodideDir, kernelWheels, outDir) {
  const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
  const py = await loadPyodide({ indexURL: `${pyodideDir}/` });
  for (const [dir, at] of [
    [pyodideDir, "/site"],
    [kernelWheels, "/kernel-wheels"],
    [outDir, "/out"],
  ]) {
    py.FS.mkdirTree(at);
    py.FS.mount(py.FS.filesystems.NODEFS, { root: dir }, at);
  }
  const lock = JSON.parse(readFileSync(`${pyodideDir}/pyodide-lock.json`, "utf8"));
  await py.loadPackage(Object.keys(lock.packages), { messageCallback: () => {} });
  const kernelFiles = readdirSync(kernelWheels).filter((f) => /^(pyodide_kernel|ipykernel|piplite)-.*\.whl$/.test(f));
  py.globals.set("kernel_files", py.toPy(kernelFiles));
  py.runPython(readFileSync(new URL("./pyodide_precompile.py", import.meta.url), "utf8"));
  await py.runPythonAsync(KERNEL_START);
  const archives = readdirSync(pyodideDir).filter((f) => f.endsWith(".whl") || f === "python_stdlib.zip");
  py.globals.set("archives", py.toPy(archives));
  console.log(py.runPython(WRITE_ARCHIVES));
}

const dirs = process.argv.slice(2).map((p) => resolve(p));
if (dirs.length !== 3) {
  console.error("usage: node scripts/pyodide_precompile.mjs PYODIDE_DIR KERNEL_WHEELS_DIR OUT_DIR");
  process.exit(2);
}
try {
  await main(...dirs);
} catch (e) {
  // a Python error's message is its traceback; uncaught, Node would print Pyodide's minified source
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
}
