"""The widgets' front-end files: the built JavaScript (static/, written by
scripts/build_js.mjs from js/), the vendored plotly.js (vendor/), and which of them make a
widget's ESM, the shared library and the standalone ESM.

The sources in js/ are ES modules; the build writes, and the repository commits, so
that pip, Binder and JupyterLite need no Node.js:

* ``static/library.js``: the shared library (js/library.js: the closed forms in js/calc/
  and the frame, controls, theme and plotting in js/ui/), carried once per kernel by the
  SharedAssets model (shared_assets.py) and imported once per page;
* ``static/<widget>.js``: a widget's ESM, its render code and the loader, with every
  library name bound at the first render to the page's one library instance;
* ``static/shared_assets.js``: the SharedAssets model's own ESM;
* ``static/standalone_prelude.js``: what a standalone ESM runs after plotly.js.

With ``KVW_DEV=1`` in the kernel's environment a widget's ``_esm`` is instead the PATH of
its development build (static_dev/ or ``KVW_DEV_DIR``, written by ``bash scripts/js.sh
watch``: the library bundled in, inline source maps), which anywidget re-sends on every
save when ``ANYWIDGET_HMR=1``. Both are read when kvwidgets.widgets is first imported
(the widget classes are made then).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

HERE = Path(__file__).parent
STATIC = HERE / "static"
STATIC_DEV = HERE / "static_dev"  # bash scripts/js.sh watch writes here; KVW_DEV_DIR names another folder
CSS = HERE / "js" / "widget.css"
PLOTLY_PATH = HERE / "vendor" / "plotly-basic.min.js"

# The bundle's banner names its version: "plotly.js (basic - minified) v4.1.1".
_VERSION = re.compile(r"plotly\.js \(basic - minified\) v(\d+\.\d+\.\d+)")


@functools.cache
def plotly_source() -> str:
    return PLOTLY_PATH.read_text(encoding="utf-8")


@functools.cache
def plotly_version() -> str:
    found = _VERSION.search(plotly_source()[:400])
    if not found:
        raise RuntimeError(
            f"{PLOTLY_PATH} has no 'plotly.js (basic - minified) vX.Y.Z' banner; see vendor/README.md"
        )
    return found.group(1)


def dev_mode() -> bool:
    """KVW_DEV=1: widgets load their development build from a file anywidget can watch."""
    return os.environ.get("KVW_DEV") == "1"


def dev_dir() -> Path:
    """Where the development build is (KVW_DEV_DIR, else static_dev/)."""
    return Path(os.environ.get("KVW_DEV_DIR") or STATIC_DEV)


def _built(name: str) -> Path:
    path = STATIC / name
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: the widgets' JavaScript is built by `bash scripts/js.sh build`"
        )
    return path


@functools.cache
def read_built(name: str) -> str:
    """The text of one committed build output (static/<name>)."""
    return _built(name).read_text(encoding="utf-8")


def widget_esm(render_file: str) -> str | Path:
    """A widget's ``_esm``: the built module's text, or in development its file's path."""
    if dev_mode():
        path = dev_dir() / render_file
        if not path.is_file():
            raise FileNotFoundError(
                f"KVW_DEV=1 but {path} is missing: run `bash scripts/js.sh watch` (or `build-dev`) first"
            )
        return path
    return read_built(render_file)


def widget_css() -> str | Path:
    """The widgets' ``_css``: text, or in development the file's path (hot reload)."""
    return CSS if dev_mode() else CSS.read_text(encoding="utf-8")


def library_source() -> str:
    return read_built("library.js")


@functools.cache
def library_hash() -> str:
    """Names the library text on a page (the build puts the same hash in every widget ESM,
    so a widget only ever uses the library it was built with)."""
    return hashlib.sha256(library_source().encode()).hexdigest()[:16]


def plotly_prelude() -> str:
    """The vendored plotly.js for a standalone ESM, run only when this plotly.js is not on
    the page yet: a page with several standalone ESMs (an exported page with several
    widget classes, a MyST page) parses each copy but runs plotly.js's start-up once. The
    bundle is a UMD script that sets window.Plotly when there is no CommonJS `module`
    (the case inside an ES module)."""
    return (
        f'if (!(globalThis.Plotly && globalThis.Plotly.version === "{plotly_version()}")) {{\n'
        f"{plotly_source()}\n}}\n"
    )


def standalone_esm(render_file: str) -> str:
    """One widget's ESM that needs nothing else on the page (kvwidgets.export, MyST):
    plotly.js, then the library put in the page's slots, then the widget module. Every
    standalone ESM starts with the same two parts, which an exported page stores once
    (export.page.shared_prefix)."""
    esm = widget_esm(render_file)
    widget = esm.read_text(encoding="utf-8") if isinstance(esm, Path) else esm
    return standalone_runtime() + widget


def standalone_runtime() -> str:
    """The start of every standalone ESM: plotly.js, then the library put in the page's
    slots. kvwidgets.export.to_myst puts it in front of every widget's render code
    (static/all_widgets.js) in the one module its directives name."""
    return plotly_prelude() + read_built("standalone_prelude.js") + ";\n"
