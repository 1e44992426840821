"""Files for MyST / Jupyter Book 2's ``{anywidget}`` directive, for a course author.

    snippet = kvwidgets.export.to_myst(kw.ContextVsUsers(context=32768), "widgets")

writes ``widgets/ContextVsUsers.mjs`` (the widget's ES module), ``.css`` and ``.json``
(the widget's state: its inputs, the model shapes and GPU rows it draws from) and
returns the directive to paste into a page, e.g.::

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
the page. A local path as the ESM needs a myst-theme release with PR 824; older
themes need the files served at a URL (give ``url_prefix``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
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

    def __str__(self) -> str:
        return self.directive


def to_myst(
    widget, folder, *, name: str | None = None, page_dir=None, url_prefix: str | None = None
) -> MystFiles:
    """Write ``<name>.mjs``, ``<name>.css`` and ``<name>.json`` for ``widget`` into ``folder``.

    ``name`` defaults to the widget's class name. The directive's paths are relative to
    ``page_dir`` (the folder of the Markdown page that will hold it; default: the
    current folder), or start with ``url_prefix`` (e.g. "https://example.org/widgets/")
    when the files are served from elsewhere. Returns a MystFiles whose ``directive``
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

    target = writable_folder(folder, "the widget's files")
    files = {ext: target / f"{name}.{ext}" for ext in ("mjs", "css", "json")}
    texts = {"mjs": snap.esm, "css": snap.css, "json": body + "\n"}
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
    return MystFiles(esm=files["mjs"], css=files["css"], json=files["json"], directive=directive)
