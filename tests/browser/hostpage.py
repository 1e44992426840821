"""A page that hosts one widget the way another front end does, for the browser tests.

The widget's files come from kvwidgets.export.to_myst (<name>.mjs, .css, .json). The
page imports the ESM by URL and renders it the way MyST's {anywidget} renderer does
(@myst-theme/anywidget 1.4.1 dist/renderers.js): `mod.default`, a model built from the
JSON, initialize({model}), then a shadow root holding a div (class myst-anywidget)
with the CSS as a <link> inside it, and render({model, el}). Options: the model
(MyST's, which throws on save_changes/off, or a full one, see hosts/myst_model.js),
shadow root or not (marimo and MyST use one; VS Code and Colab render outputs in the
page), extra <head> content, attributes on <html> and <body>, and a setup script run
before the widget renders (a host's theme).

Module scripts do not load from file:// pages, so a small HTTP server on 127.0.0.1
serves the folder, as a MyST site or a notebook server would.
"""

from __future__ import annotations

import functools
import html
import json
import shutil
import subprocess
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HOSTS = Path(__file__).with_name("hosts")


class _Quiet(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
    }

    def log_message(self, *args):  # the test output stays readable
        pass


@contextmanager
def serve(folder: Path):
    """Serve `folder` on a free loopback port; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def host_page(
    folder: Path,
    name: str,
    page: str,
    *,
    model: str = "myst",
    shadow: bool = True,
    head: str = "",
    html_attrs: str = "",
    body_attrs: str = "",
    setup_js: str = "",
    esm: str | None = None,
) -> str:
    """Write `page` (an .html file name) into `folder`, hosting the widget files `name`.*
    (the module `esm`, default `name`.mjs); copy the host fixtures beside it. Returns the
    page's file name."""
    if model not in ("myst", "full"):
        raise ValueError(f"model must be 'myst' or 'full', got {model!r}")
    for fixture in HOSTS.iterdir():
        if fixture.suffix in (".js", ".css"):
            shutil.copy(fixture, folder / fixture.name)
    model_class = "MystAnyModel" if model == "myst" else "FullModel"
    esm = esm or f"{name}.mjs"
    text = f"""<!DOCTYPE html>
<html lang="en" {html_attrs}>
<head><meta charset="utf-8"><title>{html.escape(name)} hosted</title>{head}</head>
<body {body_attrs}>
<div id="host" class="relative w-full"></div>
<script type="module">
import {{ MystAnyModel, FullModel }} from "./myst_model.js";
import {{ applyVsCodeTheme }} from "./vscode_theme.js";
window.applyVsCodeTheme = applyVsCodeTheme;
{setup_js}
const state = await (await fetch("./{name}.json")).json();
const mod = await import("./{esm}");
const widget = mod.default;
const model = new {model_class}(state);
const initial = JSON.parse(JSON.stringify(state));
await widget.initialize?.({{ model }});
const rootEl = document.getElementById("host");
let el = rootEl;
if ({str(shadow).lower()}) {{
  const shadowRoot = rootEl.attachShadow({{ mode: "open" }});
  el = document.createElement("div");
  el.className = "myst-anywidget";
  el.style.position = "relative";
  shadowRoot.replaceChildren(el);
}}
const link = document.createElement("link");
link.rel = "stylesheet";
link.href = "./{name}.css";
el.appendChild(link);
const cleanup = await widget.render?.({{ model, el }});
window.kvHost = {{
  model, initial, cleanup,
  root: () => (rootEl.shadowRoot || document).querySelector(".kv-widget"),
}};
document.documentElement.dataset.hostReady = "1";
</script>
</body>
</html>
"""
    (folder / page).write_text(text, encoding="utf-8")
    return page


ROOT_DIR = Path(__file__).resolve().parents[2]


def build_myst_renderer(folder: Path) -> None:
    """Bundle MyST's real renderer (hosts/myst_renderer.mjs, with @myst-theme/anywidget and
    React from node_modules) into `folder`/myst_renderer.js."""
    esbuild = ROOT_DIR / "node_modules" / ".bin" / "esbuild"
    renderer = ROOT_DIR / "node_modules" / "@myst-theme" / "anywidget"
    if not esbuild.exists() or not renderer.exists():
        raise RuntimeError(
            "@myst-theme/anywidget is missing from node_modules: run 'bash scripts/js.sh install'"
        )
    subprocess.run(
        [
            str(esbuild),
            str(HOSTS / "myst_renderer.mjs"),
            "--bundle",
            "--format=esm",
            "--minify",
            "--log-level=error",
            '--define:process.env.NODE_ENV="production"',
            f"--outfile={folder / 'myst_renderer.js'}",
        ],
        check=True,
        cwd=ROOT_DIR,
    )


def myst_page(folder: Path, widgets: list, page: str) -> str:
    """Write `page` showing every widget of `widgets` (what to_myst returned for each, its
    files in `folder`) through MyST's real {anywidget} renderer (build_myst_renderer), one
    directive node each: the ESM's and the stylesheet's URLs and the JSON body as the
    model. window.kvHosts[i].root() is the i-th widget's root inside the shadow root the
    renderer made."""
    build_myst_renderer(folder)
    nodes = [{"esm": f.esm.name, "css": f.css.name, "json": f.json.name} for f in widgets]
    divs = "\n".join(f'<div id="host-{i}"></div>' for i in range(len(nodes)))
    text = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>MyST page</title></head>
<body>
{divs}
<script type="module">
import {{ mount }} from "./myst_renderer.js";
const nodes = {json.dumps(nodes)};
window.kvHosts = nodes.map((node, i) => ({{
  root: () => document.querySelector(`#host-${{i}} > div`)?.shadowRoot?.querySelector(".kv-widget") ?? null,
}}));
for (const [i, node] of nodes.entries()) {{
  const model = await (await fetch(`./${{node.json}}`)).json();
  const esm = new URL(`./${{node.esm}}`, location.href).href;
  const css = new URL(`./${{node.css}}`, location.href).href;
  mount(document.getElementById(`host-${{i}}`), {{ type: "anywidget", esm, css, model }});
}}
document.documentElement.dataset.hostReady = "1";
</script>
</body>
</html>
"""
    (folder / page).write_text(text, encoding="utf-8")
    return page


def built_myst_page(folder: Path, page: str) -> str:
    """Write `page` into `folder`, the root of a site that `myst build --site` built (its
    public folder at the root, as MyST's themes serve it, and its content folder as
    content/). Opened as `page?content=SLUG`, it reads content/SLUG.json, the page as
    MyST's theme receives it, and mounts every {anywidget} node of its tree, unchanged,
    with MyST's real renderer (build_myst_renderer), in the order of the page.
    window.kvHosts[i].root() is the i-th widget's root inside its shadow root; the
    nodes are in window.kvNodes."""
    build_myst_renderer(folder)
    text = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>MyST built page</title></head>
<body>
<main id="page"></main>
<script type="module">
import { mount } from "./myst_renderer.js";
const slug = new URLSearchParams(location.search).get("content");
const content = await (await fetch(`./content/${slug}.json`)).json();
const nodes = [];
(function walk(node) {
  if (node.type === "anywidget") nodes.push(node);
  for (const child of node.children ?? []) walk(child);
})(content.mdast);
window.kvNodes = nodes;
const main = document.getElementById("page");
const title = document.createElement("h1");
title.textContent = content.frontmatter?.title ?? slug;
main.append(title);
window.kvHosts = nodes.map((node, i) => {
  const host = document.createElement("div");
  host.id = `host-${i}`;
  main.append(host);
  mount(host, node);
  return { root: () => host.querySelector(":scope > div")?.shadowRoot?.querySelector(".kv-widget") ?? null };
});
document.documentElement.dataset.hostReady = "1";
</script>
</body>
</html>
"""
    (folder / page).write_text(text, encoding="utf-8")
    return page
