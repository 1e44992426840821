"""Files for MyST / Jupyter Book 2's ``{anywidget}`` directive, for a course author.

    snippet = kvwidgets.export.to_myst(kw.ContextVsUsers(context=32768), "widgets")

writes ``widgets/ContextVsUsers.mjs`` (the widget's ES module), ``.css`` and ``.json``
(the widget's state: its inputs, the model shapes and GPU rows it draws from), and
``widgets/kvwidgets-<hash>.mjs``: plotly.js and the shared library, which every widget's
module imports by a relative URL, so a page with several widgets fetches and runs them
once (the browser's module map keeps one instance per URL; the hash names the text, so
files of two kvwidgets versions never mix). It returns the directive to paste into a
page, e.g.::

    ```{anywidget} ./widgets/ContextVsUsers.mjs
    :css: ./widgets/ContextVsUsers.css
    { ...the .json, inline... }
    ```

The directive (mystmd, packages/myst-directives/src/anywidget.ts) takes the ESM's path
or URL as its argument, the stylesheet as ``:css:`` and the model's starting state as a
JSON5/JSON body, which must be inline: the .json file holds the same text for whoever
builds pages another way. On the page MyST's model (@myst-theme/anywidget MystAnyModel)
keeps state in the browser only: there is no kernel, and its save_changes() and off()
throw "not implemented"; kvwidgets' widgets expect that (js/ui/host.js tryModelCall) and redraw on
the page. MyST's renderer (@myst-theme/anywidget 1.4.1 dist/renderers.js) loads the
ESM with ``import(url)``, so the relative import resolves beside it; a host that copies
only the one file named in the directive needs ``shared=False`` (plotly.js inside each
widget's module). A local path as the ESM needs a myst-theme release with PR 824; older
themes need the files served at a URL (give ``url_prefix``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..widgets.front_end import standalone_runtime
from .errors import ExportError
from .folders import writable_folder
from .snapshot import snapshot

# A file name MyST and every static host take as it is.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class MystFiles:
    """What to_myst wrote, and the directive that shows it."""

    esm: Path
    css: Path
    json: Path
    directive: str
    runtime: Path | None = None  # plotly.js and the library, shared by a page's widgets

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
    """Write ``<name>.mjs``, ``<name>.css`` and ``<name>.json`` for ``widget`` into ``folder``.

    ``name`` defaults to the widget's class name. The directive's paths are relative to
    ``page_dir`` (the folder of the Markdown page that will hold it; default: the
    current folder), or start with ``url_prefix`` (e.g. "https://example.org/widgets/")
    when the files are served from elsewhere. ``shared`` (default) writes plotly.js and
    the library once into ``kvwidgets-<hash>.mjs`` beside the widget's module, which
    imports it; ``shared=False`` puts them inside the widget's module. Returns a MystFiles whose ``directive``
    (also its str()) is the text to paste into the page.
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
    files = {ext: target / f"{name}.{ext}" for ext in ("mjs", "css", "json")}
    texts = {"mjs": snap.esm, "css": snap.css, "json": body + "\n"}
    runtime_text = standalone_runtime()
    runtime = None
    # a widget whose module does not start with kvwidgets' runtime keeps its module whole
    if shared and snap.esm.startswith(runtime_text):
        digest = hashlib.sha256(runtime_text.encode()).hexdigest()[:16]
        runtime = target / f"kvwidgets-{digest}.mjs"
        texts["mjs"] = f'import "./{runtime.name}";\n' + snap.esm[len(runtime_text) :]
        files["runtime"] = runtime
        texts["runtime"] = runtime_text
    for ext, path in files.items():
        try:
            path.write_text(texts[ext], encoding="utf-8")
        except OSError as exc:
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc

    def ref(path: Path) -> str:
        if url_prefix is not None:
            return url_prefix.rstrip("/") + "/" + path.name
        base = Path(page_dir).expanduser() if page_dir is not None else Path.cwd()
        rel = os.path.relpath(path.resolve(), base.resolve()).replace(os.sep, "/")
        return rel if rel.startswith("../") else "./" + rel

    directive = f"```{{anywidget}} {ref(files['mjs'])}\n:css: {ref(files['css'])}\n{body}\n```\n"
    return MystFiles(
        esm=files["mjs"], css=files["css"], json=files["json"], directive=directive, runtime=runtime
    )
