"""plotly.js and the shared library once per kernel: one hidden widget model holds both.

Every KVWidget refers to the same SharedAssets model through its synced `_shared_assets`
trait (ipywidgets' widget_serialization, so the state holds "IPY_MODEL_<id>", not the
text). A front end that keeps all widget models of a page together (JupyterLab, Notebook
7, Voila, marimo, nbconvert's html-manager, a notebook saved with widget state) then
holds the 1.2 MB plotly.js bundle and the 45 KB library (static/library.js, front_end.py)
once, however many widgets it shows: the widgets' ESMs fetch the model with
`model.widget_manager.get_model(id)` and import its `plotly` and `library` once per page
(js/loader/shared_assets.js). Hosts that only have a widget's own ESM and state (an
exported page, MyST's {anywidget} directive) get `standalone_esm()` instead, which holds
both itself.
"""

from __future__ import annotations

import anywidget
import traitlets

from .front_end import library_hash, library_source, plotly_source, plotly_version, read_built


def shared_texts() -> dict[str, str]:
    """What the SharedAssets model carries, also sent over a widget's comm to a front end
    that cannot reach the model (KVWidget._on_custom_msg)."""
    return {
        "plotly": plotly_source(),
        "plotly_version": plotly_version(),
        "library": library_source(),
        "library_hash": library_hash(),
    }


class SharedAssets(anywidget.AnyWidget):
    """A model without a view: the plotly.js and library texts the KVWidgets of this kernel share.

    An anywidget (rather than a bare ipywidgets model) because every host that runs
    the KVWidgets already knows anywidget's model class. Its own ESM starts the page's
    loads as soon as the page creates the model. Displayed by mistake, it shows nothing.
    """

    _esm = read_built("shared_assets.js")
    plotly = traitlets.Unicode("").tag(sync=True)
    plotly_version = traitlets.Unicode("").tag(sync=True)
    library = traitlets.Unicode("").tag(sync=True)  # static/library.js
    library_hash = traitlets.Unicode("").tag(sync=True)  # which library: a widget uses only its own

    def __init__(self, **kwargs):
        for name, text in shared_texts().items():
            kwargs.setdefault(name, text)
        super().__init__(**kwargs)


_shared: SharedAssets | None = None


def shared_assets() -> SharedAssets:
    """The kernel's one SharedAssets model, made again if it was closed (Widget.close_all())."""
    global _shared
    if _shared is None or getattr(_shared, "comm", None) is None:
        _shared = SharedAssets()
    return _shared
