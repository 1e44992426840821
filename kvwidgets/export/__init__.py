"""Standalone HTML pages of kvwidgets (any anywidget, in fact) for course pages.

    kvwidgets.export.to_html(widget, "page.html")        # one widget
    kvwidgets.export.to_html([w1, w2], "page.html")      # several, one after another
    kvwidgets.export.to_myst(widget, "widgets")          # files for MyST's {anywidget}

The page works from file:// with no kernel and no network: see page.py for what it
holds and runtime.js for the in-page model that stands in for the kernel; myst.py for
the files of a MyST / Jupyter Book 2 page.
"""

from .errors import ExportError, NotAWidgetError
from .myst import MystFiles, to_myst
from .page import AUTOSIZE_SCRIPT, iframe_snippet, to_html

__all__ = ["AUTOSIZE_SCRIPT", "ExportError", "MystFiles", "NotAWidgetError", "iframe_snippet", "to_html", "to_myst"]
