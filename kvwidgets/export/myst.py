"""Files for MyST / Jupyter Book 2's ``{anywidget}`` directive, for a course author.

    snippet = kvwidgets.export.to_myst(kw.ContextVsUsers(context=32768), "widgets")

writes ``widgets/kvwidgets-<hash>.mjs`` (one ES module holding plotly.js, the library and
every widget; the hash names its text, so files of two kvwidgets versions never mix),
``widgets/ContextVsUsers.css`` and ``.json`` (the widget's state: its inputs, the model
shapes and GPU rows it draws from, and ``kvwidget``, which names the widget the shared
module draws). It returns the directive to paste into a page, e.g.::

    ```{anywidget} ./widgets/kvwidgets-<hash>.mjs
    :css: ./widgets/ContextVsUsers.css
    { ...the .json, inline... }
    ```

Why one module for every widget: ``myst build`` copies each directive's ESM and CSS into
the site's public folder under a new name and copies nothing else (mystmd 1.8.3,
myst-cli transforms/anywidgets transformWidgetStaticAssetsToDisk, called from
process/mdast finalizeMdast; the new name comes from myst-cli-utils filesystem
hashAndCopyStaticFile: the file's stem and a hash of its path, mtime and size), so a
module that imports a file beside it finds nothing on the built site. Every directive naming the same file gets the same
public name, so a page, and a whole site read in one tab, fetches and runs plotly.js once
(the browser's module map keeps one instance per URL).

The directive (mystmd, packages/myst-directives/src/anywidget.ts) takes the ESM's path
or URL as its argument, the stylesheet as ``:css:`` and the model's starting state as a
JSON5/JSON body, which must be inline: the .json file holds the same text for whoever
builds pages another way. On the page MyST's model (@myst-theme/anywidget MystAnyModel)
keeps state in the browser only: there is no kernel, and its save_changes() and off()
throw "not implemented"; kvwidgets' widgets expect that (js/ui/host.js tryModelCall) and
redraw on the page. ``shared=False`` writes ``<name>.mjs`` instead, the widget alone with
plotly.js inside it (1.3 MB a widget). A local path as the ESM needs a myst-theme release
with PR 824; older themes need the files served at a URL (give ``url_prefix``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..widgets.front_end import read_built, standalone_runtime
from .errors import ExportError
from .folders import writable_folder
from .snapshot import snapshot

# A file name MyST and every static host take as it is.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

# The model entry naming the widget the shared module draws (js/loader/one_module.js WIDGET_KEY).
WIDGET_KEY = "kvwidget"


@dataclass(frozen=True)
class MystFiles:
    """What to_myst wrote, and the directive that shows it."""

    esm: Path
    css: Path
    json: Path
    directive: str
    shared: bool = False  # esm is the one module every widget's directive names

    def __str__(self) -> str:
        return self.directive


def to_myst(
    widget,
    folder,
    *,
    name: str | None = None,
    page_dir=None,
    url_prefix: str | None = None,
    shared: bool = True,
) -> MystFiles:
    """Write the module, ``<name>.css`` and ``<name>.json`` for ``widget`` into ``folder``.

    ``name`` defaults to the widget's class name. The directive's paths are relative to
    ``page_dir`` (the folder of the Markdown page that will hold it; default: the
    current folder), or start with ``url_prefix`` (e.g. "https://example.org/widgets/")
    when the files are served from elsewhere. ``shared`` (default) writes
    ``kvwidgets-<hash>.mjs``, one module for every widget (plotly.js and the library
    in front), which every directive names; ``shared=False`` writes ``<name>.mjs``, the
    widget alone with plotly.js inside it. Returns a MystFiles whose ``directive`` (also
    its str()) is the text to paste into the page.
    """
    if isinstance(widget, (list, tuple)):
        raise InputError("to_myst writes one widget per directive; call it once for each widget")
    snap = snapshot(widget)
    name = snap.name if name is None else name
    if not isinstance(name, str) or not _NAME.match(name):
        raise InputError(f"name must be a file name of letters, digits, '_', '-' or '.', got {name!r}")
    if snap.buffers:
        paths = ", ".join(".".join(map(str, b["path"])) for b in snap.buffers)
        raise ExportError(
            f"{snap.name} holds binary values ({paths}); the directive's JSON body cannot carry them"
        )
    if url_prefix is not None and not isinstance(url_prefix, str):
        raise InputError(f"url_prefix must be a string or None, got {type(url_prefix).__name__}")
    # Keys starting with "_" name Jupyter's widget classes, which MyST does not use.
    state = {k: v for k, v in snap.state.items() if not k.startswith("_")}
    body = json.dumps(state, ensure_ascii=False, allow_nan=False, sort_keys=True)

    if not isinstance(shared, bool):
        raise InputError(f"shared must be True or False, got {shared!r}")

    target = writable_folder(folder, "the widget's files")
    render_file = getattr(type(widget), "_render_file", "")
    # a widget that is not one of kvwidgets' own keeps its module whole
    shared = shared and bool(render_file) and snap.esm.startswith(standalone_runtime())
    texts = {"css": snap.css}
    if shared:
        module = all_widgets_module()
        digest = hashlib.sha256(module.encode()).hexdigest()[:16]
        esm = target / f"kvwidgets-{digest}.mjs"
        state[WIDGET_KEY] = Path(render_file).stem
        body = json.dumps(state, ensure_ascii=False, allow_nan=False, sort_keys=True)
        texts[esm.name] = module
    else:
        esm = target / f"{name}.mjs"
        texts[esm.name] = snap.esm
    files = {"css": target / f"{name}.css", "json": target / f"{name}.json", esm.name: esm}
    texts["json"] = body + "\n"
    for key, path in files.items():
        try:
            path.write_text(texts[key], encoding="utf-8")
        except OSError as exc:
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc

    def ref(path: Path) -> str:
        if url_prefix is not None:
            return url_prefix.rstrip("/") + "/" + path.name
        base = Path(page_dir).expanduser() if page_dir is not None else Path.cwd()
        rel = os.path.relpath(path.resolve(), base.resolve()).replace(os.sep, "/")
        return rel if rel.startswith("../") else "./" + rel

    directive = f"```{{anywidget}} {ref(esm)}\n:css: {ref(files['css'])}\n{body}\n```\n"
    return MystFiles(esm=esm, css=files["css"], json=files["json"], directive=directive, shared=shared)


def all_widgets_module() -> str:
    """plotly.js and the library, then every widget in one module that draws the widget its
    model's ``kvwidget`` names (js/loader/one_module.js widgetsByName)."""
    return standalone_runtime() + read_built("all_widgets.js")
