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
) -> str:
    """Write `page` (an .html file name) into `folder`, hosting the widget files `name`.*;
    copy the host fixtures beside it. Returns the page's file name."""
    if model not in ("myst", "full"):
        raise ValueError(f"model must be 'myst' or 'full', got {model!r}")
    for fixture in HOSTS.iterdir():
        if fixture.suffix in (".js", ".css"):
            shutil.copy(fixture, folder / fixture.name)
    model_class = "MystAnyModel" if model == "myst" else "FullModel"
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
const mod = await import("./{name}.mjs");
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


def myst_page(folder: Path, names: list[str], page: str) -> str:
    """Write `page` hosting the widget files of every name in `names` on one page, each
    rendered as MyST's renderer does (its own import(url), MyST's model, a shadow root);
    window.kvHosts holds one {model, initial, root} per widget, in order."""
    for fixture in HOSTS.iterdir():
        if fixture.suffix in (".js", ".css"):
            shutil.copy(fixture, folder / fixture.name)
    divs = "\n".join(f'<div id="host-{i}" class="relative w-full"></div>' for i in range(len(names)))
    text = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>MyST page</title></head>
<body>
{divs}
<script type="module">
import {{ MystAnyModel }} from "./myst_model.js";
async function mount(name, rootEl) {{
  const state = await (await fetch(`./${{name}}.json`)).json();
  const widget = (await import(`./${{name}}.mjs`)).default;
  const model = new MystAnyModel(state);
  const initial = JSON.parse(JSON.stringify(state));
  await widget.initialize?.({{ model }});
  const shadowRoot = rootEl.attachShadow({{ mode: "open" }});
  const el = document.createElement("div");
  el.className = "myst-anywidget";
  el.style.position = "relative";
  shadowRoot.replaceChildren(el);
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = `./${{name}}.css`;
  el.appendChild(link);
  await widget.render?.({{ model, el }});
  return {{ model, initial, root: () => shadowRoot.querySelector(".kv-widget") }};
}}
const names = {json.dumps(names)};
window.kvHosts = await Promise.all(names.map((n, i) => mount(n, document.getElementById(`host-${{i}}`))));
document.documentElement.dataset.hostReady = "1";
</script>
</body>
</html>
"""
    (folder / page).write_text(text, encoding="utf-8")
    return page
