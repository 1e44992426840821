"""Standalone HTML pages of kvwidgets (any anywidget, in fact) for course pages.

    kvwidgets.export.to_html(widget, "page.html")        # one widget
    kvwidgets.export.to_html([w1, w2], "page.html")      # several, one after another

The page works from file:// with no kernel and no network: see page.py for what it
holds and runtime.js for the in-page model that stands in for the kernel.
"""

from .errors import ExportError, NotAWidgetError
from .page import AUTOSIZE_SCRIPT, iframe_snippet, to_html

__all__ = ["AUTOSIZE_SCRIPT", "ExportError", "NotAWidgetError", "iframe_snippet", "to_html"]
