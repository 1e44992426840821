"""plotly.js and the shared library once per kernel: one hidden widget model holds both.

Every KVWidget refers to the same PlotlyBundle through its synced `_plotly` trait
(ipywidgets' widget_serialization, so the state holds "IPY_MODEL_<id>", not the text).
A front end that keeps all widget models of a page together (JupyterLab, Notebook 7,
Voila, marimo, nbconvert's html-manager, a notebook saved with widget state) then holds
the 1.2 MB bundle and the 55 KB library (library.py: kvcalc.js + ui.js) once, however
many widgets it shows: the widgets' ESMs fetch the model with
`model.widget_manager.get_model(id)` and evaluate its `source` and `library` once per
page (js/plotly_loader.js). Hosts that only have a widget's own ESM and state (an
exported page, MyST's {anywidget} directive) get `standalone_esm()` instead, which
holds the bundle and the library itself.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import anywidget
import traitlets

from . import library
from .library import library_hash, library_source

BUNDLE_PATH = Path(__file__).parent / "vendor" / "plotly-basic.min.js"

# The bundle's banner names its version: "plotly.js (basic - minified) v4.1.1".
_VERSION = re.compile(r"plotly\.js \(basic - minified\) v(\d+\.\d+\.\d+)")


@functools.cache
def bundle_source() -> str:
    return BUNDLE_PATH.read_text(encoding="utf-8")


@functools.cache
def bundle_version() -> str:
    found = _VERSION.search(bundle_source()[:400])
    if not found:
        raise RuntimeError(
            f"{BUNDLE_PATH} has no 'plotly.js (basic - minified) vX.Y.Z' banner; see vendor/README.md"
        )
    return found.group(1)


def bundle_esm() -> str:
    """The bundle model's own ESM: no view; as soon as the page creates the model it
    starts evaluating plotly.js and the shared library, so the first widget finds them
    (nearly) ready."""
    return (
        library.loader_header(plotly_inlined=False, library_inlined=False)
        + library.read_js("plotly_loader.js")
        + "\nexport default {\n  initialize({ model }) {\n    kvPlotlyPreload(model);\n  },\n};\n"
    )


class PlotlyBundle(anywidget.AnyWidget):
    """A model without a view: the plotly.js and library texts the KVWidgets of this kernel share.

    An anywidget (rather than a bare ipywidgets model) because every host that runs
    the KVWidgets already knows anywidget's model class. Displayed by mistake, it
    shows nothing.
    """

    _esm = bundle_esm()
    source = traitlets.Unicode("").tag(sync=True)
    version = traitlets.Unicode("").tag(sync=True)
    library = traitlets.Unicode("").tag(sync=True)  # kvcalc.js + ui.js as one module (library.py)
    library_hash = traitlets.Unicode("").tag(sync=True)  # which library: a widget uses only its own

    def __init__(self, **kwargs):
        kwargs.setdefault("source", bundle_source())
        kwargs.setdefault("version", bundle_version())
        kwargs.setdefault("library", library_source())
        kwargs.setdefault("library_hash", library_hash())
        super().__init__(**kwargs)


_shared: PlotlyBundle | None = None


def shared_bundle() -> PlotlyBundle:
    """The kernel's one PlotlyBundle, made again if it was closed (Widget.close_all())."""
    global _shared
    if _shared is None or getattr(_shared, "comm", None) is None:
        _shared = PlotlyBundle()
    return _shared
